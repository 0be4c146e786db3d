//===- kernels/cpu/Elementwise.cpp - Elementwise and creation kernels -----===//
//
// Binary ops (arithmetic, comparison, logical) with numpy broadcasting,
// unary math and activations, clip, astype, where, and the creation ops
// zeros/ones/full/arange. Each family is one template instantiated per op,
// so the op semantics live in the small apply functions.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/ElementwiseFunctors.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

using namespace ew;

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

constexpr const char *binSymbol(Bin op) {
  constexpr const char *names[] = {
      "graft.add",          "graft.subtract",      "graft.multiply",    "graft.divide",
      "graft.floor_divide", "graft.power",         "graft.maximum",     "graft.minimum",
      "graft.equal",        "graft.not_equal",     "graft.less",        "graft.less_equal",
      "graft.greater",      "graft.greater_equal", "graft.logical_and", "graft.logical_or"};
  return names[int(op)];
}

/// Runs fn(out, a, b) over the broadcast of inputs 0 and 1 into output 0,
/// where fn receives element pointers.
template <class Fn> llvm::Error runBinary(Ctx &ctx, Fn &&fn) {
  View out = ctx.outView(0);
  auto shape = broadcastShapes(ctx, {ctx.inView(0).shape, ctx.inView(1).shape});
  if (!shape || !ctx.expectOutShape(0, *shape))
    return ctx.error();
  auto a = ctx.broadcast(ctx.inView(0), out.shape, "input 0");
  auto b = ctx.broadcast(ctx.inView(1), out.shape, "input 1");
  if (!a || !b)
    return ctx.error();
  forEach<3>(out.shape, {&out, &*a, &*b}, fn);
  return llvm::Error::success();
}

/// Arithmetic: the output dtype is the computation dtype; an input is of
/// that dtype or bool (the Relax binary rule lets bool mix with any dtype).
template <Bin Op> llvm::Error arithKernel(Ctx &ctx) {
  ScalarType t = ctx.outType(0);
  if (t == ScalarType::Bool)
    return ctx.reject("does not take bool; cast to an integer type first");
  for (size_t i = 0; i < 2; ++i)
    if (ctx.inType(i) != t && ctx.inType(i) != ScalarType::Bool &&
        !ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    if constexpr (kIsBool<T>) {
      return llvm::Error::success(); // Rejected above.
    } else {
      Loader<C> la = loaderFor<C>(ctx.inType(0));
      Loader<C> lb = loaderFor<C>(ctx.inType(1));
      return runBinary(ctx, [&](const std::array<char *, 3> &p) {
        Elem<T>::store(p[0], applyArith<Op, C>(la(p[1]), lb(p[2])));
      });
    }
  });
}

/// Comparisons: inputs of one dtype (or one of them bool), output bool.
template <Bin Op> llvm::Error compareKernel(Ctx &ctx) {
  ScalarType ta = ctx.inType(0), tb = ctx.inType(1);
  if (ta != tb && ta != ScalarType::Bool && tb != ScalarType::Bool)
    return ctx.reject("input dtypes " + dtypeName(dlTypeOf(ta)) + " and " +
                      dtypeName(dlTypeOf(tb)) + " differ");
  if (!ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  ScalarType t = ta == ScalarType::Bool ? tb : ta;
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using C = Compute<typename decltype(tag)::type>;
    Loader<C> la = loaderFor<C>(ta), lb = loaderFor<C>(tb);
    return runBinary(ctx, [&](const std::array<char *, 3> &p) {
      Elem<bool>::store(p[0], applyCompare<Op, C>(la(p[1]), lb(p[2])));
    });
  });
}

/// logical_and/or: any input dtypes (nonzero is true), output bool.
template <Bin Op> llvm::Error logicalKernel(Ctx &ctx) {
  if (!ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  Loader<bool> la = loaderFor<bool>(ctx.inType(0));
  Loader<bool> lb = loaderFor<bool>(ctx.inType(1));
  return runBinary(ctx, [&](const std::array<char *, 3> &p) {
    bool x = la(p[1]), y = lb(p[2]);
    Elem<bool>::store(p[0], Op == Bin::And ? (x && y) : (x || y));
  });
}

template <Bin Op> llvm::Error binaryKernel(const KernelArgs &args) {
  Ctx ctx(args, binSymbol(Op));
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  if constexpr (binKind(Op) == BinKind::Arith)
    return arithKernel<Op>(ctx);
  else if constexpr (binKind(Op) == BinKind::Compare)
    return compareKernel<Op>(ctx);
  else
    return logicalKernel<Op>(ctx);
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

constexpr const char *unSymbol(Un op) {
  constexpr const char *names[] = {
      "graft.negative", "graft.abs",          "graft.nn.relu", "graft.floor", "graft.ceil",
      "graft.round",    "graft.exp",          "graft.log",     "graft.sqrt",  "graft.rsqrt",
      "graft.tanh",     "graft.sigmoid",      "graft.sin",     "graft.cos",   "graft.erf",
      "graft.nn.gelu",  "graft.nn.gelu_tanh", "graft.nn.silu"};
  return names[int(op)];
}

/// Maps input 0 to output 0 of the same shape with fn(dst, src).
template <class Fn> llvm::Error runUnary(Ctx &ctx, Fn &&fn) {
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  forEach<2>(out.shape, {&out, &in}, fn);
  return llvm::Error::success();
}

template <Un Op> llvm::Error unaryKernel(const KernelArgs &args) {
  Ctx ctx(args, unSymbol(Op));
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  constexpr bool floatOnly = Op >= Un::Exp;
  if (t == ScalarType::Bool || (floatOnly && !isFloatType(t)))
    return ctx.reject(llvm::Twine("takes ") + (floatOnly ? "a floating-point" : "a numeric") +
                      " tensor, got " + dtypeName(dlTypeOf(t)));
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    if constexpr (kIsBool<T> || (floatOnly && !kIsFloat<T>)) {
      return llvm::Error::success(); // Rejected above.
    } else {
      return runUnary(ctx, [](const std::array<char *, 2> &p) {
        Elem<T>::store(p[0], applyUnary<Op>(Elem<T>::load(p[1])));
      });
    }
  });
}

llvm::Error logicalNotKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.logical_not");
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  Loader<bool> l = loaderFor<bool>(ctx.inType(0));
  return runUnary(ctx, [l](const std::array<char *, 2> &p) { Elem<bool>::store(p[0], !l(p[1])); });
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

//===----------------------------------------------------------------------===//
// Creation ops
//===----------------------------------------------------------------------===//

/// Fills output 0 with value(i) for flat row-major index i.
template <class Fn> llvm::Error fillOutput(Ctx &ctx, Fn &&value) {
  View out = ctx.outView(0);
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    RowMajorCursor cur(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i, cur.next())
      Elem<T>::store(cur.get(), value.template operator()<Compute<T>>(i));
    return llvm::Error::success();
  });
}

template <int Value> llvm::Error constantKernel(const KernelArgs &args) {
  Ctx ctx(args, Value ? "graft.ones" : "graft.zeros");
  if (!ctx.checkArity(0, 1))
    return ctx.error();
  return fillOutput(ctx, []<class C>(int64_t) { return castTo<C>(Value); });
}

/// full(fill_value): input 0 holds one element of any dtype.
llvm::Error fullKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.full");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View v = ctx.inView(0);
  if (v.numel() != 1)
    return ctx.reject("fill value must hold one element, got shape " + shapeStr(v.shape));
  ScalarType vt = v.type;
  return fillOutput(ctx, [&]<class C>(int64_t) { return loaderFor<C>(vt)(v.data); });
}

/// arange(start, step) into a 1-D output: element i is start + i*step,
/// computed in int64 when both attrs are integers, else in double.
llvm::Error arangeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.arange");
  if (!ctx.checkArity(0, 1))
    return ctx.error();
  if (ctx.out(0).ndim != 1)
    return ctx.reject("output must be 1-D, got shape " + shapeStr(shapeOf(ctx.out(0))));
  bool ints = ctx.hasAttr(0) && ctx.hasAttr(1) && std::holds_alternative<int64_t>(*ctx.attr(0)) &&
              std::holds_alternative<int64_t>(*ctx.attr(1));
  double start = ctx.floatAttr(0, "start", 0.0), step = ctx.floatAttr(1, "step", 1.0);
  if (!ctx.ok())
    return ctx.error();
  int64_t istart = ints ? std::get<int64_t>(*ctx.attr(0)) : 0;
  int64_t istep = ints ? std::get<int64_t>(*ctx.attr(1)) : 0;
  return fillOutput(ctx, [&]<class C>(int64_t i) {
    if (ints)
      return castTo<C>(wrapAdd(istart, wrapMul(istep, i)));
    return castTo<C>(start + double(i) * step);
  });
}

const llvm::StringRef kClipAttrs[] = {"min", "max"};
const llvm::StringRef kArangeAttrs[] = {"start", "step"};

template <Bin Op> KernelInfo binInfo() { return {binSymbol(Op), 2, 1, {}, &binaryKernel<Op>}; }
template <Un Op> KernelInfo unInfo() { return {unSymbol(Op), 1, 1, {}, &unaryKernel<Op>}; }

} // namespace

void registerElementwiseKernels() {
  static const KernelInfo kernels[] = {
      binInfo<Bin::Add>(),
      binInfo<Bin::Sub>(),
      binInfo<Bin::Mul>(),
      binInfo<Bin::Div>(),
      binInfo<Bin::FloorDiv>(),
      binInfo<Bin::Pow>(),
      binInfo<Bin::Max>(),
      binInfo<Bin::Min>(),
      binInfo<Bin::Eq>(),
      binInfo<Bin::Ne>(),
      binInfo<Bin::Lt>(),
      binInfo<Bin::Le>(),
      binInfo<Bin::Gt>(),
      binInfo<Bin::Ge>(),
      binInfo<Bin::And>(),
      binInfo<Bin::Or>(),
      unInfo<Un::Neg>(),
      unInfo<Un::Abs>(),
      unInfo<Un::Relu>(),
      unInfo<Un::Floor>(),
      unInfo<Un::Ceil>(),
      unInfo<Un::Round>(),
      unInfo<Un::Exp>(),
      unInfo<Un::Log>(),
      unInfo<Un::Sqrt>(),
      unInfo<Un::Rsqrt>(),
      unInfo<Un::Tanh>(),
      unInfo<Un::Sigmoid>(),
      unInfo<Un::Sin>(),
      unInfo<Un::Cos>(),
      unInfo<Un::Erf>(),
      unInfo<Un::Gelu>(),
      unInfo<Un::GeluTanh>(),
      unInfo<Un::Silu>(),
      {"graft.logical_not", 1, 1, {}, &logicalNotKernel},
      {"graft.astype", 1, 1, {}, &astypeKernel},
      {"graft.clip", 1, 1, kClipAttrs, &clipKernel},
      {"graft.where", 3, 1, {}, &whereKernel},
      {"graft.zeros", 0, 1, {}, &constantKernel<0>},
      {"graft.ones", 0, 1, {}, &constantKernel<1>},
      {"graft.full", 1, 1, {}, &fullKernel},
      {"graft.arange", 0, 1, kArangeAttrs, &arangeKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
