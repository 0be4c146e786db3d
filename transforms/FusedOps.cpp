//===- transforms/FusedOps.cpp - How an op call is written in a fused kernel ===//

#include "transforms/FusedOps.h"

#include "ir/Op.h"
#include "ir/StructInfo.h"
#include "ir/StructuralEqual.h"
#include "ir/ops/OpHandles.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace graft;
using namespace graft::opdef;

namespace {

const TensorSInfoNode *knownTensor(const StructInfoNode *s) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s);
  return t && !t->dtype.isVoid() && t->ndim >= 0 ? t : nullptr;
}

/// A tensor operand the program can read: a var or a constant of known
/// dtype and rank.
bool isOperand(const ExprNode *e) {
  return llvm::isa<VarNode, ConstantNode>(e) && knownTensor(e->sinfo.get());
}

std::string joinInts(llvm::ArrayRef<int64_t> values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

llvm::Optional<int64_t> constInt(const PrimExpr &e) {
  if (const auto *i = llvm::dyn_cast_or_null<IntImmNode>(e.get()))
    return i->value;
  return llvm::None;
}

/// A PrimValue argument holding a constant number.
llvm::Optional<double> constNumber(const Expr &arg) {
  const auto *pv = llvm::dyn_cast<PrimValueNode>(arg.get());
  if (!pv)
    return llvm::None;
  if (const auto *i = llvm::dyn_cast_or_null<IntImmNode>(pv->value.get()))
    return double(i->value);
  if (const auto *f = llvm::dyn_cast_or_null<FloatImmNode>(pv->value.get()))
    return f->value;
  return llvm::None;
}

/// Argument `i` as a tuple of constant integers (strided_slice's axes,
/// begin, end and strides).
llvm::Optional<llvm::SmallVector<int64_t, 4>> constIntTuple(const CallNode &call, unsigned i) {
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(call.args[i]->sinfo.get());
  if (!tuple)
    return llvm::None;
  llvm::SmallVector<int64_t, 4> out;
  for (const StructInfo &f : tuple->fields) {
    const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(f.get());
    llvm::Optional<int64_t> v = p ? constInt(p->value) : llvm::None;
    if (!v)
      return llvm::None;
    out.push_back(*v);
  }
  return out;
}

/// Axes normalized into [0, rank); None when one is out of range.
llvm::Optional<llvm::SmallVector<int64_t, 4>> normalized(llvm::ArrayRef<int64_t> axes,
                                                         int64_t rank) {
  llvm::SmallVector<int64_t, 4> out;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      return llvm::None;
    out.push_back(a < 0 ? a + rank : a);
  }
  return out;
}

/// The target shape of reshape or broadcast_to from the result's struct
/// info: constants, dims of the data operand, and (reshape) one dim
/// inferred from the element count.
bool targetShape(const TensorSInfoNode &result, const TensorSInfoNode &data, bool allowInfer,
                 FusedOpForm &form) {
  const std::vector<PrimExpr> *dims = result.shapeValues();
  if (!dims)
    return false;
  const std::vector<PrimExpr> *from = data.shapeValues();
  bool inferred = false;
  for (const PrimExpr &d : *dims) {
    if (llvm::Optional<int64_t> v = constInt(d)) {
      form.shape.push_back({FusedDim::Fixed, *v});
      continue;
    }
    int64_t at = -1;
    for (size_t k = 0; from && k < from->size() && at < 0; ++k)
      if (structuralEqual((*from)[k].get(), d.get()))
        at = int64_t(k);
    if (at >= 0) {
      form.shape.push_back({FusedDim::OperandDim, at});
      continue;
    }
    if (!allowInfer || inferred)
      return false;
    inferred = true;
    form.shape.push_back({FusedDim::Infer, 0});
  }
  form.hasShape = true;
  return true;
}

/// The attributes of an injective op; false when they are not constants
/// the program can state.
bool injectiveForm(const CallNode &call, const TensorSInfoNode &result, const TensorSInfoNode &data,
                   FusedOpForm &form) {
  int64_t rank = data.ndim;
  form.injective = true;
  if (isCallTo(call, ops::permuteDims())) {
    auto axes = optIntListAttr(call, "axes");
    if (!axes) {
      llvm::consumeError(axes.takeError());
      return false;
    }
    llvm::SmallVector<int64_t, 4> list;
    if (*axes)
      list = **axes;
    else
      for (int64_t d = rank - 1; d >= 0; --d)
        list.push_back(d);
    auto norm = normalized(list, rank);
    if (!norm || int64_t(norm->size()) != rank)
      return false;
    form.attrs.push_back({"axes", joinInts(*norm)});
    return true;
  }
  if (isCallTo(call, ops::reshape()))
    return targetShape(result, data, /*allowInfer=*/true, form);
  if (isCallTo(call, ops::flatten())) {
    form.op = "reshape";
    form.shape.push_back({FusedDim::Infer, 0});
    form.hasShape = true;
    return result.ndim == 1;
  }
  if (isCallTo(call, ops::broadcastTo()))
    return targetShape(result, data, /*allowInfer=*/false, form);
  bool expand = isCallTo(call, ops::expandDims());
  if (expand || isCallTo(call, ops::squeeze())) {
    auto axes = optIntListAttr(call, "axis");
    if (!axes) {
      llvm::consumeError(axes.takeError());
      return false;
    }
    llvm::SmallVector<int64_t, 4> list;
    if (*axes) {
      auto norm = normalized(**axes, expand ? result.ndim : rank);
      if (!norm)
        return false;
      list = *norm;
    } else if (!expand) { // squeeze: every dim of extent 1, known statically.
      const std::vector<PrimExpr> *dims = data.shapeValues();
      for (int64_t d = 0; dims && d < rank; ++d)
        if (constInt((*dims)[d]) == llvm::Optional<int64_t>(1))
          list.push_back(d);
    } else {
      return false;
    }
    llvm::sort(list);
    if (std::adjacent_find(list.begin(), list.end()) != list.end())
      return false;
    // squeeze keeps a listed dim that is not 1: the rank must tell.
    int64_t want = expand ? rank + int64_t(list.size()) : rank - int64_t(list.size());
    if (result.ndim != want)
      return false;
    form.attrs.push_back({"axes", joinInts(list)});
    return true;
  }
  if (isCallTo(call, ops::stridedSlice())) {
    auto axes = constIntTuple(call, 1), begin = constIntTuple(call, 2),
         end = constIntTuple(call, 3);
    llvm::Optional<llvm::SmallVector<int64_t, 4>> strides;
    if (call.args.size() > 4)
      strides = constIntTuple(call, 4);
    else if (axes)
      strides = llvm::SmallVector<int64_t, 4>(axes->size(), 1);
    if (!axes || !begin || !end || !strides)
      return false;
    auto norm = normalized(*axes, rank);
    if (!norm || begin->size() != norm->size() || end->size() != norm->size() ||
        strides->size() != norm->size() || llvm::is_contained(*strides, 0))
      return false;
    llvm::SmallVector<int64_t, 4> sorted(*norm);
    llvm::sort(sorted);
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return false;
    form.attrs.push_back({"axes", joinInts(*norm)});
    form.attrs.push_back({"begin", joinInts(*begin)});
    form.attrs.push_back({"end", joinInts(*end)});
    form.attrs.push_back({"strides", joinInts(*strides)});
    return true;
  }
  if (isCallTo(call, ops::take())) {
    auto axis = optIntAttr(call, "axis");
    auto mode = stringAttr(call, "mode");
    if (!axis || !mode) {
      llvm::consumeError(axis.takeError());
      llvm::consumeError(mode.takeError());
      return false;
    }
    const TensorSInfoNode *idx = knownTensor(call.args[1]->sinfo.get());
    if (!*axis || !idx || !idx->dtype.isInt() ||
        (*mode != "fast" && *mode != "wrap" && *mode != "clip"))
      return false;
    auto norm = normalized(llvm::ArrayRef<int64_t>(**axis), rank);
    if (!norm)
      return false;
    form.attrs.push_back({"axis", std::to_string((*norm)[0])});
    form.attrs.push_back({"mode", *mode});
    return true;
  }
  if (isCallTo(call, ops::concat())) {
    auto axis = optIntAttr(call, "axis");
    if (!axis) {
      llvm::consumeError(axis.takeError());
      return false;
    }
    auto norm = *axis ? normalized(llvm::ArrayRef<int64_t>(**axis), rank) : llvm::None;
    if (!norm)
      return false;
    for (const ExprNode *o : form.operands) {
      const TensorSInfoNode *t = knownTensor(o->sinfo.get());
      if (t->dtype != data.dtype || t->ndim != rank)
        return false;
    }
    form.attrs.push_back({"axis", std::to_string((*norm)[0])});
    return true;
  }
  return false;
}

bool isInjectiveFusable(const CallNode &call) {
  for (const Op *op :
       {&ops::permuteDims(), &ops::reshape(), &ops::flatten(), &ops::broadcastTo(),
        &ops::expandDims(), &ops::squeeze(), &ops::take(), &ops::concat(), &ops::stridedSlice()})
    if (isCallTo(call, *op))
      return true;
  return false;
}

} // namespace

llvm::Optional<FusedOpForm> graft::fusedOpForm(const CallNode &call, const StructInfoNode *result) {
  const OpInfo *info = call.opInfo();
  const TensorSInfoNode *out = knownTensor(result);
  if (!info || info->unknown || !info->pure || readsOnHost(call) || !out ||
      !call.sinfoArgs.empty() || call.args.empty())
    return llvm::None;
  FusedOpForm form;
  form.op = info->scriptName().str();
  OpPattern pattern = info->fusionPattern();
  bool elementwise = pattern == OpPattern::ElemWise || pattern == OpPattern::Broadcast;
  bool injective = isInjectiveFusable(call);
  if (isCallTo(call, ops::concat())) {
    const auto *tuple = llvm::dyn_cast<TupleNode>(call.args[0].get());
    if (!tuple || tuple->fields.empty())
      return llvm::None;
    for (const Expr &f : tuple->fields)
      form.operands.push_back(f.get());
  } else if (isCallTo(call, ops::take())) {
    form.operands = {call.args[0].get(), call.args[1].get()};
  } else if (isCallTo(call, ops::clip()) || injective) {
    form.operands = {call.args[0].get()};
  } else if (elementwise) {
    // Attributes (shapes, axes, fill values) are not elementwise, except
    // astype's dtype, which the result states.
    if (call.attrs && !call.attrs->empty() && !isCallTo(call, ops::astype()))
      return llvm::None;
    for (const Expr &a : call.args)
      form.operands.push_back(a.get());
  } else {
    return llvm::None;
  }
  for (const ExprNode *o : form.operands)
    if (!isOperand(o))
      return llvm::None;
  if (isCallTo(call, ops::clip())) {
    llvm::Optional<double> lo = constNumber(call.args[1]), hi = constNumber(call.args[2]);
    if (call.args.size() != 3 || !lo || !hi)
      return llvm::None;
    for (auto [key, v] : {std::pair<const char *, double>{"min", *lo}, {"max", *hi}}) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%a", v);
      form.attrs.push_back({key, text});
    }
    return form;
  }
  if (!injective)
    return form;
  if (!injectiveForm(call, *out, *knownTensor(form.operands[0]->sinfo.get()), form))
    return llvm::None;
  return form;
}
