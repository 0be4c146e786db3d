//===- tests/ir/StructuralEqualTest.cpp - Structural equality and paths -----===//
//
// Modules are built through the C++ API. Each builder call makes fresh var
// nodes, so two calls give alpha-equivalent (pointer-distinct) modules; a
// Tweak changes exactly one thing on one side.
//
//===----------------------------------------------------------------------===//

#include "ir/StructuralEqual.h"
#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Op.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace graft;

namespace {

/// Local op nodes: the comparison only looks at the op's identity/name.
Op testOp(const char *name) {
  static std::vector<std::unique_ptr<OpInfo>> infos;
  static std::vector<Op> ops;
  for (const Op &op : ops)
    if (op->name() == name)
      return op;
  infos.push_back(std::make_unique<OpInfo>());
  infos.back()->name = name;
  ops.push_back(make<OpNode>(infos.back().get()));
  return ops.back();
}

Attrs attrs(AttrDict entries) { return make<AttrsNode>(std::move(entries)); }

/// What to change in the canonical module built by buildModule().
struct Tweak {
  std::string fnName = "main";
  bool lv0IsVar = false;        ///< Var instead of DataflowVar.
  bool lv0Float16 = false;      ///< lv0's annotation dtype.
  bool splitBlocks = false;     ///< Two dataflow blocks instead of one.
  bool plainBlock = false;      ///< BindingBlock instead of DataflowBlock.
  bool swapArg = false;         ///< lv1 = multiply(lv0, lv0).
  bool dropArg = false;         ///< lv1 = multiply(lv0).
  bool otherOp = false;         ///< lv1 = subtract(...).
  bool callSInfoObject = false; ///< lv1's Call node carries R.Object sinfo.
  AttrValue symbolAttr = AttrValue::string("main");
  bool noAttrs = false;
  double constValue = 1.0;
};

/// @R.function
/// def main(x: R.Tensor((n, 4), "float32")) -> R.Tensor((n, 4), "float32"):
///     with R.dataflow():
///         lv0: R.Tensor((n, 4), "float32") = R.add(x, c)
///         lv1: R.Tensor((n, 4), "float32") = R.multiply(lv0, x)
///         gv: R.Tensor((n, 4), "float32") = lv1
///         R.output(gv)
///     return gv
std::unique_ptr<IRModule> buildModule(const Tweak &t = {}) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  auto tensor = [&](DataType dt = DataType::float32()) { return tensorSInfo({n, intImm(4)}, dt); };
  Var x = make<VarNode>("x", tensor());
  auto data = std::make_shared<TensorData>();
  data->dtype = DataType::float32();
  float v = static_cast<float>(t.constValue);
  data->bytes.resize(4);
  std::memcpy(data->bytes.data(), &v, 4);
  Expr c = make<ConstantNode>(data);

  StructInfo lv0Info = tensor(t.lv0Float16 ? DataType(DataType::Float, 16) : DataType::float32());
  Var lv0 = t.lv0IsVar ? make<VarNode>("lv0", lv0Info) : Var(make<DataflowVarNode>("lv0", lv0Info));
  Var lv1 = make<DataflowVarNode>("lv1", tensor());
  Var gv = make<VarNode>("gv", tensor());

  std::vector<Expr> args = {lv0, t.swapArg ? Expr(lv0) : Expr(x)};
  if (t.dropArg)
    args.pop_back();
  Expr mul =
      make<CallNode>(testOp(t.otherOp ? "relax.subtract" : "relax.multiply"), args, nullptr,
                     std::vector<StructInfo>{}, t.callSInfoObject ? objectSInfo() : tensor());
  std::vector<Binding> bs = {
      make<VarBindingNode>(lv0, make<CallNode>(testOp("relax.add"), std::vector<Expr>{x, c},
                                               nullptr, std::vector<StructInfo>{}, tensor())),
      make<VarBindingNode>(lv1, mul),
      make<VarBindingNode>(gv, lv1),
  };
  bool dataflow = !t.plainBlock;
  std::vector<BindingBlock> blocks;
  if (t.splitBlocks) {
    blocks.push_back(make<BindingBlockNode>(std::vector<Binding>{bs[0]}, dataflow));
    blocks.push_back(make<BindingBlockNode>(std::vector<Binding>{bs[1], bs[2]}, dataflow));
  } else {
    blocks.push_back(make<BindingBlockNode>(bs, dataflow));
  }
  SeqExpr body = make<SeqExprNode>(blocks, gv, tensor());
  Attrs fnAttrs = t.noAttrs ? Attrs() : attrs({{"global_symbol", t.symbolAttr}});
  Function fn = make<FunctionNode>(std::vector<Var>{x}, body, tensor(), true, fnAttrs);
  auto m = std::make_unique<IRModule>();
  m->add(make<GlobalVarNode>(t.fnName), fn);
  return m;
}

/// Runs firstMismatch and checks both paths.
void expectPaths(const IRModule &a, const IRModule &b, const std::string &lhs,
                 const std::string &rhs) {
  llvm::Optional<Mismatch> m = firstMismatch(a, b);
  ASSERT_TRUE(m.hasValue());
  EXPECT_EQ(m->lhsPath, lhs);
  EXPECT_EQ(m->rhsPath, rhs);
  EXPECT_FALSE(structuralEqual(a, b));
}

void expectPath(const IRModule &a, const IRModule &b, const std::string &path) {
  expectPaths(a, b, path, path);
}

const std::string kBindings = "functions[\"main\"].body.blocks[0].bindings";

//===----------------------------------------------------------------------===//
// Equality and definition sites
//===----------------------------------------------------------------------===//

TEST(StructuralEqual, AlphaEquivalentModulesAreEqual) {
  auto a = buildModule(), b = buildModule();
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_FALSE(firstMismatch(*a, *b).hasValue());
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralEqual, ModuleEqualsItself) {
  auto a = buildModule();
  EXPECT_TRUE(structuralEqual(*a, *a));
}

TEST(StructuralEqual, GlobalVarNamesMatter) {
  Tweak t;
  t.fnName = "other";
  auto a = buildModule(), b = buildModule(t);
  expectPaths(*a, *b, "functions[\"main\"]", "functions[<missing item at \"main\">]");
  expectPaths(*b, *a, "functions[\"other\"]", "functions[<missing item at \"other\">]");
}

TEST(StructuralEqual, ExtraFunctionOnRhsIsReportedAfterLhsFunctions) {
  auto a = buildModule(), b = buildModule();
  b->add(make<GlobalVarNode>("helper"), make<ExternFuncNode>("ext"));
  expectPaths(*a, *b, "functions[<missing item at \"helper\">]", "functions[\"helper\"]");
}

TEST(StructuralEqual, VarAndDataflowVarDiffer) {
  Tweak t;
  t.lv0IsVar = true;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, kBindings + "[0].var");
}

TEST(StructuralEqual, VarStructInfoIsCompared) {
  Tweak t;
  t.lv0Float16 = true;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, kBindings + "[0].var.struct_info.dtype");
}

TEST(StructuralEqual, CallStructInfoIsNotCompared) {
  Tweak t;
  t.callSInfoObject = true;
  auto a = buildModule(), b = buildModule(t);
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralEqual, SwappedArgumentReportsTheArgument) {
  Tweak t;
  t.swapArg = true;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, kBindings + "[1].value.args[1]");
}

TEST(StructuralEqual, ShorterArrayIsReportedAtMinLength) {
  Tweak t;
  t.dropArg = true;
  auto a = buildModule(), b = buildModule(t);
  expectPaths(*a, *b, kBindings + "[1].value.args[1]",
              kBindings + "[1].value.args[<missing item at 1>]");
  expectPaths(*b, *a, kBindings + "[1].value.args[<missing item at 1>]",
              kBindings + "[1].value.args[1]");
}

TEST(StructuralEqual, DifferentOpsDiffer) {
  Tweak t;
  t.otherOp = true;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, kBindings + "[1].value.op");
}

TEST(StructuralEqual, BlockCountMatters) {
  Tweak t;
  t.splitBlocks = true;
  auto a = buildModule(), b = buildModule(t);
  // Common prefix of blocks[0].bindings first, then its length.
  expectPaths(*a, *b, kBindings + "[1]", kBindings + "[<missing item at 1>]");
}

TEST(StructuralEqual, BlockKindMatters) {
  Tweak t;
  t.plainBlock = true;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, "functions[\"main\"].body.blocks[0]");
}

TEST(StructuralEqual, AttrKindsDiffer) {
  Tweak intOne, boolTrue, strOne;
  intOne.symbolAttr = AttrValue::integer(1);
  boolTrue.symbolAttr = AttrValue::boolean(true);
  strOne.symbolAttr = AttrValue::string("1");
  auto a = buildModule(intOne), b = buildModule(boolTrue), c = buildModule(strOne);
  expectPath(*a, *b, "functions[\"main\"].attrs[\"global_symbol\"]");
  expectPath(*a, *c, "functions[\"main\"].attrs[\"global_symbol\"]");
  expectPath(*b, *c, "functions[\"main\"].attrs[\"global_symbol\"]");
  EXPECT_TRUE(structuralEqual(*a, *buildModule(intOne)));
}

TEST(StructuralEqual, MissingFunctionAttrIsReportedByKey) {
  Tweak t;
  t.noAttrs = true;
  auto a = buildModule(), b = buildModule(t);
  expectPaths(*a, *b, "functions[\"main\"].attrs[\"global_symbol\"]",
              "functions[\"main\"].attrs[<missing item at \"global_symbol\">]");
}

TEST(StructuralEqual, ChangedConstantDiffersAndHashesDifferently) {
  Tweak t;
  t.constValue = 2.0;
  auto a = buildModule(), b = buildModule(t);
  expectPath(*a, *b, kBindings + "[0].value.args[1].data");
  EXPECT_NE(structuralHash(*a), structuralHash(*b));
}

TEST(StructuralEqual, FunctionOrderInModuleDoesNotMatter) {
  auto a = buildModule(), b = std::make_unique<IRModule>();
  a->add(make<GlobalVarNode>("ext"), make<ExternFuncNode>("sym"));
  b->add(make<GlobalVarNode>("ext"), make<ExternFuncNode>("sym"));
  auto main = buildModule();
  b->add(main->entries()[0].gvar, main->entries()[0].func);
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
}

/// fn(x: R.Tensor((p, q))) with `p`, `q` fresh per call; `same` makes both
/// dims the same TirVar.
Function symbolicFn(bool same) {
  TirVar p = make<TirVarNode>("p", DataType::int64());
  TirVar q = same ? p : make<TirVarNode>("q", DataType::int64());
  Var x = make<VarNode>("x", tensorSInfo({p, q}, DataType::float32()));
  SeqExpr body = make<SeqExprNode>(std::vector<BindingBlock>{}, x);
  return make<FunctionNode>(std::vector<Var>{x}, body, tensorSInfo({p, q}, DataType::float32()),
                            true, nullptr);
}

TEST(StructuralEqual, SymbolicVarsAreDefinedAtParams) {
  EXPECT_TRUE(structuralEqual(symbolicFn(false).get(), symbolicFn(false).get()));
  EXPECT_TRUE(structuralEqual(symbolicFn(true).get(), symbolicFn(true).get()));
  // (p, p) versus (p, q): the second dim maps p to p already, q conflicts.
  EXPECT_FALSE(structuralEqual(symbolicFn(true).get(), symbolicFn(false).get()));
  EXPECT_FALSE(structuralEqual(symbolicFn(false).get(), symbolicFn(true).get()));
}

/// A function whose body uses a shape var that no param defines.
Function undefinedShapeVarFn(const TirVar &n) {
  Var s = make<VarNode>("s", shapeSInfo({n}));
  Binding b = make<VarBindingNode>(s, shapeExpr({n}));
  SeqExpr body = make<SeqExprNode>(
      std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{b}, false)}, s);
  return make<FunctionNode>(std::vector<Var>{}, body, shapeSInfo({n}), true, nullptr);
}

TEST(StructuralEqual, ShapeVarUsedBeforeDefinitionIsNotMapped) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  TirVar m = make<TirVarNode>("n", DataType::int64());
  // The same free TirVar on both sides: equal by identity.
  EXPECT_TRUE(structuralEqual(undefinedShapeVarFn(n).get(), undefinedShapeVarFn(n).get()));
  // Distinct free TirVars: the use in the value does not define them.
  auto ma = std::make_unique<IRModule>(), mb = std::make_unique<IRModule>();
  ma->add(make<GlobalVarNode>("f"), undefinedShapeVarFn(n));
  mb->add(make<GlobalVarNode>("f"), undefinedShapeVarFn(m));
  expectPath(*ma, *mb, "functions[\"f\"].body.blocks[0].bindings[0].value.values[0]");
  // Unless free vars may be mapped.
  EXPECT_TRUE(structuralEqual(undefinedShapeVarFn(n).get(), undefinedShapeVarFn(m).get(),
                              /*mapFreeVars=*/true));
}

/// lv = R.match_cast(x, R.Tensor((k,), "float32")); s = R.shape([k]).
Function matchCastFn(bool useFreshInShape, DataType castType = DataType::float32()) {
  TirVar k = make<TirVarNode>("k", DataType::int64());
  Var x = make<VarNode>("x", tensorSInfoNDim(1, DataType::float32()));
  Var y = make<VarNode>("y", tensorSInfo({k}, castType));
  Binding mc = make<MatchCastNode>(y, x, tensorSInfo({k}, castType));
  TirVar used = useFreshInShape ? make<TirVarNode>("k", DataType::int64()) : k;
  Var s = make<VarNode>("s", shapeSInfo({used}));
  Binding sb = make<VarBindingNode>(s, shapeExpr({used}));
  SeqExpr body = make<SeqExprNode>(
      std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{mc, sb}, false)}, s);
  return make<FunctionNode>(std::vector<Var>{x}, body, shapeSInfoNDim(1), true, nullptr);
}

TEST(StructuralEqual, MatchCastDefinesSymbolicVars) {
  EXPECT_TRUE(structuralEqual(matchCastFn(false).get(), matchCastFn(false).get()));
  EXPECT_EQ(structuralHash(matchCastFn(false).get()), structuralHash(matchCastFn(false).get()));
  EXPECT_FALSE(structuralEqual(matchCastFn(false).get(), matchCastFn(true).get()));
}

TEST(StructuralEqual, MatchCastComparesVarFirst) {
  auto ma = std::make_unique<IRModule>(), mb = std::make_unique<IRModule>();
  ma->add(make<GlobalVarNode>("f"), matchCastFn(false));
  mb->add(make<GlobalVarNode>("f"), matchCastFn(false, DataType(DataType::Float, 16)));
  // v0.23: the var (with its struct info) comes before value and struct_info.
  expectPath(*ma, *mb, "functions[\"f\"].body.blocks[0].bindings[0].var.struct_info.dtype");
}

//===----------------------------------------------------------------------===//
// Values: floats, attrs, tuples
//===----------------------------------------------------------------------===//

double nanWithPayload(uint64_t payload) {
  uint64_t bits = 0x7ff0000000000000ULL | (payload & 0x000fffffffffffffULL);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

TEST(StructuralEqual, EveryNaNEqualsEveryNaN) {
  Expr a = primValue(floatImm(nanWithPayload(1)));
  Expr b = primValue(floatImm(nanWithPayload(0x8000000000000ULL)));
  ASSERT_TRUE(std::isnan(nanWithPayload(1)));
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
  EXPECT_FALSE(structuralEqual(a.get(), primValue(floatImm(1.0)).get()));
}

TEST(StructuralEqual, NegativeZeroDiffersFromZero) {
  Expr a = primValue(floatImm(0.0)), b = primValue(floatImm(-0.0));
  EXPECT_FALSE(structuralEqual(a.get(), b.get()));
  EXPECT_TRUE(structuralEqual(a.get(), primValue(floatImm(0.0)).get()));
}

TEST(StructuralEqual, FloatAttrsFollowTheNaNRule) {
  Attrs a = attrs({{"v", AttrValue::floating(std::nan(""))}});
  Attrs b = attrs({{"v", AttrValue::floating(-std::nan(""))}});
  Attrs c = attrs({{"v", AttrValue::floating(-0.0)}});
  Attrs d = attrs({{"v", AttrValue::floating(0.0)}});
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
  EXPECT_FALSE(structuralEqual(c.get(), d.get()));
}

Expr floatConstant(std::vector<float> values) {
  auto data = std::make_shared<TensorData>();
  data->dtype = DataType::float32();
  data->shape = {static_cast<int64_t>(values.size())};
  data->bytes.resize(values.size() * 4);
  std::memcpy(data->bytes.data(), values.data(), data->bytes.size());
  return make<ConstantNode>(data);
}

TEST(StructuralEqual, TensorDataComparesNaNElementwise) {
  float nan1 = std::numeric_limits<float>::quiet_NaN();
  uint32_t bits = 0x7fc00123u;
  float nan2;
  std::memcpy(&nan2, &bits, 4);
  Expr a = floatConstant({1.0f, nan1}), b = floatConstant({1.0f, nan2});
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
  EXPECT_FALSE(structuralEqual(floatConstant({0.0f}).get(), floatConstant({-0.0f}).get()));
  EXPECT_FALSE(structuralEqual(floatConstant({1.0f}).get(), floatConstant({1.0f, 1.0f}).get()));
}

TEST(StructuralEqual, CallAttrsCompareInOrderByField) {
  Var x = make<VarNode>("x", objectSInfo());
  auto callWith = [&](AttrDict d) {
    return make<CallNode>(testOp("relax.sum"), std::vector<Expr>{x}, attrs(std::move(d)));
  };
  Expr a = callWith({{"axis", AttrValue::integer(1)}, {"keepdims", AttrValue::boolean(false)}});
  Expr b = callWith({{"axis", AttrValue::integer(1)}, {"keepdims", AttrValue::boolean(false)}});
  Expr c = callWith({{"axis", AttrValue::integer(1)}, {"keepdims", AttrValue::integer(0)}});
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
  EXPECT_FALSE(structuralEqual(a.get(), c.get()));
}

TEST(StructuralEqual, FreeVarsMatchOnlyByIdentityUnlessMapped) {
  Var x = make<VarNode>("x", objectSInfo());
  Var y = make<VarNode>("y", objectSInfo());
  EXPECT_TRUE(structuralEqual(x.get(), x.get()));
  EXPECT_FALSE(structuralEqual(x.get(), y.get()));
  EXPECT_TRUE(structuralEqual(x.get(), y.get(), /*mapFreeVars=*/true));
  EXPECT_EQ(structuralHash(x.get(), true), structuralHash(y.get(), true));
  // The bijection holds: (x, x) cannot pair with (x, y).
  Expr t1 = tupleExpr({x, x}), t2 = tupleExpr({x, y});
  EXPECT_FALSE(structuralEqual(t1.get(), t2.get(), true));
  EXPECT_FALSE(structuralEqual(t2.get(), t1.get(), true));
}

TEST(StructuralEqual, TupleGetItemPath) {
  auto fnWith = [](int index) {
    Var x = make<VarNode>("x", tupleSInfo({objectSInfo(), objectSInfo()}));
    Var y = make<VarNode>("y", objectSInfo());
    Binding b = make<VarBindingNode>(y, make<TupleGetItemNode>(x, index));
    SeqExpr body = make<SeqExprNode>(
        std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{b}, false)}, y);
    auto m = std::make_unique<IRModule>();
    m->add(make<GlobalVarNode>("f"),
           make<FunctionNode>(std::vector<Var>{x}, body, objectSInfo(), true, nullptr));
    return m;
  };
  auto a = fnWith(0), b = fnWith(1);
  expectPath(*a, *b, "functions[\"f\"].body.blocks[0].bindings[0].value.index");
}

TEST(StructuralEqual, PrimFuncBodyTokensCompareOneByOne) {
  auto build = [](const char *lastToken) {
    auto pf = make<PrimFuncNode>();
    auto *raw = const_cast<PrimFuncNode *>(pf.get());
    PrimParam p;
    p.name = "A";
    p.kind = PrimParam::Kind::Buffer;
    p.shape = {make<TirVarNode>("n", DataType::int64())};
    p.dtype = DataType::float32();
    raw->params = {p};
    raw->bodyTokens = {"for", "i", "in", lastToken};
    auto m = std::make_unique<IRModule>();
    m->add(make<GlobalVarNode>("k"), pf);
    return m;
  };
  auto a = build("x"), b = build("x"), c = build("y");
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
  expectPath(*a, *c, "functions[\"k\"].body[3]");
}

TEST(StructuralEqual, ModuleAttrsAndGlobalInfos) {
  auto a = buildModule(), b = buildModule();
  a->attrs = attrs({{"system_lib_prefix", AttrValue::string("x")}});
  expectPaths(*a, *b, "attrs[\"system_lib_prefix\"]",
              "attrs[<missing item at \"system_lib_prefix\">]");
  b->attrs = attrs({{"system_lib_prefix", AttrValue::string("x")}});
  EXPECT_TRUE(structuralEqual(*a, *b));
  a->globalInfos.push_back({"vdevice", {make<VDeviceNode>("cuda", AttrDict{}, 0, "global")}});
  b->globalInfos.push_back({"vdevice", {make<VDeviceNode>("llvm", AttrDict{}, 0, "global")}});
  expectPath(*a, *b, "global_infos[\"vdevice\"][0].target");
}

TEST(StructuralEqual, RecursiveLocalFunctionResolvesThroughItsVar) {
  // f = R.function(...) that calls f: the var is paired before the value.
  auto build = [] {
    Var f = make<VarNode>("f", objectSInfo());
    Var p = make<VarNode>("p", objectSInfo());
    Var r = make<VarNode>("r", objectSInfo());
    Binding call = make<VarBindingNode>(r, make<CallNode>(f, std::vector<Expr>{p}));
    SeqExpr inner = make<SeqExprNode>(
        std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{call}, false)}, r);
    Function local = make<FunctionNode>(std::vector<Var>{p}, inner, objectSInfo(), true, nullptr);
    Binding def = make<VarBindingNode>(f, local);
    SeqExpr outer = make<SeqExprNode>(
        std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{def}, false)}, f);
    return make<FunctionNode>(std::vector<Var>{}, outer, objectSInfo(), true, nullptr);
  };
  Function a = build(), b = build();
  EXPECT_TRUE(structuralEqual(a.get(), b.get()));
  EXPECT_EQ(structuralHash(a.get()), structuralHash(b.get()));
}

//===----------------------------------------------------------------------===//
// Report and scale
//===----------------------------------------------------------------------===//

TEST(StructuralEqual, ReportNamesBothPaths) {
  Tweak t;
  t.swapArg = true;
  auto a = buildModule(), b = buildModule(t);
  llvm::Optional<Mismatch> m = firstMismatch(*a, *b);
  ASSERT_TRUE(m.hasValue());
  std::string path = kBindings + "[1].value.args[1]";
  std::string report = m->report();
  EXPECT_EQ(report.rfind("StructuralEqual check failed, caused by lhs at " + path + ":\n", 0), 0u)
      << report;
  EXPECT_NE(report.find("\nand rhs at " + path + ":\n"), std::string::npos) << report;
  EXPECT_FALSE(m->lhsText.empty());
  EXPECT_FALSE(m->rhsText.empty());
}

TEST(StructuralEqual, ReportFormatIsExact) {
  Mismatch m;
  m.lhsPath = "functions[\"main\"]";
  m.rhsPath = "functions[<missing item at \"main\">]";
  m.lhsText = "def main(): ...";
  m.rhsText = "<missing>\n";
  EXPECT_EQ(m.report(), "StructuralEqual check failed, caused by lhs at functions[\"main\"]:\n"
                        "def main(): ...\n"
                        "and rhs at functions[<missing item at \"main\">]:\n"
                        "<missing>\n");
}

/// One function with `n` chained bindings in one dataflow block.
std::unique_ptr<IRModule> chainModule(int n, int changeAt = -1) {
  StructInfo info = tensorSInfo({intImm(4)}, DataType::float32());
  Var x = make<VarNode>("x", info);
  std::vector<Binding> bs;
  bs.reserve(n);
  Expr prev = x;
  Op add = testOp("relax.add");
  for (int i = 0; i < n; ++i) {
    Var v = make<DataflowVarNode>("lv", info);
    Expr other = i == changeAt ? prev : Expr(x);
    bs.push_back(make<VarBindingNode>(v, make<CallNode>(add, std::vector<Expr>{prev, other})));
    prev = v;
  }
  Var gv = make<VarNode>("gv", info);
  bs.push_back(make<VarBindingNode>(gv, prev));
  SeqExpr body =
      make<SeqExprNode>(std::vector<BindingBlock>{make<BindingBlockNode>(std::move(bs), true)}, gv);
  auto m = std::make_unique<IRModule>();
  m->add(make<GlobalVarNode>("main"),
         make<FunctionNode>(std::vector<Var>{x}, body, info, true, nullptr));
  return m;
}

TEST(StructuralEqual, TwoHundredThousandBindingsCompareWithoutRecursion) {
  auto a = chainModule(200000), b = chainModule(200000), c = chainModule(200000, 199999);
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(structuralHash(*a), structuralHash(*b));
  llvm::Optional<Mismatch> m = firstMismatch(*a, *c);
  ASSERT_TRUE(m.hasValue());
  EXPECT_EQ(m->lhsPath, kBindings + "[199999].value.args[1]");
  EXPECT_NE(structuralHash(*a), structuralHash(*c));
}

} // namespace
