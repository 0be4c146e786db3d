//===- tests/ir/PrinterTest.cpp - Exact text of the TVMScript printer -------===//
//
// IR built through the C++ API, printed, and compared with the exact text.
// Round trips through the parser live in RoundTripTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/Op.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

using namespace graft;

namespace {

StructInfo f32Tensor(std::vector<PrimExpr> dims) {
  return tensorSInfo(std::move(dims), DataType::float32());
}

Var var(const char *name, StructInfo s) { return make<VarNode>(name, std::move(s)); }
Var dfVar(const char *name, StructInfo s) { return make<DataflowVarNode>(name, std::move(s)); }

Expr call(const char *op, std::vector<Expr> args, Attrs attrs = nullptr,
          std::vector<StructInfo> sinfoArgs = {}, StructInfo s = nullptr) {
  // Some tests print calls to ops the registry does not know.
  return make<CallNode>(getOrCreateUnknownOp(op), std::move(args), std::move(attrs),
                        std::move(sinfoArgs), std::move(s));
}

Binding bind(Var v, Expr e) { return make<VarBindingNode>(std::move(v), std::move(e)); }

BindingBlock block(std::vector<Binding> bs, bool dataflow = false) {
  return make<BindingBlockNode>(std::move(bs), dataflow);
}

Function func(std::vector<Var> params, std::vector<BindingBlock> blocks, Expr ret,
              StructInfo retSInfo, bool pure = true, Attrs attrs = nullptr) {
  SeqExpr body = make<SeqExprNode>(std::move(blocks), std::move(ret));
  return make<FunctionNode>(std::move(params), body, std::move(retSInfo), pure, std::move(attrs));
}

Attrs globalSymbol(const char *name) {
  return make<AttrsNode>(AttrDict{{"global_symbol", AttrValue::string(name)}});
}

std::shared_ptr<TensorData> tensorData(DataType dt, std::vector<int64_t> shape, const void *bytes,
                                       size_t n) {
  auto d = std::make_shared<TensorData>();
  d->dtype = dt;
  d->shape = std::move(shape);
  d->bytes.assign(static_cast<const uint8_t *>(bytes), static_cast<const uint8_t *>(bytes) + n);
  return d;
}

std::string printFn(const Function &fn, const char *name = "main", PrintOptions opts = {}) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printFunction(os, *fn, name, nullptr, opts);
  os.flush();
  return out;
}

const char *kHeader = "# from tvm.script import ir as I\n"
                      "# from tvm.script import tir as T\n"
                      "# from tvm.script import relax as R\n\n";

} // namespace

//===----------------------------------------------------------------------===//
// Struct info
//===----------------------------------------------------------------------===//

TEST(PrinterTest, StructInfoForms) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  EXPECT_EQ(printStructInfo(f32Tensor({n, intImm(4)})), "R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(printStructInfo(f32Tensor({intImm(128)})), "R.Tensor((128,), dtype=\"float32\")");
  EXPECT_EQ(printStructInfo(f32Tensor({})), "R.Tensor((), dtype=\"float32\")");
  EXPECT_EQ(printStructInfo(tensorSInfoNDim(2, DataType::float32())),
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(printStructInfo(tensorSInfoNDim(-1, DataType::voidType())), "R.Tensor");
  EXPECT_EQ(printStructInfo(tensorSInfoNDim(3, DataType::voidType())), "R.Tensor(ndim=3)");
  EXPECT_EQ(printStructInfo(shapeSInfo({n, intImm(2)})), "R.Shape([n, 2])");
  EXPECT_EQ(printStructInfo(shapeSInfoNDim(2)), "R.Shape(ndim=2)");
  EXPECT_EQ(printStructInfo(shapeSInfoNDim(-1)), "R.Shape(ndim=-1)");
  EXPECT_EQ(printStructInfo(primSInfo(DataType::int64())), "R.Prim(\"int64\")");
  EXPECT_EQ(printStructInfo(primValueSInfo(n)), "R.Prim(value=n)");
  EXPECT_EQ(printStructInfo(voidSInfo()), "R.Tuple");
  EXPECT_EQ(printStructInfo(tupleSInfo({objectSInfo(), primSInfo(DataType::boolType())})),
            "R.Tuple(R.Object, R.Prim(\"bool\"))");
  StructInfo fn =
      make<FuncSInfoNode>(std::vector<StructInfo>{f32Tensor({intImm(2)})}, objectSInfo(), true);
  EXPECT_EQ(printStructInfo(fn),
            "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Object, True)");
  EXPECT_EQ(printStructInfo(make<FuncSInfoNode>(llvm::None, objectSInfo(), false)), "R.Callable");
  EXPECT_EQ(printStructInfo(make<FuncSInfoNode>(llvm::None, voidSInfo(), true)),
            "R.Callable(ret=R.Tuple, purity=True)");
  EXPECT_EQ(
      printStructInfo(make<FuncSInfoNode>(llvm::None, objectSInfo(), false, kInferBySInfoArgs)),
      "R.Callable(derive_func=\"tvm.relax.struct_info.infer_by_sinfo_args\")");
}

TEST(PrinterTest, VDeviceStringCountsWithinKind) {
  IRModule m;
  VDevice llvmDev = make<VDeviceNode>("llvm", AttrDict{}, 0, "global");
  VDevice cuda0 = make<VDeviceNode>("cuda", AttrDict{}, 0, "global");
  VDevice cuda1 = make<VDeviceNode>("cuda", AttrDict{}, 1, "global");
  m.globalInfos.push_back(
      {"vdevice", {Ref<Node>(llvmDev.get()), Ref<Node>(cuda0.get()), Ref<Node>(cuda1.get())}});
  Var x = var("x", tensorSInfo({intImm(2)}, DataType::float32(), cuda1));
  Function fn = func({x}, {}, x, x->sinfo);
  m.add(make<GlobalVarNode>("main"), Ref<Node>(fn.get()));
  EXPECT_EQ(printModule(m),
            std::string(kHeader) +
                "@I.ir_module\n"
                "class Module:\n"
                "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\", 0, \"global\"), "
                "I.vdevice(\"cuda\", 0, \"global\"), I.vdevice(\"cuda\", 1, \"global\")]})\n"
                "\n"
                "    @R.function(private=True)\n"
                "    def main(x: R.Tensor((2,), dtype=\"float32\", vdevice=\"cuda:1:global\")) "
                "-> R.Tensor((2,), dtype=\"float32\", vdevice=\"cuda:1:global\"):\n"
                "        return x\n");
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

TEST(PrinterTest, Literals) {
  EXPECT_EQ(printExpr(primValueInt(3)), "R.prim_value(3)");
  EXPECT_EQ(printExpr(stringImm("a\"b\\c\nd")), "R.str(\"a\\\"b\\\\c\\nd\")");
  EXPECT_EQ(printExpr(dataTypeImm(DataType::float32())), "R.dtype(\"float32\")");
  EXPECT_EQ(printExpr(shapeExpr({intImm(2), intImm(3)})), "R.shape([2, 3])");
  EXPECT_EQ(printExpr(tupleExpr({})), "R.tuple()");
  Var a = var("a", objectSInfo());
  Var b = var("b", objectSInfo());
  EXPECT_EQ(printExpr(tupleExpr({a})), "(a,)");
  EXPECT_EQ(printExpr(tupleExpr({a, b})), "(a, b)");
  Expr t = tupleExpr({a, b});
  EXPECT_EQ(printExpr(make<TupleGetItemNode>(t, 1)), "(a, b)[1]");
  EXPECT_EQ(printExpr(make<ExternFuncNode>("my.sym")), "R.ExternFunc(\"my.sym\")");
}

TEST(PrinterTest, ScalarConstants) {
  auto scalar = [](DataType dt, const void *p, size_t n) {
    return printExpr(make<ConstantNode>(tensorData(dt, {}, p, n)));
  };
  int32_t i = -7;
  EXPECT_EQ(scalar(DataType::int32(), &i, 4), "R.const(-7, \"int32\")");
  float f = 1.0f;
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(1.0, \"float32\")");
  f = 0.1f;
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(0.1, \"float32\")");
  f = -0.0f;
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(-0.0, \"float32\")");
  f = std::numeric_limits<float>::infinity();
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(\"inf\", \"float32\")");
  f = -f;
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(\"-inf\", \"float32\")");
  f = std::nanf("");
  EXPECT_EQ(scalar(DataType::float32(), &f, 4), "R.const(\"nan\", \"float32\")");
  double d = 0.1;
  EXPECT_EQ(scalar(DataType::float64(), &d, 8), "R.const(0.1, \"float64\")");
  d = 1.0 / 3;
  EXPECT_EQ(scalar(DataType::float64(), &d, 8), "R.const(0.3333333333333333, \"float64\")");
  d = 1e-5;
  EXPECT_EQ(scalar(DataType::float64(), &d, 8), "R.const(1e-05, \"float64\")");
  uint8_t bv = 1;
  EXPECT_EQ(scalar(DataType::boolType(), &bv, 1), "R.const(True, \"bool\")");
  uint16_t half = 0x3c00; // 1.0
  EXPECT_EQ(scalar(DataType(DataType::Float, 16), &half, 2), "R.const(1.0, \"float16\")");
  uint16_t bf = 0x3fc0; // 1.5
  EXPECT_EQ(scalar(DataType(DataType::BFloat, 16), &bf, 2), "R.const(1.5, \"bfloat16\")");
}

TEST(PrinterTest, ShortestFloatRoundTrips) {
  // Every printed float32 reads back (through double) to the same bits.
  const float samples[] = {0.1f, 1.5f, 3.14159274f, 1e-30f, 123456.789f, 1.17549435e-38f};
  for (float v : samples) {
    std::string text =
        printExpr(make<ConstantNode>(tensorData(DataType::float32(), {}, &v, sizeof v)));
    std::string literal = text.substr(8, text.find(',') - 8);
    float back = static_cast<float>(std::strtod(literal.c_str(), nullptr));
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << text;
  }
}

TEST(PrinterTest, TensorConstantsAsNestedLists) {
  int64_t vals[] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(printExpr(make<ConstantNode>(tensorData(DataType::int64(), {2, 3}, vals, sizeof vals))),
            "R.const([[1, 2, 3], [4, 5, 6]], \"int64\")");
  uint8_t bytes[] = {0, 255};
  EXPECT_EQ(printExpr(make<ConstantNode>(
                tensorData(DataType(DataType::UInt, 8), {2}, bytes, sizeof bytes))),
            "R.const([0, 255], \"uint8\")");
  EXPECT_EQ(printExpr(make<ConstantNode>(tensorData(DataType::float32(), {0}, nullptr, 0))),
            "R.const([], \"float32\")");
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

TEST(PrinterTest, OpCallsPrintEveryAttrInSchemaOrder) {
  Var x = var("x", f32Tensor({intImm(2), intImm(3)}));
  // Written out of order: printed in the schema's order (axis, keepdims).
  Attrs attrs = make<AttrsNode>(AttrDict{{"keepdims", AttrValue::boolean(false)},
                                         {"axis", AttrValue::array({AttrValue::integer(1)})}});
  EXPECT_EQ(printExpr(call("relax.sum", {x}, attrs)), "R.sum(x, axis=[1], keepdims=False)");
  EXPECT_EQ(printExpr(call("relax.add", {x, x})), "R.add(x, x)");
}

TEST(PrinterTest, UnknownOpPrintsAsWritten) {
  Var x = var("x", objectSInfo());
  Attrs attrs =
      make<AttrsNode>(AttrDict{{"mode", AttrValue::string("a")}, {"k", AttrValue::integer(2)}});
  EXPECT_EQ(printExpr(call("relax.my_custom_op", {x, primValueInt(1)}, attrs)),
            "R.my_custom_op(x, R.prim_value(1), mode=\"a\", k=2)");
}

TEST(PrinterTest, PackedCalls) {
  Var x = var("x", objectSInfo());
  Expr packed = make<CallNode>(make<ExternFuncNode>("my.f"), std::vector<Expr>{x}, nullptr,
                               std::vector<StructInfo>{f32Tensor({intImm(2)})});
  EXPECT_EQ(printExpr(packed),
            "R.call_packed(\"my.f\", x, sinfo_args=(R.Tensor((2,), dtype=\"float32\"),))");
  Expr pure = call("relax.call_pure_packed", {make<ExternFuncNode>("my.g"), x}, nullptr,
                   {objectSInfo(), objectSInfo()});
  EXPECT_EQ(printExpr(pure), "R.call_pure_packed(\"my.g\", x, sinfo_args=(R.Object, R.Object))");
  Expr dps = call("relax.call_dps_packed", {make<ExternFuncNode>("ext"), tupleExpr({x})}, nullptr,
                  {f32Tensor({intImm(2)})});
  EXPECT_EQ(printExpr(dps),
            "R.call_dps_packed(\"ext\", (x,), out_sinfo=R.Tensor((2,), dtype=\"float32\"))");
}

TEST(PrinterTest, PrintAndAssertMoveFormatToKeyword) {
  Var x = var("x", objectSInfo());
  EXPECT_EQ(printExpr(call("relax.print", {stringImm("v={}"), x})),
            "R.print(x, format=R.str(\"v={}\"))");
  Var c = var("c", primSInfo(DataType::boolType()));
  EXPECT_EQ(printExpr(call("relax.assert_op", {c, stringImm("bad {}"), x})),
            "R.assert_op(c, x, format=R.str(\"bad {}\"))");
}

TEST(PrinterTest, HintOnDevice) {
  Var x = var("x", objectSInfo());
  Attrs attrs = make<AttrsNode>(AttrDict{{"device_type", AttrValue::integer(2)},
                                         {"index", AttrValue::integer(0)},
                                         {"memory_scope", AttrValue::string("global")}});
  EXPECT_EQ(printExpr(call("relax.hint_on_device", {x}, attrs)),
            "R.hint_on_device(x, R.device(device_type=2, index=0), \"global\")");
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

TEST(PrinterTest, SignatureVarsAsStringsAndDataflow) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Var x = var("x", f32Tensor({n, intImm(4)}));
  Var lv = dfVar("lv", f32Tensor({n, intImm(4)}));
  Var gv = var("gv", f32Tensor({n, intImm(4)}));
  Var s = dfVar("s", shapeSInfo({n, intImm(4)}));
  Function fn = func({x},
                     {block({bind(lv, call("relax.add", {x, x})),
                             bind(s, shapeExpr({n, intImm(4)})), bind(gv, lv)},
                            true)},
                     gv, gv->sinfo, true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> "
                         "R.Tensor((\"n\", 4), dtype=\"float32\"):\n"
                         "    with R.dataflow():\n"
                         "        lv: R.Tensor((n, 4), dtype=\"float32\") = R.add(x, x)\n"
                         "        s: R.Shape([n, 4]) = R.shape([n, 4])\n"
                         "        gv: R.Tensor((n, 4), dtype=\"float32\") = lv\n"
                         "        R.output(gv)\n"
                         "    return gv\n");
}

TEST(PrinterTest, CompoundSignatureExprAndSizeVar) {
  TirVar n = make<TirVarNode>("n", DataType::int64(), /*isSizeVar=*/true);
  Var x = var("x", f32Tensor({n}));
  StructInfo ret =
      f32Tensor({primBinary(PrimOp::Add, primBinary(PrimOp::Mul, intImm(2), n), intImm(2))});
  Var y = var("y", ret);
  Function fn = func({x}, {block({bind(y, call("relax.my_pad", {x}, nullptr, {}, ret))})}, y, ret,
                     true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(x: R.Tensor((\"n\",), dtype=\"float32\")) -> "
                         "R.Tensor((\"2 * n + 2\",), dtype=\"float32\"):\n"
                         "    n = T.int64(is_size_var=True)\n"
                         "    y: R.Tensor((2 * n + 2,), dtype=\"float32\") = R.my_pad(x)\n"
                         "    return y\n");
}

TEST(PrinterTest, MatchCastDeclaresBodyVarsInPreamble) {
  TirVar k = make<TirVarNode>("k", DataType::int64());
  Var x = var("x", tensorSInfoNDim(1, DataType::float32()));
  Var y = var("y", f32Tensor({k}));
  Binding mc = make<MatchCastNode>(y, x, f32Tensor({k}));
  Attrs attrs = make<AttrsNode>(
      AttrDict{{"global_symbol", AttrValue::string("main")}, {"num_input", AttrValue::integer(1)}});
  Function fn = func({x}, {block({mc})}, x, x->sinfo, true, attrs);
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(x: R.Tensor(dtype=\"float32\", ndim=1)) -> "
                         "R.Tensor(dtype=\"float32\", ndim=1):\n"
                         "    R.func_attr({\"num_input\": 1})\n"
                         "    k = T.int64()\n"
                         "    y: R.Tensor((k,), dtype=\"float32\") = R.match_cast(x, "
                         "R.Tensor((k,), dtype=\"float32\"))\n"
                         "    return x\n");
}

TEST(PrinterTest, PreambleFollowsTheBodysFirstUses) {
  // The preamble comes before the body but lists what the body uses, in
  // the order of first use, under the names the body gives them: the
  // Relax var `k` is named before the TIR var `k` is first used, so the
  // TIR var is `k_1`; a binding's var is named before its annotation (the
  // Relax var `m` takes `m_1` before the TIR var `m_1` is met); a TIR var in
  // a nested function's signature counts where that signature prints.
  TirVar k = make<TirVarNode>("k", DataType::int64());
  TirVar m = make<TirVarNode>("m", DataType::int64());
  TirVar q = make<TirVarNode>("m_1", DataType::int32());
  StructInfo any1 = tensorSInfoNDim(1, DataType::float32());
  Var x = var("x", any1);
  Var kRelax = var("k", any1);
  Var y = var("y", f32Tensor({k}));
  Var z = var("z", objectSInfo());
  Var p = var("p", f32Tensor({m}));
  Var inner = var("inner", nullptr);
  Var s = var("m", shapeSInfo({primBinary(PrimOp::Add, q, k)}));
  Function innerFn = func({p}, {}, p, p->sinfo);
  Binding mc = make<MatchCastNode>(y, kRelax, f32Tensor({k}));
  Expr callF = make<CallNode>(make<GlobalVarNode>("f"), std::vector<Expr>{y}, nullptr,
                              std::vector<StructInfo>{}, objectSInfo());
  Expr shape = make<ShapeExprNode>(std::vector<PrimExpr>{primBinary(PrimOp::Add, q, k)});
  Function fn = func({x},
                     {block({bind(kRelax, call("relax.my_op", {x}, nullptr, {}, any1)), mc,
                             bind(z, callF), bind(inner, innerFn), bind(s, shape)})},
                     x, any1, true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(x: R.Tensor(dtype=\"float32\", ndim=1)) -> "
                         "R.Tensor(dtype=\"float32\", ndim=1):\n"
                         "    k_1 = T.int64()\n"
                         "    cls = Module\n"
                         "    m = T.int64()\n"
                         "    m_1_1 = T.int32()\n"
                         "    k: R.Tensor(dtype=\"float32\", ndim=1) = R.my_op(x)\n"
                         "    y: R.Tensor((k_1,), dtype=\"float32\") = R.match_cast(k, "
                         "R.Tensor((k_1,), dtype=\"float32\"))\n"
                         "    z: R.Object = cls.f(y)\n"
                         "    @R.function\n"
                         "    def inner(p: R.Tensor((m,), dtype=\"float32\")) -> "
                         "R.Tensor((m,), dtype=\"float32\"):\n"
                         "        return p\n"
                         "    m_1: R.Shape([m_1_1 + k_1]) = R.shape([m_1_1 + k_1])\n"
                         "    return x\n");
}

TEST(PrinterTest, DecoratorFlags) {
  Var x = var("x", objectSInfo());
  Function fn = func({x}, {}, x, objectSInfo(), /*pure=*/false, nullptr);
  EXPECT_EQ(printFn(fn, "f"), "@R.function(pure=False, private=True)\n"
                              "def f(x: R.Object) -> R.Object:\n"
                              "    return x\n");
  Function other = func({x}, {}, x, objectSInfo(), true, globalSymbol("ext_name"));
  EXPECT_EQ(printFn(other, "f"), "@R.function\n"
                                 "def f(x: R.Object) -> R.Object:\n"
                                 "    R.func_attr({\"global_symbol\": \"ext_name\"})\n"
                                 "    return x\n");
}

TEST(PrinterTest, NameCollisionsGetSuffixes) {
  Var x1 = var("x", objectSInfo());
  Var x2 = var("x", objectSInfo());
  Var x3 = var("x_1", objectSInfo());
  Var r = var("R", objectSInfo());
  Var cls = var("cls", objectSInfo());
  Var bad = var("1 bad", objectSInfo());
  Function fn =
      func({x1}, {block({bind(x2, x1), bind(x3, x2), bind(r, x3), bind(cls, r), bind(bad, cls)})},
           bad, objectSInfo(), true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(x: R.Object) -> R.Object:\n"
                         "    x_1: R.Object = x\n"
                         "    x_1_1: R.Object = x_1\n"
                         "    R_1: R.Object = x_1_1\n"
                         "    cls_1: R.Object = R_1\n"
                         "    _1_bad: R.Object = cls_1\n"
                         "    return _1_bad\n");
}

// Names ending in a number are kept by base and number, the others by their
// text (ir/PrintImpl.h): both must agree on which names are taken.
TEST(PrinterTest, NumberedNameCollisionsGetSuffixes) {
  Var a = var("v1", objectSInfo());
  Var b = var("v1", objectSInfo());
  Var c = var("v1_1", objectSInfo());
  Var d = var("v01", objectSInfo());
  Var e = var("v01", objectSInfo());
  Var f = var("v123456789", objectSInfo());
  Var g = var("v123456789", objectSInfo());
  Var h = var("w1", objectSInfo());
  Var i = var("v0", objectSInfo());
  Function fn = func({a},
                     {block({bind(b, a), bind(c, b), bind(d, c), bind(e, d), bind(f, e), bind(g, f),
                             bind(h, g), bind(i, h)})},
                     i, objectSInfo(), true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(v1: R.Object) -> R.Object:\n"
                         "    v1_1: R.Object = v1\n"
                         "    v1_1_1: R.Object = v1_1\n"
                         "    v01: R.Object = v1_1_1\n"
                         "    v01_1: R.Object = v01\n"
                         "    v123456789: R.Object = v01_1\n"
                         "    v123456789_1: R.Object = v123456789\n"
                         "    w1: R.Object = v123456789_1\n"
                         "    v0: R.Object = w1\n"
                         "    return v0\n");
}

TEST(PrinterTest, IfElseWithBranchRebinding) {
  Var c = var("c", primSInfo(DataType::boolType()));
  Var x = var("x", f32Tensor({intImm(2)}));
  Var yThen = var("y_then", f32Tensor({intImm(2)}));
  SeqExpr thenB = make<SeqExprNode>(
      std::vector<BindingBlock>{block({bind(yThen, call("relax.add", {x, x}))})}, yThen);
  SeqExpr elseB = make<SeqExprNode>(std::vector<BindingBlock>{}, x);
  Var y = var("y", f32Tensor({intImm(2)}));
  Expr ifE = make<IfNode>(c, thenB, elseB, y->sinfo);
  Function fn = func({c, x}, {block({bind(y, ifE)})}, y, y->sinfo, true, globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function\n"
                         "def main(c: R.Prim(\"bool\"), x: R.Tensor((2,), dtype=\"float32\")) -> "
                         "R.Tensor((2,), dtype=\"float32\"):\n"
                         "    if c:\n"
                         "        y_then: R.Tensor((2,), dtype=\"float32\") = R.add(x, x)\n"
                         "        y: R.Tensor((2,), dtype=\"float32\") = y_then\n"
                         "    else:\n"
                         "        y: R.Tensor((2,), dtype=\"float32\") = x\n"
                         "    return y\n");
}

TEST(PrinterTest, NestedFunctionAndHighlight) {
  TirVar m = make<TirVarNode>("m", DataType::int64());
  Var p = var("p", f32Tensor({m}));
  Var q = var("q", f32Tensor({m}));
  Function inner = func({p}, {block({bind(q, call("relax.add", {p, p}))})}, q, q->sinfo);
  Var f = var("f", inner->sinfo);
  Var x = var("x", objectSInfo());
  Binding fb = bind(f, inner);
  Function fn = func({x}, {block({fb})}, f, objectSInfo(), true, globalSymbol("main"));
  PrintOptions opts;
  opts.highlight = fb.get();
  EXPECT_EQ(printFn(fn, "main", opts),
            "@R.function\n"
            "def main(x: R.Object) -> R.Object:\n"
            "    m = T.int64()\n"
            "    @R.function\n"
            "    def f(p: R.Tensor((m,), dtype=\"float32\")) -> "
            "R.Tensor((m,), dtype=\"float32\"):  # <-- here\n"
            "        q: R.Tensor((m,), dtype=\"float32\") = R.add(p, p)\n"
            "        return q\n"
            "    return f\n");
}

TEST(PrinterTest, BareVoidStatementUnlessUsed) {
  Var x = var("x", objectSInfo());
  Var u = var("u", voidSInfo());
  Var w = var("w", voidSInfo());
  Expr print1 = call("relax.print", {stringImm(""), x}, nullptr, {}, voidSInfo());
  Expr print2 = call("relax.print", {stringImm(""), x}, nullptr, {}, voidSInfo());
  Function fn = func({x}, {block({bind(u, print1), bind(w, print2)})}, w, voidSInfo(), false,
                     globalSymbol("main"));
  EXPECT_EQ(printFn(fn), "@R.function(pure=False)\n"
                         "def main(x: R.Object) -> R.Tuple:\n"
                         "    R.print(x, format=R.str(\"\"))\n"
                         "    w: R.Tuple = R.print(x, format=R.str(\"\"))\n"
                         "    return w\n");
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

TEST(PrinterTest, ModuleOrderCallTIRAndExternFunc) {
  IRModule m;
  m.name = "Before";
  m.checkWellFormed = false;
  m.attrs = make<AttrsNode>(AttrDict{{"system_lib_prefix", AttrValue::string("lib_")}});

  Ref<PrimFuncNode> pf = make<PrimFuncNode>();
  PrimFuncNode &pfm = const_cast<PrimFuncNode &>(*pf);
  pfm.isPrivate = true;
  pfm.params.push_back({"A", PrimParam::Kind::Buffer, {intImm(2)}, DataType::float32()});
  pfm.params.push_back({"B", PrimParam::Kind::Buffer, {intImm(2)}, DataType::float32()});
  pfm.bodyTokens = {"for", "i",         "in",       "range", "(", "2",         ")",
                    ":",   "<NEWLINE>", "<INDENT>", "B",     "[", "i",         "]",
                    "=",   "A",         "[",        "i",     "]", "+",         "T",
                    ".",   "float32",   "(",        "1",     ")", "<NEWLINE>", "<DEDENT>"};
  GlobalVar pgv = make<GlobalVarNode>("add_one", pf->relaxSInfo());
  m.add(pgv, Ref<Node>(pf.get()));

  Var x = var("x", f32Tensor({intImm(2)}));
  Var y = var("y", f32Tensor({intImm(2)}));
  Expr ct = call("relax.call_tir", {pgv, tupleExpr({x})}, nullptr, {f32Tensor({intImm(2)})});
  Function mainFn = func({x}, {block({bind(y, ct)})}, y, y->sinfo, true, globalSymbol("main"));
  Var a = var("a", f32Tensor({intImm(2)}));
  Function helper = func({a}, {}, a, a->sinfo, true, nullptr);
  m.add(make<GlobalVarNode>("main"), Ref<Node>(mainFn.get()));
  m.add(make<GlobalVarNode>("helper"), Ref<Node>(helper.get()));
  m.add(make<GlobalVarNode>("ext"), Ref<Node>(make<ExternFuncNode>("my_ext").get()));

  EXPECT_EQ(printModule(m), std::string(kHeader) +
                                "@I.ir_module(check_well_formed=False)\n"
                                "class Before:\n"
                                "    I.module_attrs({\"system_lib_prefix\": \"lib_\"})\n"
                                "\n"
                                "    @T.prim_func(private=True)\n"
                                "    def add_one(A: T.Buffer((T.int64(2),), \"float32\"), "
                                "B: T.Buffer((T.int64(2),), \"float32\")):\n"
                                "        for i in range(2):\n"
                                "            B[i] = A[i] + T.float32(1)\n"
                                "\n"
                                "    ext = R.ExternFunc(\"my_ext\")\n"
                                "\n"
                                "    @R.function(private=True)\n"
                                "    def helper(a: R.Tensor((2,), dtype=\"float32\")) -> "
                                "R.Tensor((2,), dtype=\"float32\"):\n"
                                "        return a\n"
                                "\n"
                                "    @R.function\n"
                                "    def main(x: R.Tensor((2,), dtype=\"float32\")) -> "
                                "R.Tensor((2,), dtype=\"float32\"):\n"
                                "        cls = Before\n"
                                "        y = R.call_tir(cls.add_one, (x,), "
                                "out_sinfo=R.Tensor((2,), dtype=\"float32\"))\n"
                                "        return y\n");
}

TEST(PrinterTest, SymbolicPrimFuncBufferUsesMatchBuffer) {
  IRModule m;
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Ref<PrimFuncNode> pf = make<PrimFuncNode>();
  PrimFuncNode &pfm = const_cast<PrimFuncNode &>(*pf);
  pfm.params.push_back({"A", PrimParam::Kind::Buffer, {n}, DataType::float32()});
  pfm.attrs = make<AttrsNode>(AttrDict{{"global_symbol", AttrValue::string("f")},
                                       {"tir.noalias", AttrValue::boolean(true)}});
  pfm.bodyTokens = {"T", ".", "evaluate", "(", "0", ")", "<NEWLINE>"};
  m.add(make<GlobalVarNode>("f", pf->relaxSInfo()), Ref<Node>(pf.get()));
  PrintOptions noHeader;
  noHeader.header = false;
  EXPECT_EQ(printModule(m, noHeader), "@I.ir_module\n"
                                      "class Module:\n"
                                      "    @T.prim_func\n"
                                      "    def f(var_A: T.handle):\n"
                                      "        T.func_attr({\"tir.noalias\": True})\n"
                                      "        n = T.int64()\n"
                                      "        A = T.match_buffer(var_A, (n,), \"float32\")\n"
                                      "        T.evaluate(0)\n");
}

//===----------------------------------------------------------------------===//
// Scale (timing is measured by the benchmarks; this checks the output)
//===----------------------------------------------------------------------===//

TEST(PrinterTest, LargeFunctionPrintsEveryBinding) {
  constexpr int kBindings = 200000;
  TirVar n = make<TirVarNode>("n", DataType::int64());
  StructInfo s = f32Tensor({n, intImm(4)});
  Var x = var("x", s);
  std::vector<Binding> bindings;
  bindings.reserve(kBindings);
  Expr prev = x;
  for (int i = 0; i < kBindings; ++i) {
    Var lv = dfVar("lv", s); // All share one hint: suffixing must stay O(1).
    bindings.push_back(bind(lv, call("relax.add", {prev, x})));
    prev = lv;
  }
  Var gv = var("gv", s);
  bindings.push_back(bind(gv, prev));
  Function fn = func({x}, {block(std::move(bindings), true)}, gv, s, true, globalSymbol("main"));
  std::string text = printFn(fn);
  auto start = std::chrono::steady_clock::now();
  llvm::raw_null_ostream null;
  printFunction(null, *fn, "main", nullptr);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  RecordProperty("print_ms", static_cast<int>(ms)); // Informational, not asserted.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), kBindings + 6);
  EXPECT_NE(text.find("        lv_199999: R.Tensor((n, 4), dtype=\"float32\") = "
                      "R.add(lv_199998, x)\n"),
            std::string::npos);
}

TEST(PrinterTest, EmptyModulePrintsPass) {
  IRModule m;
  PrintOptions noHeader;
  noHeader.header = false;
  EXPECT_EQ(printModule(m, noHeader), "@I.ir_module\nclass Module:\n    pass\n");
}

//===----------------------------------------------------------------------===//
// Through the parser
//===----------------------------------------------------------------------===//

TEST(PrinterTest, ParsedModulePrintsExactlyAndIsAFixpoint) {
  const char *source = R"PY(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "x_"})
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0, "global"), I.vdevice("cuda", 1, "global")]})

    @T.prim_func(private=True)
    def add(var_A: T.handle, B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n,), "float32")
        for i in range(4):
            with T.block("b"):
                B[i] = A[i] + T.float32(1.5)

    @R.function
    def helper(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(("n", 4), "float32", "cuda:1")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        gv = R.add(x, x)
        return gv

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32"), c: R.Prim("bool"), t: R.Tuple(R.Tensor((2,), "float32"), R.Object)) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": False})
        cls = Module
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), "float32"))
        z: R.Tensor((4,), "float32") = R.call_packed("my.f", y, R.prim_value(3), R.str("a\"b"), sinfo_args=(R.Tensor((4,), "float32"),))
        R.print(z, format="v={}")
        k = T.int64()
        w = R.match_cast(x, R.Tensor((k,), "float32"))
        c1 = R.const(1.5, "float32")
        c2 = R.const([[1, 2], [3, 4]], "int32")
        c3 = R.const(True, "bool")
        c4 = R.const(-0.0, "float64")
        c5 = R.const(0.1, "float32")
        t0 = t[0]
        s = R.shape([k * 2, 4])
        if c:
            a = R.add(w, w)
        else:
            a = w
        with R.dataflow():
            lv = R.add(x, x)
            lv1 = R.sum(lv, axis=[0], keepdims=True)
            gv = R.add(lv, x)
            R.output(gv, lv1)

        @R.function
        def inner(p: R.Tensor(("m",), "float32")) -> R.Tensor(("m",), "float32"):
            m = T.int64()
            q = R.add(p, p)
            return q

        r = inner(x)
        return gv
)PY";
  const char *expected = R"PY(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "x_"})
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global"), I.vdevice("cuda", 1, "global")]})

    @T.prim_func(private=True)
    def add(var_A: T.handle, B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n,), "float32")
        # with T.block("root"):
        for i in range(4):
            with T.block("b"):
                T.reads(A[i])
                T.writes(B[i])
                B[i] = A[i] + T.float32(1.5)

    @R.function
    def helper(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32", vdevice="cuda:1:global")) -> R.Tensor(("n", 4), dtype="float32"):
        gv: R.Tensor((n, 4), dtype="float32") = R.add(x, x)
        return gv

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32"), c: R.Prim("bool"), t: R.Tuple(R.Tensor((2,), dtype="float32"), R.Object)) -> R.Tensor(("n",), dtype="float32"):
        R.func_attr({"num_input": 1, "relax.force_pure": False})
        cls = Module
        k = T.int64()
        m = T.int64()
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        z: R.Tensor((4,), dtype="float32") = R.call_packed("my.f", y, R.prim_value(3), R.str("a\"b"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        R.print(z, format=R.str("v={}"))
        w: R.Tensor((k,), dtype="float32") = R.match_cast(x, R.Tensor((k,), dtype="float32"))
        c1: R.Tensor((), dtype="float32") = R.const(1.5, "float32")
        c2: R.Tensor((2, 2), dtype="int32") = R.const([[1, 2], [3, 4]], "int32")
        c3: R.Tensor((), dtype="bool") = R.const(True, "bool")
        c4: R.Tensor((), dtype="float64") = R.const(-0.0, "float64")
        c5: R.Tensor((), dtype="float32") = R.const(0.1, "float32")
        t0: R.Tensor((2,), dtype="float32") = t[0]
        s: R.Shape([k * 2, 4]) = R.shape([k * 2, 4])
        if c:
            a_then: R.Tensor((k,), dtype="float32") = R.add(w, w)
            a: R.Tensor((k,), dtype="float32") = a_then
        else:
            a: R.Tensor((k,), dtype="float32") = w
        with R.dataflow():
            lv: R.Tensor((n,), dtype="float32") = R.add(x, x)
            lv1: R.Tensor((1,), dtype="float32") = R.sum(lv, axis=[0], keepdims=True)
            gv: R.Tensor((n,), dtype="float32") = R.add(lv, x)
            R.output(lv1, gv)
        @R.function
        def inner(p: R.Tensor((m,), dtype="float32")) -> R.Tensor((m,), dtype="float32"):
            q: R.Tensor((m,), dtype="float32") = R.add(p, p)
            return q
        r: R.Tensor((n,), dtype="float32") = inner(x)
        return gv
)PY";
  auto parsed = parseText(source, "source.py");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_EQ(parsed->modules.size(), 1u);
  std::string first = printModule(*parsed->modules[0]);
  EXPECT_EQ(first, expected);
  auto again = parseText(first, "printed.py");
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(printModule(*again->modules[0]), first);
  EXPECT_TRUE(structuralEqual(*parsed->modules[0], *again->modules[0]));
}
