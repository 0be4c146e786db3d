//===- pass/Pipeline.h - Textual pass pipelines -----------------*- C++ -*-===//
//
// `pass-a,pass-b{opt=1,list=x,y},finalize`: a comma list of pass or named
// pipeline names, each with options in braces (list values comma-separated
// inside the braces, as in MLIR). Names may be TVM CamelCase aliases. A
// parsed pipeline prints back in canonical form (kebab names, options as
// given), and named pipelines expand to their passes.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PIPELINE_H
#define GRAFT_PASS_PIPELINE_H

#include "pass/Pass.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace graft {

struct PassInvocation {
  const PassInfo *info = nullptr;
  /// Options as written, in order (validated against info->options).
  std::vector<std::pair<std::string, std::string>> options;
  PassOptions values;
};

struct Pipeline {
  std::vector<PassInvocation> passes;
  /// Canonical text: `a,b{x=1}`; parse(print(p)) gives p.
  std::string str() const;
  /// Whether any pass of the pipeline has this name.
  bool contains(llvm::StringRef passName) const;
};

/// Parses and validates; named pipelines are expanded in place. Errors name
/// the offending pass or option: `unknown pass 'foo'`, `pass 'x' has no
/// option 'y'`, `option 'z' of pass 'x' expects a boolean, got 'maybe'`.
llvm::Expected<Pipeline> parsePipeline(llvm::StringRef text);

/// One invocation printed as in a pipeline: `name{k=v,...}`.
std::string invocationStr(const PassInvocation &inv);

} // namespace graft

#endif // GRAFT_PASS_PIPELINE_H
