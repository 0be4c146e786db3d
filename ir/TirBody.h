//===- ir/TirBody.h - Structured PrimFunc bodies ----------------*- C++ -*-===//
//
// A PrimFunc body as a TIR statement tree, normalized as TVM's parser
// normalizes it (docs/text-format.md, PrimFuncs): `T.grid` is nested loops,
// `T.axis.remap` is one `T.axis.spatial`/`reduce` per var, a block without
// `T.reads`/`T.writes` gets the regions TVM infers, blocks below the function
// sit in an implicit root block, and an intrinsic call carries its dtype.
//
// The tree is one array of uniform nodes (kind, dtype, text, literal value,
// children by index) and a table of definitions: loop vars, block vars, let
// vars, buffers. A node that defines or uses a var refers to its entry, so
// equality and hashing are generic walks that pair definitions as they meet
// them (alpha-equivalence: renamed vars and buffers compare equal). The
// signature's params and symbolic vars are the first entries, paired by
// position. A body is immutable once built; PrimFuncs share it.
//
// Depth: the parser gives up on (falls back to tokens for) a body nested
// deeper than kMaxDepth, so the recursive printer is bounded by a constant;
// equality and hashing use work lists anyway.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_TIRBODY_H
#define GRAFT_IR_TIRBODY_H

#include "ir/DataType.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graft {
namespace tir {

/// The deepest tree the parser builds.
constexpr unsigned kMaxDepth = 200;

enum class Kind : uint8_t {
  // Expressions.
  Int,     ///< ival, dtype (bool for True/False).
  Float,   ///< fval, dtype.
  Str,     ///< text.
  None,    ///< Python None.
  Var,     ///< def: a scalar var.
  BufAttr, ///< def: a buffer; text: "data", "shape", ... ; kids: optional index.
  Global,  ///< text: a module function's name.
  Load,    ///< def: the buffer; kids: indices (Slice in a region).
  Slice,   ///< kids: begin, end (a region's range, `A[0:16]`).
  Call,    ///< text: callee (`T.exp`); kids: args, then Keyword nodes.
  Keyword, ///< text: name; kids[0]: value.
  Binary,  ///< text: operator spelling; kids: lhs, rhs.
  Unary,   ///< text: "-", "~" or "not"; kids[0].
  Tuple,   ///< kids.
  List,    ///< kids.
  Dict,    ///< kids: key, value, key, value, ...
  // Statements.
  Seq,        ///< kids: statements.
  For,        ///< def: loop var; text: loop kind; kids: begin, end, body, Keyword*.
  Block,      ///< text: name; kids: IterVar*, Where?, Reads, Writes, BlockAttr?, Init?, Seq.
  IterVar,    ///< def; text: "spatial", "reduce", "scan", "opaque"; kids: begin, end, binding.
  Where,      ///< kids[0]: predicate.
  Reads,      ///< kids: Load regions.
  Writes,     ///< kids: Load regions.
  BlockAttr,  ///< kids[0]: the annotation dict.
  Init,       ///< kids[0]: a Seq.
  Store,      ///< def: the buffer; kids: value, indices.
  If,         ///< kids: condition, then Seq, else Seq (possibly empty).
  While,      ///< kids: condition, body Seq.
  Let,        ///< def; kids[0]: value (scope: the rest of its Seq).
  BufferDecl, ///< def: a buffer; kids[0]: the declaring Call (`T.alloc_buffer(...)`).
  VarDecl,    ///< def: `n = T.int64()` (a var of the body, no value).
  With,       ///< def: the `as` var or -1; kids: the Call, body Seq.
  Evaluate,   ///< kids[0]: value.
  Assert,     ///< kids: condition, message.
  Return,     ///< kids[0]: value.
};

/// Whether a node of this kind introduces its `def` (otherwise `def`, when
/// set, refers to an earlier definition).
inline bool definesVar(Kind k) {
  return k == Kind::For || k == Kind::IterVar || k == Kind::Let || k == Kind::BufferDecl ||
         k == Kind::VarDecl || k == Kind::With;
}

struct TNode {
  Kind kind = Kind::None;
  DataType dtype;
  int32_t def = -1;
  int64_t ival = 0;
  double fval = 0;
  std::string text;
  llvm::SmallVector<uint32_t, 4> kids;
};

/// A var or buffer the body uses.
struct Def {
  std::string name;
  DataType dtype;
  bool isBuffer = false;
  unsigned ndim = 0;
};

struct Body {
  std::vector<TNode> nodes;
  std::vector<Def> defs;
  /// defs [0, numSignatureDefs) are the params and then the symbolic vars of
  /// their shapes, in order: two bodies pair them by position.
  uint32_t numSignatureDefs = 0;
  uint32_t root = 0; ///< A Seq.

  const TNode &node(uint32_t i) const { return nodes[i]; }
};

/// Structural equality up to renaming of vars and buffers the bodies define.
/// On a difference, `*where` (if given) names the first differing node.
bool equal(const Body &a, const Body &b, std::string *where = nullptr);
/// Consistent with equal().
uint64_t hash(const Body &b);
/// The body's statements at `indent` (4 spaces each), as TVM prints them;
/// a call of a module function prints as `module.name(...)`.
void print(llvm::raw_ostream &os, const Body &b, unsigned indent, llvm::StringRef module);
/// The module functions the body calls.
void forEachCalledFunction(const Body &b, llvm::function_ref<void(llvm::StringRef)> fn);

} // namespace tir
} // namespace graft

#endif // GRAFT_IR_TIRBODY_H
