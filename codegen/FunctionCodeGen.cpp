//===- codegen/FunctionCodeGen.cpp - One Relax function to bytecode -------===//

#include "codegen/FunctionCodeGen.h"

#include "analysis/RegisterlessBindings.h"
#include "codegen/Constants.h"
#include "codegen/ParamTable.h"
#include "ir/Diagnostics.h"

using namespace graft;
using namespace graft::codegen;
using vm::Arg;

FunctionCodeGen::FunctionCodeGen(ModuleContext &ctx, const FunctionNode &fn, std::string name)
    : ctx_(ctx), b_(ctx.builder), fn_(fn), name_(std::move(name)), regs_(fn) {}

llvm::Error FunctionCodeGen::error(llvm::SMLoc loc, const llvm::Twine &message) const {
  return diagError(loc.isValid() ? loc : fn_.loc,
                   "codegen: function '" + name_ + "': " + message.str());
}

llvm::Error FunctionCodeGen::run() {
  std::vector<std::string> names;
  for (size_t i = 0; i < fn_.params.size(); ++i) {
    names.push_back(fn_.params[i]->name);
    vars_[fn_.params[i].get()] = Arg::reg(static_cast<int64_t>(i));
  }
  b_.beginFunction(name_, names, paramTable(fn_, ctx_.options.defaultDevice));
  LinearWalk walk(fn_);
  WalkEvent event;
  while (walk.next(event)) {
    if (auto err = emitEvent(event))
      return err;
    regs_.endEvent();
  }
  b_.endFunction();
  return llvm::Error::success();
}

llvm::Error FunctionCodeGen::emitEvent(const WalkEvent &event) {
  loc_ = event.binding ? event.binding->loc : fn_.loc;
  switch (event.kind) {
  case WalkEvent::Binding:
    return emitBinding(*event.binding);
  case WalkEvent::IfBegin:
    return emitIfBegin(*event.binding);
  case WalkEvent::BranchEnd:
    return emitBranchEnd(event);
  case WalkEvent::IfEnd:
    emitIfEnd(*event.binding);
    return llvm::Error::success();
  case WalkEvent::FunctionEnd:
    return emitReturn(*event.result);
  }
  return llvm::Error::success();
}

// Bindings -------------------------------------------------------------------

llvm::Error FunctionCodeGen::emitBinding(const BindingNode &binding) {
  const VarNode &var = *binding.var;
  const ExprNode &value = *binding.value;
  // A match_cast is its value here: vm-shape-lower emitted its checks.
  if (const RegisterlessRow *row = registerlessRowFor(&value)) {
    switch (row->kind) {
    case RegisterlessKind::NullValue:
      vars_[&var] = Arg::reg(vm::kVoidRegister);
      return llvm::Error::success();
    case RegisterlessKind::VoidCall: {
      auto r = emitCall(llvm::cast<CallNode>(value), var);
      if (!r)
        return r.takeError();
      vars_[&var] = Arg::reg(vm::kVoidRegister);
      return llvm::Error::success();
    }
    case RegisterlessKind::Function:
      return error(binding.loc, "local function '" + var.name +
                                    "' must be lambda-lifted before code generation");
    default: {
      auto a = atom(value);
      if (!a)
        return a.takeError();
      vars_[&var] = *a;
      return llvm::Error::success();
    }
    }
  }
  if (const auto *call = llvm::dyn_cast<CallNode>(&value)) {
    auto r = emitCall(*call, var);
    if (!r)
      return r.takeError();
    vars_[&var] = *r;
    return llvm::Error::success();
  }
  // Everything else builds a new value; nothing reads an unread var's value.
  int64_t dst = regs_.isRead(&var) ? regs_.allocateFor(&var) : vm::kVoidRegister;
  vars_[&var] = Arg::reg(dst);
  if (const auto *t = llvm::dyn_cast<TupleNode>(&value))
    return emitTuple(*t, dst).takeError();
  if (const auto *get = llvm::dyn_cast<TupleGetItemNode>(&value)) {
    auto tuple = leaf(*get->tuple);
    if (!tuple)
      return tuple.takeError();
    b_.emitCall("vm.builtin.tuple_getitem", {*tuple, Arg::imm(get->index)}, dst);
    return llvm::Error::success();
  }
  if (llvm::isa<VarNode>(&value)) {
    // One register per var-to-var binding, so a kill of one name never
    // clears another (TVM's CodeGenVM).
    auto src = leaf(value);
    if (!src)
      return src.takeError();
    if (dst != vm::kVoidRegister)
      b_.emitCall("vm.builtin.copy", {*src}, dst);
    return llvm::Error::success();
  }
  return error(binding.loc, "cannot generate code for the value of '" + var.name + "'");
}

// If -------------------------------------------------------------------------

llvm::Error FunctionCodeGen::emitIfBegin(const BindingNode &binding) {
  auto cond = leaf(*ifOf(binding).cond);
  if (!cond)
    return cond.takeError();
  int64_t condReg = regs_.temporary();
  b_.emitCall("vm.builtin.read_if_cond", {*cond}, condReg);
  PendingIf &p = ifs_[&binding];
  // Held across both branches; the if's var owns it afterwards.
  p.resultReg = regs_.allocate();
  p.ifInstr = b_.nextInstr();
  b_.emitIf(condReg, /*placeholder*/ 2);
  return llvm::Error::success();
}

llvm::Error FunctionCodeGen::emitBranchEnd(const WalkEvent &event) {
  PendingIf &p = ifs_[event.binding];
  auto result = leaf(*event.result);
  if (!result)
    return result.takeError();
  b_.emitCall("vm.builtin.copy", {*result}, p.resultReg);
  if (!event.thenBranch)
    return llvm::Error::success();
  p.gotoInstr = b_.nextInstr();
  b_.emitGoto(/*placeholder*/ 1);
  b_.setJumpOffset(p.ifInstr, b_.nextInstr() - p.ifInstr);
  return llvm::Error::success();
}

void FunctionCodeGen::emitIfEnd(const BindingNode &binding) {
  PendingIf p = ifs_.lookup(&binding);
  ifs_.erase(&binding);
  b_.setJumpOffset(p.gotoInstr, b_.nextInstr() - p.gotoInstr);
  regs_.own(binding.var.get(), p.resultReg);
  vars_[binding.var.get()] = Arg::reg(p.resultReg);
}

llvm::Error FunctionCodeGen::emitReturn(const ExprNode &result) {
  auto value = leaf(result);
  if (!value)
    return value.takeError();
  int64_t reg = value->value();
  if (value->kind() != vm::ArgKind::Register) {
    reg = regs_.temporary();
    b_.emitCall("vm.builtin.copy", {*value}, reg);
  }
  b_.emitRet(reg);
  return llvm::Error::success();
}

// Leaves ---------------------------------------------------------------------

/// A leaf that is not a tuple literal: a var, a pool constant, an immediate
/// or a function-table entry.
llvm::Expected<Arg> FunctionCodeGen::atom(const ExprNode &e) {
  if (const auto *v = llvm::dyn_cast<VarNode>(&e)) {
    auto it = vars_.find(v);
    if (it == vars_.end())
      return error(loc_, "var '" + v->name + "' is used before it is defined");
    return it->second;
  }
  auto pooled = [&](llvm::Expected<vm::Value> v) -> llvm::Expected<Arg> {
    if (!v)
      return v.takeError();
    return Arg::constIdx(b_.addConstant(*v));
  };
  if (const auto *c = llvm::dyn_cast<ConstantNode>(&e))
    return pooled(tensorConstant(*c));
  if (const auto *p = llvm::dyn_cast<PrimValueNode>(&e)) {
    auto v = primConstant(*p);
    if (!v)
      return v.takeError();
    return b_.convertConstant(*v);
  }
  if (const auto *s = llvm::dyn_cast<ShapeExprNode>(&e))
    return pooled(shapeConstant(*s));
  if (const auto *s = llvm::dyn_cast<StringImmNode>(&e))
    return pooled(stringConstant(*s));
  if (const auto *d = llvm::dyn_cast<DataTypeImmNode>(&e))
    return pooled(dataTypeConstant(*d));
  if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(&e))
    return ctx_.globalArg(*gv, loc_);
  if (const auto *ext = llvm::dyn_cast<ExternFuncNode>(&e))
    return b_.functionArg(ext->symbol, vm::FuncKind::Packed);
  return error(loc_, "expected a var or a constant as an argument (is the IR normalized?)");
}

/// Builds a tuple literal into `dst`; nested tuple literals go through
/// temporaries, built with a work list.
llvm::Expected<Arg> FunctionCodeGen::emitTuple(const TupleNode &root, int64_t dst) {
  llvm::DenseMap<const TupleNode *, Arg> built;
  llvm::SmallVector<std::pair<const TupleNode *, bool>, 8> work{{&root, false}};
  while (!work.empty()) {
    auto [t, expanded] = work.pop_back_val();
    if (!expanded) {
      work.push_back({t, true});
      for (const Expr &f : t->fields)
        if (const auto *inner = llvm::dyn_cast<TupleNode>(f.get()))
          work.push_back({inner, false});
      continue;
    }
    llvm::SmallVector<Arg, 8> fields;
    for (const Expr &f : t->fields) {
      if (const auto *inner = llvm::dyn_cast<TupleNode>(f.get())) {
        fields.push_back(built.lookup(inner));
        continue;
      }
      auto a = atom(*f);
      if (!a)
        return a.takeError();
      fields.push_back(*a);
    }
    int64_t reg = t == &root ? dst : regs_.temporary();
    b_.emitCall("vm.builtin.make_tuple", fields, reg);
    built[t] = Arg::reg(reg);
  }
  return built.lookup(&root);
}

llvm::Expected<Arg> FunctionCodeGen::leaf(const ExprNode &e) {
  if (const auto *t = llvm::dyn_cast<TupleNode>(&e))
    return emitTuple(*t, regs_.temporary());
  return atom(e);
}

llvm::Error FunctionCodeGen::leaves(llvm::ArrayRef<Expr> exprs, llvm::SmallVectorImpl<Arg> &out) {
  for (const Expr &e : exprs) {
    auto a = leaf(*e);
    if (!a)
      return a.takeError();
    out.push_back(*a);
  }
  return llvm::Error::success();
}
