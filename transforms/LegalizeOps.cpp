//===- transforms/LegalizeOps.cpp - High-level ops to kernel calls ----------===//
//
// `legalize-ops` (TVM's LegalizeOps, lowering to graft's kernel library
// instead of generated TIR): every call of a computational op becomes
//
//   R.call_dps_packed("graft.<op>", (inputs..., attrs...), out_sinfo=...)
//
// with the kernel's attributes as R.prim_value / R.shape / R.str / R.dtype
// arguments in the order of the kernel's attrNames, an unset one as a bound
// `R.null_value()` (ir/OpKernels.h says where each comes from). A call whose
// output size depends on data (bool-mask index_tensor, nonzero, unique)
// becomes
//
//   R.call_pure_packed("graft.host.<kernel>", inputs..., attrs...,
//                      sinfo_args=(sinfo,))
//
// which returns fresh tensors (a tuple of them for unique's several
// outputs): the runtime counts on the host, allocates, then fills, so no
// output exists before the call (rewrite-cuda-graph ends a capture region
// at every graft.host.* call).
//
// Calls of runtime ops (call forms, memory/vm/builtin ops, shape ops) stay;
// an identity (the gradient checkpoint markers) becomes its argument.
// A computational op without a kernel, an R.Prim operand, an output without
// a known shape and dtype, a dtype outside the kernel's dtype rule (the
// op -> kernel table's `dtypes`) or an attribute value the kernel does not
// take (its `unsupported`) is a precondition failure naming the op and
// the binding; nothing changes then.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Diagnostics.h"
#include "ir/IndexMap.h"
#include "ir/OpKernels.h"
#include "ir/Printer.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace graft;

static constexpr const char *kPassName = "legalize-ops";

namespace {

bool isAllocatableTensor(const StructInfoNode *s) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s);
  return t && t->shapeValues() && !t->dtype.isVoid();
}

/// A tensor, or a flat tuple of tensors (split), each with a shape and a
/// dtype, so call-tir-rewrite can allocate it (it rejects nested tuples).
bool isAllocatable(const StructInfoNode *s) {
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(s);
  if (!tuple)
    return isAllocatableTensor(s);
  return llvm::all_of(tuple->fields,
                      [](const StructInfo &f) { return isAllocatableTensor(f.get()); });
}

class Legalizer : public ExprMutator {
public:
  Legalizer(const IRModule *module, llvm::StringRef function)
      : ExprMutator(module), function_(function) {}

  int64_t lowered = 0;
  int64_t hostCalls = 0;

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const BindingNode *outer = binding_;
    binding_ = binding;
    llvm::Error err = ExprMutator::rewriteBinding(binding);
    binding_ = outer;
    return err;
  }

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteCall(call);
    if (!out)
      return out;
    const auto *c = llvm::cast<CallNode>(out->get());
    const OpInfo *info = c->opInfo();
    if (!info || isRuntimeOp(*info))
      return out;
    const OpKernel *kernel = lookupOpKernel(*info);
    if (!kernel && isCallTo(*c, ops::callPyFunc()))
      return pyFuncError(*c, call->loc);
    if (!kernel)
      return failure(*c, "a kernel for every op", "has none");
    if (kernel->forward)
      return c->args[0];
    if (kernel->unsupported) {
      std::string why = kernel->unsupported(*c);
      if (!why.empty())
        return failure(*c, "attributes its kernel takes", why);
    }
    bool host = readsOnHost(*c) || kernel->symbol.empty();
    if (host && kernel->hostSymbol.empty())
      return failure(*c, "a kernel for every op", "reads data on the host and has no host kernel");
    if (!host && !isAllocatable(c->sinfo.get()))
      return failure(*c, "outputs of a known shape and dtype",
                     "has output " + printStructInfo(c->sinfo.get()));
    if (llvm::Error err = checkDTypes(*c, *kernel))
      return err;
    return host ? lowerHost(*c, *kernel) : lowerDPS(*c, *kernel);
  }

private:
  /// The kernel's dtype rule (ir/OpKernels.h), checked here so that a dtype
  /// the kernel would refuse at run time fails the build instead.
  llvm::Error checkDTypes(const CallNode &call, const OpKernel &kernel) const {
    std::optional<DTypeRefusal> refusal = findDTypeRefusal(call, kernel);
    if (!refusal)
      return llvm::Error::success();
    const DTypeCheck &check = *refusal->check;
    std::string subject =
        check.param.empty() ? std::string("output") : "argument '" + check.param.str() + "'";
    std::string condition;
    if (!check.attr.empty())
      condition = " when " + check.attr.str() + " is " + llvm::join(check.attrValues, " or ");
    llvm::StringRef symbol = kernel.symbol.empty() ? kernel.hostSymbol : kernel.symbol;
    return failure(call, "dtypes its kernel takes",
                   "has " + subject + " of dtype " + refusal->dtype.str() + ", but " + symbol +
                       " takes only " + describeDTypeClasses(check.takes) + " dtypes there" +
                       condition);
  }

  /// `pass legalize-ops needs WHAT: R.op in binding 'v' of function 'f' WHY`.
  llvm::Error failure(const CallNode &call, llvm::StringRef what, const llvm::Twine &why) const {
    std::string where = "R." + call.opInfo()->scriptName().str();
    if (binding_)
      where += " in binding '" + binding_->var->name + "'";
    where += " of function '" + function_ + "'";
    return needsError(kPassName, what + ": " + where + " " + why);
  }

  /// R.call_py_func calls a function of the IRModule's Python functions,
  /// which only TVM's Python runtime has: an error at the call.
  llvm::Error pyFuncError(const CallNode &call, llvm::SMLoc loc) const {
    std::string where = "R.call_py_func";
    if (binding_)
      where += " in binding '" + binding_->var->name + "'";
    where += " of function '" + function_ + "'";
    std::string name;
    if (const auto *s = llvm::dyn_cast<StringImmNode>(call.args[0].get()))
      name = " '" + s->value + "'";
    if (!loc.isValid() && binding_)
      loc = binding_->loc;
    return diagError(loc, "pass " + std::string(kPassName) + " cannot lower " + where +
                              ": it calls the Python function" + name +
                              ", which graft cannot run (TVM runs it from the IRModule's "
                              "Python functions; graft builds have no Python)");
  }

  /// The kernel's tensor inputs: the arguments of the listed params, a tuple
  /// argument field by field.
  llvm::Error collectInputs(const CallNode &call, const OpKernel &kernel,
                            std::vector<Expr> &inputs) {
    size_t first = inputs.size();
    for (llvm::StringRef param : kernel.inputs) {
      int i = paramArgIndex(*call.opInfo(), param);
      if (i < 0 || static_cast<size_t>(i) >= call.args.size())
        continue;
      const Expr &arg = call.args[i];
      if (const auto *tuple = llvm::dyn_cast<TupleNode>(arg.get())) {
        inputs.insert(inputs.end(), tuple->fields.begin(), tuple->fields.end());
        continue;
      }
      if (const auto *ts = llvm::dyn_cast_or_null<TupleSInfoNode>(arg->sinfo.get())) {
        for (size_t f = 0; f < ts->fields.size(); ++f) {
          llvm::Expected<Var> item =
              builder_.emit(make<TupleGetItemNode>(arg, static_cast<int>(f)), "", call.loc);
          if (!item)
            return item.takeError();
          inputs.push_back(*item);
        }
        continue;
      }
      inputs.push_back(arg);
    }
    for (size_t i = first; i < inputs.size(); ++i)
      if (!llvm::isa_and_nonnull<TensorSInfoNode>(inputs[i]->sinfo.get()))
        return failure(call, "tensor operands",
                       "has an operand of struct info " + printStructInfo(inputs[i]->sinfo.get()) +
                           " (kernels take tensors only)");
    return llvm::Error::success();
  }

  /// `R.null_value()`, bound: the value of an unset kernel attribute.
  llvm::Expected<Expr> none(const CallNode &call) {
    llvm::Expected<Var> v =
        builder_.emit(make<CallNode>(ops::nullValue(), std::vector<Expr>{}), "none", call.loc);
    if (!v)
      return v.takeError();
    return Expr(*v);
  }

  llvm::Expected<Expr> attrExpr(const CallNode &call, const AttrValue &value) {
    switch (value.kind()) {
    case AttrValue::Kind::None:
      return none(call);
    case AttrValue::Kind::Bool:
      return primValue(boolImm(value.getBool()));
    case AttrValue::Kind::Int:
      return primValueInt(value.getInt());
    case AttrValue::Kind::Float:
      return primValue(floatImm(value.getFloat()));
    case AttrValue::Kind::String:
      return stringImm(value.getString());
    case AttrValue::Kind::DType:
      return dataTypeImm(value.getDType());
    case AttrValue::Kind::Prim:
      return primValue(value.getPrim());
    case AttrValue::Kind::Array: {
      std::vector<PrimExpr> dims;
      for (const AttrValue &v : value.getArray()) {
        if (v.kind() != AttrValue::Kind::Int)
          return failure(call, "integer lists as list attributes",
                         "has a list attribute of " + std::string("other values"));
        dims.push_back(intImm(v.getInt()));
      }
      return shapeExpr(std::move(dims));
    }
    case AttrValue::Kind::IndexMap: {
      std::vector<int64_t> program;
      std::string why = indexMapProgram(*value.getIndexMap(), program);
      if (!why.empty())
        return failure(call, "attributes its kernel takes", "has an index map that " + why);
      std::vector<PrimExpr> dims;
      for (int64_t v : program)
        dims.push_back(intImm(v));
      return shapeExpr(std::move(dims));
    }
    default:
      return failure(call, "attributes a kernel can take", "has an attribute of another kind");
    }
  }

  /// An argument used as a kernel attribute: a tuple of prim values becomes
  /// an R.shape (the runtime reads both as an int list); others stay.
  llvm::Expected<Expr> argAttrExpr(const CallNode &call, llvm::StringRef param) {
    int i = paramArgIndex(*call.opInfo(), param);
    if (i < 0 || static_cast<size_t>(i) >= call.args.size())
      return none(call);
    const Expr &arg = call.args[i];
    const auto *tuple = llvm::dyn_cast<TupleNode>(arg.get());
    if (!tuple)
      return arg;
    std::vector<PrimExpr> dims;
    for (const Expr &f : tuple->fields) {
      const auto *pv = llvm::dyn_cast<PrimValueNode>(f.get());
      if (!pv || !pv->value->dtype.isInt())
        return arg;
      dims.push_back(pv->value);
    }
    return shapeExpr(std::move(dims));
  }

  llvm::Error collectAttrs(const CallNode &call, const OpKernel &kernel, std::vector<Expr> &out) {
    for (const KernelAttr &a : kernel.attrs) {
      llvm::Expected<Expr> e = [&]() -> llvm::Expected<Expr> {
        switch (a.source) {
        case KernelAttr::Source::OpAttr: {
          const AttrValue *v = call.attrs ? call.attrs->lookup(a.from) : nullptr;
          return v ? attrExpr(call, *v) : none(call);
        }
        case KernelAttr::Source::OpArg:
          return argAttrExpr(call, a.from);
        case KernelAttr::Source::OutDType:
          return dataTypeImm(llvm::cast<TensorSInfoNode>(call.sinfo.get())->dtype);
        case KernelAttr::Source::Constant:
          return attrExpr(call, a.value);
        }
        return none(call);
      }();
      if (!e)
        return e.takeError();
      out.push_back(std::move(*e));
    }
    return llvm::Error::success();
  }

  llvm::Expected<Expr> lowerDPS(const CallNode &call, const OpKernel &kernel) {
    std::vector<Expr> args;
    if (llvm::Error err = collectInputs(call, kernel, args))
      return err;
    if (llvm::Error err = collectAttrs(call, kernel, args))
      return err;
    ++lowered;
    // A one-field tuple result (split into one section) is lowered as the
    // tensor, then wrapped: `out_sinfo=[T]` prints and parses back as a
    // single tensor, as in TVM, so the call itself must not yield the tuple.
    const auto *tuple = llvm::dyn_cast<TupleSInfoNode>(call.sinfo.get());
    StructInfo out = tuple && tuple->fields.size() == 1 ? tuple->fields[0] : call.sinfo;
    Expr dps = makeAt<CallNode>(
        call.loc, ops::callDPSPacked(),
        std::vector<Expr>{make<ExternFuncNode>(kernel.symbol), tupleExpr(std::move(args))}, nullptr,
        std::vector<StructInfo>{out});
    if (out.get() == call.sinfo.get())
      return builder_.normalize(std::move(dps));
    llvm::Expected<Var> field = builder_.emit(std::move(dps), "", call.loc);
    if (!field)
      return field.takeError();
    return builder_.normalize(tupleExpr({Expr(*field)}));
  }

  llvm::Expected<Expr> lowerHost(const CallNode &call, const OpKernel &kernel) {
    std::vector<Expr> args{make<ExternFuncNode>(kernel.hostSymbol)};
    if (llvm::Error err = collectInputs(call, kernel, args))
      return err;
    if (llvm::Error err = collectAttrs(call, kernel, args))
      return err;
    ++lowered;
    ++hostCalls;
    Expr packed = makeAt<CallNode>(call.loc, ops::callPurePacked(), std::move(args), nullptr,
                                   std::vector<StructInfo>{call.sinfo});
    return builder_.normalize(std::move(packed));
  }

  std::string function_;
  const BindingNode *binding_ = nullptr;
};

class LegalizeOpsPass : public FunctionPass {
public:
  LegalizeOpsPass() : FunctionPass(kPassName) {}

  PassStatistic lowered{this, "lowered", "op calls lowered to kernel calls"};
  PassStatistic hostCalls{this, "host-calls", "of them, graft.host.* calls"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    Legalizer legalizer(&module(), functionName());
    llvm::Expected<Function> out = legalizer.rewriteFunction(fn);
    if (!out || out->get() == fn.get())
      return out;
    lowered += legalizer.lowered;
    if (legalizer.hostCalls)
      hostCalls += legalizer.hostCalls;
    return out;
  }
};

} // namespace

void graft::registerLegalizeOpsPass() {
  PassInfo info;
  info.alias = "LegalizeOps";
  info.summary = "Lowers every op call to a graft kernel: R.call_dps_packed(\"graft.<op>\", "
                 "(inputs..., attrs...)), or R.call_pure_packed(\"graft.host.<op>\") when the "
                 "output size depends on data";
  info.preconditions = "every computational op has a kernel, takes tensor operands of dtypes its "
                       "kernel takes and has outputs of known shape and dtype (exit 2 naming the "
                       "op and binding)";
  registerPass<LegalizeOpsPass>(std::move(info));
}
