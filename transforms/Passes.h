//===- transforms/Passes.h - Registration of every pass ---------*- C++ -*-===//
//
// Each pass file defines one `registerXxxPass()`; registerAllPasses() calls
// them once (explicit calls, because a static library drops object files
// whose only job is a static initializer).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_PASSES_H
#define GRAFT_TRANSFORMS_PASSES_H

namespace graft {

void registerAllPasses();

void registerFuseMaskedCopyPass();
void registerRemoveDeviceAssertsPass();

// Test-only passes.
void registerTestDropBindingPass();
void registerTestRemovePrintPass();

} // namespace graft

#endif // GRAFT_TRANSFORMS_PASSES_H
