//===- tests/ir/BlockBuilderTest.cpp - registry and BlockBuilder ------------===//

#include "ir/BlockBuilder.h"
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();

PrimExpr c(int64_t v) { return intImm(v); }

llvm::Expected<StructInfo> inferFirstArg(const CallNode &call, const InferContext &) {
  if (call.args.empty())
    return diagError(call.loc, "semtest: needs an argument");
  return call.args[0]->sinfo;
}

void registerTestOps() {
  static bool done = false;
  if (done)
    return;
  done = true;
  OpInfo add;
  add.name = "relax.semtest.add";
  add.params.push_back(OpParam{"x1", ParamKind::Expr, AttrKind::Any, false, {}, false});
  add.params.push_back(OpParam{"x2", ParamKind::Expr, AttrKind::Any, false, {}, false});
  add.params.push_back(
      OpParam{"axis", ParamKind::Attr, AttrKind::Int, true, AttrValue::integer(0), false});
  add.infer = inferFirstArg;
  registerOp(add);
  OpInfo effect;
  effect.name = "relax.semtest.effect";
  effect.infer = inferFirstArg;
  effect.pure = false;
  registerOp(effect);
}

class BlockBuilderTest : public ::testing::Test {
protected:
  void SetUp() override { registerTestOps(); }

  Expr addCall(Expr a, Expr b) {
    return make<CallNode>(getOp("relax.semtest.add"), std::vector<Expr>{a, b});
  }

  Var x = make<VarNode>("x", tensorSInfo({c(2), c(3)}, f32));
  Var y = make<VarNode>("y", tensorSInfo({c(2), c(3)}, f32));
  Var z = make<VarNode>("z", tensorSInfo({c(2), c(3)}, f32));
};

TEST_F(BlockBuilderTest, RegistryLookups) {
  const OpInfo *info = lookupOp("relax.semtest.add");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(lookupOp("semtest.add"), info);
  EXPECT_EQ(info->scriptName(), "semtest.add");
  EXPECT_EQ(lookupOp("semtest.nosuch"), nullptr);
  auto attrs = info->attrParamIndices();
  ASSERT_EQ(attrs.size(), 1u);
  EXPECT_EQ(attrs[0], 2u);
  Op a = getOp("relax.semtest.add");
  EXPECT_EQ(a.get(), getOp("relax.semtest.add").get());
  EXPECT_EQ(a->info, info);
  Op unknown = getOrCreateUnknownOp("relax.semtest.mystery");
  EXPECT_TRUE(unknown->info->unknown);
  EXPECT_TRUE(unknown->info->pure);
  EXPECT_EQ(unknown.get(), getOrCreateUnknownOp("relax.semtest.mystery").get());
  EXPECT_EQ(lookupOp("relax.semtest.mystery"), nullptr);
  bool listed = false;
  for (const OpInfo *op : allOps()) {
    listed |= op == info;
    EXPECT_FALSE(op->unknown);
  }
  EXPECT_TRUE(listed);
}

TEST_F(BlockBuilderTest, InferAndPurity) {
  auto call = make<CallNode>(getOrCreateUnknownOp("relax.semtest.mystery"), std::vector<Expr>{x});
  llvm::Expected<StructInfo> r = inferCallSInfo(*call, InferContext());
  ASSERT_FALSE(!!r);
  EXPECT_EQ(llvm::toString(r.takeError()),
            "unknown op R.semtest.mystery: annotate the binding or register the op");
  EXPECT_FALSE(isImpureCall(*call));
  auto effect = make<CallNode>(getOp("relax.semtest.effect"), std::vector<Expr>{x});
  EXPECT_TRUE(isImpureCall(*effect));
}

TEST_F(BlockBuilderTest, AnfLiftsNestedCalls) {
  BlockBuilder bb;
  bb.beginFunctionScope({x, y, z});
  bb.beginBlock(/*isDataflow=*/true);
  llvm::Expected<Var> out = bb.emit(addCall(addCall(x, y), z), "out");
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  BindingBlock block = bb.endBlock();
  bb.endFunctionScope();
  EXPECT_TRUE(block->isDataflow);
  ASSERT_EQ(block->bindings.size(), 2u);
  const VarNode *lifted = block->bindings[0]->var.get();
  EXPECT_EQ(lifted->name, "lv");
  EXPECT_TRUE(lifted->isDataflow());
  EXPECT_EQ(block->bindings[1]->var.get(), out->get());
  EXPECT_EQ((*out)->name, "out");
  EXPECT_TRUE((*out)->isDataflow());
  const auto *call = llvm::cast<CallNode>(block->bindings[1]->value.get());
  EXPECT_EQ(call->args[0].get(), lifted);
  EXPECT_TRUE(structInfoIdentical((*out)->sinfo.get(), x->sinfo.get()));
}

TEST_F(BlockBuilderTest, LiftedNamesOutsideDataflowAreGv) {
  BlockBuilder bb;
  bb.beginFunctionScope({x, y});
  bb.beginBlock(false);
  llvm::Expected<Var> out = bb.emit(addCall(addCall(x, y), addCall(y, x)));
  ASSERT_TRUE(!!out);
  BindingBlock block = bb.endBlock();
  ASSERT_EQ(block->bindings.size(), 3u);
  EXPECT_EQ(block->bindings[0]->var->name, "gv");
  EXPECT_EQ(block->bindings[1]->var->name, "gv1");
  EXPECT_EQ(block->bindings[2]->var->name, "gv2");
  EXPECT_FALSE(block->bindings[2]->var->isDataflow());
}

TEST_F(BlockBuilderTest, AnnotatedCallIsNotReinferred) {
  BlockBuilder bb;
  bb.beginBlock(false);
  StructInfo ann = tensorSInfoNDim(2, f32);
  Expr call = make<CallNode>(getOrCreateUnknownOp("relax.semtest.mystery"), std::vector<Expr>{x},
                             nullptr, std::vector<StructInfo>{}, ann);
  llvm::Expected<Var> v = bb.emit(call, "v");
  ASSERT_TRUE(!!v) << llvm::toString(v.takeError());
  EXPECT_EQ((*v)->sinfo.get(), ann.get());
  BindingBlock block = bb.endBlock();
  EXPECT_EQ(block->bindings[0]->value.get(), call.get()); // same node, not rebuilt
  // Without annotation the unknown op is an error.
  bb.beginBlock(false);
  llvm::Expected<Var> bad = bb.emit(
      make<CallNode>(getOrCreateUnknownOp("relax.semtest.mystery"), std::vector<Expr>{x}), "w");
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "unknown op R.semtest.mystery: annotate the binding or register the op");
  bb.endBlock();
}

TEST_F(BlockBuilderTest, TupleAndGetItem) {
  BlockBuilder bb;
  bb.beginBlock(false);
  llvm::Expected<Var> t = bb.emit(tupleExpr({x, addCall(x, y)}), "t");
  ASSERT_TRUE(!!t);
  const auto *ts = llvm::dyn_cast<TupleSInfoNode>((*t)->sinfo.get());
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->fields.size(), 2u);
  llvm::Expected<Var> g = bb.emit(make<TupleGetItemNode>(*t, 1), "g");
  ASSERT_TRUE(!!g);
  EXPECT_TRUE(structInfoIdentical((*g)->sinfo.get(), x->sinfo.get()));
  llvm::Expected<Var> bad = bb.emit(make<TupleGetItemNode>(*t, 5), "b");
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()), "Index out of bounds: tuple has 2 fields, index is 5");
  BindingBlock block = bb.endBlock();
  EXPECT_EQ(block->bindings.size(), 3u); // lifted add, t, g
}

TEST_F(BlockBuilderTest, MergeBlocks) {
  auto bind = [&](const char *name) -> Binding {
    return make<VarBindingNode>(make<VarNode>(name, x->sinfo), x);
  };
  auto blk = [&](std::vector<Binding> bs, bool df) {
    return make<BindingBlockNode>(std::move(bs), df);
  };
  BindingBlock single = blk({bind("e")}, true);
  std::vector<BindingBlock> merged = BlockBuilder::mergeBlocks(
      {blk({bind("a")}, true), blk({bind("b")}, true), blk({}, false), blk({bind("c")}, false),
       blk({}, true), blk({bind("d")}, false), single});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_TRUE(merged[0]->isDataflow);
  EXPECT_EQ(merged[0]->bindings.size(), 2u);
  EXPECT_EQ(merged[0]->bindings[1]->var->name, "b");
  EXPECT_FALSE(merged[1]->isDataflow);
  EXPECT_EQ(merged[1]->bindings.size(), 2u);
  EXPECT_EQ(merged[2].get(), single.get());
  EXPECT_TRUE(BlockBuilder::mergeBlocks({blk({}, true)}).empty());
}

TEST_F(BlockBuilderTest, FinalizeSeqExprEmitsNonLeafBody) {
  BlockBuilder bb;
  bb.beginFunctionScope({x, y});
  bb.beginBlock(true);
  ASSERT_TRUE(!!bb.emit(addCall(x, y), "a"));
  BindingBlock df = bb.endBlock();
  llvm::Expected<SeqExpr> seq = bb.finalizeSeqExpr(
      {df, make<BindingBlockNode>(std::vector<Binding>{}, false)}, addCall(x, x));
  bb.endFunctionScope();
  ASSERT_TRUE(!!seq) << llvm::toString(seq.takeError());
  ASSERT_EQ((*seq)->blocks.size(), 2u);
  EXPECT_TRUE((*seq)->blocks[0]->isDataflow);
  EXPECT_FALSE((*seq)->blocks[1]->isDataflow);
  EXPECT_EQ((*seq)->blocks[1]->bindings[0]->var->name, "gv");
  EXPECT_EQ((*seq)->body.get(), (*seq)->blocks[1]->bindings[0]->var.get());
  EXPECT_TRUE(structInfoIdentical((*seq)->sinfo.get(), x->sinfo.get()));
}

TEST_F(BlockBuilderTest, MatchCastDefinesVarsAndSeqErases) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  TirVar m = make<TirVarNode>("m", DataType::int64());
  Var p = make<VarNode>("p", tensorSInfoNDim(2, f32));
  BlockBuilder bb;
  bb.beginFunctionScope({p});
  EXPECT_TRUE(bb.definedTirVars().empty());
  bb.beginBlock(false);
  llvm::Expected<Var> mc = bb.emitMatchCast(p, tensorSInfo({n, m}, f32), "mc");
  ASSERT_TRUE(!!mc) << llvm::toString(mc.takeError());
  EXPECT_TRUE(bb.definedTirVars().count(n.get()));
  EXPECT_TRUE(bb.definedTirVars().count(m.get()));
  BindingBlock block = bb.endBlock();
  ASSERT_TRUE(llvm::isa<MatchCastNode>(block->bindings[0].get()));
  llvm::Expected<SeqExpr> seq = bb.finalizeSeqExpr({block}, *mc);
  ASSERT_TRUE(!!seq);
  // n and m are in scope: the SeqExpr keeps them...
  EXPECT_TRUE(structInfoIdentical((*seq)->sinfo.get(), (*mc)->sinfo.get()));
  // ...but the function return keeps only what params define.
  StructInfo ret = BlockBuilder::functionRetSInfo(nullptr, (*seq)->sinfo.get(), {p});
  EXPECT_TRUE(structInfoIdentical(ret.get(), tensorSInfoNDim(2, f32).get()));
  bb.endFunctionScope();
  EXPECT_FALSE(bb.definedTirVars().count(n.get()));
}

TEST_F(BlockBuilderTest, MatchCastRejectsDisjointSInfo) {
  BlockBuilder bb;
  bb.beginBlock(false);
  llvm::Expected<Var> mc = bb.emitMatchCast(x, shapeSInfoNDim(2), "s");
  ASSERT_FALSE(!!mc);
  std::string msg = llvm::toString(mc.takeError());
  EXPECT_EQ(msg.rfind("It is impossible to match cast any value into the target struct_info.", 0),
            0u)
      << msg;
  bb.endBlock();
}

TEST_F(BlockBuilderTest, IfTakesLcaOfErasedBranches) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Var p = make<VarNode>("p", tensorSInfoNDim(1, f32));
  Var cond = make<VarNode>("cond", tensorSInfo({}, DataType::boolType()));
  BlockBuilder bb;
  bb.beginFunctionScope({p, cond, x});
  bb.beginBlock(false);
  // then: a match_cast defines n inside the branch.
  bb.beginInnerScope();
  bb.beginBlock(false);
  llvm::Expected<Var> mc = bb.emitMatchCast(p, tensorSInfo({n}, f32), "t");
  ASSERT_TRUE(!!mc);
  BindingBlock thenBlock = bb.endBlock();
  llvm::Expected<SeqExpr> thenSeq = bb.finalizeSeqExpr({thenBlock}, *mc);
  bb.endInnerScope();
  ASSERT_TRUE(!!thenSeq);
  EXPECT_TRUE(structInfoIdentical((*thenSeq)->sinfo.get(), tensorSInfo({n}, f32).get()));
  EXPECT_FALSE(bb.definedTirVars().count(n.get()));
  // else: a tensor of shape (7,).
  bb.beginInnerScope();
  Var seven = make<VarNode>("s", tensorSInfo({c(7)}, f32));
  llvm::Expected<SeqExpr> elseSeq = bb.finalizeSeqExpr({}, seven);
  bb.endInnerScope();
  ASSERT_TRUE(!!elseSeq);
  llvm::Expected<Var> r = bb.emit(make<IfNode>(cond, *thenSeq, *elseSeq), "r");
  ASSERT_TRUE(!!r) << llvm::toString(r.takeError());
  EXPECT_TRUE(structInfoIdentical((*r)->sinfo.get(), tensorSInfoNDim(1, f32).get()));
  bb.endBlock();
  bb.endFunctionScope();
}

TEST_F(BlockBuilderTest, FunctionReturnRule) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Var p = make<VarNode>("p", tensorSInfo({n}, f32));
  StructInfo precise = tensorSInfo({c(2), c(3)}, f32);
  StructInfo loose = tensorSInfoNDim(2, f32);
  // A looser annotation is replaced by the body's struct info.
  EXPECT_EQ(BlockBuilder::functionRetSInfo(loose.get(), precise.get(), {}).get(), precise.get());
  // An annotation that is not a base of the body is kept.
  EXPECT_EQ(BlockBuilder::functionRetSInfo(precise.get(), loose.get(), {}).get(), precise.get());
  StructInfo other = tensorSInfo({c(5), c(5)}, f32);
  EXPECT_EQ(BlockBuilder::functionRetSInfo(other.get(), precise.get(), {}).get(), other.get());
  // No annotation: the body, erased to the params' vars.
  StructInfo symbolic = tensorSInfo({n}, f32);
  EXPECT_EQ(BlockBuilder::functionRetSInfo(nullptr, symbolic.get(), {p}).get(), symbolic.get());
  StructInfo erased = BlockBuilder::functionRetSInfo(nullptr, symbolic.get(), {});
  EXPECT_TRUE(structInfoIdentical(erased.get(), tensorSInfoNDim(1, f32).get()));
  // Object annotation: always a base, so the body wins.
  EXPECT_EQ(BlockBuilder::functionRetSInfo(objectSInfo().get(), precise.get(), {}).get(),
            precise.get());
}

TEST_F(BlockBuilderTest, ManyBindingsStayFast) {
  BlockBuilder bb;
  bb.beginFunctionScope({x});
  bb.beginBlock(true);
  Expr cur = x;
  for (int i = 0; i < 200000; ++i) {
    llvm::Expected<Var> v = bb.emit(addCall(cur, x), "v");
    ASSERT_TRUE(!!v);
    cur = *v;
  }
  BindingBlock b = bb.endBlock();
  EXPECT_EQ(b->bindings.size(), 200000u);
  llvm::Expected<SeqExpr> seq = bb.finalizeSeqExpr({b, b}, cur);
  ASSERT_TRUE(!!seq);
  EXPECT_EQ((*seq)->blocks.size(), 1u);
  EXPECT_EQ((*seq)->blocks[0]->bindings.size(), 400000u);
  bb.endFunctionScope();
}

} // namespace

namespace {

TEST(BlockBuilderRealOps, AnfWithRegisteredAdd) {
  const OpInfo *add = lookupOp("add");
  if (!add || !add->infer)
    GTEST_SKIP() << "relax.add is not registered yet";
  EXPECT_EQ(add, lookupOp("relax.add"));
  StructInfo t = tensorSInfo({c(2), c(3)}, f32);
  Var x = make<VarNode>("x", t), y = make<VarNode>("y", t), z = make<VarNode>("z", t);
  auto addCall = [&](Expr a, Expr b) {
    return make<CallNode>(getOp("relax.add"), std::vector<Expr>{a, b});
  };
  BlockBuilder bb;
  bb.beginFunctionScope({x, y, z});
  bb.beginBlock(true);
  llvm::Expected<Var> v = bb.emit(addCall(addCall(x, y), z), "v");
  ASSERT_TRUE(!!v) << llvm::toString(v.takeError());
  BindingBlock block = bb.endBlock();
  bb.endFunctionScope();
  EXPECT_EQ(block->bindings.size(), 2u);
  EXPECT_TRUE(structInfoIdentical((*v)->sinfo.get(), t.get()));
}

} // namespace
