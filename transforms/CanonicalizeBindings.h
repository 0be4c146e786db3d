//===- transforms/CanonicalizeBindings.h - canonicalize-bindings as a call -*- C++ -*-===//
//
// The rewrite of the canonicalize-bindings pass on one function, for passes
// that canonicalize before their own work (kill-after-last-use) without
// going through the registry.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TRANSFORMS_CANONICALIZEBINDINGS_H
#define GRAFT_TRANSFORMS_CANONICALIZEBINDINGS_H

#include "ir/Module.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace graft {

/// What one canonicalization did (the pass's statistics).
struct CanonicalizeBindingsStats {
  int64_t substitutedSymbolicVars = 0;
  int64_t foldedOutputCopies = 0;
  int64_t inlinedConstants = 0;
  int64_t replacedUses = 0;
  int64_t removedBindings = 0;
  int64_t dataflowVars = 0;
  int64_t renamedDefinitions = 0;
};

/// canonicalize-bindings on `fn`, a function of `module`: `fn` itself when
/// nothing changes.
llvm::Expected<Function> canonicalizeBindings(const Function &fn, const IRModule &module,
                                              CanonicalizeBindingsStats *stats = nullptr);

} // namespace graft

#endif // GRAFT_TRANSFORMS_CANONICALIZEBINDINGS_H
