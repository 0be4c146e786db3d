//===- codegen/InterpreterImpl.h - Pieces of the interpreter ---*- C++ -*-===//
//
// Private to Interpreter.cpp and InterpretOps.cpp: symbolic values, their
// evaluation, and the op calls.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_INTERPRETERIMPL_H
#define GRAFT_CODEGEN_INTERPRETERIMPL_H

#include "codegen/Interpreter.h"

#include "ir/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

namespace graft::codegen::interp {

/// The value of a symbolic expression: an integer (bool as 0/1) or a float.
struct Scalar {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0;
  static Scalar integer(int64_t v) { return {false, v, 0}; }
  static Scalar real(double v) { return {true, 0, v}; }
  double asDouble() const { return isFloat ? f : static_cast<double>(i); }
  bool operator==(const Scalar &o) const {
    return isFloat || o.isFloat ? asDouble() == o.asDouble() : i == o.i;
  }
};

/// The symbolic vars of one function activation.
using SymEnv = llvm::DenseMap<const TirVarNode *, Scalar>;

inline llvm::Error error(InterpretError::Kind kind, const llvm::Twine &message) {
  return llvm::make_error<InterpretError>(kind, message.str());
}
inline llvm::Error unsupported(const llvm::Twine &what) {
  return error(InterpretError::Kind::Unsupported, what + " is not supported by the interpreter");
}
inline llvm::Error runtimeError(const llvm::Twine &message) {
  return error(InterpretError::Kind::Runtime, message);
}

/// Evaluates `e` with the vars of `env` (post-order on an explicit stack).
/// An unbound var or a division by zero is a runtime error.
llvm::Expected<Scalar> evalPrim(const PrimExprNode *e, const SymEnv &env);

/// A scalar as the VM value of dtype `dt`: Bool, Int or Float.
vm::Value scalarValue(DataType dt, Scalar s);

/// Runs the op call `call` on its evaluated arguments: a kernel op through
/// its CPU kernel (outputs sized from the call's struct info), or one of the
/// runtime ops the interpreter knows (shape_of, assert_op, ...).
llvm::Expected<vm::Value> callOp(const CallNode &call, llvm::ArrayRef<vm::Value> args,
                                 const SymEnv &env);

} // namespace graft::codegen::interp

#endif // GRAFT_CODEGEN_INTERPRETERIMPL_H
