//===- transforms/StageCUDAGraphInputs.cpp - Static copies of activations ---===//
//
// rewrite-cuda-graph captures only what is static: weights (parameters from
// `num_input` on), constants and what is computed from them alone, as TVM's
// `src/relax/transform/rewrite_cuda_graph.cc` defines it. An activation
// input's address changes from call to call, so every kernel that reads it
// stays outside the graphs, and with it the call's first kernel and every
// residual connection. This pass copies each activation input once, at the
// start of the block that reads it, into a tensor of its own:
//
//   x_staged = R.call_dps_packed("graft.reshape", (x,), out_sinfo=<x's>)
//
// and makes the block read the copy. static-plan-block-memory gives the copy
// a storage of constant size (the input's shape at the symbolic vars' upper
// bounds), rewrite-cuda-graph lifts that storage into `cuda_graph_alloc`
// (made once per VM), so the copy is static and everything after it can be
// captured. The copy itself reads `x` and runs before the graph, outside it.
// The input's symbolic vars join `relax.rewrite_cuda_graph.capture_symbolic_vars`:
// each value of them gets a graph of its own (docs/cuda-graphs.md).
//
// An input is staged when all hold: the function has weights (`num_input`
// below the parameter count: else nothing static joins the copy); the input
// is a tensor of known dtype, without a vdevice of its own, whose every dim
// is a constant or a symbolic var with a `tir_var_upper_bound` (else its
// storage has no constant size);
// every read of it lies in one binding block and is a pure call that is not
// an in-place form (a write must reach the caller's tensor), the function's
// result is not the input itself, and something other than a binding of the
// result reads it (those write the caller's storage and are never captured).
// Only with `relax.backend.use_cuda_graph`.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/FreeVars.h"
#include "ir/AttrKeys.h"
#include "ir/Op.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace graft;

static constexpr const char *kPassName = "stage-cuda-graph-inputs";
/// The kernel that copies a compact tensor into another of its shape.
static constexpr const char *kCopyKernel = "graft.reshape";

namespace {

/// The symbolic vars of `param`'s shape when every dim is a constant or a
/// var with an upper bound; None when the input cannot be staged.
llvm::Optional<llvm::SmallVector<const TirVarNode *, 4>>
boundedShapeVars(const VarNode &param, const llvm::StringSet<> &bounded) {
  // A tensor placed on a vdevice of its own (the host, another GPU) keeps
  // it: the copy would land on the default device.
  const auto *tensor = llvm::dyn_cast_or_null<TensorSInfoNode>(param.sinfo.get());
  if (!tensor || tensor->dtype.isVoid() || tensor->vdevice)
    return llvm::None;
  const std::vector<PrimExpr> *dims = tensor->shapeValues();
  if (!dims)
    return llvm::None;
  llvm::SmallVector<const TirVarNode *, 4> vars;
  for (const PrimExpr &d : *dims) {
    if (llvm::isa<IntImmNode>(d.get()))
      continue;
    const auto *v = llvm::dyn_cast<TirVarNode>(d.get());
    if (!v || !bounded.count(v->name))
      return llvm::None;
    vars.push_back(v);
  }
  return vars;
}

/// Whether `binding` only reads its operands: a pure call that is not an
/// in-place form. A write into the input (an in-place call, an impure call)
/// must reach the caller's tensor, not a copy; an alias, a tuple or a
/// branch could carry the input on to such a write.
bool readsWithoutWriting(const BindingNode &binding) {
  const auto *call = llvm::dyn_cast<CallNode>(binding.value.get());
  if (!call || !llvm::isa<VarBindingNode>(binding) || isImpureCall(*call))
    return false;
  return !isCallTo(*call, ops::callTIRInplace()) && !isCallTo(*call, ops::callInplacePacked());
}

/// For each activation input that can be staged, the top-level block that
/// reads it (its index in the body's blocks).
llvm::DenseMap<const VarNode *, size_t> planStaging(const FunctionNode &fn,
                                                    llvm::StringSet<> &captureVars) {
  llvm::DenseMap<const VarNode *, size_t> plan;
  const AttrValue *numInput = fn.attr("num_input");
  if (!numInput || numInput->kind() != AttrValue::Kind::Int || numInput->getInt() < 0 ||
      size_t(numInput->getInt()) >= fn.params.size())
    return plan;
  llvm::StringSet<> bounded;
  if (const AttrValue *upper = fn.attr("tir_var_upper_bound");
      upper && upper->kind() == AttrValue::Kind::Dict)
    for (const auto &[name, value] : upper->getDict())
      if (value.kind() == AttrValue::Kind::Int)
        bounded.insert(name);
  llvm::DenseMap<const VarNode *, llvm::SmallVector<const TirVarNode *, 4>> candidates;
  for (size_t i = 0; i < size_t(numInput->getInt()); ++i)
    if (auto vars = boundedShapeVars(*fn.params[i], bounded))
      candidates[fn.params[i].get()] = std::move(*vars);
  if (candidates.empty())
    return plan;
  // The blocks that read each candidate: more than one, or the result
  // itself, and it is not staged. Nor is it when only the bindings of the
  // result read it: their storage is the caller's, never captured, so the
  // copy would buy nothing.
  const SeqExprNode &body = *fn.body;
  llvm::DenseSet<const VarNode *> results;
  for (const VarNode *v : freeVars(body.body.get()))
    results.insert(v);
  llvm::DenseMap<const VarNode *, size_t> block;
  llvm::DenseSet<const VarNode *> refused(results.begin(), results.end()), worth;
  for (size_t b = 0; b < body.blocks.size(); ++b)
    for (const Binding &binding : body.blocks[b]->bindings)
      for (const VarNode *v : freeVars(binding->value.get())) {
        if (!candidates.count(v))
          continue;
        auto [it, fresh] = block.try_emplace(v, b);
        if ((!fresh && it->second != b) || !readsWithoutWriting(*binding))
          refused.insert(v);
        if (!results.count(binding->var.get()))
          worth.insert(v);
      }
  for (const auto &[param, b] : block) {
    if (refused.count(param) || !worth.count(param))
      continue;
    plan[param] = b;
    for (const TirVarNode *t : candidates[param])
      captureVars.insert(t->name);
  }
  return plan;
}

/// Emits the copies at the start of their blocks and redirects the reads.
class Stager : public ExprMutator {
public:
  Stager(const IRModule *module, const FunctionNode &fn,
         const llvm::DenseMap<const VarNode *, size_t> &plan)
      : ExprMutator(module) {
    // In parameter order, so the copies come out in a stable order.
    for (const Var &p : fn.params)
      if (auto it = plan.find(p.get()); it != plan.end())
        byBlock_[fn.body->blocks[it->second].get()].push_back(p);
  }

  llvm::Error rewriteBlock(const BindingBlockNode *block) override {
    auto it = byBlock_.find(block);
    if (it != byBlock_.end())
      for (const Var &param : it->second) {
        Expr copy =
            make<CallNode>(ops::callDPSPacked(),
                           std::vector<Expr>{make<ExternFuncNode>(kCopyKernel), tupleExpr({param})},
                           nullptr, std::vector<StructInfo>{param->sinfo});
        llvm::Expected<Var> staged = builder_.emit(std::move(copy), param->name + "_staged");
        if (!staged)
          return staged.takeError();
        remapVar(param.get(), *staged);
        ++staged_;
      }
    return ExprMutator::rewriteBlock(block);
  }

  int64_t staged() const { return staged_; }

private:
  llvm::DenseMap<const BindingBlockNode *, std::vector<Var>> byBlock_;
  int64_t staged_ = 0;
};

/// `fn`'s attributes with `names` added to the capture's symbolic vars.
Attrs withCaptureVars(const FunctionNode &fn, const llvm::StringSet<> &names) {
  AttrDict entries;
  AttrArray vars;
  llvm::StringSet<> seen;
  if (fn.attrs)
    for (const auto &entry : fn.attrs->entries) {
      if (entry.first != kCaptureSymbolicVarsAttr) {
        entries.push_back(entry);
        continue;
      }
      if (entry.second.kind() == AttrValue::Kind::Array)
        for (const AttrValue &v : entry.second.getArray())
          if (v.kind() == AttrValue::Kind::String && seen.insert(v.getString()).second)
            vars.push_back(v);
    }
  // Sorted, so the attribute does not depend on the set's order.
  std::vector<std::string> added;
  for (const auto &n : names)
    if (!seen.count(n.getKey()))
      added.push_back(n.getKey().str());
  std::sort(added.begin(), added.end());
  for (std::string &n : added)
    vars.push_back(AttrValue::string(std::move(n)));
  entries.emplace_back(kCaptureSymbolicVarsAttr.str(), AttrValue::array(std::move(vars)));
  return make<AttrsNode>(std::move(entries));
}

class StageCUDAGraphInputsPass : public FunctionPass {
public:
  StageCUDAGraphInputsPass() : FunctionPass(kPassName) {}

  PassStatistic stagedInputs{this, "staged-inputs", "activation inputs copied to static tensors"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    if (!context().configBool(kUseCUDAGraphConfig, false))
      return fn;
    llvm::StringSet<> captureVars;
    llvm::DenseMap<const VarNode *, size_t> plan = planStaging(*fn, captureVars);
    if (plan.empty())
      return fn;
    Stager stager(&module(), *fn, plan);
    llvm::Expected<Function> rewritten = stager.rewriteFunction(fn);
    if (!rewritten)
      return rewritten.takeError();
    const FunctionNode &out = **rewritten;
    stagedInputs += stager.staged();
    if (captureVars.empty())
      return rewritten;
    return make<FunctionNode>(out.params, out.body, out.retSInfo, out.isPure,
                              withCaptureVars(out, captureVars), out.loc, out.checkWellFormed);
  }
};

} // namespace

void graft::registerStageCUDAGraphInputsPass() {
  PassInfo info;
  info.summary = "Copies activation inputs of bounded shape to tensors of their own, so that "
                 "rewrite-cuda-graph can capture what reads them (with CUDA graphs on)";
  info.preconditions = "after legalize-ops, before static-plan-block-memory (the copies are "
                       "kernel calls whose outputs it plans)";
  registerPass<StageCUDAGraphInputsPass>(std::move(info));
}
