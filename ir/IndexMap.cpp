//===- ir/IndexMap.cpp - Index maps: text form and mapped shapes ------------===//
//
// mapShape derives each index's range by interval arithmetic over the box of
// the parameters, which covers the maps TVM's layout rewrites write (splits
// `i // c`, `i % c`, fusions `i * c + j`, permutations). TVM's MapShape asks
// its iterator-map detection instead; on these forms the extents agree.
//
//===----------------------------------------------------------------------===//

#include "ir/IndexMap.h"

#include "llvm/ADT/DenseMap.h"

using namespace graft;

void graft::printIndexMap(
    llvm::raw_ostream &os, const IndexMapNode &m,
    llvm::function_ref<void(llvm::raw_ostream &, const TirVarNode *)> printVar) {
  auto lambda = [&](const IndexMapNode &map) {
    os << "lambda";
    for (size_t i = 0; i < map.initial.size(); ++i) {
      os << (i ? ", " : " ");
      printVar(os, map.initial[i].get());
    }
    os << ": (";
    for (size_t i = 0; i < map.final.size(); ++i) {
      if (i)
        os << ", ";
      printPrimExpr(os, map.final[i].get(), printVar);
    }
    os << (map.final.size() == 1 ? ",)" : ")");
  };
  os << "T.index_map(";
  lambda(m);
  if (!m.initial.empty() && m.initial.front()->dtype != DataType::int64())
    os << ", index_dtype=\"" << m.initial.front()->dtype.str() << '"';
  if (m.inverse) {
    os << ", inverse_index_map=";
    lambda(*m.inverse);
  }
  os << ')';
}

namespace {

/// The closed range [lo, hi] an index expression takes, in int64 (the
/// dtype of the shape it becomes), whatever the map's index dtype.
struct Interval {
  PrimExpr lo, hi;
};

class RangeOf {
public:
  explicit RangeOf(llvm::DenseMap<const TirVarNode *, PrimExpr> extents)
      : extents_(std::move(extents)) {}

  /// Depth is bounded by the parser's nesting limit on the written map.
  llvm::Optional<Interval> operator()(const PrimExprNode *e) {
    if (const auto *imm = llvm::dyn_cast<IntImmNode>(e))
      return Interval{intImm(imm->value), intImm(imm->value)};
    if (const auto *v = llvm::dyn_cast<TirVarNode>(e)) {
      auto it = extents_.find(v);
      if (it == extents_.end())
        return llvm::None;
      return Interval{intImm(0), sub(it->second, intImm(1))};
    }
    const auto *b = llvm::dyn_cast<PrimBinaryNode>(e);
    if (!b)
      return llvm::None;
    auto l = (*this)(b->a.get());
    auto r = (*this)(b->b.get());
    if (!l || !r)
      return llvm::None;
    auto c = asConstInt(simplify(r->lo).get());
    bool constRight = c && primExprIdentical(simplify(r->lo).get(), simplify(r->hi).get());
    switch (b->op) {
    case PrimOp::Add:
      return Interval{add(l->lo, r->lo), add(l->hi, r->hi)};
    case PrimOp::Sub:
      return Interval{sub(l->lo, r->hi), sub(l->hi, r->lo)};
    case PrimOp::Mul:
      if (!constRight || *c < 0)
        return llvm::None;
      return Interval{mul(l->lo, r->lo), mul(l->hi, r->lo)};
    case PrimOp::FloorDiv:
      if (!constRight || *c <= 0)
        return llvm::None;
      return Interval{div(l->lo, r->lo), div(l->hi, r->lo)};
    case PrimOp::FloorMod:
      return floorMod(*l, constRight ? c : llvm::None);
    default:
      return llvm::None;
    }
  }

private:
  static PrimExpr add(PrimExpr a, PrimExpr b) {
    return simplify(primBinary(PrimOp::Add, std::move(a), std::move(b)));
  }
  static PrimExpr sub(PrimExpr a, PrimExpr b) {
    return simplify(primBinary(PrimOp::Sub, std::move(a), std::move(b)));
  }
  static PrimExpr mul(PrimExpr a, PrimExpr b) {
    return simplify(primBinary(PrimOp::Mul, std::move(a), std::move(b)));
  }
  static PrimExpr div(PrimExpr a, PrimExpr b) {
    return simplify(primBinary(PrimOp::FloorDiv, std::move(a), std::move(b)));
  }

  /// `x % c`: the exact range when x stays within one period, else [0, c).
  static llvm::Optional<Interval> floorMod(const Interval &x, llvm::Optional<int64_t> c) {
    if (!c || *c <= 0)
      return llvm::None;
    auto lo = asConstInt(x.lo.get()), hi = asConstInt(x.hi.get());
    if (lo && hi && *lo >= 0 && *hi >= *lo && *lo / *c == *hi / *c)
      return Interval{intImm(*lo % *c), intImm(*hi % *c)};
    return Interval{intImm(0), intImm(*c - 1)};
  }

  llvm::DenseMap<const TirVarNode *, PrimExpr> extents_;
};

} // namespace

llvm::Optional<std::vector<PrimExpr>> graft::mapShape(const IndexMapNode &m,
                                                      llvm::ArrayRef<PrimExpr> shape) {
  if (shape.size() != m.initial.size())
    return llvm::None;
  llvm::DenseMap<const TirVarNode *, PrimExpr> extents;
  for (size_t i = 0; i < shape.size(); ++i)
    extents[m.initial[i].get()] = shape[i];
  RangeOf rangeOf(std::move(extents));
  std::vector<PrimExpr> out;
  for (const PrimExpr &index : m.final) {
    auto r = rangeOf(index.get());
    if (!r)
      return llvm::None;
    auto lo = asConstInt(simplify(r->lo).get());
    if (!lo || *lo != 0)
      return llvm::None;
    out.push_back(simplify(primBinary(PrimOp::Add, r->hi, intImm(1))));
  }
  return out;
}

std::string graft::indexMapProgram(const IndexMapNode &m, std::vector<int64_t> &program) {
  enum : int64_t { kEnd, kVar, kConst, kAdd, kSub, kMul, kFloorDiv, kFloorMod };
  program = {int64_t(m.initial.size()), int64_t(m.final.size())};
  llvm::DenseMap<const TirVarNode *, int64_t> params;
  for (size_t i = 0; i < m.initial.size(); ++i)
    params[m.initial[i].get()] = int64_t(i);
  // Postfix order with a work list: a binary node is pushed back as its
  // token after its operands.
  struct Item {
    const PrimExprNode *e;
    int64_t token;     ///< kEnd: visit e; else emit this token.
    int64_t value = 0; ///< kConst's operand.
  };
  for (const PrimExpr &index : m.final) {
    std::vector<Item> work{{index.get(), kEnd}};
    while (!work.empty()) {
      Item item = work.back();
      work.pop_back();
      if (item.token == kConst) {
        program.insert(program.end(), {kConst, item.value});
        continue;
      }
      if (item.token != kEnd) {
        program.push_back(item.token);
        continue;
      }
      const PrimExprNode *e = item.e;
      while (const auto *cast = llvm::dyn_cast<PrimCastNode>(e)) {
        if (!cast->dtype.isInt() && !cast->dtype.isUInt())
          break;
        e = cast->value.get();
      }
      if (const auto *imm = llvm::dyn_cast<IntImmNode>(e)) {
        program.insert(program.end(), {kConst, imm->value});
        continue;
      }
      if (const auto *v = llvm::dyn_cast<TirVarNode>(e)) {
        auto it = params.find(v);
        if (it == params.end())
          return "reads '" + v->name + "', which is not a parameter of the map";
        program.insert(program.end(), {kVar, it->second});
        continue;
      }
      const auto *b = llvm::dyn_cast<PrimBinaryNode>(e);
      int64_t token = kEnd;
      if (b) {
        switch (b->op) {
        case PrimOp::Add:
          token = kAdd;
          break;
        case PrimOp::Sub:
          token = kSub;
          break;
        case PrimOp::Mul:
          token = kMul;
          break;
        case PrimOp::FloorDiv:
          token = kFloorDiv;
          break;
        case PrimOp::FloorMod:
          token = kFloorMod;
          break;
        default:
          break;
        }
      }
      if (token == kEnd)
        return "has an index other than +, -, *, // and % of the parameters and integer "
               "constants";
      work.push_back({nullptr, token});
      // The kernel takes a divisor only as the constant pushed last.
      if (token == kFloorDiv || token == kFloorMod) {
        auto c = asConstInt(simplify(b->b).get());
        if (!c || *c <= 0)
          return "divides by something other than a positive constant";
        work.push_back({nullptr, kConst, *c});
      } else {
        work.push_back({b->b.get(), kEnd});
      }
      work.push_back({b->a.get(), kEnd});
    }
    program.push_back(kEnd);
  }
  return "";
}
