//===- pass/Pass.h - Passes, their registry, options and statistics -*- C++ -*-===//
//
// A pass transforms an IRModule and says whether it changed it. Two kinds
// (the model of mlir/Pass):
//
//  - FunctionPass: rewrites one Relax function at a time. runOnFunction
//    returns the new function, the same node when nothing changes, or an
//    error; the adaptor runs it over every function of the module and
//    commits all the rewrites or, on any error, none.
//  - ModulePass: for what needs the whole module (removing or adding
//    functions, renaming, plans across functions). runOnModule may change
//    the module in place; on error the module is put back as it was.
//
// (Deriving from Pass itself and implementing run() is left to tests and
// adaptors: such a pass gets neither guarantee.)
//
// Options (PassOptions.h) and statistics (PassStatistic) are declared once,
// as members; registerPass<P>() reads the declarations. Every pass is
// registered with a kebab-case name, TVM's CamelCase name as an alias, a
// one-line summary and its preconditions; pipelines name passes textually
// (`a,b{opt=1},c`, see Pipeline.h).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PASS_H
#define GRAFT_PASS_PASS_H

#include "pass/AnalysisManager.h"
#include "pass/PassOptions.h"

#include "ir/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace graft {

/// What passes share while a pipeline runs: config keys (`--config`,
/// `# CONFIG:`) and the statistics of the passes that ran.
class PassContext {
public:
  /// `relax.backend.use_cuda_graph` and the like; values as written.
  std::map<std::string, std::string> config;

  bool configBool(llvm::StringRef key, bool defaultValue) const;

  /// Adds to the statistic `<pass>.<name>` (printed by --stats).
  void addStat(llvm::StringRef pass, llvm::StringRef name, int64_t n = 1);
  const std::map<std::string, int64_t> &stats() const { return stats_; }

private:
  std::map<std::string, int64_t> stats_;
};

/// A counter declared as a pass member (MLIR's Pass::Statistic):
///
///   PassStatistic removed{this, "removed", "R.print statements removed"};
///   ...
///   removed += n;
///
/// When the pass succeeds, every statistic it added to (even 0) is reported
/// into the PassContext as `<pass>.<name>`; `--stats` prints those.
class PassStatistic {
public:
  PassStatistic(Pass *owner, llvm::StringRef name, llvm::StringRef help);
  PassStatistic(const PassStatistic &) = delete;
  PassStatistic &operator=(const PassStatistic &) = delete;

  PassStatistic &operator+=(int64_t n) {
    value_ += n;
    reported_ = true;
    return *this;
  }
  PassStatistic &operator++() { return *this += 1; }
  int64_t value() const { return value_; }
  bool reported() const { return reported_; }
  const std::string &name() const { return name_; }
  const std::string &help() const { return help_; }
  void reset() {
    value_ = 0;
    reported_ = false;
  }

private:
  std::string name_, help_;
  int64_t value_ = 0;
  bool reported_ = false;
};

class Pass {
public:
  /// `name` is the registry's kebab-case name; statistics are reported
  /// under it.
  explicit Pass(llvm::StringRef name = "") : name_(name.str()) {}
  Pass(const Pass &) = delete;
  Pass &operator=(const Pass &) = delete;
  virtual ~Pass();

  /// Runs on `module`. Returns whether it changed anything; an Error stops
  /// the pipeline (a violated precondition is an error that says `pass P
  /// needs ...`).
  virtual llvm::Expected<bool> run(IRModule &module, PassContext &ctx) = 0;

  const std::string &name() const { return name_; }
  llvm::ArrayRef<PassOptionBase *> options() const { return options_; }
  llvm::ArrayRef<PassStatistic *> statistics() const { return statistics_; }
  /// Sets the declared options from validated text values.
  void applyOptions(const PassOptions &values);

  /// The analyses this pass keeps valid in the functions it changes.
  const PreservedAnalyses &preserved() const { return preserved_; }
  /// The pipeline's analysis manager (set by the PassManager); a pass run
  /// on its own makes a private one.
  void setAnalysisManager(AnalysisManager *manager) { analyses_ = manager; }

protected:
  /// Declares analyses that stay valid in every function this pass changes
  /// (call it from the constructor). Nothing is preserved by default.
  template <typename... AnalysisTs> void markPreserved() { preserved_.preserve<AnalysisTs...>(); }
  void markAllPreserved() { preserved_.preserveAll(); }
  AnalysisManager &analyses();

  /// Moves the statistics the run added to into `ctx` and resets them.
  void reportStatistics(PassContext &ctx);
  void resetStatistics();

private:
  friend class PassOptionBase;
  friend class PassStatistic;

  std::string name_;
  std::vector<PassOptionBase *> options_;
  std::vector<PassStatistic *> statistics_;
  PreservedAnalyses preserved_;
  AnalysisManager *analyses_ = nullptr;
  std::unique_ptr<AnalysisManager> ownAnalyses_;
};

/// A pass over the whole module.
class ModulePass : public Pass {
public:
  using Pass::Pass;
  /// Runs runOnModule; on error the module is restored, on success the
  /// statistics are reported.
  llvm::Expected<bool> run(IRModule &module, PassContext &ctx) final;

protected:
  virtual llvm::Expected<bool> runOnModule(IRModule &module, PassContext &ctx) = 0;
};

/// A pass that rewrites each Relax function on its own.
class FunctionPass : public Pass {
public:
  using Pass::Pass;
  /// The adaptor: checkPreconditions, then runOnFunction on every Relax
  /// function in module order but Primitive ones (see rewriteFunctions); the rewritten functions
  /// replace the old ones only when every call succeeded.
  llvm::Expected<bool> run(IRModule &module, PassContext &ctx) final;

protected:
  /// Returns the rewritten function, `fn` itself when nothing changes.
  virtual llvm::Expected<Function> runOnFunction(const Function &fn) = 0;
  /// Checked on the whole module before any function is rewritten.
  virtual llvm::Error checkPreconditions(const IRModule &module) { return llvm::Error::success(); }

  /// While runOnFunction runs: the module (as it was before the pass), the
  /// function's name and the pipeline's context.
  const IRModule &module() const { return *module_; }
  const GlobalVar &functionVar() const { return *gvar_; }
  llvm::StringRef functionName() const;
  PassContext &context() const { return *ctx_; }
  /// An analysis of the function being rewritten (its input node).
  template <typename AnalysisT> const typename AnalysisT::Result &getAnalysis() {
    return analyses().get<AnalysisT>(functionName(), *current_);
  }

private:
  const IRModule *module_ = nullptr;
  const GlobalVar *gvar_ = nullptr;
  const FunctionNode *current_ = nullptr;
  PassContext *ctx_ = nullptr;
};

/// Whether `fn` is a fused kernel's definition (`"Primitive": True`, or a
/// nonzero integer as older TVM wrote it; ir/AttrKeys.h).
bool isPrimitiveFunction(const FunctionNode &fn);

/// Rewrites every Relax function of `module` with `rewrite` (which returns
/// the same node when nothing changed); only when every call succeeded are
/// the changed functions written back. Returns whether anything changed. The
/// FunctionPass adaptor, for module passes that rewrite functions too.
///
/// Primitive functions are skipped: a fused kernel's body is its definition,
/// which no pass after fuse-elementwise may legalize, lower or plan
/// (docs/fusion.md). A module pass that walks the module's functions itself
/// skips them too.
llvm::Expected<bool> rewriteFunctions(
    IRModule &module,
    llvm::function_ref<llvm::Expected<Function>(const GlobalVar &, const Function &)> rewrite);

struct PassInfo {
  std::string name;  ///< kebab-case: "dead-code-elimination"
  std::string alias; ///< TVM's CamelCase: "DeadCodeElimination"
  std::string summary;
  std::vector<PassOptionSpec> options; ///< From the pass's declarations.
  std::string preconditions;           ///< One line for `graft passes`; "" if none.
  bool testOnly = false;               ///< `test-*` passes, hidden unless --all.
  std::function<std::unique_ptr<Pass>(const PassOptions &)> create;
};

/// A named pipeline usable in `-p` like a pass ("finalize").
struct PipelineInfo {
  std::string name;
  std::string summary;
  std::string text; ///< The pipeline it stands for.
};

void registerPass(PassInfo info);
void registerPipeline(PipelineInfo info);

/// Registers PassT (default-constructible): its name and option specs come
/// from the pass's declarations, the rest from `info`.
template <typename PassT> void registerPass(PassInfo info) {
  PassT prototype;
  info.name = prototype.name();
  info.options.clear();
  for (const PassOptionBase *o : prototype.options())
    info.options.push_back(o->spec());
  info.create = [](const PassOptions &values) -> std::unique_ptr<Pass> {
    auto pass = std::make_unique<PassT>();
    pass->applyOptions(values);
    return pass;
  };
  registerPass(std::move(info));
}

/// By kebab name or CamelCase alias; null when unknown.
const PassInfo *lookupPass(llvm::StringRef name);
const PipelineInfo *lookupPipeline(llvm::StringRef name);
std::vector<const PassInfo *> allPasses();
std::vector<const PipelineInfo *> allPipelines();

} // namespace graft

#endif // GRAFT_PASS_PASS_H
