//===- tests/cuda/ResolveTest.cpp - Kernel resolution for a CUDA device ----===//
//
// Without a GPU: a VM whose device 0 is CUDA resolves kernels from the CUDA
// module only; a kernel with only a CPU version is an error when the VM is
// created, never a CPU kernel handed device memory.
//
//===----------------------------------------------------------------------===//

#include "../vm/VMTestUtil.h"

#include "vm/CudaDevice.h"

namespace graft::vm::test {
namespace {

/// A device that says it is CUDA and holds no memory: enough to resolve
/// an executable's kernels for device 0.
class ResolveOnlyDevice final : public Device {
public:
  ResolveOnlyDevice() : Device(Kind::CUDA, DLDevice{kDLCUDA, 0}) {}
  llvm::Expected<void *> allocate(size_t, size_t) override {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no memory here");
  }
  void free(void *, size_t) override {}
  llvm::Error copy(void *, DLDevice, const void *, DLDevice, size_t) override {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no memory here");
  }
  llvm::Error synchronize() override { return llvm::Error::success(); }
};

/// A CPU kernel the CUDA module lacks: any, when the module does not load
/// here; "" when the module has them all.
std::string kernelWithoutCuda() {
  auto module = CudaModule::get();
  if (!module) {
    llvm::consumeError(module.takeError());
    return "graft.matmul";
  }
  for (const graft::kernels::KernelInfo *k : graft::kernels::allKernels())
    if (k->device == kDLCPU && !module->findKernel(k->symbol) &&
        !PackedRegistry::global().find(k->symbol))
      return k->symbol.str();
  return "";
}

TEST(CudaResolve, KernelWithoutACudaVersionIsALoadError) {
  std::string symbol = kernelWithoutCuda();
  if (symbol.empty())
    GTEST_SKIP() << "every CPU kernel has a CUDA version";
  ExecBuilder b;
  b.beginFunction("f", {"x", "i", "v"});
  b.emitCall(symbol, {Arg::reg(0), Arg::reg(1), Arg::reg(2)}, 3);
  b.emitRet(3);
  b.endFunction();
  VMOptions options;
  options.devices.push_back(std::make_shared<ResolveOnlyDevice>());
  auto vm = VirtualMachine::create(finish(b), options);
  ASSERT_FALSE(bool(vm));
  EXPECT_EQ(llvm::toString(vm.takeError()),
            "kernel '" + symbol + "' has no CUDA implementation yet (docs/cuda.md)");
}

} // namespace
} // namespace graft::vm::test
