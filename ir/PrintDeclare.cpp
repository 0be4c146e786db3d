//===- ir/PrintDeclare.cpp - What printing a function body would declare ----===//
//
// A top-level function's preamble (`cls = Module`, `k = T.int64()` for TIR
// vars the body uses before anything defines them) comes before its body
// and lists what the body uses, in order of first use. declareBody finds it
// without printing: it walks the body in the order the printer prints it
// (ir/Printer.cpp, ir/PrintExpr.cpp, ir/PrintStructInfo.cpp) and does at
// each place what printing does besides writing text: it declares TIR vars
// and `cls` and, when asked to, names the vars. The body then prints
// straight into the output, after the preamble.
//
// Names are claimed on first sight, so the order in which the body meets
// its vars decides a preamble var's name (`k` against `k_1`, when a Relax
// var `k` comes first). A preamble of TIR vars therefore needs the body
// named ahead, all of it, as printing would; without one (nearly every large
// function) the walk only looks for `cls` and TIR vars, and the printing
// names the vars as it goes.
//
// Every visit mirrors a print function; a change to the order in which one
// of those prints its parts must change the matching case here.
//
//===----------------------------------------------------------------------===//

#include "ir/Op.h"
#include "ir/PrintImpl.h"

#include <algorithm>

using namespace graft;
using namespace graft::printer;

namespace {

DeclItem item(DeclItem::Kind kind, const void *node, uint32_t index = 0) {
  return {kind, index, node};
}

} // namespace

void ScriptPrinter::declareCls() {
  if (clsDeclared_)
    return;
  clsDeclared_ = true;
  preamble_.push_back(nullptr);
}

void ScriptPrinter::declareBody(const FunctionNode &fn) {
  size_t mark = preamble_.size();
  bool clsBefore = clsDeclared_;
  walkBody(fn, /*naming=*/false);
  if (std::none_of(preamble_.begin() + mark, preamble_.end(),
                   [](const TirVarNode *v) { return v != nullptr; }))
    return;
  // The preamble names TIR vars: undo the walk and walk again, naming.
  for (size_t i = mark; i < preamble_.size(); ++i)
    if (preamble_[i])
      tirVars_.erase(preamble_[i]);
  preamble_.resize(mark);
  clsDeclared_ = clsBefore;
  walkBody(fn, /*naming=*/true);
  bodyNamed_ = true;
}

void ScriptPrinter::walkBody(const FunctionNode &fn, bool naming) {
  declNaming_ = naming;
  std::fill(std::begin(seenSInfo_), std::end(seenSInfo_), nullptr);
  declStack_.clear();
  declStack_.push_back(item(DeclItem::FunctionBody, &fn));
  while (!declStack_.empty()) {
    DeclItem next = declStack_.back();
    declStack_.pop_back();
    declChildren_.clear();
    declareItem(next);
    // The children run next, first one first.
    declStack_.insert(declStack_.end(), declChildren_.rbegin(), declChildren_.rend());
  }
}

void ScriptPrinter::declareItem(const DeclItem &it) {
  auto add = [this](DeclItem::Kind kind, const void *node, uint32_t index = 0) {
    if (node)
      declChildren_.push_back(item(kind, node, index));
  };
  switch (it.kind) {
  case DeclItem::FunctionBody: { // printFunctionBody
    const auto &fn = *static_cast<const FunctionNode *>(it.node);
    if (fn.body) {
      add(DeclItem::Blocks, fn.body.get(), 0);
      add(DeclItem::Expr, fn.body->body.get());
    }
    return;
  }
  case DeclItem::Blocks: { // printSeqBlocks
    const auto &seq = *static_cast<const SeqExprNode *>(it.node);
    if (it.index >= seq.blocks.size())
      return;
    const BindingBlockNode *block = seq.blocks[it.index].get();
    if (block && !block->bindings.empty())
      add(DeclItem::Bindings, block, 0);
    add(DeclItem::Blocks, &seq, it.index + 1);
    return;
  }
  case DeclItem::Bindings: { // printBlock; its R.output names only vars named already
    const auto &block = *static_cast<const BindingBlockNode *>(it.node);
    size_t n = block.bindings.size();
    for (size_t i = it.index; i < n; ++i) {
      // The name set is probed at random once per new name: ask for the
      // slot of a binding a few ahead.
      if (declNaming_ && i + 8 < n)
        if (const BindingNode *ahead = block.bindings[i + 8].get(); ahead && ahead->var)
          names_.prefetch(ahead->var->name);
      const BindingNode &b = *block.bindings[i];
      if (declareSimpleBinding(b))
        continue;
      declareBinding(b);
      if (i + 1 < n)
        add(DeclItem::Bindings, &block, static_cast<uint32_t>(i + 1));
      return;
    }
    return;
  }
  case DeclItem::Name:
    if (declNaming_) {
      const auto *v = static_cast<const VarNode *>(it.node);
      names_.nameOf(v, v->name);
    }
    return;
  case DeclItem::Expr:
    declareExpr(static_cast<const ExprNode *>(it.node));
    return;
  case DeclItem::SInfo:
    declareSInfo(static_cast<const StructInfoNode *>(it.node));
    return;
  case DeclItem::Prim: { // printPrim: its vars in pre-order, left to right
    const auto *e = static_cast<const PrimExprNode *>(it.node);
    switch (e->getKind()) {
    case NodeKind::TirVar: {
      const auto *v = llvm::cast<TirVarNode>(e);
      if (declNaming_)
        declareTirVar(v);
      else
        noteTirVar(v);
      return;
    }
    case NodeKind::PrimBinary: {
      const auto *b = llvm::cast<PrimBinaryNode>(e);
      add(DeclItem::Prim, b->a.get());
      add(DeclItem::Prim, b->b.get());
      return;
    }
    case NodeKind::PrimNot:
      add(DeclItem::Prim, llvm::cast<PrimNotNode>(e)->a.get());
      return;
    case NodeKind::PrimCast:
      add(DeclItem::Prim, llvm::cast<PrimCastNode>(e)->value.get());
      return;
    case NodeKind::PrimSelect: {
      const auto *s = llvm::cast<PrimSelectNode>(e);
      add(DeclItem::Prim, s->cond.get());
      add(DeclItem::Prim, s->trueValue.get());
      add(DeclItem::Prim, s->falseValue.get());
      return;
    }
    default:
      return;
    }
  }
  case DeclItem::Attr: { // printAttrValue; an IndexMap prints its own names
    const auto &v = *static_cast<const AttrValue *>(it.node);
    switch (v.kind()) {
    case AttrValue::Kind::Prim:
      add(DeclItem::Prim, v.getPrim().get());
      return;
    case AttrValue::Kind::Array:
      for (const AttrValue &e : v.getArray())
        add(DeclItem::Attr, &e);
      return;
    case AttrValue::Kind::Dict:
      for (const auto &entry : v.getDict())
        add(DeclItem::Attr, &entry.second);
      return;
    case AttrValue::Kind::SInfo:
      add(DeclItem::SInfo, v.getSInfo());
      return;
    default:
      return;
    }
  }
  }
}

void ScriptPrinter::declareBinding(const BindingNode &b) {
  auto add = [this](DeclItem::Kind kind, const void *node) {
    if (node)
      declChildren_.push_back(item(kind, node));
  };
  const ExprNode *value = b.value.get();
  if (llvm::isa<VarBindingNode>(&b)) {
    if (const auto *fn = llvm::dyn_cast_or_null<FunctionNode>(value)) {
      // printNestedFunction: the name, the signature (params, then the
      // return), the attrs, the body.
      if (declNaming_)
        names_.nameOf(b.var.get(), b.var->name);
      for (const Var &p : fn->params) {
        add(DeclItem::Name, p.get());
        add(DeclItem::SInfo, p->sinfo.get());
      }
      const StructInfoNode *ret = fn->retSInfo.get();
      if (!ret)
        if (const auto *fs = llvm::dyn_cast_or_null<FuncSInfoNode>(fn->sinfo.get()))
          ret = fs->ret.get();
      add(DeclItem::SInfo, ret);
      if (fn->attrs)
        for (const auto &entry : fn->attrs->entries)
          add(DeclItem::Attr, &entry.second);
      add(DeclItem::FunctionBody, fn);
      return;
    }
    if (const auto *ifNode = llvm::dyn_cast_or_null<IfNode>(value)) {
      // printIf: the outer name first, the condition, then each branch's
      // blocks and the value it yields (printBranch).
      if (declNaming_)
        names_.nameOf(b.var.get(), b.var->name);
      add(DeclItem::Expr, ifNode->cond.get());
      for (const SeqExprNode *branch : {ifNode->thenBranch.get(), ifNode->elseBranch.get()}) {
        if (!branch)
          continue;
        add(DeclItem::Blocks, branch);
        add(DeclItem::SInfo, b.var->sinfo.get());
        add(DeclItem::Expr, branch->body.get());
      }
      return;
    }
  }
  // printBinding
  if (printsBare(b)) {
    add(DeclItem::Expr, value);
    return;
  }
  const VarNode *var = b.var.get();
  if (var && declNaming_)
    names_.nameOf(var, var->name);
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(&b)) {
    add(DeclItem::SInfo, mc->castSInfo.get());
    add(DeclItem::Expr, value);
    return;
  }
  add(DeclItem::SInfo, shownAnnotation(var, value));
  add(DeclItem::Expr, value);
}

bool ScriptPrinter::declareSimpleBinding(const BindingNode &b) {
  // The usual binding, `v: <annotation met before> = R.op(vars...)`, in
  // place; anything else goes through the work list.
  const VarNode *var = b.var.get();
  const auto *call = llvm::dyn_cast_or_null<CallNode>(b.value.get());
  if (!var || !call || !llvm::isa<VarBindingNode>(&b) || call->attrs || !call->sinfoArgs.empty())
    return false;
  const OpInfo *info = call->opInfo();
  // printGenericOp prints every arg in order (so does printHintOnDevice's
  // fallback without attrs); the other forms pick and reorder them.
  if (!info || info->textForm == TextForm::CallTIR || info->textForm == TextForm::CallTIRInplace ||
      info->textForm == TextForm::CallDPSPacked || info->textForm == TextForm::PrintOrAssert)
    return false;
  for (const Expr &a : call->args)
    if (!llvm::isa_and_nonnull<VarNode>(a.get()))
      return false;
  const StructInfoNode *ann = var->sinfo.get(); // shownAnnotation of a non-DPS call
  bool annSeen = !ann || seenSInfo_[seenSlot(ann)] == ann;
  if (!declNaming_ && annSeen)
    return true; // Printed bare or not, it declares nothing.
  bool bare = printsBare(b);
  if (!bare && !annSeen)
    return false;
  if (declNaming_) {
    if (!bare)
      names_.nameOf(var, var->name);
    for (const Expr &a : call->args) {
      const auto *v = llvm::cast<VarNode>(a.get());
      names_.nameOf(v, v->name);
    }
  }
  return true;
}

void ScriptPrinter::declareExpr(const ExprNode *e) {
  auto add = [this](DeclItem::Kind kind, const void *node) {
    if (node)
      declChildren_.push_back(item(kind, node));
  };
  switch (e->getKind()) { // printExpr
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    if (declNaming_) {
      const auto *v = llvm::cast<VarNode>(e);
      names_.nameOf(v, v->name);
    }
    return;
  case NodeKind::Constant: {
    const auto &c = *llvm::cast<ConstantNode>(e);
    if (const auto *dist = llvm::dyn_cast_or_null<DTensorSInfoNode>(c.sinfo.get()))
      if (constantPrintsData(c))
        add(DeclItem::SInfo, dist);
    return;
  }
  case NodeKind::ShapeExpr:
    for (const PrimExpr &v : llvm::cast<ShapeExprNode>(e)->values)
      add(DeclItem::Prim, v.get());
    return;
  case NodeKind::PrimValue:
    add(DeclItem::Prim, llvm::cast<PrimValueNode>(e)->value.get());
    return;
  case NodeKind::Tuple:
    for (const Expr &f : llvm::cast<TupleNode>(e)->fields)
      add(DeclItem::Expr, f.get());
    return;
  case NodeKind::TupleGetItem:
    add(DeclItem::Expr, llvm::cast<TupleGetItemNode>(e)->tuple.get());
    return;
  case NodeKind::Call:
    declareCall(*llvm::cast<CallNode>(e));
    return;
  case NodeKind::ExternFunc: {
    const auto *ext = llvm::cast<ExternFuncNode>(e);
    if (!hasDefaultSInfo(*ext))
      add(DeclItem::SInfo, ext->sinfo.get());
    return;
  }
  case NodeKind::GlobalVar:
    declareCls();
    return;
  case NodeKind::SeqExpr:
    add(DeclItem::Expr, llvm::cast<SeqExprNode>(e)->body.get());
    return;
  case NodeKind::If:
    add(DeclItem::Expr, llvm::cast<IfNode>(e)->cond.get());
    return;
  default: // Functions print as `R.function(...)`; literals and ops name nothing.
    return;
  }
}

void ScriptPrinter::declareCall(const CallNode &c) {
  auto add = [this](DeclItem::Kind kind, const void *node) {
    if (node)
      declChildren_.push_back(item(kind, node));
  };
  auto addArgs = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end && i < c.args.size(); ++i)
      add(DeclItem::Expr, c.args[i].get());
  };
  auto addAttrs = [&] {
    if (c.attrs)
      for (const auto &entry : c.attrs->entries)
        add(DeclItem::Attr, &entry.second);
  };
  auto addSInfoArgs = [&] {
    for (const StructInfo &s : c.sinfoArgs)
      add(DeclItem::SInfo, s.get());
  };
  const OpInfo *info = c.opInfo();
  if (!info) { // printCall
    const auto *ext = llvm::dyn_cast_or_null<ExternFuncNode>(c.op.get());
    if (!ext || !hasDefaultSInfo(*ext))
      add(DeclItem::Expr, c.op.get());
    addArgs(0, c.args.size());
    addAttrs();
    if (ext)
      addSInfoArgs();
    return;
  }
  switch (info->textForm) {
  case TextForm::CallTIR:
  case TextForm::CallTIRInplace:
  case TextForm::CallDPSPacked: // printCallTIR
    addArgs(0, 2);
    if (!c.sinfoArgs.empty())
      add(DeclItem::SInfo, c.sinfoArgs[0].get());
    addAttrs();
    addArgs(2, 3);
    return;
  case TextForm::PrintOrAssert: { // printPrintOrAssert: the format last
    size_t formatIndex = info->name == "relax.assert_op" ? 1 : 0;
    for (size_t i = 0; i < c.args.size(); ++i)
      if (i != formatIndex)
        add(DeclItem::Expr, c.args[i].get());
    addArgs(formatIndex, formatIndex + 1);
    return;
  }
  case TextForm::HintOnDevice: { // printHintOnDevice, unless it falls back
    const AttrValue *type = c.attrs ? c.attrs->lookup("device_type") : nullptr;
    const AttrValue *index = c.attrs ? c.attrs->lookup("index") : nullptr;
    if (type && index && c.args.size() == 1) {
      addArgs(0, 1);
      add(DeclItem::Attr, type);
      add(DeclItem::Attr, index);
      add(DeclItem::Attr, c.attrs->lookup("memory_scope"));
      return;
    }
    break;
  }
  default:
    break;
  }
  // printGenericOp: the args in order, the attrs in schema order, then the
  // rest as written, then sinfo_args.
  addArgs(0, c.args.size());
  if (c.attrs) {
    const AttrDict &entries = c.attrs->entries;
    llvm::SmallVector<bool, 8> done(entries.size(), false);
    for (const OpParam &p : info->params) {
      if (p.kind != ParamKind::Attr)
        continue;
      for (size_t i = 0; i < entries.size(); ++i) {
        if (done[i] || entries[i].first != p.name)
          continue;
        done[i] = true;
        add(DeclItem::Attr, &entries[i].second);
        break;
      }
    }
    for (size_t i = 0; i < entries.size(); ++i)
      if (!done[i])
        add(DeclItem::Attr, &entries[i].second);
  }
  addSInfoArgs();
}

void ScriptPrinter::declareSInfo(const StructInfoNode *s) {
  const StructInfoNode *&seen = seenSInfo_[seenSlot(s)];
  if (seen == s)
    return;
  seen = s;
  auto add = [this](DeclItem::Kind kind, const void *node) {
    if (node)
      declChildren_.push_back(item(kind, node));
  };
  auto addTensor =
      [&](const TensorSInfoNode &t) { // printTensorSInfo's and printDTensorSInfo's dims
        if (const std::vector<PrimExpr> *dims = t.shapeValues()) {
          for (const PrimExpr &d : *dims)
            add(DeclItem::Prim, d.get());
        } else {
          add(DeclItem::Expr, t.shape.get());
        }
      };
  switch (s->getKind()) { // printSInfo
  case NodeKind::PrimSInfo:
    add(DeclItem::Prim, llvm::cast<PrimSInfoNode>(s)->value.get());
    return;
  case NodeKind::ShapeSInfo:
    if (const auto &values = llvm::cast<ShapeSInfoNode>(s)->values)
      for (const PrimExpr &v : *values)
        add(DeclItem::Prim, v.get());
    return;
  case NodeKind::TensorSInfo:
    addTensor(*llvm::cast<TensorSInfoNode>(s));
    return;
  case NodeKind::TupleSInfo:
    for (const StructInfo &f : llvm::cast<TupleSInfoNode>(s)->fields)
      add(DeclItem::SInfo, f.get());
    return;
  case NodeKind::FuncSInfo: {
    // printFuncSInfo leaves out only a return that is Object, which names
    // nothing.
    const auto *f = llvm::cast<FuncSInfoNode>(s);
    if (f->params)
      for (const StructInfo &p : *f->params)
        add(DeclItem::SInfo, p.get());
    add(DeclItem::SInfo, f->ret.get());
    return;
  }
  case NodeKind::DTensorSInfo:
    addTensor(*llvm::cast<DTensorSInfoNode>(s)->tensor);
    return;
  default:
    return;
  }
}
