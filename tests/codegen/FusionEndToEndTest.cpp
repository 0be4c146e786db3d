//===- tests/codegen/FusionEndToEndTest.cpp - Fused and unfused builds agree ===//
//
// The same module built with build-cpu (fuse-elementwise first) and without
// fusion (legalize-ops,finalize) gives the same output bytes; the fused
// build really runs fused kernels (its executable carries graft.fused.*
// kernel sources).
//
//===----------------------------------------------------------------------===//

#include "codegen/CodeGen.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"
#include "transforms/Passes.h"
#include "vm/VM.h"

#include "tests/vm/VMTestUtil.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::vm::test;
using graft::vm::Value;

namespace {

std::shared_ptr<const vm::Executable> buildWith(const std::string &text, llvm::StringRef pipe) {
  registerAllPasses();
  auto file =
      parseText("from tvm.script import ir as I, relax as R, tir as T\n\n" + text, "test.py");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return nullptr;
  }
  IRModule &module = *file->modules.front();
  auto pipeline = parsePipeline(pipe);
  if (!pipeline) {
    ADD_FAILURE() << llvm::toString(pipeline.takeError());
    return nullptr;
  }
  PassContext ctx;
  PassManager pm(PassManagerOptions{});
  if (llvm::Error err = pm.run(module, *pipeline, ctx)) {
    ADD_FAILURE() << llvm::toString(std::move(err));
    return nullptr;
  }
  auto exe = codegen::generateExecutable(module);
  if (!exe) {
    ADD_FAILURE() << llvm::toString(exe.takeError());
    return nullptr;
  }
  return std::shared_ptr<const vm::Executable>(std::move(*exe));
}

unsigned fusedSources(const vm::Executable &exe) {
  unsigned n = 0;
  for (const vm::KernelSource &k : exe.kernelSources)
    n += llvm::StringRef(k.name).startswith("graft.fused.");
  return n;
}

std::string bytesOf(const Value &v) {
  auto *t = v.as<vm::TensorObj>();
  if (!t)
    return "not a tensor: " + v.str();
  return std::string(t->bytes(), t->byteSize());
}

/// Runs main of both builds on `args`; expects equal bytes in every output.
void expectSameOutputs(const std::string &text, std::vector<Value> args, unsigned minFused) {
  auto fused = buildWith(text, "build-cpu");
  auto plain = buildWith(text, "legalize-ops,finalize");
  ASSERT_TRUE(fused && plain);
  EXPECT_GE(fusedSources(*fused), minFused);
  EXPECT_EQ(fusedSources(*plain), 0u);
  auto vf = vm::VirtualMachine::create(fused);
  auto vp = vm::VirtualMachine::create(plain);
  ASSERT_TRUE(bool(vf) && bool(vp));
  auto rf = (*vf)->invoke("main", args);
  auto rp = (*vp)->invoke("main", args);
  ASSERT_TRUE(bool(rf)) << errorOf(rf.takeError());
  ASSERT_TRUE(bool(rp)) << errorOf(rp.takeError());
  if (auto *t = rf->as<vm::TupleObj>()) {
    auto *u = rp->as<vm::TupleObj>();
    ASSERT_TRUE(u && u->fields.size() == t->fields.size());
    for (size_t i = 0; i < t->fields.size(); ++i)
      EXPECT_EQ(bytesOf(t->fields[i]), bytesOf(u->fields[i])) << "output " << i;
    return;
  }
  EXPECT_EQ(bytesOf(*rf), bytesOf(*rp));
}

std::vector<float> values(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = offset + scale * float((i * 37) % 101) / 101.0f;
  return v;
}

TEST(FusionEndToEnd, Float32ChainsAroundAMatmul) {
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(x: R.Tensor((8, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32"), b: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor((8, 16), dtype="float32"), R.Tensor((8, 16), dtype="bool")):
        with R.dataflow():
            a: R.Tensor((8, 16), dtype="float32") = R.add(x, b)
            c: R.Tensor((8, 16), dtype="float32") = R.nn.gelu(a)
            d: R.Tensor((8, 16), dtype="float32") = R.multiply(c, R.const(0.5, "float32"))
            m: R.Tensor((8, 16), dtype="float32") = R.matmul(d, w)
            e: R.Tensor((8, 16), dtype="float32") = R.subtract(m, x)
            f: R.Tensor((8, 16), dtype="float32") = R.tanh(e)
            g: R.Tensor((8, 16), dtype="bool") = R.less(f, b)
            h: R.Tensor((8, 16), dtype="float32") = R.where(g, f, x)
            k: R.Tensor((8, 16), dtype="float32") = R.exp(h)
            R.output(k, g)
        return (k, g)
)";
  expectSameOutputs(text,
                    {f32Tensor({8, 16}, values(128, 4, -2)),
                     f32Tensor({16, 16}, values(256, 1, -0.5)),
                     f32Tensor({16}, values(16, 1, -0.5))},
                    2);
}

TEST(FusionEndToEnd, HalfAndIntegerChains) {
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(x: R.Tensor((64,), dtype="float32"), i: R.Tensor((64,), dtype="int32")) -> R.Tuple(R.Tensor((64,), dtype="float16"), R.Tensor((64,), dtype="int32")):
        with R.dataflow():
            h: R.Tensor((64,), dtype="float16") = R.astype(x, dtype="float16")
            s: R.Tensor((64,), dtype="float16") = R.multiply(h, h)
            t: R.Tensor((64,), dtype="float16") = R.sqrt(s)
            u: R.Tensor((64,), dtype="float16") = R.divide(t, h)
            j: R.Tensor((64,), dtype="int32") = R.multiply(i, i)
            k: R.Tensor((64,), dtype="int32") = R.floor_divide(j, R.const(7, "int32"))
            l: R.Tensor((64,), dtype="int32") = R.abs(k)
            R.output(u, l)
        return (u, l)
)";
  std::vector<int32_t> ints(64);
  for (int n = 0; n < 64; ++n)
    ints[size_t(n)] = (n * 7919) % 201 - 100;
  expectSameOutputs(text, {f32Tensor({64}, values(64, 10, -5)), hostTensor({64}, kI32, ints)}, 2);
}

TEST(FusionEndToEnd, SymbolicShapesAndIfBranches) {
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), flag: R.Tensor((), dtype="bool")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        if flag:
            a: R.Tensor((n, 4), dtype="float32") = R.exp(x)
            r: R.Tensor((n, 4), dtype="float32") = R.sin(a)
        else:
            b: R.Tensor((n, 4), dtype="float32") = R.cos(x)
            r: R.Tensor((n, 4), dtype="float32") = R.sqrt(b)
        c: R.Tensor((n, 4), dtype="float32") = R.add(r, x)
        d: R.Tensor((n, 4), dtype="float32") = R.negative(c)
        return d
)";
  for (bool flag : {true, false})
    expectSameOutputs(
        text,
        {f32Tensor({5, 4}, values(20, 2, 0.1f)), hostTensor<uint8_t>({}, kBool, {uint8_t(flag)})},
        3);
}

} // namespace
