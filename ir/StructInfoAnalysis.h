//===- ir/StructInfoAnalysis.h - Algorithms over struct info ----*- C++ -*-===//
//
// Subtyping (TVM's StructInfoBaseCheck), least common ancestor, erasure of
// symbolic vars that are not defined in a scope, substitution of symbolic
// vars, and the derivation of a call's return struct info from a callee's
// FuncStructInfo (TVM `src/relax/analysis/struct_info_analysis.cc`).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_STRUCTINFOANALYSIS_H
#define GRAFT_IR_STRUCTINFOANALYSIS_H

#include "ir/Expr.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"

namespace graft {

/// Ordered from best to worst, as TVM's BaseCheckResult.
enum class BaseCheck : uint8_t {
  FailL0 = 0, ///< The value sets are disjoint.
  FailL1 = 1, ///< Static information (ndim, dtype) differs.
  FailL2 = 2, ///< A symbolic value cannot be proven equal.
  Pass = 3,
};

/// Whether every value of `derived` is a value of `base`.
BaseCheck structInfoBaseCheck(const StructInfoNode *base, const StructInfoNode *derived);
inline bool isBaseOf(const StructInfoNode *base, const StructInfoNode *derived) {
  return structInfoBaseCheck(base, derived) == BaseCheck::Pass;
}

/// Least common ancestor of two struct infos (If branches).
StructInfo structInfoLCA(const StructInfoNode *a, const StructInfoNode *b);

/// Drops symbolic information that mentions a TirVar not in `defined` (shape
/// values dropped keeping ndim; a Prim value dropped keeping dtype; a Shape
/// var in a tensor dropped unless `definedShapeVars` holds it).
StructInfo eraseToWellDefined(const StructInfoNode *s,
                              const llvm::DenseSet<const TirVarNode *> &defined,
                              const llvm::DenseSet<const VarNode *> *definedShapeVars = nullptr);

/// Replaces TirVars per `map` (and simplifies what changed).
using TirVarMap = llvm::DenseMap<const TirVarNode *, PrimExpr>;
StructInfo substituteSInfo(const StructInfoNode *s, const TirVarMap &map);
PrimExpr substitutePrim(const PrimExpr &e, const TirVarMap &map);

/// The symbolic vars a struct info defines at a definition site: the bare
/// TirVars of its shapes and Prim values, first occurrence order.
void collectDefinableTirVars(const StructInfoNode *s,
                             llvm::SmallVectorImpl<const TirVarNode *> &out);
/// Every TirVar a struct info mentions.
void collectTirVars(const StructInfoNode *s, llvm::SmallVectorImpl<const TirVarNode *> &out);

/// The return struct info of calling a callee with FuncStructInfo `func` on
/// `args` (unify param symbolic vars with argument struct info, substitute
/// into ret, erase what cannot be resolved). Also handles an opaque callee
/// with a derive_func (kInferBySInfoArgs uses `sinfoArgs`).
llvm::Expected<StructInfo> deriveCallRetSInfo(const FuncSInfoNode &func, const CallNode &call);

/// Structural equality of struct info without var mapping (TirVars and
/// Vars by identity). For annotation checks and tests.
bool structInfoIdentical(const StructInfoNode *a, const StructInfoNode *b);

} // namespace graft

#endif // GRAFT_IR_STRUCTINFOANALYSIS_H
