//===- kernels/cuda/ElementwiseBinary.cu - Binary kernels of the op table ---===//

#include "kernels/cuda/Elementwise.cuh"

#include <cstdlib>
#include <cstring>

namespace graft::cuda {
namespace {

using ops::DTypeRule;

/// The dtype an op computes in (Relax's binary rule: a bool operand mixes
/// with any dtype), or Invalid after ctx.fail.
template <class Op> ScalarType opDType(Ctx &ctx, ScalarType at, ScalarType bt, ScalarType ot) {
  const DLTensor &a = ctx.in(0), &b = ctx.in(1);
  if constexpr (Op::rule == DTypeRule::Logical) {
    if (ot != ScalarType::Bool)
      ctx.fail("output must be bool, got " + dtypeName(ctx.out(0).dtype));
    return ot == ScalarType::Bool ? ScalarType::Bool : ScalarType::Invalid;
  } else if constexpr (Op::rule == DTypeRule::Compare) {
    if (at != bt && at != ScalarType::Bool && bt != ScalarType::Bool) {
      ctx.fail("inputs have different dtypes " + dtypeName(a.dtype) + " and " + dtypeName(b.dtype));
      return ScalarType::Invalid;
    }
    if (ot != ScalarType::Bool) {
      ctx.fail("output must be bool, got " + dtypeName(ctx.out(0).dtype));
      return ScalarType::Invalid;
    }
    return at == ScalarType::Bool ? bt : at;
  } else {
    for (ScalarType t : {at, bt})
      if (t != ot && t != ScalarType::Bool) {
        ctx.fail("input dtypes " + dtypeName(a.dtype) + " and " + dtypeName(b.dtype) +
                 " do not match the output's " + dtypeName(ctx.out(0).dtype));
        return ScalarType::Invalid;
      }
    if (!ops::accepts(Op::rule, ops::classOf(ot))) {
      ctx.fail("does not take dtype " + dtypeName(ctx.out(0).dtype));
      return ScalarType::Invalid;
    }
    return ot;
  }
}

template <class Op> int runBinary(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Op::symbol, err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &a = ctx.in(0), &b = ctx.in(1), &out = ctx.out(0);
  ScalarType at = scalarTypeOf(a.dtype), bt = scalarTypeOf(b.dtype);
  ScalarType dt = opDType<Op>(ctx, at, bt, scalarTypeOf(out.dtype));
  if (dt == ScalarType::Invalid)
    return 1;
  const DLTensor *ins[] = {&a, &b};
  Operands<3> general;
  if (!makeOperands<3>(ctx, out, ins, general))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(dt, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (ops::accepts(Op::rule, kClassOf<T>)) {
      using C = OpCompute<Op::rule, T>;
      using OutT = OpOut<Op::rule, T>;
      constexpr int V = vecWidth<T>();
      bool flat = at == dt && bt == dt && flatOperands(out, ins, 2);
      if (flat && n <= kTinyElems && tinyEnabled()) {
        binaryTiny<Op, T, OutT, C><<<tinyGrid(n), kThreads, 0, ctx.stream()>>>(
            reinterpret_cast<const T *>(dataOf(a)), reinterpret_cast<const T *>(dataOf(b)),
            reinterpret_cast<OutT *>(dataOf(out)), unsigned(n));
        return ctx.checkLaunch("binaryTiny");
      }
      if (flat && aligned(dataOf(a), sizeof(T) * V) && aligned(dataOf(b), sizeof(T) * V) &&
          aligned(dataOf(out), sizeof(OutT) * V)) {
        binaryFlat<Op, T, OutT, C, V><<<gridFor(n / V + 1, kThreads), kThreads, 0, ctx.stream()>>>(
            reinterpret_cast<const T *>(dataOf(a)), reinterpret_cast<const T *>(dataOf(b)),
            reinterpret_cast<OutT *>(dataOf(out)), n);
        return ctx.checkLaunch("binaryFlat");
      }
      ewGeneral<Op, C, OutT, 3>
          <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(general, dataOf(out), n);
      return ctx.checkLaunch("ewGeneral");
    }
    return ctx.fail("does not take dtype " + dtypeName(out.dtype));
  });
}

template <class Op> GraftCudaKernel binaryKernel() {
  return GraftCudaKernel{Op::symbol, 2, 1, nullptr, 0, runBinary<Op>, nullptr};
}

} // namespace

bool tinyEnabled() {
  const char *v = std::getenv("GRAFT_CUDA_TINY");
  return !v || std::strcmp(v, "0") != 0;
}

void addBinaryKernels(std::vector<GraftCudaKernel> &out) {
#define GRAFT_BINARY_OP(Name, ...) out.push_back(binaryKernel<ops::Name>());
#include "kernels/cpu/ElementwiseOps.def"
}

} // namespace graft::cuda
