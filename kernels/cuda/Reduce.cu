//===- kernels/cuda/Reduce.cu - sum, mean, prod, max, min -------------------===//
//
// One block per output element; its threads stride over the reduced
// elements (consecutive addresses when the reduced axes are the trailing
// dims of a compact tensor, the row sum case) and combine with
// cub::BlockReduce. Sums accumulate in float for the half types and in the
// dtype otherwise, integers wrapping, as the CPU kernels do; max and min
// let NaN win.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/ElementwiseOps.cuh"

#include <cub/block/block_reduce.cuh>

namespace graft::cuda {
namespace {

enum class Red { Sum, Mean, Prod, Max, Min };

constexpr const char *redSymbol(Red op) {
  constexpr const char *names[] = {"graft.sum", "graft.mean", "graft.prod", "graft.max",
                                   "graft.min"};
  return names[int(op)];
}

constexpr int kReduceThreads = 256;

template <class A> struct Partial {
  A v;
  bool valid;
};

template <Red Op, class A> __device__ Partial<A> combine(Partial<A> x, Partial<A> y) {
  if (!y.valid)
    return x;
  if (!x.valid)
    return y;
  if constexpr (Op == Red::Sum || Op == Red::Mean)
    return {ops::addC(x.v, y.v), true};
  else if constexpr (Op == Red::Prod)
    return {ops::mulC(x.v, y.v), true};
  else {
    if constexpr (std::is_floating_point_v<A>) {
      if (x.v != x.v)
        return x;
      if (y.v != y.v)
        return y;
    }
    bool yWins = Op == Red::Max ? x.v < y.v : y.v < x.v;
    return yWins ? y : x;
  }
}

template <Red Op, class A> struct Combine {
  __device__ Partial<A> operator()(const Partial<A> &x, const Partial<A> &y) const {
    return combine<Op, A>(x, y);
  }
};

/// Operand 0 of `kept` is the output, operand 1 the input (byte strides);
/// `inner` walks the reduced dims of the input (byte strides), unless the
/// reduced elements are consecutive (`contiguous`).
template <Red Op, class T>
__global__ void __launch_bounds__(kReduceThreads)
    reduceKernel(Indexer<2> kept, Indexer<1> inner, bool contiguous, int64_t n, const char *x,
                 char *y) {
  using A = Compute<T>;
  using BlockReduce = cub::BlockReduce<Partial<A>, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  int64_t off[2];
  kept.offsets(blockIdx.x, off);
  const char *base = x + off[1];
  Partial<A> acc{A(0), false};
  for (int64_t j = threadIdx.x; j < n; j += kReduceThreads) {
    int64_t o;
    if (contiguous) {
      o = j * int64_t(sizeof(T));
    } else {
      int64_t io[1];
      inner.offsets(j, io);
      o = io[0];
    }
    acc = combine<Op, A>(acc,
                         Partial<A>{A(loadElem<T>(reinterpret_cast<const T *>(base + o))), true});
  }
  Partial<A> r = BlockReduce(temp).Reduce(acc, Combine<Op, A>());
  if (threadIdx.x != 0)
    return;
  A v = r.valid ? r.v : A(Op == Red::Prod ? 1 : 0);
  if constexpr (Op == Red::Mean) {
    if constexpr (std::is_floating_point_v<A>)
      v = v / A(n);
    else
      v = n == 0 ? A(0) : A(int64_t(v) / n);
  }
  storeElem<T>(reinterpret_cast<T *>(y + off[0]), v);
}

template <Red Op> int reduce(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, redSymbol(Op), err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  std::vector<int64_t> axes;
  bool set = false, keepdims = false;
  if (!ctx.intsAttr(0, "axis", axes, set) || !ctx.boolAttr(1, "keepdims", false, keepdims))
    return 1;
  bool reduced[kMaxDims] = {};
  for (int d = 0; d < x.ndim; ++d)
    reduced[d] = !set;
  for (int64_t a : axes) {
    if (a < -x.ndim || a >= x.ndim)
      return ctx.fail("axis " + std::to_string(a) + " is out of range for " +
                      std::to_string(x.ndim) + " dims");
    int64_t d = a < 0 ? a + x.ndim : a;
    if (reduced[d])
      return ctx.fail("axis " + std::to_string(a) + " is repeated");
    reduced[d] = true;
  }
  if (scalarTypeOf(out.dtype) != t)
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(x.dtype));
  bool order = Op == Red::Max || Op == Red::Min;
  if (t == ScalarType::Bool && !order)
    return ctx.fail("does not take bool");
  // Output shape, and the kept and reduced iterations.
  std::vector<int64_t> outShape;
  int64_t xs[kMaxDims], ys[kMaxDims];
  elementStrides(x, xs);
  elementStrides(out, ys);
  Indexer<2> kept;
  Indexer<1> inner;
  int64_t n = 1, outer = 1, esize = x.dtype.bits / 8;
  int od = 0;
  for (int d = 0; d < x.ndim; ++d) {
    if (!reduced[d] || keepdims)
      outShape.push_back(reduced[d] ? 1 : x.shape[d]);
    if (reduced[d]) {
      inner.shape[inner.ndim] = x.shape[d];
      inner.stride[0][inner.ndim++] = xs[d] * esize;
      n *= x.shape[d];
    } else {
      kept.shape[kept.ndim] = x.shape[d];
      kept.stride[1][kept.ndim] = xs[d] * esize;
      kept.stride[0][kept.ndim++] = ys[od] * esize;
      outer *= x.shape[d];
    }
    if (!reduced[d] || keepdims)
      ++od;
  }
  if (shapeStr(outShape.data(), int(outShape.size())) != shapeStr(out))
    return ctx.fail("output has shape " + shapeStr(out) + " but the reduction gives " +
                    shapeStr(outShape.data(), int(outShape.size())));
  if (order && n == 0 && outer != 0)
    return ctx.fail("cannot reduce an empty axis (input shape " + shapeStr(x) + ")");
  if (outer == 0)
    return 0;
  // The reduced elements are consecutive when they are the trailing dims
  // of a compact input.
  bool contiguous = isCompact(x);
  for (int d = 0, seenReduced = 0; contiguous && d < x.ndim; ++d) {
    seenReduced |= reduced[d];
    contiguous = !seenReduced || reduced[d] || x.shape[d] == 1;
  }
  if (outer > INT32_MAX)
    return ctx.fail("more than 2^31 outputs");
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    reduceKernel<Op, T><<<unsigned(outer), kReduceThreads, 0, ctx.stream()>>>(
        kept, inner, contiguous, n, dataOf(x), dataOf(out));
    return ctx.checkLaunch("reduceKernel");
  });
}

const char *const kReduceAttrs[] = {"axis", "keepdims"};

} // namespace

void addReduceKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.sum", 1, 1, kReduceAttrs, 2, reduce<Red::Sum>, nullptr});
  out.push_back({"graft.mean", 1, 1, kReduceAttrs, 2, reduce<Red::Mean>, nullptr});
  out.push_back({"graft.prod", 1, 1, kReduceAttrs, 2, reduce<Red::Prod>, nullptr});
  out.push_back({"graft.max", 1, 1, kReduceAttrs, 2, reduce<Red::Max>, nullptr});
  out.push_back({"graft.min", 1, 1, kReduceAttrs, 2, reduce<Red::Min>, nullptr});
}

} // namespace graft::cuda
