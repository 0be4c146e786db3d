//===- kernels/cpu/SamplingVision.cpp - multinomial sampling and NMS ------===//
//
// graft.multinomial_from_uniform: TVM's generic lowering
// (python/tvm/relax/backend/dispatch_sampling.py): the cumulative sum of
// each probability row in the prob dtype, then the sampled index of each
// uniform sample. graft.vision.all_class_non_max_suppression: TOPI's
// all_class_non_max_suppression (python/tvm/topi/vision/nms.py), in its
// "onnx" and "tensorflow" output forms. Both are the oracles of the CUDA
// kernels, whose arithmetic they match operation for operation.
//
//===----------------------------------------------------------------------===//

#include "kernels/NmsIou.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace graft::kernels::cpu {
namespace {

/// The sampled index of a row whose inclusive cumulative sums are c: the
/// last j with (u < c[j] or j is the last) and (j is the first or
/// u >= c[j-1]), as TVM's get_sample_index writes it (a later j
/// overwrites); 0 when no j qualifies (TVM leaves the output unwritten).
/// On a nondecreasing c this is the first j with u < c[j], else the last.
template <class T> int64_t sampleRow(const View &prob, int64_t row, double u) {
  using C = Compute<T>;
  int64_t v = prob.shape[1], found = 0;
  C acc = C(0);
  double prev = 0;
  for (int64_t j = 0; j < v; ++j) {
    acc = roundTo<T>(C(acc + Elem<T>::load(prob.ptr({row, j}))));
    double c = double(acc);
    if ((u < c || j + 1 == v) && (j == 0 || u >= prev))
      found = j;
    prev = c;
  }
  return found;
}

llvm::Error multinomialKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.multinomial_from_uniform");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  View prob = ctx.inView(0), u = ctx.inView(1), idx = ctx.inView(2), out = ctx.outView(0);
  if (!isFloatType(prob.type) || !isFloatType(u.type))
    return ctx.reject("takes float prob and uniform_sample, got " + dtypeName(dlTypeOf(prob.type)) +
                      " and " + dtypeName(dlTypeOf(u.type)));
  if (!isIntType(idx.type) || !isIntType(out.type))
    return ctx.reject("takes integer sample_indices and output, got " +
                      dtypeName(dlTypeOf(idx.type)) + " and " + dtypeName(dlTypeOf(out.type)));
  if (prob.ndim() != 2 || u.ndim() != 2 || idx.ndim() != 2 || u.shape[1] != 1 ||
      idx.shape != u.shape)
    return ctx.reject(
        "expects prob (batch, vocab), uniform_sample and sample_indices (n, 1), got " +
        shapeStr(prob.shape) + ", " + shapeStr(u.shape) + " and " + shapeStr(idx.shape));
  if (!ctx.expectOutShape(0, {u.shape[0], 1}))
    return ctx.error();
  int64_t batch = prob.shape[0];
  Loader<double> loadU = loaderFor<double>(u.type);
  Loader<int64_t> loadIdx = loaderFor<int64_t>(idx.type);
  Storer<int64_t> store = storerFor<int64_t>(out.type);
  for (int64_t i = 0; i < u.shape[0]; ++i) {
    int64_t row = loadIdx(idx.ptr({i, 0}));
    if (row < -batch || row >= batch)
      return ctx.reject("sample_indices[" + llvm::Twine(i) + "] is " + llvm::Twine(row) +
                        ", out of range for " + llvm::Twine(batch) + " distributions");
    if (row < 0)
      row += batch;
    double ui = loadU(u.ptr({i, 0}));
    int64_t j = dispatch(prob.type, [&](auto tag) -> int64_t {
      using T = typename decltype(tag)::type;
      if constexpr (kIsFloat<T>)
        return sampleRow<T>(prob, row, ui);
      else
        return 0;
    });
    store(out.ptr({i, 0}), j);
  }
  return llvm::Error::success();
}

/// The first element of a scalar-like parameter tensor (TOPI reads [()]
/// or [0]).
std::optional<double> firstValue(Ctx &ctx, size_t i, const char *name) {
  View v = ctx.inView(i);
  if (v.numel() < 1) {
    ctx.fail(llvm::Twine(name) + " must have an element, got shape " + shapeStr(v.shape));
    return std::nullopt;
  }
  return loaderFor<double>(v.type)(v.data);
}

/// One (batch, class) row's selection: the selected box indices and their
/// scores, in selection order.
struct Selected {
  std::vector<int64_t> box;
  std::vector<double> score;
};

/// TOPI's per-row NMS: scores sorted descending (stable; NaN first, as
/// graft's sort), the count above the score threshold by TOPI's binary
/// search, then greedy selection of at most maxOut boxes, each suppressing
/// the later positive-scored boxes whose IoU with it reaches the
/// threshold. No box is selected unless iouThreshold > 0.
Selected nmsRow(const View &boxes, const View &scores, int64_t b, int64_t c, int64_t maxOut,
                double iouThreshold, double scoreThreshold, Loader<double> loadBox,
                Loader<double> loadScore, std::vector<int64_t> &order,
                std::vector<double> &sorted) {
  int64_t n = scores.shape[2];
  order.resize(size_t(n));
  sorted.resize(size_t(n));
  std::vector<double> raw(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j)
    raw[size_t(j)] = loadScore(scores.ptr({b, c, j}));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return nms::sortsBefore(raw[size_t(x)], raw[size_t(y)]);
  });
  for (int64_t j = 0; j < n; ++j)
    sorted[size_t(j)] = raw[size_t(order[size_t(j)])];
  int64_t valid = nms::countAbove(sorted.data(), n, scoreThreshold);
  Selected sel;
  if (!(iouThreshold > 0) || valid <= 0)
    return sel;
  auto box = [&](int64_t i, double(&q)[4]) {
    for (int64_t k = 0; k < 4; ++k)
      q[k] = loadBox(boxes.ptr({b, i, k}));
  };
  for (int64_t j = 0; j < valid; ++j) {
    if (!(sorted[size_t(j)] > -1.0) || int64_t(sel.box.size()) >= maxOut ||
        !(sorted[size_t(j)] > scoreThreshold))
      continue;
    sel.box.push_back(order[size_t(j)]);
    sel.score.push_back(sorted[size_t(j)]);
    double a[4];
    box(order[size_t(j)], a);
    for (int64_t k = j + 1; k < valid; ++k) {
      if (!(sorted[size_t(k)] > 0))
        continue;
      double o[4];
      box(order[size_t(k)], o);
      if (nms::iou(a, o) >= iouThreshold)
        sorted[size_t(k)] = -1.0;
    }
  }
  return sel;
}

llvm::Error nmsKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.vision.all_class_non_max_suppression");
  if (!ctx.checkArity(5, -1))
    return ctx.error();
  std::string format = ctx.strAttr(0, "output_format", std::string("onnx"));
  if (!ctx.ok())
    return ctx.error();
  bool onnx = format == "onnx";
  if (!onnx && format != "tensorflow")
    return ctx.reject("output_format must be \"onnx\" or \"tensorflow\", got \"" + format + "\"");
  View boxes = ctx.inView(0), scores = ctx.inView(1);
  if (!isFloatType(boxes.type) || !isFloatType(scores.type))
    return ctx.reject("takes float boxes and scores, got " + dtypeName(dlTypeOf(boxes.type)) +
                      " and " + dtypeName(dlTypeOf(scores.type)));
  if (boxes.ndim() != 3 || scores.ndim() != 3 || boxes.shape[2] != 4 ||
      scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
    return ctx.reject("expects boxes (batch, num_boxes, 4) and scores (batch, num_classes, "
                      "num_boxes), got " +
                      shapeStr(boxes.shape) + " and " + shapeStr(scores.shape));
  if (!isIntType(ctx.inType(2)) || !isFloatType(ctx.inType(3)) || !isFloatType(ctx.inType(4)))
    return ctx.reject("takes an integer max_output_boxes_per_class and float thresholds");
  auto maxOut = firstValue(ctx, 2, "max_output_boxes_per_class");
  auto iouT = firstValue(ctx, 3, "iou_threshold");
  auto scoreT = firstValue(ctx, 4, "score_threshold");
  if (!maxOut || !iouT || !scoreT)
    return ctx.error();
  int64_t batch = boxes.shape[0], classes = scores.shape[1], n = boxes.shape[1];
  ScalarType i64 = ScalarType::Int64;
  if (ctx.numOut() != (onnx ? 2u : 3u))
    return ctx.reject("output_format \"" + format + "\" has " + llvm::Twine(onnx ? 2 : 3) +
                      " outputs, got " + llvm::Twine(ctx.numOut()));
  if (onnx) {
    if (!ctx.expectOutShape(0, {batch * classes * n, 3}) || !ctx.expectOutShape(1, {1}) ||
        !ctx.expectSameType(ctx.outType(0), i64, "output 0") ||
        !ctx.expectSameType(ctx.outType(1), i64, "output 1"))
      return ctx.error();
  } else if (!ctx.expectOutShape(0, {batch, classes * n, 2}) ||
             !ctx.expectOutShape(1, {batch, classes * n}) || !ctx.expectOutShape(2, {batch}) ||
             !ctx.expectSameType(ctx.outType(0), i64, "output 0") ||
             !ctx.expectSameType(ctx.outType(1), ScalarType::Float32, "output 1") ||
             !ctx.expectSameType(ctx.outType(2), i64, "output 2")) {
    return ctx.error();
  }
  Loader<double> loadBox = loaderFor<double>(boxes.type),
                 loadScore = loaderFor<double>(scores.type);
  std::vector<int64_t> order;
  std::vector<double> sorted;
  View o0 = ctx.outView(0), o1 = ctx.outView(1);
  auto putI = [](const View &v, llvm::ArrayRef<int64_t> at, int64_t x) {
    Elem<int64_t>::store(v.ptr(at), x);
  };
  // Valid rows first, in (batch, class) order; zeros after them.
  int64_t row = 0;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t inBatch = 0;
    for (int64_t c = 0; c < classes; ++c) {
      Selected sel = nmsRow(boxes, scores, b, c, int64_t(*maxOut), *iouT, *scoreT, loadBox,
                            loadScore, order, sorted);
      for (size_t j = 0; j < sel.box.size(); ++j) {
        if (onnx) {
          putI(o0, {row, 0}, b);
          putI(o0, {row, 1}, c);
          putI(o0, {row, 2}, sel.box[j]);
          ++row;
        } else {
          putI(o0, {b, inBatch, 0}, c);
          putI(o0, {b, inBatch, 1}, sel.box[j]);
          Elem<float>::store(o1.ptr({b, inBatch}), float(sel.score[j]));
          ++inBatch;
        }
      }
    }
    if (!onnx) {
      for (int64_t r = inBatch; r < classes * n; ++r) {
        putI(o0, {b, r, 0}, 0);
        putI(o0, {b, r, 1}, 0);
        Elem<float>::store(o1.ptr({b, r}), 0.0f);
      }
      putI(ctx.outView(2), {b}, inBatch);
    }
  }
  if (onnx) {
    for (int64_t r = row; r < batch * classes * n; ++r)
      for (int64_t k = 0; k < 3; ++k)
        putI(o0, {r, k}, 0);
    putI(o1, {0}, row);
  }
  return llvm::Error::success();
}

const llvm::StringRef kNmsAttrs[] = {"output_format"};

} // namespace

void registerSamplingVisionKernels() {
  static const KernelInfo kernels[] = {
      {"graft.multinomial_from_uniform", 3, 1, {}, &multinomialKernel},
      {"graft.vision.all_class_non_max_suppression", 5, -1, kNmsAttrs, &nmsKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
