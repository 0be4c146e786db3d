//===- tests/analysis/WellFormedTest.cpp - The verifier on C++-built IR -----===//
//
// One test (at least) per rule of docs/verifier.md, on IR built through the C++
// API, including IR the text format cannot express (missing struct info,
// null branches, shared nodes). Messages are asserted exactly.
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormed.h"
#include "analysis/VerifyCache.h"

#include "ir/Module.h"
#include "ir/Op.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();
const DataType f16 = DataType(DataType::Float, 16);

StructInfo tensor(std::vector<PrimExpr> dims, DataType dt = f32) {
  return tensorSInfo(std::move(dims), dt);
}
StructInfo tensor(std::initializer_list<int64_t> dims, DataType dt = f32) {
  std::vector<PrimExpr> v;
  for (int64_t d : dims)
    v.push_back(intImm(d));
  return tensorSInfo(std::move(v), dt);
}
TirVar sym(const char *name) { return make<TirVarNode>(name, DataType::int64()); }

Var var(const char *name, StructInfo s) { return make<VarNode>(name, std::move(s)); }
Var dfvar(const char *name, StructInfo s) { return make<DataflowVarNode>(name, std::move(s)); }

Binding bind(Var v, Expr value) { return make<VarBindingNode>(std::move(v), std::move(value)); }
BindingBlock block(std::vector<Binding> bs, bool dataflow = false) {
  return make<BindingBlockNode>(std::move(bs), dataflow);
}
SeqExpr seq(std::vector<BindingBlock> blocks, Expr body) {
  StructInfo s = body ? body->sinfo : nullptr;
  return make<SeqExprNode>(std::move(blocks), std::move(body), std::move(s));
}
Function func(std::vector<Var> params, SeqExpr body, bool pure = true, Attrs attrs = nullptr) {
  StructInfo ret = body->sinfo;
  return make<FunctionNode>(std::move(params), std::move(body), std::move(ret), pure,
                            std::move(attrs));
}
Expr call(const char *op, std::vector<Expr> args, StructInfo s, std::vector<StructInfo> sa = {},
          Attrs attrs = nullptr) {
  // Some tests call ops the registry does not know.
  return make<CallNode>(getOrCreateUnknownOp(op), std::move(args), std::move(attrs), std::move(sa),
                        std::move(s));
}
Attrs attrs(AttrDict d) { return make<AttrsNode>(std::move(d)); }

/// Adds `fn` under `name` with a GlobalVar of its struct info.
GlobalVar addFn(IRModule &m, const char *name, const Function &fn) {
  GlobalVar gv = make<GlobalVarNode>(name, fn->sinfo);
  m.add(gv, fn);
  return gv;
}

std::vector<std::string> messages(const IRModule &m, VerifyOptions opts = {}) {
  std::vector<std::string> out;
  for (const Violation &v : verifyModule(m, opts))
    out.push_back(v.message);
  return out;
}

using Msgs = std::vector<std::string>;

/// main(x: R.Tensor((2, 3), "float32")) with the given blocks and body.
IRModule mainModule(Var x, std::vector<BindingBlock> blocks, Expr body, bool pure = true,
                    Attrs fnAttrs = nullptr) {
  IRModule m;
  addFn(m, "main",
        func({std::move(x)}, seq(std::move(blocks), std::move(body)), pure, std::move(fnAttrs)));
  return m;
}

//===----------------------------------------------------------------------===//
// Accepted IR
//===----------------------------------------------------------------------===//

TEST(WellFormed, SimpleFunctionIsWellFormed) {
  Var x = var("x", tensor({2, 3}));
  Var lv = dfvar("lv", tensor({2, 3}));
  Var gv = var("gv", tensor({2, 3}));
  IRModule m = mainModule(
      x, {block({bind(lv, call("relax.add", {x, x}, tensor({2, 3}))), bind(gv, lv)}, true)}, gv);
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, LessPreciseAnnotationIsAccepted) {
  // B: R.Object = R.add(A, A)
  Var a = var("A", tensor({2, 3}));
  Var b = var("B", objectSInfo());
  IRModule m = mainModule(a, {block({bind(b, call("relax.add", {a, a}, objectSInfo()))})}, b);
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, RecursiveLocalFunctionIsAccepted) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  StructInfo fs =
      make<FuncSInfoNode>(std::vector<StructInfo>{tensor({2, 3})}, tensor({2, 3}), true);
  Var f = var("f", fs);
  Var r = var("r", tensor({2, 3}));
  Function inner =
      func({y}, seq({block({bind(r, make<CallNode>(f, std::vector<Expr>{y}, nullptr,
                                                   std::vector<StructInfo>{}, tensor({2, 3})))})},
                    r));
  Var out = var("out", tensor({2, 3}));
  IRModule m =
      mainModule(x,
                 {block({bind(f, inner),
                         bind(out, make<CallNode>(f, std::vector<Expr>{x}, nullptr,
                                                  std::vector<StructInfo>{}, tensor({2, 3})))})},
                 out);
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, LocalFunctionInDataflowBlockIsAccepted) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  Function inner = func({y}, seq({}, y));
  Var f = dfvar("f", inner->sinfo);
  Var g = var("g", inner->sinfo);
  IRModule m = mainModule(x, {block({bind(f, inner), bind(g, f)}, true)}, x);
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, FuncSInfoWithNestedSymbolicParamsIsAccepted) {
  TirVar m0 = sym("m");
  StructInfo fs =
      make<FuncSInfoNode>(std::vector<StructInfo>{tensor({m0}, f32)}, tensor({m0}, f32), true);
  Var f = var("f", fs);
  IRModule m;
  addFn(m, "main", func({f}, seq({}, f)));
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, MatchCastDefinesSymbolicVars) {
  TirVar n = sym("n");
  Var x = var("x", tensorSInfoNDim(1, f32));
  Var y = var("y", tensor({n}));
  Var z = var("z", tensor({n}));
  IRModule m = mainModule(x,
                          {block({make<MatchCastNode>(y, x, tensor({n})),
                                  bind(z, call("relax.add", {y, y}, tensor({n})))})},
                          x);
  EXPECT_EQ(messages(m), Msgs{});
}

//===----------------------------------------------------------------------===//
// Module-level rules (1-5)
//===----------------------------------------------------------------------===//

TEST(WellFormed, Rule1GlobalSymbolMustMatchName) {
  Var x = var("x", tensor({2, 3}));
  IRModule m = mainModule(x, {}, x, true, attrs({{"global_symbol", AttrValue::string("foo")}}));
  EXPECT_EQ(messages(m), Msgs{"function 'main' has global_symbol 'foo' but is named 'main'"});
}

TEST(WellFormed, Rule2UndefinedGlobalVar) {
  Var x = var("x", tensor({2, 3}));
  Function callee = func({var("a", tensor({2, 3}))}, seq({}, x));
  GlobalVar ghost = make<GlobalVarNode>("ghost", callee->sinfo);
  Var y = var("y", tensor({2, 3}));
  IRModule m =
      mainModule(x,
                 {block({bind(y, make<CallNode>(ghost, std::vector<Expr>{x}, nullptr,
                                                std::vector<StructInfo>{}, tensor({2, 3})))})},
                 y);
  Msgs msgs = messages(m);
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "GlobalVar 'ghost' is used in function 'main' but not defined in the module");
}

TEST(WellFormed, Rule2GlobalVarMustBeTheModulesObject) {
  Var a = var("a", tensor({2, 3}));
  Function callee = func({a}, seq({}, a));
  IRModule m;
  addFn(m, "callee", callee);
  GlobalVar other = make<GlobalVarNode>("callee", callee->sinfo);
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  addFn(m, "main",
        func({x}, seq({block({bind(y, make<CallNode>(other, std::vector<Expr>{x}, nullptr,
                                                     std::vector<StructInfo>{}, tensor({2, 3})))})},
                      y)));
  EXPECT_EQ(messages(m),
            Msgs{"GlobalVar 'callee' used in function 'main' is not the module's GlobalVar of "
                 "that name"});
}

TEST(WellFormed, Rule3GlobalVarStructInfoMustBeFunc) {
  Var x = var("x", tensor({2, 3}));
  IRModule m;
  m.add(make<GlobalVarNode>("main", tensor({2, 3})), func({x}, seq({}, x)));
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_NE(msgs[0].find("GlobalVar 'main' has struct info"), std::string::npos) << msgs[0];
  EXPECT_NE(msgs[0].find("but must have function struct info (R.Callable)"), std::string::npos);
}

TEST(WellFormed, Rule4ParamSharedByTwoFunctions) {
  Var x = var("x", tensor({2, 3}));
  IRModule m;
  addFn(m, "f", func({x}, seq({}, x)));
  addFn(m, "g", func({x}, seq({}, x)));
  EXPECT_EQ(messages(m),
            Msgs{"parameter 'x' of function 'g' is already a parameter of function 'f'"});
}

TEST(WellFormed, Rule5SymbolicVarSharedByTwoFunctions) {
  TirVar n = sym("n");
  Var x = var("x", tensor({n}));
  Var y = var("y", tensor({n}));
  IRModule m;
  addFn(m, "f", func({x}, seq({}, x)));
  addFn(m, "g", func({y}, seq({}, y)));
  EXPECT_EQ(messages(m), Msgs{"symbolic var 'n' is used in both function 'f' and function 'g'"});
}

//===----------------------------------------------------------------------===//
// Scoping (6-12)
//===----------------------------------------------------------------------===//

TEST(WellFormed, Rule6UndefinedVarReportedOncePerFunction) {
  Var x = var("x", tensor({2, 3}));
  Var lv3 = var("lv3", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  Var b = var("b", tensor({2, 3}));
  IRModule m = mainModule(x,
                          {block({bind(a, call("relax.add", {x, lv3}, tensor({2, 3}))),
                                  bind(b, call("relax.add", {lv3, a}, tensor({2, 3})))})},
                          b);
  EXPECT_EQ(messages(m), Msgs{"var 'lv3' is used in function 'main' but not defined"});
}

TEST(WellFormed, Rule6UseBeforeDefinition) {
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  Var b = var("b", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(a, b), bind(b, x)})}, a);
  EXPECT_EQ(messages(m), Msgs{"var 'b' is used in function 'main' but not defined"});
}

TEST(WellFormed, Rule7VarDefinedTwice) {
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(a, x), bind(a, x)})}, a);
  EXPECT_EQ(messages(m), Msgs{"var 'a' is defined twice in function 'main'"});
}

TEST(WellFormed, Rule8UndefinedSymbolicVarInBindingSInfo) {
  TirVar n = sym("n");
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", tensorSInfoNDim(1, f32));
  Var b = var("b", tensor({n}));
  IRModule m =
      mainModule(x, {block({bind(a, call("relax.flatten", {x}, tensor({6}))), bind(b, a)})}, x);
  Msgs msgs = messages(m);
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "symbolic var 'n' is used in function 'main' but not defined");
  // Not checked without struct-info checking.
  VerifyOptions noSInfo;
  noSInfo.checkStructInfo = false;
  EXPECT_EQ(messages(m, noSInfo), Msgs{});
}

TEST(WellFormed, Rule8UndefinedSymbolicVarInSInfoArgs) {
  TirVar n = sym("n");
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", objectSInfo());
  Expr packed = make<CallNode>(make<ExternFuncNode>("my_func"), std::vector<Expr>{x}, nullptr,
                               std::vector<StructInfo>{tensor({n})}, objectSInfo());
  IRModule m = mainModule(x, {block({bind(y, packed)})}, x, /*pure=*/false);
  Msgs msgs = messages(m, [] {
    VerifyOptions o;
    o.checkStructInfo = false; // sinfo_args are uses even then.
    return o;
  }());
  EXPECT_EQ(msgs, Msgs{"symbolic var 'n' is used in function 'main' but not defined"});
}

TEST(WellFormed, Rule8ReturnSInfoNotDefinedByParams) {
  TirVar n = sym("n");
  Var x = var("x", tensorSInfoNDim(1, f32));
  IRModule m;
  addFn(m, "main", make<FunctionNode>(std::vector<Var>{x}, seq({}, x), tensor({n}), true, nullptr));
  Msgs msgs = messages(m);
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "symbolic var 'n' is used in function 'main' but not defined");
}

TEST(WellFormed, Rule9DataflowVarUsedOutsideDataflowBlock) {
  Var x = var("x", tensor({2, 3}));
  Var lv = dfvar("lv", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(lv, x)}, true)}, lv);
  EXPECT_EQ(messages(m), Msgs{"DataflowVar 'lv' is used outside a dataflow block in function "
                              "'main'"});
}

TEST(WellFormed, Rule9DataflowVarFromAnotherBlock) {
  Var x = var("x", tensor({2, 3}));
  Var lv = dfvar("lv", tensor({2, 3}));
  Var lv2 = dfvar("lv2", tensor({2, 3}));
  Var gv = var("gv", tensor({2, 3}));
  IRModule m = mainModule(
      x,
      {block({bind(lv, x)}, true), block({}, false), block({bind(lv2, lv), bind(gv, lv2)}, true)},
      gv);
  EXPECT_EQ(messages(m), Msgs{"DataflowVar 'lv' is used in function 'main' but not defined in "
                              "its dataflow block"});
}

TEST(WellFormed, Rule10DataflowVarDefinedOutsideDataflowBlock) {
  Var x = var("x", tensor({2, 3}));
  Var lv = dfvar("lv", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(lv, x)})}, x);
  EXPECT_EQ(messages(m), Msgs{"DataflowVar 'lv' is defined outside a dataflow block in function "
                              "'main'"});
}

TEST(WellFormed, Rule10DataflowVarDefinedTwice) {
  Var x = var("x", tensor({2, 3}));
  Var lv = dfvar("lv", tensor({2, 3}));
  Var gv = var("gv", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(lv, x), bind(lv, x), bind(gv, lv)}, true)}, gv);
  EXPECT_EQ(messages(m), Msgs{"DataflowVar 'lv' is defined twice in function 'main'"});
}

/// if cond: a = x  else: a2 = x ; result is the If; `leak` uses `a`.
IRModule ifModule(bool useBranchVarAfter, bool inDataflow, Expr cond = nullptr) {
  Var x = var("x", tensor({2, 3}));
  Var c = var("c", primSInfo(DataType::boolType()));
  Var a = var("a", tensor({2, 3}));
  Var a2 = var("a2", tensor({2, 3}));
  SeqExpr thenB = seq({block({bind(a, x)})}, a);
  SeqExpr elseB = seq({block({bind(a2, x)})}, a2);
  Expr ifE = make<IfNode>(cond ? cond : Expr(c), thenB, elseB, tensor({2, 3}));
  Var r = inDataflow ? dfvar("r", tensor({2, 3})) : var("r", tensor({2, 3}));
  Var leak = var("leak", tensor({2, 3}));
  std::vector<Binding> bs{bind(r, ifE)};
  Var out = inDataflow ? var("out", tensor({2, 3})) : r;
  if (inDataflow)
    bs.push_back(bind(out, r));
  if (useBranchVarAfter)
    bs.push_back(bind(leak, a));
  IRModule m;
  addFn(m, "main", func({x, c}, seq({block(std::move(bs), inDataflow)}, out)));
  return m;
}

TEST(WellFormed, IfIsAccepted) { EXPECT_EQ(messages(ifModule(false, false)), Msgs{}); }

TEST(WellFormed, Rule11BranchVarInvisibleAfterIf) {
  EXPECT_EQ(messages(ifModule(true, false)),
            Msgs{"var 'a' is used in function 'main' but not defined"});
}

TEST(WellFormed, Rule12NestedFunctionScope) {
  // A var of a nested function is invisible after it; an outer symbolic var
  // is invisible inside it.
  TirVar n = sym("n");
  Var x = var("x", tensor({n}));
  Var y = var("y", tensorSInfoNDim(1, f32));
  Var inner = var("inner", tensor({n}));
  Function fn = func({y}, seq({block({bind(inner, y)})}, y));
  Var f = var("f", fn->sinfo);
  Var leak = var("leak", tensor({n}));
  IRModule m = mainModule(x, {block({bind(f, fn), bind(leak, inner)})}, x);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 3u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0], "symbolic var 'n' is used in function 'main' but not defined");
  EXPECT_EQ(msgs[1], "var 'inner' is used in function 'main' but not defined");
  // y (ndim 1, no shape) cannot be proven to be a (n,) tensor.
  EXPECT_NE(msgs[2].find("cannot be bound to 'inner'"), std::string::npos) << msgs[2];
}

//===----------------------------------------------------------------------===//
// Normal form (13-20)
//===----------------------------------------------------------------------===//

TEST(WellFormed, Rule13SeqExprAsBindingValue) {
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(a, seq({}, x))})}, a);
  EXPECT_EQ(messages(m), Msgs{"a SeqExpr is bound to 'a' in function 'main'; a SeqExpr may only "
                              "be a function body or an If branch"});
}

TEST(WellFormed, Rule13SeqExprBodyMustBeLeaf) {
  Var x = var("x", tensor({2, 3}));
  IRModule m = mainModule(x, {}, call("relax.add", {x, x}, tensor({2, 3})));
  EXPECT_EQ(messages(m), Msgs{"the body of a SeqExpr in function 'main' is a Call, not a leaf or "
                              "tuple (bind it to a var first)"});
}

TEST(WellFormed, Rule14CalleeMustBeLeaf) {
  Var x = var("x", tensor({2, 3}));
  StructInfo fs =
      make<FuncSInfoNode>(std::vector<StructInfo>{tensor({2, 3})}, tensor({2, 3}), true);
  Expr inner = make<CallNode>(make<ExternFuncNode>("get_fn"), std::vector<Expr>{}, nullptr,
                              std::vector<StructInfo>{fs}, fs);
  Var y = var("y", tensor({2, 3}));
  IRModule m =
      mainModule(x,
                 {block({bind(y, make<CallNode>(inner, std::vector<Expr>{x}, nullptr,
                                                std::vector<StructInfo>{}, tensor({2, 3})))})},
                 y, /*pure=*/false);
  Msgs msgs = messages(m);
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "the callee of a call in binding 'y' in function 'main' is a Call, not a "
                     "leaf or tuple (bind it to a var first)");
}

TEST(WellFormed, Rule15NestedCallArgument) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  Expr inner = call("relax.add", {x, x}, tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(y, call("relax.add", {inner, x}, tensor({2, 3})))})}, y);
  EXPECT_EQ(messages(m), Msgs{"argument 0 in binding 'y' in function 'main' is a Call, not a leaf "
                              "or tuple (bind it to a var first)"});
}

TEST(WellFormed, Rule15CallInsideTuple) {
  Var x = var("x", tensor({2, 3}));
  Var t = var("t", tupleSInfo({tensor({2, 3})}));
  IRModule m =
      mainModule(x, {block({bind(t, tupleExpr({call("relax.add", {x, x}, tensor({2, 3}))}))})}, t);
  EXPECT_EQ(messages(m), Msgs{"tuple field 0 in binding 't' in function 'main' is a Call, not a "
                              "leaf or tuple (bind it to a var first)"});
}

TEST(WellFormed, Rule15NestedTupleGetItem) {
  Var x = var("x", tupleSInfo({tupleSInfo({tensor({2, 3})})}));
  Var y = var("y", tensor({2, 3}));
  Expr inner = make<TupleGetItemNode>(x, 0);
  IRModule m = mainModule(x, {block({bind(y, make<TupleGetItemNode>(inner, 0))})}, y);
  EXPECT_EQ(messages(m), Msgs{"the tuple of a TupleGetItem in binding 'y' in function 'main' is a "
                              "TupleGetItem, not a leaf or tuple (bind it to a var first)"});
}

TEST(WellFormed, Rule15ComplexIfCondition) {
  Expr cond = call("relax.unknown_cond_op_for_test", {}, primSInfo(DataType::boolType()));
  Msgs msgs = messages(ifModule(false, false, cond));
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "the condition of an If in binding 'r' in function 'main' is a Call, not a "
                     "leaf or tuple (bind it to a var first)");
}

TEST(WellFormed, Rule15IfWithoutBranch) {
  Var x = var("x", tensor({2, 3}));
  Var c = var("c", primSInfo(DataType::boolType()));
  Var r = var("r", tensor({2, 3}));
  Expr ifE = make<IfNode>(c, seq({}, x), nullptr, tensor({2, 3}));
  IRModule m;
  addFn(m, "main", func({x, c}, seq({block({bind(r, ifE)})}, r)));
  EXPECT_EQ(messages(m), Msgs{"an If in binding 'r' in function 'main' lacks a branch"});
}

TEST(WellFormed, Rule17FloatShapeValue) {
  TirVar fv = make<TirVarNode>("f", f32);
  Var x = var("x", tensor({2, 3}));
  Var s = var("s", shapeSInfo({fv}));
  IRModule m;
  // The float var is defined by the Prim param's value.
  Var pv = var("pv", make<PrimSInfoNode>(f32, fv));
  addFn(m, "main", func({x, pv}, seq({block({bind(s, shapeExpr({fv}))})}, x)));
  Msgs msgs = messages(m);
  ASSERT_FALSE(msgs.empty());
  EXPECT_EQ(msgs[0], "shape value f in binding 's' in function 'main' has dtype float32, not an "
                     "integer type");
}

TEST(WellFormed, Rule18ExprWithoutStructInfo) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(y, call("relax.add", {x, x}, nullptr))})}, y);
  // Checked even without struct-info checking.
  VerifyOptions noSInfo;
  noSInfo.checkStructInfo = false;
  EXPECT_EQ(messages(m, noSInfo),
            Msgs{"a Call in binding 'y' in function 'main' has no struct info"});
}

TEST(WellFormed, Rule18VarWithoutStructInfo) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", nullptr);
  IRModule m = mainModule(x, {block({bind(y, x)})}, x);
  EXPECT_EQ(messages(m), Msgs{"var 'y' in function 'main' has no struct info"});
}

TEST(WellFormed, Rule19FunctionWithoutReturnStructInfo) {
  Var x = var("x", tensor({2, 3}));
  IRModule m;
  addFn(m, "main", make<FunctionNode>(std::vector<Var>{x}, seq({}, x), nullptr, true, nullptr));
  EXPECT_EQ(messages(m), Msgs{"function 'main' has no return struct info"});
}

TEST(WellFormed, Rule20IfInsideDataflowBlock) {
  EXPECT_EQ(messages(ifModule(false, true)),
            Msgs{"If inside a dataflow block (binding 'r' in function 'main')"});
}

//===----------------------------------------------------------------------===//
// Purity (21-23)
//===----------------------------------------------------------------------===//

Expr printCall(Expr x) { return call("relax.print", {std::move(x), stringImm("")}, voidSInfo()); }

TEST(WellFormed, Rule21ForcePureNeedsPureFunction) {
  Var x = var("x", tensor({2, 3}));
  IRModule m =
      mainModule(x, {}, x, /*pure=*/false, attrs({{"relax.force_pure", AttrValue::boolean(true)}}));
  VerifyOptions noSInfo;
  noSInfo.checkStructInfo = false; // Checked always.
  EXPECT_EQ(messages(m, noSInfo),
            Msgs{"function 'main' has relax.force_pure=True but is not pure (pure=False); "
                 "force_pure needs a pure function"});
}

TEST(WellFormed, Rule22ImpureCallInPureFunction) {
  Var x = var("x", tensor({2, 3}));
  Var p = var("p", voidSInfo());
  IRModule m = mainModule(x, {block({bind(p, printCall(x))})}, x);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0], "pure function 'main' contains an impure call to R.print (mark it "
                     "pure=False, or set relax.force_pure, or use a pure variant such as "
                     "R.call_pure_packed)");
}

TEST(WellFormed, Rule22ImpureCallAcceptedWhenImpureOrForcePure) {
  Var x = var("x", tensor({2, 3}));
  Var p = var("p", voidSInfo());
  EXPECT_EQ(messages(mainModule(x, {block({bind(p, printCall(x))})}, x, /*pure=*/false)), Msgs{});
  Var x2 = var("x", tensor({2, 3}));
  Var p2 = var("p", voidSInfo());
  EXPECT_EQ(messages(mainModule(x2, {block({bind(p2, printCall(x2))})}, x2, true,
                                attrs({{"relax.force_pure", AttrValue::boolean(true)}}))),
            Msgs{});
}

TEST(WellFormed, Rule22ImpureCallInsideNestedFunctionIsNotTheOuters) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  Var p = var("p", voidSInfo());
  Function inner = func({y}, seq({block({bind(p, printCall(y))})}, y), /*pure=*/false);
  Var f = var("f", inner->sinfo);
  EXPECT_EQ(messages(mainModule(x, {block({bind(f, inner)})}, x)), Msgs{});
}

TEST(WellFormed, Rule23ImpureCallInDataflowBlockEvenWithForcePure) {
  Var x = var("x", tensor({2, 3}));
  Var p = dfvar("p", voidSInfo());
  IRModule m = mainModule(x, {block({bind(p, printCall(x))}, true)}, x, true,
                          attrs({{"relax.force_pure", AttrValue::boolean(true)}}));
  EXPECT_EQ(messages(m), Msgs{"impure call in a dataflow block: R.print (binding 'p' in "
                              "function 'main')"});
}

//===----------------------------------------------------------------------===//
// call_tir (24-25)
//===----------------------------------------------------------------------===//

/// A PrimFunc `name` with buffers of the given shapes (inputs then outputs).
PrimFunc primFunc(std::vector<std::vector<PrimExpr>> buffers, DataType dt = f32,
                  std::vector<PrimParam> extra = {}) {
  PrimFunc pf = make<PrimFuncNode>();
  auto *node = const_cast<PrimFuncNode *>(pf.get());
  int i = 0;
  for (auto &shape : buffers) {
    PrimParam p;
    p.name = "B" + std::to_string(i++);
    p.kind = PrimParam::Kind::Buffer;
    p.shape = std::move(shape);
    p.dtype = dt;
    node->params.push_back(std::move(p));
  }
  for (PrimParam &p : extra)
    node->params.push_back(std::move(p));
  return pf;
}

std::vector<PrimExpr> dims(std::initializer_list<int64_t> ds) {
  std::vector<PrimExpr> out;
  for (int64_t d : ds)
    out.push_back(intImm(d));
  return out;
}

/// main(x: xs) { y = R.call_tir(cls.add, (x,), out_sinfo=out) }
IRModule callTIRModule(PrimFunc pf, StructInfo xs, StructInfo out, Expr argTuple = nullptr,
                       const char *op = "relax.call_tir", Attrs callAttrs = nullptr) {
  IRModule m;
  GlobalVar add = make<GlobalVarNode>("add", pf->relaxSInfo());
  m.add(add, pf);
  Var x = var("x", std::move(xs));
  Var y = var("y", out);
  std::vector<Binding> bs;
  Expr args = argTuple ? argTuple : tupleExpr({x});
  if (argTuple) {
    Var t = var("t", tupleSInfo({x->sinfo}));
    bs.push_back(bind(t, tupleExpr({x})));
    args = t;
  }
  bs.push_back(bind(y, call(op, {add, args}, out, {out}, std::move(callAttrs))));
  addFn(m, "main", func({x}, seq({block(std::move(bs))}, y)));
  return m;
}

TEST(WellFormed, CallTIRCorrectIsAccepted) {
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({4}), tensor({4}))),
            Msgs{});
}

TEST(WellFormed, CallTIRDynamicCorrectIsAccepted) {
  TirVar n = sym("n"), pn = sym("n");
  Msgs msgs = messages(callTIRModule(primFunc({{pn}, {pn}}), tensor({n}), tensor({n})));
  EXPECT_EQ(msgs, Msgs{});
}

TEST(WellFormed, Rule25CallTIRArgumentShapeMismatch) {
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({3}), tensor({4}))),
            Msgs{"call_tir argument 0 has shape (3,) but PrimFunc 'add' expects (4,) ("
                 "binding 'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIRArgumentDtypeMismatch) {
  EXPECT_EQ(
      messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({4}, f16), tensor({4}))),
      Msgs{"call_tir argument 0 has dtype float16 but PrimFunc 'add' expects float32 ("
           "binding 'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIRArgumentNDimMismatch) {
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({4, 1}), tensor({4}))),
            Msgs{"call_tir argument 0 has ndim 2 but PrimFunc 'add' expects ndim 1 (binding "
                 "'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIRDynamicShapeMismatch) {
  // PrimFunc (n, n) -> (n,); argument (3, 4): n = 3 then 4 differs.
  TirVar pn = sym("n");
  EXPECT_EQ(messages(callTIRModule(primFunc({{pn, pn}, {pn}}), tensor({3, 4}), tensor({3}))),
            Msgs{"call_tir argument 0 has shape (3, 4) but PrimFunc 'add' expects (n, n) ("
                 "binding 'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIROutputShapeMismatch) {
  TirVar pn = sym("n");
  EXPECT_EQ(messages(callTIRModule(primFunc({{pn}, {pn}}), tensor({3}), tensor({4}))),
            Msgs{"call_tir output 0 has shape (4,) but PrimFunc 'add' expects (n,), that is (3,) "
                 "(binding 'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIRTensorToHandleIsAccepted) {
  PrimParam handle;
  handle.name = "h";
  handle.kind = PrimParam::Kind::Handle;
  PrimFunc pf = primFunc({dims({4})});
  auto *node = const_cast<PrimFuncNode *>(pf.get());
  node->params.insert(node->params.begin(), handle);
  EXPECT_EQ(messages(callTIRModule(pf, tensor({7, 7}), tensor({4}))), Msgs{});
}

TEST(WellFormed, Rule24CallTIRArgumentsMustBeInline) {
  Msgs msgs = messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({4}), tensor({4}),
                                     /*argTuple=*/tupleExpr({})));
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0].rfind("the arguments of R.call_tir in binding 'y' in function 'main' must be "
                          "a tuple written inline",
                          0),
            0u)
      << msgs[0];
}

TEST(WellFormed, Rule25CallTIRInplace) {
  Attrs ip = attrs({{"inplace_indices", AttrValue::array({AttrValue::integer(0)})}});
  // In place on (4,): out_sinfo must be the input's (4,).
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4})}), tensor({4}), tensor({4}), nullptr,
                                   "relax.call_tir_inplace", ip)),
            Msgs{});
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4})}), tensor({4}), tensor({5}), nullptr,
                                   "relax.call_tir_inplace", ip)),
            Msgs{"call_tir_inplace output 0 has shape (5,) but PrimFunc 'add' expects (4,) ("
                 "binding 'y' in function 'main')"});
}

TEST(WellFormed, Rule25CallTIRInplacePartlyAllocatedIsAccepted) {
  Attrs ip = attrs(
      {{"inplace_indices", AttrValue::array({AttrValue::integer(0), AttrValue::integer(-1)})}});
  StructInfo out = tupleSInfo({tensor({4}), tensor({2})});
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4}), dims({2})}), tensor({4}), out, nullptr,
                                   "relax.call_tir_inplace", ip)),
            Msgs{});
}

/// Test-only ops with an FNormalize that always rewrites (it drops the
/// attrs) and an FValidate that rejects a second argument.
Expr rewriteToFresh(const CallNode &call) {
  return make<CallNode>(call.op, call.args, nullptr, call.sinfoArgs, call.sinfo);
}
llvm::Error rejectTwoArgs(const CallNode &call, const IRModule *) {
  if (call.args.size() == 2)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "expects one argument");
  return llvm::Error::success();
}
llvm::Expected<StructInfo> firstArgSInfo(const CallNode &call, const InferContext &) {
  return call.args[0]->sinfo;
}
void registerTestOps() {
  static bool done = [] {
    OpInfo norm;
    norm.name = "relax.test_wf.normalized";
    norm.infer = firstArgSInfo;
    norm.normalize = rewriteToFresh;
    registerOp(norm);
    OpInfo val;
    val.name = "relax.test_wf.validated";
    val.infer = firstArgSInfo;
    val.validate = rejectTwoArgs;
    registerOp(val);
    return true;
  }();
  (void)done;
}

TEST(WellFormed, Rule24CallMustBeNormalized) {
  registerTestOps();
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  IRModule m =
      mainModule(x, {block({bind(y, call("relax.test_wf.normalized", {x}, y->sinfo))})}, y);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0].rfind("call to R.test_wf.normalized in binding 'y' in function 'main' is not "
                          "in normal form: it normalizes to ",
                          0),
            0u)
      << msgs[0];
}

TEST(WellFormed, Rule25OpValidate) {
  registerTestOps();
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  Var z = var("z", tensor({2, 3}));
  IRModule m = mainModule(x,
                          {block({bind(y, call("relax.test_wf.validated", {x}, y->sinfo)),
                                  bind(z, call("relax.test_wf.validated", {x, x}, z->sinfo))})},
                          z);
  EXPECT_EQ(messages(m), Msgs{"R.test_wf.validated in binding 'z' in function 'main' is invalid: "
                              "expects one argument"});
}

TEST(WellFormed, Rule25CallTIRTirVarsDtype) {
  PrimParam m32;
  m32.name = "m";
  m32.kind = PrimParam::Kind::Scalar;
  m32.dtype = DataType::int32();
  PrimFunc pf = primFunc({dims({4})}, f32, {m32});
  IRModule m;
  GlobalVar add = make<GlobalVarNode>("add", pf->relaxSInfo());
  m.add(add, pf);
  Var x = var("x", tensor({2}));
  Var y = var("y", tensor({4}));
  addFn(
      m, "main",
      func({x},
           seq({block({bind(y, call("relax.call_tir", {add, tupleExpr({}), shapeExpr({intImm(4)})},
                                    y->sinfo, {y->sinfo}))})},
               y)));
  EXPECT_EQ(messages(m), Msgs{"call_tir tir_vars[0] has dtype int64 but PrimFunc 'add' expects "
                              "int32 (binding 'y' in function 'main')"});
}

TEST(WellFormed, CallTIROutputCountMismatch) {
  StructInfo out = tupleSInfo({tensor({4}), tensor({4})});
  EXPECT_EQ(messages(callTIRModule(primFunc({dims({4}), dims({4})}), tensor({4}), out)),
            Msgs{"call_tir out_sinfo has 2 outputs but PrimFunc 'add' has 1 (binding 'y' in "
                 "function 'main')"});
}

TEST(WellFormed, PurityRulesNeedStructInfoChecking) {
  Var x = var("x", tensor({2, 3}));
  Var p = dfvar("p", voidSInfo());
  IRModule m = mainModule(x, {block({bind(p, printCall(x))}, true)}, x);
  EXPECT_EQ(messages(m).size(), 2u); // Rules 22 and 23.
  VerifyOptions noSInfo;
  noSInfo.checkStructInfo = false;
  EXPECT_EQ(messages(m, noSInfo), Msgs{});
}

TEST(WellFormed, UndefinedSymbolicVarReportedOnce) {
  TirVar n = sym("n");
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", shapeSInfo({n}));
  Var b = var("b", shapeSInfo({n, n}));
  IRModule m = mainModule(x, {block({bind(a, shapeExpr({n})), bind(b, shapeExpr({n, n}))})}, x);
  EXPECT_EQ(messages(m), Msgs{"symbolic var 'n' is used in function 'main' but not defined"});
}

//===----------------------------------------------------------------------===//
// Struct-info correctness (26-27)
//===----------------------------------------------------------------------===//

TEST(WellFormed, Rule26AnnotationContradictsInferred) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({3}));
  IRModule m = mainModule(x, {block({bind(y, call("relax.add", {x, x}, tensor({3})))})}, y);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0].rfind("struct info of 'y' in function 'main' contradicts the inferred struct "
                          "info: annotated ",
                          0),
            0u)
      << msgs[0];
}

TEST(WellFormed, Rule26LessSpecificButInconsistentAnnotation) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensorSInfoNDim(3, f32));
  IRModule m = mainModule(x, {block({bind(y, call("relax.add", {x, x}, y->sinfo))})}, y);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_NE(msgs[0].find("contradicts the inferred struct info"), std::string::npos);
}

TEST(WellFormed, Rule26UnknownOpIsOpaque) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({7}));
  IRModule m = mainModule(x, {block({bind(y, call("relax.my_custom_op", {x}, tensor({7})))})}, y);
  EXPECT_EQ(messages(m), Msgs{});
}

TEST(WellFormed, Rule27VarAnnotationIncompatibleWithValue) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({3}));
  IRModule m = mainModule(x, {block({bind(y, x)})}, y);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 1u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0].rfind("value of struct info ", 0), 0u) << msgs[0];
  EXPECT_NE(msgs[0].find(" cannot be bound to 'y' of struct info "), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Ordering, locations, errors, cache
//===----------------------------------------------------------------------===//

TEST(WellFormed, RootCauseFirst) {
  // The struct-info fault (rule 27 on 'b') is found first in walk order,
  // but the undefined var of the later binding is reported first.
  Var x = var("x", tensor({2, 3}));
  Var b = var("b", tensor({3}));
  Var ghost = var("ghost", tensor({2, 3}));
  Var c = var("c", tensor({9}));
  IRModule m =
      mainModule(x, {block({bind(b, x), bind(c, call("relax.add", {x, ghost}, c->sinfo))})}, c);
  Msgs msgs = messages(m);
  ASSERT_EQ(msgs.size(), 2u) << ::testing::PrintToString(msgs);
  EXPECT_EQ(msgs[0], "var 'ghost' is used in function 'main' but not defined");
  // The call with the undefined argument is not re-inferred (a cascade).
  EXPECT_NE(msgs[1].find("cannot be bound to 'b'"), std::string::npos) << msgs[1];
}

TEST(WellFormed, LocationsAndBindings) {
  static const char text[] = "def main(x):\n    y = x\n";
  llvm::SMLoc defLoc = llvm::SMLoc::getFromPointer(text);
  llvm::SMLoc bindLoc = llvm::SMLoc::getFromPointer(text + 17);
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({3}));
  Binding b = make<VarBindingNode>(y, x, bindLoc);
  IRModule m;
  addFn(m, "main",
        make<FunctionNode>(std::vector<Var>{x}, seq({block({b})}, y), tensor({3}), true,
                           attrs({{"global_symbol", AttrValue::string("other")}}), defLoc));
  std::vector<Violation> vs = verifyModule(m);
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].loc.getPointer(), defLoc.getPointer());
  EXPECT_EQ(vs[0].function, "main");
  EXPECT_EQ(vs[0].binding, nullptr);
  EXPECT_EQ(vs[1].loc.getPointer(), bindLoc.getPointer());
  EXPECT_EQ(vs[1].binding, b.get());
}

TEST(WellFormed, ToErrorWithoutLocationPrintsTheFunction) {
  Var x = var("x", tensor({2, 3}));
  Var lv3 = var("lv3", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  IRModule m = mainModule(x, {block({bind(a, call("relax.add", {x, lv3}, tensor({2, 3})))})}, a);
  std::vector<Violation> vs = verifyModule(m);
  ASSERT_EQ(vs.size(), 1u);
  llvm::Error err = toError(vs[0], m);
  bool handled = false;
  llvm::handleAllErrors(std::move(err), [&](const DiagnosticError &d) {
    handled = true;
    EXPECT_EQ(d.message, "var 'lv3' is used in function 'main' but not defined");
    EXPECT_FALSE(d.loc.isValid());
    ASSERT_EQ(d.notes.size(), 1u);
    EXPECT_EQ(d.notes[0].message.rfind("in function 'main':\n", 0), 0u);
    EXPECT_NE(d.notes[0].message.find("# <-- here"), std::string::npos) << d.notes[0].message;
  });
  EXPECT_TRUE(handled);
}

TEST(WellFormed, CacheSkipsCheckedNodesAndKeepsFailures) {
  Var x = var("x", tensor({2, 3}));
  Var y = var("y", tensor({2, 3}));
  Var z = var("z", tensor({3}));
  IRModule m = mainModule(x,
                          {block({bind(y, call("relax.add", {x, x}, tensor({2, 3}))),
                                  bind(z, call("relax.add", {y, y}, tensor({3})))})},
                          z);
  const Node *goodCall = m.lookup("main")->asFunction()->body->blocks[0]->bindings[0]->value.get();
  const Node *badCall = m.lookup("main")->asFunction()->body->blocks[0]->bindings[1]->value.get();
  VerifyCache cache;
  EXPECT_EQ(verifyModule(m, {}, &cache).size(), 1u);
  EXPECT_TRUE(cache.contains(goodCall));
  EXPECT_FALSE(cache.contains(badCall));
  size_t cached = cache.size();
  EXPECT_EQ(verifyModule(m, {}, &cache).size(), 1u); // The failure is found again.
  EXPECT_EQ(cache.size(), cached);
  IRModule empty;
  EXPECT_TRUE(verifyModule(empty, {}, &cache).empty());
  EXPECT_EQ(cache.size(), 0u); // Only nodes of the last verification are kept.
}

TEST(WellFormed, NullPiecesAreReportedNotCrashed) {
  Var x = var("x", tensor({2, 3}));
  Var a = var("a", tensor({2, 3}));
  Var b = var("b", tensor({2, 3}));
  Var c = var("c", tensor({2, 3}));
  Expr noOp = make<CallNode>(nullptr, std::vector<Expr>{x}, nullptr, std::vector<StructInfo>{},
                             tensor({2, 3}));
  Expr nullArg = call("relax.add", {x, nullptr}, tensor({2, 3}));
  IRModule m =
      mainModule(x, {block({bind(a, noOp), bind(b, nullArg), bind(c, nullptr)}), nullptr}, c);
  EXPECT_EQ(messages(m), (Msgs{"a call in binding 'a' in function 'main' has no callee",
                               "argument 1 in binding 'b' in function 'main' is null",
                               "binding without a value in function 'main'",
                               "null binding block in function 'main'"}));
}

TEST(WellFormed, LinearOnALongFunction) {
  // 200k bindings chained through relax.add: checks the walk does not
  // recurse per binding (a deep stack would crash) and stays fast.
  const int kBindings = 200000;
  Var x = var("x", tensor({2, 3}));
  std::vector<Binding> bs;
  bs.reserve(kBindings);
  Expr prev = x;
  for (int i = 0; i < kBindings; ++i) {
    Var v = var("v", tensor({2, 3}));
    bs.push_back(bind(v, call("relax.add", {prev, x}, v->sinfo)));
    prev = v;
  }
  IRModule m = mainModule(x, {block(std::move(bs))}, prev);
  VerifyCache cache;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(verifyModule(m, {}, &cache).empty());
  auto t1 = std::chrono::steady_clock::now();
  EXPECT_TRUE(verifyModule(m, {}, &cache).empty());
  EXPECT_TRUE(verifyModule(m, {}, &cache).empty());
  EXPECT_TRUE(verifyModule(m, {}, &cache).empty());
  auto t2 = std::chrono::steady_clock::now();
  using ms = std::chrono::milliseconds;
  std::printf("verify 200k bindings: %lld ms, 3 more times with the cache: %lld ms\n",
              static_cast<long long>(std::chrono::duration_cast<ms>(t1 - t0).count()),
              static_cast<long long>(std::chrono::duration_cast<ms>(t2 - t1).count()));
}

} // namespace
