/*===- kernels/cuda/CudaAbi.h - The C ABI of the CUDA module -----*- C -*-===//
//
// The CUDA kernels and device operations live in a shared module,
// libgraft_cuda.so, that links the CUDA runtime and cuBLAS. The VM loads it
// with dlopen the first time a CUDA device is used, so the graft binary
// starts and runs CPU work on a machine without a GPU, driver or CUDA
// libraries (docs/cuda.md says why this shape).
//
// Only C types cross the boundary: no LLVM type, no exception, no C++
// object. A call returns 0 on success; on failure it returns nonzero and
// writes a message naming the CUDA call that failed into `err`.
//
//===---------------------------------------------------------------------===*/
#ifndef GRAFT_KERNELS_CUDA_CUDAABI_H
#define GRAFT_KERNELS_CUDA_CUDAABI_H

#include <dlpack/dlpack.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any change to the structs below; the loader refuses a module of
 * another version. */
#define GRAFT_CUDA_ABI_VERSION 4u
/* The one symbol the loader looks up. */
#define GRAFT_CUDA_ENTRY "graft_cuda_api"

/* A message buffer the caller owns. */
typedef struct GraftCudaError {
  char message[1024];
} GraftCudaError;

typedef enum GraftCudaAttrKind {
  GRAFT_CUDA_ATTR_NONE = 0,
  GRAFT_CUDA_ATTR_INT = 1,
  GRAFT_CUDA_ATTR_FLOAT = 2,
  GRAFT_CUDA_ATTR_BOOL = 3,
  GRAFT_CUDA_ATTR_STRING = 4,
  GRAFT_CUDA_ATTR_INTS = 5
} GraftCudaAttrKind;

/* One kernel attribute (the kernels/Kernel.h AttrValue, flattened). */
typedef struct GraftCudaAttr {
  int32_t kind;        /* GraftCudaAttrKind */
  int64_t i;           /* INT, BOOL (0 or 1) */
  double f;            /* FLOAT */
  const char *s;       /* STRING, NUL-terminated */
  const int64_t *ints; /* INTS */
  int64_t numInts;
} GraftCudaAttr;

/* Arguments of one kernel call: device tensors, attributes in the kernel's
 * attribute order, scratch memory on the device, the stream to run on. */
typedef struct GraftCudaKernelArgs {
  DLTensor *const *inputs;
  int32_t numInputs;
  DLTensor *const *outputs;
  int32_t numOutputs;
  const GraftCudaAttr *attrs;
  int32_t numAttrs;
  void *workspace;
  size_t workspaceBytes;
  void *stream; /* cudaStream_t */
} GraftCudaKernelArgs;

/* The nodes of a captured graph by kind (what a replay launches). */
typedef struct GraftCudaGraphNodes {
  uint32_t kernels;
  uint32_t copies; /* memcpy nodes */
  uint32_t sets;   /* memset nodes */
  uint32_t other;  /* event records and waits, host nodes, empty nodes, ... */
} GraftCudaGraphNodes;

typedef int (*GraftCudaKernelFn)(const GraftCudaKernelArgs *args, GraftCudaError *err);
typedef size_t (*GraftCudaWorkspaceFn)(const GraftCudaKernelArgs *args);

/* A kernel of the module, called by the same symbol and with the same
 * argument order as the CPU kernel of kernels/Kernel.h. */
typedef struct GraftCudaKernel {
  const char *symbol;
  int32_t numInputs;  /* -1: variadic */
  int32_t numOutputs; /* -1: variadic */
  const char *const *attrNames;
  int32_t numAttrs;
  GraftCudaKernelFn run;
  GraftCudaWorkspaceFn workspaceBytes; /* NULL: needs none */
} GraftCudaKernel;

typedef enum GraftCudaCopyKind {
  GRAFT_CUDA_HOST_TO_DEVICE = 0,
  GRAFT_CUDA_DEVICE_TO_HOST = 1,
  GRAFT_CUDA_DEVICE_TO_DEVICE = 2
} GraftCudaCopyKind;

typedef struct GraftCudaApi {
  uint32_t abiVersion;
  /* Number of visible devices; fails when there is no driver. */
  int (*deviceCount)(int *count, GraftCudaError *err);
  /* Makes `device` current and creates the stream every call runs on. */
  int (*init)(int device, void **stream, GraftCudaError *err);
  /* The device's name and compute capability, for messages. */
  int (*describe)(int device, char *name, size_t nameBytes, int *major, int *minor,
                  GraftCudaError *err);
  int (*alloc)(int device, size_t bytes, void **ptr, GraftCudaError *err);
  void (*free)(int device, void *ptr);
  /* Page-locked host memory (staging of host inputs and outputs). */
  int (*allocHost)(size_t bytes, void **ptr, GraftCudaError *err);
  void (*freeHost)(void *ptr);
  /* Copies on `stream`; a copy to or from pageable host memory goes through
   * a pinned staging buffer and is complete on return. */
  int (*copy)(int device, void *dst, const void *src, size_t bytes, int32_t kind, void *stream,
              GraftCudaError *err);
  int (*synchronize)(int device, void *stream, GraftCudaError *err);
  /* Frees the buffers and library handles the module keeps between calls
   * (they are made again on demand), so that a leak check at exit sees only
   * real leaks. */
  void (*releaseResources)(void);
  const GraftCudaKernel *kernels;
  size_t numKernels;
  /* CUDA graphs (docs/cuda.md, "CUDA graphs"). beginCapture starts a
   * capture of `stream`; endCapture ends it and instantiates the graph into
   * `*graph` (a cudaGraphExec_t). A failed capture (a refused call inside it,
   * an invalidated capture) or instantiation discards everything and returns
   * nonzero, leaving the stream out of capture mode. `nodes` (may be NULL)
   * receives the captured graph's nodes by kind. The instantiated graph is
   * uploaded to the device on `stream`, so its first launch costs no more
   * than later ones. */
  int (*beginCapture)(int device, void *stream, GraftCudaError *err);
  int (*endCapture)(int device, void *stream, void **graph, GraftCudaGraphNodes *nodes,
                    GraftCudaError *err);
  int (*launchGraph)(int device, void *graph, void *stream, GraftCudaError *err);
  void (*destroyGraph)(void *graph);
  /* Times the module has made the host wait for the device (stream
   * synchronizations, copies to or from pageable host memory), for
   * graft run --profile. */
  uint64_t (*hostSyncs)(void);

  /* Run-time compilation (the fused kernels, docs/cuda.md). rtcCompile
   * compiles CUDA C++ `source` with NVRTC for compute capability
   * major.minor (no device needed): a cubin, or PTX where this NVRTC does
   * not know the architecture, in `*image` (freeBuffer). On failure `err`
   * says why and `*log` (freeBuffer; NULL when there is none) holds
   * NVRTC's log. */
  int (*rtcCompile)(const char *source, const char *name, int major, int minor, void **image,
                    size_t *imageBytes, char **log, GraftCudaError *err);
  /* NVRTC's version (part of a compiled image's cache key). */
  int (*rtcVersion)(int *major, int *minor, GraftCudaError *err);
  void (*freeBuffer)(void *buffer);
  /* Loads an image on `device`; unloadImage gives it back. */
  int (*loadImage)(int device, const void *image, size_t bytes, void **library,
                   GraftCudaError *err);
  void (*unloadImage)(void *library);
  /* A __global__ function of a loaded image, by its (extern "C") name. */
  int (*getFunction)(void *library, const char *name, void **function, GraftCudaError *err);
  /* Launches `function`, whose one parameter is the struct at `params`. */
  int (*launch)(void *function, unsigned grid, unsigned block, void *params, void *stream,
                GraftCudaError *err);
} GraftCudaApi;

typedef const GraftCudaApi *(*GraftCudaEntryFn)(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAFT_KERNELS_CUDA_CUDAABI_H */
