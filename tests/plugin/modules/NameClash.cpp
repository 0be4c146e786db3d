// A plugin registering a pass under a name graft already has.
#include "pass/Pass.h"
#include "pass/PassPlugin.h"

namespace {
class Impostor : public graft::ModulePass {
public:
  Impostor() : ModulePass("dead-code-elimination") {}
  llvm::Expected<bool> runOnModule(graft::IRModule &, graft::PassContext &) override {
    return false;
  }
};

void registerImpostor() {
  graft::PassInfo info;
  info.summary = "not the real one";
  graft::registerPass<Impostor>(std::move(info));
}
} // namespace

extern "C" GRAFT_PLUGIN_EXPORT GraftPassPluginInfo graftGetPassPluginInfo() {
  return {GRAFT_PASS_PLUGIN_API_VERSION, "name-clash", "0", registerImpostor};
}
