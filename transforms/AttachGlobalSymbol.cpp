//===- transforms/AttachGlobalSymbol.cpp - Give every function a symbol -----===//
//
// `attach-global-symbol` (TVM's AttachGlobalSymbol, TVM `src/relax/transform/`): VM code
// generation looks every function up by its `global_symbol`, so each function
// without one gets it: a Relax function its GlobalVar's name (private ones
// included, e.g. generated `cuda_graph_alloc`), a PrimFunc the module's
// `system_lib_prefix` attribute followed by its name, which also makes it
// public. A function that already has a symbol is left alone. Where the
// symbol differs from the GlobalVar's name, the GlobalVar is renamed and
// every reference follows.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"

#include "llvm/ADT/DenseMap.h"

using namespace graft;

static constexpr const char *kPassName = "attach-global-symbol";

namespace {

std::string systemLibPrefix(const IRModule &module) {
  const AttrValue *v = module.attrs ? module.attrs->lookup("system_lib_prefix") : nullptr;
  return v && v->kind() == AttrValue::Kind::String ? v->getString() : std::string();
}

bool hasGlobalSymbol(const AttrsNode *attrs) { return attrs && attrs->lookup("global_symbol"); }

PrimFunc withSymbol(const PrimFuncNode &pf, const std::string &symbol) {
  auto out = draft<PrimFuncNode>();
  PrimFuncNode &f = *out;
  f.params = pf.params;
  f.retType = pf.retType;
  f.attrs = withAttr(pf.attrs.get(), "global_symbol", AttrValue::string(symbol));
  f.isPrivate = false;
  f.checkWellFormed = pf.checkWellFormed;
  f.isPure = pf.isPure;
  f.body = pf.body;
  f.bodyTokens = pf.bodyTokens;
  f.computed = pf.computed;
  f.heapStores = pf.heapStores;
  f.heapLoads = pf.heapLoads;
  f.loc = pf.loc;
  return out.publish();
}

/// Replaces references to renamed GlobalVars.
class GlobalVarRenamer : public ExprMutator {
public:
  GlobalVarRenamer(const IRModule *module,
                   const llvm::DenseMap<const GlobalVarNode *, GlobalVar> &renamed)
      : ExprMutator(module), renamed_(renamed) {}

  llvm::Expected<Expr> rewriteExpr(const Expr &e) override {
    if (const auto *gv = llvm::dyn_cast_or_null<GlobalVarNode>(e.get())) {
      auto it = renamed_.find(gv);
      return it == renamed_.end() ? e : Expr(it->second);
    }
    return ExprMutator::rewriteExpr(e);
  }

private:
  const llvm::DenseMap<const GlobalVarNode *, GlobalVar> &renamed_;
};

class AttachGlobalSymbolPass : public ModulePass {
public:
  AttachGlobalSymbolPass() : ModulePass(kPassName) {}

  PassStatistic symbols{this, "symbols", "functions given a global_symbol"};
  PassStatistic renamedStat{this, "renamed", "PrimFuncs renamed to their prefixed symbol"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) override {
    std::string prefix = systemLibPrefix(module);
    std::vector<ModuleEntry> entries = module.entries();
    std::vector<ModuleEntry> updated;
    llvm::DenseMap<const GlobalVarNode *, GlobalVar> renamed;
    for (const ModuleEntry &entry : entries) {
      const std::string &name = entry.gvar->name;
      if (const FunctionNode *fn = entry.asFunction()) {
        // A Primitive function is a kernel's definition, run by its fused
        // kernel symbol, never called as a VM function (docs/fusion.md).
        if (hasGlobalSymbol(fn->attrs.get()) || isPrimitiveFunction(*fn))
          continue;
        updated.push_back(
            {entry.gvar, withFunctionAttrs(*fn, withAttr(fn->attrs.get(), "global_symbol",
                                                         AttrValue::string(name)))});
      } else if (const PrimFuncNode *pf = entry.asPrimFunc()) {
        if (hasGlobalSymbol(pf->attrs.get()))
          continue;
        std::string symbol = prefix + name;
        GlobalVar gvar = entry.gvar;
        if (symbol != name) {
          if (module.lookup(symbol))
            return needsError(kPassName, "a free name for PrimFunc '" + name +
                                             "' under the "
                                             "system_lib_prefix, but '" +
                                             symbol + "' is taken");
          gvar = make<GlobalVarNode>(symbol, entry.gvar->sinfo);
          renamed[entry.gvar.get()] = gvar;
        }
        updated.push_back({gvar, withSymbol(*pf, symbol)});
      }
    }
    if (updated.empty())
      return false;
    if (!renamed.empty()) {
      llvm::Expected<bool> changed =
          rewriteFunctions(module, [&](const GlobalVar &, const Function &fn) {
            GlobalVarRenamer renamer(&module, renamed);
            return renamer.rewriteFunction(fn);
          });
      if (!changed)
        return changed.takeError();
    }
    // A Relax function both renamed-into and given a symbol: take the symbol
    // onto the rewritten body.
    for (ModuleEntry &entry : updated) {
      if (const FunctionNode *fn = entry.asFunction()) {
        const FunctionNode *current = module.lookup(entry.gvar->name)->asFunction();
        entry.func = withFunctionAttrs(*current, fn->attrs);
      }
      auto it = llvm::find_if(renamed, [&](const auto &kv) { return kv.second == entry.gvar; });
      if (it != renamed.end())
        module.remove(it->first->name);
      module.add(entry.gvar, entry.func);
    }
    symbols += static_cast<int64_t>(updated.size());
    if (!renamed.empty())
      renamedStat += static_cast<int64_t>(renamed.size());
    return true;
  }
};

} // namespace

void graft::registerAttachGlobalSymbolPass() {
  PassInfo info;
  info.alias = "AttachGlobalSymbol";
  info.summary = "Gives every function a global_symbol (PrimFuncs prefixed by the module's "
                 "system_lib_prefix, GlobalVars renamed to match)";
  info.preconditions = "none";
  registerPass<AttachGlobalSymbolPass>(std::move(info));
}
