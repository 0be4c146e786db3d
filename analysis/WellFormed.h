//===- analysis/WellFormed.h - The IR verifier ------------------*- C++ -*-===//
//
// Checks every well-formedness rule of docs/verifier.md. Each violation is a
// diagnostic located at the binding that breaks the rule (a rule about a
// whole function at its `def`); for IR without source locations the message
// names the function and binding and carries the function printed with the
// binding marked. When one fault causes several violations, the root cause
// comes first.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_WELLFORMED_H
#define GRAFT_ANALYSIS_WELLFORMED_H

#include "ir/Diagnostics.h"
#include "ir/Module.h"

#include <vector>

namespace graft {

struct Violation {
  llvm::SMLoc loc;                      ///< The binding, or the function's def line.
  std::string function;                 ///< Name of the top-level function.
  const BindingNode *binding = nullptr; ///< The binding at fault, if any.
  std::string message; ///< e.g. "var 'lv3' is used in function 'main' but not defined"
  std::vector<DiagNote> notes;
};

struct VerifyOptions {
  /// TVM's check_struct_info flag.
  bool checkStructInfo = true;
};

/// Every violation, root causes first. Empty: well-formed.
std::vector<Violation> verifyModule(const IRModule &module, const VerifyOptions &opts = {});

/// The violation as an llvm::Error (DiagnosticError) for printing.
llvm::Error toError(const Violation &v, const IRModule &module);

} // namespace graft

#endif // GRAFT_ANALYSIS_WELLFORMED_H
