//===- transforms/TestRemovePrint.cpp - The pass of docs/writing-a-pass.md --===//
//
// `test-remove-print` deletes `R.print(...)` statements whose format string
// starts with the option `format-prefix` (all of them by default). It is the
// worked example of docs/writing-a-pass.md: a mutator, a registry entry, an
// option, a statistic and Before/Expected tests, nothing else.
//
//===----------------------------------------------------------------------===//

#include "transforms/Pass.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"

using namespace graft;

namespace {

/// The format argument of an `R.print` call, or null for any other binding.
const StringImmNode *printFormat(const BindingNode &binding) {
  const auto *call = llvm::dyn_cast<CallNode>(binding.value.get());
  const OpInfo *op = call ? call->opInfo() : nullptr;
  if (!op || op->name != "relax.print" || call->args.empty())
    return nullptr;
  return llvm::dyn_cast<StringImmNode>(call->args.front().get());
}

class PrintRemover : public ExprMutator {
public:
  PrintRemover(const IRModule &module, std::string prefix)
      : ExprMutator(&module), prefix_(std::move(prefix)) {}

  unsigned removed = 0;

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const StringImmNode *format = printFormat(*binding);
    // A print whose (void) result is read elsewhere stays: removing its
    // binding would leave a use without a definition.
    if (format && llvm::StringRef(format->value).startswith(prefix_) && binding->var->name == "_") {
      ++removed;
      return llvm::Error::success(); // Emit nothing: the binding is gone.
    }
    return ExprMutator::rewriteBinding(binding);
  }

private:
  std::string prefix_;
};

class TestRemovePrintPass : public Pass {
public:
  explicit TestRemovePrintPass(std::string prefix) : prefix_(std::move(prefix)) {}

  llvm::Expected<bool> run(IRModule &module, PassContext &ctx) override {
    bool changed = false;
    for (const ModuleEntry &entry : std::vector<ModuleEntry>(module.entries())) {
      const FunctionNode *fn = entry.asFunction();
      if (!fn)
        continue;
      PrintRemover remover(module, prefix_);
      llvm::Expected<Function> out = remover.rewriteFunction(Function(fn));
      if (!out)
        return out.takeError();
      if (out->get() == fn)
        continue; // Untouched functions keep their identity.
      module.add(entry.gvar, *out);
      ctx.addStat("test-remove-print", "removed", remover.removed);
      changed = true;
    }
    return changed;
  }

private:
  std::string prefix_;
};

} // namespace

void graft::registerTestRemovePrintPass() {
  PassInfo info;
  info.name = "test-remove-print";
  info.summary = "Deletes R.print statements (the worked example of docs/writing-a-pass.md)";
  info.options = {{"format-prefix", PassOptionSpec::Kind::String, "",
                   "only prints whose format string starts with this"}};
  info.testOnly = true;
  info.create = [](const PassOptions &opts) {
    return std::make_unique<TestRemovePrintPass>(opts.getString("format-prefix"));
  };
  registerPass(std::move(info));
}
