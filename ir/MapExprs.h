//===- ir/MapExprs.h - Mapping expression lists -----------------*- C++ -*-===//
//
// The loop every rebuilder of a Tuple or Call runs over its children: map
// each, stop at the first error, and know whether any child became another
// node (an unchanged node must be returned as itself).
//
//===----------------------------------------------------------------------===//

#ifndef GRAFT_IR_MAPEXPRS_H
#define GRAFT_IR_MAPEXPRS_H

#include "ir/Expr.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace graft {

/// Appends `fn(e)` for every `e` of `in` to `out`, in order; returns whether
/// any result is a different node than its input, or the first error.
template <typename Fn>
llvm::Expected<bool> mapExprs(llvm::ArrayRef<Expr> in, std::vector<Expr> &out, Fn &&fn) {
  out.reserve(out.size() + in.size());
  bool changed = false;
  for (const Expr &e : in) {
    llvm::Expected<Expr> mapped = fn(e);
    if (!mapped)
      return mapped.takeError();
    changed |= mapped->get() != e.get();
    out.push_back(std::move(*mapped));
  }
  return changed;
}

} // namespace graft

#endif // GRAFT_IR_MAPEXPRS_H
