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

TEST(FusionEndToEnd, PermuteReshapeSliceChainsWithSymbolicShapes) {
  // A transformer-style head merge (permute then reshape), a slice with a negative stride, a
  // second output read after the group, on a symbolic batch, in float32 and float16.
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(x: R.Tensor(("n", 2, 3, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 3, 8), dtype="float32"), R.Tensor(("n", 3, 8), dtype="float16"), R.Tensor(("n", 3, 8), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            a: R.Tensor((n, 2, 3, 4), dtype="float32") = R.add(x, b)
            p: R.Tensor((n, 3, 2, 4), dtype="float32") = R.permute_dims(a, axes=[0, 2, 1, 3])
            r: R.Tensor((n, 3, 8), dtype="float32") = R.reshape(p, R.shape([n, 3, 8]))
            e: R.Tensor((n, 3, 8), dtype="float32") = R.exp(r)
            s: R.Tensor((n, 3, 8), dtype="float32") = R.strided_slice(e, axes=[2], begin=[7], end=[-9], strides=[-1])
            h: R.Tensor((n, 3, 8), dtype="float16") = R.astype(s, dtype="float16")
            q: R.Tensor((n, 3, 8), dtype="float16") = R.multiply(h, h)
            t: R.Tensor((n, 3, 8), dtype="float32") = R.sin(e)
            R.output(e, q, t)
        return (e, q, t)
)";
  for (int64_t n : {1, 5})
    expectSameOutputs(text,
                      {f32Tensor({n, 2, 3, 4}, values(size_t(n * 24), 3, -1.5f)),
                       f32Tensor({4}, values(4, 1, -0.5f))},
                      1);
}

TEST(FusionEndToEnd, TakeAndConcatChainsInSeveralDtypes) {
  // take (an embedding lookup) and concat inside groups: float32 rows gathered by int32 ids,
  // concatenated with a computed column block; int32 and int64 data through take in mode clip.
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(emb: R.Tensor((10, 4), dtype="float32"), ids: R.Tensor(("m",), dtype="int32"), pos: R.Tensor(("m", 2), dtype="float32"), k: R.Tensor((6,), dtype="int32"), j: R.Tensor((3,), dtype="int64")) -> R.Tuple(R.Tensor(("m", 6), dtype="float32"), R.Tensor((3,), dtype="int32")):
        m = T.int64()
        with R.dataflow():
            g: R.Tensor((m, 4), dtype="float32") = R.take(emb, ids, axis=0)
            sc: R.Tensor((m, 4), dtype="float32") = R.multiply(g, R.const(2.0, "float32"))
            ps: R.Tensor((m, 2), dtype="float32") = R.cos(pos)
            c: R.Tensor((m, 6), dtype="float32") = R.concat((sc, ps), axis=1)
            o: R.Tensor((m, 6), dtype="float32") = R.nn.relu(c)
            k2: R.Tensor((6,), dtype="int32") = R.multiply(k, k)
            kt: R.Tensor((3,), dtype="int32") = R.take(k2, j, axis=0, mode="clip")
            kn: R.Tensor((3,), dtype="int32") = R.negative(kt)
            R.output(o, kn)
        return (o, kn)
)";
  std::vector<int32_t> k{3, -1, 4, -1, 5, -9};
  std::vector<int64_t> j{5, -2, 17};
  for (int64_t m : {1, 4}) {
    std::vector<int32_t> ids;
    for (int64_t i = 0; i < m; ++i)
      ids.push_back(int32_t((i * 7) % 10) - (i % 2 ? 10 : 0)); // Negative ids count from the end.
    expectSameOutputs(text,
                      {f32Tensor({10, 4}, values(40, 2, -1)), hostTensor({m}, kI32, ids),
                       f32Tensor({m, 2}, values(size_t(m * 2), 3, -1)), hostTensor({6}, kI32, k),
                       hostTensor({3}, kI64, j)},
                      2);
  }
}

TEST(FusionEndToEnd, ExpandSqueezeBroadcastClipInInt32AndFloat16) {
  const char *text = R"(
@I.ir_module
class M:
    @R.function
    def main(x: R.Tensor((4, 1, 5), dtype="float32"), y: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tuple(R.Tensor((3, 4, 5), dtype="int32"), R.Tensor((3, 4, 5), dtype="float16")):
        with R.dataflow():
            q: R.Tensor((4, 5), dtype="float32") = R.squeeze(x, axis=[1])
            e: R.Tensor((1, 4, 5), dtype="float32") = R.expand_dims(q, axis=[0])
            b: R.Tensor((3, 4, 5), dtype="float32") = R.broadcast_to(e, R.shape([3, 4, 5]))
            a: R.Tensor((3, 4, 5), dtype="float32") = R.add(b, y)
            i: R.Tensor((3, 4, 5), dtype="int32") = R.astype(a, dtype="int32")
            c: R.Tensor((3, 4, 5), dtype="int32") = R.clip(i, R.prim_value(-2), R.prim_value(3))
            h: R.Tensor((3, 4, 5), dtype="float16") = R.astype(a, dtype="float16")
            hc: R.Tensor((3, 4, 5), dtype="float16") = R.clip(h, R.prim_value(T.float64(-1.3)), R.prim_value(T.float64(2.7)))
            R.output(c, hc)
        return (c, hc)
)";
  expectSameOutputs(
      text, {f32Tensor({4, 1, 5}, values(20, 8, -4)), f32Tensor({3, 4, 5}, values(60, 4, -2))}, 2);
}

} // namespace
