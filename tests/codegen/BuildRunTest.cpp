//===- tests/codegen/BuildRunTest.cpp - Small programs built and run ------===//
//
// Each test builds a module with the build-cpu pipeline and code generation,
// runs it in the VM and compares with values computed by hand.
//
//===----------------------------------------------------------------------===//

#include "CodeGenTestUtil.h"

using namespace graft;
using namespace graft::codegen::test;

namespace {

TEST(BuildRun, KernelChain) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), "float32"), y: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        with R.dataflow():
            a = R.call_dps_packed("graft.add", (x, y), out_sinfo=R.Tensor((3,), "float32"))
            b = R.call_dps_packed("graft.multiply", (a, x), out_sinfo=R.Tensor((3,), "float32"))
            c = R.call_dps_packed("graft.negative", (b,), out_sinfo=R.Tensor((3,), "float32"))
            R.output(c)
        return c
)");
  ASSERT_TRUE(exe);
  Value out = take(run(exe, {f32Tensor({3}, {1, 2, 3}), f32Tensor({3}, {10, 20, 30})}));
  // -(x + y) * x
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{-11, -44, -99}));
}

const char *kIf = R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(c: R.Prim("bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            y = R.call_dps_packed("graft.add", (x, x), out_sinfo=R.Tensor((2,), "float32"))
            z = y
        else:
            z = R.call_dps_packed("graft.negative", (x,), out_sinfo=R.Tensor((2,), "float32"))
        w = R.call_dps_packed("graft.multiply", (z, x), out_sinfo=R.Tensor((2,), "float32"))
        return w
)";

TEST(BuildRun, IfWritesOneResultRegister) {
  auto exe = build(kIf);
  ASSERT_TRUE(exe);
  Value x = f32Tensor({2}, {3, -1});
  EXPECT_EQ(tensorData<float>(take(run(exe, {Value::boolean(true), x}))),
            (std::vector<float>{18, 2})); // (x + x) * x
  EXPECT_EQ(tensorData<float>(take(run(exe, {Value::boolean(false), x}))),
            (std::vector<float>{-9, -1})); // -x * x
}

TEST(BuildRun, IfOnTensorCondition) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if c:
            z = x
        else:
            z = R.call_dps_packed("graft.negative", (x,), out_sinfo=R.Tensor((2,), "float32"))
        return z
)");
  ASSERT_TRUE(exe);
  Value x = f32Tensor({2}, {3, -1});
  EXPECT_EQ(tensorData<float>(take(run(exe, {hostTensor<uint8_t>({}, kBool, {0}), x}))),
            (std::vector<float>{-3, 1}));
  EXPECT_EQ(tensorData<float>(take(run(exe, {hostTensor<uint8_t>({}, kBool, {1}), x}))),
            (std::vector<float>{3, -1}));
}

TEST(BuildRun, NestedIfs) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(a: R.Prim("bool"), b: R.Prim("bool"), x: R.Tensor((1,), "float32")) -> R.Tensor((1,), "float32"):
        if a:
            if b:
                r = R.call_dps_packed("graft.add", (x, x), out_sinfo=R.Tensor((1,), "float32"))
            else:
                r = R.call_dps_packed("graft.multiply", (x, x), out_sinfo=R.Tensor((1,), "float32"))
            s = r
        else:
            s = R.call_dps_packed("graft.negative", (x,), out_sinfo=R.Tensor((1,), "float32"))
        return s
)");
  ASSERT_TRUE(exe);
  Value x = f32Tensor({1}, {5});
  auto at = [&](bool a, bool b) {
    return tensorData<float>(take(run(exe, {Value::boolean(a), Value::boolean(b), x})))[0];
  };
  EXPECT_EQ(at(true, true), 10);
  EXPECT_EQ(at(true, false), 25);
  EXPECT_EQ(at(false, true), -5);
}

TEST(BuildRun, MatchCastAndSymbolicShapes) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 2), "float32"), t: R.Tensor(ndim=1, dtype="float32")) -> R.Tuple(R.Tensor(("n", 2), "float32"), R.Shape(ndim=2), R.Prim("int64")):
        n = T.int64()
        m = T.int64()
        u = R.match_cast(t, R.Tensor((m,), "float32"))
        y = R.call_dps_packed("graft.add", (x, x), out_sinfo=R.Tensor((n, 2), "float32"))
        s = R.shape([n, m])
        p = R.prim_value(n * m + 1)
        return (y, s, p)
)");
  ASSERT_TRUE(exe);
  Value out = take(run(exe, {f32Tensor({3, 2}, {1, 2, 3, 4, 5, 6}), f32Tensor({4}, {0, 0, 0, 0})}));
  EXPECT_EQ(tensorData<float>(field(out, 0)), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  auto *shape = field(out, 1).as<vm::ShapeObj>();
  ASSERT_TRUE(shape);
  EXPECT_EQ(std::vector<int64_t>(shape->dims.begin(), shape->dims.end()),
            (std::vector<int64_t>{3, 4}));
  ASSERT_TRUE(field(out, 2).isInt());
  EXPECT_EQ(field(out, 2).getInt(), 13); // 3 * 4 + 1
}

TEST(BuildRun, MatchCastFailureIsARuntimeError) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(t: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor((4,), "float32"):
        u = R.match_cast(t, R.Tensor((4,), "float32"))
        return u
)");
  ASSERT_TRUE(exe);
  std::string err = errorOf(run(exe, {f32Tensor({3}, {1, 2, 3})}));
  EXPECT_NE(err.find("in function 'main'"), std::string::npos) << err;
  EXPECT_NE(err.find("vm.builtin.match_shape"), std::string::npos) << err;
}

TEST(BuildRun, NestedTuples) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1,), "float32"), k: R.Prim("int64")) -> R.Tuple(R.Tensor((1,), "float32"), R.Tuple(R.Prim("int64"), R.Tuple(R.Tensor((1,), "float32")))):
        t = (x, (k, (x,)))
        inner = t[1]
        kk = inner[0]
        return (x, (kk, (t[0],)))
)");
  ASSERT_TRUE(exe);
  Value x = f32Tensor({1}, {7});
  Value out = take(run(exe, {x, Value::integer(42)}));
  EXPECT_EQ(tensorData<float>(field(out, 0)), std::vector<float>{7});
  const Value &mid = field(out, 1);
  EXPECT_EQ(field(mid, 0).getInt(), 42);
  EXPECT_EQ(tensorData<float>(field(field(mid, 1), 0)), std::vector<float>{7});
}

TEST(BuildRun, CallsBetweenFunctions) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def twice(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            y = R.call_dps_packed("graft.add", (x, x), out_sinfo=R.Tensor((2,), "float32"))
            R.output(y)
        return y

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        cls = Module
        a = cls.twice(x)
        b = cls.twice(a)
        return b
)");
  ASSERT_TRUE(exe);
  EXPECT_EQ(tensorData<float>(take(run(exe, {f32Tensor({2}, {1, -2})}))),
            (std::vector<float>{4, -8}));
  EXPECT_EQ(tensorData<float>(take(run(exe, {f32Tensor({2}, {1, -2})}, "twice"))),
            (std::vector<float>{2, -4}));
}

TEST(BuildRun, Closures) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def scale(x: R.Tensor((2,), "float32"), w: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        z = R.call_dps_packed("graft.multiply", (x, w), out_sinfo=R.Tensor((2,), "float32"))
        return z

    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32"), w: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        cls = Module
        clo = R.make_closure(cls.scale, (w,))
        r = R.invoke_closure(clo, (x,), sinfo_args=(R.Tensor((2,), "float32"),))
        return r
)");
  ASSERT_TRUE(exe);
  EXPECT_EQ(tensorData<float>(take(run(exe, {f32Tensor({2}, {2, 3}), f32Tensor({2}, {5, -1})}))),
            (std::vector<float>{10, -3}));
}

TEST(BuildRun, ConstantsOfEveryDtype) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main() -> R.Tuple(R.Tensor((2,), "float64"), R.Tensor((2,), "float16"), R.Tensor((2,), "bfloat16"), R.Tensor((3,), "bool"), R.Tensor((2,), "int8"), R.Tensor((2,), "uint8"), R.Tensor((), "int64"), R.Tensor((2,), "float32"), R.Tensor((2,), "int32")):
        return (R.const([1.5, -2.25], "float64"), R.const([0.5, 65504.0], "float16"), R.const([1.0, -3.0], "bfloat16"), R.const([True, False, True], "bool"), R.const([-128, 127], "int8"), R.const([0, 255], "uint8"), R.const(1152921504606846976, "int64"), R.const([0.25, -8.0], "float32"), R.const([-7, 100000], "int32"))
)");
  ASSERT_TRUE(exe);
  Value out = take(run(exe, {}));
  EXPECT_EQ(tensorData<double>(field(out, 0)), (std::vector<double>{1.5, -2.25}));
  // float16 0.5 = 0x3800, 65504 = 0x7bff; bfloat16 1.0 = 0x3f80, -3.0 = 0xc040.
  EXPECT_EQ(tensorData<uint16_t>(field(out, 1)), (std::vector<uint16_t>{0x3800, 0x7bff}));
  EXPECT_EQ(tensorData<uint16_t>(field(out, 2)), (std::vector<uint16_t>{0x3f80, 0xc040}));
  EXPECT_EQ(tensorData<uint8_t>(field(out, 3)), (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(tensorData<int8_t>(field(out, 4)), (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(tensorData<uint8_t>(field(out, 5)), (std::vector<uint8_t>{0, 255}));
  EXPECT_EQ(tensorData<int64_t>(field(out, 6)), (std::vector<int64_t>{int64_t(1) << 60}));
  EXPECT_EQ(tensorData<float>(field(out, 7)), (std::vector<float>{0.25f, -8.0f}));
  EXPECT_EQ(tensorData<int32_t>(field(out, 8)), (std::vector<int32_t>{-7, 100000}));
  const vm::TensorObj *bf = field(out, 2).as<vm::TensorObj>();
  ASSERT_TRUE(bf);
  EXPECT_EQ(vm::dtypeStr(bf->dtype()), "bfloat16");
  EXPECT_EQ(vm::dtypeStr(field(out, 3).as<vm::TensorObj>()->dtype()), "bool");
}

TEST(BuildRun, PrimValuesOfEveryKind) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main(f: R.Prim("float64")) -> R.Tuple(R.Prim("int64"), R.Prim("float64"), R.Prim("bool"), R.Prim("int64"), R.Shape([2, 3]), R.Object, R.Object):
        return (R.prim_value(5), f, R.prim_value(T.bool(True)), R.prim_value(T.int64(-36028797018963968)), R.shape([2, 3]), R.str("hi"), R.dtype("bfloat16"))
)");
  ASSERT_TRUE(exe);
  Value out = take(run(exe, {Value::real(0.5)}));
  EXPECT_EQ(field(out, 0).getInt(), 5);
  ASSERT_TRUE(field(out, 1).isFloat());
  EXPECT_EQ(field(out, 1).getFloat(), 0.5);
  ASSERT_TRUE(field(out, 2).isBool());
  EXPECT_TRUE(field(out, 2).getBool());
  // Beyond the 56-bit immediate range: a pool constant.
  EXPECT_EQ(field(out, 3).getInt(), -36028797018963968);
  EXPECT_EQ(field(out, 4).str(), "shape[2, 3]");
  ASSERT_TRUE(field(out, 5).as<vm::StringObj>());
  EXPECT_EQ(field(out, 5).as<vm::StringObj>()->value, "hi");
  ASSERT_TRUE(field(out, 6).isDataType());
  EXPECT_EQ(vm::dtypeStr(field(out, 6).getDataType()), "bfloat16");
}

TEST(BuildRun, AssertFailsWithFormattedMessage) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(c: R.Prim("bool"), k: R.Prim("int64")) -> R.Prim("int64"):
        R.assert_op(c, k, format="k was {}")
        return k
)");
  ASSERT_TRUE(exe);
  EXPECT_EQ(take(run(exe, {Value::boolean(true), Value::integer(4)})).getInt(), 4);
  std::string err = errorOf(run(exe, {Value::boolean(false), Value::integer(4)}));
  EXPECT_NE(err.find("vm.builtin.assert: k was 4"), std::string::npos) << err;
}

TEST(BuildRun, SaveLoadRunAgain) {
  auto exe = build(kIf);
  ASSERT_TRUE(exe);
  Value x = f32Tensor({2}, {3, -1});
  std::vector<float> before = tensorData<float>(take(run(exe, {Value::boolean(true), x})));
  std::string bytes = vm::saveToBytes(*exe);
  auto loaded = take(vm::loadFromBytes(bytes));
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->asText(), exe->asText());
  std::shared_ptr<const vm::Executable> again(std::move(loaded));
  EXPECT_EQ(tensorData<float>(take(run(again, {Value::boolean(true), x}))), before);
  EXPECT_EQ(tensorData<float>(take(run(again, {Value::boolean(false), x}))),
            (std::vector<float>{-9, -1}));
}

TEST(BuildRun, ParameterTable) {
  auto exe = build(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float16"), s: R.Shape(["n", "m"]), p: R.Prim("float32"), t: R.Tuple(R.Tensor((1,), "int8"))) -> R.Shape(["n", "m"]):
        return s
)");
  ASSERT_TRUE(exe);
  const vm::FuncInfo &fn = exe->functions[exe->findFunction("main")];
  ASSERT_EQ(fn.params.size(), 4u);
  EXPECT_EQ(fn.params[0].kind, vm::ParamKind::Tensor);
  EXPECT_EQ(vm::dtypeStr(*fn.params[0].dtype), "float16");
  ASSERT_EQ(fn.params[0].dims.size(), 2u);
  EXPECT_EQ(fn.params[0].dims[0].symbol, "n");
  EXPECT_EQ(fn.params[0].dims[1].value, 4);
  EXPECT_EQ(fn.params[1].kind, vm::ParamKind::Shape);
  EXPECT_EQ(fn.params[1].dims[1].symbol, "m");
  EXPECT_EQ(fn.params[2].kind, vm::ParamKind::Float);
  EXPECT_EQ(fn.params[3].kind, vm::ParamKind::Tuple);
  // The VM checks the shape's n against x's before running.
  Value x = hostTensor<uint16_t>({2, 4}, DLDataType{kDLFloat, 16, 1}, std::vector<uint16_t>(8));
  Value tuple = Value::tuple({hostTensor<int8_t>({1}, DLDataType{kDLInt, 8, 1}, {1})});
  std::string err = errorOf(run(exe, {x, Value::shape({3, 5}), Value::real(1.0), tuple}));
  EXPECT_NE(err.find("parameter 's' dim 0: symbolic dim 'n' is 3 here but 2 in parameter 'x'"),
            std::string::npos)
      << err;
  EXPECT_EQ(take(run(exe, {x, Value::shape({2, 5}), Value::real(1.0), tuple})).str(),
            "shape[2, 5]");
}

} // namespace
