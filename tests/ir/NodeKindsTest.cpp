//===- tests/ir/NodeKindsTest.cpp - The node kind list and its dispatch -----===//
//
// ir/NodeKinds.def is the one list of node kinds. These tests fail when a
// kind is added there without the rest of the IR knowing it:
//  - a kind whose category disagrees with the First*/Last* ranges (and so
//    with isa<> on the abstract bases);
//  - an expression kind that does not reach its own ExprVisitor and
//    ExprMutator hook: the recorders below override every hook by hand, and
//    every expression kind of the list needs a sample node here, so a new
//    kind fails ReachesItsHook until it has a sample that its hook sees;
//  - a kind outside the list stops at llvm_unreachable (assert builds).
// A new kind whose hook is missing from ExprVisitor or ExprMutator does not
// even compile: the dispatch in ir/Visitor.cpp calls the hook the list names.
//
//===----------------------------------------------------------------------===//

#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/Visitor.h"

#include "llvm/ADT/DenseMap.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace graft;

namespace {

/// A node of any kind, to ask classof about kinds without building them.
struct AnyKindNode : Node {
  explicit AnyKindNode(NodeKind kind) : Node(kind) {}
};

enum class Category { Prim, SInfo, Expr, Other };

struct KindInfo {
  NodeKind kind;
  const char *name;
  Category category;
};

const std::vector<KindInfo> &allKinds() {
  static const std::vector<KindInfo> kinds = {
#define GRAFT_PRIM_NODE(Kind, Class) {NodeKind::Kind, #Kind, Category::Prim},
#define GRAFT_SINFO_NODE(Kind, Class) {NodeKind::Kind, #Kind, Category::SInfo},
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite) {NodeKind::Kind, #Kind, Category::Expr},
#define GRAFT_OTHER_NODE(Kind, Class) {NodeKind::Kind, #Kind, Category::Other},
#include "ir/NodeKinds.def"
  };
  return kinds;
}

static_assert(kNumNodeKinds <= 256, "NodeKind is a uint8_t");

TEST(NodeKinds, ListIsDenseAndComplete) {
  ASSERT_EQ(allKinds().size(), kNumNodeKinds);
  for (unsigned i = 0; i < kNumNodeKinds; ++i)
    EXPECT_EQ(static_cast<unsigned>(allKinds()[i].kind), i) << allKinds()[i].name;
}

TEST(NodeKinds, CategoriesMatchTheRanges) {
  for (const KindInfo &k : allKinds()) {
    AnyKindNode n(k.kind);
    EXPECT_EQ(llvm::isa<PrimExprNode>(&n), k.category == Category::Prim) << k.name;
    EXPECT_EQ(llvm::isa<StructInfoNode>(&n), k.category == Category::SInfo) << k.name;
    EXPECT_EQ(llvm::isa<ExprNode>(&n), k.category == Category::Expr) << k.name;
  }
}

/// One node of every expression kind.
std::vector<Expr> sampleExprs() {
  Var x = make<VarNode>("x", tensorSInfoNDim(1, DataType::float32()));
  Var dx = make<DataflowVarNode>("dx", x->sinfo);
  auto data = std::make_shared<TensorData>();
  data->dtype = DataType::float32();
  data->shape = {1};
  data->bytes.assign(4, 0);
  SeqExpr seq = make<SeqExprNode>(std::vector<BindingBlock>{}, x, x->sinfo);
  return {
      x,
      dx,
      make<ConstantNode>(data),
      shapeExpr({intImm(2)}),
      primValueInt(3),
      stringImm("s"),
      dataTypeImm(DataType::float32()),
      tupleExpr({x}),
      make<TupleGetItemNode>(tupleExpr({x}), 0),
      make<CallNode>(getOp("relax.add"), std::vector<Expr>{x, x}),
      make<IfNode>(x, seq, seq, x->sinfo),
      seq,
      make<FunctionNode>(std::vector<Var>{x}, seq, x->sinfo, true, nullptr),
      make<ExternFuncNode>("ext"),
      make<GlobalVarNode>("gv"),
      getOp("relax.add"),
  };
}

/// Records the node each hook receives; every visit hook is overridden.
struct VisitRecorder : ExprVisitor {
  std::map<const Node *, std::string> seen;
  void visitVarUse(const VarNode *n) override { seen[n] = "visitVarUse"; }
  void visitGlobalVar(const GlobalVarNode *n) override { seen[n] = "visitGlobalVar"; }
  void visitConstant(const ConstantNode *n) override { seen[n] = "visitConstant"; }
  void visitShapeExpr(const ShapeExprNode *n) override { seen[n] = "visitShapeExpr"; }
  void visitPrimValue(const PrimValueNode *n) override { seen[n] = "visitPrimValue"; }
  void visitStringImm(const StringImmNode *n) override { seen[n] = "visitStringImm"; }
  void visitDataTypeImm(const DataTypeImmNode *n) override { seen[n] = "visitDataTypeImm"; }
  void visitTuple(const TupleNode *n) override { seen[n] = "visitTuple"; }
  void visitTupleGetItem(const TupleGetItemNode *n) override { seen[n] = "visitTupleGetItem"; }
  void visitCall(const CallNode *n) override { seen[n] = "visitCall"; }
  void visitIf(const IfNode *n) override { seen[n] = "visitIf"; }
  void visitSeqExpr(const SeqExprNode *n) override { seen[n] = "visitSeqExpr"; }
  void visitFunction(const FunctionNode *n) override { seen[n] = "visitFunction"; }
  void visitExternFunc(const ExternFuncNode *n) override { seen[n] = "visitExternFunc"; }
  void visitOp(const OpNode *n) override { seen[n] = "visitOp"; }
};

/// Records the node each hook receives and returns it; every rewrite hook
/// is overridden.
struct RewriteRecorder : ExprMutator {
  std::map<const Node *, std::string> seen;
  llvm::Expected<Expr> note(const ExprNode *n, const char *hook) {
    seen[n] = hook;
    return Expr(n);
  }
  llvm::Expected<Expr> rewriteVarUse(const VarNode *n) override { return note(n, "rewriteVarUse"); }
  llvm::Expected<Expr> rewriteConstant(const ConstantNode *n) override {
    return note(n, "rewriteConstant");
  }
  llvm::Expected<Expr> rewriteShapeExpr(const ShapeExprNode *n) override {
    return note(n, "rewriteShapeExpr");
  }
  llvm::Expected<Expr> rewritePrimValue(const PrimValueNode *n) override {
    return note(n, "rewritePrimValue");
  }
  llvm::Expected<Expr> rewriteStringImm(const StringImmNode *n) override {
    return note(n, "rewriteStringImm");
  }
  llvm::Expected<Expr> rewriteDataTypeImm(const DataTypeImmNode *n) override {
    return note(n, "rewriteDataTypeImm");
  }
  llvm::Expected<Expr> rewriteTuple(const TupleNode *n) override { return note(n, "rewriteTuple"); }
  llvm::Expected<Expr> rewriteTupleGetItem(const TupleGetItemNode *n) override {
    return note(n, "rewriteTupleGetItem");
  }
  llvm::Expected<Expr> rewriteCall(const CallNode *n) override { return note(n, "rewriteCall"); }
  llvm::Expected<Expr> rewriteIf(const IfNode *n) override { return note(n, "rewriteIf"); }
  llvm::Expected<Expr> rewriteSeqExpr(const SeqExprNode *n) override {
    return note(n, "rewriteSeqExpr");
  }
  llvm::Expected<Expr> rewriteFunctionExpr(const FunctionNode *n) override {
    return note(n, "rewriteFunctionExpr");
  }
  llvm::Expected<Expr> rewriteExternFunc(const ExternFuncNode *n) override {
    return note(n, "rewriteExternFunc");
  }
  llvm::Expected<Expr> rewriteGlobalVar(const GlobalVarNode *n) override {
    return note(n, "rewriteGlobalVar");
  }
  llvm::Expected<Expr> rewriteOp(const OpNode *n) override { return note(n, "rewriteOp"); }
};

TEST(NodeKinds, EveryExpressionKindReachesItsHook) {
  std::map<NodeKind, std::pair<std::string, std::string>> hooks = {
#define GRAFT_EXPR_NODE(Kind, Class, Visit, Rewrite) {NodeKind::Kind, {#Visit, #Rewrite}},
#include "ir/NodeKinds.def"
  };
  std::map<NodeKind, Expr> samples;
  for (const Expr &e : sampleExprs())
    samples[e->getKind()] = e;
  for (const KindInfo &k : allKinds()) {
    if (k.category != Category::Expr)
      continue;
    auto it = samples.find(k.kind);
    ASSERT_NE(it, samples.end()) << "no sample node of kind " << k.name << ": add one above";
    const ExprNode *node = it->second.get();
    VisitRecorder visitor;
    visitor.visitExpr(node);
    EXPECT_EQ(visitor.seen[node], hooks[k.kind].first) << k.name;
    RewriteRecorder mutator;
    llvm::Expected<Expr> out = mutator.rewriteExpr(it->second);
    ASSERT_TRUE(!!out) << llvm::toString(out.takeError());
    EXPECT_EQ(out->get(), node);
    EXPECT_EQ(mutator.seen[node], hooks[k.kind].second) << k.name;
  }
}

/// An expression node carrying a kind that is no expression kind.
struct CorruptExpr : ExprNode {
  explicit CorruptExpr(NodeKind kind) : ExprNode(kind) {}
};

TEST(NodeKindsDeathTest, UnknownKindIsNeverSkipped) {
#if !GTEST_HAS_DEATH_TEST
  GTEST_SKIP() << "no death tests on this platform";
#else
  CorruptExpr outside(static_cast<NodeKind>(kNumNodeKinds));
  CorruptExpr notExpr(NodeKind::BindingBlock);
  ExprVisitor visitor;
  EXPECT_DEATH(visitor.visitExpr(&outside), "not an expression node");
  EXPECT_DEATH(visitor.visitExpr(&notExpr), "not an expression node");
  ExprMutator mutator;
  EXPECT_DEATH((void)mutator.rewriteExpr(Expr(&notExpr)), "not an expression node");
#endif
}

} // namespace
