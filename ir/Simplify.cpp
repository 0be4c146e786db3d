//===- ir/Simplify.cpp - Canonical simplification of PrimExprs --------------===//
//
// A linear canonicalizer in the style of TVM's canonical simplifier, enough
// to reproduce the shapes TVM v0.23's struct-info inference prints:
//
//  * an integer expression becomes a sum of terms with integer coefficients
//    plus a constant base; equal terms merge;
//  * terms are ordered by descending coefficient (stable, so first-seen order
//    breaks ties), then printed: positive terms, a positive base, negative
//    terms subtracted, a negative base subtracted (`n * 2 + 1`, `n - m - 1`);
//  * multiplication by a constant scales a sum; the product of two
//    non-constant operands is one opaque term (`n * m`);
//  * floordiv/floormod by a positive constant split off the divisible part;
//  * min/max/comparisons fold when the operands differ by a constant.
//
// It is not a theorem prover: no bounds, no non-linear reasoning.
//
//===----------------------------------------------------------------------===//

#include "ir/PrimExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace graft;

namespace {

//===----------------------------------------------------------------------===//
// Overflow-safe integer helpers: a fold that would overflow is not done.
//===----------------------------------------------------------------------===//

bool addOv(int64_t a, int64_t b, int64_t &out) { return __builtin_add_overflow(a, b, &out); }
bool mulOv(int64_t a, int64_t b, int64_t &out) { return __builtin_mul_overflow(a, b, &out); }

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
int64_t floorModInt(int64_t a, int64_t b) { return a - floorDivInt(a, b) * b; }

/// Wraps `v` to the width of an integer dtype (sign- or zero-extending).
int64_t wrapToDType(int64_t v, DataType dt) {
  if (dt.isBool())
    return v != 0;
  if (dt.bits == 0 || dt.bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << dt.bits) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (dt.isInt() && (u >> (dt.bits - 1)) & 1)
    u |= ~mask;
  return int64_t(u);
}

bool isIndexType(DataType dt) { return dt.isIntegral() && dt.lanes == 1; }

//===----------------------------------------------------------------------===//
// Sum-of-terms normal form
//===----------------------------------------------------------------------===//

struct Term {
  PrimExpr expr; ///< A simplified non-constant expression.
  int64_t coeff;
};

struct Sum {
  DataType dtype;
  llvm::SmallVector<Term, 4> terms;
  int64_t base = 0;

  bool isConst() const { return terms.empty(); }
};

class Simplifier {
public:
  PrimExpr run(const PrimExpr &e);

private:
  /// The canonical sum of an integer expression; None when a constant would
  /// overflow (the caller then keeps the structure).
  llvm::Optional<Sum> toSum(const PrimExpr &e);
  PrimExpr fromSum(const Sum &s);
  bool addTerm(Sum &s, PrimExpr expr, int64_t coeff);
  bool addSum(Sum &s, const Sum &other, int64_t scale);
  bool scaleSum(Sum &s, int64_t scale);

  llvm::Optional<Sum> sumOfMul(const PrimBinaryNode *b);
  llvm::Optional<Sum> sumOfDivMod(const PrimBinaryNode *b);
  PrimExpr divByConst(const Sum &s, int64_t c, const PrimExpr &orig);
  PrimExpr modByConst(const Sum &s, int64_t c, const PrimExpr &orig);

  /// Non-sum forms: min/max, comparisons, logic, casts, selects, floats.
  PrimExpr simplifyOther(const PrimExpr &e);
  PrimExpr simplifyBinaryOther(const PrimBinaryNode *b, const PrimExpr &orig);
  PrimExpr foldFloat(const PrimBinaryNode *b, const PrimExpr &a, const PrimExpr &c,
                     const PrimExpr &orig);
  /// a - b as a constant, when it is one.
  llvm::Optional<int64_t> constDiff(const PrimExpr &a, const PrimExpr &b);
};

bool Simplifier::addTerm(Sum &s, PrimExpr expr, int64_t coeff) {
  if (coeff == 0)
    return true;
  for (Term &t : s.terms) {
    if (primExprIdentical(t.expr.get(), expr.get())) {
      if (addOv(t.coeff, coeff, t.coeff))
        return false;
      return true;
    }
  }
  s.terms.push_back({std::move(expr), coeff});
  return true;
}

bool Simplifier::addSum(Sum &s, const Sum &other, int64_t scale) {
  for (const Term &t : other.terms) {
    int64_t c;
    if (mulOv(t.coeff, scale, c) || !addTerm(s, t.expr, c))
      return false;
  }
  int64_t b;
  return !mulOv(other.base, scale, b) && !addOv(s.base, b, s.base);
}

bool Simplifier::scaleSum(Sum &s, int64_t scale) {
  for (Term &t : s.terms)
    if (mulOv(t.coeff, scale, t.coeff))
      return false;
  return !mulOv(s.base, scale, s.base);
}

llvm::Optional<Sum> Simplifier::toSum(const PrimExpr &e) {
  Sum s;
  s.dtype = e->dtype;
  if (const auto *imm = llvm::dyn_cast<IntImmNode>(e.get())) {
    s.base = imm->value;
    return s;
  }
  const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get());
  if (b && (b->op == PrimOp::Add || b->op == PrimOp::Sub)) {
    llvm::Optional<Sum> l = toSum(b->a), r = toSum(b->b);
    if (!l || !r)
      return llvm::None;
    s = std::move(*l);
    s.dtype = e->dtype;
    if (!addSum(s, *r, b->op == PrimOp::Add ? 1 : -1))
      return llvm::None;
    return s;
  }
  if (b && b->op == PrimOp::Mul)
    return sumOfMul(b);
  if (b && (b->op == PrimOp::FloorDiv || b->op == PrimOp::FloorMod))
    return sumOfDivMod(b);
  PrimExpr other = simplifyOther(e);
  if (auto c = asConstInt(other.get())) {
    s.base = *c;
    return s;
  }
  s.terms.push_back({std::move(other), 1});
  return s;
}

llvm::Optional<Sum> Simplifier::sumOfMul(const PrimBinaryNode *b) {
  llvm::Optional<Sum> l = toSum(b->a), r = toSum(b->b);
  if (!l || !r)
    return llvm::None;
  if (r->isConst() || l->isConst()) {
    bool rightConst = r->isConst();
    int64_t c = rightConst ? r->base : l->base;
    Sum s = rightConst ? std::move(*l) : std::move(*r);
    s.dtype = b->dtype;
    if (!scaleSum(s, c))
      return llvm::None;
    if (c == 0)
      s.terms.clear();
    return s;
  }
  // Two non-constant factors: one opaque term, operands in written order.
  Sum s;
  s.dtype = b->dtype;
  s.terms.push_back({primBinary(PrimOp::Mul, fromSum(*l), fromSum(*r)), 1});
  return s;
}

llvm::Optional<Sum> Simplifier::sumOfDivMod(const PrimBinaryNode *b) {
  llvm::Optional<Sum> l = toSum(b->a), r = toSum(b->b);
  if (!l || !r)
    return llvm::None;
  PrimExpr orig(b);
  PrimExpr result;
  if (r->isConst() && r->base > 0)
    result =
        b->op == PrimOp::FloorDiv ? divByConst(*l, r->base, orig) : modByConst(*l, r->base, orig);
  else if (l->isConst() && r->isConst() && r->base != 0)
    result = intImm(b->op == PrimOp::FloorDiv ? floorDivInt(l->base, r->base)
                                              : floorModInt(l->base, r->base),
                    b->dtype);
  else
    result = primBinary(b->op, fromSum(*l), fromSum(*r));
  // divByConst may return a sum expression: re-canonicalize it, which is
  // cheap and terminates because the result has no division by a constant
  // that can still be split.
  Sum s;
  s.dtype = b->dtype;
  if (auto c = asConstInt(result.get())) {
    s.base = *c;
    return s;
  }
  const auto *rb = llvm::dyn_cast<PrimBinaryNode>(result.get());
  if (rb && (rb->op == PrimOp::Add || rb->op == PrimOp::Sub || rb->op == PrimOp::Mul))
    return toSum(result);
  s.terms.push_back({std::move(result), 1});
  return s;
}

/// floordiv(sum, c): terms (and a base) divisible by c divide exactly; the
/// rest stays under one floordiv: (x*c + y) // c == x + y // c.
PrimExpr Simplifier::divByConst(const Sum &s, int64_t c, const PrimExpr &orig) {
  if (c == 1)
    return fromSum(s);
  Sum exact, rest;
  exact.dtype = rest.dtype = s.dtype;
  for (const Term &t : s.terms)
    (t.coeff % c == 0 ? exact : rest).terms.push_back(t);
  (s.base % c == 0 ? exact.base : rest.base) = s.base;
  exact.base /= c;
  for (Term &t : exact.terms)
    t.coeff /= c;
  if (rest.terms.empty()) {
    exact.base += floorDivInt(rest.base, c); // Cannot overflow: |result| <= |base|.
    return fromSum(exact);
  }
  PrimExpr restExpr;
  // (x * k) // c with c % k == 0 is x // (c / k).
  if (rest.terms.size() == 1 && rest.base == 0 && rest.terms[0].coeff > 0 &&
      c % rest.terms[0].coeff == 0)
    restExpr =
        primBinary(PrimOp::FloorDiv, rest.terms[0].expr, intImm(c / rest.terms[0].coeff, s.dtype));
  else
    restExpr = primBinary(PrimOp::FloorDiv, fromSum(rest), intImm(c, s.dtype));
  if (exact.isConst() && exact.base == 0)
    return restExpr;
  if (!addTerm(exact, restExpr, 1))
    return orig;
  return fromSum(exact);
}

/// floormod(sum, c): terms divisible by c vanish and the base reduces
/// modulo c; what is left stays under one floormod.
PrimExpr Simplifier::modByConst(const Sum &s, int64_t c, const PrimExpr &) {
  if (c == 1)
    return intImm(0, s.dtype);
  Sum rest;
  rest.dtype = s.dtype;
  for (const Term &t : s.terms)
    if (t.coeff % c != 0)
      rest.terms.push_back(t);
  rest.base = floorModInt(s.base, c);
  if (rest.terms.empty())
    return intImm(rest.base, s.dtype);
  return primBinary(PrimOp::FloorMod, fromSum(rest), intImm(c, s.dtype));
}

PrimExpr Simplifier::fromSum(const Sum &in) {
  Sum s = in;
  llvm::erase_if(s.terms, [](const Term &t) { return t.coeff == 0; });
  std::stable_sort(s.terms.begin(), s.terms.end(),
                   [](const Term &a, const Term &b) { return a.coeff > b.coeff; });
  PrimExpr res;
  auto scaled = [&](const Term &t, int64_t c) {
    return c == 1 ? t.expr : primBinary(PrimOp::Mul, t.expr, intImm(c, s.dtype));
  };
  for (const Term &t : s.terms)
    if (t.coeff > 0)
      res = res ? primBinary(PrimOp::Add, res, scaled(t, t.coeff)) : scaled(t, t.coeff);
  if (s.base > 0)
    res = res ? primBinary(PrimOp::Add, res, intImm(s.base, s.dtype)) : intImm(s.base, s.dtype);
  for (const Term &t : s.terms) {
    if (t.coeff >= 0)
      continue;
    // -coeff cannot overflow except for INT64_MIN; keep it as a + x * c.
    if (t.coeff == INT64_MIN) {
      res = res ? primBinary(PrimOp::Add, res, scaled(t, t.coeff)) : scaled(t, t.coeff);
      continue;
    }
    PrimExpr lhs = res ? res : intImm(0, s.dtype);
    res = primBinary(PrimOp::Sub, lhs, scaled(t, -t.coeff));
  }
  if (s.base < 0) {
    if (!res)
      res = intImm(s.base, s.dtype);
    else if (s.base == INT64_MIN)
      res = primBinary(PrimOp::Add, res, intImm(s.base, s.dtype));
    else
      res = primBinary(PrimOp::Sub, res, intImm(-s.base, s.dtype));
  }
  return res ? res : intImm(0, s.dtype);
}

llvm::Optional<int64_t> Simplifier::constDiff(const PrimExpr &a, const PrimExpr &b) {
  if (!isIndexType(a->dtype) || !isIndexType(b->dtype))
    return llvm::None;
  llvm::Optional<Sum> sa = toSum(a), sb = toSum(b);
  if (!sa || !sb || !addSum(*sa, *sb, -1))
    return llvm::None;
  for (const Term &t : sa->terms)
    if (t.coeff != 0)
      return llvm::None;
  return sa->base;
}

PrimExpr Simplifier::foldFloat(const PrimBinaryNode *b, const PrimExpr &a, const PrimExpr &c,
                               const PrimExpr &orig) {
  const auto *fa = llvm::dyn_cast<FloatImmNode>(a.get());
  const auto *fc = llvm::dyn_cast<FloatImmNode>(c.get());
  if (!fa || !fc)
    return nullptr;
  double x = fa->value, y = fc->value;
  switch (b->op) {
  case PrimOp::Add:
    return floatImm(x + y, b->dtype);
  case PrimOp::Sub:
    return floatImm(x - y, b->dtype);
  case PrimOp::Mul:
    return floatImm(x * y, b->dtype);
  case PrimOp::Min:
    return floatImm(std::min(x, y), b->dtype);
  case PrimOp::Max:
    return floatImm(std::max(x, y), b->dtype);
  case PrimOp::EQ:
    return boolImm(x == y);
  case PrimOp::NE:
    return boolImm(x != y);
  case PrimOp::LT:
    return boolImm(x < y);
  case PrimOp::LE:
    return boolImm(x <= y);
  case PrimOp::GT:
    return boolImm(x > y);
  case PrimOp::GE:
    return boolImm(x >= y);
  default:
    break;
  }
  (void)orig;
  return nullptr;
}

bool compareConst(PrimOp op, int64_t d) {
  switch (op) {
  case PrimOp::EQ:
    return d == 0;
  case PrimOp::NE:
    return d != 0;
  case PrimOp::LT:
    return d < 0;
  case PrimOp::LE:
    return d <= 0;
  case PrimOp::GT:
    return d > 0;
  case PrimOp::GE:
    return d >= 0;
  default:
    return false;
  }
}

PrimExpr Simplifier::simplifyBinaryOther(const PrimBinaryNode *b, const PrimExpr &orig) {
  PrimExpr a = run(b->a), c = run(b->b);
  if (PrimExpr folded = foldFloat(b, a, c, orig))
    return folded;
  switch (b->op) {
  case PrimOp::Min:
  case PrimOp::Max:
    if (auto d = constDiff(a, c))
      return (b->op == PrimOp::Min) == (*d <= 0) ? a : c;
    break;
  case PrimOp::EQ:
  case PrimOp::NE:
  case PrimOp::LT:
  case PrimOp::LE:
  case PrimOp::GT:
  case PrimOp::GE:
    if (auto d = constDiff(a, c))
      return boolImm(compareConst(b->op, *d));
    break;
  case PrimOp::And:
  case PrimOp::Or: {
    auto ca = asConstInt(a.get()), cc = asConstInt(c.get());
    bool isAnd = b->op == PrimOp::And;
    // x and False -> False, x or True -> True, x and True -> x, ...
    if (ca)
      return (*ca != 0) == isAnd ? c : boolImm(!isAnd);
    if (cc)
      return (*cc != 0) == isAnd ? a : boolImm(!isAnd);
    if (primExprIdentical(a.get(), c.get()))
      return a;
    break;
  }
  default:
    break;
  }
  if (a.get() == b->a.get() && c.get() == b->b.get())
    return orig;
  return make<PrimBinaryNode>(b->op, a, c, b->dtype);
}

PrimExpr Simplifier::simplifyOther(const PrimExpr &e) {
  switch (e->getKind()) {
  case NodeKind::IntImm:
  case NodeKind::FloatImm:
  case NodeKind::TirVar:
    return e;
  case NodeKind::PrimBinary:
    return simplifyBinaryOther(llvm::cast<PrimBinaryNode>(e.get()), e);
  case NodeKind::PrimNot: {
    const auto *n = llvm::cast<PrimNotNode>(e.get());
    PrimExpr a = run(n->a);
    if (auto c = asConstInt(a.get()))
      return boolImm(*c == 0);
    if (const auto *inner = llvm::dyn_cast<PrimNotNode>(a.get()))
      return inner->a;
    return a.get() == n->a.get() ? e : make<PrimNotNode>(a);
  }
  case NodeKind::PrimCast: {
    const auto *n = llvm::cast<PrimCastNode>(e.get());
    PrimExpr v = run(n->value);
    if (v->dtype == n->dtype)
      return v;
    if (auto c = asConstInt(v.get())) {
      if (n->dtype.isFloat())
        return floatImm(double(*c), n->dtype);
      if (n->dtype.isIntegral() || n->dtype.isBool())
        return intImm(wrapToDType(*c, n->dtype), n->dtype);
    }
    if (const auto *f = llvm::dyn_cast<FloatImmNode>(v.get())) {
      if (n->dtype.isFloat())
        return floatImm(f->value, n->dtype);
      if (n->dtype.isIntegral() && std::isfinite(f->value) && std::fabs(f->value) < 9.2e18)
        return intImm(wrapToDType(int64_t(f->value), n->dtype), n->dtype);
    }
    return v.get() == n->value.get() ? e : make<PrimCastNode>(n->dtype, v);
  }
  case NodeKind::PrimSelect: {
    const auto *n = llvm::cast<PrimSelectNode>(e.get());
    PrimExpr c = run(n->cond), t = run(n->trueValue), f = run(n->falseValue);
    if (auto cv = asConstInt(c.get()))
      return *cv ? t : f;
    if (primExprIdentical(t.get(), f.get()))
      return t;
    if (c.get() == n->cond.get() && t.get() == n->trueValue.get() && f.get() == n->falseValue.get())
      return e;
    return make<PrimSelectNode>(c, t, f);
  }
  default:
    return e;
  }
}

PrimExpr Simplifier::run(const PrimExpr &e) {
  if (!e)
    return e;
  if (isIndexType(e->dtype)) {
    const auto *b = llvm::dyn_cast<PrimBinaryNode>(e.get());
    bool arith = b && (b->op == PrimOp::Add || b->op == PrimOp::Sub || b->op == PrimOp::Mul ||
                       b->op == PrimOp::FloorDiv || b->op == PrimOp::FloorMod);
    if (arith) {
      if (llvm::Optional<Sum> s = toSum(e))
        return fromSum(*s);
      // A constant overflowed: keep the structure, simplifying the operands.
      PrimExpr a = run(b->a), c = run(b->b);
      if (a.get() == b->a.get() && c.get() == b->b.get())
        return e;
      return make<PrimBinaryNode>(b->op, a, c, b->dtype);
    }
  }
  return simplifyOther(e);
}

} // namespace

PrimExpr graft::simplify(const PrimExpr &e) {
  if (!e)
    return e;
  PrimExpr out = Simplifier().run(e);
  if (out.get() != e.get() && primExprIdentical(out.get(), e.get()))
    return e;
  return out;
}

bool graft::proveEqual(const PrimExpr &a, const PrimExpr &b) {
  if (a.get() == b.get())
    return true;
  if (!a || !b)
    return false;
  if (isIndexType(a->dtype) && isIndexType(b->dtype)) {
    PrimExpr d = simplify(primBinary(PrimOp::Sub, a, b));
    if (auto c = asConstInt(d.get()))
      return *c == 0;
  }
  return primExprIdentical(simplify(a).get(), simplify(b).get());
}

bool graft::proveNotEqual(const PrimExpr &a, const PrimExpr &b) {
  if (!a || !b || a.get() == b.get())
    return false;
  if (isIndexType(a->dtype) && isIndexType(b->dtype)) {
    PrimExpr d = simplify(primBinary(PrimOp::Sub, a, b));
    if (auto c = asConstInt(d.get()))
      return *c != 0;
    return false;
  }
  PrimExpr sa = simplify(a), sb = simplify(b);
  const auto *fa = llvm::dyn_cast<FloatImmNode>(sa.get());
  const auto *fb = llvm::dyn_cast<FloatImmNode>(sb.get());
  if (fa && fb)
    return fa->value != fb->value;
  auto ia = asConstInt(sa.get()), ib = asConstInt(sb.get());
  return ia && ib && *ia != *ib;
}

namespace {

/// Structural identity of two PrimExprs; `BitwiseFloats` picks how float
/// immediates compare (same bits, or == with NaN equal to NaN).
template <bool BitwiseFloats> bool primIdentical(const PrimExprNode *a, const PrimExprNode *b) {
  if (a == b)
    return true;
  if (!a || !b || a->getKind() != b->getKind() || a->dtype != b->dtype)
    return false;
  switch (a->getKind()) {
  case NodeKind::IntImm:
    return llvm::cast<IntImmNode>(a)->value == llvm::cast<IntImmNode>(b)->value;
  case NodeKind::FloatImm: {
    double x = llvm::cast<FloatImmNode>(a)->value, y = llvm::cast<FloatImmNode>(b)->value;
    if (BitwiseFloats)
      return std::memcmp(&x, &y, sizeof x) == 0;
    return x == y || (std::isnan(x) && std::isnan(y));
  }
  case NodeKind::TirVar:
    return false; // Vars compare by identity, handled above.
  case NodeKind::PrimBinary: {
    const auto *x = llvm::cast<PrimBinaryNode>(a), *y = llvm::cast<PrimBinaryNode>(b);
    return x->op == y->op && primIdentical<BitwiseFloats>(x->a.get(), y->a.get()) &&
           primIdentical<BitwiseFloats>(x->b.get(), y->b.get());
  }
  case NodeKind::PrimNot:
    return primIdentical<BitwiseFloats>(llvm::cast<PrimNotNode>(a)->a.get(),
                                        llvm::cast<PrimNotNode>(b)->a.get());
  case NodeKind::PrimCast:
    return primIdentical<BitwiseFloats>(llvm::cast<PrimCastNode>(a)->value.get(),
                                        llvm::cast<PrimCastNode>(b)->value.get());
  case NodeKind::PrimSelect: {
    const auto *x = llvm::cast<PrimSelectNode>(a), *y = llvm::cast<PrimSelectNode>(b);
    return primIdentical<BitwiseFloats>(x->cond.get(), y->cond.get()) &&
           primIdentical<BitwiseFloats>(x->trueValue.get(), y->trueValue.get()) &&
           primIdentical<BitwiseFloats>(x->falseValue.get(), y->falseValue.get());
  }
  default:
    return false;
  }
}

} // namespace

bool graft::primExprIdentical(const PrimExprNode *a, const PrimExprNode *b) {
  return primIdentical<false>(a, b);
}

bool graft::primExprBitIdentical(const PrimExprNode *a, const PrimExprNode *b) {
  return primIdentical<true>(a, b);
}

void graft::forEachTirVar(const PrimExprNode *e, llvm::function_ref<void(const TirVarNode *)> fn) {
  if (!e)
    return;
  switch (e->getKind()) {
  case NodeKind::TirVar:
    fn(llvm::cast<TirVarNode>(e));
    return;
  case NodeKind::PrimBinary: {
    const auto *b = llvm::cast<PrimBinaryNode>(e);
    forEachTirVar(b->a.get(), fn);
    forEachTirVar(b->b.get(), fn);
    return;
  }
  case NodeKind::PrimNot:
    forEachTirVar(llvm::cast<PrimNotNode>(e)->a.get(), fn);
    return;
  case NodeKind::PrimCast:
    forEachTirVar(llvm::cast<PrimCastNode>(e)->value.get(), fn);
    return;
  case NodeKind::PrimSelect: {
    const auto *s = llvm::cast<PrimSelectNode>(e);
    forEachTirVar(s->cond.get(), fn);
    forEachTirVar(s->trueValue.get(), fn);
    forEachTirVar(s->falseValue.get(), fn);
    return;
  }
  default:
    return;
  }
}
