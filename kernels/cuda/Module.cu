//===- kernels/cuda/Module.cu - The entry point of libgraft_cuda.so ---------===//
//
// Device operations (allocation, copies through pinned staging, streams)
// and the kernel table, behind the C ABI of CudaAbi.h.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

using namespace graft::cuda;

namespace graft::cuda {
/// gather_elements ... image.grid_sample (BatchB.cu).
void addBatchBKernels(std::vector<GraftCudaKernel> &out);
/// stack, meshgrid, one_hot, outer, eye/eye_like, hamming_window, ewise_fma,
/// collapse_sum_like/_to, bucketize, nn.leakyrelu/softplus/prelu (BatchA.cu).
void addBatchAKernels(std::vector<GraftCudaKernel> &out);
/// graft.host.unique_count, graft.host.unique (Unique.cu).
void addUniqueKernels(std::vector<GraftCudaKernel> &out);
} // namespace graft::cuda

namespace {

int report(GraftCudaError *err, const char *call, cudaError_t e) {
  std::snprintf(err->message, sizeof err->message, "%s: %s (%s)", call, cudaGetErrorName(e),
                cudaGetErrorString(e));
  return 1;
}

#define GRAFT_CUDA_TRY(call)                                                                       \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess)                                                                         \
      return report(err, #call, e_);                                                               \
  } while (0)

int deviceCount(int *count, GraftCudaError *err) {
  *count = 0;
  GRAFT_CUDA_TRY(cudaGetDeviceCount(count));
  return 0;
}

int init(int device, void **stream, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  cudaStream_t s = nullptr;
  GRAFT_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  *stream = s;
  return 0;
}

int describe(int device, char *name, size_t nameBytes, int *major, int *minor,
             GraftCudaError *err) {
  cudaDeviceProp prop;
  GRAFT_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  std::snprintf(name, nameBytes, "%s", prop.name);
  *major = prop.major;
  *minor = prop.minor;
  return 0;
}

int alloc(int device, size_t bytes, void **ptr, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  GRAFT_CUDA_TRY(cudaMalloc(ptr, bytes ? bytes : 1));
  return 0;
}

void freeDevice(int device, void *ptr) {
  cudaSetDevice(device);
  cudaFree(ptr);
}

int allocHost(size_t bytes, void **ptr, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaHostAlloc(ptr, bytes ? bytes : 1, cudaHostAllocDefault));
  return 0;
}

void freeHost(void *ptr) { cudaFreeHost(ptr); }

bool isPinned(const void *p) {
  cudaPointerAttributes attrs;
  if (cudaPointerGetAttributes(&attrs, p) != cudaSuccess) {
    cudaGetLastError(); // Not an error to keep: plain pageable memory.
    return false;
  }
  return attrs.type == cudaMemoryTypeHost || attrs.type == cudaMemoryTypeManaged;
}

/// Copies between pageable host memory and the device through a pinned
/// buffer, in chunks, so a large .npy input does not make the driver pin
/// and unpin its pages on every call.
class Staging {
public:
  static constexpr size_t kChunk = size_t(32) << 20;

  int copy(void *dst, const void *src, size_t bytes, bool toDevice, cudaStream_t stream,
           GraftCudaError *err) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!buf_)
      GRAFT_CUDA_TRY(cudaHostAlloc(&buf_, kChunk, cudaHostAllocDefault));
    for (size_t done = 0; done < bytes; done += kChunk) {
      size_t n = bytes - done < kChunk ? bytes - done : kChunk;
      if (toDevice) {
        std::memcpy(buf_, static_cast<const char *>(src) + done, n);
        GRAFT_CUDA_TRY(cudaMemcpyAsync(static_cast<char *>(dst) + done, buf_, n,
                                       cudaMemcpyHostToDevice, stream));
        GRAFT_CUDA_TRY(cudaStreamSynchronize(stream));
      } else {
        GRAFT_CUDA_TRY(cudaMemcpyAsync(buf_, static_cast<const char *>(src) + done, n,
                                       cudaMemcpyDeviceToHost, stream));
        GRAFT_CUDA_TRY(cudaStreamSynchronize(stream));
        std::memcpy(static_cast<char *>(dst) + done, buf_, n);
      }
    }
    return 0;
  }

  static Staging &instance() {
    static Staging staging;
    return staging;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (buf_)
      cudaFreeHost(buf_);
    buf_ = nullptr;
  }

private:
  std::mutex mutex_;
  void *buf_ = nullptr; // Kept until releaseResources.
};

/// Whether `s` is being captured into a CUDA graph.
int capturing(cudaStream_t s, bool *on, GraftCudaError *err) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  GRAFT_CUDA_TRY(cudaStreamIsCapturing(s, &status));
  *on = status != cudaStreamCaptureStatusNone;
  return 0;
}

int copy(int device, void *dst, const void *src, size_t bytes, int32_t kind, void *stream,
         GraftCudaError *err) {
  if (bytes == 0)
    return 0;
  auto s = static_cast<cudaStream_t>(stream);
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  if (kind == GRAFT_CUDA_DEVICE_TO_DEVICE) {
    GRAFT_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    return 0;
  }
  // A copy to or from the host waits for the stream, which a capture cannot
  // record: refuse it so that the caller falls back to running eagerly.
  bool inCapture = false;
  if (capturing(s, &inCapture, err))
    return 1;
  if (inCapture) {
    std::snprintf(err->message, sizeof err->message,
                  "copy of %zu bytes %s the host refused while a CUDA-graph capture is open", bytes,
                  kind == GRAFT_CUDA_HOST_TO_DEVICE ? "from" : "to");
    return 1;
  }
  noteHostSync();
  bool toDevice = kind == GRAFT_CUDA_HOST_TO_DEVICE;
  const void *host = toDevice ? src : dst;
  if (isPinned(host)) {
    GRAFT_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes,
                                   toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
    GRAFT_CUDA_TRY(cudaStreamSynchronize(s));
  } else if (Staging::instance().copy(dst, src, bytes, toDevice, s, err)) {
    return 1;
  }
  // The host waited for the stream: the deferred index checks are due.
  return reportDeferredChecks(device, s, err);
}

/// Frees what the module keeps for the life of the process (the staging
/// buffer, cuBLAS handles); a later call makes them again.
void releaseResources() {
  Staging::instance().release();
  releaseMatmulResources();
  releaseDeferredChecks();
}

int synchronize(int device, void *stream, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  noteHostSync();
  GRAFT_CUDA_TRY(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  return reportDeferredChecks(device, static_cast<cudaStream_t>(stream), err);
}

// CUDA graphs -------------------------------------------------------------

int beginCapture(int device, void *stream, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  // Thread-local: a call of this thread that a capture cannot record (a
  // synchronization, cudaMalloc) fails and invalidates the capture instead
  // of running outside it.
  GRAFT_CUDA_TRY(
      cudaStreamBeginCapture(static_cast<cudaStream_t>(stream), cudaStreamCaptureModeThreadLocal));
  return 0;
}

/// The nodes of `g` by kind.
GraftCudaGraphNodes countNodes(cudaGraph_t g) {
  GraftCudaGraphNodes counts{};
  size_t n = 0;
  if (cudaGraphGetNodes(g, nullptr, &n) != cudaSuccess)
    return counts;
  std::vector<cudaGraphNode_t> nodes(n);
  if (cudaGraphGetNodes(g, nodes.data(), &n) != cudaSuccess)
    return counts;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    if (cudaGraphNodeGetType(node, &type) != cudaSuccess)
      type = cudaGraphNodeTypeEmpty;
    switch (type) {
    case cudaGraphNodeTypeKernel:
      ++counts.kernels;
      break;
    case cudaGraphNodeTypeMemcpy:
      ++counts.copies;
      break;
    case cudaGraphNodeTypeMemset:
      ++counts.sets;
      break;
    default:
      ++counts.other;
    }
  }
  return counts;
}

/// The driver calls that name a kernel node's function, looked up once
/// through the runtime (the module links no driver library).
struct KernelNamer {
  using GetParams = CUresult (*)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v2 *);
  using FuncName = CUresult (*)(const char **, CUfunction);
  using KernelName = CUresult (*)(const char **, CUkernel);
  GetParams getParams = nullptr;
  FuncName funcName = nullptr;
  KernelName kernelName = nullptr;

  static const KernelNamer &get() {
    static const KernelNamer namer = [] {
      KernelNamer n;
      auto find = [](const char *symbol, unsigned version, auto &fn) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult found{};
        if (cudaGetDriverEntryPointByVersion(symbol, &p, version, cudaEnableDefault, &found) !=
                cudaSuccess ||
            found != cudaDriverEntryPointSuccess)
          p = nullptr;
        cudaGetLastError();
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
      };
      find("cuGraphKernelNodeGetParams", 12000, n.getParams);
      find("cuFuncGetName", 12030, n.funcName);
      find("cuKernelGetName", 12030, n.kernelName);
      return n;
    }();
    return namer;
  }

  /// The (mangled) name of kernel node `node`'s function, or null.
  const char *name(cudaGraphNode_t node) const {
    CUDA_KERNEL_NODE_PARAMS_v2 p{};
    const char *name = nullptr;
    if (!getParams || getParams(node, &p) != CUDA_SUCCESS)
      return nullptr;
    if (p.func && funcName && funcName(&name, p.func) == CUDA_SUCCESS)
      return name;
    if (!p.func && p.kern && kernelName && kernelName(&name, p.kern) == CUDA_SUCCESS)
      return name;
    return nullptr;
  }
};

/// Whether kernel node `n` runs one of this module's own kernels (namespace
/// graft::cuda, so a mangled name starting `_ZN5graft4cuda`), which all
/// begin with awaitUpstream() (Common.cuh). CUB's kernels compiled into
/// this library, cuBLAS's and the NVRTC images' (extern "C") do not.
bool awaitsUpstream(cudaGraphNode_t n) {
  const char *name = KernelNamer::get().name(n);
  return name && std::strncmp(name, "_ZN5graft4cuda", 14) == 0;
}

/// Makes every full edge between two of this module's kernels programmatic:
/// the downstream kernel launches while the upstream one runs and waits in
/// awaitUpstream for its end, so each link of a chain of small kernels no
/// longer pays a launch after the end of the one before (docs/cuda-graphs.md,
/// "Replay cost"). Counts the edges changed in `*changed`.
cudaError_t overlapOwnKernels(cudaGraph_t g, uint32_t *changed) {
  *changed = 0;
  size_t n = 0;
  if (cudaError_t e = cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n))
    return e;
  std::vector<cudaGraphNode_t> from(n), to(n);
  std::vector<cudaGraphEdgeData> data(n);
  if (cudaError_t e = cudaGraphGetEdges(g, from.data(), to.data(), data.data(), &n))
    return e;
  for (size_t i = 0; i < n; ++i) {
    cudaGraphNodeType ft, tt;
    if (cudaError_t e = cudaGraphNodeGetType(from[i], &ft))
      return e;
    if (cudaError_t e = cudaGraphNodeGetType(to[i], &tt))
      return e;
    const cudaGraphEdgeData &d = data[i];
    if (ft != cudaGraphNodeTypeKernel || tt != cudaGraphNodeTypeKernel ||
        d.type != cudaGraphDependencyTypeDefault || d.from_port != cudaGraphKernelNodePortDefault ||
        !awaitsUpstream(from[i]) || !awaitsUpstream(to[i]))
      continue;
    if (cudaError_t e = cudaGraphRemoveDependencies(g, &from[i], &to[i], &data[i], 1))
      return e;
    cudaGraphEdgeData edge{};
    edge.from_port = cudaGraphKernelNodePortProgrammatic;
    edge.type = cudaGraphDependencyTypeProgrammatic;
    if (cudaError_t e = cudaGraphAddDependencies(g, &from[i], &to[i], &edge, 1))
      return e;
    ++*changed;
  }
  return cudaSuccess;
}

/// Whether captured graphs overlap the module's kernels (GRAFT_CUDA_GRAPH_OVERLAP=0
/// turns it off, to measure or rule it out; docs/cuda.md).
bool overlapEnabled() {
  static const bool on = [] {
    const char *v = std::getenv("GRAFT_CUDA_GRAPH_OVERLAP");
    return !v || std::strcmp(v, "0") != 0;
  }();
  return on;
}

/// `g` instantiated with its kernels overlapped where it can be; null when
/// there is nothing to overlap or that fails (the caller then instantiates
/// `g` as captured).
cudaGraphExec_t instantiateOverlapped(cudaGraph_t g) {
  cudaGraph_t copy = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (!overlapEnabled() || cudaGraphClone(&copy, g) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  uint32_t changed = 0;
  if (overlapOwnKernels(copy, &changed) != cudaSuccess || changed == 0 ||
      cudaGraphInstantiate(&exec, copy, 0) != cudaSuccess) {
    cudaGetLastError();
    exec = nullptr;
  }
  cudaGraphDestroy(copy);
  return exec;
}

int endCapture(int device, void *stream, void **graph, GraftCudaGraphNodes *nodes,
               GraftCudaError *err) {
  *graph = nullptr;
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &g);
  if (e != cudaSuccess) {
    cudaGetLastError(); // A failed capture is not sticky: nothing else to keep.
    if (g)
      cudaGraphDestroy(g);
    return report(err, "cudaStreamEndCapture", e);
  }
  if (nodes)
    *nodes = countNodes(g);
  cudaGraphExec_t exec = instantiateOverlapped(g);
  e = exec ? cudaSuccess : cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return report(err, "cudaGraphInstantiate", e);
  }
  // The upload would otherwise be part of the first launch.
  e = cudaGraphUpload(exec, static_cast<cudaStream_t>(stream));
  if (e != cudaSuccess) {
    cudaGetLastError();
    cudaGraphExecDestroy(exec);
    return report(err, "cudaGraphUpload", e);
  }
  *graph = exec;
  return 0;
}

int launchGraph(int device, void *graph, void *stream, GraftCudaError *err) {
  GRAFT_CUDA_TRY(cudaSetDevice(device));
  GRAFT_CUDA_TRY(
      cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), static_cast<cudaStream_t>(stream)));
  return 0;
}

void destroyGraph(void *graph) {
  if (graph)
    cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph));
}

const std::vector<GraftCudaKernel> &kernelTable() {
  static const std::vector<GraftCudaKernel> table = [] {
    std::vector<GraftCudaKernel> t;
    addUnaryKernels(t);
    addBinaryKernels(t);
    addCreationKernels(t);
    addNNKernels(t);
    addAttentionKernels(t);
    addMatmulKernels(t);
    addReduceKernels(t);
    addLayoutKernels(t);
    addScanKernels(t);
    addSortKernels(t);
    addIndexKernels(t);
    addScatterKernels(t);
    addLateOpKernels(t);
    addConvKernels(t);
    addAttentionVarLenKernels(t);
    addSamplingVisionKernels(t);
    addBatchBKernels(t);
    addBatchAKernels(t);
    addBatchCKernels(t);
    addUniqueKernels(t);
    return t;
  }();
  return table;
}

} // namespace

extern "C" __attribute__((visibility("default"))) const GraftCudaApi *graft_cuda_api(void) {
  static const GraftCudaApi api = [] {
    GraftCudaApi a{};
    a.abiVersion = GRAFT_CUDA_ABI_VERSION;
    a.deviceCount = deviceCount;
    a.init = init;
    a.describe = describe;
    a.alloc = alloc;
    a.free = freeDevice;
    a.allocHost = allocHost;
    a.freeHost = freeHost;
    a.copy = copy;
    a.synchronize = synchronize;
    a.releaseResources = releaseResources;
    a.kernels = kernelTable().data();
    a.numKernels = kernelTable().size();
    a.beginCapture = beginCapture;
    a.endCapture = endCapture;
    a.launchGraph = launchGraph;
    a.destroyGraph = destroyGraph;
    a.hostSyncs = graft::cuda::hostSyncs;
    addRtcApi(a);
    return a;
  }();
  return &api;
}
