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
// Both dispatches are generated from ir/NodeKinds.def: every expression kind
// there names its visit and rewrite hook, so a kind without a hook does not
// compile, and a kind outside the list stops the process (reportCorruptNode, in every
// build type) instead of being skipped. To find the nodes of one kind, ir/Walk.h's walk<NodeT>
// needs no subclass.
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

  /// Dispatches on the node kind to the hook ir/NodeKinds.def names. The
  /// defaults rebuild the node from its rewritten children (the same node
  /// when no child changed); leaves without children return themselves.
  virtual llvm::Expected<Expr> rewriteExpr(const Expr &e);
  virtual llvm::Expected<Expr> rewriteVarUse(const VarNode *var) { return lookupVar(var); }
  virtual llvm::Expected<Expr> rewriteConstant(const ConstantNode *c) { return Expr(c); }
  virtual llvm::Expected<Expr> rewriteShapeExpr(const ShapeExprNode *s);
  virtual llvm::Expected<Expr> rewritePrimValue(const PrimValueNode *p);
  virtual llvm::Expected<Expr> rewriteStringImm(const StringImmNode *s) { return Expr(s); }
  virtual llvm::Expected<Expr> rewriteDataTypeImm(const DataTypeImmNode *d) { return Expr(d); }
  virtual llvm::Expected<Expr> rewriteTuple(const TupleNode *t);
  virtual llvm::Expected<Expr> rewriteTupleGetItem(const TupleGetItemNode *t);
  virtual llvm::Expected<Expr> rewriteCall(const CallNode *call);
  virtual llvm::Expected<Expr> rewriteIf(const IfNode *ifNode);
  virtual llvm::Expected<Expr> rewriteSeqExpr(const SeqExprNode *seq);
  virtual llvm::Expected<Expr> rewriteFunctionExpr(const FunctionNode *fn);
  virtual llvm::Expected<Expr> rewriteExternFunc(const ExternFuncNode *f) { return Expr(f); }
  virtual llvm::Expected<Expr> rewriteGlobalVar(const GlobalVarNode *gv) { return Expr(gv); }
  virtual llvm::Expected<Expr> rewriteOp(const OpNode *op) { return Expr(op); }

  /// Rewrites one binding, emitting zero or more bindings into the builder.
  /// The default rewrites the value and the var's struct info; the var keeps
  /// its identity while its (rewritten) struct info still describes the new
  /// value, else a fresh var replaces it and its uses (VarBinding or
  /// MatchCast alike).
  virtual llvm::Error rewriteBinding(const BindingNode *binding);
  virtual llvm::Error rewriteBlock(const BindingBlockNode *block);
  /// The block rewriteSeqExpr keeps for `original` once its bindings were
  /// rewritten into `rewritten`: the default keeps `rewritten`; a pass that
  /// post-processes whole blocks overrides this instead of rewriteSeqExpr.
  virtual BindingBlock finishBlock(const BindingBlockNode *original, BindingBlock rewritten) {
    (void)original;
    return rewritten;
  }

  /// A var definition (param or binding var) whose struct info is rewritten:
  /// `var` itself when the struct info is unchanged, else a fresh var of the
  /// same name and kind with the new struct info, remapped from `var`.
  Var rewriteVarDef(const Var &var);

  /// Struct info and symbolic expressions. The defaults substitute remapped
  /// Relax vars (a tensor's shape var) and remapped TirVars, rebuilding only
  /// what changed (and simplifying it, as substitutePrim does).
  virtual StructInfo rewriteStructInfo(const StructInfo &s);
  virtual PrimExpr rewritePrimExpr(const PrimExpr &e);

  /// Uses of a var map through here (after a def was replaced).
  Expr lookupVar(const VarNode *var) const;
  void remapVar(const VarNode *from, Expr to);
  /// Replaces a symbolic var everywhere below: in PrimValues, ShapeExprs and
  /// every struct info the mutator rebuilds (params, binding vars, call
  /// sinfo_args, return annotations).
  void remapTirVar(const TirVarNode *from, PrimExpr to);

  BlockBuilder &builder() { return builder_; }

protected:
  BlockBuilder builder_;
  llvm::DenseMap<const VarNode *, Expr> varRemap_;
  llvm::DenseMap<const TirVarNode *, PrimExpr> tirVarRemap_;
};

} // namespace graft

#endif // GRAFT_IR_VISITOR_H
