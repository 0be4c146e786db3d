//===- kernels/cpu/BatchB.cpp - Gathers, scatters, padding, image ops -----===//
//
// Reference kernels of gather_elements, gather_nd, scatter_nd,
// slice_scatter, nn.pad, nn.pixel_shuffle, median, image.resize2d and
// image.grid_sample, with the semantics of TVM's legalizations (topi's
// gather, gather_nd, scatter_nd, slice_scatter, pad/reflect_pad/
// replicate_pad/circular_pad, pixel_shuffle, resize2d, grid_sample and
// relax's median). docs/kernels.md states each kernel's contract.
//
// The data-movement kernels copy element bytes, so they take every dtype;
// index tensors are read as int64, a negative index counts from the end,
// and an index out of range fails the call before anything is written.
//
//===----------------------------------------------------------------------===//

#include "kernels/BatchBGeometry.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <numeric>

namespace graft::kernels::cpu {
namespace {

ShapeRef shapeVec(const View &v) { return ShapeRef(v.shape.begin(), v.shape.end()); }

/// Reads every index of `idx` as int64, wrapping negatives against `len`
/// (len(k) for the k-th element in row-major order); fails on one out of
/// range.
template <class LenFn>
std::optional<std::vector<int64_t>> readIndices(Ctx &ctx, const View &idx, LenFn &&len) {
  std::vector<int64_t> out;
  out.reserve(size_t(idx.numel()));
  Loader<int64_t> load = loaderFor<int64_t>(idx.type);
  bool ok = true;
  forEach<1>(idx.shape, {&idx}, [&](const std::array<char *, 1> &p) {
    int64_t n = len(int64_t(out.size()));
    int64_t k = load(p[0]);
    if (ok && (k < -n || k >= n)) {
      ok = ctx.fail("index " + llvm::Twine(k) + " is out of range for a dim of size " +
                    llvm::Twine(n));
    }
    out.push_back(k < 0 ? k + n : k);
  });
  if (!ok)
    return std::nullopt;
  return out;
}

bool expectIntIndices(Ctx &ctx, ScalarType t) {
  if (isIntType(t))
    return true;
  return ctx.fail("indices must be integers, got " + dtypeName(dlTypeOf(t)));
}

//===----------------------------------------------------------------------===//
// gather_elements, gather_nd
//===----------------------------------------------------------------------===//

/// out[i] = data[i with i[axis] = indices[i]] (topi.gather).
llvm::Error gatherElementsKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.gather_elements");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View data = ctx.inView(0), idx = ctx.inView(1), out = ctx.outView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 0), data.ndim());
  if (!axis || !expectIntIndices(ctx, idx.type) ||
      !ctx.expectSameType(out.type, data.type, "output 0") || !ctx.expectOutShape(0, idx.shape))
    return ctx.error();
  for (int64_t d = 0; d < data.ndim(); ++d)
    if (idx.ndim() != data.ndim() || (d != *axis && idx.shape[d] > data.shape[d]))
      return ctx.reject("indices " + shapeStr(idx.shape) + " must have the rank of data " +
                        shapeStr(data.shape) + " and fit in it outside the axis");
  int64_t len = data.shape[*axis];
  auto k = readIndices(ctx, idx, [len](int64_t) { return len; });
  if (!k)
    return ctx.error();
  int64_t size = data.elemSize(), n = 0;
  forEachIndex(idx.shape, [&](llvm::ArrayRef<int64_t> at) {
    Dims src(at.begin(), at.end());
    src[*axis] = (*k)[size_t(n)];
    std::memcpy(out.elementAt(n++), data.ptr(src), size_t(size));
  });
  return llvm::Error::success();
}

/// out[b, i, rest] = data[b, indices[b, i, :], rest] with the index depth
/// the last dim of indices (TVM's relax gather_nd).
llvm::Error gatherNDKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.gather_nd");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View data = ctx.inView(0), idx = ctx.inView(1), out = ctx.outView(0);
  int64_t b = ctx.intAttr(0, "batch_dims", 0);
  if (!ctx.ok() || !expectIntIndices(ctx, idx.type) ||
      !ctx.expectSameType(out.type, data.type, "output 0"))
    return ctx.error();
  GatherNDGeometry g;
  std::string why = gatherNDGeometry(shapeVec(data), shapeVec(idx), b, g);
  if (!why.empty())
    return ctx.reject(why);
  if (!ctx.expectOutShape(0, llvm::ArrayRef<int64_t>(g.outShape, size_t(g.outNDim))))
    return ctx.error();
  auto k = readIndices(ctx, idx, [&](int64_t n) { return data.shape[size_t(b + n % g.depth)]; });
  if (!k)
    return ctx.error();
  int64_t size = data.elemSize();
  for (int64_t o = 0; o < g.numel(); ++o) {
    int64_t batch = 0, row = 0, inner = 0;
    g.split(o, batch, row, inner);
    int64_t src = g.sourceOffset(batch, row, inner, k->data());
    std::memcpy(out.elementAt(o), data.elementAt(src), size_t(size));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// scatter_nd, slice_scatter
//===----------------------------------------------------------------------===//

enum class NDReduction { Update, Add, Mul, Min, Max };

std::optional<NDReduction> parseNDReduction(llvm::StringRef s) {
  if (s == "update")
    return NDReduction::Update;
  if (s == "add")
    return NDReduction::Add;
  if (s == "mul")
    return NDReduction::Mul;
  if (s == "min")
    return NDReduction::Min;
  if (s == "max")
    return NDReduction::Max;
  return std::nullopt;
}

template <class T> Compute<T> combineND(NDReduction op, Compute<T> acc, Compute<T> v) {
  switch (op) {
  case NDReduction::Update:
    return v;
  case NDReduction::Add:
    return roundTo<T>(addC(acc, v));
  case NDReduction::Mul:
    return roundTo<T>(mulC(acc, v));
  case NDReduction::Min:
    return beats<false>(v, acc) ? v : acc;
  case NDReduction::Max:
    return beats<true>(v, acc) ? v : acc;
  }
  return v;
}

/// out = data; then, for each index row in row-major order,
/// out[indices[i, :], rest] = out[...] (op) updates[i, rest]: topi's
/// sequential order, so every reduction is deterministic.
llvm::Error scatterNDKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.scatter_nd");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  View data = ctx.inView(0), idx = ctx.inView(1), upd = ctx.inView(2), out = ctx.outView(0);
  std::string red = ctx.strAttr(0, "reduction", std::string("update"));
  if (!ctx.ok() || !expectIntIndices(ctx, idx.type) ||
      !ctx.expectSameType(upd.type, data.type, "updates") ||
      !ctx.expectSameType(out.type, data.type, "output 0") || !ctx.expectOutShape(0, data.shape))
    return ctx.error();
  auto op = parseNDReduction(red);
  if (!op)
    return ctx.reject("unknown reduction '" + red + "'");
  if (data.type == ScalarType::Bool && *op != NDReduction::Update)
    return ctx.reject("reduction '" + red + "' does not take bool");
  ScatterNDGeometry g;
  std::string why = scatterNDGeometry(shapeVec(data), shapeVec(idx), shapeVec(upd), g);
  if (!why.empty())
    return ctx.reject(why);
  auto k = readIndices(ctx, idx, [&](int64_t n) { return data.shape[size_t(n % g.depth)]; });
  if (!k)
    return ctx.error();
  copySameShape(data, out);
  dispatch(data.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t row = 0; row < g.rows; ++row) {
      int64_t base = g.targetBase(row, k->data());
      for (int64_t e = 0; e < g.inner; ++e) {
        char *dst = out.elementAt(base + e);
        Compute<T> v = Elem<T>::load(upd.elementAt(row * g.inner + e));
        Elem<T>::store(dst, combineND<T>(*op, Elem<T>::load(dst), v));
      }
    }
  });
  return llvm::Error::success();
}

/// out = data with out[..., start:end:step, ...] (along axis) = src.
llvm::Error sliceScatterKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.slice_scatter");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View data = ctx.inView(0), src = ctx.inView(1), out = ctx.outView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 0), data.ndim());
  int64_t start = ctx.intAttr(1, "start"), end = ctx.intAttr(2, "end"),
          step = ctx.intAttr(3, "step");
  if (!axis || !ctx.expectSameType(src.type, data.type, "src") ||
      !ctx.expectSameType(out.type, data.type, "output 0") || !ctx.expectOutShape(0, data.shape))
    return ctx.error();
  SliceScatterRange r;
  std::string why = sliceScatterRange(shapeVec(data), shapeVec(src), *axis, start, end, step, r);
  if (!why.empty())
    return ctx.reject(why);
  copySameShape(data, out);
  copySameShape(src, out.sliced(*axis, r.begin, r.length, r.step));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// nn.pad, nn.pixel_shuffle
//===----------------------------------------------------------------------===//

llvm::Error padKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.pad");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View data = ctx.inView(0), out = ctx.outView(0);
  Dims width = ctx.intListAttr(0, "pad_width");
  std::string modeName = ctx.strAttr(1, "pad_mode", std::string("constant"));
  double value = ctx.floatAttr(2, "pad_value", 0.0);
  if (!ctx.ok() || !ctx.expectSameType(out.type, data.type, "output 0"))
    return ctx.error();
  PadMode mode = parsePadMode(modeName);
  std::string why = checkPad(shapeVec(data), ShapeRef(width.begin(), width.end()), mode);
  if (!why.empty())
    return ctx.reject(why);
  Dims outShape;
  for (int64_t d = 0; d < data.ndim(); ++d)
    outShape.push_back(data.shape[d] + width[2 * d] + width[2 * d + 1]);
  if (!ctx.expectOutShape(0, outShape))
    return ctx.error();
  char fill[8];
  dispatch(data.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Elem<T>::store(fill, castTo<Compute<T>>(value));
  });
  int64_t size = data.elemSize(), n = 0;
  Dims src(data.shape.size());
  forEachIndex(outShape, [&](llvm::ArrayRef<int64_t> at) {
    bool inside = true;
    for (size_t d = 0; d < at.size(); ++d) {
      src[d] = padSource(at[d] - width[2 * d], data.shape[d], mode);
      inside &= src[d] >= 0;
    }
    std::memcpy(out.elementAt(n++), inside ? data.ptr(src) : fill, size_t(size));
  });
  return llvm::Error::success();
}

/// (.., C*r*r, H, W) -> (.., C, H*r, W*r): out[c, h*r+i, w*r+j] =
/// in[c*r*r + i*r + j, h, w] (topi.nn.pixel_shuffle).
llvm::Error pixelShuffleKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.nn.pixel_shuffle");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View data = ctx.inView(0), out = ctx.outView(0);
  int64_t r = ctx.intAttr(0, "upscale_factor");
  if (!ctx.ok() || !ctx.expectSameType(out.type, data.type, "output 0"))
    return ctx.error();
  int64_t nd = data.ndim();
  if (r <= 0 || nd < 3 || data.shape[nd - 3] % (r * r) != 0)
    return ctx.reject("takes data of at least 3 dims whose channels " +
                      llvm::Twine(nd >= 3 ? data.shape[nd - 3] : 0) +
                      " divide by upscale_factor^2 (" + llvm::Twine(r) + "^2)");
  Dims outShape = data.shape;
  outShape[nd - 3] /= r * r;
  outShape[nd - 2] *= r;
  outShape[nd - 1] *= r;
  if (!ctx.expectOutShape(0, outShape))
    return ctx.error();
  int64_t size = data.elemSize(), n = 0;
  Dims src(data.shape.size());
  forEachIndex(outShape, [&](llvm::ArrayRef<int64_t> at) {
    std::copy(at.begin(), at.end(), src.begin());
    int64_t h = at[nd - 2], w = at[nd - 1];
    src[nd - 3] = at[nd - 3] * r * r + (h % r) * r + w % r;
    src[nd - 2] = h / r;
    src[nd - 1] = w / r;
    std::memcpy(out.elementAt(n++), data.ptr(src), size_t(size));
  });
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// median
//===----------------------------------------------------------------------===//

/// The lower median ((n - 1) // 2 of the ascending order, NaN last, ties in
/// index order) of each group of elements the reduced axes span; with an
/// index output, the median's position along the (one) reduced axis.
llvm::Error medianKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.median");
  if (!ctx.checkArity(1, -1))
    return ctx.error();
  View x = ctx.inView(0);
  bool all = !ctx.hasAttr(0);
  Dims listed = ctx.intListAttr(0, "axis");
  bool keepdims = ctx.boolAttr(1, "keepdims", false);
  if (!ctx.ok() || ctx.numOut() > 2)
    return ctx.numOut() > 2 ? ctx.reject("has at most 2 outputs") : ctx.error();
  Dims axes;
  if (all) {
    axes.resize(size_t(x.ndim()));
    std::iota(axes.begin(), axes.end(), 0);
  } else {
    auto n = normalizeAxes(ctx, listed, x.ndim());
    if (!n)
      return ctx.error();
    axes = *n;
  }
  bool withIndex = ctx.numOut() == 2;
  if (withIndex && axes.size() != 1)
    return ctx.reject("returns indices only for one reduced axis");
  if (!ctx.expectSameType(ctx.outType(0), x.type, "output 0") ||
      (withIndex && !ctx.expectSameType(ctx.outType(1), ScalarType::Int64, "output 1")))
    return ctx.error();
  Dims kept, outShape;
  for (int64_t d = 0; d < x.ndim(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (!reduced)
      kept.push_back(d);
    if (!reduced || keepdims)
      outShape.push_back(reduced ? 1 : x.shape[d]);
  }
  for (size_t o = 0; o < ctx.numOut(); ++o)
    if (!ctx.expectOutShape(o, outShape))
      return ctx.error();
  Dims perm = kept;
  perm.append(axes.begin(), axes.end());
  View grouped = x.permuted(perm);
  Dims outer(grouped.shape.begin(), grouped.shape.begin() + int64_t(kept.size()));
  Dims inner(grouped.shape.begin() + int64_t(kept.size()), grouped.shape.end());
  int64_t len = numelOf(inner);
  if (len == 0)
    return numelOf(outer) == 0 ? llvm::Error::success()
                               : ctx.reject("takes no median over an empty axis");
  View out0 = ctx.outView(0);
  std::optional<View> out1;
  if (withIndex)
    out1 = ctx.outView(1);
  dispatch(x.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    // No std::vector<bool>: its proxies do not compare as values.
    using V = std::conditional_t<std::is_same_v<C, bool>, uint8_t, C>;
    std::vector<V> vals;
    std::vector<int64_t> order;
    vals.resize(size_t(len));
    order.resize(size_t(len));
    int64_t o = 0;
    forEachIndex(outer, [&](llvm::ArrayRef<int64_t> at) {
      Dims full(at.begin(), at.end());
      full.resize(grouped.shape.size(), 0);
      int64_t i = 0;
      forEachIndex(inner, [&](llvm::ArrayRef<int64_t> in) {
        std::copy(in.begin(), in.end(), full.begin() + int64_t(at.size()));
        vals[size_t(i++)] = V(Elem<T>::load(grouped.ptr(full)));
      });
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return medianLess<C>(C(vals[size_t(a)]), C(vals[size_t(b)]));
      });
      int64_t pick = order[size_t((len - 1) / 2)];
      Elem<T>::store(out0.elementAt(o), C(vals[size_t(pick)]));
      if (out1)
        Elem<int64_t>::store(out1->elementAt(o), pick);
      ++o;
    });
  });
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// image.resize2d, image.grid_sample
//===----------------------------------------------------------------------===//

/// `v` with its dims reordered from `layout` to N, C, H, W.
std::optional<View> asNCHW(Ctx &ctx, const View &v, llvm::StringRef layout) {
  auto perm = layoutToNCHW(std::string_view(layout.data(), layout.size()));
  if (!perm || v.ndim() != 4) {
    ctx.fail("takes a 4-d tensor in a permutation of NCHW, got layout '" + layout + "'");
    return std::nullopt;
  }
  return v.permuted(*perm);
}

llvm::Error resize2dKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.image.resize2d");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ResizeParams p;
  std::string layout = ctx.strAttr(0, "layout", std::string("NCHW"));
  std::string method = ctx.strAttr(1, "method", std::string("linear"));
  std::string ctm = ctx.strAttr(2, "coordinate_transformation_mode", std::string("half_pixel"));
  std::string rounding = ctx.strAttr(3, "rounding_method", std::string("round"));
  p.cubicAlpha = ctx.floatAttr(4, "cubic_alpha", -0.75);
  p.cubicExclude = ctx.intAttr(5, "cubic_exclude", 0) != 0;
  if (!ctx.ok())
    return ctx.error();
  std::string why = parseResize(method, ctm, rounding, p);
  if (!why.empty())
    return ctx.reject(why);
  ScalarType in = ctx.inType(0), outT = ctx.outType(0);
  if (!isFloatType(in) || !isFloatType(outT))
    return ctx.reject("takes float data and output, got " + dtypeName(dlTypeOf(in)) + " and " +
                      dtypeName(dlTypeOf(outT)));
  auto data = asNCHW(ctx, ctx.inView(0), layout);
  auto out = data ? asNCHW(ctx, ctx.outView(0), layout) : std::nullopt;
  if (!out)
    return ctx.error();
  if (out->shape[0] != data->shape[0] || out->shape[1] != data->shape[1])
    return ctx.reject("output " + shapeStr(out->shape) + " must keep data's N and C " +
                      shapeStr(data->shape));
  p.inH = data->shape[2];
  p.inW = data->shape[3];
  p.outH = out->shape[2];
  p.outW = out->shape[3];
  if ((p.inH == 0 || p.inW == 0) && out->numel() != 0)
    return ctx.reject("takes no empty image to a non-empty one");
  dispatch(in, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      using C = Compute<T>;
      Storer<C> store = storerFor<C>(outT);
      forEachIndex(out->shape, [&](llvm::ArrayRef<int64_t> at) {
        View plane = data->at(0, at[0]).at(0, at[1]);
        C v = resizeSample<C>(p, at[2], at[3], [&](int64_t y, int64_t x) -> C {
          return Elem<T>::load(plane.ptr({y, x}));
        });
        store(out->ptr(at), v);
      });
    }
  });
  return llvm::Error::success();
}

llvm::Error gridSampleKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.image.grid_sample");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  GridSampleParams p;
  std::string method = ctx.strAttr(0, "method", std::string("bilinear"));
  std::string layout = ctx.strAttr(1, "layout", std::string("NCHW"));
  std::string padding = ctx.strAttr(2, "padding_mode", std::string("zeros"));
  p.alignCorners = ctx.boolAttr(3, "align_corners", false);
  if (!ctx.ok())
    return ctx.error();
  std::string why = parseGridSample(method, padding, p);
  if (!why.empty())
    return ctx.reject(why);
  ScalarType t = ctx.inType(0);
  if (!isFloatType(t) || !ctx.expectSameType(ctx.inType(1), t, "grid") ||
      !ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return isFloatType(t) ? ctx.error() : ctx.reject("takes float data");
  View grid = ctx.inView(1);
  auto data = asNCHW(ctx, ctx.inView(0), layout);
  auto out = data ? asNCHW(ctx, ctx.outView(0), layout) : std::nullopt;
  if (!out)
    return ctx.error();
  if (grid.ndim() != 4 || grid.shape[3] != 2 || grid.shape[0] != data->shape[0] ||
      out->shape[0] != data->shape[0] || out->shape[1] != data->shape[1] ||
      out->shape[2] != grid.shape[1] || out->shape[3] != grid.shape[2])
    return ctx.reject("takes a grid (N, H_out, W_out, 2) " + shapeStr(grid.shape) + " for data " +
                      shapeStr(data->shape) + " and output " + shapeStr(out->shape) +
                      " (NCHW order)");
  p.inH = data->shape[2];
  p.inW = data->shape[3];
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      using C = Compute<T>;
      forEachIndex(out->shape, [&](llvm::ArrayRef<int64_t> at) {
        View plane = data->at(0, at[0]).at(0, at[1]);
        C gx = Elem<T>::load(grid.ptr({at[0], at[2], at[3], 0}));
        C gy = Elem<T>::load(grid.ptr({at[0], at[2], at[3], 1}));
        C v = gridSample<C>(p, gx, gy, [&](int64_t y, int64_t x) -> C {
          return Elem<T>::load(plane.ptr({y, x}));
        });
        Elem<T>::store(out->ptr(at), v);
      });
    }
  });
  return llvm::Error::success();
}

const llvm::StringRef kGatherElementsAttrs[] = {"axis"};
const llvm::StringRef kGatherNDAttrs[] = {"batch_dims"};
const llvm::StringRef kScatterNDAttrs[] = {"reduction"};
const llvm::StringRef kSliceScatterAttrs[] = {"axis", "start", "end", "step"};
const llvm::StringRef kPadAttrs[] = {"pad_width", "pad_mode", "pad_value"};
const llvm::StringRef kPixelShuffleAttrs[] = {"upscale_factor"};
const llvm::StringRef kMedianAttrs[] = {"axis", "keepdims"};
const llvm::StringRef kResizeAttrs[] = {
    "layout",          "method",      "coordinate_transformation_mode",
    "rounding_method", "cubic_alpha", "cubic_exclude"};
const llvm::StringRef kGridSampleAttrs[] = {"method", "layout", "padding_mode", "align_corners"};

} // namespace

void registerBatchBKernels() {
  static const KernelInfo kernels[] = {
      {"graft.gather_elements", 2, 1, kGatherElementsAttrs, &gatherElementsKernel},
      {"graft.gather_nd", 2, 1, kGatherNDAttrs, &gatherNDKernel},
      {"graft.scatter_nd", 3, 1, kScatterNDAttrs, &scatterNDKernel},
      {"graft.slice_scatter", 2, 1, kSliceScatterAttrs, &sliceScatterKernel},
      {"graft.nn.pad", 1, 1, kPadAttrs, &padKernel},
      {"graft.nn.pixel_shuffle", 1, 1, kPixelShuffleAttrs, &pixelShuffleKernel},
      {"graft.median", 1, -1, kMedianAttrs, &medianKernel},
      {"graft.image.resize2d", 1, 1, kResizeAttrs, &resize2dKernel},
      {"graft.image.grid_sample", 2, 1, kGridSampleAttrs, &gridSampleKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
