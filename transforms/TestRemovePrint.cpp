//===- transforms/TestRemovePrint.cpp - The pass of docs/writing-a-pass.md --===//
//
// `test-remove-print` deletes `R.print(...)` statements whose format string
// starts with the option `format-prefix` (all of them by default). It is the
// worked example of docs/writing-a-pass.md: a mutator, a function pass with
// an option and a statistic, a registry entry and Before/Expected tests,
// nothing else.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

namespace {

/// The format argument of an `R.print` call, or null for any other binding.
const StringImmNode *printFormat(const BindingNode &binding) {
  const CallNode *call = asCallTo(binding.value.get(), ops::print());
  if (!call || call->args.empty())
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

class TestRemovePrintPass : public FunctionPass {
public:
  TestRemovePrintPass() : FunctionPass("test-remove-print") {}

  PassOption<std::string> formatPrefix{this, "format-prefix",
                                       "only prints whose format string starts with this"};
  PassStatistic removed{this, "removed", "R.print statements removed"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    PrintRemover remover(module(), formatPrefix);
    llvm::Expected<Function> out = remover.rewriteFunction(fn);
    if (out && out->get() != fn.get())
      removed += remover.removed;
    return out;
  }
};

} // namespace

void graft::registerTestRemovePrintPass() {
  PassInfo info;
  info.summary = "Deletes R.print statements (the worked example of docs/writing-a-pass.md)";
  info.testOnly = true;
  registerPass<TestRemovePrintPass>(std::move(info));
}
