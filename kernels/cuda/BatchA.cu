//===- kernels/cuda/BatchA.cu - stack, meshgrid, one_hot, outer, eye, ... prelu -===//
//
// The CUDA kernels of TVM's stack, meshgrid, one_hot, outer, eye/eye_like,
// hamming_window, ewise_fma, collapse_sum_like/_to and bucketize, and of the
// activations with attributes nn.leakyrelu, nn.softplus and nn.prelu, with
// the CPU kernels' results (kernels/cpu/Movement.cpp, Creation.cpp,
// Elementwise.cpp, Reduce.cpp, Sort.cpp). nn.selu and log_add_exp are rows
// of the elementwise table (ElementwiseUnary.cu, ElementwiseBinary.cu).
//
//  - stack and meshgrid are copies: each input into a strided view of its
//    output (a slice of the new axis; the grid, stride 0 off the input's dim);
//  - one_hot, eye/eye_like, hamming_window: one thread per output element;
//  - outer, ewise_fma and the activations: one thread per output element in
//    the CPU kernels' compute types (float for the 16-bit floats), ewise_fma
//    through fma as the CPU's, so all but softplus give the CPU's bits;
//  - collapse_sum: one thread per output element sums its inputs in the CPU
//    kernel's order (row-major over the summed dims), so the bits match;
//  - bucketize: one thread per element bisects the boundaries as the CPU.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Elementwise.cuh"

#include <cmath>
#include <string>
#include <vector>

namespace graft::cuda {
namespace {

using graft::kernels::scalar::addC;
using graft::kernels::scalar::fmaC;
using graft::kernels::scalar::mulC;

/// Output i's byte offset for row-major index i over `shape`.
struct Strided {
  int ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t stride[kMaxDims] = {}; ///< Bytes.

  __device__ int64_t offset(int64_t i) const {
    int64_t off = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      int64_t q = i / shape[d];
      off += (i - q * shape[d]) * stride[d];
      i = q;
    }
    return off;
  }
};

Strided stridedOf(const DLTensor &t) {
  Strided s;
  int64_t strides[kMaxDims];
  elementStrides(t, strides);
  s.ndim = t.ndim;
  for (int d = 0; d < t.ndim; ++d) {
    s.shape[d] = t.shape[d];
    s.stride[d] = strides[d] * elemBytes(t);
  }
  return s;
}

int expectShape(Ctx &ctx, const DLTensor &out, const std::vector<int64_t> &shape,
                const char *role = "output") {
  bool same = out.ndim == int(shape.size());
  for (int d = 0; same && d < out.ndim; ++d)
    same = out.shape[d] == shape[d];
  if (!same)
    return ctx.fail(std::string(role) + " has shape " + shapeStr(out) + ", expected " +
                    shapeStr(shape.data(), int(shape.size())));
  return 0;
}

int expectDType(Ctx &ctx, const DLTensor &t, ScalarType want, const std::string &role) {
  if (scalarTypeOf(t.dtype) != want)
    return ctx.fail(role + " has dtype " + dtypeName(t.dtype) + ", expected " +
                    dtypeName(ctx.out(0).dtype));
  return 0;
}

/// A number attribute (int, float or bool; unset: 0) as compute type C.
template <class C> C numberAs(const Ctx &ctx, int i) {
  if (!ctx.hasAttr(i))
    return C(0);
  const GraftCudaAttr &a = ctx.attr(i);
  if (a.kind == GRAFT_CUDA_ATTR_FLOAT)
    return castTo<C>(a.f);
  if (a.kind == GRAFT_CUDA_ATTR_BOOL)
    return castTo<C>(a.i != 0);
  return castTo<C>(a.i);
}

//===----------------------------------------------------------------------===//
// stack, meshgrid
//===----------------------------------------------------------------------===//

int stack(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.stack", err);
  if (ctx.checkArity(-1, 1))
    return 1;
  if (ctx.numInputs() == 0)
    return ctx.fail("expects at least 1 input");
  const DLTensor &first = ctx.in(0), &out = ctx.out(0);
  int64_t axis = 0;
  if (!ctx.intAttr(0, "axis", 0, axis))
    return 1;
  int rank = first.ndim + 1;
  if (axis < -rank || axis >= rank)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(rank) + " dims");
  if (axis < 0)
    axis += rank;
  std::vector<int64_t> shape(first.shape, first.shape + first.ndim);
  shape.insert(shape.begin() + axis, int64_t(ctx.numInputs()));
  if (expectShape(ctx, out, shape))
    return 1;
  for (int i = 0; i < ctx.numInputs(); ++i) {
    const DLTensor &in = ctx.in(i);
    std::string role = "input " + std::to_string(i);
    if (expectDType(ctx, in, scalarTypeOf(out.dtype), role) ||
        expectShape(ctx, in, {first.shape, first.shape + first.ndim}, role.c_str()))
      return 1;
  }
  int64_t strides[kMaxDims], sub[kMaxDims];
  elementStrides(out, strides);
  for (int d = 0, k = 0; d < out.ndim; ++d)
    if (d != axis)
      sub[k++] = strides[d];
  for (int i = 0; i < ctx.numInputs(); ++i) {
    DLTensor dst = out;
    dst.ndim = first.ndim;
    dst.shape = first.shape;
    dst.strides = sub;
    dst.byte_offset += uint64_t(i * strides[axis] * elemBytes(out));
    if (int rc = copyView(ctx, dst, ctx.in(i)))
      return rc;
  }
  return 0;
}

int meshgrid(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.meshgrid", err);
  if (ctx.checkArity(-1, -1))
    return 1;
  std::string indexing = "ij";
  if (ctx.hasAttr(0)) {
    if (ctx.attr(0).kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'indexing' must be a string");
    indexing = ctx.attr(0).s;
  }
  if (indexing != "ij" && indexing != "xy")
    return ctx.fail("indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"");
  int n = ctx.numInputs();
  if (ctx.numOutputs() != n)
    return ctx.fail("takes one output per input, got " + std::to_string(ctx.numOutputs()) +
                    " outputs for " + std::to_string(n) + " inputs");
  if (n > kMaxDims)
    return ctx.fail("takes at most " + std::to_string(kMaxDims) + " inputs");
  bool swap = indexing == "xy" && n >= 2;
  auto gridDim = [swap](int i) { return swap && i < 2 ? 1 - i : i; };
  std::vector<int64_t> shape(n);
  for (int i = 0; i < n; ++i) {
    const DLTensor &in = ctx.in(i);
    if (in.ndim > 1)
      return ctx.fail("input " + std::to_string(i) + " must be 1-D, got shape " + shapeStr(in));
    shape[gridDim(i)] = in.ndim == 0 ? 1 : in.shape[0];
  }
  for (int i = 0; i < n; ++i) {
    const DLTensor &in = ctx.in(i), &out = ctx.out(i);
    std::string role = "output " + std::to_string(i);
    if (scalarTypeOf(out.dtype) != scalarTypeOf(in.dtype))
      return ctx.fail(role + " has dtype " + dtypeName(out.dtype) + ", expected " +
                      dtypeName(in.dtype));
    if (expectShape(ctx, out, shape, role.c_str()))
      return 1;
    int64_t inStride[kMaxDims], grid[kMaxDims] = {};
    elementStrides(in, inStride);
    grid[gridDim(i)] = in.ndim == 0 ? 0 : inStride[0];
    DLTensor src = in;
    src.ndim = n;
    src.shape = shape.data();
    src.strides = grid;
    if (int rc = copyView(ctx, out, src))
      return rc;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// one_hot, eye, hamming_window
//===----------------------------------------------------------------------===//

/// Output element i: on where its index along `axis` equals the index at
/// its other coordinates.
template <class T>
__global__ void oneHotKernel(Strided out, Strided idx, int axis, const char *indices,
                             ScalarType idxType, char *dst, Compute<T> on, Compute<T> off,
                             int64_t n) {
  awaitUpstream();
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t rest = i, to = 0, from = 0, at = 0;
    for (int d = out.ndim - 1; d >= 0; --d) {
      int64_t q = rest / out.shape[d], r = rest - q * out.shape[d];
      rest = q;
      to += r * out.stride[d];
      if (d == axis)
        at = r;
      else
        from += r * idx.stride[d < axis ? d : d - 1];
    }
    int64_t v = loadAs<int64_t>(indices + from, idxType);
    storeElem<T>(reinterpret_cast<T *>(dst + to), v == at ? on : off);
  }
}

int oneHot(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.one_hot", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &idx = ctx.in(0), &out = ctx.out(0);
  ScalarType it = scalarTypeOf(idx.dtype);
  if (it == ScalarType::Bool || isFloatType(it))
    return ctx.fail("takes integer indices, got " + dtypeName(idx.dtype));
  int64_t depth = 0, axis = -1;
  if (!ctx.intAttr(2, "depth", 0, depth) || !ctx.intAttr(3, "axis", -1, axis))
    return 1;
  int rank = idx.ndim + 1;
  if (axis < -rank || axis >= rank)
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                    std::to_string(rank) + " dims");
  if (axis < 0)
    axis += rank;
  std::vector<int64_t> shape(idx.shape, idx.shape + idx.ndim);
  shape.insert(shape.begin() + axis, depth);
  if (expectShape(ctx, out, shape))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  Strided o = stridedOf(out), x = stridedOf(idx);
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    using C = Compute<T>;
    oneHotKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        o, x, int(axis), dataOf(idx), it, dataOf(out), numberAs<C>(ctx, 0), numberAs<C>(ctx, 1), n);
    return ctx.checkLaunch("oneHotKernel");
  });
}

template <class T> __global__ void eyeKernel(Strided out, char *dst, int64_t k, int64_t n) {
  awaitUpstream();
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t row = i / out.shape[1], col = i - row * out.shape[1];
    storeElem<T>(reinterpret_cast<T *>(dst + out.offset(i)),
                 castTo<Compute<T>>(col - row == k ? 1 : 0));
  }
}

template <bool Like> int eye(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Like ? "graft.eye_like" : "graft.eye", err);
  if (ctx.checkArity(0, 1))
    return 1;
  const DLTensor &out = ctx.out(0);
  if (out.ndim != 2)
    return ctx.fail("output must be 2-D, got shape " + shapeStr(out));
  int64_t k = 0;
  if (!ctx.intAttr(0, "k", 0, k))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  Strided o = stridedOf(out);
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    eyeKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(o, dataOf(out), k, n);
    return ctx.checkLaunch("eyeKernel");
  });
}

/// alpha - beta * cos(2 pi i / denom) in double, rounded once (as the CPU).
template <class T>
__global__ void hammingKernel(Strided out, char *dst, double alpha, double beta, double denom,
                              int64_t n) {
  awaitUpstream();
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    double v = n == 1 ? 1.0 : alpha - beta * cos(2.0 * M_PI * double(i) / denom);
    storeElem<T>(reinterpret_cast<T *>(dst + out.offset(i)), castTo<Compute<T>>(v));
  }
}

int hammingWindow(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.hamming_window", err);
  if (ctx.checkArity(0, 1))
    return 1;
  const DLTensor &out = ctx.out(0);
  if (out.ndim != 1)
    return ctx.fail("output must be 1-D, got shape " + shapeStr(out));
  ScalarType t = scalarTypeOf(out.dtype);
  if (!isFloatType(t))
    return ctx.fail("takes a float output, got " + dtypeName(out.dtype));
  bool periodic = false;
  double alpha = 0, beta = 0;
  if (!ctx.boolAttr(0, "periodic", false, periodic) || !ctx.floatAttr(1, "alpha", 0, alpha) ||
      !ctx.floatAttr(2, "beta", 0, beta))
    return 1;
  int64_t n = out.shape[0];
  if (n == 0)
    return 0;
  Strided o = stridedOf(out);
  double denom = double(periodic ? n : n - 1);
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      hammingKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(o, dataOf(out), alpha,
                                                                            beta, denom, n);
      return ctx.checkLaunch("hammingKernel");
    } else {
      return ctx.fail("takes a float output");
    }
  });
}

//===----------------------------------------------------------------------===//
// outer, ewise_fma
//===----------------------------------------------------------------------===//

/// out[i, j] = a[i] * b[j]; b converted to the output's compute type.
template <class T>
__global__ void outerKernel(Indexer<3> idx, const char *a, const char *b, ScalarType bType,
                            char *dst, int64_t n) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[3];
    idx.offsets(i, off);
    C x = loadElem<T>(reinterpret_cast<const T *>(a + off[1]));
    storeElem<T>(reinterpret_cast<T *>(dst + off[0]), mulC<C>(x, loadAs<C>(b + off[2], bType)));
  }
}

int outer(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.outer", err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &a = ctx.in(0), &b = ctx.in(1), &out = ctx.out(0);
  if (a.ndim != 1 || b.ndim != 1)
    return ctx.fail("takes two 1-D inputs, got shapes " + shapeStr(a) + " and " + shapeStr(b));
  if (expectDType(ctx, a, scalarTypeOf(out.dtype), "input 0") ||
      expectShape(ctx, out, {a.shape[0], b.shape[0]}))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  int64_t sa[kMaxDims], sb[kMaxDims];
  elementStrides(a, sa);
  elementStrides(b, sb);
  Strided o = stridedOf(out);
  Indexer<3> idx;
  idx.ndim = 2;
  for (int d = 0; d < 2; ++d) {
    idx.shape[d] = out.shape[d];
    idx.stride[0][d] = o.stride[d];
  }
  idx.stride[1][0] = sa[0] * elemBytes(a);
  idx.stride[2][1] = sb[0] * elemBytes(b);
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    outerKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        idx, dataOf(a), dataOf(b), scalarTypeOf(b.dtype), dataOf(out), n);
    return ctx.checkLaunch("outerKernel");
  });
}

template <class T> __global__ void fmaKernel(Operands<4> ops, char *dst, int64_t n) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[4];
    ops.idx.offsets(i, off);
    C x[3];
    for (int k = 0; k < 3; ++k)
      x[k] = loadElem<T>(reinterpret_cast<const T *>(ops.in[k] + off[k + 1]));
    storeElem<T>(reinterpret_cast<T *>(dst + off[0]), fmaC<C>(x[0], x[1], x[2]));
  }
}

int ewiseFma(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.ewise_fma", err);
  if (ctx.checkArity(3, 1))
    return 1;
  const DLTensor &out = ctx.out(0);
  const DLTensor *ins[] = {&ctx.in(0), &ctx.in(1), &ctx.in(2)};
  for (int k = 0; k < 3; ++k) {
    std::string role = "input " + std::to_string(k);
    if (expectDType(ctx, *ins[k], scalarTypeOf(out.dtype), role) ||
        expectShape(ctx, *ins[k], {out.shape, out.shape + out.ndim}, role.c_str()))
      return 1;
  }
  Operands<4> ops;
  if (!makeOperands<4>(ctx, out, ins, ops))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(scalarTypeOf(out.dtype), [&](auto tag) -> int {
    using T = decltype(tag);
    fmaKernel<T><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n);
    return ctx.checkLaunch("fmaKernel");
  });
}

//===----------------------------------------------------------------------===//
// nn.leakyrelu, nn.softplus, nn.prelu
//===----------------------------------------------------------------------===//

enum class Act : int { LeakyRelu, Softplus, Prelu };

/// The activation of x (and alpha, for prelu) in compute type C, as the
/// CPU kernels write it.
template <Act A, class C> __device__ C activate(C x, C alpha, C beta, C threshold) {
  if constexpr (A == Act::Softplus) {
    C bx = beta * x;
    return bx > threshold ? x : C(log1p(exp(bx)) / beta);
  } else {
    return x > C(0) ? x : alpha * x;
  }
}

template <Act A, class T>
__global__ void activationKernel(Operands<3> ops, char *dst, int64_t n, Compute<T> p0,
                                 Compute<T> p1) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[3];
    ops.idx.offsets(i, off);
    C x = loadElem<T>(reinterpret_cast<const T *>(ops.in[0] + off[1]));
    C alpha = A == Act::Prelu ? loadElem<T>(reinterpret_cast<const T *>(ops.in[1] + off[2])) : p0;
    storeElem<T>(reinterpret_cast<T *>(dst + off[0]), activate<A, C>(x, alpha, p0, p1));
  }
}

template <Act A> int activation(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  constexpr const char *names[] = {"graft.nn.leakyrelu", "graft.nn.softplus", "graft.nn.prelu"};
  Ctx ctx(args, names[int(A)], err);
  constexpr int numIn = A == Act::Prelu ? 2 : 1;
  if (ctx.checkArity(numIn, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(x.dtype);
  if (expectDType(ctx, out, t, "output 0"))
    return 1;
  if (!isFloatType(t))
    return ctx.fail("takes a float tensor, got " + dtypeName(x.dtype));
  if (expectShape(ctx, out, {x.shape, x.shape + x.ndim}))
    return 1;
  double p0 = 0, p1 = 0;
  // Operand 2 is prelu's alpha, stride 0 off the axis; unused otherwise.
  Strided o = stridedOf(out), xs = stridedOf(x);
  Operands<3> ops;
  ops.idx.ndim = out.ndim;
  for (int d = 0; d < out.ndim; ++d) {
    ops.idx.shape[d] = out.shape[d];
    ops.idx.stride[0][d] = o.stride[d];
    ops.idx.stride[1][d] = xs.stride[d];
  }
  ops.in[0] = dataOf(x);
  ops.type[0] = t;
  if constexpr (A == Act::Prelu) {
    const DLTensor &alpha = ctx.in(1);
    int64_t axis = 1;
    if (!ctx.intAttr(0, "axis", 1, axis))
      return 1;
    if (axis < -x.ndim || axis >= x.ndim)
      return ctx.fail("axis " + std::to_string(axis) + " is out of range for " +
                      std::to_string(x.ndim) + " dims");
    if (axis < 0)
      axis += x.ndim;
    if (expectDType(ctx, alpha, t, "input 1"))
      return 1;
    if (alpha.ndim != 1 || alpha.shape[0] != x.shape[axis])
      return ctx.fail("alpha must be 1-D of length " + std::to_string(x.shape[axis]) +
                      " (the axis's extent)");
    Strided as = stridedOf(alpha);
    ops.idx.stride[2][axis] = as.stride[0];
    ops.in[1] = dataOf(alpha);
    ops.type[1] = t;
  } else if constexpr (A == Act::LeakyRelu) {
    if (!ctx.floatAttr(0, "alpha", 0.01, p0))
      return 1;
  } else {
    if (!ctx.floatAttr(0, "beta", 1.0, p0) || !ctx.floatAttr(1, "threshold", 20.0, p1))
      return 1;
  }
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    if constexpr (kIsFloat<T>) {
      using C = Compute<T>;
      activationKernel<A, T>
          <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(ops, dataOf(out), n, C(p0), C(p1));
      return ctx.checkLaunch("activationKernel");
    } else {
      return ctx.fail("takes a float tensor");
    }
  });
}

//===----------------------------------------------------------------------===//
// collapse_sum_like/_to
//===----------------------------------------------------------------------===//

/// Kept dims (one output element each) and summed dims of the input.
struct CollapsePlan {
  int nk = 0, nr = 0;
  int64_t keptShape[kMaxDims], keptIn[kMaxDims], keptOut[kMaxDims]; ///< Byte strides.
  int64_t redShape[kMaxDims], redIn[kMaxDims];
};

template <class T>
__global__ void collapseKernel(CollapsePlan p, const char *src, char *dst, int64_t n,
                               int64_t inner) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t rest = i, from = 0, to = 0;
    for (int d = p.nk - 1; d >= 0; --d) {
      int64_t q = rest / p.keptShape[d], r = rest - q * p.keptShape[d];
      rest = q;
      from += r * p.keptIn[d];
      to += r * p.keptOut[d];
    }
    C acc = C(0);
    for (int64_t j = 0; j < inner; ++j) {
      int64_t at = from, r2 = j;
      for (int d = p.nr - 1; d >= 0; --d) {
        int64_t q = r2 / p.redShape[d];
        at += (r2 - q * p.redShape[d]) * p.redIn[d];
        r2 = q;
      }
      acc = addC<C>(acc, loadElem<T>(reinterpret_cast<const T *>(src + at)));
    }
    storeElem<T>(reinterpret_cast<T *>(dst + to), acc);
  }
}

template <bool Like> int collapseSum(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, Like ? "graft.collapse_sum_like" : "graft.collapse_sum_to", err);
  if (ctx.checkArity(1, 1))
    return 1;
  const DLTensor &in = ctx.in(0), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(in.dtype);
  if (expectDType(ctx, out, t, "output 0"))
    return 1;
  if (t == ScalarType::Bool)
    return ctx.fail("does not take bool");
  std::string bad = "cannot collapse shape " + shapeStr(in) + " into " + shapeStr(out);
  int lead = in.ndim - out.ndim;
  for (int o = 0; o < -lead; ++o)
    if (out.shape[o] != 1)
      return ctx.fail(bad);
  Strided is = stridedOf(in), os = stridedOf(out);
  CollapsePlan p;
  int64_t inner = 1;
  for (int d = 0; d < in.ndim; ++d) {
    int o = d - lead;
    if (o < 0 || (out.shape[o] == 1 && in.shape[d] != 1)) {
      p.redShape[p.nr] = in.shape[d];
      p.redIn[p.nr++] = is.stride[d];
      inner *= in.shape[d];
      continue;
    }
    if (out.shape[o] != in.shape[d])
      return ctx.fail(bad);
    p.keptShape[p.nk] = in.shape[d];
    p.keptIn[p.nk] = is.stride[d];
    p.keptOut[p.nk++] = os.stride[o];
  }
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  return dispatch(t, [&](auto tag) -> int {
    using T = decltype(tag);
    collapseKernel<T>
        <<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(p, dataOf(in), dataOf(out), n, inner);
    return ctx.checkLaunch("collapseKernel");
  });
}

//===----------------------------------------------------------------------===//
// bucketize
//===----------------------------------------------------------------------===//

/// V: int64_t when both operands are integers or bool, else double.
template <class V, class OutT>
__global__ void bucketizeKernel(Operands<2> ops, const char *bounds, ScalarType bType,
                                int64_t bStride, int64_t nb, bool right, char *dst, int64_t n) {
  awaitUpstream();
  int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[2];
    ops.idx.offsets(i, off);
    V v = loadAs<V>(ops.in[0] + off[1], ops.type[0]);
    int64_t lo = 0, hi = nb;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      V b = loadAs<V>(bounds + mid * bStride, bType);
      if (right ? b <= v : b < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    *reinterpret_cast<OutT *>(dst + off[0]) = OutT(lo);
  }
}

int bucketize(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.bucketize", err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &x = ctx.in(0), &bounds = ctx.in(1), &out = ctx.out(0);
  bool right = false;
  if (!ctx.boolAttr(0, "right", false, right))
    return 1;
  if (bounds.ndim != 1)
    return ctx.fail("takes 1-D boundaries, got shape " + shapeStr(bounds));
  ScalarType ot = scalarTypeOf(out.dtype);
  if (ot != ScalarType::Int32 && ot != ScalarType::Int64)
    return ctx.fail("output 0 must be int32 or int64, got " + dtypeName(out.dtype));
  if (expectShape(ctx, out, {x.shape, x.shape + x.ndim}))
    return 1;
  const DLTensor *ins[] = {&x};
  Operands<2> ops;
  if (!makeOperands<2>(ctx, out, ins, ops))
    return 1;
  int64_t n = numel(out);
  if (n == 0)
    return 0;
  int64_t bs[kMaxDims];
  elementStrides(bounds, bs);
  int64_t bStride = bs[0] * elemBytes(bounds);
  ScalarType bt = scalarTypeOf(bounds.dtype);
  bool floats = isFloatType(scalarTypeOf(x.dtype)) || isFloatType(bt);
  auto launch = [&](auto zero, auto outZero) {
    using V = decltype(zero);
    using OutT = decltype(outZero);
    bucketizeKernel<V, OutT><<<gridFor(n, kThreads), kThreads, 0, ctx.stream()>>>(
        ops, dataOf(bounds), bt, bStride, bounds.shape[0], right, dataOf(out), n);
    return ctx.checkLaunch("bucketizeKernel");
  };
  if (floats)
    return ot == ScalarType::Int32 ? launch(0.0, int32_t(0)) : launch(0.0, int64_t(0));
  return ot == ScalarType::Int32 ? launch(int64_t(0), int32_t(0)) : launch(int64_t(0), int64_t(0));
}

const char *const kAxisAttrs[] = {"axis"};
const char *const kMeshgridAttrs[] = {"indexing"};
const char *const kOneHotAttrs[] = {"on_value", "off_value", "depth", "axis"};
const char *const kEyeAttrs[] = {"k"};
const char *const kHammingAttrs[] = {"periodic", "alpha", "beta"};
const char *const kLeakyReluAttrs[] = {"alpha"};
const char *const kSoftplusAttrs[] = {"beta", "threshold"};
const char *const kBucketizeAttrs[] = {"right"};

} // namespace

void addBatchAKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.stack", -1, 1, kAxisAttrs, 1, stack, nullptr});
  out.push_back({"graft.meshgrid", -1, -1, kMeshgridAttrs, 1, meshgrid, nullptr});
  out.push_back({"graft.one_hot", 1, 1, kOneHotAttrs, 4, oneHot, nullptr});
  out.push_back({"graft.eye", 0, 1, kEyeAttrs, 1, eye<false>, nullptr});
  out.push_back({"graft.eye_like", 0, 1, kEyeAttrs, 1, eye<true>, nullptr});
  out.push_back({"graft.hamming_window", 0, 1, kHammingAttrs, 3, hammingWindow, nullptr});
  out.push_back({"graft.outer", 2, 1, nullptr, 0, outer, nullptr});
  out.push_back({"graft.ewise_fma", 3, 1, nullptr, 0, ewiseFma, nullptr});
  out.push_back(
      {"graft.nn.leakyrelu", 1, 1, kLeakyReluAttrs, 1, activation<Act::LeakyRelu>, nullptr});
  out.push_back({"graft.nn.softplus", 1, 1, kSoftplusAttrs, 2, activation<Act::Softplus>, nullptr});
  out.push_back({"graft.nn.prelu", 2, 1, kAxisAttrs, 1, activation<Act::Prelu>, nullptr});
  out.push_back({"graft.collapse_sum_like", 1, 1, nullptr, 0, collapseSum<true>, nullptr});
  out.push_back({"graft.collapse_sum_to", 1, 1, nullptr, 0, collapseSum<false>, nullptr});
  out.push_back({"graft.bucketize", 2, 1, kBucketizeAttrs, 1, bucketize, nullptr});
}

} // namespace graft::cuda
