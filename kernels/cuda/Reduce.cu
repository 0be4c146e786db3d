//===- kernels/cuda/Reduce.cu - sum, mean, prod, max, min, arg*, variance ---===//
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
  awaitUpstream();
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

/// A reduction's iteration: one block per output (`kept`: output and input
/// byte offsets), `n` reduced elements each (`inner`, or consecutive).
struct ReducePlan {
  Indexer<2> kept;
  Indexer<1> inner;
  int64_t n = 1, outer = 1;
  bool contiguous = false;
};

/// Reads the axes (`oneAxis`: a single axis or unset, as argmax) and
/// keepdims, and checks the output's shape; false after ctx.fail.
bool planReduce(Ctx &ctx, bool oneAxis, ReducePlan &p) {
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  std::vector<int64_t> axes;
  bool set = false, keepdims = false;
  if (!ctx.intsAttr(0, "axis", axes, set) || !ctx.boolAttr(1, "keepdims", false, keepdims))
    return false;
  if (oneAxis && axes.size() > 1) {
    ctx.fail("takes one axis");
    return false;
  }
  bool reduced[kMaxDims] = {};
  for (int d = 0; d < x.ndim; ++d)
    reduced[d] = !set;
  for (int64_t a : axes) {
    if (a < -x.ndim || a >= x.ndim) {
      ctx.fail("axis " + std::to_string(a) + " is out of range for " + std::to_string(x.ndim) +
               " dims");
      return false;
    }
    int64_t d = a < 0 ? a + x.ndim : a;
    if (reduced[d]) {
      ctx.fail("axis " + std::to_string(a) + " is repeated");
      return false;
    }
    reduced[d] = true;
  }
  std::vector<int64_t> outShape;
  int64_t xs[kMaxDims], ys[kMaxDims];
  elementStrides(x, xs);
  elementStrides(out, ys);
  int64_t esize = x.dtype.bits / 8, osize = out.dtype.bits / 8;
  int od = 0;
  for (int d = 0; d < x.ndim; ++d) {
    if (!reduced[d] || keepdims)
      outShape.push_back(reduced[d] ? 1 : x.shape[d]);
    if (reduced[d]) {
      p.inner.shape[p.inner.ndim] = x.shape[d];
      p.inner.stride[0][p.inner.ndim++] = xs[d] * esize;
      p.n *= x.shape[d];
    } else if (od < out.ndim) {
      p.kept.shape[p.kept.ndim] = x.shape[d];
      p.kept.stride[1][p.kept.ndim] = xs[d] * esize;
      p.kept.stride[0][p.kept.ndim++] = ys[od] * osize;
      p.outer *= x.shape[d];
    }
    if (!reduced[d] || keepdims)
      ++od;
  }
  if (shapeStr(outShape.data(), int(outShape.size())) != shapeStr(out)) {
    ctx.fail("output has shape " + shapeStr(out) + " but the reduction gives " +
             shapeStr(outShape.data(), int(outShape.size())));
    return false;
  }
  // The reduced elements are consecutive when they are the trailing dims
  // of a compact input.
  p.contiguous = isCompact(x);
  for (int d = 0, seenReduced = 0; p.contiguous && d < x.ndim; ++d) {
    seenReduced |= reduced[d];
    p.contiguous = !seenReduced || reduced[d] || x.shape[d] == 1;
  }
  if (p.outer > INT32_MAX) {
    ctx.fail("more than 2^31 outputs");
    return false;
  }
  return true;
}

template <Red Op> int reduce(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, redSymbol(Op), err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  if (scalarTypeOf(out.dtype) != t)
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(x.dtype));
  bool order = Op == Red::Max || Op == Red::Min;
  if (t == ScalarType::Bool && !order)
    return ctx.fail("does not take bool");
  ReducePlan p;
  if (!planReduce(ctx, false, p))
    return 1;
  if (order && p.n == 0 && p.outer != 0)
    return ctx.fail("cannot reduce an empty axis (input shape " + shapeStr(x) + ")");
  if (p.outer == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    reduceKernel<Op, T><<<unsigned(p.outer), kReduceThreads, 0, ctx.stream()>>>(
        p.kept, p.inner, p.contiguous, p.n, dataOf(x), dataOf(out));
    return ctx.checkLaunch("reduceKernel");
  });
}

/// Byte offset of reduced element j of an output's inputs.
__device__ inline int64_t innerOffset(const Indexer<1> &inner, bool contiguous, int64_t j,
                                      int64_t esize) {
  if (contiguous)
    return j * esize;
  int64_t io[1];
  inner.offsets(j, io);
  return io[0];
}

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

template <class C> struct ArgPartial {
  C v;
  int64_t at; ///< -1: none yet.
};

/// The CPU's order: the first NaN wins, then the first max (min).
template <bool Max, class C> struct ArgCombine {
  __device__ ArgPartial<C> operator()(const ArgPartial<C> &x, const ArgPartial<C> &y) const {
    if (y.at < 0)
      return x;
    if (x.at < 0)
      return y;
    const ArgPartial<C> &first = x.at < y.at ? x : y, &second = x.at < y.at ? y : x;
    if constexpr (std::is_floating_point_v<C>) {
      bool fn = first.v != first.v, sn = second.v != second.v;
      if (fn || sn)
        return fn ? first : second;
    }
    bool secondWins = Max ? first.v < second.v : second.v < first.v;
    return secondWins ? second : first;
  }
};

template <bool Max, class T, class I>
__global__ void __launch_bounds__(kReduceThreads)
    argKernel(Indexer<2> kept, Indexer<1> inner, bool contiguous, int64_t n, const char *x,
              char *y) {
  awaitUpstream();
  using C = Compute<T>;
  using BlockReduce = cub::BlockReduce<ArgPartial<C>, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  int64_t off[2];
  kept.offsets(blockIdx.x, off);
  const char *base = x + off[1];
  ArgCombine<Max, C> combine;
  ArgPartial<C> acc{C(0), -1};
  for (int64_t j = threadIdx.x; j < n; j += kReduceThreads) {
    C v = loadElem<T>(
        reinterpret_cast<const T *>(base + innerOffset(inner, contiguous, j, sizeof(T))));
    acc = combine(acc, ArgPartial<C>{v, j});
  }
  ArgPartial<C> r = BlockReduce(temp).Reduce(acc, combine);
  if (threadIdx.x == 0)
    *reinterpret_cast<I *>(y + off[0]) = I(r.at < 0 ? 0 : r.at);
}

template <bool Max> int argReduce(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Max ? "graft.argmax" : "graft.argmin", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType ot = scalarTypeOf(out.dtype);
  if (ot != ScalarType::Int32 && ot != ScalarType::Int64)
    return ctx.fail("output 0 must be int32 or int64, got " + dtypeName(out.dtype));
  ReducePlan p;
  if (!planReduce(ctx, true, p))
    return 1;
  if (p.n == 0 && p.outer != 0)
    return ctx.fail("cannot reduce an empty axis (input shape " + shapeStr(x) + ")");
  if (p.outer == 0)
    return 0;
  return dispatch(scalarTypeOf(x.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    if (ot == ScalarType::Int32)
      argKernel<Max, T, int32_t><<<unsigned(p.outer), kReduceThreads, 0, ctx.stream()>>>(
          p.kept, p.inner, p.contiguous, p.n, dataOf(x), dataOf(out));
    else
      argKernel<Max, T, int64_t><<<unsigned(p.outer), kReduceThreads, 0, ctx.stream()>>>(
          p.kept, p.inner, p.contiguous, p.n, dataOf(x), dataOf(out));
    return ctx.checkLaunch("argKernel");
  });
}

//===----------------------------------------------------------------------===//
// variance, std
//===----------------------------------------------------------------------===//

/// Population variance by two passes (the mean, then squared deviations),
/// as the CPU kernel. Floats: a block per output, in the CPU's accumulator
/// type (float for the half types). Integers: in double by one thread in
/// the CPU's order, so the truncated result is the CPU's exactly.
template <bool Sqrt, class T>
__global__ void __launch_bounds__(kReduceThreads)
    varianceKernel(Indexer<2> kept, Indexer<1> inner, bool contiguous, int64_t n, const char *x,
                   char *y) {
  awaitUpstream();
  constexpr bool kFloat = kIsFloat<T>;
  using A = std::conditional_t<kFloat, Compute<T>, double>;
  using BlockReduce = cub::BlockReduce<A, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ A shared;
  int64_t off[2];
  kept.offsets(blockIdx.x, off);
  const char *base = x + off[1];
  auto load = [&](int64_t j) {
    return A(loadElem<T>(
        reinterpret_cast<const T *>(base + innerOffset(inner, contiguous, j, sizeof(T)))));
  };
  A v;
  if constexpr (kFloat) {
    A sum(0);
    for (int64_t j = threadIdx.x; j < n; j += kReduceThreads)
      sum += load(j);
    sum = BlockReduce(temp).Sum(sum);
    if (threadIdx.x == 0)
      shared = sum / A(n);
    __syncthreads();
    A mean = shared, sq(0);
    for (int64_t j = threadIdx.x; j < n; j += kReduceThreads) {
      A d = load(j) - mean;
      sq += d * d;
    }
    __syncthreads(); // temp is reused.
    sq = BlockReduce(temp).Sum(sq);
    v = sq / A(n);
  } else {
    if (threadIdx.x != 0)
      return;
    A sum(0), sq(0);
    for (int64_t j = 0; j < n; ++j)
      sum += load(j);
    A mean = sum / A(n);
    for (int64_t j = 0; j < n; ++j) {
      A d = load(j) - mean;
      sq += d * d;
    }
    v = sq / A(n);
  }
  if (threadIdx.x == 0)
    storeElem<T>(reinterpret_cast<T *>(y + off[0]), castTo<Compute<T>>(Sqrt ? sqrt(v) : v));
}

template <bool Sqrt> int variance(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Sqrt ? "graft.std" : "graft.variance", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  if (scalarTypeOf(out.dtype) != t)
    return ctx.fail("output dtype " + dtypeName(out.dtype) + " does not match the input's " +
                    dtypeName(x.dtype));
  if (t == ScalarType::Bool)
    return ctx.fail("does not take bool");
  ReducePlan p;
  if (!planReduce(ctx, false, p))
    return 1;
  if (p.outer == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>)
      varianceKernel<Sqrt, T><<<unsigned(p.outer), kReduceThreads, 0, ctx.stream()>>>(
          p.kept, p.inner, p.contiguous, p.n, dataOf(x), dataOf(out));
    return ctx.checkLaunch("varianceKernel");
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
  out.push_back({"graft.argmax", 1, 1, kReduceAttrs, 2, argReduce<true>, nullptr});
  out.push_back({"graft.argmin", 1, 1, kReduceAttrs, 2, argReduce<false>, nullptr});
  out.push_back({"graft.variance", 1, 1, kReduceAttrs, 2, variance<false>, nullptr});
  out.push_back({"graft.std", 1, 1, kReduceAttrs, 2, variance<true>, nullptr});
}

} // namespace graft::cuda
