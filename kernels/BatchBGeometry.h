//===- kernels/BatchBGeometry.h - Index math of gathers, pads, image ops -*- C++ -*-===//
//
// What the CPU kernels (kernels/cpu/BatchB.cpp) and the CUDA kernels
// (kernels/cuda/BatchB.cu) of gather_nd, scatter_nd, slice_scatter,
// nn.pad, median, image.resize2d and image.grid_sample share: the shape
// checks, done once on the host, and the per-element arithmetic, compiled
// for both, so the two backends compute each sample with the same
// formulas (TVM's topi ones).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_BATCHBGEOMETRY_H
#define GRAFT_KERNELS_BATCHBGEOMETRY_H

#include "kernels/ElementwiseScalar.h"

#include <cmath>
#include <cstdint>

#ifndef __CUDACC_RTC__
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#endif

namespace graft::kernels {

inline constexpr int kMaxGeometryDims = 8;

/// gather_nd with the index depth the last dim of indices: output element
/// o is (batch, row, inner); its source is batch * batchStride +
/// sum_j index[j] * strides[j] + inner.
struct GatherNDGeometry {
  int64_t depth = 0, rows = 1, inner = 1, batches = 1, batchStride = 1;
  int64_t strides[kMaxGeometryDims] = {};
  int64_t outShape[2 * kMaxGeometryDims] = {};
  int outNDim = 0;
  GRAFT_HD int64_t numel() const { return batches * rows * inner; }
  GRAFT_HD void split(int64_t o, int64_t &batch, int64_t &row, int64_t &in) const {
    in = o % inner;
    row = (o / inner) % rows;
    batch = o / (inner * rows);
  }
  /// `index`: every index row, already wrapped into range.
  GRAFT_HD int64_t sourceOffset(int64_t batch, int64_t row, int64_t in,
                                const int64_t *index) const {
    const int64_t *k = index + (batch * rows + row) * depth;
    int64_t off = batch * batchStride + in;
    for (int64_t j = 0; j < depth; ++j)
      off += k[j] * strides[j];
    return off;
  }
};

/// scatter_nd: index row r names the element block at targetBase(r) of
/// `inner` elements, which updates row r (of `inner` elements) updates.
struct ScatterNDGeometry {
  int64_t depth = 0, rows = 1, inner = 1;
  int64_t strides[kMaxGeometryDims] = {};
  GRAFT_HD int64_t targetBase(int64_t row, const int64_t *index) const {
    int64_t off = 0;
    for (int64_t j = 0; j < depth; ++j)
      off += index[row * depth + j] * strides[j];
    return off;
  }
};

/// The positions slice_scatter writes along its axis.
struct SliceScatterRange {
  int64_t begin = 0, length = 0, step = 1;
};

enum class PadMode { Constant, Reflect, Replicate, Circular };

/// Where output position i (already shifted by the before-padding) reads
/// along a dim of n elements; -1 for the constant fill.
GRAFT_HD inline int64_t padSource(int64_t i, int64_t n, PadMode mode) {
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
  case PadMode::Constant:
    return -1;
  case PadMode::Reflect:
    return i < 0 ? -i : 2 * (n - 1) - i;
  case PadMode::Replicate:
    return i < 0 ? 0 : n - 1;
  case PadMode::Circular:
    return ((i % n) + n) % n;
  }
  return -1;
}

/// a * b, never contracted with a following add into a fused multiply-add
/// (nvcc contracts by default; the CPU build does not), so both backends
/// round every product the same way.
template <class C> GRAFT_HD inline C mulR(C a, C b) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<C, float>)
    return __fmul_rn(a, b);
  else if constexpr (std::is_same_v<C, double>)
    return __dmul_rn(a, b);
  else
    return a * b;
#else
  return a * b;
#endif
}

/// The median's order: ascending, NaN after every number.
template <class C> GRAFT_HD bool medianLess(C a, C b) {
  if constexpr (scalar::kFP<C>) {
    if (a != a)
      return false;
    if (b != b)
      return true;
  }
  return a < b;
}

//===----------------------------------------------------------------------===//
// image.resize2d
//===----------------------------------------------------------------------===//

enum class ResizeMethod { Nearest, Linear, Cubic };
enum class ResizeCoords { HalfPixel, AlignCorners, Asymmetric, PytorchHalfPixel, TFHalfPixelForNN };
enum class ResizeRounding { Round, RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizeParams {
  ResizeMethod method = ResizeMethod::Linear;
  ResizeCoords coords = ResizeCoords::HalfPixel;
  ResizeRounding rounding = ResizeRounding::Round;
  double cubicAlpha = -0.75;
  bool cubicExclude = false;
  int64_t inH = 0, inW = 0, outH = 0, outW = 0;
};

/// The input coordinate of output position x (topi's get_inx).
template <class C>
GRAFT_HD C resizeInCoord(const ResizeParams &p, int64_t x, int64_t in, int64_t out) {
  C scale = C(in) / C(out);
  C fx = C(x);
  switch (p.coords) {
  case ResizeCoords::HalfPixel:
    return mulR(fx + C(0.5), scale) - C(0.5);
  case ResizeCoords::AlignCorners:
    return out > 1 ? mulR(fx, C(in - 1) / C(out - 1)) : C(0);
  case ResizeCoords::Asymmetric:
    return mulR(fx, scale);
  case ResizeCoords::PytorchHalfPixel:
    return out > 1 ? mulR(fx + C(0.5), scale) - C(0.5) : C(0);
  case ResizeCoords::TFHalfPixelForNN:
    return mulR(fx + C(0.5), scale);
  }
  return fx;
}

GRAFT_HD inline int64_t clampIndex(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

template <class C> GRAFT_HD int64_t resizeNearest(const ResizeParams &p, C x, int64_t n) {
  C r;
  switch (p.rounding) {
  case ResizeRounding::Round:
    r = std::nearbyint(x);
    break;
  case ResizeRounding::RoundPreferFloor:
    r = std::ceil(x - C(0.5));
    break;
  case ResizeRounding::RoundPreferCeil:
    r = std::floor(x + C(0.5));
    break;
  case ResizeRounding::Floor:
    r = std::floor(x + C(1e-5));
    break;
  case ResizeRounding::Ceil:
    r = std::ceil(x - C(1e-5));
    break;
  }
  return clampIndex(int64_t(r), n);
}

/// topi's cubic spline weights for the four taps at floor(x) - 1 .. + 2.
template <class C> GRAFT_HD void cubicWeights(C t, C alpha, C w[4]) {
  C t2 = mulR(t, t), t3 = mulR(t2, t);
  w[0] = mulR(alpha, t3 - mulR(C(2), t2) + t);
  w[1] = mulR(alpha + C(2), t3) - mulR(C(3) + alpha, t2) + C(1);
  w[2] = -mulR(alpha + C(2), t3) + mulR(C(3) + mulR(C(2), alpha), t2) - mulR(alpha, t);
  w[3] = -mulR(alpha, t3) + mulR(alpha, t2);
}

/// Cubic weights with cubic_exclude: taps outside [0, n) weigh nothing and
/// the rest are renormalized.
template <class C>
GRAFT_HD void cubicTaps(const ResizeParams &p, C x, int64_t n, int64_t idx[4], C w[4]) {
  C f = std::floor(x);
  int64_t base = int64_t(f);
  cubicWeights<C>(x - f, C(p.cubicAlpha), w);
  C sum = C(0);
  for (int i = 0; i < 4; ++i) {
    int64_t at = base - 1 + i;
    if (p.cubicExclude && (at < 0 || at >= n))
      w[i] = C(0);
    sum += w[i];
    idx[i] = clampIndex(at, n);
  }
  if (p.cubicExclude)
    for (int i = 0; i < 4; ++i)
      w[i] = w[i] / sum;
}

/// One output sample at (oy, ox) of a plane read by load(y, x).
template <class C, class Load>
GRAFT_HD C resizeSample(const ResizeParams &p, int64_t oy, int64_t ox, const Load &load) {
  C y = resizeInCoord<C>(p, oy, p.inH, p.outH), x = resizeInCoord<C>(p, ox, p.inW, p.outW);
  switch (p.method) {
  case ResizeMethod::Nearest:
    return load(resizeNearest<C>(p, y, p.inH), resizeNearest<C>(p, x, p.inW));
  case ResizeMethod::Linear: {
    C fy = std::floor(y), fx = std::floor(x);
    C ty = y - fy, tx = x - fx;
    int64_t y0 = clampIndex(int64_t(fy), p.inH), y1 = clampIndex(int64_t(fy) + 1, p.inH);
    int64_t x0 = clampIndex(int64_t(fx), p.inW), x1 = clampIndex(int64_t(fx) + 1, p.inW);
    C top = mulR(load(y0, x0), C(1) - tx) + mulR(load(y0, x1), tx);
    C bottom = mulR(load(y1, x0), C(1) - tx) + mulR(load(y1, x1), tx);
    return mulR(top, C(1) - ty) + mulR(bottom, ty);
  }
  case ResizeMethod::Cubic: {
    int64_t yi[4], xi[4];
    C wy[4], wx[4];
    cubicTaps<C>(p, y, p.inH, yi, wy);
    cubicTaps<C>(p, x, p.inW, xi, wx);
    C acc = C(0);
    for (int r = 0; r < 4; ++r) {
      C row = C(0);
      for (int c = 0; c < 4; ++c)
        row += mulR(load(yi[r], xi[c]), wx[c]);
      acc += mulR(row, wy[r]);
    }
    return acc;
  }
  }
  return C(0);
}

//===----------------------------------------------------------------------===//
// image.grid_sample
//===----------------------------------------------------------------------===//

enum class GridMethod { Bilinear, Nearest };
enum class GridPadding { Zeros, Border, Reflection };

struct GridSampleParams {
  GridMethod method = GridMethod::Bilinear;
  GridPadding padding = GridPadding::Zeros;
  bool alignCorners = false;
  int64_t inH = 0, inW = 0;
};

/// topi's reflection of a coordinate into [lo, lo + span].
template <class C> GRAFT_HD C reflectCoord(C x, C span, C lo) {
  if (x >= lo && x <= span + lo)
    return x;
  C dist = x > lo ? x - lo : lo - x;
  int64_t times = int64_t(int32_t(dist)) / int64_t(span);
  C extra = dist - mulR(C(times), span);
  return times % 2 == 0 ? extra + lo : span - extra + lo;
}

/// A normalized grid coordinate (-1 .. 1) as a source position along a dim
/// of n elements.
template <class C> GRAFT_HD C gridSource(const GridSampleParams &p, C g, int64_t n) {
  C x = p.alignCorners ? mulR(g + C(1), C(n - 1)) / C(2) : (mulR(g + C(1), C(n)) - C(1)) / C(2);
  if (p.padding == GridPadding::Reflection)
    x = p.alignCorners ? reflectCoord<C>(x, C(n - 1), C(0)) : reflectCoord<C>(x, C(n), C(-0.5));
  if (p.padding != GridPadding::Zeros)
    x = x < C(0) ? C(0) : x > C(n - 1) ? C(n - 1) : x;
  return x;
}

template <class C, class Load>
GRAFT_HD C gridSample(const GridSampleParams &p, C gx, C gy, const Load &load) {
  C x = gridSource<C>(p, gx, p.inW), y = gridSource<C>(p, gy, p.inH);
  auto at = [&](int64_t yy, int64_t xx) -> C {
    return yy >= 0 && yy < p.inH && xx >= 0 && xx < p.inW ? load(yy, xx) : C(0);
  };
  if (p.method == GridMethod::Nearest)
    return at(int64_t(std::nearbyint(y)), int64_t(std::nearbyint(x)));
  C fy = std::floor(y), fx = std::floor(x);
  int64_t y0 = int64_t(fy), x0 = int64_t(fx);
  C ty = y - fy, tx = x - fx;
  return mulR(mulR(at(y0, x0), C(1) - ty), C(1) - tx) + mulR(mulR(at(y0, x0 + 1), C(1) - ty), tx) +
         mulR(mulR(at(y0 + 1, x0), ty), C(1) - tx) + mulR(mulR(at(y0 + 1, x0 + 1), ty), tx);
}

//===----------------------------------------------------------------------===//
// Host-side set-up, shared by both backends
//===----------------------------------------------------------------------===//

#ifndef __CUDACC_RTC__

/// A shape as the host set-up takes it (no LLVM types: nvcc compiles this).
using ShapeRef = std::vector<int64_t>;

inline std::string shapeText(const ShapeRef &s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

inline int64_t productOf(const ShapeRef &s, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to && i < s.size(); ++i)
    n *= s[i];
  return n;
}

/// Fills `g` for data and indices shapes; an error message, or "".
inline std::string gatherNDGeometry(const ShapeRef &data, const ShapeRef &indices,
                                    int64_t batchDims, GatherNDGeometry &g) {
  int64_t dn = int64_t(data.size()), in = int64_t(indices.size()), b = batchDims;
  std::string shapes = "data " + shapeText(data) + ", indices " + shapeText(indices) +
                       ", batch_dims " + std::to_string(b);
  if (in < 1 || b < 0 || b > in - 1 || b > dn || dn > kMaxGeometryDims || in > kMaxGeometryDims)
    return "takes indices of at least batch_dims + 1 dims and data of at most " +
           std::to_string(kMaxGeometryDims) + " dims, got " + shapes;
  int64_t l = indices[size_t(in - 1)];
  if (l < 0 || l > dn - b)
    return "takes an index depth (the last dim of indices) of at most data.ndim - batch_dims, "
           "got " +
           shapes;
  for (int64_t i = 0; i < b; ++i)
    if (indices[size_t(i)] != data[size_t(i)])
      return "takes indices whose batch dims equal the data's, got " + shapes;
  g.depth = l;
  g.batches = productOf(data, 0, size_t(b));
  g.rows = productOf(indices, size_t(b), size_t(in - 1));
  g.inner = productOf(data, size_t(b + l), size_t(dn));
  g.batchStride = productOf(data, size_t(b), size_t(dn));
  for (int64_t j = 0; j < l; ++j)
    g.strides[j] = productOf(data, size_t(b + j + 1), size_t(dn));
  g.outNDim = 0;
  for (int64_t i = 0; i < in - 1; ++i)
    g.outShape[g.outNDim++] = indices[size_t(i)];
  for (int64_t i = b + l; i < dn; ++i)
    g.outShape[g.outNDim++] = data[size_t(i)];
  return "";
}

inline std::string scatterNDGeometry(const ShapeRef &data, const ShapeRef &indices,
                                     const ShapeRef &updates, ScatterNDGeometry &g) {
  std::string shapes = "data " + shapeText(data) + ", indices " + shapeText(indices) +
                       ", updates " + shapeText(updates);
  if (indices.empty() || data.size() > size_t(kMaxGeometryDims))
    return "takes indices of at least 1 dim and data of at most " +
           std::to_string(kMaxGeometryDims) + " dims, got " + shapes;
  int64_t k = indices.back();
  if (k < 0 || k > int64_t(data.size()))
    return "takes indices.shape[-1] of at most data.ndim, got " + shapes;
  ShapeRef want(indices.begin(), indices.end() - 1);
  want.insert(want.end(), data.begin() + k, data.end());
  if (want != updates)
    return "takes updates.shape = indices.shape[:-1] + data.shape[K:], got " + shapes;
  g.depth = k;
  g.rows = productOf(indices, 0, indices.size() - 1);
  g.inner = productOf(data, size_t(k), data.size());
  for (int64_t j = 0; j < k; ++j)
    g.strides[j] = productOf(data, size_t(j + 1), data.size());
  return "";
}

/// numpy's slice of [start, end) by step >= 1 (negative bounds count from
/// the end, both clamped), which src must fill exactly.
inline std::string sliceScatterRange(const ShapeRef &data, const ShapeRef &src, int64_t axis,
                                     int64_t start, int64_t end, int64_t step,
                                     SliceScatterRange &r) {
  if (step < 1)
    return "takes step >= 1, got " + std::to_string(step);
  int64_t n = data[size_t(axis)];
  auto clampBound = [n](int64_t v) {
    v = v < 0 ? v + n : v;
    return v < 0 ? int64_t(0) : v > n ? n : v;
  };
  r.begin = clampBound(start);
  int64_t stop = clampBound(end);
  r.step = step;
  r.length = stop > r.begin ? (stop - r.begin + step - 1) / step : 0;
  ShapeRef want = data;
  want[size_t(axis)] = r.length;
  if (src != want)
    return "takes src of shape " + shapeText(want) + " for data " + shapeText(data) + " and " +
           std::to_string(start) + ":" + std::to_string(end) + ":" + std::to_string(step) +
           " along axis " + std::to_string(axis) + ", got " + shapeText(src);
  return "";
}

/// "reflect", "replicate", "circular"; any other mode pads with the value,
/// as TVM's legalization does.
inline PadMode parsePadMode(std::string_view mode) {
  if (mode == "reflect")
    return PadMode::Reflect;
  if (mode == "replicate")
    return PadMode::Replicate;
  if (mode == "circular")
    return PadMode::Circular;
  return PadMode::Constant;
}

inline std::string checkPad(const ShapeRef &shape, const ShapeRef &width, PadMode mode) {
  if (width.size() != 2 * shape.size() || shape.size() > size_t(kMaxGeometryDims))
    return "takes pad_width of 2 * ndim (" + std::to_string(2 * shape.size()) +
           ") entries for at most " + std::to_string(kMaxGeometryDims) + " dims, got " +
           std::to_string(width.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t before = width[2 * d], after = width[2 * d + 1], n = shape[d];
    if (before < 0 || after < 0)
      return "takes non-negative pad widths, got " + shapeText(width);
    bool pads = before > 0 || after > 0;
    if (mode == PadMode::Reflect && pads && (before >= n || after >= n))
      return "reflect-pads at most size - 1 on each side, got " + shapeText(width) + " for shape " +
             shapeText(shape);
    if (mode != PadMode::Constant && pads && n == 0)
      return "cannot " +
             std::string(mode == PadMode::Reflect     ? "reflect"
                         : mode == PadMode::Replicate ? "replicate"
                                                      : "wrap") +
             " an empty dim";
  }
  return "";
}

/// perm[i]: the dim of `layout` holding "NCHW"[i]; none unless a
/// permutation of NCHW.
inline std::optional<std::vector<int64_t>> layoutToNCHW(std::string_view layout) {
  if (layout.size() != 4)
    return std::nullopt;
  std::vector<int64_t> perm;
  for (char c : std::string_view("NCHW")) {
    size_t at = layout.find(c);
    if (at == std::string_view::npos || layout.find(c, at + 1) != std::string_view::npos)
      return std::nullopt;
    perm.push_back(int64_t(at));
  }
  return perm;
}

inline std::string parseResize(std::string_view method, std::string_view coords,
                               std::string_view rounding, ResizeParams &p) {
  if (method == "nearest_neighbor")
    p.method = ResizeMethod::Nearest;
  else if (method == "linear")
    p.method = ResizeMethod::Linear;
  else if (method == "cubic")
    p.method = ResizeMethod::Cubic;
  else
    return "takes method nearest_neighbor, linear or cubic, got '" + std::string(method) + "'";
  if (coords == "half_pixel")
    p.coords = ResizeCoords::HalfPixel;
  else if (coords == "align_corners")
    p.coords = ResizeCoords::AlignCorners;
  else if (coords == "asymmetric")
    p.coords = ResizeCoords::Asymmetric;
  else if (coords == "pytorch_half_pixel")
    p.coords = ResizeCoords::PytorchHalfPixel;
  else if (coords == "tf_half_pixel_for_nn")
    p.coords = ResizeCoords::TFHalfPixelForNN;
  else
    return "takes coordinate_transformation_mode half_pixel, align_corners, asymmetric, "
           "pytorch_half_pixel or tf_half_pixel_for_nn, got '" +
           std::string(coords) + "'";
  if (rounding == "round")
    p.rounding = ResizeRounding::Round;
  else if (rounding == "round_prefer_floor")
    p.rounding = ResizeRounding::RoundPreferFloor;
  else if (rounding == "round_prefer_ceil")
    p.rounding = ResizeRounding::RoundPreferCeil;
  else if (rounding == "floor")
    p.rounding = ResizeRounding::Floor;
  else if (rounding == "ceil")
    p.rounding = ResizeRounding::Ceil;
  else if (rounding.empty())
    p.rounding =
        p.coords == ResizeCoords::AlignCorners ? ResizeRounding::Round : ResizeRounding::Floor;
  else
    return "takes rounding_method round, round_prefer_floor, round_prefer_ceil, floor, ceil or "
           "\"\", got '" +
           std::string(rounding) + "'";
  return "";
}

inline std::string parseGridSample(std::string_view method, std::string_view padding,
                                   GridSampleParams &p) {
  if (method == "bilinear")
    p.method = GridMethod::Bilinear;
  else if (method == "nearest")
    p.method = GridMethod::Nearest;
  else
    return "takes method bilinear or nearest, got '" + std::string(method) + "'";
  if (padding == "zeros")
    p.padding = GridPadding::Zeros;
  else if (padding == "border")
    p.padding = GridPadding::Border;
  else if (padding == "reflection")
    p.padding = GridPadding::Reflection;
  else
    return "takes padding_mode zeros, border or reflection, got '" + std::string(padding) + "'";
  return "";
}

#endif

} // namespace graft::kernels

#endif // GRAFT_KERNELS_BATCHBGEOMETRY_H
