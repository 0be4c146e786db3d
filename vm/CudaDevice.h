//===- vm/CudaDevice.h - The CUDA device, loaded on first use ---*- C++ -*-===//
//
// The CUDA device and its kernels live in libgraft_cuda.so (kernels/cuda),
// which the VM loads with dlopen the first time a CUDA device is asked for:
// the graft binary links no CUDA library and runs CPU work on a machine
// with no GPU, driver or CUDA runtime. Everything crosses the C ABI of
// kernels/cuda/CudaAbi.h; a failing CUDA call comes back as an llvm::Error
// naming the call (and the kernel, for a kernel).
//
// Where the module is looked for, first hit wins: $GRAFT_CUDA_MODULE, then
// lib/libgraft_cuda.so beside or one level above the running executable's
// folder, then the dynamic loader's search path (LD_LIBRARY_PATH).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_CUDADEVICE_H
#define GRAFT_VM_CUDADEVICE_H

#include "vm/Device.h"
#include "vm/PackedFunc.h"

#include "kernels/Kernel.h"
#include "kernels/cuda/CudaAbi.h"

#include "llvm/ADT/Optional.h"

namespace graft::vm {

class Value;

/// The loaded module. `get()` loads it once; a failure (no module, no
/// driver, no GPU) is remembered and returned as "no CUDA device: ...".
class CudaModule {
public:
  static llvm::Expected<const CudaModule &> get();

  const GraftCudaApi &api() const { return *api_; }
  const std::string &path() const { return path_; }
  /// The module's kernel for `symbol`, or null.
  const GraftCudaKernel *findKernel(llvm::StringRef symbol) const;

private:
  const GraftCudaApi *api_ = nullptr;
  std::string path_;
};

class CUDADevice final : public Device {
public:
  static bool classof(const Device *d) { return d->kind() == Kind::CUDA; }

  llvm::Expected<void *> allocate(size_t bytes, size_t alignment) override;
  void free(void *ptr, size_t bytes) override;
  llvm::Error copy(void *dst, DLDevice dstDev, const void *src, DLDevice srcDev,
                   size_t bytes) override;
  llvm::Error synchronize() override;

  bool canCaptureGraphs() const override { return true; }
  llvm::Error beginCapture() override;
  llvm::Expected<void *> endCapture() override;
  GraphNodeCounts capturedNodes() const override { return lastNodes_; }
  llvm::Error launchGraph(void *graph) override;
  void destroyGraph(void *graph) override;
  uint64_t hostSyncs() const override;
  /// Tests: the next launchGraph fails as a failing cudaGraphLaunch would.
  void failNextGraphLaunch() { failNextLaunch_ = true; }

  /// The stream (cudaStream_t) every kernel and copy of this device runs on.
  void *stream() const { return stream_; }
  int id() const { return dlDevice().device_id; }
  const CudaModule &module() const { return module_; }

private:
  friend llvm::Expected<std::shared_ptr<Device>> cudaDevice(int id);
  CUDADevice(const CudaModule &module, int id, void *stream)
      : Device(Kind::CUDA, DLDevice{kDLCUDA, id}), module_(module), stream_(stream) {}
  const CudaModule &module_;
  void *stream_;
  GraphNodeCounts lastNodes_;
  bool failNextLaunch_ = false;
};

/// CUDA device `id` of this process, made on first use (loads the module).
llvm::Expected<std::shared_ptr<Device>> cudaDevice(int id = 0);

/// A packed function that runs the module's kernel `symbol` on the VM's
/// CUDA device; None when the module is not loaded or has no such kernel.
llvm::Optional<PackedFunc> cudaKernelPackedFunc(llvm::StringRef symbol);

/// Whether GRAFT_CUDA_LAUNCH_BLOCKING=1 asks to synchronize after every
/// kernel, so that a fault inside one is reported with its name.
bool cudaLaunchBlocking();

/// The workspace a module kernel asks for (0 when it needs none).
size_t cudaKernelWorkspaceBytes(const GraftCudaKernel &kernel,
                                const graft::kernels::KernelArgs &args, void *stream);

/// Runs a module kernel on `stream` with kernels/Kernel.h's arguments
/// (tests and benchmarks call kernels without a VM).
llvm::Error runCudaKernel(const GraftCudaKernel &kernel, const graft::kernels::KernelArgs &args,
                          void *stream);

/// A copy of `v` with every tensor (inside tuples too) on `alloc`'s device;
/// tensors already there are kept.
llvm::Expected<Value> copyTensorsTo(const Value &v, const std::shared_ptr<CachingAllocator> &alloc);
/// A copy of `v` with every tensor in host memory.
llvm::Expected<Value> copyTensorsToHost(const Value &v);

} // namespace graft::vm

#endif // GRAFT_VM_CUDADEVICE_H
