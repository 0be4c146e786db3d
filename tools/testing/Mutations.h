//===- tools/testing/Mutations.h - Single faults for the verifier -----*- C++ -*-===//
//
// Mutation testing of the verifier: each mutation puts exactly one fault
// into the `main` function of a well-formed (generated) module, at the IR
// level so that the parser's own checks are not what catches it. The
// verifier must report every mutated module (docs/testing.md).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTING_MUTATIONS_H
#define GRAFT_TESTING_MUTATIONS_H

#include "ir/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace graft::testing {

enum class Mutation {
  DropUsedBinding,          ///< A var used later loses its binding.
  UseBeforeDefinition,      ///< Two dependent bindings swap places.
  WrongDType,               ///< A binding var annotated with another dtype.
  WrongShape,               ///< A binding var annotated with a provably different dim.
  ImpureInDataflow,         ///< An R.assert_op inside a dataflow block.
  DataflowVarOutside,       ///< A dataflow var read after its block.
  SymbolicBeforeDefinition, ///< A match_cast's new symbolic var read before the cast.
};

llvm::ArrayRef<Mutation> allMutations();
llvm::StringRef mutationName(Mutation m);

/// Applies `m` to `main` of `module` in place; false (nothing changed) when
/// the function has no place for it. `choice` picks among the places.
bool applyMutation(IRModule &module, Mutation m, uint64_t choice);

} // namespace graft::testing

#endif // GRAFT_TESTING_MUTATIONS_H
