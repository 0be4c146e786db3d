//===- kernels/cpu/BinaryOps.cpp - Binary rows of the elementwise table ---===//
//
// One kernel template for every GRAFT_BINARY_OP row of ElementwiseOps.def,
// with numpy broadcasting of inputs 0 and 1 into output 0. The row's dtype
// rule picks the checks: a same-dtype rule computes in the output's dtype
// (each input of that dtype or bool), Compare in the inputs' common dtype,
// Logical on truth values.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/ElementwiseOps.h"

namespace graft::kernels::cpu {
namespace {

using namespace elementwise;

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

template <class Op> llvm::Error sameDTypeKernel(Ctx &ctx) {
  constexpr DTypeRule rule = Op::rule;
  ScalarType t = ctx.outType(0);
  if (!accepts(rule, classOf(t)))
    return ctx.reject("does not take " + dtypeName(dlTypeOf(t)) +
                      (rule == DTypeRule::Arithmetic ? "; cast to an integer type first" : ""));
  for (size_t i = 0; i < 2; ++i)
    if (ctx.inType(i) != t && ctx.inType(i) != ScalarType::Bool &&
        !ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    if constexpr (!accepts(rule, kClassOf<T>)) {
      return llvm::Error::success(); // Refused above.
    } else {
      Loader<C> la = loaderFor<C>(ctx.inType(0)), lb = loaderFor<C>(ctx.inType(1));
      return mapBinary(ctx, [&](const std::array<char *, 3> &p) {
        Elem<T>::store(p[0], C(Op::apply(la(p[1]), lb(p[2]))));
      });
    }
  });
}

template <class Op> llvm::Error compareKernel(Ctx &ctx) {
  ScalarType ta = ctx.inType(0), tb = ctx.inType(1);
  if (ta != tb && ta != ScalarType::Bool && tb != ScalarType::Bool)
    return ctx.reject("input dtypes " + dtypeName(dlTypeOf(ta)) + " and " +
                      dtypeName(dlTypeOf(tb)) + " differ");
  if (!ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  return dispatch(ta == ScalarType::Bool ? tb : ta, [&](auto tag) -> llvm::Error {
    using C = Compute<typename decltype(tag)::type>;
    Loader<C> la = loaderFor<C>(ta), lb = loaderFor<C>(tb);
    return mapBinary(ctx, [&](const std::array<char *, 3> &p) {
      Elem<bool>::store(p[0], bool(Op::apply(la(p[1]), lb(p[2]))));
    });
  });
}

template <class Op> llvm::Error logicalKernel(Ctx &ctx) {
  if (!ctx.expectSameType(ctx.outType(0), ScalarType::Bool, "output 0"))
    return ctx.error();
  Loader<bool> la = loaderFor<bool>(ctx.inType(0)), lb = loaderFor<bool>(ctx.inType(1));
  return mapBinary(ctx, [&](const std::array<char *, 3> &p) {
    Elem<bool>::store(p[0], bool(Op::apply(la(p[1]), lb(p[2]))));
  });
}

template <class Op> llvm::Error binaryKernel(const KernelArgs &args) {
  static_assert(Op::rule != DTypeRule::Predicate, "predicate is a unary rule");
  Ctx ctx(args, Op::symbol);
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  if constexpr (Op::rule == DTypeRule::Compare)
    return compareKernel<Op>(ctx);
  else if constexpr (Op::rule == DTypeRule::Logical)
    return logicalKernel<Op>(ctx);
  else
    return sameDTypeKernel<Op>(ctx);
}

} // namespace

void registerBinaryKernels() {
  static const KernelInfo kernels[] = {
#define GRAFT_BINARY_OP(Name, ...) {Name::symbol, Name::arity, 1, {}, &binaryKernel<Name>},
#include "kernels/cpu/ElementwiseOps.def"
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
