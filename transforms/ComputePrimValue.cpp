//===- transforms/ComputePrimValue.cpp - Host functions for symbolic values -===//
//
// `compute-prim-value` (TVM's ComputePrimValue, TVM `src/relax/transform/` and its v0.23
// delta): the VM can only load an integer immediate or a symbolic var from
// its shape heap, so an `R.prim_value(e)` whose `e` is anything else
// (`N % 16 == 0`, `N * M`, a float) becomes a call to a generated host
// PrimFunc `compute_symbolic_expr(vars...)` returning `e`:
//   cond = cls.compute_symbolic_expr(R.prim_value(N))
// The PrimFunc takes the expression's free vars (first-occurrence order,
// fresh copies) as scalar params, returns e's dtype, carries only
// `{"tir.is_host_func": True}` and is private. Structurally equal functions
// are shared; other ones get numeric suffixes.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace graft;

static constexpr const char *kPassName = "compute-prim-value";
static constexpr const char *kFuncName = "compute_symbolic_expr";

namespace {

bool needsComputing(const PrimExprNode *e) {
  return !llvm::isa<IntImmNode>(e) && !llvm::isa<TirVarNode>(e);
}

/// `e` with its TirVars replaced per `map`, rebuilt without simplification
/// (the generated function returns the expression as written).
PrimExpr renameVars(const PrimExpr &e, const llvm::DenseMap<const TirVarNode *, PrimExpr> &map) {
  switch (e->getKind()) {
  case NodeKind::TirVar: {
    auto it = map.find(llvm::cast<TirVarNode>(e.get()));
    return it == map.end() ? e : it->second;
  }
  case NodeKind::PrimBinary: {
    const auto *b = llvm::cast<PrimBinaryNode>(e.get());
    return make<PrimBinaryNode>(b->op, renameVars(b->a, map), renameVars(b->b, map), b->dtype);
  }
  case NodeKind::PrimNot:
    return make<PrimNotNode>(renameVars(llvm::cast<PrimNotNode>(e.get())->a, map));
  case NodeKind::PrimCast: {
    const auto *c = llvm::cast<PrimCastNode>(e.get());
    return make<PrimCastNode>(c->dtype, renameVars(c->value, map));
  }
  case NodeKind::PrimSelect: {
    const auto *s = llvm::cast<PrimSelectNode>(e.get());
    return make<PrimSelectNode>(renameVars(s->cond, map), renameVars(s->trueValue, map),
                                renameVars(s->falseValue, map));
  }
  default:
    return e;
  }
}

/// The generated functions of one run, shared across the module's functions.
class HostFuncTable {
public:
  explicit HostFuncTable(const IRModule &module) : module_(module) {}

  /// The GlobalVar of a function computing `e` from `vars`.
  GlobalVar get(const PrimExpr &e, llvm::ArrayRef<const TirVarNode *> vars) {
    PrimFunc pf = build(e, vars);
    for (const auto &[gvar, existing] : added_)
      if (structuralEqual(existing.get(), pf.get(), /*mapFreeVars=*/true))
        return gvar;
    std::string name = uniqueName();
    GlobalVar gvar = make<GlobalVarNode>(name, pf->relaxSInfo());
    added_.emplace_back(gvar, pf);
    taken_.insert(name);
    return gvar;
  }

  const std::vector<std::pair<GlobalVar, PrimFunc>> &added() const { return added_; }

private:
  static PrimFunc build(const PrimExpr &e, llvm::ArrayRef<const TirVarNode *> vars) {
    auto pf = draft<PrimFuncNode>();
    PrimFuncNode &f = *pf;
    llvm::DenseMap<const TirVarNode *, PrimExpr> fresh;
    for (const TirVarNode *v : vars) {
      fresh[v] = make<TirVarNode>(v->name, v->dtype, v->isSizeVar);
      f.params.push_back(PrimParam{v->name, PrimParam::Kind::Scalar, {}, v->dtype});
    }
    f.retType = e->dtype;
    f.attrs = make<AttrsNode>(AttrDict{{"tir.is_host_func", AttrValue::boolean(true)}});
    f.isPrivate = true;
    f.computed = renameVars(e, fresh);
    return pf.publish();
  }

  std::string uniqueName() const {
    std::string name = kFuncName;
    for (unsigned i = 1; module_.lookup(name) || taken_.count(name); ++i)
      name = kFuncName + std::to_string(i);
    return name;
  }

  const IRModule &module_;
  std::vector<std::pair<GlobalVar, PrimFunc>> added_;
  llvm::StringSet<> taken_;
};

class PrimValueLifter : public ExprMutator {
public:
  PrimValueLifter(const IRModule *module, HostFuncTable &table)
      : ExprMutator(module), table_(table) {}

  int64_t lifted = 0;

  llvm::Expected<Expr> rewriteExpr(const Expr &e) override {
    const auto *pv = llvm::dyn_cast_or_null<PrimValueNode>(e.get());
    if (!pv || !needsComputing(pv->value.get()))
      return ExprMutator::rewriteExpr(e);
    llvm::SmallVector<const TirVarNode *, 4> vars;
    forEachTirVar(pv->value.get(), [&](const TirVarNode *v) {
      if (!llvm::is_contained(vars, v))
        vars.push_back(v);
    });
    std::vector<Expr> args;
    for (const TirVarNode *v : vars)
      args.push_back(primValue(PrimExpr(v)));
    GlobalVar callee = table_.get(pv->value, vars);
    ++lifted;
    Expr call = makeAt<CallNode>(pv->loc, std::move(callee), std::move(args));
    return builder_.normalize(std::move(call));
  }

private:
  HostFuncTable &table_;
};

class ComputePrimValuePass : public ModulePass {
public:
  ComputePrimValuePass() : ModulePass(kPassName) {}

  PassStatistic values{this, "values", "R.prim_value expressions computed by host functions"};
  PassStatistic functions{this, "functions", "host PrimFuncs generated"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) override {
    HostFuncTable table(module);
    int64_t lifted = 0;
    llvm::Expected<bool> changed =
        rewriteFunctions(module, [&](const GlobalVar &, const Function &fn) {
          PrimValueLifter lifter(&module, table);
          llvm::Expected<Function> out = lifter.rewriteFunction(fn);
          lifted += lifter.lifted;
          return out;
        });
    if (!changed)
      return changed;
    for (const auto &[gvar, pf] : table.added())
      module.add(gvar, pf);
    if (lifted) {
      values += lifted;
      functions += static_cast<int64_t>(table.added().size());
    }
    return *changed;
  }
};

} // namespace

void graft::registerComputePrimValuePass() {
  PassInfo info;
  info.alias = "ComputePrimValue";
  info.summary = "Computes symbolic R.prim_value expressions in generated host PrimFuncs "
                 "(compute_symbolic_expr)";
  info.preconditions = "none";
  registerPass<ComputePrimValuePass>(std::move(info));
}
