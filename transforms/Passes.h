//===- transforms/Passes.h - Registration of every pass ---------*- C++ -*-===//
//
// Each pass file defines one `registerXxxPass()`; registerAllPasses() calls
// them (explicit calls, because a static library drops object files whose
// only job is a static initializer). Tools, benchmarks and tests call
// registerAllPasses() before they look passes up; calling it again does
// nothing.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_PASSES_H
#define GRAFT_TRANSFORMS_PASSES_H

namespace graft {

void registerAllPasses();

void registerCanonicalizeBindingsPass();
void registerDeadCodeEliminationPass();
void registerFuseMaskedCopyPass();
void registerFuseElementwisePass();
void registerRemoveDeviceAssertsPass();
void registerLegalizeOpsPass();
void registerKillAfterLastUsePass();
void registerStaticPlanBlockMemoryPass();
void registerRewriteCUDAGraphPass();
void registerStageCUDAGraphInputsPass();
void registerVMShapeLowerPass();

void registerToNonDataflowPass();
void registerRemovePurityCheckingPass();
void registerCallTIRRewritePass();
void registerLowerAllocTensorPass();
void registerLowerRuntimeBuiltinPass();
void registerComputePrimValuePass();
void registerAttachGlobalSymbolPass();
// Test-only passes.
void registerTestDropBindingPass();
void registerTestRemovePrintPass();

} // namespace graft

#endif // GRAFT_TRANSFORMS_PASSES_H
