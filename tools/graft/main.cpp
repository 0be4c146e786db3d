//===- tools/graft/main.cpp - The graft command line ------------------------===//
//
// One binary, one subcommand per job (spec §2). Option parsing goes through
// llvm::cl subcommands; a usage error exits with 2, never 1.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace graft::driver;

namespace {

cl::SubCommand printCmd("print", "Parse, verify and print canonical text");
cl::SubCommand verifyCmd("verify", "Check well-formedness; every violation is reported");
cl::SubCommand diffCmd("diff", "Compare two modules structurally");
cl::SubCommand runCmd("run", "Run a function of an executable or source file");

cl::opt<std::string> printFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(printCmd));
cl::opt<std::string> printModuleName("module", cl::desc("Act on this module only"),
                                     cl::value_desc("NAME"), cl::sub(printCmd));
cl::opt<std::string> verifyFile(cl::Positional, cl::desc("FILE"), cl::Required,
                                cl::sub(verifyCmd));
cl::opt<std::string> verifyModuleName("module", cl::desc("Act on this module only"),
                                      cl::value_desc("NAME"), cl::sub(verifyCmd));
cl::list<std::string> diffFiles(cl::Positional, cl::desc("A B ('-' reads standard input)"),
                                cl::OneOrMore, cl::sub(diffCmd));
cl::opt<std::string> diffModuleA("module-a", cl::desc("Module of A"), cl::value_desc("NAME"),
                                 cl::sub(diffCmd));
cl::opt<std::string> diffModuleB("module-b", cl::desc("Module of B"), cl::value_desc("NAME"),
                                 cl::sub(diffCmd));
cl::list<std::string> runArgs(cl::Positional, cl::desc("EXE|FILE"), cl::ZeroOrMore,
                              cl::sub(runCmd));

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  std::string parseErrors;
  raw_string_ostream errs(parseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv, "graft: the Relax IR pass framework\n", &errs)) {
    llvm::errs() << errs.str();
    return kBadInput;
  }
  if (printCmd)
    return runPrint(printFile, printModuleName);
  if (verifyCmd)
    return runVerify(verifyFile, verifyModuleName);
  if (diffCmd) {
    if (diffFiles.size() != 2) {
      llvm::errs() << "graft diff: expected two files, got " << diffFiles.size() << "\n";
      return kBadInput;
    }
    return runDiff(diffFiles[0], diffFiles[1], diffModuleA, diffModuleB);
  }
  if (runCmd) {
    llvm::errs() << "graft: error: graft run needs code generation (not built yet)\n";
    return kBadInput;
  }
  llvm::errs() << "graft: error: no command given (try 'graft --help')\n";
  return kBadInput;
}
