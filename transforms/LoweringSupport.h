//===- transforms/LoweringSupport.h - Helpers of the VM lowering passes -*- C++ -*-===//
//
// Small queries and builders that the finalize passes (to-non-dataflow ...
// attach-global-symbol) share: op-call matching, `relax.force_pure`, calls to
// `vm.builtin.*` symbols. (The "commit only after every function was
// rewritten" loop is the pass library's: FunctionPass, rewriteFunctions.)
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_LOWERINGSUPPORT_H
#define GRAFT_TRANSFORMS_LOWERINGSUPPORT_H

#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Op.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace graft {

/// The call when `e` calls the registered op `fullName` ("relax.call_tir").
inline const CallNode *asOpCall(const ExprNode *e, llvm::StringRef fullName) {
  const auto *call = llvm::dyn_cast_or_null<CallNode>(e);
  if (!call)
    return nullptr;
  const OpInfo *info = call->opInfo();
  return info && info->name == fullName ? call : nullptr;
}

/// Whether `fn` carries `relax.force_pure` = True.
bool hasForcePure(const FunctionNode &fn);

/// `Call(ExternFunc(symbol), args, sinfo_args)`, not yet normalized.
Expr externCall(llvm::StringRef symbol, std::vector<Expr> args, std::vector<StructInfo> sinfoArgs);

/// A copy of `fn` with its attributes replaced (params, body, purity,
/// location and the well-formedness flag kept).
Function withFunctionAttrs(const FunctionNode &fn, Attrs attrs);

/// `pass P needs ...`: the precondition error every lowering pass returns
/// before it changes anything.
llvm::Error needsError(llvm::StringRef pass, const llvm::Twine &what);

/// The precondition of a pass that turns some calls into impure ones: each
/// call for which `becomesImpure` holds must sit outside dataflow blocks, in
/// a function that is impure or `relax.force_pure`. The error names the call
/// (`R.call_tir`, `R.reshape`) and the pass that establishes the condition.
llvm::Error checkImpureLoweringSites(const IRModule &module, llvm::StringRef pass,
                                     llvm::function_ref<bool(const CallNode &)> becomesImpure);

} // namespace graft

#endif // GRAFT_TRANSFORMS_LOWERINGSUPPORT_H
