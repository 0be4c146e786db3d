//===- tests/ir/VisitorTest.cpp - ExprVisitor and ExprMutator ---------------===//

#include "ir/Visitor.h"
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();

PrimExpr c(int64_t v) { return intImm(v); }

llvm::Expected<StructInfo> inferFirst(const CallNode &call, const InferContext &) {
  if (call.args.empty())
    return diagError(call.loc, "visitortest: needs an argument");
  return call.args[0]->sinfo;
}

/// Two test ops: `a` and `b`, both returning their first argument's sinfo.
void registerVisitorOps() {
  static bool done = false;
  if (done)
    return;
  done = true;
  for (const char *name : {"relax.visitortest.a", "relax.visitortest.b"}) {
    OpInfo info;
    info.name = name;
    info.infer = inferFirst;
    registerOp(info);
  }
}

Expr call(const char *op, std::vector<Expr> args) {
  return make<CallNode>(getOp(op), std::move(args));
}

/// main(x: Tensor((n, 4))) with a dataflow block:
///   lv = a(x); mc = match_cast(lv, Tensor((n, 4))); out = b(mc)
/// then returns out.
Function buildFunction(TirVar n, int extraBindings = 0) {
  Var x = make<VarNode>("x", tensorSInfo({n, c(4)}, f32));
  BlockBuilder bb;
  bb.beginFunctionScope({x});
  bb.beginBlock(true);
  Var lv = cantFail(bb.emit(call("relax.visitortest.a", {x}), "lv"));
  Var mc = cantFail(bb.emitMatchCast(lv, tensorSInfo({n, c(4)}, f32), "mc"));
  Expr cur = mc;
  for (int i = 0; i < extraBindings; ++i)
    cur = cantFail(bb.emit(call("relax.visitortest.a", {cur}), "e"));
  BindingBlock df = bb.endBlock();
  bb.beginBlock(false);
  Var out = cantFail(bb.emit(call("relax.visitortest.b", {cur}), "out"));
  BindingBlock tail = bb.endBlock();
  SeqExpr body = cantFail(bb.finalizeSeqExpr({df, tail}, out));
  bb.endFunctionScope();
  StructInfo ret = BlockBuilder::functionRetSInfo(nullptr, body->sinfo.get(), {x});
  return make<FunctionNode>(std::vector<Var>{x}, body, ret, true, nullptr);
}

class VisitorTest : public ::testing::Test {
protected:
  void SetUp() override { registerVisitorOps(); }
  TirVar n = make<TirVarNode>("n", DataType::int64());
};

/// Records every definition and use.
struct DefRecorder : ExprVisitor {
  std::vector<std::string> defs;
  std::vector<std::string> uses;
  int defSites = 0, useSites = 0;
  bool structInfo = false;
  void visitVarDef(const VarNode *var, const BindingNode *binding) override {
    std::string kind = !binding                            ? "param"
                       : llvm::isa<MatchCastNode>(binding) ? "match_cast"
                                                           : "binding";
    defs.push_back(var->name + ":" + kind);
  }
  void visitVarUse(const VarNode *var) override { uses.push_back(var->name); }
  bool wantsStructInfo() const override { return structInfo; }
  void visitPrimExpr(const PrimExprNode *, bool isDef) override { ++(isDef ? defSites : useSites); }
};

TEST_F(VisitorTest, EveryDefinitionKindIsSeen) {
  Function fn = buildFunction(n);
  DefRecorder rec;
  rec.visitExpr(fn.get());
  std::vector<std::string> expected = {"x:param", "lv:binding", "mc:match_cast", "out:binding"};
  EXPECT_EQ(rec.defs, expected);
  std::vector<std::string> uses = {"x", "lv", "mc", "out"};
  EXPECT_EQ(rec.uses, uses);
}

TEST_F(VisitorTest, StructInfoDefinitionSites) {
  Function fn = buildFunction(n);
  DefRecorder rec;
  rec.structInfo = true;
  rec.visitExpr(fn.get());
  // Param (n, 4) and match_cast (n, 4) are definition sites.
  EXPECT_EQ(rec.defSites, 4);
  EXPECT_GT(rec.useSites, 0);
}

TEST_F(VisitorTest, ModuleVisitsFunctions) {
  IRModule mod;
  mod.add(make<GlobalVarNode>("main"), buildFunction(n));
  DefRecorder rec;
  rec.visitModule(mod);
  EXPECT_EQ(rec.defs.size(), 4u);
}

TEST_F(VisitorTest, IdentityMutatorReturnsSameNode) {
  Function fn = buildFunction(n);
  ExprMutator mut;
  llvm::Expected<Function> out = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  EXPECT_EQ(out->get(), fn.get());
}

/// Rewrites every call of op a into op b.
struct SwapOps : ExprMutator {
  llvm::Expected<Expr> rewriteCall(const CallNode *c) override {
    llvm::Expected<Expr> base = ExprMutator::rewriteCall(c);
    if (!base)
      return base;
    const auto *call = llvm::cast<CallNode>(base->get());
    if (call->opInfo() && call->opInfo()->name == "relax.visitortest.a")
      return builder().normalize(
          make<CallNode>(getOp("relax.visitortest.b"), call->args, call->attrs));
    return base;
  }
};

TEST_F(VisitorTest, MutatorRebuildsOnlyWhatChanged) {
  Function fn = buildFunction(n);
  SwapOps mut;
  llvm::Expected<Function> out = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  ASSERT_NE(out->get(), fn.get());
  const SeqExprNode *body = (*out)->body.get();
  ASSERT_EQ(body->blocks.size(), 2u);
  const BindingBlockNode *df = body->blocks[0].get();
  ASSERT_EQ(df->bindings.size(), 2u);
  const auto *first = llvm::cast<CallNode>(df->bindings[0]->value.get());
  EXPECT_EQ(first->opInfo()->name, "relax.visitortest.b");
  // Same struct info: the var keeps its identity.
  EXPECT_EQ(df->bindings[0]->var.get(), fn->body->blocks[0]->bindings[0]->var.get());
  // The match_cast and the untouched second block are the original nodes.
  EXPECT_EQ(df->bindings[1].get(), fn->body->blocks[0]->bindings[1].get());
  EXPECT_EQ(body->blocks[1].get(), fn->body->blocks[1].get());
  EXPECT_TRUE(structInfoIdentical((*out)->retSInfo.get(), fn->retSInfo.get()));
}

/// Replaces the value of `lv` by a call on a different-shaped tensor, so
/// `lv` gets a fresh var and its uses are remapped.
struct ReplaceValue : ExprMutator {
  Var other = make<VarNode>("other", tensorSInfo({c(9)}, f32));
  llvm::Error rewriteBinding(const BindingNode *b) override {
    if (b->var->name != "lv")
      return ExprMutator::rewriteBinding(b);
    Expr v = cantFail(builder().normalize(call("relax.visitortest.a", {other})));
    Var fresh = make<DataflowVarNode>("lv", v->sinfo);
    remapVar(b->var.get(), fresh);
    return builder().emitBinding(make<VarBindingNode>(fresh, v));
  }
};

TEST_F(VisitorTest, RemappedVarsAreSubstitutedInUses) {
  Function fn = buildFunction(n);
  ReplaceValue mut;
  llvm::Expected<Function> out = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  const BindingBlockNode *df = (*out)->body->blocks[0].get();
  const VarNode *fresh = df->bindings[0]->var.get();
  EXPECT_NE(fresh, fn->body->blocks[0]->bindings[0]->var.get());
  ASSERT_TRUE(llvm::isa<MatchCastNode>(df->bindings[1].get()));
  EXPECT_EQ(df->bindings[1]->value.get(), fresh);
}

TEST_F(VisitorTest, LongFunctionsUseNoDeepRecursion) {
  Function fn = buildFunction(n, 100000);
  DefRecorder rec;
  rec.visitExpr(fn.get());
  EXPECT_EQ(rec.defs.size(), 100004u);
  ExprMutator mut;
  llvm::Expected<Function> same = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!same);
  EXPECT_EQ(same->get(), fn.get());
  SwapOps swap;
  llvm::Expected<Function> swapped = swap.rewriteFunction(fn);
  ASSERT_TRUE(!!swapped);
  EXPECT_EQ((*swapped)->body->blocks[0]->bindings.size(), 100002u);
}

} // namespace
