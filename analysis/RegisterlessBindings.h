//===- analysis/RegisterlessBindings.h - Bindings VM codegen gives no register -*- C++ -*-===//
//
// The one table of the special cases VM codegen makes for a binding's value
// (reference tvm-passes-and-vm.md §5.4, §5.6): a var bound to one of these
// values is not held in a VM register but maps to the void register, a
// constant-pool entry, an immediate or a function-table entry.
//
// kill-after-last-use reads it to decide what it may kill: `R.vm.kill_object`
// overwrites a register, so a kill of a registerless var is invalid (TVM #20267:
// TVM killed `shape_heap = R.null_value()`, which crashes the compiled VM).
//
// The table lives in analysis/ because transforms/ cannot depend on codegen/.
// The VM code generator (codegen/, library graft_codegen) MUST classify
// bindings through registerlessRowFor() too, and a new special case in codegen
// is added here as a row, so the pass and codegen never disagree.
// tests/analysis/RegisterlessBindingsTest.cpp builds one binding per row and
// checks that kill-after-last-use kills none of them.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_REGISTERLESSBINDINGS_H
#define GRAFT_ANALYSIS_REGISTERLESSBINDINGS_H

#include "ir/Expr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace graft {

/// Where codegen puts the value instead of a register.
enum class RegisterlessKind : uint8_t {
  NullValue,   ///< `R.null_value()`: the void register (bytecode), a null handle (compiled).
  VoidCall,    ///< A call whose struct info is `R.Tuple()`: its result goes to the void register.
  Constant,    ///< `R.const(...)`: a constant-pool index.
  ShapeExpr,   ///< `R.shape([...])`: a constant-pool shape.
  PrimValue,   ///< `R.prim_value(...)`: an immediate or a constant.
  StringImm,   ///< `R.str(...)`: a constant-pool string.
  DataTypeImm, ///< `R.dtype(...)`: a constant-pool DLDataType.
  GlobalVar,   ///< A module function: a function-table index.
  ExternFunc,  ///< `R.ExternFunc("sym")`: a function-table index.
  Function,    ///< A local function value (lifted before codegen).
};

struct RegisterlessRow {
  RegisterlessKind kind;
  llvm::StringRef name;    ///< Short name, e.g. "null-value".
  llvm::StringRef codegen; ///< What codegen emits for it.
  /// A binding of this row in TVMScript (`v: <annotation> = <value>`), for
  /// tests and docs; the value may read the param `x: R.Tensor((4,), "float32")`.
  llvm::StringRef annotation;
  llvm::StringRef example;
  /// Whether a binding value (a match_cast's value too: codegen ignores the
  /// cast) falls in this row.
  bool (*matches)(const ExprNode *value);
};

/// Every row, in RegisterlessKind order.
llvm::ArrayRef<RegisterlessRow> registerlessTable();

/// The row a binding value falls in, or null when codegen gives the bound
/// var a register.
const RegisterlessRow *registerlessRowFor(const ExprNode *value);

/// Whether VM codegen holds the var bound by `binding` in a register.
inline bool bindingHasRegister(const BindingNode &binding) {
  return registerlessRowFor(binding.value.get()) == nullptr;
}

} // namespace graft

#endif // GRAFT_ANALYSIS_REGISTERLESSBINDINGS_H
