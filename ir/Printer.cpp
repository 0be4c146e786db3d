//===- ir/Printer.cpp - Modules, functions and bindings as TVMScript --------===//
//
// Layout follows TVM's printer (see docs/text-format.md for every deliberate
// difference). A top-level function prints as
//
//   @R.function(pure=False, private=True, check_well_formed=False)
//   def name(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(...):
//       n = T.int64(is_size_var=True)  # only a signature var that needs it
//       R.func_attr({...})
//       cls = Module                   # } body-first declarations, in order
//       k = T.int64()                  # } of first use (nested fns included)
//       <blocks>
//       return <expr>
//
// The preamble depends on what the body uses: declareBody
// (ir/PrintDeclare.cpp) finds it, and when needed names the body's vars,
// before the body streams straight to the output.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"

#include "ir/Op.h"
#include "ir/PrintImpl.h"

#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <cassert>

using namespace graft;
using namespace graft::printer;

ScriptPrinter::ScriptPrinter(const IRModule *module, const PrintOptions &opts)
    : module_(module), opts_(opts) {
  names_.reset(module ? llvm::StringRef(module->name) : llvm::StringRef("Module"));
}

namespace {

llvm::raw_ostream &indentTo(llvm::raw_ostream &os, unsigned level) { return os.indent(level * 4); }

void printTirDecl(llvm::raw_ostream &os, llvm::StringRef name, const TirVarNode &v) {
  os << name << " = T." << dtypeSpelling(v.dtype) << '(';
  if (v.isSizeVar)
    os << "is_size_var=True";
  os << ")\n";
}

} // namespace

//===----------------------------------------------------------------------===//
// Uses (for bare expression statements)
//===----------------------------------------------------------------------===//

namespace {

class UseCollector {
public:
  explicit UseCollector(llvm::DenseSet<const VarNode *> &used) : used_(used) {}

  void sinfo(const StructInfoNode *s) {
    if (!s)
      return;
    if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(s)) {
      if (t->shape && !t->shapeValues())
        expr(t->shape.get());
    } else if (const auto *tup = llvm::dyn_cast<TupleSInfoNode>(s)) {
      for (const StructInfo &f : tup->fields)
        sinfo(f.get());
    } else if (const auto *f = llvm::dyn_cast<FuncSInfoNode>(s)) {
      if (f->params)
        for (const StructInfo &p : *f->params)
          sinfo(p.get());
      sinfo(f->ret.get());
    }
  }

  void seq(const SeqExprNode *s) {
    if (!s)
      return;
    for (const BindingBlock &block : s->blocks)
      for (const Binding &b : block->bindings) {
        sinfo(b->var ? b->var->sinfo.get() : nullptr);
        expr(b->value.get());
        if (const auto *mc = llvm::dyn_cast<MatchCastNode>(b.get()))
          sinfo(mc->castSInfo.get());
      }
    expr(s->body.get());
  }

  void expr(const ExprNode *e) {
    if (!e)
      return;
    switch (e->getKind()) {
    case NodeKind::Var:
    case NodeKind::DataflowVar:
      used_.insert(llvm::cast<VarNode>(e));
      return;
    case NodeKind::Tuple:
      for (const Expr &f : llvm::cast<TupleNode>(e)->fields)
        expr(f.get());
      return;
    case NodeKind::TupleGetItem:
      expr(llvm::cast<TupleGetItemNode>(e)->tuple.get());
      return;
    case NodeKind::Call: {
      const auto *c = llvm::cast<CallNode>(e);
      expr(c->op.get());
      for (const Expr &a : c->args)
        expr(a.get());
      for (const StructInfo &s : c->sinfoArgs)
        sinfo(s.get());
      return;
    }
    case NodeKind::If: {
      const auto *i = llvm::cast<IfNode>(e);
      expr(i->cond.get());
      seq(i->thenBranch.get());
      seq(i->elseBranch.get());
      return;
    }
    case NodeKind::SeqExpr:
      seq(llvm::cast<SeqExprNode>(e));
      return;
    case NodeKind::Function: {
      const auto *f = llvm::cast<FunctionNode>(e);
      for (const Var &p : f->params)
        sinfo(p->sinfo.get());
      sinfo(f->retSInfo.get());
      seq(f->body.get());
      return;
    }
    default:
      return;
    }
  }

private:
  llvm::DenseSet<const VarNode *> &used_;
};

} // namespace

void ScriptPrinter::collectUses(const FunctionNode &fn) {
  UseCollector(usedVars_).expr(&fn);
  usesCollected_ = true;
}

//===----------------------------------------------------------------------===//
// Bindings and blocks
//===----------------------------------------------------------------------===//

void ScriptPrinter::endLine(llvm::raw_ostream &os, const BindingNode *b) {
  if (b && b == opts_.highlight)
    os << "  # <-- here";
  os << '\n';
}

bool ScriptPrinter::printsBare(const BindingNode &b) {
  // TVM prints a void binding of a void value as a bare statement, which
  // the parser re-binds to `_`; graft does so only when nothing refers to
  // the var (else the reference would dangle after a re-parse).
  if (!llvm::isa<VarBindingNode>(&b) || !b.var || !b.value)
    return false;
  if (!isVoidSInfo(b.var->sinfo.get()) || !b.value->sinfo || !isVoidSInfo(b.value->sinfo.get()) ||
      !llvm::isa<CallNode>(b.value.get()))
    return false;
  // An op without inference (unknown to the registry) gets its struct info
  // only from the annotation, so a bare statement would not parse again.
  // Likewise a packed call whose struct info is not spelled `sinfo_args=[R.Tuple]`.
  const auto &call = *llvm::cast<CallNode>(b.value.get());
  const OpInfo *info = call.opInfo();
  if (info && (info->unknown || !info->infer))
    return false;
  if (llvm::isa_and_nonnull<ExternFuncNode>(call.op.get()) &&
      (call.sinfoArgs.size() != 1 || !isVoidSInfo(call.sinfoArgs[0].get())))
    return false;
  if (!usesCollected_ && topFunction_)
    collectUses(*topFunction_);
  return !usedVars_.count(b.var.get());
}

const StructInfoNode *ScriptPrinter::shownAnnotation(const VarNode *var, const ExprNode *value) {
  const StructInfoNode *ann = var ? var->sinfo.get() : nullptr;
  // call_tir / call_dps_packed: the annotation is hidden when it is the
  // out_sinfo the call infers anyway.
  if (const auto *call = llvm::dyn_cast_or_null<CallNode>(value))
    if (const OpInfo *info = call->opInfo())
      if ((info->textForm == TextForm::CallTIR || info->textForm == TextForm::CallDPSPacked) &&
          call->sinfoArgs.size() == 1 && sameSInfo(ann, call->sinfoArgs[0].get()))
        return nullptr;
  return ann;
}

void ScriptPrinter::printBinding(llvm::raw_ostream &os, const BindingNode &b, unsigned indent) {
  const ExprNode *value = b.value.get();
  if (llvm::isa<VarBindingNode>(&b)) {
    if (const auto *fn = llvm::dyn_cast_or_null<FunctionNode>(value)) {
      printNestedFunction(os, b, *fn, indent);
      return;
    }
    if (const auto *ifNode = llvm::dyn_cast_or_null<IfNode>(value)) {
      printIf(os, b, *ifNode, indent);
      return;
    }
  }
  indentTo(os, indent);
  if (printsBare(b)) {
    printExpr(os, value);
    endLine(os, &b);
    return;
  }
  const VarNode *var = b.var.get();
  if (var)
    os << names_.nameOf(var, var->name);
  else
    os << '_';
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(&b)) {
    os << ": ";
    printSInfo(os, mc->castSInfo.get());
    os << " = R.match_cast(";
    printExpr(os, value);
    os << ", ";
    printSInfo(os, mc->castSInfo.get());
    os << ')';
    endLine(os, &b);
    return;
  }
  if (const StructInfoNode *ann = shownAnnotation(var, value)) {
    os << ": ";
    printSInfo(os, ann);
  }
  os << " = ";
  printExpr(os, value);
  endLine(os, &b);
}

void ScriptPrinter::printBranch(llvm::raw_ostream &os, const BindingNode &b,
                                const SeqExprNode &branch, unsigned indent) {
  printSeqBlocks(os, branch, indent);
  indentTo(os, indent) << names_.nameOf(b.var.get(), b.var->name);
  if (b.var->sinfo) {
    os << ": ";
    printSInfo(os, b.var->sinfo.get());
  }
  os << " = ";
  printExpr(os, branch.body.get());
  os << '\n';
}

void ScriptPrinter::printIf(llvm::raw_ostream &os, const BindingNode &b, const IfNode &ifNode,
                            unsigned indent) {
  names_.nameOf(b.var.get(), b.var->name); // The outer name wins over branch-local ones.
  indentTo(os, indent) << "if ";
  printExpr(os, ifNode.cond.get());
  os << ':';
  endLine(os, &b);
  if (ifNode.thenBranch)
    printBranch(os, b, *ifNode.thenBranch, indent + 1);
  indentTo(os, indent) << "else:\n";
  if (ifNode.elseBranch)
    printBranch(os, b, *ifNode.elseBranch, indent + 1);
}

void ScriptPrinter::printBlock(llvm::raw_ostream &os, const BindingBlockNode &block,
                               unsigned indent) {
  unsigned inner = block.isDataflow ? indent + 1 : indent;
  if (block.isDataflow)
    indentTo(os, indent) << "with R.dataflow():\n";
  size_t n = block.bindings.size();
  for (size_t i = 0; i < n; ++i) {
    // The name set is probed at random once per new name: ask for the slot
    // of a binding a few ahead (declareBody did, when it named the body).
    if (!bodyNamed_ && i + 8 < n)
      if (const BindingNode *ahead = block.bindings[i + 8].get(); ahead && ahead->var)
        names_.prefetch(ahead->var->name);
    printBinding(os, *block.bindings[i], inner);
  }
  if (!block.isDataflow)
    return;
  indentTo(os, indent + 1) << "R.output(";
  bool first = true;
  for (const Binding &b : block.bindings) {
    const VarNode *v = b->var.get();
    if (!v || v->isDataflow() || printsBare(*b))
      continue;
    os << (first ? "" : ", ") << names_.nameOf(v, v->name);
    first = false;
  }
  os << ")\n";
}

void ScriptPrinter::printSeqBlocks(llvm::raw_ostream &os, const SeqExprNode &seq, unsigned indent) {
  for (const BindingBlock &block : seq.blocks)
    if (block)
      printBlock(os, *block, indent);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void ScriptPrinter::printDecorator(llvm::raw_ostream &os, const FunctionNode &fn, bool topLevel,
                                   unsigned indent) {
  indentTo(os, indent) << "@R.function";
  llvm::SmallVector<llvm::StringRef, 3> args;
  if (!fn.isPure)
    args.push_back("pure=False");
  if (topLevel && fn.globalSymbol().empty())
    args.push_back("private=True");
  if (!fn.checkWellFormed)
    args.push_back("check_well_formed=False");
  if (!args.empty()) {
    os << '(';
    for (size_t i = 0; i < args.size(); ++i)
      os << (i ? ", " : "") << args[i];
    os << ')';
  }
  os << '\n';
}

void ScriptPrinter::printSignature(llvm::raw_ostream &os, const FunctionNode &fn,
                                   llvm::StringRef name) {
  os << "def " << name << '(';
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const VarNode *p = fn.params[i].get();
    os << (i ? ", " : "") << names_.nameOf(p, p->name) << ": ";
    printSInfo(os, p->sinfo.get());
  }
  os << ") -> ";
  const StructInfoNode *ret = fn.retSInfo.get();
  if (!ret)
    if (const auto *fs = llvm::dyn_cast_or_null<FuncSInfoNode>(fn.sinfo.get()))
      ret = fs->ret.get();
  printSInfo(os, ret);
  os << ":\n";
}

void ScriptPrinter::printFuncAttrs(llvm::raw_ostream &os, const FunctionNode &fn,
                                   llvm::StringRef name, bool topLevel, unsigned indent) {
  if (!fn.attrs)
    return;
  AttrDict shown;
  for (const auto &entry : fn.attrs->entries) {
    // At top level the parser re-adds global_symbol = name by itself.
    if (topLevel && entry.first == "global_symbol" &&
        entry.second.kind() == AttrValue::Kind::String && entry.second.getString() == name)
      continue;
    shown.push_back(entry);
  }
  if (shown.empty())
    return;
  indentTo(os, indent) << "R.func_attr(";
  printAttrDict(os, shown);
  os << ")\n";
}

void ScriptPrinter::printFunctionBody(llvm::raw_ostream &os, const FunctionNode &fn,
                                      unsigned indent) {
  if (fn.body)
    printSeqBlocks(os, *fn.body, indent);
  indentTo(os, indent) << "return ";
  printExpr(os, fn.body ? fn.body->body.get() : nullptr);
  os << '\n';
}

void ScriptPrinter::printNestedFunction(llvm::raw_ostream &os, const BindingNode &b,
                                        const FunctionNode &fn, unsigned indent) {
  llvm::StringRef name = names_.nameOf(b.var.get(), b.var->name);
  printDecorator(os, fn, /*topLevel=*/false, indent);
  indentTo(os, indent);
  // Flag the def line; the decorator line carries no binding of its own.
  llvm::SmallString<128> sig;
  llvm::raw_svector_ostream sos(sig);
  printSignature(sos, fn, name);
  sig.pop_back(); // The newline: endLine adds it with the highlight.
  os << sig;
  endLine(os, &b);
  printFuncAttrs(os, fn, name, /*topLevel=*/false, indent + 1);
  printFunctionBody(os, fn, indent + 1);
}

namespace {

/// Room reserved per binding for the printed body: generous (the scale
/// benchmark's lines take 78 bytes, a lowered model's call_tir lines up to
/// about 150), since reserving more than is written costs address space,
/// reserving less a copy of everything written.
constexpr size_t kBytesPerBinding = 128;

/// Gives an unbuffered (or small-buffered) stream a buffer: the body is
/// written in some twenty small pieces per binding, and a string or vector
/// stream would take a virtual call and an append for each; a file stream
/// with a page-sized buffer would make a system call every page.
class BufferedForwardStream : public llvm::raw_ostream {
public:
  explicit BufferedForwardStream(llvm::raw_ostream &out) : out_(out) { SetBufferSize(kSize); }
  ~BufferedForwardStream() override { flush(); }
  static constexpr size_t kSize = 1 << 16;

private:
  void write_impl(const char *ptr, size_t size) override { out_.write(ptr, size); }
  uint64_t current_pos() const override { return out_.tell(); }

  llvm::raw_ostream &out_;
};

} // namespace

void ScriptPrinter::printTopFunction(llvm::raw_ostream &os, const FunctionNode &fn,
                                     llvm::StringRef name, unsigned indent) {
  names_.reset(module_ ? llvm::StringRef(module_->name) : llvm::StringRef("Module"));
  tirVars_.clear();
  preamble_.clear();
  clsDeclared_ = false;
  usedVars_.clear();
  usesCollected_ = false;
  bodyNamed_ = false;
  topFunction_ = &fn;

  printDecorator(os, fn, /*topLevel=*/true, indent);
  indentTo(os, indent);
  inSignature_ = true;
  printSignature(os, fn, name);
  inSignature_ = false;
  // Signature vars that the string form cannot express (size vars, other
  // dtypes) are re-declared; the parser lets that declaration replace the
  // var it made from the string.
  llvm::SmallVector<const TirVarNode *, 4> sigDecls;
  for (const auto &[var, state] : tirVars_)
    if (state == TirState::Signature && (var->isSizeVar || var->dtype != DataType::int64()))
      sigDecls.push_back(var);
  std::sort(sigDecls.begin(), sigDecls.end(), [this](const TirVarNode *a, const TirVarNode *b) {
    return names_.nameOf(a, a->name) < names_.nameOf(b, b->name);
  });
  for (const TirVarNode *v : sigDecls)
    printTirDecl(indentTo(os, indent + 1), names_.nameOf(v, v->name), *v);
  printFuncAttrs(os, fn, name, /*topLevel=*/true, indent + 1);

  size_t bindings = fn.params.size();
  if (fn.body)
    for (const BindingBlock &block : fn.body->blocks)
      bindings += block ? block->bindings.size() : 0;
  names_.reserve(bindings);
  // The preamble lists what the body uses; declareBody finds that (and,
  // for a preamble of TIR vars, names the body's vars as printing would)
  // before the body is printed, so the body streams straight into `os`.
  declareBody(fn);
  for (const TirVarNode *v : preamble_) {
    indentTo(os, indent + 1);
    if (!v)
      os << "cls = " << (module_ ? llvm::StringRef(module_->name) : "Module") << '\n';
    else
      printTirDecl(os, names_.nameOf(v, v->name), *v);
  }
  size_t declared = preamble_.size();
  // Room for the body up front (a string or vector stream; others ignore
  // it): growing a many-megabyte string by doubling would copy it and
  // touch twice its size.
  os.reserveExtraSpace(bindings * kBytesPerBinding);
  if (os.GetBufferSize() >= BufferedForwardStream::kSize) {
    printFunctionBody(os, fn, indent + 1);
  } else {
    BufferedForwardStream bos(os);
    printFunctionBody(bos, fn, indent + 1);
  }
  assert(preamble_.size() == declared && "declareBody missed a declaration of the body");
  (void)declared;
  topFunction_ = nullptr;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

namespace {

/// TVM's order: PrimFuncs, ExternFuncs, Relax functions, each by name, and
/// `main` last.
int entryRank(const ModuleEntry &e) {
  if (e.gvar->name == "main")
    return 3;
  if (e.asPrimFunc())
    return 0;
  if (e.asExtern())
    return 1;
  return 2;
}

} // namespace

void ScriptPrinter::printModule(llvm::raw_ostream &os, const IRModule &m) {
  if (opts_.header)
    os << "# from tvm.script import ir as I\n"
          "# from tvm.script import tir as T\n"
          "# from tvm.script import relax as R\n\n";
  os << "@I.ir_module";
  if (!m.checkWellFormed)
    os << "(check_well_formed=False)";
  os << "\nclass " << m.name << ":\n";
  bool first = true;
  auto separate = [&] {
    if (!first)
      os << '\n';
    first = false;
  };
  if (m.attrs && !m.attrs->empty()) {
    separate();
    os << "    I.module_attrs(";
    printAttrDict(os, m.attrs->entries);
    os << ")\n";
  }
  if (!m.globalInfos.empty()) {
    first = false; // Directly under the module attrs, as TVM prints them.
    os << "    I.module_global_infos({";
    for (size_t k = 0; k < m.globalInfos.size(); ++k) {
      const auto &[key, infos] = m.globalInfos[k];
      os << (k ? ", " : "");
      printQuoted(os, key);
      os << ": [";
      for (size_t i = 0; i < infos.size(); ++i) {
        os << (i ? ", " : "");
        if (const auto *mesh = llvm::dyn_cast_or_null<DeviceMeshNode>(infos[i].get())) {
          printDeviceMesh(os, *mesh, "I.");
          continue;
        }
        const auto *vd = llvm::dyn_cast_or_null<VDeviceNode>(infos[i].get());
        if (!vd) {
          os << "I.dummy_global_info()";
          continue;
        }
        os << "I.vdevice(";
        if (vd->targetConfig.empty())
          printQuoted(os, vd->targetKind);
        else
          printAttrDict(os, vd->targetConfig);
        os << ", " << vd->vdeviceId << ", ";
        printQuoted(os, vd->memoryScope);
        os << ')';
      }
      os << ']';
    }
    os << "})\n";
  }

  std::vector<const ModuleEntry *> order;
  order.reserve(m.entries().size());
  for (const ModuleEntry &e : m.entries())
    order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const ModuleEntry *a, const ModuleEntry *b) {
    int ra = entryRank(*a), rb = entryRank(*b);
    return ra != rb ? ra < rb : a->gvar->name < b->gvar->name;
  });
  for (const ModuleEntry *e : order) {
    separate();
    if (const PrimFuncNode *pf = e->asPrimFunc()) {
      printPrimFunc(os, *pf, e->gvar->name, 1);
    } else if (const ExternFuncNode *ext = e->asExtern()) {
      os << "    " << e->gvar->name << " = R.ExternFunc(";
      printQuoted(os, ext->symbol);
      os << ")\n";
    } else if (const FunctionNode *fn = e->asFunction()) {
      printTopFunction(os, *fn, e->gvar->name, 1);
    }
  }
  if (first)
    os << "    pass\n"; // A class body cannot be empty.
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

void graft::printModule(llvm::raw_ostream &os, const IRModule &module, const PrintOptions &opts) {
  ScriptPrinter(&module, opts).printModule(os, module);
}

std::string graft::printModule(const IRModule &module, const PrintOptions &opts) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printModule(os, module, opts);
  os.flush();
  return out;
}

void graft::printFunction(llvm::raw_ostream &os, const FunctionNode &fn, llvm::StringRef name,
                          const IRModule *module, const PrintOptions &opts) {
  ScriptPrinter(module, opts).printTopFunction(os, fn, name, 0);
}

std::string graft::printStructInfo(const StructInfoNode *s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  ScriptPrinter(nullptr, PrintOptions()).printSInfo(os, s);
  os.flush();
  return out;
}

std::string graft::printExpr(const ExprNode *e) {
  std::string out;
  llvm::raw_string_ostream os(out);
  ScriptPrinter(nullptr, PrintOptions()).printExpr(os, e);
  os.flush();
  return out;
}
