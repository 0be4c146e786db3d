//===- tests/codegen/CodeGenTest.cpp - Registers, kills, errors, scale -----===//

#include "CodeGenTestUtil.h"

#include "pass/PassManager.h"
#include "transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace graft;
using namespace graft::codegen::test;

namespace {

llvm::Error runPipeline(IRModule &m, llvm::StringRef text) {
  registerAllPasses();
  auto pipeline = parsePipeline(text);
  if (!pipeline)
    return pipeline.takeError();
  PassContext ctx;
  PassManager pm{PassManagerOptions()};
  return pm.run(m, *pipeline, ctx);
}

std::shared_ptr<const vm::Executable> generate(const IRModule &m) {
  auto exe = codegen::generateExecutable(m);
  if (!exe) {
    ADD_FAILURE() << llvm::toString(exe.takeError());
    return nullptr;
  }
  return std::shared_ptr<const vm::Executable>(std::move(*exe));
}

size_t count(llvm::StringRef text, llvm::StringRef needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != llvm::StringRef::npos;
       pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

const char *kStatic = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), "float32")) -> R.Tensor((1, 4), "float32"):
        with R.dataflow():
            a = R.call_dps_packed("graft.exp", (x,), out_sinfo=R.Tensor((1, 4), "float32"))
            b = R.call_dps_packed("graft.add", (a, x), out_sinfo=R.Tensor((1, 4), "float32"))
            c = R.call_dps_packed("graft.multiply", (b, b), out_sinfo=R.Tensor((1, 4), "float32"))
            R.output(c)
        return c
)";

// TVM #20267: finalize binds shape_heap = R.null_value() (no shape slots);
// applying kill-after-last-use again must not kill it, and the module must
// build and give the same results.
TEST(CodeGen, KillAfterLastUseReappliedToFinalizeOutput) {
  auto p = parse(kStatic);
  ASSERT_TRUE(p);
  ASSERT_FALSE(errorOf(runPipeline(p->module(), "finalize")) != "<success>");
  auto once = generate(p->module());
  ASSERT_TRUE(once);
  ASSERT_EQ(errorOf(runPipeline(p->module(), "kill-after-last-use")), "<success>");
  auto twice = generate(p->module());
  ASSERT_TRUE(twice);
  Value x = f32Tensor({1, 4}, {0, 1, -1, 2});
  std::vector<float> a = tensorData<float>(take(run(once, {x})));
  std::vector<float> b = tensorData<float>(take(run(twice, {x})));
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_FLOAT_EQ(a[0], 1.0f);                                        // (e^0 + 0)^2
  EXPECT_FLOAT_EQ(a[1], (std::exp(1.0f) + 1) * (std::exp(1.0f) + 1)); // (e + 1)^2
  // No kill writes the void register; the executable did not change.
  EXPECT_EQ(count(twice->asText(), "vm.builtin.null_value in:  dst: %void"), 0u);
  EXPECT_EQ(twice->asText(), once->asText());
}

// A kill of a var bound to R.null_value() (what TVM's pass emitted before
// #20267) gets no instruction: the var has no register.
TEST(CodeGen, KillOfNullValueVarEmitsNothing) {
  auto p = parse(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        shape_heap: R.Object = R.null_value()
        _1: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(0), R.prim_value(4), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.vm.kill_object(shape_heap)
        s: R.Object = R.str("text")
        _3: R.Tuple = R.vm.kill_object(s)
        y: R.Tensor((4,), "float32") = R.call_packed("vm.builtin.copy", x, sinfo_args=(R.Tensor((4,), "float32"),))
        _4: R.Tuple = R.vm.kill_object(y)
        return x
)");
  ASSERT_TRUE(p);
  auto exe = generate(p->module());
  ASSERT_TRUE(exe);
  std::string text = exe->asText();
  // Only y has a register, so only y's kill is emitted.
  EXPECT_EQ(count(text, "call vm.builtin.null_value"), 1u) << text;
  EXPECT_EQ(count(text, "null_value in:  dst: %void"), 0u) << text;
  Value x = f32Tensor({4}, {1, 2, 3, 4});
  EXPECT_EQ(tensorData<float>(take(run(exe, {x}))), (std::vector<float>{1, 2, 3, 4}));
}

TEST(CodeGen, RegistersAreReusedAfterLastUse) {
  std::string text = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            y0 = R.call_dps_packed("graft.add", (x, x), out_sinfo=R.Tensor((2,), "float32"))
)";
  const int n = 200;
  for (int i = 1; i < n; ++i)
    text += "            y" + std::to_string(i) + " = R.call_dps_packed(\"graft.add\", (y" +
            std::to_string(i - 1) + ", x), out_sinfo=R.Tensor((2,), \"float32\"))\n";
  text += "            R.output(y" + std::to_string(n - 1) + ")\n        return y" +
          std::to_string(n - 1) + "\n";
  auto exe = build(text);
  ASSERT_TRUE(exe);
  const vm::FuncInfo &fn = exe->functions[exe->findFunction("main")];
  // One register per binding would be over 3 * 200; live values here are
  // few at any time.
  EXPECT_LE(fn.registerFileSize, 8) << exe->asText();
  // x + x, then + x 199 times: 201 * x.
  EXPECT_EQ(tensorData<float>(take(run(exe, {f32Tensor({2}, {1, -0.5})}))),
            (std::vector<float>{201, -100.5}));
}

TEST(CodeGen, UnreadValuesGoToTheVoidRegister) {
  auto p = parse(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        unused: R.Tensor((4,), "float32") = R.call_packed("vm.builtin.copy", x, sinfo_args=(R.Tensor((4,), "float32"),))
        t: R.Tuple(R.Tensor((4,), "float32")) = (x,)
        return x
)");
  ASSERT_TRUE(p);
  auto exe = generate(p->module());
  ASSERT_TRUE(exe);
  std::string text = exe->asText();
  EXPECT_NE(text.find("call vm.builtin.copy in: %0 dst: %void"), std::string::npos) << text;
  EXPECT_NE(text.find("call vm.builtin.make_tuple in: %0 dst: %void"), std::string::npos) << text;
  EXPECT_EQ(exe->functions[exe->findFunction("main")].registerFileSize, 1);
}

// 200 nested ifs: the walk keeps its own stack.
TEST(CodeGen, DeeplyNestedIfs) {
  const int depth = 200;
  std::string body;
  std::string indent = "        ";
  for (int i = 0; i < depth; ++i) {
    body += indent + "if c:\n";
    indent += "    ";
  }
  body += indent + "r" + std::to_string(depth) +
          " = R.call_dps_packed(\"graft.negative\", (x,), out_sinfo=R.Tensor((1,), \"float32\"))\n";
  for (int i = depth; i-- > 0;) {
    std::string inner = indent;
    indent.resize(indent.size() - 4);
    body += inner + "r" + std::to_string(i) + " = r" + std::to_string(i + 1) + "\n";
    body += indent + "else:\n" + inner + "r" + std::to_string(i) + " = x\n";
  }
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(c: R.Prim("bool"), x: R.Tensor((1,), "float32")) -> R.Tensor((1,), "float32"):
)" + body + "        return r0\n");
  ASSERT_TRUE(exe);
  Value x = f32Tensor({1}, {2});
  EXPECT_EQ(tensorData<float>(take(run(exe, {Value::boolean(true), x}))), std::vector<float>{-2});
  EXPECT_EQ(tensorData<float>(take(run(exe, {Value::boolean(false), x}))), std::vector<float>{2});
}

TEST(CodeGen, UnloweredOpIsAnError) {
  auto p = parse(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.add(x, x)
        return y
)");
  ASSERT_TRUE(p);
  std::string err = errorOf(codegen::generateExecutable(p->module()));
  EXPECT_NE(err.find("codegen: function 'main': R.add must be lowered before code generation"),
            std::string::npos)
      << err;
}

TEST(CodeGen, HandWrittenPrimFuncIsAnError) {
  std::string err = buildError(R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
)");
  EXPECT_NE(err.find("codegen: PrimFunc 'add_one' has a hand-written TIR body, which graft "
                     "cannot compile"),
            std::string::npos)
      << err;
}

TEST(CodeGen, GeneratedPrimFuncsBecomeScalarPrograms) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tuple(R.Tensor(("n",), "float32"), R.Prim("int64")):
        n = T.int64()
        y = R.call_dps_packed("graft.exp", (x,), out_sinfo=R.Tensor((n,), "float32"))
        return (y, R.prim_value(n * 3 // 2))
)");
  ASSERT_TRUE(exe);
  const vm::KernelSource *compute = nullptr;
  for (const vm::KernelSource &k : exe->kernelSources)
    if (k.name == "compute_symbolic_expr")
      compute = &k;
  ASSERT_TRUE(compute) << exe->asText();
  EXPECT_EQ(compute->text,
            "graft-scalar-program 1\nparams 1\narg 0\nint 3\nmul\nint 2\nfloordiv\nret int64\n");
  Value out = take(run(exe, {f32Tensor({5}, {0, 0, 0, 0, 0})}));
  EXPECT_EQ(field(out, 1).getInt(), 7); // 5 * 3 // 2
}

} // namespace
