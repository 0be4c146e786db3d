//===- vm/CudaCompile.h - Generated CUDA C++ to loaded kernels --*- C++ -*-===//
//
// The VM's side of run-time compilation (docs/cuda.md, "Fused kernels"):
// NVRTC (inside libgraft_cuda.so) compiles a source for the device's
// architecture, the image goes through the on-disk KernelCache, and the
// module loads it. A failed compile is an error carrying NVRTC's log; an
// image that fails to compile or load is never cached, and a cached one
// that fails to load is removed and compiled again.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_CUDACOMPILE_H
#define GRAFT_VM_CUDACOMPILE_H

#include "vm/KernelCache.h"

#include "kernels/cuda/CudaAbi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace graft::vm {

/// The module's API without asking for a device (NVRTC needs none): tests
/// of the compiler on machines without a GPU. Fails as CudaModule::get.
llvm::Expected<const GraftCudaApi *> loadCudaModuleApi();

/// "sm_90" for compute capability 9.0.
std::string cudaArchName(int major, int minor);

/// Compiles `source` with NVRTC for major.minor; the error says which
/// kernel and holds NVRTC's log.
llvm::Expected<std::string> compileCudaSource(const GraftCudaApi &api, llvm::StringRef source,
                                              llvm::StringRef name, int major, int minor);

/// An image loaded on a device, with the functions asked for; unloaded
/// when destroyed.
class LoadedCudaImage {
public:
  LoadedCudaImage(const GraftCudaApi &api, void *library) : api_(api), library_(library) {}
  ~LoadedCudaImage() { api_.unloadImage(library_); }
  LoadedCudaImage(const LoadedCudaImage &) = delete;
  LoadedCudaImage &operator=(const LoadedCudaImage &) = delete;

  /// functions[i] is the i-th name asked for.
  std::vector<void *> functions;
  /// Whether the image came from the disk cache.
  bool cached = false;

private:
  const GraftCudaApi &api_;
  void *library_;
};

/// `source` compiled (or found in `cache`) for device `device` of compute
/// capability major.minor, loaded, with the __global__ functions `entries`.
llvm::Expected<std::unique_ptr<LoadedCudaImage>>
loadCudaSource(const GraftCudaApi &api, int device, int major, int minor, llvm::StringRef source,
               llvm::StringRef name, llvm::ArrayRef<const char *> entries,
               const KernelCache &cache);

} // namespace graft::vm

#endif // GRAFT_VM_CUDACOMPILE_H
