//===- kernels/cuda/ElementwiseUnary.cu - Unary kernels of the op table -----===//

#include "kernels/cuda/Elementwise.cuh"

namespace graft::cuda {
namespace {

using ops::DTypeRule;

template <class Op> int runUnary(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Op::symbol, err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType xt = scalarTypeOf(x.dtype), ot = scalarTypeOf(out.dtype);
  if (!ops::accepts(Op::rule, ops::classOf(xt)))
    return ctx.fail("does not take dtype " + dtypeName(x.dtype));
  ScalarType want = ops::hasBoolResult(Op::rule) ? ScalarType::Bool : xt;
  if (ot != want)
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(x.dtype));
  const DLTensor *ins[] = {&x};
  Operands<2> general;
  if (!makeOperands<2>(ctx, out, ins, general))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(xt, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (ops::accepts(Op::rule, kClassOf<T>)) {
      using C = OpCompute<Op::rule, T>;
      using OutT = OpOut<Op::rule, T>;
      constexpr int V = vecWidth<T>();
      bool flat = flatOperands(out, ins, 1);
      if (flat && n <= kTinyElems && tinyEnabled()) {
        unaryTiny<Op, T, OutT, C><<<tinyGrid(n), kThreads, 0, ctx.stream()>>>(
            reinterpret_cast<const T *>(dataOf(x)), reinterpret_cast<OutT *>(dataOf(out)),
            unsigned(n));
        return ctx.checkLaunch("unaryTiny");
      }
      if (flat && aligned(dataOf(x), sizeof(T) * V) && aligned(dataOf(out), sizeof(OutT) * V)) {
        unaryFlat<Op, T, OutT, C, V><<<gridFor(n / V + 1, kThreads), kThreads, 0, ctx.stream()>>>(
            reinterpret_cast<const T *>(dataOf(x)), reinterpret_cast<OutT *>(dataOf(out)), n);
        return ctx.checkLaunch("unaryFlat");
      }
      ewGeneral<Op, C, OutT, 2>
          <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(general, dataOf(out), n);
      return ctx.checkLaunch("ewGeneral");
    }
    return 1; // Unreachable: accepts() was checked above.
  });
}

template <class Op> GraftCudaKernel unaryKernel() {
  return GraftCudaKernel{Op::symbol, 1, 1, nullptr, 0, runUnary<Op>, nullptr};
}

} // namespace

void addUnaryKernels(std::vector<GraftCudaKernel> &out) {
#define GRAFT_UNARY_OP(Name, ...) out.push_back(unaryKernel<ops::Name>());
#include "kernels/cpu/ElementwiseOps.def"
}

} // namespace graft::cuda
