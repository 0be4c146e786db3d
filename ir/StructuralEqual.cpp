//===- ir/StructuralEqual.cpp - Structural equality and mismatch paths ------===//
//
// TVM v0.23's structural equality (TVM `src/node/structural_equal.cc` and "Structural equality in
// v0.23"). One comparer walks both sides in lockstep, field by field in
// v0.23's order; the first failing field ends the walk and names the path.
//
// Vars (Relax Var/DataflowVar and TirVar) are matched through a bijection:
// at a definition site (function params, binding vars, match_cast struct
// info, FuncStructInfo params) an unmapped pair is recorded; anywhere else
// an unmapped var matches only itself. A var's struct info is compared at
// its first meeting only, in the mode of that meeting, so the symbolic vars
// of a param annotation are defined at their first occurrence.
//
// Path spelling (docs/text-format.md, TVM's AccessPath without `<root>`): `.field`,
// `[i]`, `["key"]` (module functions and dict attrs, keyed by name),
// `[<missing item at i>]` / `[<missing item at "key">]`. Struct info is
// spelled `.struct_info` (Var and MatchCast alike; TVM writes the Var field
// `struct_info_`), a function's return `.ret_struct_info`, tuple-get-item's
// tuple `.tuple_value`, attributes `.attrs["key"]` (TVM:
// `.attrs.__dict__["key"]`), call attributes likewise by field name.
//
//===----------------------------------------------------------------------===//

#include "ir/StructuralEqual.h"
#include "ir/DenseId.h"
#include "ir/IndexMap.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StructuralDetail.h"
#include "ir/TirBody.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace graft;
using structural::floatSame;

namespace {

/// One step of an access path. Keys point into the nodes being compared,
/// which outlive the comparison; paths are formatted only on failure.
struct PathStep {
  enum Kind : uint8_t { Field, Index, Key } kind;
  const char *field = nullptr;
  int64_t index = 0;
  llvm::StringRef key;
};

/// What the report prints around the difference, per side.
struct Context {
  const ModuleEntry *entry = nullptr;
  const BindingNode *binding = nullptr;
};

void writeKey(llvm::raw_ostream &os, llvm::StringRef key) {
  os << '"';
  for (char c : key) {
    if (c == '"' || c == '\\')
      os << '\\';
    os << c;
  }
  os << '"';
}

class Comparer {
public:
  bool compareModule(const IRModule &a, const IRModule &b);
  bool compareNode(const Node *a, const Node *b, bool def);

  // The first failure.
  std::string lhsPath, rhsPath;
  Context lhsCtx, rhsCtx;

private:
  // Failure recording. The missing-item forms name the side that lacks the
  // element.
  bool fail();
  bool failMissingIndex(bool lhsMissing, int64_t index);
  bool failMissingKey(bool lhsMissing, llvm::StringRef key);
  void formatPath(std::string &out, const PathStep *extra, bool missing) const;

  // Path scoping: run `fn` with one more step on the path.
  template <typename F> bool inField(const char *name, F &&fn) {
    PathStep s;
    s.kind = PathStep::Field;
    s.field = name;
    path_.push_back(s);
    bool ok = fn();
    path_.pop_back();
    return ok;
  }
  template <typename F> bool inIndex(int64_t i, F &&fn) {
    PathStep s;
    s.kind = PathStep::Index;
    s.index = i;
    path_.push_back(s);
    bool ok = fn();
    path_.pop_back();
    return ok;
  }
  template <typename F> bool inKey(llvm::StringRef key, F &&fn) {
    PathStep s;
    s.kind = PathStep::Key;
    s.key = key;
    path_.push_back(s);
    bool ok = fn();
    path_.pop_back();
    return ok;
  }
  /// Elementwise over the common prefix, then a length mismatch at min(len).
  template <typename T, typename F>
  bool array(const char *name, llvm::ArrayRef<T> a, llvm::ArrayRef<T> b, F &&elem) {
    return inField(name, [&] { return arrayHere(a, b, elem); });
  }
  template <typename T, typename F>
  bool arrayHere(llvm::ArrayRef<T> a, llvm::ArrayRef<T> b, F &&elem) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
      if (!inIndex(static_cast<int64_t>(i), [&] { return elem(a[i], b[i]); }))
        return false;
    if (a.size() != b.size())
      return failMissingIndex(a.size() < b.size(), static_cast<int64_t>(n));
    return true;
  }
  template <typename T> bool scalar(const char *name, const T &a, const T &b) {
    return a == b || inField(name, [&] { return fail(); });
  }

  // Module level.
  bool moduleFunctions(const IRModule &a, const IRModule &b);
  bool moduleGlobalInfos(const IRModule &a, const IRModule &b);
  bool entryFunc(const ModuleEntry &a, const ModuleEntry &b);
  bool primFunc(const PrimFuncNode *a, const PrimFuncNode *b);
  bool scalarParamVars(const PrimFuncNode *a, const PrimFuncNode *b);

  // Relax.
  bool expr(const ExprNode *a, const ExprNode *b, bool def);
  bool optExpr(const ExprNode *a, const ExprNode *b, bool def);
  bool var(const VarNode *a, const VarNode *b, bool def);
  bool call(const CallNode *a, const CallNode *b, bool def);
  bool function(const FunctionNode *a, const FunctionNode *b, bool def);
  bool seqExpr(const SeqExprNode *a, const SeqExprNode *b, bool def);
  bool block(const BindingBlockNode *a, const BindingBlockNode *b, bool def);
  bool binding(const BindingNode *a, const BindingNode *b, bool def);
  bool bindingFields(const BindingNode *a, const BindingNode *b, bool def);
  bool constant(const ConstantNode *a, const ConstantNode *b);

  // Struct info and symbolic expressions.
  bool sinfo(const StructInfoNode *a, const StructInfoNode *b, bool def);
  bool optSInfo(const StructInfoNode *a, const StructInfoNode *b, bool def);
  bool sinfoArray(const char *name, llvm::ArrayRef<StructInfo> a, llvm::ArrayRef<StructInfo> b,
                  bool def);
  bool vdevice(const VDeviceNode *a, const VDeviceNode *b);
  bool deviceMesh(const DeviceMeshNode *a, const DeviceMeshNode *b);
  bool prim(const PrimExprNode *a, const PrimExprNode *b, bool def);
  bool optPrim(const PrimExprNode *a, const PrimExprNode *b, bool def);
  bool primArray(const char *name, llvm::ArrayRef<PrimExpr> a, llvm::ArrayRef<PrimExpr> b,
                 bool def);
  bool tirVar(const TirVarNode *a, const TirVarNode *b, bool def);

  // Attributes.
  bool dictAttrs(const AttrsNode *a, const AttrsNode *b);
  bool callAttrs(const AttrsNode *a, const AttrsNode *b);
  bool attrDict(const AttrDict &a, const AttrDict &b);
  bool attrValue(const AttrValue &a, const AttrValue &b);
  bool indexMap(const IndexMapNode *a, const IndexMapNode *b);

  /// Records a var pair after its fields matched. Vars (Relax and TIR)
  /// are keyed by their DenseId: a 200k-binding function pairs 200k vars.
  template <typename V> void record(const V *a, const V *b) {
    lhsToRhs_[a->id] = b;
    rhsToLhs_[b->id] = a;
  }
  /// The mapping check every free/definable var starts with: 1 = already
  /// paired correctly, 0 = conflict, -1 = unmapped on both sides.
  template <typename V> int mapped(const V *a, const V *b) const {
    if (const Node *paired = lhsToRhs_.lookup(a->id))
      return paired == b ? 1 : 0;
    return rhsToLhs_.lookup(b->id) ? 0 : -1;
  }

  DenseIdMap<const Node *> lhsToRhs_, rhsToLhs_;
  llvm::SmallVector<PathStep, 32> path_;
  Context curLhs_, curRhs_;
  bool failed_ = false;
};

//===----------------------------------------------------------------------===//
// Failure and paths
//===----------------------------------------------------------------------===//

void Comparer::formatPath(std::string &out, const PathStep *extra, bool missing) const {
  llvm::raw_string_ostream os(out);
  auto write = [&](const PathStep &s, bool first, bool isMissing) {
    switch (s.kind) {
    case PathStep::Field:
      if (!first)
        os << '.';
      os << s.field;
      return;
    case PathStep::Index:
      if (isMissing)
        os << "[<missing item at " << s.index << ">]";
      else
        os << '[' << s.index << ']';
      return;
    case PathStep::Key:
      os << '[';
      if (isMissing)
        os << "<missing item at ";
      writeKey(os, s.key);
      if (isMissing)
        os << '>';
      os << ']';
      return;
    }
  };
  bool first = true;
  for (const PathStep &s : path_) {
    write(s, first, false);
    first = false;
  }
  if (extra)
    write(*extra, first, missing);
}

bool Comparer::fail() {
  if (!failed_) {
    failed_ = true;
    formatPath(lhsPath, nullptr, false);
    rhsPath = lhsPath;
    lhsCtx = curLhs_;
    rhsCtx = curRhs_;
  }
  return false;
}

bool Comparer::failMissingIndex(bool lhsMissing, int64_t index) {
  if (!failed_) {
    failed_ = true;
    PathStep s;
    s.kind = PathStep::Index;
    s.index = index;
    formatPath(lhsPath, &s, lhsMissing);
    formatPath(rhsPath, &s, !lhsMissing);
    lhsCtx = curLhs_;
    rhsCtx = curRhs_;
  }
  return false;
}

bool Comparer::failMissingKey(bool lhsMissing, llvm::StringRef key) {
  if (!failed_) {
    failed_ = true;
    PathStep s;
    s.kind = PathStep::Key;
    s.key = key;
    formatPath(lhsPath, &s, lhsMissing);
    formatPath(rhsPath, &s, !lhsMissing);
    lhsCtx = curLhs_;
    rhsCtx = curRhs_;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

bool Comparer::compareModule(const IRModule &a, const IRModule &b) {
  // v0.23 IRModule hook: attrs, global_infos, then the functions (the
  // GlobalVars pair by name, which is how GlobalVars compare here anyway).
  if (!inField("attrs", [&] { return dictAttrs(a.attrs.get(), b.attrs.get()); }))
    return false;
  if (!inField("global_infos", [&] { return moduleGlobalInfos(a, b); }))
    return false;
  return inField("functions", [&] { return moduleFunctions(a, b); });
}

bool Comparer::moduleGlobalInfos(const IRModule &a, const IRModule &b) {
  auto find = [](const IRModule &m, llvm::StringRef key) -> const std::vector<Ref<Node>> * {
    for (const auto &[k, v] : m.globalInfos)
      if (k == key)
        return &v;
    return nullptr;
  };
  // Plain pairs, not structured bindings: clang 14 cannot capture those.
  for (const auto &kv : a.globalInfos) {
    const std::vector<Ref<Node>> *other = find(b, kv.first);
    if (!other)
      return failMissingKey(/*lhsMissing=*/false, kv.first);
    bool ok = inKey(kv.first, [&] {
      return arrayHere(llvm::ArrayRef<Ref<Node>>(kv.second), llvm::ArrayRef<Ref<Node>>(*other),
                       [&](const Ref<Node> &x, const Ref<Node> &y) {
                         return compareNode(x.get(), y.get(), false);
                       });
    });
    if (!ok)
      return false;
  }
  for (const auto &[key, infos] : b.globalInfos)
    if (!find(a, key))
      return failMissingKey(/*lhsMissing=*/true, key);
  return true;
}

bool Comparer::moduleFunctions(const IRModule &a, const IRModule &b) {
  // Lhs insertion order (the order of the text), then what only rhs has.
  for (const ModuleEntry &ea : a.entries()) {
    const ModuleEntry *eb = b.lookup(ea.gvar->name);
    if (!eb) {
      curLhs_.entry = &ea;
      curRhs_.entry = nullptr;
      return failMissingKey(/*lhsMissing=*/false, ea.gvar->name);
    }
    curLhs_.entry = &ea;
    curRhs_.entry = eb;
    if (!inKey(ea.gvar->name, [&] { return entryFunc(ea, *eb); }))
      return false;
  }
  curLhs_.entry = curRhs_.entry = nullptr;
  for (const ModuleEntry &eb : b.entries()) {
    if (!a.lookup(eb.gvar->name)) {
      curRhs_.entry = &eb;
      return failMissingKey(/*lhsMissing=*/true, eb.gvar->name);
    }
  }
  return true;
}

bool Comparer::entryFunc(const ModuleEntry &a, const ModuleEntry &b) {
  const Node *fa = a.func.get(), *fb = b.func.get();
  if (!fa || !fb)
    return fa == fb || fail();
  if (fa->getKind() != fb->getKind())
    return fail();
  if (const auto *pa = llvm::dyn_cast<PrimFuncNode>(fa))
    return primFunc(pa, llvm::cast<PrimFuncNode>(fb));
  return expr(llvm::cast<ExprNode>(fa), llvm::cast<ExprNode>(fb), false);
}

bool Comparer::primFunc(const PrimFuncNode *a, const PrimFuncNode *b) {
  // Signature (symbolic dims of buffers are definitions), attrs, private
  // flag, then the body tokens and any computed value.
  bool ok = array(
      "params", llvm::ArrayRef<PrimParam>(a->params), llvm::ArrayRef<PrimParam>(b->params),
      [&](const PrimParam &x, const PrimParam &y) {
        if (x.kind != y.kind)
          return fail();
        return primArray("shape", x.shape, y.shape, true) && scalar("dtype", x.dtype, y.dtype);
      });
  ok = ok && scalar("ret_type", a->retType, b->retType);
  ok = ok && inField("attrs", [&] { return dictAttrs(a->attrs.get(), b->attrs.get()); });
  ok = ok && scalar("private", a->isPrivate, b->isPrivate);
  ok = ok && inField("body", [&] {
         if (!a->body || !b->body)
           return (!a->body && !b->body) || fail();
         return tir::equal(*a->body, *b->body) || fail();
       });
  ok = ok && array("body", llvm::ArrayRef<std::string>(a->bodyTokens),
                   llvm::ArrayRef<std::string>(b->bodyTokens),
                   [&](const std::string &x, const std::string &y) { return x == y || fail(); });
  ok = ok && scalarParamVars(a, b);
  ok = ok &&
       inField("computed", [&] { return optPrim(a->computed.get(), b->computed.get(), true); });
  ok = ok && array("heap_loads", llvm::ArrayRef<std::pair<int64_t, TirVar>>(a->heapLoads),
                   llvm::ArrayRef<std::pair<int64_t, TirVar>>(b->heapLoads),
                   [&](const std::pair<int64_t, TirVar> &x, const std::pair<int64_t, TirVar> &y) {
                     return scalar("slot", x.first, y.first) &&
                            tirVar(x.second.get(), y.second.get(), true);
                   });
  ok = ok &&
       array("heap_stores", llvm::ArrayRef<std::pair<int64_t, PrimExpr>>(a->heapStores),
             llvm::ArrayRef<std::pair<int64_t, PrimExpr>>(b->heapStores),
             [&](const std::pair<int64_t, PrimExpr> &x, const std::pair<int64_t, PrimExpr> &y) {
               return scalar("slot", x.first, y.first) && inField("value", [&] {
                        return optPrim(x.second.get(), y.second.get(), false);
                      });
             });
  return ok;
}

/// A computed value names its scalar params by name: pair the vars of the
/// same param first, so `a - b` and `b - a` over `(a, b)` differ.
bool Comparer::scalarParamVars(const PrimFuncNode *a, const PrimFuncNode *b) {
  if (!a->computed || !b->computed)
    return true;
  auto varNamed = [](const PrimExprNode *e, llvm::StringRef name) {
    const TirVarNode *found = nullptr;
    forEachTirVar(e, [&](const TirVarNode *v) {
      if (!found && v->name == name)
        found = v;
    });
    return found;
  };
  for (size_t i = 0; i < a->params.size() && i < b->params.size(); ++i) {
    const TirVarNode *va = varNamed(a->computed.get(), a->params[i].name);
    const TirVarNode *vb = varNamed(b->computed.get(), b->params[i].name);
    if (!va || !vb) {
      if (va != vb)
        return inField("computed", [&] { return fail(); });
      continue;
    }
    if (!inField("computed", [&] { return tirVar(va, vb, true); }))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Generic node entry
//===----------------------------------------------------------------------===//

bool Comparer::compareNode(const Node *a, const Node *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  if (a->getKind() != b->getKind())
    return fail();
  if (const auto *pa = llvm::dyn_cast<PrimExprNode>(a))
    return prim(pa, llvm::cast<PrimExprNode>(b), def);
  if (const auto *sa = llvm::dyn_cast<StructInfoNode>(a))
    return sinfo(sa, llvm::cast<StructInfoNode>(b), def);
  if (const auto *ea = llvm::dyn_cast<ExprNode>(a))
    return expr(ea, llvm::cast<ExprNode>(b), def);
  if (const auto *ba = llvm::dyn_cast<BindingNode>(a))
    return binding(ba, llvm::cast<BindingNode>(b), def);
  if (const auto *bl = llvm::dyn_cast<BindingBlockNode>(a))
    return block(bl, llvm::cast<BindingBlockNode>(b), def);
  if (const auto *pf = llvm::dyn_cast<PrimFuncNode>(a))
    return primFunc(pf, llvm::cast<PrimFuncNode>(b));
  if (const auto *vd = llvm::dyn_cast<VDeviceNode>(a))
    return vdevice(vd, llvm::cast<VDeviceNode>(b));
  if (const auto *dm = llvm::dyn_cast<DeviceMeshNode>(a))
    return deviceMesh(dm, llvm::cast<DeviceMeshNode>(b));
  if (const auto *at = llvm::dyn_cast<AttrsNode>(a))
    return dictAttrs(at, llvm::cast<AttrsNode>(b));
  return fail();
}

//===----------------------------------------------------------------------===//
// Relax expressions
//===----------------------------------------------------------------------===//

bool Comparer::optExpr(const ExprNode *a, const ExprNode *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  return expr(a, b, def);
}

bool Comparer::var(const VarNode *a, const VarNode *b, bool def) {
  // Kind first: a Var never equals a DataflowVar, even when paired.
  if (a->getKind() != b->getKind())
    return fail();
  int m = mapped(a, b);
  if (m >= 0)
    return m == 1 || fail();
  if (!def && a != b)
    return fail();
  if (!inField("struct_info", [&] { return optSInfo(a->sinfo.get(), b->sinfo.get(), def); }))
    return false;
  record(a, b);
  return true;
}

bool Comparer::expr(const ExprNode *a, const ExprNode *b, bool def) {
  if (a->getKind() != b->getKind())
    return fail();
  switch (a->getKind()) {
  case NodeKind::Var:
  case NodeKind::DataflowVar:
    return var(llvm::cast<VarNode>(a), llvm::cast<VarNode>(b), def);
  case NodeKind::Constant:
    return constant(llvm::cast<ConstantNode>(a), llvm::cast<ConstantNode>(b));
  case NodeKind::ShapeExpr:
    return primArray("values", llvm::cast<ShapeExprNode>(a)->values,
                     llvm::cast<ShapeExprNode>(b)->values, def);
  case NodeKind::PrimValue:
    return inField("value", [&] {
      return prim(llvm::cast<PrimValueNode>(a)->value.get(),
                  llvm::cast<PrimValueNode>(b)->value.get(), def);
    });
  case NodeKind::StringImm:
    return scalar("value", llvm::cast<StringImmNode>(a)->value,
                  llvm::cast<StringImmNode>(b)->value);
  case NodeKind::DataTypeImm:
    return scalar("value", llvm::cast<DataTypeImmNode>(a)->value,
                  llvm::cast<DataTypeImmNode>(b)->value);
  case NodeKind::Tuple:
    return array("fields", llvm::ArrayRef<Expr>(llvm::cast<TupleNode>(a)->fields),
                 llvm::ArrayRef<Expr>(llvm::cast<TupleNode>(b)->fields),
                 [&](const Expr &x, const Expr &y) { return optExpr(x.get(), y.get(), def); });
  case NodeKind::TupleGetItem: {
    const auto *ta = llvm::cast<TupleGetItemNode>(a), *tb = llvm::cast<TupleGetItemNode>(b);
    return inField("tuple_value", [&] { return optExpr(ta->tuple.get(), tb->tuple.get(), def); }) &&
           scalar("index", ta->index, tb->index);
  }
  case NodeKind::Call:
    return call(llvm::cast<CallNode>(a), llvm::cast<CallNode>(b), def);
  case NodeKind::If: {
    const auto *ia = llvm::cast<IfNode>(a), *ib = llvm::cast<IfNode>(b);
    return inField("cond", [&] { return optExpr(ia->cond.get(), ib->cond.get(), def); }) &&
           inField("true_branch",
                   [&] { return optExpr(ia->thenBranch.get(), ib->thenBranch.get(), def); }) &&
           inField("false_branch",
                   [&] { return optExpr(ia->elseBranch.get(), ib->elseBranch.get(), def); });
  }
  case NodeKind::SeqExpr:
    return seqExpr(llvm::cast<SeqExprNode>(a), llvm::cast<SeqExprNode>(b), def);
  case NodeKind::Function:
    return function(llvm::cast<FunctionNode>(a), llvm::cast<FunctionNode>(b), def);
  case NodeKind::ExternFunc: {
    const auto *xa = llvm::cast<ExternFuncNode>(a), *xb = llvm::cast<ExternFuncNode>(b);
    return inField("attrs", [&] { return dictAttrs(xa->attrs.get(), xb->attrs.get()); }) &&
           scalar("global_symbol", xa->symbol, xb->symbol);
  }
  case NodeKind::GlobalVar:
    // Names matter; modules pair their GlobalVars by name.
    return llvm::cast<GlobalVarNode>(a)->name == llvm::cast<GlobalVarNode>(b)->name || fail();
  case NodeKind::Op: {
    // One node per name; unknown ops are interned too, so the name decides.
    const auto *oa = llvm::cast<OpNode>(a), *ob = llvm::cast<OpNode>(b);
    return oa == ob || oa->info == ob->info || oa->name() == ob->name() || fail();
  }
  default:
    return fail();
  }
}

bool Comparer::call(const CallNode *a, const CallNode *b, bool def) {
  return inField("op", [&] { return optExpr(a->op.get(), b->op.get(), def); }) &&
         array("args", llvm::ArrayRef<Expr>(a->args), llvm::ArrayRef<Expr>(b->args),
               [&](const Expr &x, const Expr &y) { return optExpr(x.get(), y.get(), def); }) &&
         inField("attrs", [&] { return callAttrs(a->attrs.get(), b->attrs.get()); }) &&
         sinfoArray("sinfo_args", a->sinfoArgs, b->sinfoArgs, def);
}

bool Comparer::constant(const ConstantNode *a, const ConstantNode *b) {
  const TensorData *da = a->data.get(), *db = b->data.get();
  if (da == db)
    return true;
  auto bad = [&] { return inField("data", [&] { return fail(); }); };
  if (!da || !db || da->shape != db->shape || da->dtype != db->dtype ||
      da->bytes.size() != db->bytes.size())
    return bad();
  // An empty tensor has no bytes (and data() may be null, which memcmp must not see).
  if (da->bytes.empty() || std::memcmp(da->bytes.data(), db->bytes.data(), da->bytes.size()) == 0)
    return true;
  unsigned width = structural::nanAwareWidth(da->dtype);
  if (width == 0)
    return bad();
  // Only NaN payloads may still differ.
  for (size_t i = 0; i + width <= da->bytes.size(); i += width) {
    const uint8_t *pa = da->bytes.data() + i, *pb = db->bytes.data() + i;
    if (std::memcmp(pa, pb, width) == 0)
      continue;
    if (!structural::isNaNElement(da->dtype, pa) || !structural::isNaNElement(da->dtype, pb))
      return bad();
  }
  return true;
}

bool Comparer::function(const FunctionNode *a, const FunctionNode *b, bool def) {
  // v0.23: attrs (from BaseFunc) first, then params as definitions, body,
  // ret_struct_info, is_pure.
  return inField("attrs", [&] { return dictAttrs(a->attrs.get(), b->attrs.get()); }) &&
         array("params", llvm::ArrayRef<Var>(a->params), llvm::ArrayRef<Var>(b->params),
               [&](const Var &x, const Var &y) { return var(x.get(), y.get(), true); }) &&
         inField("body", [&] { return optExpr(a->body.get(), b->body.get(), def); }) &&
         inField("ret_struct_info",
                 [&] { return optSInfo(a->retSInfo.get(), b->retSInfo.get(), def); }) &&
         scalar("is_pure", a->isPure, b->isPure);
}

bool Comparer::seqExpr(const SeqExprNode *a, const SeqExprNode *b, bool def) {
  return array("blocks", llvm::ArrayRef<BindingBlock>(a->blocks),
               llvm::ArrayRef<BindingBlock>(b->blocks),
               [&](const BindingBlock &x, const BindingBlock &y) {
                 return block(x.get(), y.get(), def);
               }) &&
         inField("body", [&] { return optExpr(a->body.get(), b->body.get(), def); });
}

bool Comparer::block(const BindingBlockNode *a, const BindingBlockNode *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  // A BindingBlock never equals a DataflowBlock.
  if (a->isDataflow != b->isDataflow)
    return fail();
  // A loop over the bindings: no recursion whose depth grows with them.
  return array("bindings", llvm::ArrayRef<Binding>(a->bindings),
               llvm::ArrayRef<Binding>(b->bindings),
               [&](const Binding &x, const Binding &y) { return binding(x.get(), y.get(), def); });
}

bool Comparer::binding(const BindingNode *a, const BindingNode *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  Context savedL = curLhs_, savedR = curRhs_;
  curLhs_.binding = a;
  curRhs_.binding = b;
  bool ok = a->getKind() == b->getKind() ? bindingFields(a, b, def) : fail();
  curLhs_ = savedL;
  curRhs_ = savedR;
  return ok;
}

bool Comparer::bindingFields(const BindingNode *a, const BindingNode *b, bool def) {
  auto defVar = [&] {
    return inField("var", [&] {
      if (!a->var || !b->var)
        return a->var.get() == b->var.get() || fail();
      return var(a->var.get(), b->var.get(), true);
    });
  };
  auto value = [&] {
    return inField("value", [&] { return optExpr(a->value.get(), b->value.get(), def); });
  };
  if (const auto *ma = llvm::dyn_cast<MatchCastNode>(a)) {
    // v0.23 has no hook for MatchCast: var, value, struct_info in field order.
    const auto *mb = llvm::cast<MatchCastNode>(b);
    return defVar() && value() && inField("struct_info", [&] {
             return optSInfo(ma->castSInfo.get(), mb->castSInfo.get(), true);
           });
  }
  // VarBinding: value, then var; var first for a Function so that a
  // recursive reference inside resolves through the pairing.
  if (llvm::isa_and_nonnull<FunctionNode>(a->value.get()))
    return defVar() && value();
  return value() && defVar();
}

//===----------------------------------------------------------------------===//
// Struct info
//===----------------------------------------------------------------------===//

bool Comparer::optSInfo(const StructInfoNode *a, const StructInfoNode *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  return sinfo(a, b, def);
}

bool Comparer::sinfoArray(const char *name, llvm::ArrayRef<StructInfo> a,
                          llvm::ArrayRef<StructInfo> b, bool def) {
  return array(name, a, b, [&](const StructInfo &x, const StructInfo &y) {
    return optSInfo(x.get(), y.get(), def);
  });
}

bool Comparer::sinfo(const StructInfoNode *a, const StructInfoNode *b, bool def) {
  if (a->getKind() != b->getKind())
    return fail();
  switch (a->getKind()) {
  case NodeKind::ObjectSInfo:
    return true;
  case NodeKind::PrimSInfo: {
    const auto *pa = llvm::cast<PrimSInfoNode>(a), *pb = llvm::cast<PrimSInfoNode>(b);
    return inField("value", [&] { return optPrim(pa->value.get(), pb->value.get(), def); }) &&
           scalar("dtype", pa->dtype, pb->dtype);
  }
  case NodeKind::ShapeSInfo: {
    const auto *sa = llvm::cast<ShapeSInfoNode>(a), *sb = llvm::cast<ShapeSInfoNode>(b);
    if (sa->values.hasValue() != sb->values.hasValue())
      return inField("values", [&] { return fail(); });
    if (sa->values && !primArray("values", *sa->values, *sb->values, def))
      return false;
    return scalar("ndim", sa->ndim, sb->ndim);
  }
  case NodeKind::TensorSInfo: {
    const auto *ta = llvm::cast<TensorSInfoNode>(a), *tb = llvm::cast<TensorSInfoNode>(b);
    return inField("shape", [&] { return optExpr(ta->shape.get(), tb->shape.get(), def); }) &&
           scalar("dtype", ta->dtype, tb->dtype) &&
           inField("vdevice",
                   [&] {
                     if (!ta->vdevice || !tb->vdevice)
                       return ta->vdevice.get() == tb->vdevice.get() || fail();
                     return vdevice(ta->vdevice.get(), tb->vdevice.get());
                   }) &&
           scalar("ndim", ta->ndim, tb->ndim);
  }
  case NodeKind::TupleSInfo:
    return sinfoArray("fields", llvm::cast<TupleSInfoNode>(a)->fields,
                      llvm::cast<TupleSInfoNode>(b)->fields, def);
  case NodeKind::FuncSInfo: {
    const auto *fa = llvm::cast<FuncSInfoNode>(a), *fb = llvm::cast<FuncSInfoNode>(b);
    if (fa->params.hasValue() != fb->params.hasValue())
      return inField("params", [&] { return fail(); });
    if (fa->params && !sinfoArray("params", *fa->params, *fb->params, true))
      return false;
    return inField("ret", [&] { return optSInfo(fa->ret.get(), fb->ret.get(), def); }) &&
           scalar("derive_func", fa->deriveFunc, fb->deriveFunc) &&
           scalar("purity", fa->purity, fb->purity);
  }
  case NodeKind::DTensorSInfo: {
    const auto *da = llvm::cast<DTensorSInfoNode>(a), *db = llvm::cast<DTensorSInfoNode>(b);
    return inField("device_mesh", [&] { return deviceMesh(da->mesh.get(), db->mesh.get()); }) &&
           scalar("placement", placementText(da->placement), placementText(db->placement)) &&
           inField("tensor_sinfo", [&] { return sinfo(da->tensor.get(), db->tensor.get(), def); });
  }
  default:
    return fail();
  }
}

bool Comparer::deviceMesh(const DeviceMeshNode *a, const DeviceMeshNode *b) {
  if (!a || !b)
    return a == b || fail();
  return sameDeviceMesh(a, b) || fail();
}

bool Comparer::vdevice(const VDeviceNode *a, const VDeviceNode *b) {
  return scalar("target", a->targetKind, b->targetKind) &&
         inField("target", [&] { return attrDict(a->targetConfig, b->targetConfig); }) &&
         scalar("vdevice_id", a->vdeviceId, b->vdeviceId) &&
         scalar("memory_scope", a->memoryScope, b->memoryScope);
}

//===----------------------------------------------------------------------===//
// Symbolic expressions
//===----------------------------------------------------------------------===//

bool Comparer::optPrim(const PrimExprNode *a, const PrimExprNode *b, bool def) {
  if (!a || !b)
    return a == b || fail();
  return prim(a, b, def);
}

bool Comparer::primArray(const char *name, llvm::ArrayRef<PrimExpr> a, llvm::ArrayRef<PrimExpr> b,
                         bool def) {
  return array(name, a, b, [&](const PrimExpr &x, const PrimExpr &y) {
    return optPrim(x.get(), y.get(), def);
  });
}

bool Comparer::tirVar(const TirVarNode *a, const TirVarNode *b, bool def) {
  int m = mapped(a, b);
  if (m >= 0)
    return m == 1 || fail();
  if (!def && a != b)
    return fail();
  // A size var is its own node type in TVM.
  if (a->isSizeVar != b->isSizeVar)
    return fail();
  record(a, b);
  return true;
}

bool Comparer::prim(const PrimExprNode *a, const PrimExprNode *b, bool def) {
  if (a->getKind() != b->getKind())
    return fail();
  if (a->getKind() == NodeKind::PrimBinary &&
      llvm::cast<PrimBinaryNode>(a)->op != llvm::cast<PrimBinaryNode>(b)->op)
    return fail(); // tir.Add and tir.Mul are different node types.
  // v0.23: dtype first for every PrimExpr.
  if (!scalar("dtype", a->dtype, b->dtype))
    return false;
  switch (a->getKind()) {
  case NodeKind::IntImm:
    return scalar("value", llvm::cast<IntImmNode>(a)->value, llvm::cast<IntImmNode>(b)->value);
  case NodeKind::FloatImm:
    return floatSame(llvm::cast<FloatImmNode>(a)->value, llvm::cast<FloatImmNode>(b)->value) ||
           inField("value", [&] { return fail(); });
  case NodeKind::TirVar:
    return tirVar(llvm::cast<TirVarNode>(a), llvm::cast<TirVarNode>(b), def);
  case NodeKind::PrimBinary: {
    const auto *pa = llvm::cast<PrimBinaryNode>(a), *pb = llvm::cast<PrimBinaryNode>(b);
    return inField("a", [&] { return optPrim(pa->a.get(), pb->a.get(), def); }) &&
           inField("b", [&] { return optPrim(pa->b.get(), pb->b.get(), def); });
  }
  case NodeKind::PrimNot:
    return inField("a", [&] {
      return optPrim(llvm::cast<PrimNotNode>(a)->a.get(), llvm::cast<PrimNotNode>(b)->a.get(), def);
    });
  case NodeKind::PrimCast:
    return inField("value", [&] {
      return optPrim(llvm::cast<PrimCastNode>(a)->value.get(),
                     llvm::cast<PrimCastNode>(b)->value.get(), def);
    });
  case NodeKind::PrimSelect: {
    const auto *sa = llvm::cast<PrimSelectNode>(a), *sb = llvm::cast<PrimSelectNode>(b);
    return inField("condition", [&] { return optPrim(sa->cond.get(), sb->cond.get(), def); }) &&
           inField("true_value",
                   [&] { return optPrim(sa->trueValue.get(), sb->trueValue.get(), def); }) &&
           inField("false_value",
                   [&] { return optPrim(sa->falseValue.get(), sb->falseValue.get(), def); });
  }
  default:
    return fail();
  }
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

bool Comparer::dictAttrs(const AttrsNode *a, const AttrsNode *b) {
  // Absent and empty DictAttrs are the same map.
  static const AttrDict empty;
  return attrDict(a ? a->entries : empty, b ? b->entries : empty);
}

bool Comparer::attrDict(const AttrDict &a, const AttrDict &b) {
  // A map: every lhs key looked up on the rhs, then what only the rhs has.
  auto find = [](const AttrDict &d, llvm::StringRef key) -> const AttrValue * {
    for (const auto &[k, v] : d)
      if (k == key)
        return &v;
    return nullptr;
  };
  for (const auto &kv : a) {
    const AttrValue *other = find(b, kv.first);
    if (!other)
      return failMissingKey(/*lhsMissing=*/false, kv.first);
    if (!inKey(kv.first, [&] { return attrValue(kv.second, *other); }))
      return false;
  }
  for (const auto &[key, value] : b)
    if (!find(a, key))
      return failMissingKey(/*lhsMissing=*/true, key);
  return true;
}

bool Comparer::callAttrs(const AttrsNode *a, const AttrsNode *b) {
  // Typed op attrs compare field by field in schema order; an unknown op's
  // keyword arguments in the order written. Either way: in order.
  static const AttrDict empty;
  const AttrDict &ea = a ? a->entries : empty, &eb = b ? b->entries : empty;
  size_t n = std::min(ea.size(), eb.size());
  for (size_t i = 0; i < n; ++i) {
    if (ea[i].first != eb[i].first)
      return inKey(ea[i].first, [&] { return fail(); });
    if (!inKey(ea[i].first, [&] { return attrValue(ea[i].second, eb[i].second); }))
      return false;
  }
  if (ea.size() > n)
    return failMissingKey(/*lhsMissing=*/false, ea[n].first);
  if (eb.size() > n)
    return failMissingKey(/*lhsMissing=*/true, eb[n].first);
  return true;
}

bool Comparer::attrValue(const AttrValue &a, const AttrValue &b) {
  // The kind is part of the value: int 1, bool True and "1" all differ.
  if (a.kind() != b.kind())
    return fail();
  switch (a.kind()) {
  case AttrValue::Kind::None:
    return true;
  case AttrValue::Kind::Bool:
    return a.getBool() == b.getBool() || fail();
  case AttrValue::Kind::Int:
    return a.getInt() == b.getInt() || fail();
  case AttrValue::Kind::Float:
    return floatSame(a.getFloat(), b.getFloat()) || fail();
  case AttrValue::Kind::String:
    return a.getString() == b.getString() || fail();
  case AttrValue::Kind::DType:
    return a.getDType() == b.getDType() || fail();
  case AttrValue::Kind::Prim:
    return optPrim(a.getPrim().get(), b.getPrim().get(), false);
  case AttrValue::Kind::Array:
    return arrayHere(llvm::ArrayRef<AttrValue>(a.getArray()),
                     llvm::ArrayRef<AttrValue>(b.getArray()),
                     [&](const AttrValue &x, const AttrValue &y) { return attrValue(x, y); });
  case AttrValue::Kind::Dict:
    return attrDict(a.getDict(), b.getDict());
  case AttrValue::Kind::SInfo:
    return optSInfo(a.getSInfo(), b.getSInfo(), false);
  case AttrValue::Kind::IndexMap:
    return indexMap(a.getIndexMap(), b.getIndexMap());
  }
  return fail();
}

bool Comparer::indexMap(const IndexMapNode *a, const IndexMapNode *b) {
  // The lambda's parameters are defined by the map; its indices use them.
  std::vector<PrimExpr> ia(a->initial.begin(), a->initial.end()),
      ib(b->initial.begin(), b->initial.end());
  if (!primArray("initial_indices", ia, ib, /*def=*/true) ||
      !primArray("final_indices", a->final, b->final, /*def=*/false))
    return false;
  if (!a->inverse || !b->inverse)
    return a->inverse == b->inverse || inField("inverse_index_map", [&] { return fail(); });
  return inField("inverse_index_map", [&] { return indexMap(a->inverse.get(), b->inverse.get()); });
}

//===----------------------------------------------------------------------===//
// Report text
//===----------------------------------------------------------------------===//

void printAttrValue(llvm::raw_ostream &os, const AttrValue &v);

void printAttrDict(llvm::raw_ostream &os, const AttrDict &d) {
  os << '{';
  bool first = true;
  for (const auto &[k, v] : d) {
    if (!first)
      os << ", ";
    first = false;
    writeKey(os, k);
    os << ": ";
    printAttrValue(os, v);
  }
  os << '}';
}

void printAttrValue(llvm::raw_ostream &os, const AttrValue &v) {
  switch (v.kind()) {
  case AttrValue::Kind::None:
    os << "None";
    return;
  case AttrValue::Kind::Bool:
    os << (v.getBool() ? "True" : "False");
    return;
  case AttrValue::Kind::Int:
    os << v.getInt();
    return;
  case AttrValue::Kind::Float:
    os << v.getFloat();
    return;
  case AttrValue::Kind::String:
    writeKey(os, v.getString());
    return;
  case AttrValue::Kind::DType:
    writeKey(os, v.getDType().str());
    return;
  case AttrValue::Kind::Prim:
    if (v.getPrim())
      printPrimExpr(os, v.getPrim().get());
    return;
  case AttrValue::Kind::Array: {
    os << '[';
    bool first = true;
    for (const AttrValue &e : v.getArray()) {
      if (!first)
        os << ", ";
      first = false;
      printAttrValue(os, e);
    }
    os << ']';
    return;
  }
  case AttrValue::Kind::Dict:
    printAttrDict(os, v.getDict());
    return;
  case AttrValue::Kind::SInfo:
    os << printStructInfo(v.getSInfo());
    return;
  case AttrValue::Kind::IndexMap:
    printIndexMap(os, *v.getIndexMap(),
                  [](llvm::raw_ostream &o, const TirVarNode *var) { o << var->name; });
    return;
  }
}

/// `name: sinfo = value` (or the match_cast form), one line.
void printBinding(llvm::raw_ostream &os, const BindingNode &b) {
  os << (b.var ? printExpr(b.var.get()) : std::string("_"));
  if (b.var && b.var->sinfo)
    os << ": " << printStructInfo(b.var->sinfo.get());
  os << " = ";
  const auto *mc = llvm::dyn_cast<MatchCastNode>(&b);
  if (mc)
    os << "R.match_cast(";
  os << (b.value ? printExpr(b.value.get()) : std::string("None"));
  if (mc)
    os << ", " << (mc->castSInfo ? printStructInfo(mc->castSInfo.get()) : std::string()) << ')';
  os << '\n';
}

/// The printer prints PrimFuncs only inside a module: print a module that
/// holds just this one, then drop the class lines and dedent.
void printPrimFuncAlone(llvm::raw_ostream &os, const ModuleEntry &entry) {
  IRModule single;
  single.add(entry.gvar, entry.func);
  PrintOptions opts;
  opts.header = false;
  std::string text = printModule(single, opts);
  llvm::StringRef rest(text);
  if (!rest.startswith("@I.ir_module")) {
    os << text;
    return;
  }
  rest = rest.split('\n').second.split('\n').second; // decorator, class line
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    if (line.trim().empty())
      continue;
    line.consume_front("    ");
    os << line << '\n';
  }
}

/// The text printed for one side: the enclosing binding, else the enclosing
/// function, else the module's attributes.
std::string sideText(const Context &ctx, const IRModule *module, bool moduleLevelMissing) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (ctx.binding) {
    printBinding(os, *ctx.binding);
  } else if (ctx.entry) {
    llvm::StringRef name = ctx.entry->gvar->name;
    if (const FunctionNode *fn = ctx.entry->asFunction()) {
      PrintOptions opts;
      opts.header = false;
      printFunction(os, *fn, name, module, opts);
    } else if (ctx.entry->asPrimFunc()) {
      printPrimFuncAlone(os, *ctx.entry);
    } else if (const ExternFuncNode *ef = ctx.entry->asExtern()) {
      os << name << " = " << printExpr(ef) << '\n';
    }
  } else if (moduleLevelMissing) {
    os << "<missing>\n";
  } else if (module) {
    os << "module " << module->name << ": attrs = ";
    printAttrDict(os, module->attrs ? module->attrs->entries : AttrDict());
    os << '\n';
  }
  return out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::string Mismatch::report() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "StructuralEqual check failed, caused by lhs at " << (lhsPath.empty() ? "<root>" : lhsPath)
     << ":\n"
     << lhsText;
  if (!lhsText.empty() && lhsText.back() != '\n')
    os << '\n';
  os << "and rhs at " << (rhsPath.empty() ? "<root>" : rhsPath) << ":\n" << rhsText;
  if (!rhsText.empty() && rhsText.back() != '\n')
    os << '\n';
  return out;
}

bool graft::structuralEqual(const IRModule &a, const IRModule &b) {
  Comparer c;
  return c.compareModule(a, b);
}

llvm::Optional<Mismatch> graft::firstMismatch(const IRModule &a, const IRModule &b) {
  Comparer c;
  if (c.compareModule(a, b))
    return llvm::None;
  Mismatch m;
  m.lhsPath = std::move(c.lhsPath);
  m.rhsPath = std::move(c.rhsPath);
  // A function present on one side only: the other side prints <missing>.
  bool inFunctions = llvm::StringRef(m.lhsPath).startswith("functions");
  m.lhsText = sideText(c.lhsCtx, &a, inFunctions);
  m.rhsText = sideText(c.rhsCtx, &b, inFunctions);
  return m;
}

bool graft::structuralEqual(const Node *a, const Node *b, bool mapFreeVars) {
  Comparer c;
  return c.compareNode(a, b, mapFreeVars);
}
