//===- analysis/WellFormed.cpp - The IR verifier ----------------------------===//
//
// One walk over the module checks every rule of docs/verifier.md. The walk is
// linear: bindings are visited in loops, scopes (If branches, nested
// functions) are undone through logs of what they defined rather than by
// copying sets, and no string is built unless a rule fails. Violations carry
// a rank (definitions and scoping first, struct-info correctness last) and
// are stably sorted by it, so the root cause of a cascade comes first.
//
// This file: reporting, the module, functions and bindings, and the entry
// points. Expressions and struct info: WellFormedExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormedImpl.h"

#include "ir/AttrKeys.h"
#include "ir/Printer.h"
#include "ir/StructInfoAnalysis.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace graft;
using namespace graft::wellformed;

std::string wellformed::quoted(llvm::StringRef s) { return ("'" + s + "'").str(); }

bool wellformed::isForcePure(const FunctionNode *fn) {
  const AttrValue *v = fn->attr(kForcePureAttr);
  if (!v)
    return false;
  if (v->kind() == AttrValue::Kind::Bool)
    return v->getBool();
  if (v->kind() == AttrValue::Kind::Int)
    return v->getInt() != 0;
  return false;
}

std::string wellformed::calleeText(const ExprNode *op) {
  if (const auto *o = llvm::dyn_cast_or_null<OpNode>(op))
    return ("R." + o->info->scriptName()).str();
  if (const auto *gv = llvm::dyn_cast_or_null<GlobalVarNode>(op))
    return "cls." + gv->name;
  if (const auto *ef = llvm::dyn_cast_or_null<ExternFuncNode>(op))
    return "R.call_packed(\"" + ef->symbol + "\")";
  if (const auto *v = llvm::dyn_cast_or_null<VarNode>(op))
    return quoted(v->name);
  return "a callee";
}

const char *wellformed::kindName(const ExprNode *e) {
  switch (e->getKind()) {
  case NodeKind::Call:
    return "a Call";
  case NodeKind::If:
    return "an If";
  case NodeKind::SeqExpr:
    return "a SeqExpr";
  case NodeKind::Function:
    return "a Function";
  case NodeKind::TupleGetItem:
    return "a TupleGetItem";
  default:
    return "an expression";
  }
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

void Verifier::report(Rank rank, llvm::SMLoc loc, const BindingNode *binding, std::string message,
                      std::vector<DiagNote> notes) {
  if (rank == RankScope)
    ++scopeErrors_;
  Violation v;
  v.loc = loc;
  v.function = topName_.str();
  v.binding = binding;
  v.message = std::move(message);
  v.notes = std::move(notes);
  out_.push_back({rank, std::move(v)});
}

llvm::SMLoc Verifier::hereLoc() const {
  if (!binding_)
    return fnLoc_;
  if (binding_->loc.isValid())
    return binding_->loc;
  if (binding_->value && binding_->value->loc.isValid())
    return binding_->value->loc;
  return {};
}

std::string Verifier::fnDesc() const {
  if (frame_ && frame_->fn != top_) {
    std::string name = frame_->selfVar ? quoted(frame_->selfVar->name) : "";
    return "local function " + (name.empty() ? "" : name + " ") + "in function " + quoted(topName_);
  }
  return "function " + quoted(topName_);
}

std::string Verifier::bindingDesc() const {
  if (binding_ && binding_->var)
    return "binding " + quoted(binding_->var->name) + inFn();
  return "the body of function " + quoted(topName_);
}

//===----------------------------------------------------------------------===//
// Module and functions
//===----------------------------------------------------------------------===//

std::vector<Violation> Verifier::run() {
  if (cache_)
    cache_->begin();
  llvm::DenseSet<const FunctionNode *> seen;
  for (const ModuleEntry &entry : mod_.entries()) {
    checkEntry(entry);
    const FunctionNode *fn = entry.asFunction();
    // A function registered under two names is checked once.
    if (!fn || !seen.insert(fn).second)
      continue;
    top_ = fn;
    topGVar_ = entry.gvar.get();
    topName_ = entry.gvar ? llvm::StringRef(entry.gvar->name) : llvm::StringRef();
    reported_.clear();
    reserveFor(fn);
    visitFunction(fn, nullptr);
  }
  if (cache_)
    cache_->end();
  std::stable_sort(
      out_.begin(), out_.end(),
      [](const RankedViolation &a, const RankedViolation &b) { return a.rank < b.rank; });
  std::vector<Violation> result;
  result.reserve(out_.size());
  for (RankedViolation &rv : out_)
    result.push_back(std::move(rv.v));
  return result;
}

/// Sizes the definition log for the function's top-level bindings up front
/// (the set itself is indexed by DenseId and needs no sizing).
void Verifier::reserveFor(const FunctionNode *fn) {
  if (!fn->body)
    return;
  size_t n = fn->params.size();
  for (const BindingBlock &b : fn->body->blocks)
    if (b)
      n += b->bindings.size();
  definedLog_.reserve(definedLog_.size() + n);
}

/// Rules 1 and 3 for one module entry.
void Verifier::checkEntry(const ModuleEntry &entry) {
  const FunctionNode *fn = entry.asFunction();
  topName_ = entry.gvar ? llvm::StringRef(entry.gvar->name) : llvm::StringRef();
  top_ = fn;
  frame_ = nullptr;
  binding_ = nullptr;
  fnLoc_ = fn ? fn->loc : llvm::SMLoc();
  if (!entry.gvar) {
    report(RankScope, fnLoc_, nullptr, "module entry without a GlobalVar");
    return;
  }
  const StructInfoNode *gs = entry.gvar->sinfo.get();
  if (gs && !llvm::isa<FuncSInfoNode>(gs))
    report(RankScope, fnLoc_, nullptr,
           "GlobalVar " + quoted(topName_) + " has struct info " + printStructInfo(gs) +
               " but must have function struct info (R.Callable)");
  if (!fn)
    return;
  llvm::StringRef symbol = fn->globalSymbol();
  if (!symbol.empty() && symbol != topName_)
    report(RankScope, fnLoc_, nullptr,
           "function " + quoted(topName_) + " has global_symbol " + quoted(symbol) +
               " but is named " + quoted(topName_));
}

void Verifier::visitFunction(const FunctionNode *fn, const VarNode *selfVar) {
  // Save the enclosing position; a function body is a fresh context.
  FnFrame frame{fn, selfVar};
  FnFrame *savedFrame = frame_;
  const BindingNode *savedBinding = binding_;
  llvm::SMLoc savedFnLoc = fnLoc_;
  bool savedDataflow = inDataflow_;
  const StructInfoNode *savedLast = lastSInfoUse_;
  frame_ = &frame;
  binding_ = nullptr;
  if (fn->loc.isValid() || fn == top_)
    fnLoc_ = fn->loc;
  inDataflow_ = false;
  lastSInfoUse_ = nullptr;
  // Symbolic vars never cross a function boundary, and dataflow vars of an
  // enclosing block are not visible inside: a nested function swaps in
  // empty sets (O(1)). A top-level function finds them empty and keeps
  // them, so their pages serve every function of the module.
  bool nested = savedFrame != nullptr;
  DenseIdSet outerSyms;
  std::vector<const TirVarNode *> outerSymLog;
  DenseIdSet outerDataflow;
  std::vector<uint32_t> outerDataflowLog;
  if (nested) {
    symDefined_.swap(outerSyms);
    std::swap(symLog_, outerSymLog);
    dataflowDefined_.swap(outerDataflow);
    std::swap(dataflowLog_, outerDataflowLog);
  }
  size_t varMark = definedLog_.size();
  size_t symMark = symLog_.size();

  // Param struct info defines symbolic vars (all params before any use).
  size_t deferMark = deferredPrims_.size();
  for (const Var &p : fn->params)
    if (p && p->sinfo)
      visitSInfo(p->sinfo.get(), /*isDef=*/true);
  checkDeferredPrims(deferMark);
  bool forcePure = isForcePure(fn);
  if (forcePure && !fn->isPure)
    report(RankScope, fnLoc_, nullptr,
           fnDesc() + " has relax.force_pure=True but is not pure (pure=False); force_pure "
                      "needs a pure function");
  for (const Var &p : fn->params)
    checkParam(p.get());
  if (!fn->retSInfo)
    report(RankForm, fnLoc_, nullptr, fnDesc() + " has no return struct info");
  else
    visitSInfo(fn->retSInfo.get(), /*isDef=*/false);
  if (!fn->body)
    report(RankForm, fnLoc_, nullptr, fnDesc() + " has no body");
  else
    visitSeq(fn->body.get());
  if (opts_.checkStructInfo && fn->isPure && !forcePure)
    checkPurity(frame, forcePure);

  restore({varMark, symMark});
  if (nested) {
    symDefined_.swap(outerSyms);
    std::swap(symLog_, outerSymLog);
    dataflowDefined_.swap(outerDataflow);
    std::swap(dataflowLog_, outerDataflowLog);
  }
  frame_ = savedFrame;
  binding_ = savedBinding;
  fnLoc_ = savedFnLoc;
  inDataflow_ = savedDataflow;
  lastSInfoUse_ = savedLast;
}

/// Rules 4 and 18 for a parameter, then its definition.
void Verifier::checkParam(const VarNode *param) {
  if (!param) {
    report(RankForm, fnLoc_, nullptr, fnDesc() + " has a null parameter");
    return;
  }
  Owner &owner = paramOwner_[param->id];
  if (!owner.top) {
    owner = Owner{top_, topName_};
  } else if (owner.top != top_) {
    llvm::SMLoc loc = param->loc.isValid() ? param->loc : fnLoc_;
    report(RankScope, loc, nullptr,
           "parameter " + quoted(param->name) + " of function " + quoted(topName_) +
               " is already a parameter of function " + quoted(owner.name));
  }
  visitVarDef(param, /*isParam=*/true);
}

/// Rule 22: the first impure call of a pure function (nested functions
/// excluded, recursive self-calls ignored), reported at its def.
void Verifier::checkPurity(const FnFrame &frame, bool forcePure) {
  if (!frame.impureCall)
    return;
  std::string callee = calleeText(frame.impureCall->op.get());
  std::vector<DiagNote> notes;
  const BindingNode *b = frame.impureBinding;
  llvm::SMLoc callLoc = b ? (b->loc.isValid() ? b->loc
                             : b->value       ? b->value->loc
                                              : llvm::SMLoc())
                          : frame.impureCall->loc;
  if (callLoc.isValid())
    notes.push_back({callLoc, "the impure call to " + callee + " is here"});
  report(RankOp, fnLoc_, b,
         "pure " + fnDesc() + " contains an impure call to " + callee +
             " (mark it pure=False, or set relax.force_pure, or use a pure variant such as "
             "R.call_pure_packed)",
         std::move(notes));
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

void Verifier::restore(ScopeMark m) {
  while (definedLog_.size() > m.vars) {
    defined_.erase(definedLog_.back()->id);
    definedLog_.pop_back();
  }
  while (symLog_.size() > m.syms) {
    symDefined_.erase(symLog_.back()->id);
    symLog_.pop_back();
  }
}

/// A function body or an If branch (rule 13 for its body).
void Verifier::visitSeq(const SeqExprNode *seq) {
  const BindingNode *enclosing = binding_;
  for (const BindingBlock &block : seq->blocks) {
    if (!block) {
      reportHere(RankForm, "null binding block" + inFn());
      continue;
    }
    visitBlock(block.get());
  }
  binding_ = enclosing;
  lastSInfoUse_ = nullptr;
  const ExprNode *body = seq->body.get();
  if (!body)
    reportHere(RankForm, "a SeqExpr" + inFn() + " has no body");
  else if (!isLeafOrTuple(body))
    reportHere(RankForm, "the body of a SeqExpr" + inFn() + " is " + kindName(body) +
                             ", not a leaf or tuple (bind it to a var first)");
  else
    visitExpr(body);
  if (!seq->sinfo)
    reportHere(RankForm, "a SeqExpr" + inFn() + " has no struct info");
  else
    visitSInfoUse(seq->sinfo.get());
}

void Verifier::visitBlock(const BindingBlockNode *block) {
  bool savedDataflow = inDataflow_;
  inDataflow_ = block->isDataflow;
  for (const Binding &b : block->bindings) {
    binding_ = b.get();
    if (!b) {
      reportHere(RankForm, "null binding" + inFn());
      continue;
    }
    visitBinding(b.get());
  }
  inDataflow_ = savedDataflow;
  // A DataflowVar is visible only in its own block (rule 9).
  if (block->isDataflow) {
    for (uint32_t id : dataflowLog_)
      dataflowDefined_.erase(id);
    dataflowLog_.clear();
  }
}

void Verifier::visitBinding(const BindingNode *binding) {
  const VarNode *var = binding->var.get();
  const ExprNode *value = binding->value.get();
  lastSInfoUse_ = opts_.checkStructInfo && var ? var->sinfo.get() : nullptr;
  if (!var || !value) {
    reportHere(RankForm, std::string("binding without ") + (var ? "a value" : "a var") + inFn());
    if (var)
      visitVarDef(var, false);
    return;
  }
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding)) {
    visitExpr(value);
    if (mc->castSInfo) {
      size_t deferMark = deferredPrims_.size();
      visitSInfo(mc->castSInfo.get(), /*isDef=*/true);
      checkDeferredPrims(deferMark);
    } else
      reportHere(RankForm, "match_cast of " + quoted(var->name) + inFn() + " has no struct info");
    visitVarDef(var, false);
    return;
  }
  // A local function may call itself through its own var (rule 6).
  if (const auto *fn = llvm::dyn_cast<FunctionNode>(value)) {
    recursive_.insert(var->id);
    visitFunction(fn, var);
    recursive_.erase(var->id);
  } else if (llvm::isa<SeqExprNode>(value)) {
    reportHere(RankForm, "a SeqExpr is bound to " + quoted(var->name) + inFn() +
                             "; a SeqExpr may only be a function body or an If branch");
  } else {
    visitExpr(value);
  }
  visitVarDef(var, false);
  checkBindingSInfo(llvm::cast<VarBindingNode>(binding));
}

/// Rules 7, 10 and 18 at a definition; the var's struct info is a use.
void Verifier::visitVarDef(const VarNode *var, bool isParam) {
  if (!var->sinfo)
    reportHere(RankForm, "var " + quoted(var->name) + inFn() + " has no struct info");
  if (var->isDataflow()) {
    if (!inDataflow_)
      reportHere(RankScope, "DataflowVar " + quoted(var->name) +
                                " is defined outside a dataflow block" + inFn());
    if (dataflowDefined_.insert(var->id))
      dataflowLog_.push_back(var->id);
    else if (once(var, OnceDefinedTwice))
      reportHere(RankScope, "DataflowVar " + quoted(var->name) + " is defined twice" + inFn());
  } else if (defined_.insert(var->id)) {
    definedLog_.push_back(var);
  } else if (once(var, OnceDefinedTwice)) {
    reportHere(RankScope, "var " + quoted(var->name) + " is defined twice" + inFn());
  }
  if (opts_.checkStructInfo && var->sinfo && !isParam)
    visitSInfo(var->sinfo.get(), /*isDef=*/false);
}

/// Rule 27: the value's struct info must be a subtype of the var's.
void Verifier::checkBindingSInfo(const VarBindingNode *binding) {
  if (!opts_.checkStructInfo)
    return;
  const StructInfoNode *varS = binding->var->sinfo.get();
  const StructInfoNode *valS = binding->value->sinfo.get();
  if (!varS || !valS || varS == valS || llvm::isa<ObjectSInfoNode>(varS))
    return;
  if (cache_ && cache_->contains(binding)) {
    cache_->insert(binding);
    return;
  }
  if (isBaseOf(varS, valS)) {
    if (cache_)
      cache_->insert(binding);
    return;
  }
  reportHere(RankSInfo, "value of struct info " + printStructInfo(valS) + " cannot be bound to " +
                            quoted(binding->var->name) + " of struct info " +
                            printStructInfo(varS) + inFn());
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::vector<Violation> graft::verifyModule(const IRModule &module, const VerifyOptions &opts,
                                           VerifyCache *cache) {
  return Verifier(module, opts, cache).run();
}

std::vector<Violation> graft::verifyModule(const IRModule &module, const VerifyOptions &opts) {
  return verifyModule(module, opts, nullptr);
}

llvm::Error graft::toError(const Violation &v, const IRModule &module) {
  std::vector<DiagNote> notes = v.notes;
  if (!v.loc.isValid()) {
    // No source to point at: show the function with the binding marked.
    const ModuleEntry *entry = module.lookup(v.function);
    if (const FunctionNode *fn = entry ? entry->asFunction() : nullptr) {
      std::string text;
      llvm::raw_string_ostream os(text);
      PrintOptions po;
      po.highlight = v.binding;
      po.header = false;
      printFunction(os, *fn, v.function, &module, po);
      os.flush();
      notes.push_back({llvm::SMLoc(), "in function '" + v.function + "':\n" + text});
    }
  }
  return diagError(v.loc, v.message, std::move(notes));
}
