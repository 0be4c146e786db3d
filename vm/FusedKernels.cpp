//===- vm/FusedKernels.cpp - The fused kernels of an executable -----------===//

#include "vm/FusedKernels.h"

#include "vm/VM.h"
#include "vm/Value.h"

#include "kernels/FusedKernel.h"

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

llvm::Expected<Value> callFused(VirtualMachine &vm, const void *data, llvm::ArrayRef<Value> args) {
  const auto &k = *static_cast<const FusedKernels::Kernel *>(data);
  size_t inputs = graft::kernels::fusedProgramInputs(*k.program);
  size_t outputs = graft::kernels::fusedProgramOutputs(*k.program);
  if (args.size() != inputs + outputs)
    return kernelError(k, "expects " + llvm::Twine(inputs) + " inputs and " + llvm::Twine(outputs) +
                              (outputs == 1 ? " output" : " outputs") + " but got " +
                              llvm::Twine(args.size()) + " arguments");
  llvm::SmallVector<DLTensor *, 8> tensors;
  for (size_t i = 0; i < args.size(); ++i) {
    auto *t = args[i].as<TensorObj>();
    if (!t)
      return kernelError(k, "argument " + llvm::Twine(i) + " must be a tensor but is " +
                                args[i].str());
    tensors.push_back(&t->dl);
  }
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

} // namespace

llvm::Error FusedKernels::load(const Executable &exe) {
  for (const KernelSource &src : exe.kernelSources) {
    if (!isFusedKernelSource(src))
      continue;
    auto program = graft::kernels::parseFusedProgram(src.text);
    if (!program)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "kernel source '" + src.name +
                                         "': " + llvm::toString(program.takeError()));
    kernels_[src.name] = std::make_unique<Kernel>(Kernel{src.name, std::move(*program)});
  }
  return llvm::Error::success();
}

PackedFunc FusedKernels::lookup(llvm::StringRef name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? PackedFunc() : PackedFunc{callFused, it->second.get()};
}
