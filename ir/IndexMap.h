//===- ir/IndexMap.h - TVM's tir.IndexMap as an attribute value -*- C++ -*-===//
//
// The index map of `R.layout_transform`: written `lambda i: (i // 4, i % 4)`
// or `T.index_map(lambda ..., index_dtype=, inverse_index_map=)`, held in an
// AttrValue of kind IndexMap. Printing and the shape a map gives a tensor
// live here with the node.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_INDEXMAP_H
#define GRAFT_IR_INDEXMAP_H

#include "ir/Attrs.h"
#include "ir/PrimExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace graft {

/// TVM's tir.IndexMap, written `lambda i, j: (i // 4, j)` or
/// `T.index_map(lambda ...)`: the lambda's parameters (fresh TIR vars of one
/// index dtype, bound by the map) and the index expressions over them, with
/// the inverse map when one was given. Two maps compare equal up to renaming
/// their parameters.
class IndexMapNode : public Node {
public:
  std::vector<TirVar> initial;
  std::vector<PrimExpr> final;
  Ref<IndexMapNode> inverse;
  IndexMapNode(std::vector<TirVar> initial, std::vector<PrimExpr> final,
               Ref<IndexMapNode> inverse = nullptr)
      : Node(NodeKind::IndexMap), initial(std::move(initial)), final(std::move(final)),
        inverse(std::move(inverse)) {}

  static bool classof(const Node *n) { return n->getKind() == NodeKind::IndexMap; }
};
using IndexMap = Ref<IndexMapNode>;

/// Prints `T.index_map(lambda i, j: (i // 4, j))`, with `index_dtype="int32"` when the
/// parameters are not int64 (TVM's default) and `inverse_index_map=lambda ...` when the
/// map has one. `printVar` writes each parameter (the printer names them).
void printIndexMap(llvm::raw_ostream &os, const IndexMapNode &m,
                   llvm::function_ref<void(llvm::raw_ostream &, const TirVarNode *)> printVar);

/// The extents of the map's indices over the box [0, shape[k]) of its
/// parameters (TVM's IndexMap::MapShape), simplified; None when an index is
/// not of a form whose range graft derives (affine sums, `//` and `%` by
/// positive constants of such sums).
llvm::Optional<std::vector<PrimExpr>> mapShape(const IndexMapNode &m,
                                               llvm::ArrayRef<PrimExpr> shape);

/// The map as graft.layout_transform's `index_map` attribute: the header
/// [number of parameters, number of indices], then each index as a postfix
/// program ending in 0, with tokens 1 (parameter, its position follows),
/// 2 (constant, its value follows), 3 +, 4 -, 5 *, 6 //, 7 %
/// (kernels/IndexMapPlan.h reads it). "" on success, else why the map has
/// no such form ("divides by ...": an index that is not integer arithmetic
/// over the parameters, or a `//` or `%` whose divisor is not a positive
/// constant).
std::string indexMapProgram(const IndexMapNode &m, std::vector<int64_t> &program);

} // namespace graft

#endif // GRAFT_IR_INDEXMAP_H
