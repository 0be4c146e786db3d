//===- kernels/cuda/SamplingVision.cu - multinomial sampling and NMS ------===//
//
// The CUDA kernels of multinomial_from_uniform and
// vision.all_class_non_max_suppression, with the CPU kernels' results
// (kernels/cpu/SamplingVision.cpp), correctness first:
//
//  - multinomial_from_uniform: one thread per sample walks its probability
//    row, summing in the prob dtype with the same roundings as the CPU
//    kernel (explicitly rounded adds: nothing contracts), and keeps the
//    index TVM's get_sample_index writes last. The sample indices are
//    range-checked as take's are (read back, skipped during a capture);
//  - all_class_non_max_suppression: one thread per (batch, class) row sorts
//    its scores (a stable bottom-up merge sort in the workspace), counts
//    the scores above the threshold and runs the greedy selection with
//    kernels/NmsIou.h's arithmetic; then one block lays the selections out
//    in the output format's order and zeroes the rest.
//
//===----------------------------------------------------------------------===//

#include "kernels/NmsIou.h"
#include "kernels/cuda/Common.cuh"

#include <string>

namespace graft::cuda {
namespace {

namespace nms = graft::kernels::nms;

constexpr int kThreads = 128;

void byteStrides(const DLTensor &t, int64_t *out) {
  elementStrides(t, out);
  for (int d = 0; d < t.ndim; ++d)
    out[d] *= (t.dtype.bits + 7) / 8;
}

bool isIntType(ScalarType t) {
  return t != ScalarType::Invalid && t != ScalarType::Bool && !isFloatType(t);
}

//===----------------------------------------------------------------------===//
// multinomial_from_uniform
//===----------------------------------------------------------------------===//

struct SamplePlan {
  const char *prob = nullptr, *u = nullptr, *idx = nullptr;
  char *out = nullptr;
  ScalarType uT = ScalarType::Float32, iT = ScalarType::Int64, oT = ScalarType::Int64;
  int64_t ps[2] = {}, us = 0, is = 0, os = 0; ///< Bytes.
  int64_t batch = 0, vocab = 0, n = 0;
};

__device__ inline float addRn(float a, float b) { return __fadd_rn(a, b); }
__device__ inline double addRn(double a, double b) { return __dadd_rn(a, b); }

template <class T> __global__ void __launch_bounds__(kThreads) multinomialKernel(SamplePlan p) {
  awaitUpstream();
  using C = Compute<T>;
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += stride) {
    int64_t row = loadAs<int64_t>(p.idx + i * p.is, p.iT);
    if (row < 0)
      row += p.batch;
    int64_t found = 0;
    if (row >= 0 && row < p.batch) {
      double u = loadAs<double>(p.u + i * p.us, p.uT), prev = 0;
      C acc = C(0);
      for (int64_t j = 0; j < p.vocab; ++j) {
        C x = loadElem(reinterpret_cast<const T *>(p.prob + row * p.ps[0] + j * p.ps[1]));
        // Each running sum rounds to the prob dtype, as the CPU kernel's.
        T sum = toStorage<T>(addRn(acc, x));
        acc = loadElem(&sum);
        double c = double(acc);
        if ((u < c || j + 1 == p.vocab) && (j == 0 || u >= prev))
          found = j;
        prev = c;
      }
    }
    storeAs(p.out + i * p.os, p.oT, found);
  }
}

size_t multinomialWorkspace(const GraftCudaKernelArgs *) { return 512; }

int multinomial(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.multinomial_from_uniform", err);
  if (int rc = ctx.checkArity(3, 1))
    return rc;
  const DLTensor &prob = ctx.in(0), &u = ctx.in(1), &idx = ctx.in(2), &out = ctx.out(0);
  ScalarType pT = scalarTypeOf(prob.dtype);
  SamplePlan p;
  p.uT = scalarTypeOf(u.dtype), p.iT = scalarTypeOf(idx.dtype), p.oT = scalarTypeOf(out.dtype);
  if (!isFloatType(pT) || !isFloatType(p.uT))
    return ctx.fail("takes float prob and uniform_sample, got " + dtypeName(prob.dtype) + " and " +
                    dtypeName(u.dtype));
  if (!isIntType(p.iT) || !isIntType(p.oT))
    return ctx.fail("takes integer sample_indices and output, got " + dtypeName(idx.dtype) +
                    " and " + dtypeName(out.dtype));
  if (prob.ndim != 2 || u.ndim != 2 || idx.ndim != 2 || u.shape[1] != 1 || idx.shape[1] != 1 ||
      idx.shape[0] != u.shape[0])
    return ctx.fail("expects prob (batch, vocab), uniform_sample and sample_indices (n, 1), got " +
                    shapeStr(prob) + ", " + shapeStr(u) + " and " + shapeStr(idx));
  if (out.ndim != 2 || out.shape[0] != u.shape[0] || out.shape[1] != 1)
    return ctx.fail("output has shape " + shapeStr(out) + ", expected (" +
                    std::to_string(u.shape[0]) + ", 1)");
  p.batch = prob.shape[0], p.vocab = prob.shape[1], p.n = u.shape[0];
  if (p.n == 0)
    return 0;
  IndexRange range{&idx, p.batch};
  BadIndex bad;
  if (int rc = findBadIndex(ctx, &range, 1, alignedBase(ctx.args().workspace), bad))
    return rc;
  if (bad.found)
    return ctx.fail("a sample index is " + std::to_string(bad.value) + ", out of range for " +
                    std::to_string(p.batch) + " distributions");
  int64_t st[kMaxDims];
  byteStrides(prob, p.ps);
  byteStrides(u, st);
  p.us = st[0];
  byteStrides(idx, st);
  p.is = st[0];
  byteStrides(out, st);
  p.os = st[0];
  p.prob = dataOf(prob), p.u = dataOf(u), p.idx = dataOf(idx), p.out = dataOf(out);
  unsigned grid = gridFor(p.n, kThreads);
  switch (pT) {
  case ScalarType::Float16:
    multinomialKernel<__half><<<grid, kThreads, 0, ctx.stream()>>>(p);
    break;
  case ScalarType::BFloat16:
    multinomialKernel<__nv_bfloat16><<<grid, kThreads, 0, ctx.stream()>>>(p);
    break;
  case ScalarType::Float32:
    multinomialKernel<float><<<grid, kThreads, 0, ctx.stream()>>>(p);
    break;
  default:
    multinomialKernel<double><<<grid, kThreads, 0, ctx.stream()>>>(p);
    break;
  }
  return ctx.checkLaunch("multinomialKernel");
}

//===----------------------------------------------------------------------===//
// all_class_non_max_suppression
//===----------------------------------------------------------------------===//

struct NmsPlan {
  const char *boxes = nullptr, *scores = nullptr, *maxOut = nullptr, *iouT = nullptr,
             *scoreT = nullptr;
  ScalarType bT = ScalarType::Float32, sT = ScalarType::Float32, mT = ScalarType::Int64,
             iT = ScalarType::Float32, tT = ScalarType::Float32;
  int64_t bs[3] = {}, ss[3] = {}; ///< Bytes.
  int64_t batch = 0, classes = 0, n = 0;
  /// Workspace, per row of n: order, merge buffer, selected boxes (int64);
  /// sorted scores, selected scores (double); then per row its count and
  /// its output offset.
  int64_t *order = nullptr, *buffer = nullptr, *selBox = nullptr, *count = nullptr,
          *offset = nullptr;
  double *sorted = nullptr, *selScore = nullptr;
  bool onnx = true;
  char *out[3] = {};
  int64_t os[3][3] = {}; ///< Bytes.
};

__device__ inline double scoreAt(const NmsPlan &p, int64_t b, int64_t c, int64_t j) {
  return loadAs<double>(p.scores + b * p.ss[0] + c * p.ss[1] + j * p.ss[2], p.sT);
}

__device__ inline void boxAt(const NmsPlan &p, int64_t b, int64_t i, double (&q)[4]) {
  for (int k = 0; k < 4; ++k)
    q[k] = loadAs<double>(p.boxes + b * p.bs[0] + i * p.bs[1] + k * p.bs[2], p.bT);
}

/// Sorts order[0, n) by score (nms::sortsBefore), stably: bottom-up merges
/// between `order` and `buf`, the result left in `order`.
__device__ void stableSortRow(const NmsPlan &p, int64_t b, int64_t c, int64_t *order,
                              int64_t *buf) {
  int64_t n = p.n;
  int64_t *src = order, *dst = buf;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi)
        dst[o++] = nms::sortsBefore(scoreAt(p, b, c, src[j]), scoreAt(p, b, c, src[i])) ? src[j++]
                                                                                        : src[i++];
      while (i < mid)
        dst[o++] = src[i++];
      while (j < hi)
        dst[o++] = src[j++];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != order)
    for (int64_t j = 0; j < n; ++j)
      order[j] = src[j];
}

__global__ void __launch_bounds__(kThreads) nmsRowsKernel(NmsPlan p) {
  awaitUpstream();
  int64_t rows = p.batch * p.classes, stride = int64_t(gridDim.x) * blockDim.x;
  int64_t maxOut = loadAs<int64_t>(p.maxOut, p.mT);
  double iouT = loadAs<double>(p.iouT, p.iT), scoreT = loadAs<double>(p.scoreT, p.tT);
  for (int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; row < rows; row += stride) {
    int64_t b = row / p.classes, c = row - b * p.classes, n = p.n;
    int64_t *order = p.order + row * n, *selBox = p.selBox + row * n;
    double *sorted = p.sorted + row * n, *selScore = p.selScore + row * n;
    for (int64_t j = 0; j < n; ++j)
      order[j] = j;
    stableSortRow(p, b, c, order, p.buffer + row * n);
    for (int64_t j = 0; j < n; ++j)
      sorted[j] = scoreAt(p, b, c, order[j]);
    int64_t valid = nms::countAbove(sorted, n, scoreT), picked = 0;
    if (iouT > 0 && valid > 0) {
      for (int64_t j = 0; j < valid; ++j) {
        if (!(sorted[j] > -1.0) || picked >= maxOut || !(sorted[j] > scoreT))
          continue;
        selBox[picked] = order[j];
        selScore[picked] = sorted[j];
        ++picked;
        double a[4];
        boxAt(p, b, order[j], a);
        for (int64_t k = j + 1; k < valid; ++k) {
          if (!(sorted[k] > 0))
            continue;
          double o[4];
          boxAt(p, b, order[k], o);
          if (nms::iou(a, o) >= iouT)
            sorted[k] = -1.0;
        }
      }
    }
    p.count[row] = picked;
  }
}

__device__ inline char *at(const NmsPlan &p, int which, int64_t i0, int64_t i1, int64_t i2) {
  return p.out[which] + i0 * p.os[which][0] + i1 * p.os[which][1] + i2 * p.os[which][2];
}

/// One block: offsets of each row's selections (thread 0), then every
/// selection to its place and zeros after the valid entries.
__global__ void __launch_bounds__(kThreads) nmsCollectKernel(NmsPlan p) {
  awaitUpstream();
  int64_t rows = p.batch * p.classes, n = p.n;
  if (threadIdx.x == 0) {
    int64_t run = 0;
    for (int64_t r = 0; r < rows; ++r) {
      if (!p.onnx && r % p.classes == 0)
        run = 0;
      p.offset[r] = run;
      run += p.count[r];
      if (!p.onnx && r % p.classes == p.classes - 1)
        storeAs(at(p, 2, r / p.classes, 0, 0), ScalarType::Int64, run);
    }
    if (p.onnx)
      storeAs(at(p, 1, 0, 0, 0), ScalarType::Int64, run);
  }
  __syncthreads();
  int64_t items = rows * n;
  for (int64_t item = threadIdx.x; item < items; item += blockDim.x) {
    int64_t r = item / n, j = item - r * n, b = r / p.classes, c = r - b * p.classes;
    if (p.onnx) {
      // Output row `item` is zero unless a selection lands on it below.
      for (int k = 0; k < 3; ++k)
        storeAs(at(p, 0, item, k, 0), ScalarType::Int64, int64_t(0));
    } else {
      // Entry j of batch b's (class, box) list, zero unless filled below.
      int64_t e = c * n + j;
      storeAs(at(p, 0, b, e, 0), ScalarType::Int64, int64_t(0));
      storeAs(at(p, 0, b, e, 1), ScalarType::Int64, int64_t(0));
      storeAs(at(p, 1, b, e, 0), ScalarType::Float32, 0.0);
    }
  }
  __syncthreads();
  for (int64_t item = threadIdx.x; item < items; item += blockDim.x) {
    int64_t r = item / n, j = item - r * n, b = r / p.classes, c = r - b * p.classes;
    if (j >= p.count[r])
      continue;
    int64_t dst = p.offset[r] + j, box = p.selBox[r * n + j];
    if (p.onnx) {
      storeAs(at(p, 0, dst, 0, 0), ScalarType::Int64, b);
      storeAs(at(p, 0, dst, 1, 0), ScalarType::Int64, c);
      storeAs(at(p, 0, dst, 2, 0), ScalarType::Int64, box);
    } else {
      storeAs(at(p, 0, b, dst, 0), ScalarType::Int64, c);
      storeAs(at(p, 0, b, dst, 1), ScalarType::Int64, box);
      storeAs(at(p, 1, b, dst, 0), ScalarType::Float32, p.selScore[r * n + j]);
    }
  }
}

/// Per row of n boxes: 4 arrays of n int64 or double and 2 more of n
/// (selected box and score), plus the count and offset.
size_t nmsWorkspace(const GraftCudaKernelArgs *args) {
  if (args->numInputs < 2 || args->inputs[0]->ndim != 3 || args->inputs[1]->ndim != 3)
    return 0;
  int64_t rows = args->inputs[0]->shape[0] * args->inputs[1]->shape[1];
  int64_t n = args->inputs[0]->shape[1];
  WorkspaceCarver w;
  for (int k = 0; k < 5; ++k)
    w.take(size_t(rows * n) * 8);
  w.take(size_t(rows) * 8);
  w.take(size_t(rows) * 8);
  return w.total();
}

int scalarParam(Ctx &ctx, int i, const char *name, bool integer) {
  const DLTensor &t = ctx.in(i);
  ScalarType s = scalarTypeOf(t.dtype);
  if (integer ? !isIntType(s) : !isFloatType(s))
    return ctx.fail(std::string(name) + " must be " + (integer ? "an integer" : "a float") +
                    " tensor, got " + dtypeName(t.dtype));
  if (numel(t) < 1)
    return ctx.fail(std::string(name) + " must have an element, got shape " + shapeStr(t));
  return 0;
}

int allClassNms(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.vision.all_class_non_max_suppression", err);
  if (int rc = ctx.checkArity(5, -1))
    return rc;
  NmsPlan p;
  std::string format = "onnx";
  if (ctx.hasAttr(0)) {
    if (ctx.attr(0).kind != GRAFT_CUDA_ATTR_STRING)
      return ctx.fail("attribute 'output_format' must be a string");
    format = ctx.attr(0).s;
  }
  p.onnx = format == "onnx";
  if (!p.onnx && format != "tensorflow")
    return ctx.fail("output_format must be \"onnx\" or \"tensorflow\", got \"" + format + "\"");
  if (ctx.numOutputs() != (p.onnx ? 2 : 3))
    return ctx.fail("output_format \"" + format + "\" has " + std::to_string(p.onnx ? 2 : 3) +
                    " outputs, got " + std::to_string(ctx.numOutputs()));
  const DLTensor &boxes = ctx.in(0), &scores = ctx.in(1);
  p.bT = scalarTypeOf(boxes.dtype), p.sT = scalarTypeOf(scores.dtype);
  if (!isFloatType(p.bT) || !isFloatType(p.sT))
    return ctx.fail("takes float boxes and scores, got " + dtypeName(boxes.dtype) + " and " +
                    dtypeName(scores.dtype));
  if (boxes.ndim != 3 || scores.ndim != 3 || boxes.shape[2] != 4 ||
      scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
    return ctx.fail("expects boxes (batch, num_boxes, 4) and scores (batch, num_classes, "
                    "num_boxes), got " +
                    shapeStr(boxes) + " and " + shapeStr(scores));
  if (int rc = scalarParam(ctx, 2, "max_output_boxes_per_class", true))
    return rc;
  if (int rc = scalarParam(ctx, 3, "iou_threshold", false))
    return rc;
  if (int rc = scalarParam(ctx, 4, "score_threshold", false))
    return rc;
  p.batch = boxes.shape[0], p.classes = scores.shape[1], p.n = boxes.shape[1];
  int64_t rows = p.batch * p.classes;
  // The expected outputs: (dtype, shape) per format.
  struct Want {
    ScalarType t;
    std::vector<int64_t> shape;
  };
  std::vector<Want> want;
  if (p.onnx)
    want = {{ScalarType::Int64, {rows * p.n, 3}}, {ScalarType::Int64, {1}}};
  else
    want = {{ScalarType::Int64, {p.batch, p.classes * p.n, 2}},
            {ScalarType::Float32, {p.batch, p.classes * p.n}},
            {ScalarType::Int64, {p.batch}}};
  for (size_t i = 0; i < want.size(); ++i) {
    const DLTensor &o = ctx.out(int(i));
    bool same = scalarTypeOf(o.dtype) == want[i].t && o.ndim == int(want[i].shape.size());
    for (int d = 0; same && d < o.ndim; ++d)
      same = o.shape[d] == want[i].shape[d];
    if (!same)
      return ctx.fail("output " + std::to_string(i) + " is " + dtypeName(o.dtype) + " " +
                      shapeStr(o) + ", expected " +
                      (want[i].t == ScalarType::Int64 ? "int64 " : "float32 ") +
                      shapeStr(want[i].shape.data(), int(want[i].shape.size())));
    byteStrides(o, p.os[i]);
    p.out[i] = dataOf(o);
  }
  if (ctx.args().workspaceBytes < nmsWorkspace(args))
    return ctx.fail("needs a workspace of " + std::to_string(nmsWorkspace(args)) + " bytes, got " +
                    std::to_string(ctx.args().workspaceBytes));
  if (rows == 0) {
    // No row: counts of 0 (the other outputs are empty).
    const DLTensor &counts = ctx.out(p.onnx ? 1 : 2);
    if (cudaError_t e = cudaMemsetAsync(dataOf(counts), 0, size_t(numel(counts)) * 8, ctx.stream()))
      return ctx.failCuda("cudaMemsetAsync", e);
    return 0;
  }
  p.boxes = dataOf(boxes), p.scores = dataOf(scores);
  p.maxOut = dataOf(ctx.in(2)), p.iouT = dataOf(ctx.in(3)), p.scoreT = dataOf(ctx.in(4));
  p.mT = scalarTypeOf(ctx.in(2).dtype), p.iT = scalarTypeOf(ctx.in(3).dtype);
  p.tT = scalarTypeOf(ctx.in(4).dtype);
  byteStrides(boxes, p.bs);
  byteStrides(scores, p.ss);
  char *base = alignedBase(ctx.args().workspace);
  WorkspaceCarver w;
  size_t per = size_t(rows * p.n) * 8;
  p.order = reinterpret_cast<int64_t *>(base + w.take(per));
  p.buffer = reinterpret_cast<int64_t *>(base + w.take(per));
  p.selBox = reinterpret_cast<int64_t *>(base + w.take(per));
  p.sorted = reinterpret_cast<double *>(base + w.take(per));
  p.selScore = reinterpret_cast<double *>(base + w.take(per));
  p.count = reinterpret_cast<int64_t *>(base + w.take(size_t(rows) * 8));
  p.offset = reinterpret_cast<int64_t *>(base + w.take(size_t(rows) * 8));
  nmsRowsKernel<<<gridFor(rows, kThreads), kThreads, 0, ctx.stream()>>>(p);
  if (int rc = ctx.checkLaunch("nmsRowsKernel"))
    return rc;
  nmsCollectKernel<<<1, kThreads, 0, ctx.stream()>>>(p);
  return ctx.checkLaunch("nmsCollectKernel");
}

const char *const kNmsAttrs[] = {"output_format"};

} // namespace

void addSamplingVisionKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back(
      {"graft.multinomial_from_uniform", 3, 1, nullptr, 0, multinomial, multinomialWorkspace});
  out.push_back({"graft.vision.all_class_non_max_suppression", 5, -1, kNmsAttrs, 1, allClassNms,
                 nmsWorkspace});
}

} // namespace graft::cuda
