//===- vm/FusedKernels.cpp - The fused kernels of an executable -----------===//

#include "vm/FusedKernels.h"

#include "vm/CudaDevice.h"
#include "vm/VM.h"
#include "vm/Value.h"

#include "kernels/FusedCuda.h"
#include "kernels/FusedKernel.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"

using namespace graft::vm;
using graft::kernels::FusedProgram;

bool graft::vm::isFusedKernelSource(const KernelSource &source) {
  return llvm::StringRef(source.text).ltrim().startswith("fused ");
}

namespace {

llvm::Error kernelError(const FusedKernels::Kernel &k, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "kernel " + k.name + ": " + msg);
}

/// The packed arguments as tensors: the inputs, then the output.
llvm::Error tensorArgs(const FusedKernels::Kernel &k, llvm::ArrayRef<Value> args,
                       llvm::SmallVectorImpl<DLTensor *> &tensors) {
  size_t inputs = graft::kernels::fusedProgramInputs(*k.program);
  size_t outputs = graft::kernels::fusedProgramOutputs(*k.program);
  if (args.size() != inputs + outputs)
    return kernelError(k, "expects " + llvm::Twine(inputs) + " inputs and " + llvm::Twine(outputs) +
                              (outputs == 1 ? " output" : " outputs") + " but got " +
                              llvm::Twine(args.size()) + " arguments");
  for (size_t i = 0; i < args.size(); ++i) {
    auto *t = args[i].as<TensorObj>();
    if (!t)
      return kernelError(k, "argument " + llvm::Twine(i) + " must be a tensor but is " +
                                args[i].str());
    tensors.push_back(&t->dl);
  }
  return llvm::Error::success();
}

llvm::Expected<Value> callFused(VirtualMachine &vm, const void *data, llvm::ArrayRef<Value> args) {
  const auto &k = *static_cast<const FusedKernels::Kernel *>(data);
  llvm::SmallVector<DLTensor *, 8> tensors;
  if (llvm::Error err = tensorArgs(k, args, tensors))
    return err;
  size_t inputs = graft::kernels::fusedProgramInputs(*k.program);
  graft::kernels::KernelArgs kargs{llvm::ArrayRef<DLTensor *>(tensors).take_front(inputs),
                                   llvm::ArrayRef<DLTensor *>(tensors).drop_front(inputs),
                                   {},
                                   {}};
  // The evaluator's tiles come from the CPU allocator's pool, as a registry
  // kernel's workspace does (kernels never allocate).
  size_t bytes = graft::kernels::fusedProgramWorkspaceBytes(*k.program, kargs);
  auto dev = vm.findDevice(DLDevice{kDLCPU, 0});
  if (!dev)
    return kernelError(k, "workspace: " + llvm::toString(dev.takeError()));
  CachingAllocator &alloc = *vm.allocator(*dev);
  auto mem = alloc.allocate(bytes);
  if (!mem)
    return kernelError(k, "workspace: " + llvm::toString(mem.takeError()));
  kargs.workspace = {*mem, bytes};
  llvm::Error err = graft::kernels::runFusedProgram(*k.program, kargs, k.name);
  alloc.free(*mem, bytes);
  if (err)
    return kernelError(k, llvm::toString(std::move(err)));
  return Value();
}

/// A launch whose takes check their indices (FusedLaunch::checksIndices):
/// 16 bytes of device memory hold the smallest key of an out-of-range
/// index; the host reads them back (as the unfused take's check does), and
/// on a hit launches again to learn the index's value for the CPU
/// evaluator's message.
llvm::Expected<Value> checkedLaunch(const FusedKernels::Kernel &k, CUDADevice &device,
                                    CachingAllocator &alloc, const graft::kernels::KernelArgs &args,
                                    graft::kernels::FusedLaunch &plan,
                                    llvm::function_ref<llvm::Error()> launch) {
  auto slot = alloc.allocate(16);
  if (!slot)
    return kernelError(k, "index check: " + llvm::toString(slot.takeError()));
  auto release = llvm::make_scope_exit([&] { alloc.free(*slot, 16); });
  DLDevice gpu = device.dlDevice(), host{kDLCPU, 0};
  uint64_t words[2] = {~uint64_t(0), 0};
  auto fail = [&](llvm::Error e) { return kernelError(k, llvm::toString(std::move(e))); };
  if (llvm::Error e = device.copy(*slot, gpu, words, host, sizeof words))
    return fail(std::move(e));
  plan.params[graft::kernels::kFusedSlotWord] = int64_t(reinterpret_cast<uintptr_t>(*slot));
  if (llvm::Error e = launch())
    return e;
  if (llvm::Error e = device.copy(words, host, *slot, gpu, sizeof words))
    return fail(std::move(e));
  if (llvm::Error e = device.synchronize())
    return fail(std::move(e));
  if (words[0] == ~uint64_t(0))
    return Value();
  plan.params[graft::kernels::kFusedReportWord] = 1;
  if (llvm::Error e = launch())
    return e;
  if (llvm::Error e = device.copy(words, host, *slot, gpu, sizeof words))
    return fail(std::move(e));
  if (llvm::Error e = device.synchronize())
    return fail(std::move(e));
  return kernelError(
      k, graft::kernels::fusedIndexError(*k.program, args, k.name, words[0], int64_t(words[1])));
}

/// The kernel compiled for the GPU: one launch on the device's stream.
llvm::Expected<Value> callFusedCuda(VirtualMachine &vm, const void *data,
                                    llvm::ArrayRef<Value> args) {
  const auto &k = *static_cast<const FusedKernels::Kernel *>(data);
  llvm::SmallVector<DLTensor *, 8> tensors;
  if (llvm::Error err = tensorArgs(k, args, tensors))
    return err;
  size_t inputs = graft::kernels::fusedProgramInputs(*k.program);
  graft::kernels::KernelArgs kargs{llvm::ArrayRef<DLTensor *>(tensors).take_front(inputs),
                                   llvm::ArrayRef<DLTensor *>(tensors).drop_front(inputs),
                                   {},
                                   {}};
  llvm::Expected<graft::kernels::FusedLaunch> plan =
      graft::kernels::planFusedLaunch(*k.program, kargs, k.name);
  if (!plan)
    return kernelError(k, llvm::toString(plan.takeError()));
  if (plan->grid == 0)
    return Value();
  auto idx = vm.findDevice(tensors.back()->device);
  if (!idx)
    return kernelError(k, llvm::toString(idx.takeError()));
  auto *device = llvm::dyn_cast<CUDADevice>(&vm.allocator(*idx)->device());
  if (!device)
    return kernelError(k, "the VM's device is not a CUDA device");
  auto launch = [&]() -> llvm::Error {
    GraftCudaError err;
    if (k.api->launch(k.cuda->functions[plan->entry], plan->grid, plan->block, plan->params.data(),
                      device->stream(), &err))
      return kernelError(k, llvm::Twine(plan->kernel) + ": " + err.message);
    return llvm::Error::success();
  };
  if (plan->checksIndices && !vm.captureOpen())
    return checkedLaunch(k, *device, *vm.allocator(*idx), kargs, *plan, launch);
  if (llvm::Error e = launch())
    return e;
  if (cudaLaunchBlocking() && !vm.captureOpen())
    if (llvm::Error e = device->synchronize())
      return kernelError(k, llvm::toString(std::move(e)));
  return Value();
}

/// Compiles k's program for `device` (or takes it from the cache).
llvm::Error compileForCuda(FusedKernels::Kernel &k, const CUDADevice &device,
                           const KernelCache &cache) {
  const GraftCudaApi &api = device.module().api();
  char name[256];
  int major = 0, minor = 0;
  GraftCudaError err;
  if (api.describe(device.id(), name, sizeof name, &major, &minor, &err))
    return kernelError(k, err.message);
  llvm::Expected<std::string> source = graft::kernels::fusedProgramCudaSource(*k.program);
  if (!source)
    return kernelError(k, llvm::toString(source.takeError()));
  std::vector<const char *> entries = graft::kernels::fusedKernelEntries(*k.program);
  auto loaded = loadCudaSource(api, device.id(), major, minor, *source, k.name, entries, cache);
  if (!loaded)
    return kernelError(k, llvm::toString(loaded.takeError()));
  k.cuda = std::move(*loaded);
  k.api = &api;
  return llvm::Error::success();
}

} // namespace

llvm::Error FusedKernels::load(const Executable &exe, const Device *device) {
  // Cast only once a fused kernel needs the device: a device that stands in
  // for CUDA to test kernel resolution is not a CUDADevice.
  const CUDADevice *gpu = nullptr;
  llvm::Optional<KernelCache> cache;
  for (const KernelSource &src : exe.kernelSources) {
    if (!isFusedKernelSource(src))
      continue;
    auto program = graft::kernels::parseFusedProgram(src.text);
    if (!program)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "kernel source '" + src.name +
                                         "': " + llvm::toString(program.takeError()));
    auto k = std::make_unique<Kernel>();
    k->name = src.name;
    k->program = std::move(*program);
    if (!gpu)
      gpu = llvm::dyn_cast_or_null<CUDADevice>(device);
    if (gpu) {
      if (!cache)
        cache = KernelCache::fromEnvironment();
      if (llvm::Error err = compileForCuda(*k, *gpu, *cache))
        return err;
    }
    kernels_[src.name] = std::move(k);
  }
  return llvm::Error::success();
}

PackedFunc FusedKernels::lookup(llvm::StringRef name) const {
  auto it = kernels_.find(name);
  if (it == kernels_.end())
    return PackedFunc();
  return PackedFunc{it->second->cuda ? callFusedCuda : callFused, it->second.get()};
}
