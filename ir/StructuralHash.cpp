//===- ir/StructuralHash.cpp - Hash consistent with structural equality -----===//
//
// Walks the same fields in the same order as ir/StructuralEqual.cpp, so that
// two structurally equal inputs feed the same sequence of values:
// - a var (Relax or Tir) hashes, at its first meeting, by whether it was a
//   definition (then by nothing else) or a free use (then by its pointer,
//   since equality matches free vars only by identity), followed by its
//   struct info; every later meeting hashes its definition-order index;
// - names are never hashed except GlobalVar and op names;
// - floats hash with every NaN made one canonical NaN;
// - unordered maps (DictAttrs, global_infos, module functions) hash in key
//   order.
//
//===----------------------------------------------------------------------===//

#include "ir/DenseId.h"
#include "ir/IndexMap.h"
#include "ir/Op.h"
#include "ir/StructuralDetail.h"
#include "ir/StructuralEqual.h"
#include "ir/TirBody.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace graft;

namespace {

/// Tags that keep differently shaped sequences apart.
enum Tag : uint64_t {
  TagNull = 0x6e756c6c,
  TagVarDef = 0x76646566,
  TagVarFree,
  TagVarIndex,
  TagArray,
  TagMissing,
};

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

class Hasher {
public:
  void module(const IRModule &m);
  void node(const Node *n, bool def);
  uint64_t result() const { return mix64(h_); }

private:
  void add(uint64_t v) { h_ = mix64(h_ ^ (v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2))); }
  void addStr(llvm::StringRef s) { add(llvm::xxHash64(s)); }
  void addDType(DataType dt) {
    add((uint64_t(dt.code) << 32) | (uint64_t(dt.bits) << 16) | dt.lanes);
  }
  void addKind(const Node *n) { add(static_cast<uint64_t>(n->getKind()) + 1); }

  void entryFunc(const Node *f);
  void primFunc(const PrimFuncNode *pf);
  void expr(const ExprNode *e, bool def);
  void var(const VarNode *v, bool def);
  void constant(const ConstantNode *c);
  void function(const FunctionNode *fn, bool def);
  void block(const BindingBlockNode *b, bool def);
  void binding(const BindingNode *b, bool def);
  void sinfo(const StructInfoNode *s, bool def);
  void vdevice(const VDeviceNode *vd);
  void deviceMesh(const DeviceMeshNode *dm);
  void prim(const PrimExprNode *e, bool def);
  void primArray(llvm::ArrayRef<PrimExpr> a, bool def);
  void dict(const AttrDict &d);
  void ordered(const AttrDict &d);
  void attrValue(const AttrValue &v);

  /// True (and the index hashed) when the var was met before. Vars (Relax
  /// and TIR) are keyed by their DenseId; the table holds index + 1.
  template <typename V> bool seen(const V *v) {
    uint32_t slot = index_.lookup(v->id);
    if (slot == 0)
      return false;
    add(TagVarIndex);
    add(slot - 1);
    return true;
  }
  template <typename V> void firstMeeting(const V *v, bool def) {
    index_[v->id] = ++numSeen_;
    if (def) {
      add(TagVarDef);
    } else {
      add(TagVarFree);
      add(reinterpret_cast<uintptr_t>(v));
    }
  }

  uint64_t h_ = 0x67726166;
  DenseIdMap<uint32_t> index_;
  uint32_t numSeen_ = 0;
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

void Hasher::module(const IRModule &m) {
  dict(m.attrs ? m.attrs->entries : AttrDict());
  llvm::SmallVector<size_t, 4> order(m.globalInfos.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order,
             [&](size_t x, size_t y) { return m.globalInfos[x].first < m.globalInfos[y].first; });
  add(order.size());
  for (size_t i : order) {
    addStr(m.globalInfos[i].first);
    add(m.globalInfos[i].second.size());
    for (const Ref<Node> &info : m.globalInfos[i].second)
      node(info.get(), false);
  }
  // Functions in name order, so insertion order does not matter.
  std::vector<const ModuleEntry *> entries;
  entries.reserve(m.entries().size());
  for (const ModuleEntry &e : m.entries())
    entries.push_back(&e);
  llvm::sort(entries, [](const ModuleEntry *x, const ModuleEntry *y) {
    return x->gvar->name < y->gvar->name;
  });
  add(entries.size());
  for (const ModuleEntry *e : entries) {
    addStr(e->gvar->name);
    entryFunc(e->func.get());
  }
}

void Hasher::entryFunc(const Node *f) {
  if (!f)
    return add(TagNull);
  addKind(f);
  if (const auto *pf = llvm::dyn_cast<PrimFuncNode>(f))
    return primFunc(pf);
  expr(llvm::cast<ExprNode>(f), false);
}

void Hasher::primFunc(const PrimFuncNode *pf) {
  add(pf->params.size());
  for (const PrimParam &p : pf->params) {
    add(static_cast<uint64_t>(p.kind));
    primArray(p.shape, true);
    addDType(p.dtype);
  }
  addDType(pf->retType);
  dict(pf->attrs ? pf->attrs->entries : AttrDict());
  add(pf->isPrivate);
  add(pf->body ? tir::hash(*pf->body) : TagNull);
  add(pf->bodyTokens.size());
  for (const std::string &tok : pf->bodyTokens)
    addStr(tok);
  if (pf->computed)
    prim(pf->computed.get(), true);
  else
    add(TagNull);
  add(pf->heapLoads.size());
  for (const auto &load : pf->heapLoads) {
    add(static_cast<uint64_t>(load.first));
    prim(load.second.get(), true);
  }
  add(pf->heapStores.size());
  for (const auto &store : pf->heapStores) {
    add(static_cast<uint64_t>(store.first));
    prim(store.second.get(), false);
  }
}

//===----------------------------------------------------------------------===//
// Generic entry and Relax
//===----------------------------------------------------------------------===//

void Hasher::node(const Node *n, bool def) {
  if (!n)
    return add(TagNull);
  if (const auto *p = llvm::dyn_cast<PrimExprNode>(n))
    return prim(p, def);
  if (const auto *s = llvm::dyn_cast<StructInfoNode>(n))
    return sinfo(s, def);
  if (const auto *e = llvm::dyn_cast<ExprNode>(n))
    return expr(e, def);
  addKind(n);
  if (const auto *b = llvm::dyn_cast<BindingNode>(n))
    return binding(b, def);
  if (const auto *b = llvm::dyn_cast<BindingBlockNode>(n))
    return block(b, def);
  if (const auto *pf = llvm::dyn_cast<PrimFuncNode>(n))
    return primFunc(pf);
  if (const auto *vd = llvm::dyn_cast<VDeviceNode>(n))
    return vdevice(vd);
  if (const auto *dm = llvm::dyn_cast<DeviceMeshNode>(n))
    return deviceMesh(dm);
  if (const auto *at = llvm::dyn_cast<AttrsNode>(n))
    return dict(at->entries);
}

void Hasher::var(const VarNode *v, bool def) {
  if (seen(v))
    return;
  firstMeeting(v, def);
  node(v->sinfo.get(), def);
}

void Hasher::expr(const ExprNode *e, bool def) {
  if (!e)
    return add(TagNull);
  addKind(e);
  switch (e->getKind()) {
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    return var(llvm::cast<VarNode>(e), def);
  case NodeKind::Constant:
    return constant(llvm::cast<ConstantNode>(e));
  case NodeKind::ShapeExpr:
    return primArray(llvm::cast<ShapeExprNode>(e)->values, def);
  case NodeKind::PrimValue:
    return node(llvm::cast<PrimValueNode>(e)->value.get(), def);
  case NodeKind::StringImm:
    return addStr(llvm::cast<StringImmNode>(e)->value);
  case NodeKind::DataTypeImm:
    return addDType(llvm::cast<DataTypeImmNode>(e)->value);
  case NodeKind::Tuple: {
    const auto &fields = llvm::cast<TupleNode>(e)->fields;
    add(fields.size());
    for (const Expr &f : fields)
      expr(f.get(), def);
    return;
  }
  case NodeKind::TupleGetItem: {
    const auto *t = llvm::cast<TupleGetItemNode>(e);
    expr(t->tuple.get(), def);
    return add(static_cast<uint64_t>(t->index));
  }
  case NodeKind::Call: {
    const auto *c = llvm::cast<CallNode>(e);
    expr(c->op.get(), def);
    add(c->args.size());
    for (const Expr &a : c->args)
      expr(a.get(), def);
    ordered(c->attrs ? c->attrs->entries : AttrDict());
    add(c->sinfoArgs.size());
    for (const StructInfo &s : c->sinfoArgs)
      node(s.get(), def);
    return;
  }
  case NodeKind::If: {
    const auto *i = llvm::cast<IfNode>(e);
    expr(i->cond.get(), def);
    expr(i->thenBranch.get(), def);
    return expr(i->elseBranch.get(), def);
  }
  case NodeKind::SeqExpr: {
    const auto *s = llvm::cast<SeqExprNode>(e);
    add(s->blocks.size());
    for (const BindingBlock &b : s->blocks)
      block(b.get(), def);
    return expr(s->body.get(), def);
  }
  case NodeKind::Function:
    return function(llvm::cast<FunctionNode>(e), def);
  case NodeKind::ExternFunc: {
    const auto *x = llvm::cast<ExternFuncNode>(e);
    dict(x->attrs ? x->attrs->entries : AttrDict());
    return addStr(x->symbol);
  }
  case NodeKind::GlobalVar:
    return addStr(llvm::cast<GlobalVarNode>(e)->name);
  case NodeKind::Op:
    return addStr(llvm::cast<OpNode>(e)->name());
  default:
    return;
  }
}

void Hasher::constant(const ConstantNode *c) {
  const TensorData *d = c->data.get();
  if (!d)
    return add(TagNull);
  addDType(d->dtype);
  add(d->shape.size());
  for (int64_t dim : d->shape)
    add(static_cast<uint64_t>(dim));
  unsigned width = structural::nanAwareWidth(d->dtype);
  bool hasNaN = false;
  if (width)
    for (size_t i = 0; i + width <= d->bytes.size() && !hasNaN; i += width)
      hasNaN = structural::isNaNElement(d->dtype, d->bytes.data() + i);
  if (!hasNaN)
    return add(llvm::xxHash64(llvm::ArrayRef<uint8_t>(d->bytes)));
  // Every NaN payload becomes the same bytes (all ones) before hashing.
  std::vector<uint8_t> canon(d->bytes);
  for (size_t i = 0; i + width <= canon.size(); i += width)
    if (structural::isNaNElement(d->dtype, canon.data() + i))
      std::memset(canon.data() + i, 0xff, width);
  add(llvm::xxHash64(llvm::ArrayRef<uint8_t>(canon)));
}

void Hasher::function(const FunctionNode *fn, bool def) {
  dict(fn->attrs ? fn->attrs->entries : AttrDict());
  add(fn->params.size());
  for (const Var &p : fn->params) {
    if (!p) {
      add(TagNull);
      continue;
    }
    addKind(p.get());
    var(p.get(), true);
  }
  expr(fn->body.get(), def);
  node(fn->retSInfo.get(), def);
  add(fn->isPure);
}

void Hasher::block(const BindingBlockNode *b, bool def) {
  if (!b)
    return add(TagNull);
  add(b->isDataflow);
  add(b->bindings.size());
  for (const Binding &binding : b->bindings)
    node(binding.get(), def);
}

void Hasher::binding(const BindingNode *b, bool def) {
  auto defVar = [&] {
    if (!b->var)
      return add(TagNull);
    addKind(b->var.get());
    var(b->var.get(), true);
  };
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(b)) {
    defVar();
    expr(b->value.get(), def);
    return node(mc->castSInfo.get(), true);
  }
  if (llvm::isa_and_nonnull<FunctionNode>(b->value.get())) {
    defVar();
    return expr(b->value.get(), def);
  }
  expr(b->value.get(), def);
  defVar();
}

//===----------------------------------------------------------------------===//
// Struct info and symbolic expressions
//===----------------------------------------------------------------------===//

void Hasher::sinfo(const StructInfoNode *s, bool def) {
  addKind(s);
  switch (s->getKind()) {
  case NodeKind::PrimSInfo: {
    const auto *p = llvm::cast<PrimSInfoNode>(s);
    node(p->value.get(), def);
    return addDType(p->dtype);
  }
  case NodeKind::ShapeSInfo: {
    const auto *sh = llvm::cast<ShapeSInfoNode>(s);
    if (sh->values)
      primArray(*sh->values, def);
    else
      add(TagNull);
    return add(static_cast<uint64_t>(sh->ndim));
  }
  case NodeKind::TensorSInfo: {
    const auto *t = llvm::cast<TensorSInfoNode>(s);
    expr(t->shape.get(), def);
    addDType(t->dtype);
    if (t->vdevice)
      vdevice(t->vdevice.get());
    else
      add(TagNull);
    return add(static_cast<uint64_t>(t->ndim));
  }
  case NodeKind::TupleSInfo: {
    const auto &fields = llvm::cast<TupleSInfoNode>(s)->fields;
    add(fields.size());
    for (const StructInfo &f : fields)
      node(f.get(), def);
    return;
  }
  case NodeKind::FuncSInfo: {
    const auto *f = llvm::cast<FuncSInfoNode>(s);
    if (f->params) {
      add(f->params->size());
      for (const StructInfo &p : *f->params)
        node(p.get(), true);
    } else {
      add(TagNull);
    }
    node(f->ret.get(), def);
    addStr(f->deriveFunc);
    return add(f->purity);
  }
  case NodeKind::DTensorSInfo: {
    const auto *d = llvm::cast<DTensorSInfoNode>(s);
    if (d->mesh)
      deviceMesh(d->mesh.get());
    else
      add(TagNull);
    addStr(placementText(d->placement));
    return node(d->tensor.get(), def);
  }
  default:
    return;
  }
}

void Hasher::deviceMesh(const DeviceMeshNode *dm) {
  add(dm->shape.size());
  for (int64_t v : dm->shape)
    add(static_cast<uint64_t>(v));
  add(dm->deviceIds.size());
  for (int64_t v : dm->deviceIds)
    add(static_cast<uint64_t>(v));
  add(dm->range.hasValue());
}

void Hasher::vdevice(const VDeviceNode *vd) {
  addStr(vd->targetKind);
  dict(vd->targetConfig);
  add(static_cast<uint64_t>(vd->vdeviceId));
  addStr(vd->memoryScope);
}

void Hasher::primArray(llvm::ArrayRef<PrimExpr> a, bool def) {
  add(TagArray);
  add(a.size());
  for (const PrimExpr &e : a)
    node(e.get(), def);
}

void Hasher::prim(const PrimExprNode *e, bool def) {
  addKind(e);
  addDType(e->dtype);
  switch (e->getKind()) {
  case NodeKind::IntImm:
    return add(static_cast<uint64_t>(llvm::cast<IntImmNode>(e)->value));
  case NodeKind::FloatImm:
    return add(structural::floatHashBits(llvm::cast<FloatImmNode>(e)->value));
  case NodeKind::TirVar: {
    const auto *v = llvm::cast<TirVarNode>(e);
    if (seen(v))
      return;
    firstMeeting(v, def);
    return add(v->isSizeVar);
  }
  case NodeKind::PrimBinary: {
    const auto *b = llvm::cast<PrimBinaryNode>(e);
    add(static_cast<uint64_t>(b->op));
    node(b->a.get(), def);
    return node(b->b.get(), def);
  }
  case NodeKind::PrimNot:
    return node(llvm::cast<PrimNotNode>(e)->a.get(), def);
  case NodeKind::PrimCast:
    return node(llvm::cast<PrimCastNode>(e)->value.get(), def);
  case NodeKind::PrimSelect: {
    const auto *s = llvm::cast<PrimSelectNode>(e);
    node(s->cond.get(), def);
    node(s->trueValue.get(), def);
    return node(s->falseValue.get(), def);
  }
  default:
    return;
  }
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

void Hasher::dict(const AttrDict &d) {
  // Equality looks keys up, so the hash must not see insertion order.
  llvm::SmallVector<const std::pair<std::string, AttrValue> *, 8> sorted;
  sorted.reserve(d.size());
  for (const auto &kv : d)
    sorted.push_back(&kv);
  llvm::sort(sorted, [](const auto *x, const auto *y) { return x->first < y->first; });
  add(sorted.size());
  for (const auto *kv : sorted) {
    addStr(kv->first);
    attrValue(kv->second);
  }
}

void Hasher::ordered(const AttrDict &d) {
  add(d.size());
  for (const auto &[k, v] : d) {
    addStr(k);
    attrValue(v);
  }
}

void Hasher::attrValue(const AttrValue &v) {
  add(static_cast<uint64_t>(v.kind()) + 0x100);
  switch (v.kind()) {
  case AttrValue::Kind::None:
    return;
  case AttrValue::Kind::Bool:
    return add(v.getBool());
  case AttrValue::Kind::Int:
    return add(static_cast<uint64_t>(v.getInt()));
  case AttrValue::Kind::Float:
    return add(structural::floatHashBits(v.getFloat()));
  case AttrValue::Kind::String:
    return addStr(v.getString());
  case AttrValue::Kind::DType:
    return addDType(v.getDType());
  case AttrValue::Kind::Prim:
    return node(v.getPrim().get(), false);
  case AttrValue::Kind::Array:
    add(v.getArray().size());
    for (const AttrValue &e : v.getArray())
      attrValue(e);
    return;
  case AttrValue::Kind::Dict:
    return dict(v.getDict());
  case AttrValue::Kind::SInfo:
    return node(v.getSInfo(), false);
  case AttrValue::Kind::IndexMap:
    for (const IndexMapNode *m = v.getIndexMap(); m; m = m->inverse.get()) {
      add(m->initial.size());
      for (const TirVar &var : m->initial)
        node(var.get(), true);
      primArray(m->final, false);
    }
    return;
  }
}

} // namespace

uint64_t graft::structuralHash(const IRModule &m) {
  Hasher h;
  h.module(m);
  return h.result();
}

uint64_t graft::structuralHash(const Node *n, bool mapFreeVars) {
  Hasher h;
  h.node(n, mapFreeVars);
  return h.result();
}
