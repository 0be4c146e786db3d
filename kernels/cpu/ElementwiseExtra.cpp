//===- kernels/cpu/ElementwiseExtra.cpp - More elementwise and like ops ---===//
//
// The elementwise ops beyond the core set: inverse and hyperbolic trig,
// trunc/sign/square, the isnan/isinf/isfinite predicates, integer bitwise
// ops and shifts, logical_xor, mod/floor_mod, the *_like creation ops and
// size. Same structure as Elementwise.cpp: one template per family, the op
// semantics in small apply functions.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/ElementwiseFunctors.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

using namespace ewx;

/// Maps input 0 to output 0 of the same shape with fn(ptrs).
template <class Fn> llvm::Error mapUnary(Ctx &ctx, Fn &&fn) {
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  forEach<2>(out.shape, {&out, &in}, fn);
  return llvm::Error::success();
}

/// Runs fn(ptrs) over the broadcast of inputs 0 and 1 into output 0.
template <class Fn> llvm::Error mapBinary(Ctx &ctx, Fn &&fn) {
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

//===----------------------------------------------------------------------===//
// Unary math
//===----------------------------------------------------------------------===//

constexpr const char *unSymbol(Un op) {
  constexpr const char *names[] = {"graft.trunc", "graft.sign", "graft.square", "graft.acos",
                                   "graft.acosh", "graft.asin", "graft.asinh",  "graft.atan",
                                   "graft.atanh", "graft.cosh", "graft.sinh",   "graft.tan"};
  return names[int(op)];
}

template <Un Op> llvm::Error unaryKernel(const KernelArgs &args) {
  Ctx ctx(args, unSymbol(Op));
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  constexpr bool floatOnly = Op >= Un::Acos;
  if (t == ScalarType::Bool || (floatOnly && !isFloatType(t)))
    return ctx.reject(llvm::Twine("takes ") + (floatOnly ? "a floating-point" : "a numeric") +
                      " tensor, got " + dtypeName(dlTypeOf(t)));
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    if constexpr (kIsBool<T> || (floatOnly && !kIsFloat<T>)) {
      return llvm::Error::success(); // Rejected above.
    } else {
      return mapUnary(ctx, [](const std::array<char *, 2> &p) {
        Elem<T>::store(p[0], applyUnary<Op>(Elem<T>::load(p[1])));
      });
    }
  });
}

//===----------------------------------------------------------------------===//
// Predicates: isnan, isinf, isfinite (any dtype in, bool out)
//===----------------------------------------------------------------------===//

enum class Pred { IsNan, IsInf, IsFinite };

constexpr const char *predSymbol(Pred op) {
  constexpr const char *names[] = {"graft.isnan", "graft.isinf", "graft.isfinite"};
  return names[int(op)];
}

template <Pred Op> llvm::Error predKernel(const KernelArgs &args) {
  Ctx ctx(args, predSymbol(Op));
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  return dispatch(ctx.inType(0), [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    return mapUnary(ctx, [](const std::array<char *, 2> &p) {
      bool r = Op == Pred::IsFinite; // Integers and bool: finite, not NaN/inf.
      if constexpr (kIsFloat<T>) {
        Compute<T> x = Elem<T>::load(p[1]);
        r = Op == Pred::IsNan   ? std::isnan(x)
            : Op == Pred::IsInf ? std::isinf(x)
                                : std::isfinite(x);
      }
      Elem<bool>::store(p[0], r);
    });
  });
}

//===----------------------------------------------------------------------===//
// Integer binary ops: bitwise, shifts; mod and floor_mod (also float)
//===----------------------------------------------------------------------===//

constexpr const char *binSymbol(Bin op) {
  constexpr const char *names[] = {"graft.bitwise_and", "graft.bitwise_or",  "graft.bitwise_xor",
                                   "graft.left_shift",  "graft.right_shift", "graft.mod",
                                   "graft.floor_mod"};
  return names[int(op)];
}

/// Output dtype = computation dtype; inputs of that dtype or bool, as the
/// arithmetic binary ops.
template <Bin Op> llvm::Error binaryKernel(const KernelArgs &args) {
  Ctx ctx(args, binSymbol(Op));
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  ScalarType t = ctx.outType(0);
  if (!takesType<Op>(t))
    return ctx.reject("does not take " + dtypeName(dlTypeOf(t)));
  for (size_t i = 0; i < 2; ++i)
    if (ctx.inType(i) != t && ctx.inType(i) != ScalarType::Bool &&
        !ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    Loader<C> la = loaderFor<C>(ctx.inType(0));
    Loader<C> lb = loaderFor<C>(ctx.inType(1));
    return mapBinary(ctx, [&](const std::array<char *, 3> &p) {
      if constexpr (kIsBool<T>) {
        bool x = la(p[1]), y = lb(p[2]);
        Elem<bool>::store(p[0], Op == Bin::And ? (x && y) : Op == Bin::Or ? (x || y) : (x != y));
      } else {
        Elem<T>::store(p[0], applyBin<Op, C>(la(p[1]), lb(p[2])));
      }
    });
  });
}

/// bitwise_not: integers (two's complement) and bool (logical not).
llvm::Error bitwiseNotKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.bitwise_not");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (isFloatType(t))
    return ctx.reject("takes an integer or bool tensor, got " + dtypeName(dlTypeOf(t)));
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    return mapUnary(ctx, [](const std::array<char *, 2> &p) {
      if constexpr (kIsBool<T>)
        Elem<bool>::store(p[0], !Elem<bool>::load(p[1]));
      else if constexpr (kIsInt<T>)
        Elem<T>::store(p[0], T(~Elem<T>::load(p[1])));
    });
  });
}

/// logical_xor: any input dtypes (nonzero is true), output bool.
llvm::Error logicalXorKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.logical_xor");
  if (!ctx.checkArity(2, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  Loader<bool> la = loaderFor<bool>(ctx.inType(0));
  Loader<bool> lb = loaderFor<bool>(ctx.inType(1));
  return mapBinary(
      ctx, [&](const std::array<char *, 3> &p) { Elem<bool>::store(p[0], la(p[1]) != lb(p[2])); });
}

//===----------------------------------------------------------------------===//
// Creation from a template tensor; size
//===----------------------------------------------------------------------===//

/// Fills output 0, of input 0's shape, with one value of any dtype.
llvm::Error fillLike(Ctx &ctx, const View *value) {
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    // zeros_like/ones_like pass no value view: the symbol says which.
    C v = value ? loaderFor<C>(value->type)(value->data)
                : castTo<C>(ctx.symbol == "graft.ones_like" ? 1 : 0);
    forEach<1>(out.shape, {&out}, [v](const std::array<char *, 1> &p) { Elem<T>::store(p[0], v); });
    return llvm::Error::success();
  });
}

template <int Value> llvm::Error constantLikeKernel(const KernelArgs &args) {
  Ctx ctx(args, Value ? "graft.ones_like" : "graft.zeros_like");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  return fillLike(ctx, nullptr);
}

/// full_like(x, fill_value): fill_value holds one element of any dtype.
llvm::Error fullLikeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.full_like");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View v = ctx.inView(1);
  if (v.numel() != 1)
    return ctx.reject("fill value must hold one element, got shape " + shapeStr(v.shape));
  return fillLike(ctx, &v);
}

/// size(x): x's element count into a 0-d int64.
llvm::Error sizeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.size");
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Int64, "output 0") ||
      !ctx.expectOutShape(0, {}))
    return ctx.error();
  Elem<int64_t>::store(ctx.outView(0).data, ctx.inView(0).numel());
  return llvm::Error::success();
}

template <Un Op> KernelInfo unInfo() { return {unSymbol(Op), 1, 1, {}, &unaryKernel<Op>}; }
template <Pred Op> KernelInfo predInfo() { return {predSymbol(Op), 1, 1, {}, &predKernel<Op>}; }
template <Bin Op> KernelInfo binInfo() { return {binSymbol(Op), 2, 1, {}, &binaryKernel<Op>}; }

} // namespace

void registerElementwiseExtraKernels() {
  static const KernelInfo kernels[] = {
      unInfo<Un::Trunc>(),
      unInfo<Un::Sign>(),
      unInfo<Un::Square>(),
      unInfo<Un::Acos>(),
      unInfo<Un::Acosh>(),
      unInfo<Un::Asin>(),
      unInfo<Un::Asinh>(),
      unInfo<Un::Atan>(),
      unInfo<Un::Atanh>(),
      unInfo<Un::Cosh>(),
      unInfo<Un::Sinh>(),
      unInfo<Un::Tan>(),
      predInfo<Pred::IsNan>(),
      predInfo<Pred::IsInf>(),
      predInfo<Pred::IsFinite>(),
      binInfo<Bin::And>(),
      binInfo<Bin::Or>(),
      binInfo<Bin::Xor>(),
      binInfo<Bin::Shl>(),
      binInfo<Bin::Shr>(),
      binInfo<Bin::Mod>(),
      binInfo<Bin::FloorMod>(),
      {"graft.bitwise_not", 1, 1, {}, &bitwiseNotKernel},
      {"graft.logical_xor", 2, 1, {}, &logicalXorKernel},
      {"graft.zeros_like", 1, 1, {}, &constantLikeKernel<0>},
      {"graft.ones_like", 1, 1, {}, &constantLikeKernel<1>},
      {"graft.full_like", 2, 1, {}, &fullLikeKernel},
      {"graft.size", 1, 1, {}, &sizeKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
