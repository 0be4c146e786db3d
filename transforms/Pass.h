//===- transforms/Pass.h - Passes, their registry and options ---*- C++ -*-===//
//
// A pass transforms an IRModule in place and says whether it changed it. It
// is registered once with a kebab-case name, TVM's CamelCase name as an
// alias, a one-line summary, typed options and its preconditions; pipelines
// name passes textually (`a,b{opt=1},c`, see Pipeline.h).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_PASS_H
#define GRAFT_TRANSFORMS_PASS_H

#include "ir/Module.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace graft {

/// One typed option of a pass: `name` in kebab case (a TVM pass argument's
/// name in kebab case), with TVM's default.
struct PassOptionSpec {
  enum class Kind : uint8_t { Bool, Int, String, List };
  std::string name;
  Kind kind = Kind::Bool;
  std::string defaultValue; ///< As written in a pipeline ("true", "3", "a,b").
  std::string description;
};

/// Option values of one pass invocation, validated against its specs.
class PassOptions {
public:
  bool getBool(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name) const;
  const std::string &getString(llvm::StringRef name) const;
  std::vector<std::string> getList(llvm::StringRef name) const;

  /// Fills defaults, then applies `given` (checked for names and kinds).
  static llvm::Expected<PassOptions>
  build(llvm::StringRef passName, const std::vector<PassOptionSpec> &specs,
        const std::vector<std::pair<std::string, std::string>> &given);

private:
  llvm::StringMap<std::string> values_;
};

/// What passes share while a pipeline runs: config keys (`--config`,
/// `# CONFIG:`) and statistics.
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

class Pass {
public:
  virtual ~Pass();
  /// Runs on `module`, changing it in place. Returns whether it changed
  /// anything. An Error stops the pipeline: a violated precondition is an
  /// error that says `pass P needs ...`.
  virtual llvm::Expected<bool> run(IRModule &module, PassContext &ctx) = 0;
};

struct PassInfo {
  std::string name;  ///< kebab-case: "dead-code-elimination"
  std::string alias; ///< TVM's CamelCase: "DeadCodeElimination"
  std::string summary;
  std::vector<PassOptionSpec> options;
  std::string preconditions; ///< One line for `graft passes`; "" if none.
  bool testOnly = false;     ///< `test-*` passes, hidden unless --all.
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
/// By kebab name or CamelCase alias; null when unknown.
const PassInfo *lookupPass(llvm::StringRef name);
const PipelineInfo *lookupPipeline(llvm::StringRef name);
std::vector<const PassInfo *> allPasses();
std::vector<const PipelineInfo *> allPipelines();

} // namespace graft

#endif // GRAFT_TRANSFORMS_PASS_H
