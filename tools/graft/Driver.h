//===- tools/graft/Driver.h - Shared pieces of the graft commands -*- C++ -*-===//
//
// Exit codes (docs/cli.md): 0 success, 1 a negative answer (ill-formed IR,
// modules differ, a failed test), 2 bad input or usage.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TOOLS_DRIVER_H
#define GRAFT_TOOLS_DRIVER_H

#include "pass/PassManager.h"
#include "text/Parser.h"
#include "vm/Executable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Timer.h"

#include <memory>
#include <optional>
#include <vector>

namespace graft::driver {

enum ExitCode : int { kSuccess = 0, kNegative = 1, kBadInput = 2 };

/// A parsed input file, or the exit code that reading it produced (the
/// diagnostic already printed).
struct LoadedFile {
  ParsedFile file;
  std::string path;
};
llvm::Expected<LoadedFile> loadFile(llvm::StringRef path);
/// The same for text already read (one split of --split-input-file), named
/// `bufferName` in diagnostics.
llvm::Expected<LoadedFile> loadText(llvm::StringRef text, llvm::StringRef bufferName);

/// Prints an error (located when possible) on stderr, or hands it to the
/// active DiagnosticCapture.
void reportError(llvm::Error err, const LoadedFile *file);

/// One diagnostic as --verify-diagnostics sees it: the line and column are
/// resolved when it is reported (line 0: unlocated), so the capture does not
/// keep the reporting file's SourceMgr alive.
struct CapturedDiagnostic {
  llvm::SourceMgr::DiagKind kind;
  unsigned line = 0, column = 0;
  std::string message;
};

/// While one is alive, reportError (and the parse errors of loadFile and
/// loadText) append to it instead of printing: MLIR's diagnostic verifier
/// handler, for the driver.
class DiagnosticCapture {
public:
  DiagnosticCapture();
  ~DiagnosticCapture();
  DiagnosticCapture(const DiagnosticCapture &) = delete;
  DiagnosticCapture &operator=(const DiagnosticCapture &) = delete;

  void add(llvm::Error err, const llvm::SourceMgr *sm);
  std::vector<CapturedDiagnostic> diagnostics;

private:
  DiagnosticCapture *previous_;
};

/// The modules a command acts on: `moduleName` when given (error if absent),
/// else every module.
llvm::Expected<std::vector<IRModule *>> selectModules(const LoadedFile &file,
                                                      llvm::StringRef moduleName);
/// Exactly one module: `moduleName`, or the only one in the file.
llvm::Expected<IRModule *> selectOneModule(const LoadedFile &file, llvm::StringRef moduleName);

/// A loaded file and the modules a command acts on.
struct Input {
  LoadedFile file;
  std::vector<IRModule *> modules;
};
/// Loads `path` and selects `moduleName`, or every module, or (with
/// `exactlyOne`) the only one. Null on failure, with the diagnostic printed:
/// the command exits with kBadInput. With `text`, that text is parsed under
/// the name `path` instead of reading the file.
std::unique_ptr<Input> openInput(llvm::StringRef path, llvm::StringRef moduleName, bool exactlyOne,
                                 const std::optional<std::string> &text = std::nullopt);

/// Verifies unless the module opts out with check_well_formed=False (or
/// `force`); prints each violation. Returns true when well-formed.
bool verifyAndReport(const IRModule &module, const LoadedFile &file, bool force,
                     VerifyCache *cache = nullptr);

/// Subcommand entry points; each returns the process exit code.
int runPrint(llvm::StringRef file, llvm::StringRef moduleName);
int runVerify(llvm::StringRef file, llvm::StringRef moduleName);
int runDiff(llvm::StringRef fileA, llvm::StringRef fileB, llvm::StringRef moduleA,
            llvm::StringRef moduleB);

struct OptArgs {
  std::string file;
  std::string pipeline;
  std::string output;
  std::string moduleName;
  std::vector<std::string> configs;
  PassManagerOptions pm;
  /// The source to read instead of `file` (one split of
  /// --split-input-file); diagnostics still name `file`.
  std::optional<std::string> text;
  /// graft opt --split-input-file: `# -----` lines cut the file into modules
  /// processed one by one.
  bool splitInputFile = false;
  /// graft opt --verify-diagnostics: the diagnostics must be the file's
  /// `# expected-error` comments.
  bool verifyDiagnostics = false;
  /// build --target cuda: relax.backend.use_cuda_graph=true unless
  /// --no-cuda-graph (a --config of the key still wins).
  bool cudaGraph = true;
};
int runOpt(const OptArgs &args);
/// What opt and build share: loads args.file (exactly one module), verifies
/// it and runs the pipeline (args.pipeline, else the file's # PIPELINE:)
/// with the debugging flags of args.pm. Null on failure, with the
/// diagnostic printed and `exitCode` set.
std::unique_ptr<Input> runPipelineOnFile(const OptArgs &args, llvm::TimerGroup &timers,
                                         int &exitCode);

/// The target's build pipeline on args.file, then code generation; null on
/// failure with the diagnostic printed and `exitCode` set.
std::unique_ptr<vm::Executable> buildFromSource(const OptArgs &args, llvm::StringRef target,
                                                llvm::TimerGroup &timers, int &exitCode);
/// graft build: args.pipeline is ignored (the target's pipeline runs).
int runBuild(const OptArgs &args, llvm::StringRef target);

struct RunArgs {
  std::string file; ///< An executable, or source built in memory.
  std::string function = "main";
  std::string moduleName;          ///< A source file's module to build.
  std::vector<std::string> inputs; ///< NAME=PATH.npy
  bool random = false;
  uint64_t seed = 0;
  std::vector<std::string> dims; ///< NAME=SIZE
  std::string device = "cpu";
  unsigned repeat = 0;
  bool profile = false;
  std::string outDir;
  bool dump = false;
  bool interpret = false;       ///< Run the source with the reference interpreter.
  uint64_t maxInstructions = 0; ///< vm::VMOptions::maxInstructions
  uint64_t maxMemoryBytes = 0;  ///< vm::VMOptions::maxMemoryBytes
};
int runRun(const RunArgs &args);
/// graft run --interpret: the reference interpreter on a source file.
int runInterpret(const RunArgs &args);
int runPasses(bool all);

struct VizArgs {
  std::string file;
  std::string pipeline; ///< Empty: the function as written.
  std::string output;   ///< OUT.svg, OUT.png, OUT.dot, or "-" (DOT on stdout).
  std::string moduleName;
  std::string function; ///< Empty: main, or the only Relax function.
  std::vector<std::string> configs;
  bool showShapes = false;
};
/// graft viz: a picture of one function (docs/viz.md).
int runViz(const VizArgs &args);
/// graft gen and graft difftest (RobustCommands.cpp); -1 when neither was given.
int runRobustnessCommand();
int runTest(const std::vector<std::string> &paths);
/// --load-pass-plugin: loads each plugin (pass/PassPlugin.h); on the first
/// failure prints it and returns kBadInput, else kSuccess.
int loadPassPlugins(const std::vector<std::string> &paths);

} // namespace graft::driver

#endif // GRAFT_TOOLS_DRIVER_H
