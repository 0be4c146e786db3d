//===- analysis/WellFormedCallTIR.cpp - call_tir against its PrimFunc -------===//
//
// Mirrors TVM's call_tir validation: the PrimFunc's parameters split into
// inputs (the argument tuple), outputs, and trailing scalars (tir_vars).
// Inputs are matched against the arguments' struct info, binding the
// PrimFunc's bare symbolic dims to the caller's values at their first
// occurrence; a static mismatch (ndim, dtype, provably different dims) is an
// error, an unprovable symbolic one is not. Outputs are the PrimFunc's
// output buffers with those bindings substituted, and out_sinfo must match
// them exactly (TVM's IsBaseOf(inferred, out_sinfo)).
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormedCallTIR.h"

#include "ir/Printer.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;

namespace {

enum class DimMatch { Equal, Unknown, Differ };

std::string shapeText(llvm::ArrayRef<PrimExpr> dims) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '(';
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      os << ", ";
    printPrimExpr(os, dims[i].get());
  }
  if (dims.size() == 1)
    os << ',';
  os << ')';
  return out;
}

bool sameDims(llvm::ArrayRef<PrimExpr> a, llvm::ArrayRef<PrimExpr> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].get() != b[i].get())
      return false;
  return true;
}

std::string sinfoText(const StructInfoNode *s) {
  return s ? printStructInfo(s) : std::string("a value without struct info");
}

std::string dtypeText(DataType dt) { return dt.isVoid() ? "unknown dtype" : "dtype " + dt.str(); }

/// Whether every TirVar of `e` satisfies `pred`.
template <typename Pred> bool allTirVars(const PrimExprNode *e, Pred pred) {
  bool ok = true;
  forEachTirVar(e, [&](const TirVarNode *v) { ok = ok && pred(v); });
  return ok;
}

/// The PrimFunc's symbolic dims bound to the caller's values.
class Unifier {
public:
  /// Compares a parameter dim with an argument dim; a bare parameter var met
  /// for the first time is bound instead.
  DimMatch matchInputDim(const PrimExpr &param, const PrimExpr &arg) {
    if (const auto *v = llvm::dyn_cast<TirVarNode>(param.get())) {
      auto [it, inserted] = map_.try_emplace(v, arg);
      if (inserted)
        return DimMatch::Equal;
      return compare(it->second, arg);
    }
    PrimExpr sub = substitute(param);
    return sub ? compare(sub, arg) : DimMatch::Unknown;
  }

  /// The parameter dim in the caller's terms; null when it mentions a var
  /// no input bound (TVM then erases the whole shape).
  PrimExpr substitute(const PrimExpr &param) const {
    if (!allTirVars(param.get(), [&](const TirVarNode *v) { return map_.count(v) != 0; }))
      return nullptr;
    if (map_.empty() || llvm::isa<IntImmNode>(param.get()))
      return param;
    return substitutePrim(param, map_);
  }

  static DimMatch compare(const PrimExpr &a, const PrimExpr &b) {
    llvm::Optional<int64_t> ca = asConstInt(a.get()), cb = asConstInt(b.get());
    if (ca && cb)
      return *ca == *cb ? DimMatch::Equal : DimMatch::Differ;
    if (a.get() == b.get() || proveEqual(a, b))
      return DimMatch::Equal;
    if (proveNotEqual(a, b))
      return DimMatch::Differ;
    return DimMatch::Unknown;
  }

private:
  TirVarMap map_;
};

/// Everything one check needs to word its messages.
struct CallTIRCheck {
  const CallNode &call;
  const PrimFuncNode &prim;
  std::string opName;   ///< "call_tir", "call_tir_inplace", ...
  std::string primName; ///< The GlobalVar's name.
  Unifier unifier;

  std::string expects() const { return " but PrimFunc '" + primName + "' expects "; }

  std::string checkInput(size_t i, const PrimParam &param, const StructInfoNode *arg);
  std::string checkTrailing(size_t j, const PrimParam &param, const PrimExpr &value);
  std::string checkOutput(size_t k, const PrimParam &param, const StructInfoNode *out);
  std::string run(const IRModule &module);
};

std::string CallTIRCheck::checkInput(size_t i, const PrimParam &param, const StructInfoNode *arg) {
  std::string what = opName + " argument " + std::to_string(i);
  switch (param.kind) {
  case PrimParam::Kind::Handle:
    return ""; // A DLTensor handle accepts any value.
  case PrimParam::Kind::Scalar: {
    const auto *prim = llvm::dyn_cast_or_null<PrimSInfoNode>(arg);
    if (!prim)
      return what + " is " + sinfoText(arg) + expects() + "a " + param.dtype.str() + " scalar";
    if (prim->dtype != param.dtype)
      return what + " has " + dtypeText(prim->dtype) + expects() + param.dtype.str();
    return "";
  }
  case PrimParam::Kind::Buffer:
    break;
  }
  const auto *tensor = llvm::dyn_cast_or_null<TensorSInfoNode>(arg);
  if (!tensor)
    return what + " is " + sinfoText(arg) + expects() + "a tensor";
  int ndim = static_cast<int>(param.shape.size());
  if (tensor->ndim != ndim)
    return what + " has " +
           (tensor->ndim < 0 ? std::string("unknown ndim")
                             : "ndim " + std::to_string(tensor->ndim)) +
           expects() + "ndim " + std::to_string(ndim);
  if (tensor->dtype != param.dtype)
    return what + " has " + dtypeText(tensor->dtype) + expects() + param.dtype.str();
  const std::vector<PrimExpr> *dims = tensor->shapeValues();
  if (!dims) {
    if (!tensor->shape)
      return "";
    const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(tensor->shape->sinfo.get());
    if (!ss || !ss->values)
      return "";
    dims = &*ss->values;
  }
  for (size_t d = 0; d < dims->size() && d < param.shape.size(); ++d)
    if (unifier.matchInputDim(param.shape[d], (*dims)[d]) == DimMatch::Differ)
      return what + " has shape " + shapeText(*dims) + expects() + shapeText(param.shape);
  return "";
}

std::string CallTIRCheck::checkTrailing(size_t j, const PrimParam &param, const PrimExpr &value) {
  std::string what = opName + " tir_vars[" + std::to_string(j) + "]";
  if (param.kind != PrimParam::Kind::Scalar)
    return what + " is a scalar but PrimFunc '" + primName + "' parameter '" + param.name +
           "' is not";
  DataType dt = value ? value->dtype : DataType::int64();
  if (dt != param.dtype)
    return what + " has dtype " + dt.str() + expects() + param.dtype.str();
  return "";
}

std::string CallTIRCheck::checkOutput(size_t k, const PrimParam &param, const StructInfoNode *out) {
  std::string what = opName + " output " + std::to_string(k);
  if (param.kind != PrimParam::Kind::Buffer)
    return ""; // TVM's expectation is then Object or Prim; nothing to compare.
  const auto *tensor = llvm::dyn_cast_or_null<TensorSInfoNode>(out);
  if (!tensor)
    return what + " is " + sinfoText(out) + expects() + "a tensor";
  int ndim = static_cast<int>(param.shape.size());
  if (tensor->ndim != ndim)
    return what + " has " +
           (tensor->ndim < 0 ? std::string("unknown ndim")
                             : "ndim " + std::to_string(tensor->ndim)) +
           expects() + "ndim " + std::to_string(ndim);
  if (tensor->dtype != param.dtype)
    return what + " has " + dtypeText(tensor->dtype) + expects() + param.dtype.str();
  llvm::SmallVector<PrimExpr, 4> expected;
  for (const PrimExpr &d : param.shape) {
    PrimExpr sub = unifier.substitute(d);
    if (!sub)
      return ""; // Erased: only ndim and dtype are known.
    expected.push_back(std::move(sub));
  }
  const std::vector<PrimExpr> *dims = tensor->shapeValues();
  if (!dims)
    return what + " has no static shape" + expects() + shapeText(param.shape);
  for (size_t d = 0; d < dims->size(); ++d)
    if (Unifier::compare(expected[d], (*dims)[d]) != DimMatch::Equal)
      return what + " has shape " + shapeText(*dims) + expects() + shapeText(param.shape) +
             (sameDims(expected, param.shape) ? "" : ", that is " + shapeText(expected));
  return "";
}

/// The inplace_indices attribute of call_tir_inplace; empty for the others.
llvm::SmallVector<int64_t, 4> inplaceIndices(const CallNode &call) {
  llvm::SmallVector<int64_t, 4> out;
  const AttrValue *v = call.attrs ? call.attrs->lookup("inplace_indices") : nullptr;
  if (!v)
    return out;
  if (v->kind() == AttrValue::Kind::Int)
    out.push_back(v->getInt());
  else if (v->kind() == AttrValue::Kind::Array)
    for (const AttrValue &e : v->getArray())
      if (e.kind() == AttrValue::Kind::Int)
        out.push_back(e.getInt());
  return out;
}

std::string CallTIRCheck::run(const IRModule &module) {
  // Inputs: the tuple written inline, or (not normalized) a tuple-typed expr.
  llvm::SmallVector<const StructInfoNode *, 8> inputs;
  const ExprNode *argTuple = call.args[1].get();
  if (const auto *t = llvm::dyn_cast<TupleNode>(argTuple)) {
    for (const Expr &f : t->fields)
      inputs.push_back(f ? f->sinfo.get() : nullptr);
  } else if (const auto *ts = llvm::dyn_cast_or_null<TupleSInfoNode>(argTuple->sinfo.get())) {
    for (const StructInfo &f : ts->fields)
      inputs.push_back(f.get());
  } else {
    return opName + " expects a tuple of arguments, got " + sinfoText(argTuple->sinfo.get());
  }

  // Trailing scalars: the tir_vars shape.
  size_t numTrailing = 0;
  const std::vector<PrimExpr> *trailing = nullptr;
  if (call.args.size() > 2 && call.args[2]) {
    const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(call.args[2]->sinfo.get());
    if (!ss || ss->ndim < 0)
      return opName + " tir_vars must be a shape with known ndim, got " +
             sinfoText(call.args[2]->sinfo.get());
    numTrailing = static_cast<size_t>(ss->ndim);
    if (ss->values)
      trailing = &*ss->values;
  }

  size_t numParams = prim.params.size();
  if (inputs.size() + numTrailing > numParams)
    return opName + " passes " + std::to_string(inputs.size()) + " arguments and " +
           std::to_string(numTrailing) + " tir_vars but PrimFunc '" + primName + "' takes " +
           std::to_string(numParams) + " parameters";

  for (size_t i = 0; i < inputs.size(); ++i)
    if (std::string err = checkInput(i, prim.params[i], inputs[i]); !err.empty())
      return err;
  for (size_t j = 0; j < numTrailing; ++j) {
    PrimExpr value = trailing ? (*trailing)[j] : PrimExpr();
    if (std::string err = checkTrailing(j, prim.params[numParams - numTrailing + j], value);
        !err.empty())
      return err;
  }

  // Expected outputs: the buffers between inputs and trailing scalars, with
  // the in-place inputs inserted where inplace_indices puts them.
  llvm::SmallVector<const PrimParam *, 4> outs;
  for (size_t p = inputs.size(); p < numParams - numTrailing; ++p)
    outs.push_back(&prim.params[p]);
  llvm::SmallVector<int64_t, 4> inplace = inplaceIndices(call);
  for (size_t k = 0; k < inplace.size(); ++k) {
    int64_t idx = inplace[k];
    if (idx < 0)
      continue;
    if (static_cast<size_t>(idx) >= inputs.size())
      return opName + " inplace_indices[" + std::to_string(k) + "] = " + std::to_string(idx) +
             " is out of range for " + std::to_string(inputs.size()) + " arguments";
    outs.insert(outs.begin() + std::min(k, outs.size()), &prim.params[idx]);
  }

  if (call.sinfoArgs.empty() || !call.sinfoArgs[0])
    return opName + " has no out_sinfo";
  const StructInfoNode *outSInfo = call.sinfoArgs[0].get();
  llvm::SmallVector<const StructInfoNode *, 4> actual;
  const auto *outTuple = llvm::dyn_cast<TupleSInfoNode>(outSInfo);
  if (outTuple && outs.size() != 1) {
    for (const StructInfo &f : outTuple->fields)
      actual.push_back(f.get());
  } else {
    actual.push_back(outSInfo);
  }
  if (actual.size() != outs.size() || (outTuple && outs.size() == 1))
    return opName + " out_sinfo has " + std::to_string(outTuple ? outTuple->fields.size() : 1) +
           " outputs but PrimFunc '" + primName + "' has " + std::to_string(outs.size());
  for (size_t k = 0; k < outs.size(); ++k)
    if (std::string err = checkOutput(k, *outs[k], actual[k]); !err.empty())
      return err;
  (void)module;
  return "";
}

} // namespace

bool graft::isCallTIRFamily(const OpInfo *info) {
  return info && (info == ops::callTIR()->info || info == ops::callTIRInplace()->info ||
                  info == ops::callTIRWithGrad()->info);
}

std::string graft::checkCallTIR(const CallNode &call, const IRModule &module) {
  const OpInfo *info = call.opInfo();
  std::string opName = info ? info->scriptName().str() : "call_tir";
  if (call.args.size() < 2 || !call.args[0] || !call.args[1])
    return opName + " expects a PrimFunc and a tuple of arguments";
  const auto *gv = llvm::dyn_cast<GlobalVarNode>(call.args[0].get());
  if (!gv)
    return "";
  const ModuleEntry *entry = module.lookup(gv->name);
  const PrimFuncNode *prim = entry ? entry->asPrimFunc() : nullptr;
  if (!prim)
    return "";
  CallTIRCheck check{call, *prim, opName, gv->name, {}};
  return check.run(module);
}
