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

// Test-only passes.
void registerTestDropBindingPass();

} // namespace graft

#endif // GRAFT_TRANSFORMS_PASSES_H
