//===- ir/ops/ParityOps.cpp - TVM ops registered for text parity ------------===//
//
// Ops of TVM's that came after the core set: repeat, tile, flip,
// dynamic_strided_slice (src/relax/op/tensor/manipulate.cc, index.cc),
// quantize/dequantize (qdq.cc), topk (sorting.cc), einsum
// (linear_algebra.cc), nn.batch_norm (nn/nn.cc) and the gradient
// checkpoint markers grad.start_checkpoint/end_checkpoint. Inference
// follows TVM's FInferStructInfo of each.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/StringMap.h"

using namespace graft;
using namespace graft::opdef;

namespace {

llvm::Expected<StructInfo> inferRepeat(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto repeats = intAttr(call, "repeats");
  auto axis = optIntAttr(call, "axis");
  if (!repeats || !axis)
    return llvm::joinErrors(repeats.takeError(), axis.takeError());
  int ndim = (*t)->ndim;
  llvm::Optional<int> ax;
  if (*axis && ndim >= 0) {
    auto n = normalizeAxis(call, **axis, ndim);
    if (!n)
      return n.takeError();
    ax = *n;
  }
  const std::vector<PrimExpr> *dims = knownDims(*t);
  if (!dims) {
    if (!*axis)
      return tensorSInfoNDim(1, (*t)->dtype, (*t)->vdevice);
    if (*repeats == 1)
      return StructInfo(*t);
    return tensorSInfoNDim(ndim, (*t)->dtype, (*t)->vdevice);
  }
  if (!ax)
    return tensorSInfo({simplify(primBinary(PrimOp::Mul, shapeProduct(*dims), i64(*repeats)))},
                       (*t)->dtype, (*t)->vdevice);
  std::vector<PrimExpr> out = *dims;
  out[*ax] = simplify(primBinary(PrimOp::Mul, out[*ax], i64(*repeats)));
  return tensorSInfo(std::move(out), (*t)->dtype, (*t)->vdevice);
}

llvm::Expected<StructInfo> inferTile(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto reps = optIntListAttr(call, "repeats");
  if (!reps)
    return reps.takeError();
  llvm::SmallVector<int64_t, 4> r = *reps ? **reps : llvm::SmallVector<int64_t, 4>();
  int l = static_cast<int>(r.size()), ndim = (*t)->ndim;
  const std::vector<PrimExpr> *dims = knownDims(*t);
  if (!dims) {
    if (ndim < 0)
      return tensorSInfoNDim(-1, (*t)->dtype, (*t)->vdevice);
    if (l > ndim)
      return tensorSInfoNDim(l, (*t)->dtype, (*t)->vdevice);
    if (llvm::all_of(r, [](int64_t v) { return v == 1; }))
      return StructInfo(*t);
    return tensorSInfoNDim(ndim, (*t)->dtype, (*t)->vdevice);
  }
  // Both sides are aligned at the innermost dim; the shorter one is padded with 1s.
  int outNDim = std::max(l, ndim);
  std::vector<PrimExpr> out;
  for (int i = 0; i < outNDim; ++i) {
    int di = i - (outNDim - ndim), ri = i - (outNDim - l);
    if (ri < 0)
      out.push_back((*dims)[di]);
    else if (di < 0)
      out.push_back(i64(r[ri]));
    else
      out.push_back(simplify(primBinary(PrimOp::Mul, (*dims)[di], i64(r[ri]))));
  }
  return tensorSInfo(std::move(out), (*t)->dtype, (*t)->vdevice);
}

llvm::Expected<StructInfo> inferFlip(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  if ((*t)->ndim >= 0)
    if (auto n = normalizeAxis(call, *axis, (*t)->ndim); !n)
      return n.takeError();
  return StructInfo(*t);
}

llvm::Expected<StructInfo> inferDynamicStridedSlice(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 4))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  for (unsigned i = 1; i < 4; ++i) {
    auto p = tensorArg(call, i);
    if (!p)
      return p.takeError();
    if ((*p)->ndim >= 0 && (*p)->ndim != 1)
      return opError(call, "expects " + argName(call, i) + " to be a 1-D tensor, but got " +
                               std::to_string((*p)->ndim) + " dimensions");
  }
  return tensorSInfoNDim((*t)->ndim, (*t)->dtype, (*t)->vdevice);
}

/// quantize and dequantize: the data's shape with out_dtype; scale and
/// zero_point are scalars or one value per element of the axis.
llvm::Expected<StructInfo> inferQDQ(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3))
    return err;
  bool quantize = call.opInfo()->scriptName() == "quantize";
  auto outDType = dtypeAttr(call, "out_dtype");
  if (!outDType)
    return outDType.takeError();
  DataType o = *outDType;
  bool outOk = quantize ? (o.isIntegral() && (o.bits == 8 || o.bits == 16)) || o.isFloat()
                        : o == DataType::float32() || o == DataType(DataType::Float, 16);
  if (!outOk)
    return opError(call, "does not support out_dtype " + o.str());
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  int ax = -1;
  if ((*t)->ndim >= 0) {
    auto n = normalizeAxis(call, *axis, (*t)->ndim);
    if (!n)
      return n.takeError();
    ax = *n;
  }
  const std::vector<PrimExpr> *dims = knownDims(*t);
  for (unsigned i = 1; i < 3; ++i) {
    auto p = tensorArg(call, i);
    if (!p)
      return p.takeError();
    const std::vector<PrimExpr> *pd = knownDims(*p);
    if (!pd || !dims || ax < 0 || pd->empty())
      continue;
    if (pd->size() != 1 || proveNotEqual((*pd)[0], (*dims)[ax]))
      return opError(call, "expects " + argName(call, i) + " to be a scalar or to have the " +
                               "input's dim " + std::to_string(ax) + " (" + dimString((*dims)[ax]) +
                               ") elements, but got shape " + shapeString(*pd));
  }
  return withDType(*t, o);
}

llvm::Expected<StructInfo> inferTopK(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto k = intAttr(call, "k");
  auto axis = intAttr(call, "axis");
  auto retType = stringAttr(call, "ret_type");
  auto dtype = dtypeAttr(call, "dtype");
  if (!k || !axis || !retType || !dtype)
    return llvm::joinErrors(llvm::joinErrors(k.takeError(), axis.takeError()),
                            llvm::joinErrors(retType.takeError(), dtype.takeError()));
  if (*retType != "both" && *retType != "values" && *retType != "indices")
    return opError(call, "expects ret_type to be \"both\", \"values\" or \"indices\", but got \"" +
                             *retType + "\"");
  DataType indexType = dtype->isVoid() ? (*t)->dtype : *dtype;
  const std::vector<PrimExpr> *dims = knownDims(*t);
  StructInfo values, indices;
  if (!dims) {
    values = tensorSInfoNDim((*t)->ndim, (*t)->dtype, (*t)->vdevice);
    indices = tensorSInfoNDim((*t)->ndim, indexType, (*t)->vdevice);
  } else {
    auto ax = normalizeAxis(call, *axis, static_cast<int>(dims->size()));
    if (!ax)
      return ax.takeError();
    std::vector<PrimExpr> out = *dims;
    auto len = asConstInt(out[*ax].get());
    if (*k > 0 && (!len || *k < *len))
      out[*ax] = i64(*k);
    values = tensorSInfo(out, (*t)->dtype, (*t)->vdevice);
    indices = tensorSInfo(std::move(out), indexType, (*t)->vdevice);
  }
  if (*retType == "values")
    return values;
  if (*retType == "indices")
    return indices;
  return tupleSInfo({values, indices});
}

/// einsum's subscripts: each operand's labels and the output's. An explicit
/// output follows "->"; without it, the labels used once, in order.
llvm::Expected<StructInfo> inferEinsum(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto ts = tensorTupleArg(call, 0);
  if (!ts)
    return ts.takeError();
  auto subscripts = stringAttr(call, "subscripts");
  if (!subscripts)
    return subscripts.takeError();
  llvm::StringRef s(*subscripts);
  auto [lhs, rhs] = s.split("->");
  bool explicitOut = s.contains("->");
  llvm::SmallVector<llvm::StringRef, 4> inputs;
  lhs.split(inputs, ',');
  if (inputs.size() != ts->size())
    return opError(call, "expects one subscript per operand, but got " +
                             std::to_string(inputs.size()) + " subscripts for " +
                             std::to_string(ts->size()) + " operands");
  DataType dtype = ts->empty() ? DataType::voidType() : (*ts)[0]->dtype;
  VDevice vdevice = ts->empty() ? nullptr : (*ts)[0]->vdevice;
  if (s.contains("..."))
    return tensorSInfoNDim(-1, dtype, vdevice);
  llvm::StringMap<PrimExpr> extent;
  llvm::StringMap<int> uses;
  std::string order;
  bool known = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    llvm::StringRef in = inputs[i].trim();
    const TensorSInfoNode *t = (*ts)[i];
    if (t->ndim >= 0 && static_cast<size_t>(t->ndim) != in.size())
      return opError(call, "expects operand " + std::to_string(i) + " to have " +
                               std::to_string(in.size()) + " dimensions, as \"" + in +
                               "\" says, but got " + std::to_string(t->ndim));
    const std::vector<PrimExpr> *dims = knownDims(t);
    known &= dims != nullptr;
    for (size_t k = 0; k < in.size(); ++k) {
      llvm::StringRef label = in.substr(k, 1);
      if (!uses.count(label))
        order += in[k];
      ++uses[label];
      if (dims && !extent.count(label))
        extent[label] = (*dims)[k];
    }
  }
  std::string out;
  if (explicitOut) {
    out = rhs.trim().str();
  } else {
    std::sort(order.begin(), order.end());
    for (char c : order)
      if (uses[llvm::StringRef(&c, 1)] == 1)
        out += c;
  }
  if (!known)
    return tensorSInfoNDim(static_cast<int>(out.size()), dtype, vdevice);
  std::vector<PrimExpr> shape;
  for (char c : out) {
    auto it = extent.find(llvm::StringRef(&c, 1));
    if (it == extent.end())
      return opError(call, std::string("expects output label '") + c + "' among the inputs'");
    shape.push_back(it->second);
  }
  return tensorSInfo(std::move(shape), dtype, vdevice);
}

/// batch_norm (data, gamma, beta, moving_mean, moving_var): the data's
/// struct info and the two moving statistics'.
llvm::Expected<StructInfo> inferBatchNorm(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 5))
    return err;
  llvm::SmallVector<const TensorSInfoNode *, 5> in;
  for (unsigned i = 0; i < 5; ++i) {
    auto t = tensorArg(call, i);
    if (!t)
      return t.takeError();
    in.push_back(*t);
  }
  const TensorSInfoNode *d = in[0];
  auto axis = intAttr(call, "axis");
  if (!axis)
    return axis.takeError();
  int ax = -1;
  if (d->ndim >= 0) {
    auto n = normalizeAxis(call, *axis, d->ndim);
    if (!n)
      return n.takeError();
    ax = *n;
  }
  bool unknown = !knownDims(d);
  for (unsigned i = 1; i < 5; ++i) {
    if (!d->dtype.isVoid() && !in[i]->dtype.isVoid() && in[i]->dtype != d->dtype)
      return opError(call, "expects " + argName(call, i) + " to have the data's dtype " +
                               d->dtype.str() + ", but got " + in[i]->dtype.str());
    if (in[i]->ndim >= 0 && in[i]->ndim != 1)
      return opError(call, "expects " + argName(call, i) + " to have 1 dimension, but got " +
                               std::to_string(in[i]->ndim));
    const std::vector<PrimExpr> *pd = knownDims(in[i]);
    if (!pd || unknown) {
      unknown = true;
      continue;
    }
    const PrimExpr &a = (*knownDims(d))[ax], &b = (*pd)[0];
    if (proveNotEqual(a, b))
      return opError(call, "expects " + argName(call, i) + " to have the data's dim " +
                               std::to_string(ax) + " (" + dimString(a) + "), but got " +
                               dimString(b));
    unknown |= !proveEqual(a, b);
  }
  if (unknown)
    return tupleSInfo({tensorSInfoNDim(d->ndim, d->dtype, d->vdevice),
                       tensorSInfoNDim(1, d->dtype, d->vdevice),
                       tensorSInfoNDim(1, d->dtype, d->vdevice)});
  return tupleSInfo({StructInfo(in[0]), StructInfo(in[3]), StructInfo(in[4])});
}

/// grad.start_checkpoint/end_checkpoint mark a region for gradient
/// checkpointing and pass their input through.
llvm::Expected<StructInfo> inferCheckpoint(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  if (!call.args[0] || !call.args[0]->sinfo)
    return opError(call, "expects an argument with struct info");
  return call.args[0]->sinfo;
}

} // namespace

void graft::registerParityOps() {
  registerOp(makeOp("repeat",
                    {arg("data"), reqAttr("repeats", AttrKind::Int),
                     attr("axis", AttrKind::OptionalInt, noneVal())},
                    inferRepeat, OpPattern::Injective));
  registerOp(makeOp("tile", {arg("data"), reqListAttr("repeats", AttrKind::IntList)}, inferTile,
                    OpPattern::Injective));
  registerOp(makeOp("flip", {arg("data"), reqAttr("axis", AttrKind::Int)}, inferFlip,
                    OpPattern::Injective));
  OpInfo dynamicSlice =
      makeOp("dynamic_strided_slice", {arg("x"), arg("begin"), arg("end"), arg("strides")},
             inferDynamicStridedSlice, OpPattern::Injective);
  dynamicSlice.readsOnHost = true; // The output shape is read back from begin/end/strides.
  dynamicSlice.capturable = false;
  registerOp(dynamicSlice);
  registerOp(
      makeOp("quantize",
             {arg("data"), arg("scale"), arg("zero_point"), attr("axis", AttrKind::Int, intVal(-1)),
              attr("out_dtype", AttrKind::DType, dtypeVal(DataType(DataType::Int, 8)))},
             inferQDQ, OpPattern::ElemWise));
  registerOp(
      makeOp("dequantize",
             {arg("data"), arg("scale"), arg("zero_point"), attr("axis", AttrKind::Int, intVal(-1)),
              attr("out_dtype", AttrKind::DType, dtypeVal(DataType::float32()))},
             inferQDQ, OpPattern::ElemWise));
  registerOp(makeOp("topk",
                    {arg("data"), attr("k", AttrKind::Int, intVal(1)),
                     attr("axis", AttrKind::Int, intVal(-1)),
                     attr("ret_type", AttrKind::String, strVal("both")),
                     attr("largest", AttrKind::Bool, boolVal(true)),
                     attr("dtype", AttrKind::DType, dtypeVal(DataType::int32()))},
                    inferTopK, OpPattern::Opaque));
  registerOp(makeOp(
      "einsum", {arg("operands", ParamKind::ExprTuple), reqAttr("subscripts", AttrKind::String)},
      inferEinsum, OpPattern::OutEWiseFusable));
  registerOp(makeOp(
      "nn.batch_norm",
      {arg("data"), arg("gamma"), arg("beta"), arg("moving_mean"), arg("moving_var"),
       reqAttr("axis", AttrKind::Int), attr("epsilon", AttrKind::Float, AttrValue::floating(1e-5)),
       attr("center", AttrKind::Bool, boolVal(true)), attr("scale", AttrKind::Bool, boolVal(true)),
       attr("momentum", AttrKind::Float, AttrValue::floating(0.1)),
       attr("training", AttrKind::Bool, boolVal(true))},
      inferBatchNorm, OpPattern::OutEWiseFusable));
  for (const char *name : {"grad.start_checkpoint", "grad.end_checkpoint"})
    registerOp(makeOp(name, {arg("input")}, inferCheckpoint, OpPattern::Opaque));
}
