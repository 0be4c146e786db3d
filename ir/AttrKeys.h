//===- ir/AttrKeys.h - Names of the function attrs and configs passes use -*- C++ -*-===//
//
// The `relax.*` keys keep TVM's spelling because they appear in the text
// format and on the command line; the compiler names them only through
// these constants (a test keeps `"relax.` literals out of the passes).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_ATTRKEYS_H
#define GRAFT_IR_ATTRKEYS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace graft {

/// Function attrs.
/// @{
/// A function that may contain impure calls yet counts as pure.
inline constexpr llvm::StringLiteral kForcePureAttr = "relax.force_pure";
/// static-plan-block-memory: plan symbolic-shaped outputs by their upper bounds.
inline constexpr llvm::StringLiteral kMemoryPlanDynamicFuncOutputAttr =
    "relax.memory_plan_dynamic_func_output";
/// rewrite-cuda-graph: symbolic vars a capture may be specialized on.
inline constexpr llvm::StringLiteral kCaptureSymbolicVarsAttr =
    "relax.rewrite_cuda_graph.capture_symbolic_vars";
/// A fused kernel's definition (fuse-elementwise; TVM's FuseOps marking):
/// passes leave its body alone (pass/Pass.h) and codegen emits it as a
/// kernel program, not as VM code.
inline constexpr llvm::StringLiteral kPrimitiveAttr = "Primitive";
/// @}

/// The kernel symbol under which a call runs the Primitive function `name`:
/// `graft.fused.<name>` (docs/fusion.md).
inline constexpr llvm::StringLiteral kFusedKernelPrefix = "graft.fused.";
inline std::string fusedKernelSymbol(llvm::StringRef function) {
  return kFusedKernelPrefix.str() + function.str();
}
/// The Primitive function a fused kernel symbol names; "" for another symbol.
inline llvm::StringRef fusedFunctionOf(llvm::StringRef symbol) {
  return symbol.consume_front(kFusedKernelPrefix) ? symbol : llvm::StringRef();
}

/// PassContext config keys (`--config key=value`).
/// @{
/// Turns rewrite-cuda-graph on.
inline constexpr llvm::StringLiteral kUseCUDAGraphConfig = "relax.backend.use_cuda_graph";
/// @}

} // namespace graft

#endif // GRAFT_IR_ATTRKEYS_H
