//===- ir/PrintStructInfo.cpp - Struct info and PrimExprs -------------------===//
//
// Struct info prints in the forms of TVM's printer: `R.Tensor((n, 4),
// dtype="float32", vdevice="cuda:0:global")`, `R.Tensor(dtype=..., ndim=k)`,
// bare `R.Tensor`, `R.Shape([..])`/`R.Shape(ndim=k)`, `R.Prim("dt")`/
// `R.Prim(value=e)`, `R.Tuple`/`R.Tuple(a, b)`, `R.Object`,
// `R.Callable((p,), ret, purity)`.
//
// Inside the outermost signature a PrimExpr holding a symbolic var prints as
// a string (`R.Tensor(("n", 4))`), which is how the parser learns the vars a
// signature defines; everywhere else vars print as identifiers.
//
//===----------------------------------------------------------------------===//

#include "ir/PrintImpl.h"

#include "llvm/ADT/SmallString.h"

using namespace graft;
using namespace graft::printer;

void ScriptPrinter::noteTirVar(const TirVarNode *v) {
  auto [it, inserted] =
      tirVars_.try_emplace(v, inSignature_ ? TirState::Signature : TirState::Declared);
  if (inserted && it->second == TirState::Declared)
    preamble_.push_back(v);
}

void ScriptPrinter::printTirVar(llvm::raw_ostream &os, const TirVarNode *v) {
  os << declareTirVar(v);
}

namespace {
bool hasTirVar(const PrimExprNode *e) {
  bool found = false;
  forEachTirVar(e, [&](const TirVarNode *) { found = true; });
  return found;
}
} // namespace

void ScriptPrinter::printPrim(llvm::raw_ostream &os, const PrimExprNode *e) {
  auto printVar = [this](llvm::raw_ostream &o, const TirVarNode *v) { printTirVar(o, v); };
  if (!e) {
    os << "None";
    return;
  }
  if (!inSignature_ || !hasTirVar(e)) {
    // A lone `True` reads back as int64 1 (Python's bool is an int), so a
    // bool literal says its type.
    const auto *imm = llvm::dyn_cast<IntImmNode>(e);
    if (imm && imm->dtype.isBool()) {
      os << (imm->value ? "T.bool(True)" : "T.bool(False)");
      return;
    }
    printPrimExpr(os, e, printVar);
    return;
  }
  // A string inside a string: the PrimExpr's own quotes (T.Cast("int32", n))
  // become single quotes.
  llvm::SmallString<32> text;
  llvm::raw_svector_ostream tos(text);
  printPrimExpr(tos, e, printVar);
  os << '"';
  for (char c : text)
    os << (c == '"' ? '\'' : c);
  os << '"';
}

void ScriptPrinter::printDim(llvm::raw_ostream &os, const PrimExprNode *e) { printPrim(os, e); }

void ScriptPrinter::printVDevice(llvm::raw_ostream &os, const VDeviceNode &vd) {
  // "kind:idx:scope", idx counted among the module's vdevices of that kind.
  int index = -1;
  if (module_) {
    int sameKind = 0;
    int structural = -1;
    for (const VDevice &d : module_->vdevices()) {
      if (d->targetKind != vd.targetKind)
        continue;
      if (d.get() == &vd) {
        index = sameKind;
        break;
      }
      if (structural < 0 && d->vdeviceId == vd.vdeviceId && d->memoryScope == vd.memoryScope)
        structural = sameKind;
      ++sameKind;
    }
    if (index < 0)
      index = structural;
  }
  if (index < 0)
    index = static_cast<int>(vd.vdeviceId);
  os << '"' << vd.targetKind << ':' << index << ':' << vd.memoryScope << '"';
}

void ScriptPrinter::printTensorSInfo(llvm::raw_ostream &os, const TensorSInfoNode &t) {
  const std::vector<PrimExpr> *dims = t.shapeValues();
  bool showNDim = !t.shape && t.ndim != -1;
  os << "R.Tensor";
  if (!t.shape && t.dtype.isVoid() && !showNDim && !t.vdevice)
    return; // Nothing known: bare R.Tensor.
  os << '(';
  bool any = false;
  auto sep = [&] {
    if (any)
      os << ", ";
    any = true;
  };
  if (dims) {
    sep();
    os << '(';
    for (size_t i = 0; i < dims->size(); ++i) {
      if (i)
        os << ", ";
      printDim(os, (*dims)[i].get());
    }
    os << (dims->size() == 1 ? ",)" : ")");
  } else if (t.shape) {
    sep();
    printExpr(os, t.shape.get());
  }
  if (!t.dtype.isVoid()) {
    sep();
    os << "dtype=\"";
    printDType(os, t.dtype);
    os << '"';
  }
  if (showNDim) {
    sep();
    os << "ndim=" << t.ndim;
  }
  if (t.vdevice) {
    sep();
    os << "vdevice=";
    printVDevice(os, *t.vdevice);
  }
  os << ')';
}

void graft::printer::printDeviceMesh(llvm::raw_ostream &os, const DeviceMeshNode &mesh,
                                     llvm::StringRef rangePrefix) {
  os << "R.device_mesh((";
  for (size_t i = 0; i < mesh.shape.size(); ++i)
    os << (i ? ", " : "") << mesh.shape[i];
  os << (mesh.shape.size() == 1 ? ",), " : "), ");
  if (mesh.range) {
    os << rangePrefix << "Range(" << mesh.range->first << ", " << mesh.range->second << "))";
    return;
  }
  os << '[';
  for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
    os << (i ? ", " : "") << mesh.deviceIds[i];
  os << "])";
}

void ScriptPrinter::printMeshRef(llvm::raw_ostream &os, const DeviceMeshNode *mesh) {
  if (!mesh) {
    os << "None";
    return;
  }
  // As TVM, by identity: a mesh written inline stays inline.
  if (module_)
    for (const auto &[key, infos] : module_->globalInfos)
      for (size_t i = 0; i < infos.size(); ++i)
        if (infos[i].get() == mesh) {
          os << '"' << key << '[' << i << "]\"";
          return;
        }
  printDeviceMesh(os, *mesh, "R.");
}

void ScriptPrinter::printDTensorSInfo(llvm::raw_ostream &os, const DTensorSInfoNode &d) {
  // TVM's form: positional while shape and dtype are known, keywords after.
  const TensorSInfoNode &t = *d.tensor;
  bool kw = false;
  os << "R.DTensor(";
  if (const std::vector<PrimExpr> *dims = t.shapeValues()) {
    os << '(';
    for (size_t i = 0; i < dims->size(); ++i) {
      if (i)
        os << ", ";
      printDim(os, (*dims)[i].get());
    }
    os << (dims->size() == 1 ? ",)" : ")");
  } else if (t.shape) {
    printExpr(os, t.shape.get());
  } else {
    kw = true;
  }
  bool first = kw;
  auto field = [&](const char *name) {
    if (!first)
      os << ", ";
    first = false;
    if (kw)
      os << name << '=';
  };
  if (!t.dtype.isVoid()) {
    field("dtype");
    os << '"';
    printDType(os, t.dtype);
    os << '"';
  } else {
    kw = true;
  }
  field("device_mesh");
  printMeshRef(os, d.mesh.get());
  field("placement");
  os << '"' << placementText(d.placement) << '"';
  if (!t.shape && t.ndim != -1) {
    field("ndim");
    os << t.ndim;
  }
  os << ')';
}

void ScriptPrinter::printFuncSInfo(llvm::raw_ostream &os, const FuncSInfoNode &f) {
  const StructInfoNode *ret = f.ret.get();
  bool retIsObject = !ret || llvm::isa<ObjectSInfoNode>(ret);
  if (f.params) {
    os << "R.Callable((";
    for (size_t i = 0; i < f.params->size(); ++i) {
      if (i)
        os << ", ";
      printSInfo(os, (*f.params)[i].get());
    }
    os << (f.params->size() == 1 ? ",), " : "), ");
    printSInfo(os, ret);
    os << ", " << (f.purity ? "True" : "False");
    if (!f.deriveFunc.empty()) {
      os << ", derive_func=";
      printQuoted(os, f.deriveFunc);
    }
    os << ')';
    return;
  }
  // Opaque: bare R.Callable is impure and returns Object.
  if (retIsObject && !f.purity && f.deriveFunc.empty()) {
    os << "R.Callable";
    return;
  }
  os << "R.Callable(";
  bool any = false;
  if (!retIsObject) {
    os << "ret=";
    printSInfo(os, ret);
    any = true;
  }
  if (f.purity) {
    os << (any ? ", " : "") << "purity=True";
    any = true;
  }
  if (!f.deriveFunc.empty()) {
    os << (any ? ", " : "") << "derive_func=";
    printQuoted(os, f.deriveFunc);
  }
  os << ')';
}

void ScriptPrinter::printSInfo(llvm::raw_ostream &os, const StructInfoNode *s) {
  if (!s) {
    os << "R.Object";
    return;
  }
  switch (s->getKind()) {
  case NodeKind::ObjectSInfo:
    os << "R.Object";
    return;
  case NodeKind::PrimSInfo: {
    const auto *p = llvm::cast<PrimSInfoNode>(s);
    if (p->value) {
      os << "R.Prim(value=";
      printPrim(os, p->value.get());
      os << ')';
    } else {
      os << "R.Prim(\"" << dtypeSpelling(p->dtype) << "\")";
    }
    return;
  }
  case NodeKind::ShapeSInfo: {
    const auto *sh = llvm::cast<ShapeSInfoNode>(s);
    if (!sh->values) {
      os << "R.Shape(ndim=" << sh->ndim << ')';
      return;
    }
    os << "R.Shape([";
    for (size_t i = 0; i < sh->values->size(); ++i) {
      if (i)
        os << ", ";
      printDim(os, (*sh->values)[i].get());
    }
    os << "])";
    return;
  }
  case NodeKind::TensorSInfo:
    printTensorSInfo(os, *llvm::cast<TensorSInfoNode>(s));
    return;
  case NodeKind::TupleSInfo: {
    const auto *t = llvm::cast<TupleSInfoNode>(s);
    os << "R.Tuple";
    if (t->fields.empty())
      return;
    os << '(';
    for (size_t i = 0; i < t->fields.size(); ++i) {
      if (i)
        os << ", ";
      printSInfo(os, t->fields[i].get());
    }
    os << ')';
    return;
  }
  case NodeKind::FuncSInfo:
    printFuncSInfo(os, *llvm::cast<FuncSInfoNode>(s));
    return;
  case NodeKind::DTensorSInfo:
    printDTensorSInfo(os, *llvm::cast<DTensorSInfoNode>(s));
    return;
  default:
    os << "R.Object";
    return;
  }
}

//===----------------------------------------------------------------------===//
// Identity comparison (for the hidden call_tir annotation)
//===----------------------------------------------------------------------===//

namespace {

bool samePrims(const std::vector<PrimExpr> &a, const std::vector<PrimExpr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!primExprBitIdentical(a[i].get(), b[i].get()))
      return false;
  return true;
}

} // namespace

bool ScriptPrinter::sameSInfo(const StructInfoNode *a, const StructInfoNode *b) {
  if (a == b)
    return true;
  if (!a || !b || a->getKind() != b->getKind())
    return false;
  switch (a->getKind()) {
  case NodeKind::ObjectSInfo:
    return true;
  case NodeKind::PrimSInfo: {
    const auto *x = llvm::cast<PrimSInfoNode>(a);
    const auto *y = llvm::cast<PrimSInfoNode>(b);
    return x->dtype == y->dtype && primExprBitIdentical(x->value.get(), y->value.get());
  }
  case NodeKind::ShapeSInfo: {
    const auto *x = llvm::cast<ShapeSInfoNode>(a);
    const auto *y = llvm::cast<ShapeSInfoNode>(b);
    if (x->ndim != y->ndim || x->values.hasValue() != y->values.hasValue())
      return false;
    return !x->values || samePrims(*x->values, *y->values);
  }
  case NodeKind::TensorSInfo: {
    const auto *x = llvm::cast<TensorSInfoNode>(a);
    const auto *y = llvm::cast<TensorSInfoNode>(b);
    if (x->dtype != y->dtype || x->ndim != y->ndim || x->vdevice != y->vdevice)
      return false;
    const auto *xv = x->shapeValues();
    const auto *yv = y->shapeValues();
    if (xv || yv)
      return xv && yv && samePrims(*xv, *yv);
    return x->shape.get() == y->shape.get();
  }
  case NodeKind::TupleSInfo: {
    const auto *x = llvm::cast<TupleSInfoNode>(a);
    const auto *y = llvm::cast<TupleSInfoNode>(b);
    if (x->fields.size() != y->fields.size())
      return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!sameSInfo(x->fields[i].get(), y->fields[i].get()))
        return false;
    return true;
  }
  case NodeKind::DTensorSInfo: {
    const auto *x = llvm::cast<DTensorSInfoNode>(a);
    const auto *y = llvm::cast<DTensorSInfoNode>(b);
    return x->mesh == y->mesh && x->placement == y->placement &&
           sameSInfo(x->tensor.get(), y->tensor.get());
  }
  default:
    return false; // Callables never annotate call_tir outputs.
  }
}
