//===- tests/vm/FusedKernelsTest.cpp - Fused kernels in executables -------===//

#include "VMTestUtil.h"

#include "vm/Serialize.h"

using namespace graft::vm;
using namespace graft::vm::test;

namespace {

constexpr const char *kAddExp = "fused 2\n"
                                "input %0 float32 1\n"
                                "input %1 float32 1\n"
                                "const %2 float32 0x1p+1\n"
                                "%3 = add float32 %0 %1\n"
                                "%4 = multiply float32 %3 %2\n"
                                "output %4\n";

/// `f(x, y, out) { call graft.fused.k(x, y, out); ret out }` with the kernel's source.
llvm::Expected<std::unique_ptr<VirtualMachine>> vmWith(const std::string &text) {
  ExecBuilder b;
  b.beginFunction("f", {"x", "y", "out"});
  b.emitCall("graft.fused.k", {Arg::reg(0), Arg::reg(1), Arg::reg(2)});
  b.emitRet(2);
  b.endFunction();
  b.addKernelSource("graft.fused.k", text);
  auto exe = b.finish();
  if (!exe)
    return exe.takeError();
  return VirtualMachine::create(std::move(*exe));
}

TEST(FusedKernels, RunFromBytecode) {
  auto vm = vmWith(kAddExp);
  ASSERT_TRUE(bool(vm)) << errorOf(vm.takeError());
  Value out = f32Tensor({3}, {0, 0, 0});
  auto r = (*vm)->invoke("f", {f32Tensor({3}, {1, 2, 3}), f32Tensor({1}, {0.5f}), out});
  ASSERT_TRUE(bool(r)) << errorOf(r.takeError());
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{3, 5, 7}));
}

TEST(FusedKernels, SurviveSerialization) {
  ExecBuilder b;
  b.beginFunction("f", {"x", "y", "out"});
  b.emitCall("graft.fused.k", {Arg::reg(0), Arg::reg(1), Arg::reg(2)});
  b.emitRet(2);
  b.endFunction();
  b.addKernelSource("graft.fused.k", kAddExp);
  auto exe = b.finish();
  ASSERT_TRUE(bool(exe));
  std::string bytes = saveToBytes(**exe);
  auto loaded = loadFromBytes(bytes);
  ASSERT_TRUE(bool(loaded)) << errorOf(loaded.takeError());
  auto vm = VirtualMachine::create(std::move(*loaded));
  ASSERT_TRUE(bool(vm)) << errorOf(vm.takeError());
  Value out = f32Tensor({2}, {0, 0});
  ASSERT_TRUE(bool((*vm)->invoke("f", {f32Tensor({2}, {1, 2}), f32Tensor({2}, {1, 1}), out})));
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{4, 6}));
}

TEST(FusedKernels, DamagedProgramIsALoadError) {
  std::string damaged = kAddExp;
  damaged.replace(damaged.find("add"), 3, "adx");
  auto vm = vmWith(damaged);
  ASSERT_FALSE(bool(vm));
  EXPECT_EQ(errorOf(vm.takeError()),
            "kernel source 'graft.fused.k': fused kernel program, line 5: unknown op 'adx'");
}

TEST(FusedKernels, ArgumentErrorsNameTheKernel) {
  auto vm = vmWith(kAddExp);
  ASSERT_TRUE(bool(vm));
  Value out = f32Tensor({3}, {0, 0, 0});
  EXPECT_EQ(errorOf((*vm)->invoke("f", {f32Tensor({3}, {1, 2, 3}), Value::integer(1), out})),
            "in function 'f' at instruction 0 (call graft.fused.k): kernel graft.fused.k: "
            "argument 1 must be a tensor but is 1");
  std::string err =
      errorOf((*vm)->invoke("f", {f32Tensor({3}, {1, 2, 3}), f32Tensor({2}, {1, 2}), out}));
  EXPECT_NE(err.find("kernel graft.fused.k: graft.fused.k: "), std::string::npos) << err;
  EXPECT_NE(err.find("input 1"), std::string::npos) << err;
}

} // namespace
