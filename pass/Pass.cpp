//===- pass/Pass.cpp - Module and function passes -------------------------===//

#include "pass/Pass.h"

#include "ir/AttrKeys.h"

using namespace graft;

Pass::~Pass() = default;

void Pass::applyOptions(const PassOptions &values) {
  for (PassOptionBase *o : options_)
    o->setFromText(values.getString(o->name()));
}

AnalysisManager &Pass::analyses() {
  if (analyses_)
    return *analyses_;
  if (!ownAnalyses_)
    ownAnalyses_ = std::make_unique<AnalysisManager>();
  return *ownAnalyses_;
}

void Pass::resetStatistics() {
  for (PassStatistic *s : statistics_)
    s->reset();
}

void Pass::reportStatistics(PassContext &ctx) {
  for (PassStatistic *s : statistics_)
    if (s->reported())
      ctx.addStat(name_, s->name(), s->value());
  resetStatistics();
}

PassStatistic::PassStatistic(Pass *owner, llvm::StringRef name, llvm::StringRef help)
    : name_(name.str()), help_(help.str()) {
  owner->statistics_.push_back(this);
}

llvm::Expected<bool> ModulePass::run(IRModule &module, PassContext &ctx) {
  resetStatistics();
  // A shallow copy (nodes are shared): what a failing pass gives back.
  IRModule input = module;
  llvm::Expected<bool> changed = runOnModule(module, ctx);
  if (!changed) {
    module = std::move(input);
    resetStatistics();
    return changed.takeError();
  }
  reportStatistics(ctx);
  return changed;
}

bool graft::isPrimitiveFunction(const FunctionNode &fn) {
  const AttrValue *v = fn.attr(kPrimitiveAttr);
  if (!v)
    return false;
  if (v->kind() == AttrValue::Kind::Bool)
    return v->getBool();
  return v->kind() == AttrValue::Kind::Int && v->getInt() != 0;
}

llvm::Expected<bool> graft::rewriteFunctions(
    IRModule &module,
    llvm::function_ref<llvm::Expected<Function>(const GlobalVar &, const Function &)> rewrite) {
  std::vector<std::pair<GlobalVar, Function>> changed;
  for (const ModuleEntry &entry : module.entries()) {
    const FunctionNode *fn = entry.asFunction();
    if (!fn || isPrimitiveFunction(*fn))
      continue;
    llvm::Expected<Function> out = rewrite(entry.gvar, Function(fn));
    if (!out)
      return out.takeError();
    if (out->get() != fn)
      changed.emplace_back(entry.gvar, std::move(*out));
  }
  for (auto &[gvar, fn] : changed)
    module.add(gvar, fn);
  return !changed.empty();
}

llvm::StringRef FunctionPass::functionName() const { return (*gvar_)->name; }

llvm::Expected<bool> FunctionPass::run(IRModule &module, PassContext &ctx) {
  resetStatistics();
  module_ = &module;
  ctx_ = &ctx;
  llvm::Expected<bool> changed = [&]() -> llvm::Expected<bool> {
    if (llvm::Error err = checkPreconditions(module))
      return err;
    return rewriteFunctions(module, [&](const GlobalVar &gvar, const Function &fn) {
      gvar_ = &gvar;
      current_ = fn.get();
      return runOnFunction(fn);
    });
  }();
  module_ = nullptr;
  gvar_ = nullptr;
  current_ = nullptr;
  ctx_ = nullptr;
  if (!changed) {
    resetStatistics();
    return changed.takeError();
  }
  reportStatistics(ctx);
  return changed;
}
