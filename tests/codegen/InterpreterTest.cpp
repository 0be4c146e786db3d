//===- tests/codegen/InterpreterTest.cpp - The reference interpreter -------===//
//
// Small programs run by the interpreter, checked against values computed by
// hand and against the same program built with build-cpu and run in the VM;
// every error kind with its message; deep nesting without C++ recursion.
//
//===----------------------------------------------------------------------===//

#include "CodeGenTestUtil.h"

#include "codegen/Interpreter.h"

using namespace graft;
using namespace graft::codegen;
using namespace graft::codegen::test;

namespace {

llvm::Expected<Value> interpretText(const std::string &text, llvm::ArrayRef<Value> args,
                                    llvm::StringRef fn = "main") {
  auto p = parse(text);
  if (!p)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "parse error");
  return interpret(p->module(), fn, args);
}

/// The interpreter's error kind and message, or "<success>".
std::pair<InterpretError::Kind, std::string> failure(llvm::Expected<Value> v) {
  std::pair<InterpretError::Kind, std::string> out{InterpretError::Kind::Runtime, "<success>"};
  if (v)
    return out;
  llvm::handleAllErrors(v.takeError(), [&](const InterpretError &e) {
    out = {e.kind(), e.text()};
  });
  return out;
}

const char *kOps = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32"), y: R.Tensor((3,), "float32")) -> R.Tuple(R.Tensor(("n", 3), "float32"), R.Tensor((3,), "float32"), R.Shape(["n"])):
        n = T.int64()
        with R.dataflow():
            a = R.add(x, y)
            b = R.multiply(a, R.const(2.0, "float32"))
            s = R.sum(b, axis=[0])
            sh = R.shape([n])
            t = (b, s, sh)
            R.output(t)
        return t
)";

TEST(Interpreter, OpsBroadcastAndTuples) {
  Value x = f32Tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  Value y = f32Tensor({3}, {10, 20, 30});
  Value out = take(interpretText(kOps, {x, y}));
  auto *tuple = out.as<vm::TupleObj>();
  ASSERT_TRUE(tuple);
  ASSERT_EQ(tuple->fields.size(), 3u);
  EXPECT_EQ(tensorData<float>(tuple->fields[0]),
            (std::vector<float>{22, 44, 66, 28, 50, 72})); // (x + y) * 2
  EXPECT_EQ(tensorData<float>(tuple->fields[1]), (std::vector<float>{50, 94, 138}));
  auto *shape = tuple->fields[2].as<vm::ShapeObj>();
  ASSERT_TRUE(shape);
  EXPECT_EQ(std::vector<int64_t>(shape->dims.begin(), shape->dims.end()),
            (std::vector<int64_t>{2}));
}

TEST(Interpreter, AgreesWithTheVM) {
  auto exe = build(kOps);
  ASSERT_TRUE(exe);
  Value x = f32Tensor({2, 3}, {1, -2, 3, 0.5f, 5, -6});
  Value y = f32Tensor({3}, {1, 2, 3});
  Value vmOut = take(run(exe, {x, y}));
  Value interpOut = take(interpretText(kOps, {x, y}));
  auto *a = vmOut.as<vm::TupleObj>();
  auto *b = interpOut.as<vm::TupleObj>();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(tensorData<float>(a->fields[0]), tensorData<float>(b->fields[0]));
  EXPECT_EQ(tensorData<float>(a->fields[1]), tensorData<float>(b->fields[1]));
}

// One key and value head serve two query heads (grouped-query attention):
// with one key every query's output is that key's value.
const char *kAttention = R"(
@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((1, 2, 2, 2), "float32"), k: R.Tensor((1, 1, 1, 2), "float32"), v: R.Tensor((1, 1, 1, 2), "float32")) -> R.Tensor((1, 2, 2, 2), "float32"):
        o = R.nn.attention(q, k, v, causal_mask="TopLeft")
        return o
)";

TEST(Interpreter, AttentionRunsItsKernelAsTheVMDoes) {
  Value q = f32Tensor({1, 2, 2, 2}, {1, 2, -3, 4, 0.5f, 7, 9, -1});
  Value k = f32Tensor({1, 1, 1, 2}, {2, -5});
  Value v = f32Tensor({1, 1, 1, 2}, {3, -1});
  Value out = take(interpretText(kAttention, {q, k, v}));
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{3, -1, 3, -1, 3, -1, 3, -1}));
  auto exe = build(kAttention);
  ASSERT_TRUE(exe);
  EXPECT_EQ(tensorData<float>(take(run(exe, {q, k, v}))), tensorData<float>(out));
}

const char *kCalls = R"(
@I.ir_module
class Module:
    @R.function
    def twice(x: R.Tensor(("m",), "float32")) -> R.Tensor(("m",), "float32"):
        y = R.add(x, x)
        return y

    @R.function
    def main(c: R.Prim("bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            z = Module.twice(x)
        else:
            z = R.negative(x)
        w = R.multiply(z, x)
        return w
)";

TEST(Interpreter, IfAndCalls) {
  Value x = f32Tensor({2}, {3, -1});
  EXPECT_EQ(tensorData<float>(take(interpretText(kCalls, {Value::boolean(true), x}))),
            (std::vector<float>{18, 2}));
  EXPECT_EQ(tensorData<float>(take(interpretText(kCalls, {Value::boolean(false), x}))),
            (std::vector<float>{-9, -1}));
}

const char *kMatchCast = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        k = T.int64()
        y = R.match_cast(x, R.Tensor((k,), "float32"))
        z = R.match_cast(y, R.Tensor((4,), "float32"))
        w = R.add(z, z)
        r = R.match_cast(w, R.Tensor((n,), "float32"))
        return r
)";

TEST(Interpreter, MatchCastBindsAndChecks) {
  EXPECT_EQ(tensorData<float>(take(interpretText(kMatchCast, {f32Tensor({4}, {1, 2, 3, 4})}))),
            (std::vector<float>{2, 4, 6, 8}));
  auto [kind, message] = failure(interpretText(kMatchCast, {f32Tensor({3}, {1, 2, 3})}));
  EXPECT_EQ(kind, InterpretError::Kind::Runtime);
  EXPECT_EQ(message, "match_cast in binding 'z' of function 'main': '4' is 4 but the value has 3");
}

TEST(Interpreter, ArgumentsAreCheckedAsBadInput) {
  auto [kind, message] = failure(
      interpretText(kOps, {f32Tensor({2, 4}, std::vector<float>(8)), f32Tensor({3}, {1, 2, 3})}));
  EXPECT_EQ(kind, InterpretError::Kind::BadInput);
  EXPECT_EQ(message, "parameter 'x' of function 'main': '3' is 3 but the value has 4");
  std::tie(kind, message) = failure(interpretText(kOps, {f32Tensor({3}, {1, 2, 3})}));
  EXPECT_EQ(kind, InterpretError::Kind::BadInput);
  EXPECT_EQ(message, "function 'main' expects 2 arguments but got 1");
  std::tie(kind, message) = failure(interpretText(kOps, {}, "nothing"));
  EXPECT_EQ(message, "no Relax function 'nothing' in module Module");
}

TEST(Interpreter, FailingAssertIsARuntimeError) {
  const char *text = R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Prim("int64")) -> R.Prim("int64"):
        v = T.int64()
        y = R.match_cast(x, R.Prim(value=v))
        _ = R.assert_op(R.prim_value(v < 3), y, format="x is {}")
        return y
)";
  EXPECT_EQ(failure(interpretText(text, {Value::integer(2)})).second, "<success>");
  auto [kind, message] = failure(interpretText(text, {Value::integer(7)}));
  EXPECT_EQ(kind, InterpretError::Kind::Runtime);
  EXPECT_EQ(message, "binding '_' of function 'main': x is 7");
}

TEST(Interpreter, CallTIRIsNotSupported) {
  auto [kind, message] = failure(interpretText(R"(
@I.ir_module
class Module:
    @T.prim_func
    def add_one(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.call_tir(Module.add_one, (x,), out_sinfo=R.Tensor((2,), "float32"))
        return y
)",
                                               {f32Tensor({2}, {1, 2})}));
  EXPECT_EQ(kind, InterpretError::Kind::Unsupported);
  EXPECT_NE(message.find("is not supported by the interpreter"), std::string::npos) << message;
}

TEST(Interpreter, MaskedIndexCountsOnTheHost) {
  const char *text = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), m: R.Tensor((4,), "bool")) -> R.Tensor(dtype="float32", ndim=1):
        y = R.index_tensor(x, (m,))
        return y
)";
  Value m = hostTensor<uint8_t>({4}, kBool, {1, 0, 1, 1});
  EXPECT_EQ(tensorData<float>(take(interpretText(text, {f32Tensor({4}, {1, 2, 3, 4}), m}))),
            (std::vector<float>{1, 3, 4}));
}

/// 3000 nested ifs and a chain of 3000 calls: work lists, not the C++ stack.
TEST(Interpreter, DeepNestingUsesNoRecursion) {
  const int depth = 3000;
  std::string text = "@I.ir_module\nclass Module:\n";
  for (int i = 0; i < depth; ++i) {
    text += "    @R.function\n    def f" + std::to_string(i) +
            "(x: R.Tensor((1,), \"float32\")) -> R.Tensor((1,), \"float32\"):\n";
    if (i + 1 < depth)
      text += "        y = Module.f" + std::to_string(i + 1) + "(x)\n        return y\n\n";
    else
      text += "        y = R.add(x, x)\n        return y\n\n";
  }
  EXPECT_EQ(tensorData<float>(take(interpretText(text, {f32Tensor({1}, {2})}, "f0"))),
            (std::vector<float>{4}));

  std::string ifs = "@I.ir_module\nclass Module:\n    @R.function\n    def main(c: "
                    "R.Prim(\"bool\"), x: R.Tensor((1,), \"float32\")) -> R.Tensor((1,), "
                    "\"float32\"):\n";
  std::string indent = "        ";
  for (int i = 0; i < 200; ++i) {
    ifs += indent + "if c:\n";
    indent += "    ";
  }
  ifs += indent + "y = R.negative(x)\n";
  for (int i = 200; i-- > 0;) {
    ifs += indent + "z" + std::to_string(i) + " = " +
           (i == 199 ? "y" : "z" + std::to_string(i + 1)) + "\n";
    indent.resize(indent.size() - 4);
    ifs += indent + "else:\n" + indent + "    z" + std::to_string(i) + " = x\n";
  }
  ifs += "        return z0\n";
  EXPECT_EQ(
      tensorData<float>(take(interpretText(ifs, {Value::boolean(true), f32Tensor({1}, {2})}))),
      (std::vector<float>{-2}));
}

} // namespace
