//===- ir/ops/ConvOps.cpp - relax.nn convolutions and pools -----------------===//
//
// conv1d/2d/3d, conv1d/2d_transpose, max/avg_pool1d/2d/3d and
// adaptive_avg_pool1d/2d/3d with the attrs of TVM's Conv*Attrs/Pool*Attrs
// (include/tvm/relax/attrs/nn.h) and the inference of
// src/relax/op/nn/convolution.cc and pooling.cc: shapes are brought to the
// canonical layout (NCHW / OIHW / IOHW), computed there, and brought back
// to the output layout. A layout is a permutation of the canonical axes,
// optionally with packed sub-axes (`NCHW4c`: C split by 4, innermost).
//
// canonicalize does the wrappers' work: an int for a list attr repeats for
// each spatial dim, padding completes to (before..., after...), and an
// omitted out_layout is the data layout.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "llvm/ADT/StringExtras.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The int list attr `name`; errors unless it has `n` entries.
llvm::Expected<llvm::SmallVector<int64_t, 4>> listOf(const CallNode &call, llvm::StringRef name,
                                                     size_t n) {
  auto v = optIntListAttr(call, name);
  if (!v)
    return v.takeError();
  if (!*v || (*v)->size() != n)
    return opError(call, "expects " + name + " to have " + std::to_string(n) + " entries");
  return **v;
}

/// What differs between the op families.
struct ConvKind {
  llvm::StringRef dataCanon, kernelCanon; ///< "NCHW", "OIHW"/"IOHW"; kernel empty for pools.
  bool transpose = false;
};

ConvKind kindOf(const CallNode &call) {
  llvm::StringRef name = call.opInfo()->scriptName();
  int s = name.contains("1d") ? 1 : name.contains("3d") ? 3 : 2;
  llvm::StringRef data = s == 1 ? "NCW" : s == 2 ? "NCHW" : "NCDHW";
  bool transpose = name.contains("transpose");
  llvm::StringRef kernel;
  if (name.contains("conv"))
    kernel = transpose ? (s == 1 ? "IOW" : "IOHW") : (s == 1 ? "OIW" : s == 2 ? "OIHW" : "OIDHW");
  return {data, kernel, transpose};
}

/// Checks a tensor's rank against its layout; its dims when known.
llvm::Expected<const std::vector<PrimExpr> *>
layoutDims(const CallNode &call, const TensorSInfoNode *t, const Layout &l, llvm::StringRef what) {
  if (t->ndim >= 0 && t->ndim != l.ndim())
    return opError(call, "expects " + what + " to have " + std::to_string(l.ndim()) +
                             " dimensions, as its layout says, but got " + std::to_string(t->ndim));
  return knownDims(t);
}

llvm::Expected<StructInfo> inferConv(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2))
    return err;
  ConvKind k = kindOf(call);
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto weight = tensorArg(call, 1);
  if (!weight)
    return weight.takeError();
  auto dl = stringAttr(call, "data_layout");
  auto kl = stringAttr(call, "kernel_layout");
  auto ol = stringAttr(call, "out_layout");
  if (!dl || !kl || !ol)
    return llvm::joinErrors(llvm::joinErrors(dl.takeError(), kl.takeError()), ol.takeError());
  auto dataL = parseLayout(call, *dl, k.dataCanon, "data_layout");
  if (!dataL)
    return dataL.takeError();
  auto kernelL = parseLayout(call, *kl, k.kernelCanon, "kernel_layout");
  if (!kernelL)
    return kernelL.takeError();
  auto outL = parseLayout(call, *ol, k.dataCanon, "out_layout");
  if (!outL)
    return outL.takeError();
  auto dDims = layoutDims(call, *data, *dataL, "data");
  if (!dDims)
    return dDims.takeError();
  auto wDims = layoutDims(call, *weight, *kernelL, "weight");
  if (!wDims)
    return wDims.takeError();
  auto outDType = dtypeAttr(call, "out_dtype");
  if (!outDType)
    return outDType.takeError();
  DataType dtype = *outDType;
  if (dtype.isVoid()) {
    auto dt = binaryArithDType(call, (*data)->dtype, (*weight)->dtype);
    if (!dt)
      return dt.takeError();
    dtype = *dt;
  }
  auto vdevice = mergeVDevice(call, (*data)->vdevice, (*weight)->vdevice);
  if (!vdevice)
    return vdevice.takeError();
  if (!*dDims || !*wDims)
    return tensorSInfoNDim(outL->ndim(), dtype, *vdevice);
  size_t s = k.dataCanon.size() - 2;
  auto groups = intAttr(call, "groups");
  auto strides = listOf(call, "strides", s);
  auto padding = listOf(call, "padding", 2 * s);
  auto dilation = listOf(call, "dilation", s);
  if (!groups || !strides || !padding || !dilation)
    return llvm::joinErrors(llvm::joinErrors(groups.takeError(), strides.takeError()),
                            llvm::joinErrors(padding.takeError(), dilation.takeError()));
  std::vector<PrimExpr> d = toCanonical(*dataL, **dDims, k.dataCanon);
  std::vector<PrimExpr> w = toCanonical(*kernelL, **wDims, k.kernelCanon);
  // Both kernel layouts keep the per-group input channels at the data's side:
  // OI.. for conv (I = C / groups), IO.. for transpose (I = C).
  PrimExpr kernelIn = k.transpose ? w[0] : simplified(PrimOp::Mul, w[1], i64(*groups));
  if (proveNotEqual(d[1], kernelIn))
    return opError(call, "expects the data's channels to equal the weight's input channels" +
                             std::string(k.transpose ? "" : " times groups") + ", but got " +
                             dimString(d[1]) + " and " + dimString(kernelIn));
  std::vector<PrimExpr> out{d[0], k.transpose ? simplified(PrimOp::Mul, w[1], i64(*groups)) : w[0]};
  llvm::SmallVector<int64_t, 4> outPad(s, 0);
  if (k.transpose) {
    auto op = listOf(call, "output_padding", s);
    if (!op)
      return op.takeError();
    outPad = *op;
  }
  for (size_t i = 0; i < s; ++i) {
    const PrimExpr &in = d[2 + i], &kw = w[2 + i];
    PrimExpr pad = i64((*padding)[i] + (*padding)[s + i]);
    PrimExpr span =
        primBinary(PrimOp::Mul, i64((*dilation)[i]), primBinary(PrimOp::Sub, kw, i64(1)));
    PrimExpr dim;
    if (k.transpose) {
      // (in - 1) * stride - pad + dilation * (k - 1) + output_padding + 1
      dim = primBinary(PrimOp::Mul, primBinary(PrimOp::Sub, in, i64(1)), i64((*strides)[i]));
      dim = primBinary(PrimOp::Sub, dim, pad);
      dim = primBinary(PrimOp::Add, dim, span);
      dim = primBinary(PrimOp::Add, dim, i64(outPad[i] + 1));
    } else {
      // (in + pad - dilation * (k - 1) - 1) // stride + 1
      dim = primBinary(PrimOp::Sub, primBinary(PrimOp::Add, in, pad), span);
      dim = primBinary(PrimOp::Sub, dim, i64(1));
      dim = primBinary(PrimOp::Add, primBinary(PrimOp::FloorDiv, dim, i64((*strides)[i])), i64(1));
    }
    out.push_back(simplify(dim));
  }
  return tensorSInfo(fromCanonical(*outL, out, k.dataCanon), dtype, *vdevice);
}

llvm::Expected<StructInfo> inferPool(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  ConvKind k = kindOf(call);
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto dl = stringAttr(call, "layout");
  auto ol = stringAttr(call, "out_layout");
  if (!dl || !ol)
    return llvm::joinErrors(dl.takeError(), ol.takeError());
  auto dataL = parseLayout(call, *dl, k.dataCanon, "layout");
  if (!dataL)
    return dataL.takeError();
  auto outL = parseLayout(call, *ol, k.dataCanon, "out_layout");
  if (!outL)
    return outL.takeError();
  auto dDims = layoutDims(call, *data, *dataL, "data");
  if (!dDims)
    return dDims.takeError();
  DataType dtype = (*data)->dtype;
  if (!*dDims)
    return tensorSInfoNDim(outL->ndim(), dtype, (*data)->vdevice);
  size_t s = k.dataCanon.size() - 2;
  std::vector<PrimExpr> d = toCanonical(*dataL, **dDims, k.dataCanon);
  std::vector<PrimExpr> out{d[0], d[1]};
  if (call.opInfo()->scriptName().contains("adaptive")) {
    auto size = optIntListAttr(call, "output_size");
    if (!size)
      return size.takeError();
    for (size_t i = 0; i < s; ++i)
      out.push_back(*size && (*size)->size() == s ? i64((**size)[i]) : d[2 + i]);
    return tensorSInfo(fromCanonical(*outL, out, k.dataCanon), dtype, (*data)->vdevice);
  }
  auto poolSize = listOf(call, "pool_size", s);
  auto strides = listOf(call, "strides", s);
  auto padding = listOf(call, "padding", 2 * s);
  auto dilation = listOf(call, "dilation", s);
  auto ceil = boolAttr(call, "ceil_mode");
  if (!poolSize || !strides || !padding || !dilation || !ceil)
    return llvm::joinErrors(
        llvm::joinErrors(llvm::joinErrors(poolSize.takeError(), strides.takeError()),
                         llvm::joinErrors(padding.takeError(), dilation.takeError())),
        ceil.takeError());
  for (size_t i = 0; i < s; ++i) {
    int64_t span = (*dilation)[i] * ((*poolSize)[i] - 1) + 1;
    int64_t extra = (*padding)[i] + (*padding)[s + i] - span + (*ceil ? (*strides)[i] - 1 : 0);
    PrimExpr dim = primBinary(PrimOp::Add, d[2 + i], i64(extra));
    dim = primBinary(PrimOp::Add, primBinary(PrimOp::FloorDiv, dim, i64((*strides)[i])), i64(1));
    if (*ceil) {
      // TVM drops a last window that would start in the bottom padding:
      // (raw - 1) * stride >= in + pad_before.
      PrimExpr start =
          primBinary(PrimOp::Mul, primBinary(PrimOp::Sub, dim, i64(1)), i64((*strides)[i]));
      PrimExpr limit = primBinary(PrimOp::Add, d[2 + i], i64((*padding)[i]));
      dim = make<PrimSelectNode>(primBinary(PrimOp::GE, start, limit),
                                 primBinary(PrimOp::Sub, dim, i64(1)), dim);
    }
    out.push_back(simplify(dim));
  }
  return tensorSInfo(fromCanonical(*outL, out, k.dataCanon), dtype, (*data)->vdevice);
}

//===----------------------------------------------------------------------===//
// Canonicalization (the wrappers and constructors)
//===----------------------------------------------------------------------===//

/// An int list attr with `n` entries: one int repeats.
void repeatTo(Attrs &attrs, llvm::StringRef name, size_t n) {
  const AttrValue *v = attrs ? attrs->lookup(name) : nullptr;
  if (!v || v->kind() != AttrValue::Kind::Array || v->getArray().size() != 1 || n == 1)
    return;
  attrs = withAttr(attrs.get(), name, AttrValue::array(AttrArray(n, v->getArray()[0])));
}

/// Padding as (before..., after...): one value for all, or one per dim for
/// both sides.
void completePadding(Attrs &attrs, size_t s) {
  const AttrValue *v = attrs ? attrs->lookup("padding") : nullptr;
  if (!v || v->kind() != AttrValue::Kind::Array)
    return;
  const AttrArray &p = v->getArray();
  if (p.size() == 1)
    attrs = withAttr(attrs.get(), "padding", AttrValue::array(AttrArray(2 * s, p[0])));
  else if (p.size() == s && s > 1) {
    AttrArray full(p);
    full.insert(full.end(), p.begin(), p.end());
    attrs = withAttr(attrs.get(), "padding", AttrValue::array(std::move(full)));
  }
}

void defaultOutLayout(Attrs &attrs, llvm::StringRef dataKey) {
  const AttrValue *out = attrs ? attrs->lookup("out_layout") : nullptr;
  const AttrValue *data = attrs ? attrs->lookup(dataKey) : nullptr;
  if (out && out->isNone() && data)
    attrs = withAttr(attrs.get(), "out_layout", *data);
}

template <size_t S> llvm::Error canonicalizeConv(std::vector<Expr> &, Attrs &attrs) {
  for (const char *name : {"strides", "dilation", "output_padding", "pool_size"})
    repeatTo(attrs, name, S);
  completePadding(attrs, S);
  defaultOutLayout(attrs, attrs && attrs->lookup("layout") ? "layout" : "data_layout");
  return llvm::Error::success();
}

template <size_t S> llvm::Error canonicalizeAdaptive(std::vector<Expr> &, Attrs &attrs) {
  repeatTo(attrs, "output_size", S);
  defaultOutLayout(attrs, "layout");
  return llvm::Error::success();
}

std::vector<OpParam> convParams(bool transpose, llvm::StringRef data, llvm::StringRef kernel) {
  std::vector<OpParam> p{arg("data"), arg("weight"),
                         listAttr("strides", AttrKind::IntList, intListVal({1})),
                         listAttr("padding", AttrKind::IntList, intListVal({0}))};
  if (transpose)
    p.push_back(listAttr("output_padding", AttrKind::IntList, intListVal({0})));
  p.push_back(listAttr("dilation", AttrKind::IntList, intListVal({1})));
  p.push_back(attr("groups", AttrKind::Int, intVal(1)));
  p.push_back(attr("data_layout", AttrKind::String, AttrValue::string(data.str())));
  p.push_back(attr("kernel_layout", AttrKind::String, AttrValue::string(kernel.str())));
  p.push_back(attr("out_layout", AttrKind::String, noneVal()));
  p.push_back(attr("out_dtype", AttrKind::DType, dtypeVal(DataType::voidType())));
  return p;
}

std::vector<OpParam> poolParams(llvm::StringRef layout, bool countIncludePad) {
  return {arg("data"),
          listAttr("pool_size", AttrKind::IntList, intListVal({1})),
          listAttr("strides", AttrKind::IntList, intListVal({1})),
          listAttr("padding", AttrKind::IntList, intListVal({0})),
          listAttr("dilation", AttrKind::IntList, intListVal({1})),
          attr("ceil_mode", AttrKind::Bool, boolVal(false)),
          attr("count_include_pad", AttrKind::Bool, boolVal(countIncludePad)),
          attr("layout", AttrKind::String, AttrValue::string(layout.str())),
          attr("out_layout", AttrKind::String, noneVal())};
}

/// Patterns of the equivalent TVM ops (nn.conv2d, nn.max_pool2d, ...):
/// their elementwise consumers fuse into them.
template <size_t S> void registerFamily(llvm::StringRef data, llvm::StringRef oi) {
  std::string d = std::to_string(S) + "d";
  OpInfo conv =
      makeOp("nn.conv" + d, convParams(false, data, oi), inferConv, OpPattern::OutEWiseFusable);
  conv.canonicalize = canonicalizeConv<S>;
  registerOp(conv);
  if (S < 3) {
    std::string io = ("IO" + oi.drop_front(2)).str();
    OpInfo convT = makeOp("nn.conv" + d + "_transpose", convParams(true, data, io), inferConv,
                          OpPattern::OutEWiseFusable);
    convT.canonicalize = canonicalizeConv<S>;
    registerOp(convT);
  }
  // TVM: max pools exclude padding by default, avg_pool1d/3d include it and
  // avg_pool2d does not.
  for (bool isMax : {true, false}) {
    OpInfo pool = makeOp((isMax ? "nn.max_pool" : "nn.avg_pool") + d,
                         poolParams(data, !isMax && S != 2), inferPool, OpPattern::OutEWiseFusable);
    pool.canonicalize = canonicalizeConv<S>;
    registerOp(pool);
  }
  OpInfo adaptive =
      makeOp("nn.adaptive_avg_pool" + d,
             {arg("data"), listAttr("output_size", AttrKind::OptionalIntList, noneVal()),
              attr("layout", AttrKind::String, AttrValue::string(data.str())),
              attr("out_layout", AttrKind::String, noneVal())},
             inferPool, OpPattern::OutEWiseFusable);
  adaptive.canonicalize = canonicalizeAdaptive<S>;
  registerOp(adaptive);
}

} // namespace

void graft::registerConvOps() {
  registerFamily<1>("NCW", "OIW");
  registerFamily<2>("NCHW", "OIHW");
  registerFamily<3>("NCDHW", "OIDHW");
}
