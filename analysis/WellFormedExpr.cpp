//===- analysis/WellFormedExpr.cpp - The verifier on expressions ------------===//
//
// The expression and struct-info half of the verifier's walk: scoping of
// var and symbolic var uses, normal form, call checks (purity, FNormalize,
// FValidate, call_tir, re-inference) and If scoping.
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormedCallTIR.h"
#include "analysis/WellFormedImpl.h"

#include "ir/Printer.h"
#include "ir/StructInfoAnalysis.h"

using namespace graft;
using namespace graft::wellformed;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

void Verifier::visitExpr(const ExprNode *e) {
  if (!e->sinfo && !llvm::isa<OpNode>(e))
    reportHere(RankForm, std::string(kindName(e)) + " in " + bindingDesc() + " has no struct info");
  switch (e->getKind()) {
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    visitVarUse(llvm::cast<VarNode>(e));
    return;
  case NodeKind::GlobalVar:
    visitGlobalVar(llvm::cast<GlobalVarNode>(e));
    return;
  case NodeKind::ShapeExpr:
    visitShapeExpr(llvm::cast<ShapeExprNode>(e));
    return;
  case NodeKind::PrimValue:
    if (const PrimExprNode *v = llvm::cast<PrimValueNode>(e)->value.get())
      visitPrim(v, /*isDef=*/false);
    return;
  case NodeKind::Tuple: {
    const auto *t = llvm::cast<TupleNode>(e);
    for (size_t i = 0; i < t->fields.size(); ++i)
      visitLeafOrTuple(t->fields[i], "tuple field", i);
    return;
  }
  case NodeKind::TupleGetItem: {
    const auto *t = llvm::cast<TupleGetItemNode>(e);
    if (t->index < 0)
      reportHere(RankForm, "TupleGetItem index " + std::to_string(t->index) + " in " +
                               bindingDesc() + " is negative");
    visitLeafOrTuple(t->tuple, "the tuple of a TupleGetItem", ~size_t(0));
    return;
  }
  case NodeKind::Call:
    visitCall(llvm::cast<CallNode>(e));
    return;
  case NodeKind::If:
    visitIf(llvm::cast<IfNode>(e));
    return;
  case NodeKind::SeqExpr:
    reportHere(RankForm, "a SeqExpr appears in " + bindingDesc() +
                             "; a SeqExpr may only be a function body or an If branch");
    return;
  case NodeKind::Function:
    // Only a binding value may be a function (handled there); anywhere else
    // it is not in ANF, which the enclosing position reports.
    visitFunction(llvm::cast<FunctionNode>(e), nullptr);
    return;
  default: // Constant, StringImm, DataTypeImm, ExternFunc, Op.
    return;
  }
}

/// Rules 14 and 15: a nested position must hold a leaf or tuple.
void Verifier::visitLeafOrTuple(const Expr &e, const char *what, size_t index) {
  if (e && isLeafOrTuple(e.get())) {
    visitExpr(e.get());
    return;
  }
  std::string pos = index == ~size_t(0) ? std::string(what) : what + (" " + std::to_string(index));
  if (!e)
    reportHere(RankForm, pos + " in " + bindingDesc() + " is null");
  else
    reportHere(RankForm, pos + " in " + bindingDesc() + " is " + kindName(e.get()) +
                             ", not a leaf or tuple (bind it to a var first)");
}

/// Rules 6 and 9.
void Verifier::visitVarUse(const VarNode *var) {
  if (var->isDataflow()) {
    if (!inDataflow_) {
      if (once(var, OnceDataflowOutside))
        reportHere(RankScope, "DataflowVar " + quoted(var->name) +
                                  " is used outside a dataflow block" + inFn());
      else
        ++scopeErrors_;
    } else if (!dataflowDefined_.contains(var->id)) {
      if (once(var, OnceUndefDataflowVar))
        reportHere(RankScope, "DataflowVar " + quoted(var->name) + " is used" + inFn() +
                                  " but not defined in its dataflow block");
      else
        ++scopeErrors_;
    }
    return;
  }
  if (defined_.contains(var->id) || recursive_.contains(var->id))
    return;
  if (once(var, OnceUndefVar))
    reportHere(RankScope, "var " + quoted(var->name) + " is used" + inFn() + " but not defined");
  else
    ++scopeErrors_;
}

/// Rules 2 and 3.
void Verifier::visitGlobalVar(const GlobalVarNode *gv) {
  const ModuleEntry *entry = mod_.lookup(gv->name);
  if (!entry) {
    if (once(gv, OnceGlobalVar))
      reportHere(RankScope, "GlobalVar " + quoted(gv->name) + " is used" + inFn() +
                                " but not defined in the module");
  } else if (entry->gvar.get() != gv) {
    if (once(gv, OnceGlobalVar))
      reportHere(RankScope, "GlobalVar " + quoted(gv->name) + " used" + inFn() +
                                " is not the module's GlobalVar of that name");
  }
  if (gv->sinfo && !llvm::isa<FuncSInfoNode>(gv->sinfo.get()) && once(gv, OnceGlobalVarSInfo))
    reportHere(RankScope, "GlobalVar " + quoted(gv->name) + " has struct info " +
                              printStructInfo(gv->sinfo.get()) +
                              " but must have function struct info (R.Callable)");
}

/// Rule 17, and the symbolic vars of the values as uses.
void Verifier::visitShapeExpr(const ShapeExprNode *shape) {
  for (const PrimExpr &v : shape->values) {
    if (!v) {
      reportHere(RankForm, "a shape in " + bindingDesc() + " has a null value");
      continue;
    }
    visitPrim(v.get(), /*isDef=*/false);
    if (!v->dtype.isInt())
      reportHere(RankForm, "shape value " + toString(v.get()) + " in " + bindingDesc() +
                               " has dtype " + v->dtype.str() + ", not an integer type");
  }
}

void Verifier::visitCall(const CallNode *call) {
  size_t errorsBefore = scopeErrors_;
  // Op-specific hooks and inference may read every argument's struct info;
  // a call lacking one (already reported) is not handed to them.
  bool complete = call->op != nullptr;
  for (const Expr &arg : call->args)
    complete = complete && arg && arg->sinfo;
  if (!call->op)
    reportHere(RankForm, "a call in " + bindingDesc() + " has no callee");
  else if (!isLeafOrTuple(call->op.get()))
    reportHere(RankForm, "the callee of a call in " + bindingDesc() + " is " +
                             kindName(call->op.get()) +
                             ", not a leaf or tuple (bind it to a var first)");
  else
    visitExpr(call->op.get());
  for (size_t i = 0; i < call->args.size(); ++i)
    visitLeafOrTuple(call->args[i], "argument", i);
  for (const StructInfo &s : call->sinfoArgs)
    if (s)
      visitSInfo(s.get(), /*isDef=*/false);
  if (call->sinfo)
    visitSInfoUse(call->sinfo.get());
  if (!complete)
    return;

  if (opts_.checkStructInfo && isImpureCall(*call)) {
    if (inDataflow_)
      reportHere(RankOp, "impure call in a dataflow block: " + calleeText(call->op.get()) + " (" +
                             bindingDesc() + ")");
    bool selfCall = call->op.get() == (frame_->fn == top_ ? static_cast<const ExprNode *>(topGVar_)
                                                          : frame_->selfVar);
    if (!frame_->impureCall && !selfCall) {
      frame_->impureCall = call;
      frame_->impureBinding = binding_;
    }
  }
  const OpInfo *info = call->opInfo();
  if (info && !info->unknown)
    checkCallOp(call, info);
  // A call whose arguments are undefined would only repeat that fault.
  if (opts_.checkStructInfo && call->sinfo && scopeErrors_ == errorsBefore)
    checkCallSInfo(call, info);
}

/// Rules 24 and 25.
void Verifier::checkCallOp(const CallNode *call, const OpInfo *info) {
  if (!info->normalize && !info->validate && !isCallTIRFamily(info))
    return;
  std::string op = "R." + info->scriptName().str();
  if (info->normalize) {
    Expr normalized = info->normalize(*call);
    if (normalized.get() != call)
      reportHere(RankOp, "call to " + op + " in " + bindingDesc() +
                             " is not in normal form: it normalizes to " +
                             (normalized ? printExpr(normalized.get()) : std::string("nothing")));
  }
  if (isCallTIRFamily(info)) {
    // TVM's FNormalize of these ops writes the argument tuple inline; the
    // registry may not carry that hook, so the verifier checks it here.
    if (!info->normalize && call->args.size() >= 2 && call->args[1] &&
        !llvm::isa<TupleNode>(call->args[1].get()))
      reportHere(RankOp, "the arguments of " + op + " in " + bindingDesc() +
                             " must be a tuple written inline, e.g. " + op +
                             "(f, (x, y), ...), not " + printExpr(call->args[1].get()));
    std::string err = checkCallTIR(*call, mod_);
    if (!err.empty())
      reportHere(RankOp, err + " (" + bindingDesc() + ")");
    return;
  }
  if (info->validate)
    if (llvm::Error err = info->validate(*call, &mod_))
      reportHere(RankOp,
                 op + " in " + bindingDesc() + " is invalid: " + llvm::toString(std::move(err)));
}

/// Rule 26: re-inferring must succeed and must not contradict the stored
/// struct info (only a kFailL0 result does). Unknown ops, and ops without an
/// inference, are opaque.
void Verifier::checkCallSInfo(const CallNode *call, const OpInfo *info) {
  if (info && (info->unknown || !info->infer))
    return;
  if (cache_ && cache_->contains(call)) {
    cache_->insert(call);
    return;
  }
  llvm::Expected<StructInfo> inferred = inferCallSInfo(*call, inferCtx_);
  if (!inferred) {
    reportHere(RankSInfo, "struct info of the call to " + calleeText(call->op.get()) + " in " +
                              bindingDesc() +
                              " cannot be inferred: " + llvm::toString(inferred.takeError()));
    return;
  }
  if (*inferred && structInfoBaseCheck(call->sinfo.get(), inferred->get()) == BaseCheck::FailL0) {
    std::string name = binding_ && binding_->var ? quoted(binding_->var->name) : "the call";
    reportHere(RankSInfo, "struct info of " + name + inFn() +
                              " contradicts the inferred struct info: annotated " +
                              printStructInfo(call->sinfo.get()) + ", inferred " +
                              printStructInfo(inferred->get()));
    return;
  }
  if (cache_)
    cache_->insert(call);
}

/// Rules 11, 15 (condition) and 20.
void Verifier::visitIf(const IfNode *ifNode) {
  if (inDataflow_)
    reportHere(RankForm, "If inside a dataflow block (" + bindingDesc() + ")");
  visitLeafOrTuple(ifNode->cond, "the condition of an If", ~size_t(0));
  const StructInfoNode *ifSInfo = ifNode->sinfo.get();
  if (!ifNode->thenBranch || !ifNode->elseBranch) {
    reportHere(RankForm, "an If in " + bindingDesc() + " lacks a branch");
    return;
  }
  // Names bound in a branch are invisible after the If (rule 11).
  bool savedDataflow = inDataflow_;
  const BindingNode *enclosing = binding_;
  ScopeMark m = mark();
  visitSeq(ifNode->thenBranch.get());
  restore(m);
  binding_ = enclosing;
  visitSeq(ifNode->elseBranch.get());
  restore(m);
  binding_ = enclosing;
  inDataflow_ = savedDataflow;
  lastSInfoUse_ =
      opts_.checkStructInfo && enclosing && enclosing->var ? enclosing->var->sinfo.get() : nullptr;
  if (ifSInfo)
    visitSInfoUse(ifSInfo);
}

//===----------------------------------------------------------------------===//
// Struct info and symbolic vars
//===----------------------------------------------------------------------===//

/// Walks struct info in definition mode (bare symbolic vars and shape vars
/// become defined) or use mode (rule 8).
void Verifier::visitSInfo(const StructInfoNode *s, bool isDef) {
  switch (s->getKind()) {
  case NodeKind::PrimSInfo:
    if (const PrimExprNode *v = llvm::cast<PrimSInfoNode>(s)->value.get())
      visitPrim(v, isDef);
    return;
  case NodeKind::ShapeSInfo:
    if (const auto &values = llvm::cast<ShapeSInfoNode>(s)->values)
      for (const PrimExpr &v : *values)
        if (v)
          visitPrim(v.get(), isDef);
    return;
  case NodeKind::TensorSInfo: {
    const ExprNode *shape = llvm::cast<TensorSInfoNode>(s)->shape.get();
    if (!shape)
      return;
    if (const auto *se = llvm::dyn_cast<ShapeExprNode>(shape)) {
      for (const PrimExpr &v : se->values)
        if (v)
          visitPrim(v.get(), isDef);
    } else if (const auto *var = llvm::dyn_cast<VarNode>(shape)) {
      // TVM defines a shape var met at a definition site, which then makes
      // the param that declares it "defined twice"; graft neither defines
      // nor checks it there, and checks it at every use site.
      if (!isDef)
        visitVarUse(var);
    }
    return;
  }
  case NodeKind::TupleSInfo:
    for (const StructInfo &f : llvm::cast<TupleSInfoNode>(s)->fields)
      if (f)
        visitSInfo(f.get(), isDef);
    return;
  case NodeKind::FuncSInfo: {
    // Params are definition sites (a callable's own symbolic params).
    const auto *fs = llvm::cast<FuncSInfoNode>(s);
    size_t deferMark = deferredPrims_.size();
    if (fs->params)
      for (const StructInfo &p : *fs->params)
        if (p)
          visitSInfo(p.get(), /*isDef=*/true);
    if (!isDef)
      checkDeferredPrims(deferMark);
    if (fs->ret)
      visitSInfo(fs->ret.get(), isDef);
    return;
  }
  case NodeKind::DTensorSInfo:
    visitSInfo(llvm::cast<DTensorSInfoNode>(s)->tensor.get(), isDef);
    return;
  default: // Object.
    return;
  }
}

void Verifier::visitPrim(const PrimExprNode *e, bool isDef) {
  if (const auto *v = llvm::dyn_cast<TirVarNode>(e)) {
    if (isDef && symDefined_.insert(v->id))
      symLog_.push_back(v);
    useSym(v);
    return;
  }
  if (llvm::isa<IntImmNode>(e) || llvm::isa<FloatImmNode>(e))
    return;
  if (isDef) {
    deferredPrims_.push_back(e);
    return;
  }
  forEachTirVar(e, [this](const TirVarNode *v) { useSym(v); });
}

/// Checks the compound expressions deferred since `mark` (see deferredPrims_).
void Verifier::checkDeferredPrims(size_t mark) {
  for (size_t i = mark; i < deferredPrims_.size(); ++i)
    forEachTirVar(deferredPrims_[i], [this](const TirVarNode *v) { useSym(v); });
  deferredPrims_.resize(mark);
}

/// Rules 5 and 8 for one occurrence of a symbolic var.
void Verifier::useSym(const TirVarNode *v) {
  if (!symDefined_.contains(v->id)) {
    if (once(v, OnceUndefSym))
      reportHere(RankScope,
                 "symbolic var " + quoted(v->name) + " is used" + inFn() + " but not defined");
    else
      ++scopeErrors_;
  }
  Owner &owner = symOwner_[v->id];
  if (!owner.top)
    owner = Owner{top_, topName_};
  else if (owner.top != top_ && once(v, OnceSymShared))
    reportHere(RankScope, "symbolic var " + quoted(v->name) + " is used in both function " +
                              quoted(owner.name) + " and function " + quoted(topName_));
}
