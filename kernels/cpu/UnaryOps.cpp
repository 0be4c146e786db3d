//===- kernels/cpu/UnaryOps.cpp - Unary rows of the elementwise table -----===//
//
// One kernel template for every GRAFT_UNARY_OP row of ElementwiseOps.def:
// the row's dtype rule picks the checks and the loop, its expression the
// value. Input 0 maps to output 0 of the same shape.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/ElementwiseOps.h"

namespace graft::kernels::cpu {
namespace {

using namespace elementwise;

/// The refusal of a same-dtype rule, e.g. "takes a floating-point tensor".
const char *unaryWants(DTypeRule r) {
  switch (r) {
  case DTypeRule::Float:
    return "a floating-point";
  case DTypeRule::IntOrBool:
    return "an integer or bool";
  case DTypeRule::Int:
    return "an integer";
  default:
    return "a numeric";
  }
}

/// Maps input 0 to output 0 of the same shape with fn(ptrs).
template <class Fn> llvm::Error mapUnary(Ctx &ctx, Fn &&fn) {
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  forEach<2>(out.shape, {&out, &in}, fn);
  return llvm::Error::success();
}

template <class Op> llvm::Error unaryKernel(const KernelArgs &args) {
  constexpr DTypeRule rule = Op::rule;
  static_assert(rule != DTypeRule::Compare, "compare is a binary rule");
  Ctx ctx(args, Op::symbol);
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.outType(0), hasBoolResult(rule) ? ScalarType::Bool : t, "output 0"))
    return ctx.error();
  if (!accepts(rule, classOf(t)))
    return ctx.reject(llvm::Twine("takes ") + unaryWants(rule) + " tensor, got " +
                      dtypeName(dlTypeOf(t)));
  if constexpr (rule == DTypeRule::Logical) {
    Loader<bool> l = loaderFor<bool>(t);
    return mapUnary(ctx, [l](const std::array<char *, 2> &p) {
      Elem<bool>::store(p[0], bool(Op::apply(l(p[1]))));
    });
  } else {
    return dispatch(t, [&](auto tag) -> llvm::Error {
      using T = typename decltype(tag)::type;
      using Out = std::conditional_t<hasBoolResult(Op::rule), bool, T>;
      if constexpr (!accepts(Op::rule, kClassOf<T>)) {
        return llvm::Error::success(); // Refused above.
      } else {
        return mapUnary(ctx, [](const std::array<char *, 2> &p) {
          Elem<Out>::store(p[0], Compute<Out>(Op::apply(Elem<T>::load(p[1]))));
        });
      }
    });
  }
}

} // namespace

void registerUnaryKernels() {
  static const KernelInfo kernels[] = {
#define GRAFT_UNARY_OP(Name, ...) {Name::symbol, Name::arity, 1, {}, &unaryKernel<Name>},
#include "kernels/cpu/ElementwiseOps.def"
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
