//===- tools/graft/InterpretCommand.cpp - graft run --interpret ------------===//
//
// Runs a function of a source file with the reference interpreter
// (codegen/Interpreter.h) instead of building it: the same inputs, outputs
// and exit codes as `graft run` (docs/cli.md). The parameter table the
// inputs are prepared from is the one code generation would write, so
// `--random --seed N` draws the same values for both.
//
//===----------------------------------------------------------------------===//

#include "RunSupport.h"

#include "codegen/Interpreter.h"
#include "codegen/ParamTable.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;

namespace {

int fail(const llvm::Twine &message, int code = kBadInput) {
  llvm::errs() << "graft run: error: " << message << "\n";
  return code;
}

int reportInterpretError(llvm::Error err) {
  int code = kNegative;
  llvm::Error rest = llvm::handleErrors(std::move(err), [&](const codegen::InterpretError &e) {
    code = e.kind() == codegen::InterpretError::Kind::Runtime ? kNegative : kBadInput;
    llvm::errs() << "graft run: error: " << e.text() << "\n";
  });
  if (rest)
    llvm::errs() << "graft run: error: " << llvm::toString(std::move(rest)) << "\n";
  return code;
}

} // namespace

int driver::runInterpret(const RunArgs &args) {
  if (args.device != "cpu")
    return fail("--interpret runs on the cpu only");
  if (args.dump || args.repeat || args.profile || args.maxInstructions || args.maxMemoryBytes)
    return fail("--interpret takes none of --dump, --repeat, --profile, --max-instructions, "
                "--max-memory");
  std::unique_ptr<Input> input = openInput(args.file, args.moduleName, /*exactlyOne=*/true);
  if (!input)
    return kBadInput;
  const IRModule &module = *input->modules.front();
  if (!verifyAndReport(module, input->file, false))
    return kNegative;
  const ModuleEntry *entry = module.lookup(args.function);
  const FunctionNode *fn = entry ? entry->asFunction() : nullptr;
  if (!fn)
    return fail("no function '" + args.function + "' in " + args.file);
  vm::FuncInfo info;
  info.kind = vm::FuncKind::VM;
  info.name = args.function;
  info.numArgs = static_cast<int64_t>(fn->params.size());
  for (const Var &p : fn->params)
    info.paramNames.push_back(p->name);
  info.params = codegen::paramTable(*fn, DLDevice{kDLCPU, 0});
  auto inputs = prepareInputs(info, args);
  if (!inputs)
    return fail(llvm::toString(inputs.takeError()));
  auto result = codegen::interpret(module, args.function, *inputs);
  if (!result)
    return reportInterpretError(result.takeError());
  if (args.outDir.empty()) {
    printOutputs(*result, llvm::outs());
    return kSuccess;
  }
  if (llvm::Error err = writeOutputs(*result, args.outDir))
    return fail(llvm::toString(std::move(err)));
  return kSuccess;
}
