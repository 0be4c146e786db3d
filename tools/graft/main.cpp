//===- tools/graft/main.cpp - The graft command line ------------------------===//
//
// One binary, one subcommand per job (docs/cli.md). Option parsing goes through
// llvm::cl subcommands; a usage error exits with 2, never 1.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace graft::driver;

namespace {

cl::SubCommand printCmd("print", "Parse, verify and print canonical text");
cl::SubCommand verifyCmd("verify", "Check well-formedness; every violation is reported");
cl::SubCommand diffCmd("diff", "Compare two modules structurally");
cl::SubCommand optCmd("opt", "Run a pass pipeline and print the result");
cl::SubCommand passesCmd("passes", "List passes and named pipelines");
cl::SubCommand testCmd("test", "Run pass-test files (Before/Expected with # PIPELINE:)");
cl::SubCommand buildCmd("build", "Run the target's build pipeline and write a VM executable");
cl::SubCommand runCmd("run", "Run a function of an executable or source file");
cl::SubCommand vizCmd("viz", "Draw one function as a Graphviz picture (.svg, .png or .dot)");

cl::opt<std::string> printFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(printCmd));
cl::opt<std::string> printModuleName("module", cl::desc("Act on this module only"),
                                     cl::value_desc("NAME"), cl::sub(printCmd));
cl::opt<std::string> verifyFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(verifyCmd));
cl::opt<std::string> verifyModuleName("module", cl::desc("Act on this module only"),
                                      cl::value_desc("NAME"), cl::sub(verifyCmd));
cl::list<std::string> diffFiles(cl::Positional, cl::desc("A B ('-' reads standard input)"),
                                cl::OneOrMore, cl::sub(diffCmd));
cl::opt<std::string> diffModuleA("module-a", cl::desc("Module of A"), cl::value_desc("NAME"),
                                 cl::sub(diffCmd));
cl::opt<std::string> diffModuleB("module-b", cl::desc("Module of B"), cl::value_desc("NAME"),
                                 cl::sub(diffCmd));
cl::opt<std::string> optFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(optCmd),
                             cl::sub(buildCmd));
cl::opt<std::string> optPipeline("p",
                                 cl::desc("Pass pipeline (default: the file's # PIPELINE: line)"),
                                 cl::value_desc("PIPELINE"), cl::sub(optCmd));
cl::opt<std::string> optOutput("o", cl::desc("Output file"), cl::value_desc("OUT"), cl::sub(optCmd),
                               cl::sub(buildCmd));
cl::opt<std::string> optModuleName("module", cl::desc("The module to transform"),
                                   cl::value_desc("NAME"), cl::sub(optCmd), cl::sub(buildCmd));
cl::list<std::string> optConfigs("config", cl::desc("Pass context config KEY=VALUE"),
                                 cl::value_desc("KEY=VALUE"), cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optVerifyEach("verify-each", cl::desc("Verify after every pass that changed the IR"),
                            cl::init(true), cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optNoVerifyEach("no-verify-each", cl::desc("Turn verify-each off"), cl::sub(optCmd),
                              cl::sub(buildCmd));
cl::opt<bool> optPrintAfterAll("print-after-all", cl::desc("Print the IR after every pass"),
                               cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optPrintAfterChange("print-after-change",
                                  cl::desc("Print the IR after every pass that changed it"),
                                  cl::sub(optCmd), cl::sub(buildCmd));
cl::list<std::string> optPrintBefore("print-before", cl::desc("Print the IR before PASS"),
                                     cl::value_desc("PASS"), cl::sub(optCmd), cl::sub(buildCmd));
cl::list<std::string> optPrintAfter("print-after", cl::desc("Print the IR after PASS"),
                                    cl::value_desc("PASS"), cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optTiming("timing", cl::desc("Per-pass wall time (parse and print included)"),
                        cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optStats("stats", cl::desc("Print pass statistics on stderr"), cl::sub(optCmd),
                       cl::sub(buildCmd));
cl::opt<std::string> optDumpDir("dump-dir", cl::desc("Write NNN-<pass>.py after each pass"),
                                cl::value_desc("DIR"), cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<std::string> optReproducer("reproducer",
                                   cl::desc("On failure, write a pass-test file that replays it"),
                                   cl::value_desc("FILE"), cl::sub(optCmd), cl::sub(buildCmd));
cl::opt<bool> optSplitInputFile("split-input-file",
                                cl::desc("Cut the file at '# -----' lines and process each part "
                                         "on its own"),
                                cl::sub(optCmd));
cl::opt<bool> optVerifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Check the diagnostics against the file's '# expected-error {{...}}' comments"),
    cl::sub(optCmd));
cl::list<std::string> loadPlugins("load-pass-plugin",
                                  cl::desc("Load the passes of a plugin (docs/packaging.md)"),
                                  cl::value_desc("PATH.so"), cl::sub(optCmd), cl::sub(buildCmd),
                                  cl::sub(passesCmd), cl::sub(testCmd));
cl::opt<bool> passesAll("all", cl::desc("Include test-only passes"), cl::sub(passesCmd));
cl::list<std::string> testFiles(cl::Positional, cl::desc("FILE|DIR..."), cl::OneOrMore,
                                cl::sub(testCmd));
cl::opt<std::string> buildTarget("target", cl::desc("Target to build for (cpu, cuda)"),
                                 cl::value_desc("TARGET"), cl::init("cpu"), cl::sub(buildCmd));
cl::opt<bool> buildNoCudaGraph("no-cuda-graph",
                               cl::desc("With --target cuda: no CUDA graphs (rewrite-cuda-graph "
                                        "off)"),
                               cl::sub(buildCmd));
cl::opt<std::string> runFile(cl::Positional, cl::desc("EXE|FILE"), cl::Required, cl::sub(runCmd));
cl::opt<std::string> runFn("fn", cl::desc("Function to run"), cl::init("main"),
                           cl::value_desc("NAME"), cl::sub(runCmd));
cl::list<std::string> runInputs("input", cl::desc("Input of a parameter"),
                                cl::value_desc("NAME=PATH.npy"), cl::sub(runCmd));
cl::opt<bool> runRandom("random", cl::desc("Seeded random values for parameters not given"),
                        cl::sub(runCmd));
cl::opt<uint64_t> runSeed("seed", cl::desc("Seed of --random"), cl::init(0), cl::sub(runCmd));
cl::list<std::string> runDims("dim", cl::desc("Size of a symbolic dim for --random"),
                              cl::value_desc("NAME=SIZE"), cl::sub(runCmd));
cl::opt<std::string> runDevice("device", cl::desc("Device to run on (cpu, cuda)"), cl::init("cpu"),
                               cl::sub(runCmd));
cl::opt<unsigned> runRepeat("repeat", cl::desc("Time N calls after one warm-up"), cl::init(0),
                            cl::sub(runCmd));
cl::opt<bool> runProfile("profile", cl::desc("Time per kernel and builtin"), cl::sub(runCmd));
cl::opt<std::string> runOut("out", cl::desc("Write outputs as .npy files here"),
                            cl::value_desc("DIR"), cl::sub(runCmd));
cl::opt<std::string> runModuleName("module", cl::desc("The module of a source FILE to build"),
                                   cl::value_desc("NAME"), cl::sub(runCmd));
cl::opt<bool> runDump("dump", cl::desc("Print the bytecode and kernel table instead of running"),
                      cl::sub(runCmd));
cl::opt<uint64_t> runMaxInstructions(
    "max-instructions",
    cl::desc("Fail a call that executes more bytecode instructions (0: no limit)"), cl::init(0),
    cl::value_desc("N"), cl::sub(runCmd));
cl::opt<uint64_t> runMaxMemory("max-memory",
                               cl::desc("Fail an allocation that takes a device's live tensor "
                                        "memory past BYTES (0: no limit)"),
                               cl::init(0), cl::value_desc("BYTES"), cl::sub(runCmd));
cl::opt<bool> runInterpretFlag("interpret",
                               cl::desc("Run the source with the reference interpreter (no "
                                        "build pipeline)"),
                               cl::sub(runCmd));

cl::opt<std::string> vizFile(cl::Positional, cl::desc("FILE"), cl::Required, cl::sub(vizCmd));
cl::opt<std::string> vizPipeline("p", cl::desc("Pass pipeline to run first (default: none)"),
                                 cl::value_desc("PIPELINE"), cl::sub(vizCmd));
cl::opt<std::string> vizOutput("o",
                               cl::desc("Picture to write: OUT.svg, OUT.png or OUT.dot (- for "
                                        "DOT on standard output)"),
                               cl::value_desc("OUT"), cl::sub(vizCmd));
cl::opt<std::string> vizFn("fn", cl::desc("Function to draw (default: main, or the only one)"),
                           cl::value_desc("NAME"), cl::sub(vizCmd));
cl::opt<std::string> vizModuleName("module", cl::desc("The module to draw from"),
                                   cl::value_desc("NAME"), cl::sub(vizCmd));
cl::list<std::string> vizConfigs("config", cl::desc("Pass context config KEY=VALUE"),
                                 cl::value_desc("KEY=VALUE"), cl::sub(vizCmd));
cl::opt<bool> vizShowShapes("show-shapes",
                            cl::desc("Also draw shape and scalar bookkeeping on the host"),
                            cl::sub(vizCmd));

/// The debugging flags opt and build share.
graft::PassManagerOptions debugFlags() {
  graft::PassManagerOptions pm;
  pm.verifyEach = optVerifyEach && !optNoVerifyEach;
  pm.printAfterAll = optPrintAfterAll;
  pm.printAfterChange = optPrintAfterChange;
  pm.printBefore.insert(optPrintBefore.begin(), optPrintBefore.end());
  pm.printAfter.insert(optPrintAfter.begin(), optPrintAfter.end());
  pm.timing = optTiming;
  pm.stats = optStats;
  pm.dumpDir = optDumpDir;
  pm.reproducer = optReproducer;
  return pm;
}

OptArgs optArgs() {
  OptArgs args;
  args.file = optFile;
  args.pipeline = optPipeline;
  args.output = optOutput;
  args.moduleName = optModuleName;
  args.configs.assign(optConfigs.begin(), optConfigs.end());
  args.pm = debugFlags();
  args.splitInputFile = optSplitInputFile;
  args.verifyDiagnostics = optVerifyDiagnostics;
  return args;
}

/// The commands, sorted, for the one line that answers an unknown command.
std::string commandList() {
  SmallVector<StringRef, 16> names;
  for (cl::SubCommand *sub : cl::getRegisteredSubcommands())
    if (!sub->getName().empty())
      names.push_back(sub->getName());
  llvm::sort(names);
  return join(names, ", ");
}

/// An unknown command is one line naming it and listing the commands (llvm::cl
/// would report every argument after it as unknown instead).
bool isUnknownCommand(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    return false;
  for (cl::SubCommand *sub : cl::getRegisteredSubcommands())
    if (sub->getName() == argv[1])
      return false;
  return true;
}

/// llvm::cl reports each unknown argument on a line of its own and a guess on
/// another; graft says it once, naming the command and the nearest flag.
void reportUsageError(StringRef messages, StringRef command) {
  StringRef first = messages.split('\n').first;
  size_t at = first.find("Unknown command line argument '");
  if (at == StringRef::npos) {
    errs() << messages; // Other usage errors are already one message.
    return;
  }
  StringRef arg = first.drop_front(at).split('\'').second.split('\'').first;
  errs() << "graft" << (command.empty() ? "" : " ") << command << ": error: unknown option '" << arg
         << "'";
  if (size_t guess = messages.find("Did you mean '"); guess != StringRef::npos)
    errs() << "; did you mean '" << messages.drop_front(guess).split('\'').second.split('\'').first
           << "'?";
  errs() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (isUnknownCommand(argc, argv)) {
    errs() << "graft: error: unknown command '" << argv[1] << "'; commands: " << commandList()
           << "\n";
    return kBadInput;
  }
  graft::registerAllPasses();
  std::string parseErrors;
  raw_string_ostream errs(parseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv, "graft: the Relax IR pass framework\n", &errs)) {
    reportUsageError(errs.str(), argc > 1 && argv[1][0] != '-' ? argv[1] : "");
    return kBadInput;
  }
  if (int code = loadPassPlugins({loadPlugins.begin(), loadPlugins.end()}))
    return code;
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
  if (optCmd)
    return runOpt(optArgs());
  if (buildCmd) {
    OptArgs args = optArgs();
    args.cudaGraph = !buildNoCudaGraph;
    return runBuild(args, buildTarget);
  }
  if (passesCmd)
    return runPasses(passesAll);
  if (vizCmd) {
    VizArgs args;
    args.file = vizFile;
    args.pipeline = vizPipeline;
    args.output = vizOutput;
    args.moduleName = vizModuleName;
    args.function = vizFn;
    args.configs.assign(vizConfigs.begin(), vizConfigs.end());
    args.showShapes = vizShowShapes;
    return runViz(args);
  }
  if (testCmd)
    return runTest(std::vector<std::string>(testFiles.begin(), testFiles.end()));
  if (runCmd) {
    RunArgs args;
    args.file = runFile;
    args.function = runFn;
    args.moduleName = runModuleName;
    args.inputs.assign(runInputs.begin(), runInputs.end());
    args.random = runRandom;
    args.seed = runSeed;
    args.dims.assign(runDims.begin(), runDims.end());
    args.device = runDevice;
    args.repeat = runRepeat;
    args.profile = runProfile;
    args.outDir = runOut;
    args.dump = runDump;
    args.interpret = runInterpretFlag;
    args.maxInstructions = runMaxInstructions;
    args.maxMemoryBytes = runMaxMemory;
    return args.interpret ? runInterpret(args) : runRun(args);
  }
  if (int code = runRobustnessCommand(); code >= 0)
    return code;
  llvm::errs() << "graft: error: no command given (try 'graft --help')\n";
  return kBadInput;
}
