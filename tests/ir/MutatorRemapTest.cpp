//===- tests/ir/MutatorRemapTest.cpp - Remapping inside struct info ---------===//
//
// A var or symbolic var the mutator rebinds is replaced inside struct info
// too: params, binding vars and match_cast targets get fresh vars whose
// struct info names the new var. Before the struct-info hooks, a binding
// whose value did not change kept its var, and so a struct info naming a
// var that no longer existed.
//
//===----------------------------------------------------------------------===//

#include "ir/Visitor.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

const DataType f32 = DataType::float32();

/// Whether `s` is a tensor whose first dim is exactly `dim`.
bool firstDimIs(const StructInfoNode *s, const PrimExprNode *dim) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s);
  const std::vector<PrimExpr> *dims = t ? t->shapeValues() : nullptr;
  return dims && !dims->empty() && (*dims)[0].get() == dim;
}

TEST(MutatorRemap, SymbolicVarIsReplacedInEveryStructInfo) {
  TirVar n = make<TirVarNode>("n", DataType::int64());
  Var x = make<VarNode>("x", tensorSInfo({n, intImm(4)}, f32));
  BlockBuilder bb;
  SeqExpr body;
  {
    BlockBuilder::FunctionScope scope(bb, {x});
    BlockBuilder::BlockScope block(bb, /*isDataflow=*/false);
    Var y = cantFail(bb.emitMatchCast(x, tensorSInfo({n, intImm(4)}, f32), "y"));
    body = cantFail(bb.finalizeSeqExpr({block.finish()}, y));
  }
  Function fn = make<FunctionNode>(std::vector<Var>{x}, body, body->sinfo, true, nullptr);

  TirVar m = make<TirVarNode>("m", DataType::int64());
  ExprMutator mut;
  mut.remapTirVar(n.get(), m);
  llvm::Expected<Function> out = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  ASSERT_NE(out->get(), fn.get());
  const FunctionNode &f = **out;
  ASSERT_EQ(f.params.size(), 1u);
  EXPECT_NE(f.params[0].get(), x.get());
  EXPECT_TRUE(firstDimIs(f.params[0]->sinfo.get(), m.get()));
  const auto *mc = llvm::cast<MatchCastNode>(f.body->blocks[0]->bindings[0].get());
  EXPECT_EQ(mc->value.get(), f.params[0].get());
  EXPECT_TRUE(firstDimIs(mc->castSInfo.get(), m.get()));
  EXPECT_TRUE(firstDimIs(mc->var->sinfo.get(), m.get()));
  EXPECT_TRUE(firstDimIs(f.retSInfo.get(), m.get()));
}

/// Rebinds the var `s` to a fresh var of the same struct info.
struct RenameShapeVar : ExprMutator {
  llvm::Error rewriteBinding(const BindingNode *b) override {
    if (b->var->name != "s")
      return ExprMutator::rewriteBinding(b);
    Var fresh = make<VarNode>("s", b->var->sinfo);
    remapVar(b->var.get(), fresh);
    return builder().emitBinding(make<VarBindingNode>(fresh, b->value));
  }
};

TEST(MutatorRemap, RenamedShapeVarIsReplacedInAnUnchangedBinding) {
  Var x = make<VarNode>("x", tensorSInfoNDim(2, f32));
  Var shape = make<VarNode>("shape", shapeSInfo({intImm(2), intImm(3)}));
  BlockBuilder bb;
  SeqExpr body;
  Var s, y;
  {
    BlockBuilder::FunctionScope scope(bb, {x, shape});
    BlockBuilder::BlockScope block(bb, /*isDataflow=*/false);
    s = make<VarNode>("s", shape->sinfo);
    cantFail(bb.emitBinding(make<VarBindingNode>(s, shape)));
    // y: R.Tensor(s, "float32") = R.match_cast(x, R.Tensor(s, "float32")):
    // its value does not mention s, only its struct info does.
    y = cantFail(bb.emitMatchCast(x, make<TensorSInfoNode>(s, f32, 2), "y"));
    body = cantFail(bb.finalizeSeqExpr({block.finish()}, y));
  }
  Function fn = make<FunctionNode>(std::vector<Var>{x, shape}, body, body->sinfo, true, nullptr);

  RenameShapeVar mut;
  llvm::Expected<Function> out = mut.rewriteFunction(fn);
  ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
  const BindingBlockNode &block = *(*out)->body->blocks[0];
  ASSERT_EQ(block.bindings.size(), 2u);
  const VarNode *newS = block.bindings[0]->var.get();
  ASSERT_NE(newS, s.get());
  const auto *mc = llvm::cast<MatchCastNode>(block.bindings[1].get());
  EXPECT_EQ(llvm::cast<TensorSInfoNode>(mc->castSInfo.get())->shape.get(), newS);
  EXPECT_EQ(llvm::cast<TensorSInfoNode>(mc->var->sinfo.get())->shape.get(), newS);
  EXPECT_NE(mc->var.get(), y.get());
  EXPECT_EQ((*out)->body->body.get(), mc->var.get());
}

} // namespace
