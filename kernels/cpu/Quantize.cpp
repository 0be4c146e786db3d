//===- kernels/cpu/Quantize.cpp - quantize and dequantize -----------------===//
//
// TVM's legalization of relax.quantize / relax.dequantize (python/tvm/relax/
// transform/legalize_ops/qdq.py), element by element:
//
//   quantize:   out = clip(round(x / scale) + zp)     (no round for a float out)
//   dequantize: out = clip((x - zp) * scale)          (clip only below float32)
//
// scale and zero_point are scalars (0-d, or one element) or hold one value
// per index of `axis`. The clip saturates to the output dtype's range the way
// TIR's min/max compile (`a < b ? a : b`), so NaN saturates to the maximum.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

/// A scale or zero point over the data's shape: a scalar broadcasts, a
/// per-axis vector strides along `axis` only.
std::optional<View> perAxis(Ctx &ctx, size_t i, const View &data, int64_t axis) {
  View p = ctx.inView(i);
  const char *name = i == 1 ? "scale" : "zero_point";
  View v = data;
  v.type = p.type;
  v.data = p.data;
  std::fill(v.strides.begin(), v.strides.end(), 0);
  if (p.numel() == 1 && p.ndim() <= 1)
    return v;
  if (p.ndim() != 1 || p.shape[0] != data.shape[axis]) {
    ctx.fail(llvm::Twine(name) + " must be a scalar or have " + llvm::Twine(data.shape[axis]) +
             " elements (dim " + llvm::Twine(axis) + " of the data), got shape " +
             shapeStr(p.shape));
    return std::nullopt;
  }
  v.strides[axis] = p.strides[0];
  return v;
}

/// The finite range of a dtype, as the compute type C.
template <class C> std::pair<C, C> rangeOf(ScalarType t) {
  return dispatch(t, [](auto tag) -> std::pair<C, C> {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Half>)
      return {C(-65504.0), C(65504.0)};
    else if constexpr (std::is_same_v<T, BFloat16>)
      return {C(-3.3895313892515355e38), C(3.3895313892515355e38)};
    else if constexpr (kIsBool<T>)
      return {C(0), C(1)};
    else
      return {C(std::numeric_limits<T>::lowest()), C(std::numeric_limits<T>::max())};
  });
}

/// TIR's max(min(v, hi), lo) for floats: a NaN compares false and takes hi.
template <class C> C saturate(C v, C lo, C hi) {
  v = v < hi ? v : hi;
  return v > lo ? v : lo;
}

struct QdqPlan {
  View data, scale, zp, out;
};

std::optional<QdqPlan> planQdq(Ctx &ctx) {
  QdqPlan p;
  p.data = ctx.inView(0);
  p.out = ctx.outView(0);
  int64_t rank = std::max<int64_t>(p.data.ndim(), 1);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", -1), rank);
  if (!axis || !ctx.expectOutShape(0, p.data.shape))
    return std::nullopt;
  if (p.data.ndim() == 0) { // A 0-d tensor reads as one element along axis 0.
    p.data.shape = p.out.shape = {1};
    p.data.strides = p.out.strides = {0};
  }
  auto scale = perAxis(ctx, 1, p.data, *axis);
  auto zp = scale ? perAxis(ctx, 2, p.data, *axis) : std::nullopt;
  if (!scale || !zp)
    return std::nullopt;
  p.scale = *scale;
  p.zp = *zp;
  return p;
}

/// The type quantize divides in: float32, or float64 for float64 data.
template <class C> void quantizeAs(const QdqPlan &p, bool toInt) {
  Loader<C> ld = loaderFor<C>(p.data.type), ls = loaderFor<C>(p.scale.type),
            lz = loaderFor<C>(p.zp.type);
  Storer<C> st = storerFor<C>(p.out.type);
  const std::pair<C, C> range = rangeOf<C>(p.out.type);
  const C lo = range.first, hi = range.second;
  forEach<4>(p.data.shape, {&p.out, &p.data, &p.scale, &p.zp}, [&](const std::array<char *, 4> &q) {
    C v = ld(q[1]) / ls(q[2]);
    if (toInt)
      v = std::nearbyint(v); // Half to even, as TIR's round.
    st(q[0], saturate<C>(v + lz(q[3]), lo, hi));
  });
}

llvm::Error quantizeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.quantize");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  if (!isFloatType(ctx.inType(0)) || !isFloatType(ctx.inType(1)))
    return ctx.reject("data and scale must be floating-point, got " + dtypeName(ctx.in(0).dtype) +
                      " and " + dtypeName(ctx.in(1).dtype));
  if (ctx.outType(0) == ScalarType::Bool)
    return ctx.reject("output must be an integer or floating-point dtype, got bool");
  auto plan = planQdq(ctx);
  if (!plan)
    return ctx.error();
  bool toInt = isIntType(ctx.outType(0));
  if (ctx.inType(0) == ScalarType::Float64)
    quantizeAs<double>(*plan, toInt);
  else
    quantizeAs<float>(*plan, toInt);
  return llvm::Error::success();
}

/// dequantize: x - zp in int32 for integer data and zero point (wrapping),
/// in float32 otherwise; times scale in float32.
llvm::Error dequantizeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.dequantize");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  if (ctx.inType(0) == ScalarType::Bool || ctx.inType(2) == ScalarType::Bool ||
      !isFloatType(ctx.inType(1)))
    return ctx.reject("data and zero_point must be numbers and scale floating-point, got " +
                      dtypeName(ctx.in(0).dtype) + ", " + dtypeName(ctx.in(2).dtype) + " and " +
                      dtypeName(ctx.in(1).dtype));
  if (!isFloatType(ctx.outType(0)))
    return ctx.reject("output must be floating-point, got " + dtypeName(ctx.out(0).dtype));
  auto plan = planQdq(ctx);
  if (!plan)
    return ctx.error();
  const QdqPlan &p = *plan;
  bool intSub = isIntType(p.data.type) && isIntType(p.zp.type);
  Loader<int32_t> di = loaderFor<int32_t>(p.data.type), zi = loaderFor<int32_t>(p.zp.type);
  Loader<float> df = loaderFor<float>(p.data.type), zf = loaderFor<float>(p.zp.type),
                sf = loaderFor<float>(p.scale.type);
  Storer<float> st = storerFor<float>(p.out.type);
  bool clip = p.out.type != ScalarType::Float32 && p.out.type != ScalarType::Float64;
  const std::pair<float, float> range = rangeOf<float>(p.out.type);
  const float lo = range.first, hi = range.second;
  forEach<4>(p.data.shape, {&p.out, &p.data, &p.scale, &p.zp}, [&](const std::array<char *, 4> &q) {
    float sub = intSub ? float(wrapSub(di(q[1]), zi(q[3]))) : df(q[1]) - zf(q[3]);
    float v = sub * sf(q[2]);
    st(q[0], clip ? saturate(v, lo, hi) : v);
  });
  return llvm::Error::success();
}

const llvm::StringRef kQdqAttrs[] = {"axis"};

} // namespace

void registerQuantizeKernels() {
  static const KernelInfo kernels[] = {
      {"graft.quantize", 3, 1, kQdqAttrs, &quantizeKernel},
      {"graft.dequantize", 3, 1, kQdqAttrs, &dequantizeKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
