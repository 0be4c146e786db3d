//===- kernels/cuda/Elementwise.cuh - Elementwise kernels from the op table -*- CUDA -*-===//
//
// Three kernels per (op, dtype): a flat one for compact operands of one
// dtype and one shape, which moves 16 bytes per load and store; a tiny
// one for the same operands when they are few, one element per thread and
// nothing else (what a replayed graph of small kernels waits on, below);
// and a general one over byte strides that broadcasts, follows any layout
// and loads operands of another dtype (a bool operand of an arithmetic op).
// The tiny and flat kernels compute each element with the same conversions,
// so they give the same bits.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_ELEMENTWISE_CUH
#define GRAFT_KERNELS_CUDA_ELEMENTWISE_CUH

#include "kernels/cuda/ElementwiseOps.cuh"

namespace graft::cuda {

constexpr int kThreads = 256;

template <class T, int V> struct alignas(sizeof(T) * V) Vec { T v[V]; };

/// Elements per thread of the flat kernels: 16 bytes of the input type.
template <class T> constexpr int vecWidth() { return sizeof(T) >= 16 ? 1 : int(16 / sizeof(T)); }

template <class T>
inline constexpr ops::DTypeClass kClassOf = std::is_same_v<T, bool> ? ops::DTypeClass::Bool
                                            : kIsFloat<T>           ? ops::DTypeClass::Float
                                                                    : ops::DTypeClass::Int;

/// The compute type of an op of rule R running on storage type T.
template <ops::DTypeRule R, class T>
using OpCompute = std::conditional_t<R == ops::DTypeRule::Logical, bool, Compute<T>>;
/// The output storage type of an op of rule R running on T.
template <ops::DTypeRule R, class T>
using OpOut = std::conditional_t<ops::hasBoolResult(R), bool, T>;

template <class C, class T> __device__ inline C loadC(const T *p) {
  return castTo<C>(loadElem<T>(p));
}
template <class OutT, class R> __device__ inline void storeC(OutT *p, R v) {
  storeElem<OutT>(p, castTo<Compute<OutT>>(v));
}

template <class Op, class T, class OutT, class C, int V>
__global__ void __launch_bounds__(kThreads)
    unaryFlat(const T *__restrict__ x, OutT *__restrict__ out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t nv = n / V;
  for (int64_t i = first; i < nv; i += stride) {
    Vec<T, V> a = reinterpret_cast<const Vec<T, V> *>(x)[i];
    Vec<OutT, V> r;
#pragma unroll
    for (int k = 0; k < V; ++k)
      storeC(&r.v[k], Op::apply(loadC<C>(&a.v[k])));
    reinterpret_cast<Vec<OutT, V> *>(out)[i] = r;
  }
  for (int64_t i = nv * V + first; i < n; i += stride)
    storeC(&out[i], Op::apply(loadC<C>(&x[i])));
}

template <class Op, class T, class OutT, class C, int V>
__global__ void __launch_bounds__(kThreads)
    binaryFlat(const T *__restrict__ a, const T *__restrict__ b, OutT *__restrict__ out,
               int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t nv = n / V;
  for (int64_t i = first; i < nv; i += stride) {
    Vec<T, V> va = reinterpret_cast<const Vec<T, V> *>(a)[i];
    Vec<T, V> vb = reinterpret_cast<const Vec<T, V> *>(b)[i];
    Vec<OutT, V> r;
#pragma unroll
    for (int k = 0; k < V; ++k)
      storeC(&r.v[k], Op::apply(loadC<C>(&va.v[k]), loadC<C>(&vb.v[k])));
    reinterpret_cast<Vec<OutT, V> *>(out)[i] = r;
  }
  for (int64_t i = nv * V + first; i < n; i += stride)
    storeC(&out[i], Op::apply(loadC<C>(&a[i]), loadC<C>(&b[i])));
}

/// Operands of at most this many elements take the tiny kernels (16 blocks).
constexpr int64_t kTinyElems = 16 * kThreads;

/// Whether the tiny kernels are on: GRAFT_CUDA_TINY=0 sends those operands
/// to the flat kernels instead. Read on every call, so that one benchmark
/// process can capture both (graft-bench-cuda's BM_graphReplay).
bool tinyEnabled();

// The tiny kernels. In a replayed graph of small kernels each node costs
// the time from the end of the kernel before (awaitUpstream returns) to
// its own end, so everything after the wait is on that path: a 32-bit
// index, one element per thread, no loop (the flat kernels' grid-stride
// loops and 64-bit trip counts cost more than the element), 28 bytes of
// parameters, and plain loads.
template <class Op, class T, class OutT, class C>
__global__ void __launch_bounds__(kThreads) unaryTiny(const T *x, OutT *out, unsigned n) {
  awaitUpstream();
  unsigned i = blockIdx.x * kThreads + threadIdx.x;
  if (i < n)
    storeC(&out[i], Op::apply(loadC<C>(&x[i])));
}

template <class Op, class T, class OutT, class C>
__global__ void __launch_bounds__(kThreads)
    binaryTiny(const T *a, const T *b, OutT *out, unsigned n) {
  awaitUpstream();
  unsigned i = blockIdx.x * kThreads + threadIdx.x;
  if (i < n)
    storeC(&out[i], Op::apply(loadC<C>(&a[i]), loadC<C>(&b[i])));
}

/// Blocks of a tiny kernel over n elements.
inline unsigned tinyGrid(int64_t n) { return unsigned((n + kThreads - 1) / kThreads); }

/// Operand pointers, runtime dtypes and byte strides of the general path.
template <int N> struct Operands {
  Indexer<N> idx; ///< Byte strides; operand 0 is the output.
  const char *in[N - 1];
  ScalarType type[N - 1];
};

template <class Op, class C, class OutT, int N>
__global__ void __launch_bounds__(kThreads) ewGeneral(Operands<N> ops, char *out, int64_t n) {
  awaitUpstream();
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int64_t off[N];
    ops.idx.offsets(i, off);
    if constexpr (N == 2)
      storeC(reinterpret_cast<OutT *>(out + off[0]),
             Op::apply(loadAs<C>(ops.in[0] + off[1], ops.type[0])));
    else
      storeC(reinterpret_cast<OutT *>(out + off[0]),
             Op::apply(loadAs<C>(ops.in[0] + off[1], ops.type[0]),
                       loadAs<C>(ops.in[1] + off[2], ops.type[1])));
  }
}

/// Bytes per element of a dtype.
inline int64_t elemBytes(const DLTensor &t) { return (t.dtype.bits * t.dtype.lanes + 7) / 8; }

/// Operands<N> for `out` and `ins`, strides in bytes; false after ctx.fail.
template <int N>
bool makeOperands(Ctx &ctx, const DLTensor &out, const DLTensor *const *ins, Operands<N> &ops,
                  bool exact = true) {
  if (!makeIndexer<N>(ctx, out, ins, ops.idx, exact))
    return false;
  for (int d = 0; d < ops.idx.ndim; ++d)
    ops.idx.stride[0][d] *= elemBytes(out);
  for (int k = 0; k < N - 1; ++k) {
    for (int d = 0; d < ops.idx.ndim; ++d)
      ops.idx.stride[k + 1][d] *= elemBytes(*ins[k]);
    ops.in[k] = dataOf(*ins[k]);
    ops.type[k] = scalarTypeOf(ins[k]->dtype);
  }
  return true;
}

/// Output 0 <- `in` converted to the output's dtype, broadcast to its
/// shape (exactly its shape when `exact`); Creation.cu.
int convertInto(Ctx &ctx, const DLTensor &in, bool exact);

inline bool aligned(const void *p, size_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

/// The flat path applies: every operand compact, of the output's shape.
inline bool flatOperands(const DLTensor &out, const DLTensor *const *ins, int n) {
  if (!isCompact(out))
    return false;
  for (int k = 0; k < n; ++k) {
    if (!isCompact(*ins[k]) || ins[k]->ndim != out.ndim)
      return false;
    for (int d = 0; d < out.ndim; ++d)
      if (ins[k]->shape[d] != out.shape[d])
        return false;
  }
  return true;
}

} // namespace graft::cuda

#endif // GRAFT_KERNELS_CUDA_ELEMENTWISE_CUH
