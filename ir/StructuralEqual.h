//===- ir/StructuralEqual.h - Structural equality and hash ------*- C++ -*-===//
//
// TVM v0.23's structural equality (TVM `src/node/structural_equal.cc`, "Structural equality in
// v0.23"): definition sites map vars (function params, binding vars,
// match_cast struct info, GlobalVars paired by name), names are ignored
// except GlobalVar names, struct info is compared on vars, params, return,
// sinfo_args and match_cast, floats compare bit for bit except that every
// NaN equals every NaN. The hash is consistent with equality.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_STRUCTURALEQUAL_H
#define GRAFT_IR_STRUCTURALEQUAL_H

#include "ir/Module.h"

#include "llvm/ADT/Optional.h"

#include <cstdint>
#include <string>

namespace graft {

/// The first difference found, as access paths in TVM's style, e.g.
/// `functions["main"].body.blocks[0].bindings[3].value.args[1]`, with the
/// two sides printed around it. Spelling (ir/StructuralEqual.cpp): struct
/// info `.struct_info`, return `.ret_struct_info`, attributes `.attrs["key"]`,
/// a missing element `[<missing item at i>]` / `[<missing item at "key">]`
/// on the side that lacks it. The text is the enclosing binding (one line)
/// or, outside any binding, the enclosing function; `<missing>` for a
/// function only one side has.
struct Mismatch {
  std::string lhsPath;
  std::string rhsPath;
  std::string lhsText; ///< The enclosing binding or function, printed.
  std::string rhsText;
  std::string report() const; ///< The full report `graft diff` prints.
};

bool structuralEqual(const IRModule &a, const IRModule &b);
/// None when equal.
llvm::Optional<Mismatch> firstMismatch(const IRModule &a, const IRModule &b);

bool structuralEqual(const Node *a, const Node *b, bool mapFreeVars = false);

uint64_t structuralHash(const IRModule &m);
uint64_t structuralHash(const Node *n, bool mapFreeVars = false);

} // namespace graft

#endif // GRAFT_IR_STRUCTURALEQUAL_H
