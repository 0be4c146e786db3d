//===- ir/Visitor.h - Walking and rewriting Relax IR ------------*- C++ -*-===//
//
// ExprVisitor walks expressions, bindings and struct info; ExprMutator
// rebuilds them through a BlockBuilder, returning the same node wherever
// nothing changed.
//
// Every definition of a Relax var, whatever its binding kind (function
// parameter, VarBinding, MatchCast), goes through visitVarDef: a pass that
// tracks definitions overrides that one hook and cannot miss a MatchCast
// (TVM #20485 was a pass that did).
//
// Bindings are walked with loops, never by recursion over the binding list,
// so a 100k-binding function costs no stack. Recursion happens only into
// nested expressions (If branches, nested functions, tuples), whose depth the
// parser bounds.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_VISITOR_H
#define GRAFT_IR_VISITOR_H

#include "ir/BlockBuilder.h"
#include "ir/Expr.h"
#include "ir/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

namespace graft {

class ExprVisitor {
public:
  virtual ~ExprVisitor() = default;

  /// Visits every Relax function of the module.
  void visitModule(const IRModule &module);
  /// Dispatches on the node kind.
  void visitExpr(const ExprNode *e);

  // One hook per expression kind. Defaults visit the children.
  virtual void visitVarUse(const VarNode *var) {}
  virtual void visitGlobalVar(const GlobalVarNode *gv) {}
  virtual void visitConstant(const ConstantNode *c) {}
  virtual void visitShapeExpr(const ShapeExprNode *s);
  virtual void visitPrimValue(const PrimValueNode *p);
  virtual void visitStringImm(const StringImmNode *) {}
  virtual void visitDataTypeImm(const DataTypeImmNode *) {}
  virtual void visitTuple(const TupleNode *t);
  virtual void visitTupleGetItem(const TupleGetItemNode *t);
  virtual void visitCall(const CallNode *call);
  virtual void visitIf(const IfNode *ifNode);
  virtual void visitSeqExpr(const SeqExprNode *seq);
  virtual void visitFunction(const FunctionNode *fn);
  virtual void visitExternFunc(const ExternFuncNode *) {}
  virtual void visitOp(const OpNode *) {}

  // Bindings. visitBinding dispatches; the defaults visit the value, then
  // (MatchCast) the cast struct info as a definition site, then the var as
  // a definition. For a Function value the var is defined first, so a
  // recursive local function sees itself.
  virtual void visitBlock(const BindingBlockNode *block);
  void visitBinding(const BindingNode *binding);
  virtual void visitVarBinding(const VarBindingNode *binding);
  virtual void visitMatchCast(const MatchCastNode *binding);
  /// Called for every var definition: params (binding = null), VarBinding
  /// and MatchCast vars.
  virtual void visitVarDef(const VarNode *var, const BindingNode *binding) {}

  /// Struct info and symbolic expressions; off by default (return false
  /// from wantsStructInfo to skip the cost).
  virtual bool wantsStructInfo() const { return false; }
  virtual void visitStructInfo(const StructInfoNode *s, bool isDefinitionSite);
  virtual void visitPrimExpr(const PrimExprNode *e, bool isDefinitionSite) {}
};

class ExprMutator {
public:
  explicit ExprMutator(const IRModule *module = nullptr);
  virtual ~ExprMutator();

  /// Rewrites a function; returns `fn` itself when nothing changed.
  llvm::Expected<Function> rewriteFunction(const Function &fn);

  /// Dispatches on the node kind; the defaults rebuild the node from its
  /// rewritten children (same node when no child changed).
  virtual llvm::Expected<Expr> rewriteExpr(const Expr &e);
  virtual llvm::Expected<Expr> rewriteCall(const CallNode *call);
  virtual llvm::Expected<Expr> rewriteIf(const IfNode *ifNode);
  virtual llvm::Expected<Expr> rewriteSeqExpr(const SeqExprNode *seq);
  virtual llvm::Expected<Expr> rewriteFunctionExpr(const FunctionNode *fn);

  /// Rewrites one binding, emitting zero or more bindings into the builder.
  /// The default rewrites the value, keeps the var when its struct info
  /// still holds, and re-emits (VarBinding or MatchCast alike).
  virtual llvm::Error rewriteBinding(const BindingNode *binding);
  virtual llvm::Error rewriteBlock(const BindingBlockNode *block);
  /// The block rewriteSeqExpr keeps for `original` once its bindings were
  /// rewritten into `rewritten`: the default keeps `rewritten`; a pass that
  /// post-processes whole blocks overrides this instead of rewriteSeqExpr.
  virtual BindingBlock finishBlock(const BindingBlockNode *original, BindingBlock rewritten) {
    (void)original;
    return rewritten;
  }

  /// Uses of a var map through here (after a def was replaced).
  Expr lookupVar(const VarNode *var) const;
  void remapVar(const VarNode *from, Expr to);

  BlockBuilder &builder() { return builder_; }

protected:
  BlockBuilder builder_;
  llvm::DenseMap<const VarNode *, Expr> varRemap_;
};

} // namespace graft

#endif // GRAFT_IR_VISITOR_H
