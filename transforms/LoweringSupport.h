//===- transforms/LoweringSupport.h - Helpers of the VM lowering passes -*- C++ -*-===//
//
// Small queries and builders that the finalize passes (to-non-dataflow ...
// attach-global-symbol) share: `relax.force_pure`, calls to
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

/// `vm.builtin.*`: a packed function of the VM runtime (host code).
inline bool isVMBuiltinSymbol(llvm::StringRef symbol) { return symbol.startswith("vm.builtin."); }

/// `graft.host.*`: a kernel that reads device data back on the host, so it
/// cannot sit inside a CUDA-graph capture.
inline bool isHostKernelSymbol(llvm::StringRef symbol) { return symbol.startswith("graft.host."); }

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
