//===- transforms/CallTIRRewrite.cpp - Destination-passing calls ------------===//
//
// `call-tir-rewrite` (TVM's CallTIRRewrite, TVM `src/relax/transform/call_tir_rewrite.cc` and its
// v0.23 deltas): `R.call_tir`, `R.call_tir_inplace` and `R.call_dps_packed` become explicit
// destination-passing code (`R.call_tir_with_grad` as `R.call_tir`: only TVM's Gradient pass
// reads its gradient attrs). Each output that is not computed in place gets
// `R.builtin.alloc_tensor(R.shape(s), R.dtype(d), R.prim_value(dev), R.str(scope))` (with
// sinfo_args = [the output's struct info]), then the callee runs as `_ = callee(args..., outs...)`,
// or, for a call_tir with `tir_vars` and an inline argument tuple, `_ = R.vm.call_tir_dyn(callee,
// (args..., outs..., tir_vars))`. The call's value becomes the output var,
// the reused argument, or a tuple of them.
//
// The emitted calls write into their outputs, so a function must already be
// out of dataflow form and impure or `relax.force_pure` (checked first).
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Printer.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

static constexpr const char *kPassName = "call-tir-rewrite";

namespace {

bool isDPSCall(const ExprNode *e) {
  return asCallTo(e, ops::callTIR()) || asCallTo(e, ops::callTIRInplace()) ||
         asCallTo(e, ops::callTIRWithGrad()) || asCallTo(e, ops::callDPSPacked());
}

class DPSRewriter : public ExprMutator {
public:
  explicit DPSRewriter(const IRModule *module) : ExprMutator(module), module_(module) {}

  int64_t rewritten = 0;
  int64_t allocs = 0;

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteCall(call);
    if (!out || !isDPSCall(out->get()))
      return out;
    return lower(*llvm::cast<CallNode>(out->get()));
  }

private:
  /// The device index of a tensor's vdevice in the module's list (0 when it
  /// has none, as v0.23 does for tuple fields and a module without vdevices).
  int64_t deviceIndex(const VDeviceNode *vdevice) const {
    if (!vdevice || !module_)
      return 0;
    std::vector<VDevice> all = module_->vdevices();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].get() == vdevice)
        return static_cast<int64_t>(i);
    return 0;
  }

  llvm::Expected<Expr> emitAlloc(const StructInfo &sinfo, const CallNode &call) {
    const auto *t = llvm::dyn_cast<TensorSInfoNode>(sinfo.get());
    if (!t)
      return diagError(call.loc, "call_tir expects Tuple of TensorStructInfo, got " +
                                     printStructInfo(sinfo.get()));
    const std::vector<PrimExpr> *dims = t->shapeValues();
    if (!dims)
      return diagError(call.loc, "the output struct info " + printStructInfo(sinfo.get()) +
                                     " of a DPS call needs a known shape");
    std::string scope = t->vdevice ? t->vdevice->memoryScope : "global";
    Expr alloc = make<CallNode>(ops::builtinAllocTensor(),
                                std::vector<Expr>{shapeExpr(*dims), dataTypeImm(t->dtype),
                                                  primValueInt(deviceIndex(t->vdevice.get())),
                                                  stringImm(scope)},
                                nullptr, std::vector<StructInfo>{sinfo});
    ++allocs;
    llvm::Expected<Var> var = builder_.emit(std::move(alloc), "alloc", call.loc);
    if (!var)
      return var.takeError();
    return Expr(std::move(*var));
  }

  /// Output struct infos: one tensor, or the fields of a tuple.
  llvm::Expected<std::vector<StructInfo>> outputSInfos(const CallNode &call) {
    if (call.sinfoArgs.size() != 1)
      return diagError(call.loc, "a DPS call needs exactly one output struct info");
    const StructInfo &s = call.sinfoArgs[0];
    if (const auto *tuple = llvm::dyn_cast<TupleSInfoNode>(s.get()))
      return tuple->fields;
    return std::vector<StructInfo>{s};
  }

  llvm::Expected<Expr> lower(const CallNode &call) {
    llvm::Expected<std::vector<StructInfo>> sinfos = outputSInfos(call);
    if (!sinfos)
      return sinfos.takeError();
    bool multi = llvm::isa<TupleSInfoNode>(call.sinfoArgs[0].get());
    const TupleNode *argTuple =
        call.args.size() > 1 ? llvm::dyn_cast<TupleNode>(call.args[1].get()) : nullptr;
    std::vector<Expr> args;
    if (argTuple)
      args = argTuple->fields;
    else if (call.args.size() > 1)
      args.push_back(call.args[1]);

    std::vector<int64_t> inplace;
    if (asCallTo(&call, ops::callTIRInplace()) && call.attrs)
      if (const AttrValue *v = call.attrs->lookup("inplace_indices"))
        for (const AttrValue &i : v->getArray())
          inplace.push_back(i.getInt());

    std::vector<Expr> outs, fresh;
    for (size_t i = 0; i < sinfos->size(); ++i) {
      int64_t reuse = i < inplace.size() ? inplace[i] : -1;
      if (reuse >= 0 && argTuple && static_cast<size_t>(reuse) < args.size()) {
        outs.push_back(args[reuse]);
        continue;
      }
      llvm::Expected<Expr> alloc = emitAlloc((*sinfos)[i], call);
      if (!alloc)
        return alloc.takeError();
      outs.push_back(*alloc);
      fresh.push_back(*alloc);
    }

    args.insert(args.end(), fresh.begin(), fresh.end());
    bool dyn = (asCallTo(&call, ops::callTIR()) || asCallTo(&call, ops::callTIRWithGrad())) &&
               call.args.size() > 2 && argTuple;
    Expr kernelCall;
    if (dyn) {
      args.push_back(call.args[2]);
      kernelCall = make<CallNode>(ops::vmCallTIRDyn(),
                                  std::vector<Expr>{call.args[0], tupleExpr(std::move(args))});
    } else {
      kernelCall = make<CallNode>(call.args[0], std::move(args));
    }
    if (llvm::Expected<Var> v =
            builder_.emit(withLoc(std::move(kernelCall), call.loc), "_", call.loc);
        !v)
      return v.takeError();
    ++rewritten;
    if (!multi)
      return outs[0];
    return builder_.normalize(tupleExpr(std::move(outs)));
  }

  const IRModule *module_;
};

class CallTIRRewritePass : public FunctionPass {
public:
  CallTIRRewritePass() : FunctionPass(kPassName) {}

  PassStatistic calls{this, "calls", "DPS calls rewritten"};
  PassStatistic allocs{this, "allocs", "output tensors allocated"};

  llvm::Error checkPreconditions(const IRModule &module) override {
    return checkImpureLoweringSites(module, kPassName,
                                    [](const CallNode &call) { return isDPSCall(&call); });
  }

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    DPSRewriter rewriter(&module());
    llvm::Expected<Function> out = rewriter.rewriteFunction(fn);
    if (!out || out->get() == fn.get())
      return out;
    calls += rewriter.rewritten;
    if (rewriter.allocs)
      allocs += rewriter.allocs;
    return out;
  }
};

} // namespace

void graft::registerCallTIRRewritePass() {
  PassInfo info;
  info.alias = "CallTIRRewrite";
  info.summary = "Lowers call_tir, call_tir_inplace and call_dps_packed to explicit output "
                 "allocation and a direct (or vm.call_tir_dyn) call";
  info.preconditions = "DPS calls outside dataflow blocks, in functions that are impure "
                       "or relax.force_pure (to-non-dataflow, remove-purity-checking)";
  registerPass<CallTIRRewritePass>(std::move(info));
}
