//===- kernels/cpu/Elementwise.cpp - astype, clip, where, ewise_fma, outer, ... -===//
//
// The elementwise kernels that are not rows of the op table
// (ElementwiseOps.def), which holds ops of one or two inputs whose dtypes
// one rule describes: astype converts between any two dtypes, clip and the
// activations with attributes take them, where and ewise_fma three inputs,
// outer pairs every element of one input with every element of the other.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cmath>

namespace graft::kernels::cpu {
namespace {

/// Maps input 0 to output 0 of the same shape with fn(dst, src).
template <class Fn> llvm::Error runUnary(Ctx &ctx, Fn &&fn) {
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  forEach<2>(out.shape, {&out, &in}, fn);
  return llvm::Error::success();
}

/// astype: any dtype to any dtype with castTo's defined conversions.
llvm::Error astypeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.astype");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  return dispatch(ctx.outType(0), [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    Loader<Compute<T>> l = loaderFor<Compute<T>>(ctx.inType(0));
    return runUnary(ctx, [l](const std::array<char *, 2> &p) { Elem<T>::store(p[0], l(p[1])); });
  });
}

/// clip(min, max): bounds are converted to the dtype first (truncating for
/// integers, as TVM does); NaN stays NaN.
llvm::Error clipKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.clip");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  double lo = ctx.floatAttr(0, "min"), hi = ctx.floatAttr(1, "max");
  ScalarType t = ctx.inType(0);
  if (!ctx.ok() || !ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (t == ScalarType::Bool)
    return ctx.reject("takes a numeric tensor, got bool");
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    C l = castTo<C>(lo), h = castTo<C>(hi);
    return runUnary(ctx, [l, h](const std::array<char *, 2> &p) {
      C x = Elem<T>::load(p[1]);
      Elem<T>::store(p[0], x < l ? l : (x > h ? h : x));
    });
  });
}

/// where(cond, x, y): cond of any dtype (nonzero is true); x and y of the
/// output's dtype or bool.
llvm::Error whereKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.where");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  ScalarType t = ctx.outType(0);
  for (size_t i = 1; i < 3; ++i)
    if (ctx.inType(i) != t && ctx.inType(i) != ScalarType::Bool &&
        !ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return ctx.error();
  auto shape =
      broadcastShapes(ctx, {ctx.inView(0).shape, ctx.inView(1).shape, ctx.inView(2).shape});
  if (!shape || !ctx.expectOutShape(0, *shape))
    return ctx.error();
  View out = ctx.outView(0);
  auto c = ctx.broadcast(ctx.inView(0), out.shape, "input 0");
  auto x = ctx.broadcast(ctx.inView(1), out.shape, "input 1");
  auto y = ctx.broadcast(ctx.inView(2), out.shape, "input 2");
  if (!c || !x || !y)
    return ctx.error();
  Loader<bool> lc = loaderFor<bool>(ctx.inType(0));
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    Loader<C> lx = loaderFor<C>(ctx.inType(1)), ly = loaderFor<C>(ctx.inType(2));
    forEach<4>(out.shape, {&out, &*c, &*x, &*y}, [&](const std::array<char *, 4> &p) {
      Elem<T>::store(p[0], lc(p[1]) ? lx(p[2]) : ly(p[3]));
    });
    return llvm::Error::success();
  });
}

/// Runs fn(x) over a float tensor into one of its dtype, computing in the
/// dtype's compute type (float for the 16-bit floats).
template <class Fn> llvm::Error runUnaryFloat(Ctx &ctx, Fn &&fn) {
  ScalarType t = ctx.inType(0);
  if (!ctx.ok() || !ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (!isFloatType(t))
    return ctx.reject("takes a float tensor, got " + dtypeName(dlTypeOf(t)));
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      using C = Compute<T>;
      return runUnary(ctx, [&fn](const std::array<char *, 2> &p) {
        Elem<T>::store(p[0], C(fn(C(Elem<T>::load(p[1])))));
      });
    } else {
      return ctx.reject("takes a float tensor");
    }
  });
}

/// nn.leakyrelu(alpha): x for x > 0, else alpha * x (NaN stays NaN).
llvm::Error leakyReluKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.leakyrelu");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  double alpha = ctx.floatAttr(0, "alpha");
  return runUnaryFloat(ctx, [alpha](auto x) {
    using C = decltype(x);
    return x > C(0) ? x : C(alpha) * x;
  });
}

/// nn.softplus(beta, threshold): log(1 + exp(beta * x)) / beta, and x
/// itself where beta * x exceeds threshold, as TVM's legalization computes.
llvm::Error softplusKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.softplus");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  double beta = ctx.floatAttr(0, "beta"), threshold = ctx.floatAttr(1, "threshold");
  return runUnaryFloat(ctx, [beta, threshold](auto x) {
    using C = decltype(x);
    C bx = C(beta) * x;
    return bx > C(threshold) ? x : C(std::log1p(std::exp(bx)) / C(beta));
  });
}

/// nn.prelu(axis): x > 0 ? x : alpha[i] * x, i the element's index along
/// axis; alpha is 1-D of that axis's length and x's dtype.
llvm::Error preluKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.prelu");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View x = ctx.inView(0), alpha = ctx.inView(1);
  auto axis = ctx.axis(ctx.intAttr(0, "axis"), x.ndim());
  ScalarType t = x.type;
  if (!axis || !ctx.expectSameType(ctx.inType(1), t, "input 1") ||
      !ctx.expectSameType(ctx.outType(0), t, "output 0") || !ctx.expectOutShape(0, x.shape))
    return ctx.error();
  if (!isFloatType(t))
    return ctx.reject("takes a float tensor, got " + dtypeName(dlTypeOf(t)));
  if (alpha.ndim() != 1 || alpha.shape[0] != x.shape[*axis])
    return ctx.reject("alpha must be 1-D of length " + llvm::Twine(x.shape[*axis]) +
                      " (the axis's extent)");
  // alpha seen at x's shape: stride 0 except along axis.
  View a = x;
  a.data = alpha.data;
  for (int64_t d = 0; d < x.ndim(); ++d)
    a.strides[d] = d == *axis ? alpha.strides[0] : 0;
  View out = ctx.outView(0);
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      using C = Compute<T>;
      forEach<3>(out.shape, {&out, &x, &a}, [](const std::array<char *, 3> &p) {
        C v = Elem<T>::load(p[1]);
        Elem<T>::store(p[0], v > C(0) ? v : C(Elem<T>::load(p[2])) * v);
      });
    }
    return llvm::Error::success();
  });
}

/// ewise_fma(x1, x2, x3): x1 * x2 + x3 over three tensors of the output's
/// dtype and shape (no broadcasting), floats rounded once (fmaC).
llvm::Error ewiseFmaKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.ewise_fma");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  ScalarType t = ctx.outType(0);
  View out = ctx.outView(0);
  View in[3] = {ctx.inView(0), ctx.inView(1), ctx.inView(2)};
  for (size_t i = 0; i < 3; ++i)
    if (!ctx.expectSameType(in[i].type, t, "input " + llvm::Twine(i)) ||
        !ctx.expectOutShape(0, in[i].shape))
      return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    forEach<4>(out.shape, {&out, &in[0], &in[1], &in[2]}, [](const std::array<char *, 4> &p) {
      Elem<T>::store(
          p[0], scalar::fmaC<C>(Elem<T>::load(p[1]), Elem<T>::load(p[2]), Elem<T>::load(p[3])));
    });
    return llvm::Error::success();
  });
}

/// outer(x1, x2): out[i, j] = x1[i] * x2[j] in the output's dtype (x1's;
/// x2 is converted to it, as TVM checks only x1's dtype).
llvm::Error outerKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.outer");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View a = ctx.inView(0), b = ctx.inView(1);
  if (a.ndim() != 1 || b.ndim() != 1)
    return ctx.reject("takes two 1-D inputs, got shapes " + shapeStr(a.shape) + " and " +
                      shapeStr(b.shape));
  if (!ctx.expectSameType(ctx.outType(0), a.type, "output 0") ||
      !ctx.expectOutShape(0, {a.shape[0], b.shape[0]}))
    return ctx.error();
  View out = ctx.outView(0);
  // x1 down the rows, x2 across the columns: both broadcast to the output.
  View rows = a, cols = b;
  rows.shape = cols.shape = out.shape;
  rows.strides = {a.strides[0], 0};
  cols.strides = {0, b.strides[0]};
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    Loader<C> lb = loaderFor<C>(b.type);
    forEach<3>(out.shape, {&out, &rows, &cols}, [lb](const std::array<char *, 3> &p) {
      Elem<T>::store(p[0], mulC<C>(Elem<T>::load(p[1]), lb(p[2])));
    });
    return llvm::Error::success();
  });
}

const llvm::StringRef kClipAttrs[] = {"min", "max"};
const llvm::StringRef kPreluAttrs[] = {"axis"};
const llvm::StringRef kLeakyReluAttrs[] = {"alpha"};
const llvm::StringRef kSoftplusAttrs[] = {"beta", "threshold"};

} // namespace

void registerElementwiseKernels() {
  static const KernelInfo kernels[] = {
      {"graft.astype", 1, 1, {}, &astypeKernel},
      {"graft.clip", 1, 1, kClipAttrs, &clipKernel},
      {"graft.where", 3, 1, {}, &whereKernel},
      {"graft.ewise_fma", 3, 1, {}, &ewiseFmaKernel},
      {"graft.outer", 2, 1, {}, &outerKernel},
      {"graft.nn.leakyrelu", 1, 1, kLeakyReluAttrs, &leakyReluKernel},
      {"graft.nn.softplus", 1, 1, kSoftplusAttrs, &softplusKernel},
      {"graft.nn.prelu", 2, 1, kPreluAttrs, &preluKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
