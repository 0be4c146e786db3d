//===- ir/StructInfoAnalysis.cpp - Algorithms over struct info --------------===//
//
// TVM's StructInfoBaseChecker, StructInfoLCA, WellDefinedEraser and
// CallRetStructInfoDeriver (TVM `src/relax/analysis/struct_info_analysis.cc`), over graft's nodes.
// Symbolic values are compared with proveEqual/proveNotEqual: provably
// different is a disjoint value set (FailL0), unprovable is FailL2.
//
//===----------------------------------------------------------------------===//

#include "ir/StructInfoAnalysis.h"

#include "ir/Diagnostics.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace graft;

namespace {

BaseCheck combine(BaseCheck a, BaseCheck b) { return std::min(a, b); }

/// A mismatch against a different kind of struct info: Object may still
/// hold a matching value (L1), anything else cannot (L0).
BaseCheck kindMismatch(const StructInfoNode *derived) {
  return llvm::isa<ObjectSInfoNode>(derived) ? BaseCheck::FailL1 : BaseCheck::FailL0;
}

bool sameVDevice(const VDeviceNode *a, const VDeviceNode *b) {
  if (a == b)
    return true;
  if (!a || !b)
    return false;
  return a->targetKind == b->targetKind && a->vdeviceId == b->vdeviceId &&
         a->memoryScope == b->memoryScope;
}

//===----------------------------------------------------------------------===//
// Base check
//===----------------------------------------------------------------------===//

class BaseChecker {
public:
  virtual ~BaseChecker() = default;

  BaseCheck check(const StructInfoNode *base, const StructInfoNode *derived) {
    if (!base || llvm::isa<ObjectSInfoNode>(base))
      return BaseCheck::Pass;
    if (!derived)
      return BaseCheck::FailL1;
    switch (base->getKind()) {
    case NodeKind::PrimSInfo:
      return checkPrim(llvm::cast<PrimSInfoNode>(base), derived);
    case NodeKind::ShapeSInfo:
      return checkShape(llvm::cast<ShapeSInfoNode>(base), derived);
    case NodeKind::TensorSInfo:
      return checkTensor(llvm::cast<TensorSInfoNode>(base), derived);
    case NodeKind::TupleSInfo:
      return checkTuple(llvm::cast<TupleSInfoNode>(base), derived);
    case NodeKind::FuncSInfo:
      return checkFunc(llvm::cast<FuncSInfoNode>(base), derived);
    case NodeKind::DTensorSInfo:
      return checkDTensor(llvm::cast<DTensorSInfoNode>(base), derived);
    default:
      return BaseCheck::FailL0;
    }
  }

protected:
  virtual BaseCheck primValueMatch(const PrimExpr &base, const PrimExpr &derived) {
    if (proveEqual(base, derived))
      return BaseCheck::Pass;
    if (proveNotEqual(base, derived))
      return BaseCheck::FailL0;
    return BaseCheck::FailL2;
  }

  BaseCheck valuesMatch(const std::vector<PrimExpr> &base, const std::vector<PrimExpr> &derived) {
    if (base.size() != derived.size())
      return BaseCheck::FailL0;
    BaseCheck result = BaseCheck::Pass;
    for (size_t i = 0; i < base.size(); ++i) {
      result = combine(result, primValueMatch(base[i], derived[i]));
      if (result == BaseCheck::FailL0)
        return result;
    }
    return result;
  }

  /// Tensor shapes: a ShapeExpr or a Var with Shape struct info.
  virtual BaseCheck shapeExprMatch(const ExprNode *base, const ExprNode *derived) {
    if (base == derived)
      return BaseCheck::Pass;
    const auto *bs = llvm::dyn_cast<ShapeExprNode>(base);
    const auto *ds = llvm::dyn_cast<ShapeExprNode>(derived);
    if (bs && ds)
      return valuesMatch(bs->values, ds->values);
    return BaseCheck::FailL2;
  }

  virtual BaseCheck paramsCheck(const std::vector<StructInfo> &base,
                                const std::vector<StructInfo> &derived) {
    if (base.size() != derived.size())
      return BaseCheck::FailL0;
    BaseCheck result = BaseCheck::Pass;
    // Contravariant: the derived function must accept every argument the
    // base accepts.
    for (size_t i = 0; i < base.size(); ++i)
      result = combine(result, check(derived[i].get(), base[i].get()));
    // Static mismatches in params are only best-effort knowledge.
    return result == BaseCheck::FailL1 ? BaseCheck::FailL2 : result;
  }

private:
  BaseCheck checkPrim(const PrimSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<PrimSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    if (base->dtype != d->dtype)
      return BaseCheck::FailL0;
    if (!base->value)
      return BaseCheck::Pass;
    if (!d->value)
      return BaseCheck::FailL2;
    return primValueMatch(base->value, d->value);
  }

  BaseCheck checkShape(const ShapeSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<ShapeSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    if (base->ndim < 0)
      return BaseCheck::Pass;
    if (base->ndim != d->ndim)
      return d->ndim < 0 ? BaseCheck::FailL1 : BaseCheck::FailL0;
    if (!base->values)
      return BaseCheck::Pass;
    if (!d->values)
      return BaseCheck::FailL2;
    return valuesMatch(*base->values, *d->values);
  }

  /// TVM's rule: the global views are checked as tensors; another mesh or
  /// placement is only an L1 failure (a redistribution may reconcile it).
  BaseCheck checkDTensor(const DTensorSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<DTensorSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    BaseCheck view = check(base->tensor.get(), d->tensor.get());
    if (!sameDeviceMesh(base->mesh.get(), d->mesh.get()) || base->placement != d->placement)
      return combine(view, BaseCheck::FailL1);
    return view;
  }

  BaseCheck checkTensor(const TensorSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<TensorSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    if (!base->dtype.isVoid() && base->dtype != d->dtype)
      return d->dtype.isVoid() ? BaseCheck::FailL1 : BaseCheck::FailL0;
    if (base->ndim >= 0 && base->ndim != d->ndim)
      return d->ndim < 0 ? BaseCheck::FailL1 : BaseCheck::FailL0;
    if (base->vdevice) {
      if (!d->vdevice)
        return BaseCheck::FailL1;
      bool baseTarget = !base->vdevice->targetKind.empty();
      bool derivedTarget = !d->vdevice->targetKind.empty();
      if (baseTarget && !derivedTarget)
        return BaseCheck::FailL1;
      if (baseTarget && derivedTarget && !sameVDevice(base->vdevice.get(), d->vdevice.get()))
        return BaseCheck::FailL0;
    }
    if (!base->shape)
      return BaseCheck::Pass;
    if (!d->shape)
      return BaseCheck::FailL2;
    return shapeExprMatch(base->shape.get(), d->shape.get());
  }

  BaseCheck checkTuple(const TupleSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<TupleSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    if (base->fields.size() != d->fields.size())
      return BaseCheck::FailL0;
    BaseCheck result = BaseCheck::Pass;
    for (size_t i = 0; i < base->fields.size(); ++i) {
      result = combine(result, check(base->fields[i].get(), d->fields[i].get()));
      if (result == BaseCheck::FailL0)
        return result;
    }
    return result;
  }

  BaseCheck checkFunc(const FuncSInfoNode *base, const StructInfoNode *derived) {
    const auto *d = llvm::dyn_cast<FuncSInfoNode>(derived);
    if (!d)
      return kindMismatch(derived);
    if (base->purity && !d->purity)
      return BaseCheck::FailL1;
    if (base->isOpaque()) {
      if (!base->deriveFunc.empty())
        return base->deriveFunc == d->deriveFunc ? BaseCheck::Pass : BaseCheck::FailL2;
      return check(base->ret.get(), d->ret.get());
    }
    if (d->isOpaque())
      return BaseCheck::FailL2;
    if (structInfoIdentical(base, d))
      return BaseCheck::Pass;
    return combine(paramsCheck(*base->params, *d->params), check(base->ret.get(), d->ret.get()));
  }
};

//===----------------------------------------------------------------------===//
// Call return derivation: a base check that binds the callee's bare symbolic
// params to the argument values on first sight.
//===----------------------------------------------------------------------===//

class Unifier : public BaseChecker {
public:
  TirVarMap primMap;
  llvm::DenseMap<const VarNode *, Expr> shapeVarMap;

protected:
  BaseCheck primValueMatch(const PrimExpr &param, const PrimExpr &arg) override {
    if (const auto *v = llvm::dyn_cast<TirVarNode>(param.get())) {
      auto [it, inserted] = primMap.try_emplace(v, arg);
      if (inserted || proveEqual(it->second, arg))
        return BaseCheck::Pass;
      return BaseCheck::FailL2;
    }
    // A compound param (n + 1) may depend on a var bound by a later param:
    // compared as written, best effort.
    return BaseChecker::primValueMatch(param, arg);
  }

  BaseCheck shapeExprMatch(const ExprNode *param, const ExprNode *arg) override {
    if (const auto *v = llvm::dyn_cast<VarNode>(param)) {
      auto [it, inserted] = shapeVarMap.try_emplace(v, Expr(arg));
      if (inserted || it->second.get() == arg)
        return BaseCheck::Pass;
      return BaseChecker::shapeExprMatch(it->second.get(), arg);
    }
    return BaseChecker::shapeExprMatch(param, arg);
  }
};

//===----------------------------------------------------------------------===//
// Erasure and substitution
//===----------------------------------------------------------------------===//

using TirVarSet = llvm::DenseSet<const TirVarNode *>;

struct Eraser {
  const TirVarSet *defined = nullptr; ///< Vars that stay as they are.
  const TirVarMap *map = nullptr;     ///< Vars replaced by a value.
  const llvm::DenseSet<const VarNode *> *definedShapeVars = nullptr;
  const llvm::DenseMap<const VarNode *, Expr> *shapeVarMap = nullptr;

  /// The value with mapped vars substituted; null when a var is undefined.
  PrimExpr prim(const PrimExpr &e) const {
    bool undefined = false, mapped = false;
    forEachTirVar(e.get(), [&](const TirVarNode *v) {
      if (map && map->count(v))
        mapped = true;
      else if (!defined || !defined->count(v))
        undefined = true;
    });
    if (undefined)
      return nullptr;
    return mapped ? substitutePrim(e, *map) : e;
  }

  /// All values, or None when one is undefined. `changed` reports a rewrite.
  llvm::Optional<std::vector<PrimExpr>> values(const std::vector<PrimExpr> &vals,
                                               bool &changed) const {
    std::vector<PrimExpr> out;
    out.reserve(vals.size());
    for (const PrimExpr &v : vals) {
      PrimExpr e = prim(v);
      if (!e)
        return llvm::None;
      changed |= e.get() != v.get();
      out.push_back(std::move(e));
    }
    return out;
  }

  StructInfo run(const StructInfoNode *s) const;

private:
  StructInfo tensor(const TensorSInfoNode *t) const;
  StructInfo func(const FuncSInfoNode *f) const;
};

StructInfo Eraser::tensor(const TensorSInfoNode *t) const {
  if (!t->shape)
    return t;
  auto dropShape = [&] { return make<TensorSInfoNode>(nullptr, t->dtype, t->ndim, t->vdevice); };
  if (const auto *se = llvm::dyn_cast<ShapeExprNode>(t->shape.get())) {
    bool changed = false;
    auto vals = values(se->values, changed);
    if (!vals)
      return dropShape();
    if (!changed)
      return t;
    return make<TensorSInfoNode>(shapeExpr(std::move(*vals)), t->dtype, t->ndim, t->vdevice);
  }
  if (const auto *v = llvm::dyn_cast<VarNode>(t->shape.get())) {
    if (shapeVarMap) {
      auto it = shapeVarMap->find(v);
      if (it != shapeVarMap->end()) {
        // The argument's shape may itself mention vars: erase through it.
        if (const auto *se = llvm::dyn_cast<ShapeExprNode>(it->second.get())) {
          bool changed = false;
          if (!values(se->values, changed))
            return dropShape();
        }
        return make<TensorSInfoNode>(it->second, t->dtype, t->ndim, t->vdevice);
      }
    }
    if (definedShapeVars && definedShapeVars->count(v))
      return t;
    return dropShape();
  }
  return dropShape();
}

StructInfo Eraser::func(const FuncSInfoNode *f) const {
  if (f->isOpaque()) {
    StructInfo ret = run(f->ret.get());
    if (ret.get() == f->ret.get())
      return f;
    return make<FuncSInfoNode>(llvm::None, ret, f->purity, f->deriveFunc);
  }
  // The params define their own bare vars: those stay defined inside.
  llvm::SmallVector<const TirVarNode *, 8> own;
  for (const StructInfo &p : *f->params)
    collectDefinableTirVars(p.get(), own);
  TirVarSet inner;
  if (defined)
    inner = *defined;
  for (const TirVarNode *v : own)
    inner.insert(v);
  TirVarMap innerMap;
  if (map) {
    innerMap = *map;
    for (const TirVarNode *v : own)
      innerMap.erase(v);
  }
  Eraser sub = *this;
  sub.defined = &inner;
  sub.map = map ? &innerMap : nullptr;
  bool changed = false;
  std::vector<StructInfo> params;
  for (const StructInfo &p : *f->params) {
    params.push_back(sub.run(p.get()));
    changed |= params.back().get() != p.get();
  }
  StructInfo ret = sub.run(f->ret.get());
  changed |= ret.get() != f->ret.get();
  if (!changed)
    return f;
  return make<FuncSInfoNode>(std::move(params), ret, f->purity, f->deriveFunc);
}

StructInfo Eraser::run(const StructInfoNode *s) const {
  if (!s)
    return nullptr;
  switch (s->getKind()) {
  case NodeKind::PrimSInfo: {
    const auto *p = llvm::cast<PrimSInfoNode>(s);
    if (!p->value)
      return s;
    PrimExpr v = prim(p->value);
    if (!v)
      return primSInfo(p->dtype);
    return v.get() == p->value.get() ? StructInfo(s) : make<PrimSInfoNode>(p->dtype, v);
  }
  case NodeKind::ShapeSInfo: {
    const auto *sh = llvm::cast<ShapeSInfoNode>(s);
    if (!sh->values)
      return s;
    bool changed = false;
    auto vals = values(*sh->values, changed);
    if (!vals)
      return shapeSInfoNDim(sh->ndim);
    return changed ? shapeSInfo(std::move(*vals)) : StructInfo(s);
  }
  case NodeKind::TensorSInfo:
    return tensor(llvm::cast<TensorSInfoNode>(s));
  case NodeKind::TupleSInfo: {
    const auto *t = llvm::cast<TupleSInfoNode>(s);
    bool changed = false;
    std::vector<StructInfo> fields;
    fields.reserve(t->fields.size());
    for (const StructInfo &f : t->fields) {
      fields.push_back(run(f.get()));
      changed |= fields.back().get() != f.get();
    }
    return changed ? tupleSInfo(std::move(fields)) : StructInfo(s);
  }
  case NodeKind::FuncSInfo:
    return func(llvm::cast<FuncSInfoNode>(s));
  case NodeKind::DTensorSInfo: {
    const auto *d = llvm::cast<DTensorSInfoNode>(s);
    return withDTensorView(d, tensor(d->tensor.get()));
  }
  default:
    return s;
  }
}

//===----------------------------------------------------------------------===//
// LCA
//===----------------------------------------------------------------------===//

bool canProveShapeEqual(const ExprNode *a, const ExprNode *b) {
  if (a == b)
    return true;
  const auto *sa = llvm::dyn_cast_or_null<ShapeExprNode>(a);
  const auto *sb = llvm::dyn_cast_or_null<ShapeExprNode>(b);
  if (!sa || !sb || sa->values.size() != sb->values.size())
    return false;
  for (size_t i = 0; i < sa->values.size(); ++i)
    if (!proveEqual(sa->values[i], sb->values[i]))
      return false;
  return true;
}

bool canProveValuesEqual(const std::vector<PrimExpr> &a, const std::vector<PrimExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!proveEqual(a[i], b[i]))
      return false;
  return true;
}

StructInfo lcaTensor(const TensorSInfoNode *l, const TensorSInfoNode *r) {
  DataType dtype = l->dtype == r->dtype ? l->dtype : DataType::voidType();
  int ndim = l->ndim == r->ndim ? l->ndim : -1;
  VDevice vdev;
  if (l->vdevice && r->vdevice && sameVDevice(l->vdevice.get(), r->vdevice.get()))
    vdev = l->vdevice;
  if (l->ndim != r->ndim || !l->shape || !r->shape ||
      !canProveShapeEqual(l->shape.get(), r->shape.get())) {
    if (!l->shape && l->dtype == dtype && l->ndim == ndim && (!l->vdevice || vdev))
      return l;
    return make<TensorSInfoNode>(nullptr, dtype, ndim, vdev);
  }
  if (l->dtype != dtype || (l->vdevice && !vdev))
    return make<TensorSInfoNode>(l->shape, dtype, ndim, vdev);
  return l;
}

StructInfo lcaFunc(const FuncSInfoNode *l, const FuncSInfoNode *r) {
  bool purity = l->purity && r->purity;
  auto opaque = [&](StructInfo ret) {
    return make<FuncSInfoNode>(llvm::None, std::move(ret), purity);
  };
  if (l->isOpaque()) {
    if (!l->deriveFunc.empty())
      return l->deriveFunc == r->deriveFunc ? StructInfo(l) : opaque(objectSInfo());
    StructInfo ret = structInfoLCA(l->ret.get(), r->ret.get());
    if (ret.get() == l->ret.get() && purity == l->purity)
      return l;
    return opaque(ret);
  }
  if (r->isOpaque())
    return opaque(structInfoLCA(l->ret.get(), r->ret.get()));
  if (structInfoIdentical(l, r))
    return l;
  if (l->params->size() != r->params->size())
    return opaque(structInfoLCA(l->ret.get(), r->ret.get()));
  for (size_t i = 0; i < l->params->size(); ++i)
    if (!structInfoIdentical((*l->params)[i].get(), (*r->params)[i].get()))
      return opaque(structInfoLCA(l->ret.get(), r->ret.get()));
  StructInfo ret = structInfoLCA(l->ret.get(), r->ret.get());
  if (ret.get() == l->ret.get() && purity == l->purity)
    return l;
  return make<FuncSInfoNode>(*l->params, ret, purity);
}

bool identicalShapeExpr(const ExprNode *a, const ExprNode *b) {
  if (a == b)
    return true;
  const auto *sa = llvm::dyn_cast_or_null<ShapeExprNode>(a);
  const auto *sb = llvm::dyn_cast_or_null<ShapeExprNode>(b);
  if (!sa || !sb || sa->values.size() != sb->values.size())
    return false;
  for (size_t i = 0; i < sa->values.size(); ++i)
    if (!primExprIdentical(sa->values[i].get(), sb->values[i].get()))
      return false;
  return true;
}

/// Calls `fn` on every PrimExpr that `s` carries: prim values, shape values
/// and tensor dims, through tuple fields; through function params and return
/// too when `intoFunctions` (a function's params define vars of its own
/// scope only, so collecting definable vars stops there).
template <typename Fn>
void forEachSInfoPrimExpr(const StructInfoNode *s, bool intoFunctions, Fn &fn) {
  if (!s)
    return;
  switch (s->getKind()) {
  case NodeKind::PrimSInfo:
    fn(llvm::cast<PrimSInfoNode>(s)->value);
    return;
  case NodeKind::ShapeSInfo:
    if (const auto &vals = llvm::cast<ShapeSInfoNode>(s)->values)
      for (const PrimExpr &v : *vals)
        fn(v);
    return;
  case NodeKind::TensorSInfo:
    if (const auto *vals = llvm::cast<TensorSInfoNode>(s)->shapeValues())
      for (const PrimExpr &v : *vals)
        fn(v);
    return;
  case NodeKind::TupleSInfo:
    for (const StructInfo &f : llvm::cast<TupleSInfoNode>(s)->fields)
      forEachSInfoPrimExpr(f.get(), intoFunctions, fn);
    return;
  case NodeKind::DTensorSInfo:
    forEachSInfoPrimExpr(llvm::cast<DTensorSInfoNode>(s)->tensor.get(), intoFunctions, fn);
    return;
  case NodeKind::FuncSInfo: {
    if (!intoFunctions)
      return;
    const auto *f = llvm::cast<FuncSInfoNode>(s);
    if (f->params)
      for (const StructInfo &p : *f->params)
        forEachSInfoPrimExpr(p.get(), intoFunctions, fn);
    forEachSInfoPrimExpr(f->ret.get(), intoFunctions, fn);
    return;
  }
  default:
    return;
  }
}

void collectDefinable(const StructInfoNode *s, llvm::SmallVectorImpl<const TirVarNode *> &out,
                      llvm::SmallPtrSetImpl<const TirVarNode *> &seen) {
  auto addBare = [&](const PrimExpr &e) {
    if (const auto *v = llvm::dyn_cast_or_null<TirVarNode>(e.get()))
      if (seen.insert(v).second)
        out.push_back(v);
  };
  forEachSInfoPrimExpr(s, /*intoFunctions=*/false, addBare);
}

void collectAll(const StructInfoNode *s, llvm::SmallVectorImpl<const TirVarNode *> &out,
                llvm::SmallPtrSetImpl<const TirVarNode *> &seen) {
  auto add = [&](const PrimExpr &e) {
    forEachTirVar(e.get(), [&](const TirVarNode *v) {
      if (seen.insert(v).second)
        out.push_back(v);
    });
  };
  forEachSInfoPrimExpr(s, /*intoFunctions=*/true, add);
}

std::string sinfoText(const StructInfoNode *s) { return s ? printStructInfo(s) : "None"; }

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

BaseCheck graft::structInfoBaseCheck(const StructInfoNode *base, const StructInfoNode *derived) {
  BaseChecker checker;
  return checker.check(base, derived);
}

StructInfo graft::structInfoLCA(const StructInfoNode *a, const StructInfoNode *b) {
  if (!a || !b)
    return objectSInfo();
  if (a == b)
    return a;
  if (llvm::isa<ObjectSInfoNode>(a) || llvm::isa<ObjectSInfoNode>(b) ||
      a->getKind() != b->getKind())
    return objectSInfo();
  switch (a->getKind()) {
  case NodeKind::PrimSInfo: {
    const auto *l = llvm::cast<PrimSInfoNode>(a), *r = llvm::cast<PrimSInfoNode>(b);
    if (l->dtype != r->dtype)
      return objectSInfo();
    if (l->value && r->value && proveEqual(l->value, r->value))
      return a;
    if (!l->value)
      return a;
    return primSInfo(l->dtype);
  }
  case NodeKind::ShapeSInfo: {
    const auto *l = llvm::cast<ShapeSInfoNode>(a), *r = llvm::cast<ShapeSInfoNode>(b);
    int ndim = l->ndim == r->ndim ? l->ndim : -1;
    if (l->ndim != r->ndim || !l->values || !r->values ||
        !canProveValuesEqual(*l->values, *r->values)) {
      if (!l->values && l->ndim == ndim)
        return a;
      return shapeSInfoNDim(ndim);
    }
    return a;
  }
  case NodeKind::TensorSInfo:
    return lcaTensor(llvm::cast<TensorSInfoNode>(a), llvm::cast<TensorSInfoNode>(b));
  case NodeKind::TupleSInfo: {
    const auto *l = llvm::cast<TupleSInfoNode>(a), *r = llvm::cast<TupleSInfoNode>(b);
    if (l->fields.size() != r->fields.size())
      return objectSInfo();
    bool changed = false;
    std::vector<StructInfo> fields;
    for (size_t i = 0; i < l->fields.size(); ++i) {
      fields.push_back(structInfoLCA(l->fields[i].get(), r->fields[i].get()));
      changed |= fields.back().get() != l->fields[i].get();
    }
    return changed ? tupleSInfo(std::move(fields)) : StructInfo(a);
  }
  case NodeKind::FuncSInfo:
    return lcaFunc(llvm::cast<FuncSInfoNode>(a), llvm::cast<FuncSInfoNode>(b));
  case NodeKind::DTensorSInfo: {
    const auto *l = llvm::cast<DTensorSInfoNode>(a), *r = llvm::cast<DTensorSInfoNode>(b);
    if (!sameDeviceMesh(l->mesh.get(), r->mesh.get()) || l->placement != r->placement)
      return objectSInfo();
    return withDTensorView(l, lcaTensor(l->tensor.get(), r->tensor.get()));
  }
  default:
    return objectSInfo();
  }
}

StructInfo graft::eraseToWellDefined(const StructInfoNode *s, const TirVarSet &defined,
                                     const llvm::DenseSet<const VarNode *> *definedShapeVars) {
  Eraser eraser;
  eraser.defined = &defined;
  eraser.definedShapeVars = definedShapeVars;
  return eraser.run(s);
}

PrimExpr graft::substitutePrim(const PrimExpr &e, const TirVarMap &map) {
  if (!e || map.empty())
    return e;
  // Rebuilds only the spine that contains a mapped var.
  struct Rewriter {
    const TirVarMap &map;
    bool changed = false;
    PrimExpr run(const PrimExpr &x) {
      switch (x->getKind()) {
      case NodeKind::TirVar: {
        auto it = map.find(llvm::cast<TirVarNode>(x.get()));
        if (it == map.end())
          return x;
        changed = true;
        return it->second;
      }
      case NodeKind::PrimBinary: {
        const auto *b = llvm::cast<PrimBinaryNode>(x.get());
        PrimExpr a = run(b->a), c = run(b->b);
        if (a.get() == b->a.get() && c.get() == b->b.get())
          return x;
        return make<PrimBinaryNode>(b->op, a, c, b->dtype);
      }
      case NodeKind::PrimNot: {
        const auto *n = llvm::cast<PrimNotNode>(x.get());
        PrimExpr a = run(n->a);
        return a.get() == n->a.get() ? x : make<PrimNotNode>(a);
      }
      case NodeKind::PrimCast: {
        const auto *c = llvm::cast<PrimCastNode>(x.get());
        PrimExpr v = run(c->value);
        return v.get() == c->value.get() ? x : make<PrimCastNode>(c->dtype, v);
      }
      case NodeKind::PrimSelect: {
        const auto *s = llvm::cast<PrimSelectNode>(x.get());
        PrimExpr c = run(s->cond), t = run(s->trueValue), f = run(s->falseValue);
        if (c.get() == s->cond.get() && t.get() == s->trueValue.get() &&
            f.get() == s->falseValue.get())
          return x;
        return make<PrimSelectNode>(c, t, f);
      }
      default:
        return x;
      }
    }
  } rewriter{map};
  PrimExpr out = rewriter.run(e);
  if (!rewriter.changed)
    return e;
  // A bare var replaced by a value is not re-simplified: it is the value.
  if (llvm::isa<TirVarNode>(e.get()))
    return out;
  return simplify(out);
}

StructInfo graft::substituteSInfo(const StructInfoNode *s, const TirVarMap &map) {
  if (!s || map.empty())
    return s;
  // Every var is "defined" (kept) unless the map replaces it.
  TirVarSet all;
  llvm::SmallVector<const TirVarNode *, 8> vars;
  collectTirVars(s, vars);
  for (const TirVarNode *v : vars)
    all.insert(v);
  Eraser eraser;
  eraser.defined = &all;
  eraser.map = &map;
  eraser.definedShapeVars = nullptr;
  // Shape vars of tensors must survive substitution: mark them defined.
  struct KeepVars {
    llvm::DenseSet<const VarNode *> set;
    void collect(const StructInfoNode *x) {
      if (!x)
        return;
      if (const auto *d = llvm::dyn_cast<DTensorSInfoNode>(x))
        x = d->tensor.get();
      if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(x)) {
        if (const auto *v = llvm::dyn_cast_or_null<VarNode>(t->shape.get()))
          set.insert(v);
      } else if (const auto *tu = llvm::dyn_cast<TupleSInfoNode>(x)) {
        for (const StructInfo &f : tu->fields)
          collect(f.get());
      } else if (const auto *f = llvm::dyn_cast<FuncSInfoNode>(x)) {
        if (f->params)
          for (const StructInfo &p : *f->params)
            collect(p.get());
        collect(f->ret.get());
      }
    }
  } keep;
  keep.collect(s);
  eraser.definedShapeVars = &keep.set;
  return eraser.run(s);
}

void graft::collectDefinableTirVars(const StructInfoNode *s,
                                    llvm::SmallVectorImpl<const TirVarNode *> &out) {
  llvm::SmallPtrSet<const TirVarNode *, 8> seen(out.begin(), out.end());
  collectDefinable(s, out, seen);
}

void graft::collectTirVars(const StructInfoNode *s,
                           llvm::SmallVectorImpl<const TirVarNode *> &out) {
  llvm::SmallPtrSet<const TirVarNode *, 8> seen(out.begin(), out.end());
  collectAll(s, out, seen);
}

/// The derive function of the pure ExternFunc `runtime.TVMTensorCreateView` that lowering
/// R.memory.view calls (transforms/LowerRuntimeBuiltin.cpp spells it too): the call's struct info
/// is memory.view's, inferred from its arguments.
static constexpr const char *kInferViewSInfo = "tvm.relax.struct_info.infer_view_sinfo";

llvm::Expected<StructInfo> graft::deriveCallRetSInfo(const FuncSInfoNode &func,
                                                     const CallNode &call) {
  if (func.isOpaque()) {
    if (func.deriveFunc == kInferBySInfoArgs) {
      if (call.sinfoArgs.empty())
        return objectSInfo();
      if (call.sinfoArgs.size() == 1)
        return call.sinfoArgs[0];
      return tupleSInfo(call.sinfoArgs);
    }
    if (func.deriveFunc == kInferViewSInfo) {
      Ref<CallNode> view = makeAt<CallNode>(call.loc, getOp("memory.view"), call.args);
      return inferCallSInfo(*view, InferContext{});
    }
    if (!func.deriveFunc.empty())
      return diagError(call.loc, "unsupported struct info derive function " + func.deriveFunc);
    return func.ret ? func.ret : objectSInfo();
  }
  const std::vector<StructInfo> &params = *func.params;
  if (params.size() != call.args.size())
    return diagError(call.loc, "number of arguments and parameters mismatch: expected " +
                                   llvm::Twine(params.size()) + ", given " +
                                   llvm::Twine(call.args.size()));
  Unifier unifier;
  for (size_t i = 0; i < params.size(); ++i) {
    const StructInfoNode *argSInfo = call.args[i] ? call.args[i]->sinfo.get() : nullptr;
    if (!argSInfo)
      argSInfo = objectSInfo().get();
    BaseCheck res = unifier.check(params[i].get(), argSInfo);
    if (res == BaseCheck::FailL0 || res == BaseCheck::FailL1)
      return diagError(call.loc, "Argument " + llvm::Twine(i) + " type mismatch: expected " +
                                     sinfoText(params[i].get()) + ", given " + sinfoText(argSInfo));
  }
  TirVarSet none;
  Eraser eraser;
  eraser.defined = &none;
  eraser.map = &unifier.primMap;
  eraser.shapeVarMap = &unifier.shapeVarMap;
  return eraser.run(func.ret.get());
}

bool graft::structInfoIdentical(const StructInfoNode *a, const StructInfoNode *b) {
  if (a == b)
    return true;
  if (!a || !b || a->getKind() != b->getKind())
    return false;
  switch (a->getKind()) {
  case NodeKind::ObjectSInfo:
    return true;
  case NodeKind::PrimSInfo: {
    const auto *l = llvm::cast<PrimSInfoNode>(a), *r = llvm::cast<PrimSInfoNode>(b);
    return l->dtype == r->dtype && primExprIdentical(l->value.get(), r->value.get());
  }
  case NodeKind::ShapeSInfo: {
    const auto *l = llvm::cast<ShapeSInfoNode>(a), *r = llvm::cast<ShapeSInfoNode>(b);
    if (l->ndim != r->ndim || l->values.hasValue() != r->values.hasValue())
      return false;
    if (!l->values)
      return true;
    for (size_t i = 0; i < l->values->size(); ++i)
      if (!primExprIdentical((*l->values)[i].get(), (*r->values)[i].get()))
        return false;
    return true;
  }
  case NodeKind::TensorSInfo: {
    const auto *l = llvm::cast<TensorSInfoNode>(a), *r = llvm::cast<TensorSInfoNode>(b);
    return l->dtype == r->dtype && l->ndim == r->ndim &&
           sameVDevice(l->vdevice.get(), r->vdevice.get()) &&
           identicalShapeExpr(l->shape.get(), r->shape.get());
  }
  case NodeKind::TupleSInfo: {
    const auto *l = llvm::cast<TupleSInfoNode>(a), *r = llvm::cast<TupleSInfoNode>(b);
    if (l->fields.size() != r->fields.size())
      return false;
    for (size_t i = 0; i < l->fields.size(); ++i)
      if (!structInfoIdentical(l->fields[i].get(), r->fields[i].get()))
        return false;
    return true;
  }
  case NodeKind::FuncSInfo: {
    const auto *l = llvm::cast<FuncSInfoNode>(a), *r = llvm::cast<FuncSInfoNode>(b);
    if (l->purity != r->purity || l->deriveFunc != r->deriveFunc ||
        l->params.hasValue() != r->params.hasValue() ||
        !structInfoIdentical(l->ret.get(), r->ret.get()))
      return false;
    if (!l->params)
      return true;
    if (l->params->size() != r->params->size())
      return false;
    for (size_t i = 0; i < l->params->size(); ++i)
      if (!structInfoIdentical((*l->params)[i].get(), (*r->params)[i].get()))
        return false;
    return true;
  }
  case NodeKind::DTensorSInfo: {
    const auto *l = llvm::cast<DTensorSInfoNode>(a), *r = llvm::cast<DTensorSInfoNode>(b);
    return sameDeviceMesh(l->mesh.get(), r->mesh.get()) && l->placement == r->placement &&
           structInfoIdentical(l->tensor.get(), r->tensor.get());
  }
  default:
    return false;
  }
}
