//===- codegen/Interpreter.h - The reference interpreter -------*- C++ -*-===//
//
// Runs a function of a high-level module directly: no legalize-ops, fusion
// or finalize. Each op call runs the CPU reference kernel that legalize-ops
// would lower it to (ir/OpKernels.h), on host tensors allocated from the
// call's struct info. It is the oracle of the differential tests
// (docs/testing.md), so it is deliberately simple: one work list of frames
// and binding cursors, no recursion whose depth the program controls, and
// every value a vm::Value (tensor, tuple, shape, int, float, bool, string).
//
// Lives in codegen/ because it needs ir/ and the kernels (through the VM's
// value types); the runtime never includes it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_INTERPRETER_H
#define GRAFT_CODEGEN_INTERPRETER_H

#include "ir/Module.h"
#include "vm/Value.h"

#include "llvm/Support/Error.h"

#include <string>

namespace graft::codegen {

/// Why the interpreter stopped; `graft run --interpret` maps it to the exit
/// code of `graft run` (docs/cli.md).
class InterpretError : public llvm::ErrorInfo<InterpretError> {
public:
  enum class Kind {
    BadInput,    ///< An argument does not fit the parameter (exit 2).
    Unsupported, ///< The program uses what the interpreter does not run (exit 2).
    Runtime,     ///< A failing assert, a kernel error, a failing match_cast (exit 1).
  };
  static char ID;
  InterpretError(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  Kind kind() const { return kind_; }
  const std::string &text() const { return message_; }
  void log(llvm::raw_ostream &os) const override { os << message_; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  Kind kind_;
  std::string message_;
};

/// Runs `function` of `module` on `args`. The arguments are checked against
/// the parameters' struct info first (binding their symbolic vars), as the
/// VM checks its parameter table; errors are InterpretErrors.
llvm::Expected<vm::Value> interpret(const IRModule &module, llvm::StringRef function,
                                    llvm::ArrayRef<vm::Value> args);

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_INTERPRETER_H
