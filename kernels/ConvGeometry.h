//===- kernels/ConvGeometry.h - Convolution and pooling windows -*- C++ -*-===//
//
// The geometry the CPU and CUDA kernels of nn.conv*, nn.conv*_transpose,
// nn.max/avg_pool* and nn.adaptive_avg_pool* share: each tensor is read
// through element strides in its canonical axis order (NC + spatial, OI +
// spatial, IO + spatial), whatever its layout, and every op is treated as
// 3-d with the missing leading spatial dims of extent 1. The per-element
// computations below are the whole semantics; each kernel only walks the
// output and converts elements. Plain C++17 (no LLVM, no exceptions), so
// nvcc compiles it for the device.
//
// Semantics follow TVM v0.23's TOPI (python/tvm/topi/nn/conv2d.py,
// conv2d_transpose.py, include/tvm/topi/nn/pooling.h): pools with
// ceil_mode drop a last window that would start in the bottom padding, and
// an average's divisor counts what count_include_pad says.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CONVGEOMETRY_H
#define GRAFT_KERNELS_CONVGEOMETRY_H

#include <cstdint>
#include <string>
#include <vector>

#ifdef __CUDACC__
#define GRAFT_HD __host__ __device__
#else
#define GRAFT_HD
#endif

namespace graft::kernels::conv {

constexpr int kSlots = 3; ///< Spatial dims every op is brought to.
constexpr int kRank = kSlots + 2;

/// One spatial dim: its input, window and output extents.
struct Window {
  int64_t in = 1, k = 1, out = 1, stride = 1, dil = 1, padBefore = 0, padAfter = 0;
};

/// A convolution or pool brought to canonical 3-d form. Element strides
/// are in canonical order: data and output (N, C, D, H, W), weight (O, I,
/// D, H, W) for a convolution and (I, O, D, H, W) for a transposed one.
struct Geometry {
  int64_t batch = 0, inC = 0, outC = 0, groups = 1;
  Window w[kSlots];
  int64_t data[kRank] = {}, weight[kRank] = {}, out[kRank] = {};

  GRAFT_HD int64_t outNumel() const { return batch * outC * w[0].out * w[1].out * w[2].out; }

  /// The canonical output index of row-major position `i`: n, c, o[3].
  GRAFT_HD void outIndex(int64_t i, int64_t &n, int64_t &c, int64_t (&o)[kSlots]) const {
    for (int s = kSlots - 1; s >= 0; --s) {
      o[s] = i % w[s].out;
      i /= w[s].out;
    }
    c = i % outC;
    n = i / outC;
  }
  GRAFT_HD int64_t outOffset(int64_t n, int64_t c, const int64_t (&o)[kSlots]) const {
    return n * out[0] + c * out[1] + o[0] * out[2] + o[1] * out[3] + o[2] * out[4];
  }
};

/// A tensor as the geometry sees it: shape and element strides.
struct TensorDesc {
  int ndim = 0;
  const int64_t *shape = nullptr;
  const int64_t *strides = nullptr;
};

/// Where each canonical axis letter sits in `layout`; an error unless the
/// layout is a permutation of `canonical` (packed sub-axes such as NCHW4c
/// are refused: legalize-ops does not lower them).
inline std::string axisPositions(const std::string &layout, const std::string &canonical,
                                 int *pos) {
  if (layout.size() != canonical.size())
    return "layout \"" + layout + "\" is not a permutation of " + canonical;
  for (size_t i = 0; i < canonical.size(); ++i) {
    size_t at = layout.find(canonical[i]);
    if (at == std::string::npos)
      return "layout \"" + layout + "\" is not a permutation of " + canonical;
    pos[i] = static_cast<int>(at);
  }
  return "";
}

/// Canonical extents and strides of `t` read through `layout`, with the
/// spatial dims right-aligned into kSlots (missing ones: extent 1, stride 0).
inline std::string canonicalize(const TensorDesc &t, const std::string &layout,
                                const std::string &canonical, const char *what, int64_t *shape,
                                int64_t *strides) {
  int pos[kRank];
  std::string err = axisPositions(layout, canonical, pos);
  if (!err.empty())
    return std::string(what) + ": " + err;
  int rank = static_cast<int>(canonical.size());
  if (t.ndim != rank)
    return std::string(what) + " has " + std::to_string(t.ndim) + " dims, but its layout \"" +
           layout + "\" has " + std::to_string(rank);
  int skip = kRank - rank;
  for (int i = 0; i < kRank; ++i) {
    shape[i] = 1;
    strides[i] = 0;
  }
  for (int i = 0; i < rank; ++i) {
    int slot = i < 2 ? i : i + skip;
    shape[slot] = t.shape[pos[i]];
    strides[slot] = t.strides[pos[i]];
  }
  return "";
}

inline std::string shapeText(const int64_t *shape, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (n == 1 ? ",)" : ")");
}

/// The spatial part of a canonical shape, as the op's rank shows it.
inline std::string spatialText(const int64_t *shape, int spatial) {
  return shapeText(shape + kRank - spatial, spatial);
}

/// Spatial attributes: `n` entries (padding 2n: before..., after...).
inline std::string checkList(const std::vector<int64_t> &v, size_t n, const char *name) {
  if (v.size() != n)
    return std::string(name) + " must have " + std::to_string(n) + " entries, got " +
           std::to_string(v.size());
  return "";
}

struct ConvAttrs {
  std::vector<int64_t> strides, padding, dilation, outputPadding;
  int64_t groups = 1;
  std::string dataLayout, kernelLayout, outLayout;
};

/// The canonical names of an op with `spatial` dims.
inline std::string dataCanonical(int spatial) {
  return spatial == 1 ? "NCW" : spatial == 2 ? "NCHW" : "NCDHW";
}

/// Fills `g` for conv (transpose false) or conv_transpose and checks every
/// shape against the attributes; the error text, "" on success.
inline std::string convGeometry(int spatial, bool transpose, const TensorDesc &data,
                                const TensorDesc &weight, const TensorDesc &out, const ConvAttrs &a,
                                Geometry &g) {
  std::string dc = dataCanonical(spatial);
  std::string kc = (transpose ? "IO" : "OI") + dc.substr(2);
  std::string err;
  size_t s = static_cast<size_t>(spatial);
  if (!(err = checkList(a.strides, s, "strides")).empty() ||
      !(err = checkList(a.padding, 2 * s, "padding")).empty() ||
      !(err = checkList(a.dilation, s, "dilation")).empty() ||
      (transpose && !(err = checkList(a.outputPadding, s, "output_padding")).empty()))
    return err;
  int64_t ds[kRank], ws[kRank], os[kRank];
  std::string outLayout = a.outLayout.empty() ? a.dataLayout : a.outLayout;
  if (!(err = canonicalize(data, a.dataLayout, dc, "data", ds, g.data)).empty() ||
      !(err = canonicalize(weight, a.kernelLayout, kc, "weight", ws, g.weight)).empty() ||
      !(err = canonicalize(out, outLayout, dc, "output", os, g.out)).empty())
    return err;
  if (a.groups < 1)
    return "groups must be positive, got " + std::to_string(a.groups);
  g.groups = a.groups;
  g.batch = ds[0];
  g.inC = ds[1];
  // weight: (O, C/groups, k...) or (C, O/groups, k...).
  int64_t kernelIn = transpose ? ws[0] : ws[1] * a.groups;
  g.outC = transpose ? ws[1] * a.groups : ws[0];
  if (kernelIn != g.inC)
    return "the data's " + std::to_string(g.inC) + " channels do not match the weight's " +
           std::to_string(kernelIn) + (transpose ? "" : " input channels times groups");
  if (g.inC % a.groups || g.outC % a.groups)
    return "groups " + std::to_string(a.groups) + " must divide the input channels " +
           std::to_string(g.inC) + " and output channels " + std::to_string(g.outC);
  int64_t want[kRank] = {g.batch, g.outC, 1, 1, 1};
  for (int i = 0; i < spatial; ++i) {
    int slot = kSlots - spatial + i;
    Window &w = g.w[slot];
    w.in = ds[2 + slot];
    w.k = ws[2 + slot];
    w.stride = a.strides[i];
    w.dil = a.dilation[i];
    w.padBefore = a.padding[i];
    w.padAfter = a.padding[s + i];
    if (w.stride < 1 || w.dil < 1 || w.padBefore < 0 || w.padAfter < 0)
      return "strides and dilation must be positive and padding not negative";
    int64_t span = w.dil * (w.k - 1) + 1;
    if (transpose) {
      want[2 + slot] = (w.in - 1) * w.stride - w.padBefore - w.padAfter + span + a.outputPadding[i];
    } else {
      int64_t num = w.in + w.padBefore + w.padAfter - span;
      want[2 + slot] = num < 0 ? 0 : num / w.stride + 1;
    }
    w.out = os[2 + slot];
  }
  for (int i = 0; i < kRank; ++i)
    if (os[i] != want[i])
      return "the output must have the canonical shape " + shapeText(want, 2) + " + " +
             spatialText(want, spatial) + ", got " + shapeText(os, 2) + " + " +
             spatialText(os, spatial);
  return "";
}

struct PoolAttrs {
  std::vector<int64_t> poolSize, strides, padding, dilation;
  bool ceilMode = false, countIncludePad = false;
  std::string layout, outLayout;
};

/// TOPI's pooled extent: floor (or ceil) division, without a last window
/// that would start in the bottom padding.
GRAFT_HD inline int64_t pooledExtent(const Window &w, bool ceilMode) {
  int64_t num = w.in + w.padBefore + w.padAfter - w.dil * (w.k - 1) - 1;
  if (ceilMode)
    num += w.stride - 1;
  int64_t raw = (num >= 0 ? num / w.stride : -((-num + w.stride - 1) / w.stride)) + 1;
  if (ceilMode && (raw - 1) * w.stride >= w.in + w.padBefore)
    --raw;
  return raw;
}

/// Fills `g` for a pool (adaptive when `poolSize` is empty in the attrs and
/// `adaptive` is set); the error text, "" on success.
inline std::string poolGeometry(int spatial, bool adaptive, const TensorDesc &data,
                                const TensorDesc &out, const PoolAttrs &a, Geometry &g) {
  std::string dc = dataCanonical(spatial);
  std::string err;
  size_t s = static_cast<size_t>(spatial);
  if (!adaptive && (!(err = checkList(a.poolSize, s, "pool_size")).empty() ||
                    !(err = checkList(a.strides, s, "strides")).empty() ||
                    !(err = checkList(a.padding, 2 * s, "padding")).empty() ||
                    !(err = checkList(a.dilation, s, "dilation")).empty()))
    return err;
  int64_t ds[kRank], os[kRank];
  std::string outLayout = a.outLayout.empty() ? a.layout : a.outLayout;
  if (!(err = canonicalize(data, a.layout, dc, "data", ds, g.data)).empty() ||
      !(err = canonicalize(out, outLayout, dc, "output", os, g.out)).empty())
    return err;
  g.batch = ds[0];
  g.inC = g.outC = ds[1];
  int64_t want[kRank] = {ds[0], ds[1], 1, 1, 1};
  for (int i = 0; i < spatial; ++i) {
    int slot = kSlots - spatial + i;
    Window &w = g.w[slot];
    w.in = ds[2 + slot];
    w.out = os[2 + slot];
    if (adaptive) {
      want[2 + slot] = w.out;
      if (w.out < 1 && w.in > 0)
        return "an adaptive pool's output extents must be positive";
      continue;
    }
    w.k = a.poolSize[i];
    w.stride = a.strides[i];
    w.dil = a.dilation[i];
    w.padBefore = a.padding[i];
    w.padAfter = a.padding[s + i];
    if (w.k < 1 || w.stride < 1 || w.dil < 1 || w.padBefore < 0 || w.padAfter < 0)
      return "pool_size, strides and dilation must be positive and padding not negative";
    int64_t ext = pooledExtent(w, a.ceilMode);
    want[2 + slot] = ext < 0 ? 0 : ext;
  }
  for (int i = 0; i < kRank; ++i)
    if (os[i] != want[i])
      return "the output must have the canonical shape " + shapeText(want, 2) + " + " +
             spatialText(want, spatial) + ", got " + shapeText(os, 2) + " + " +
             spatialText(os, spatial);
  return "";
}

//===----------------------------------------------------------------------===//
// Per-element computations (host and device)
//===----------------------------------------------------------------------===//

/// The input index a convolution's output `o` reads through window tap `k`,
/// or -1 when that tap lies in the padding.
GRAFT_HD inline int64_t directSource(const Window &w, int64_t o, int64_t k) {
  int64_t i = o * w.stride - w.padBefore + k * w.dil;
  return i >= 0 && i < w.in ? i : -1;
}

/// The input index a transposed convolution's output `o` reads through
/// window tap `k`, or -1 when that tap falls between strides or outside.
GRAFT_HD inline int64_t transposedSource(const Window &w, int64_t o, int64_t k) {
  int64_t t = o + w.padBefore - k * w.dil;
  if (t < 0 || t % w.stride)
    return -1;
  t /= w.stride;
  return t < w.in ? t : -1;
}

/// Adds to `acc`, tap by tap in window order, the products of one data
/// channel (at dBase) and one weight slice (at wBase) over the window.
template <bool Transposed, class A, class Load>
GRAFT_HD void accumulateWindow(const Geometry &g, const int64_t (&o)[kSlots], int64_t dBase,
                               int64_t wBase, Load &load, A &acc) {
  auto source = [&](int d, int64_t k) {
    return Transposed ? transposedSource(g.w[d], o[d], k) : directSource(g.w[d], o[d], k);
  };
  for (int64_t k0 = 0; k0 < g.w[0].k; ++k0) {
    int64_t i0 = source(0, k0);
    if (i0 < 0)
      continue;
    for (int64_t k1 = 0; k1 < g.w[1].k; ++k1) {
      int64_t i1 = source(1, k1);
      if (i1 < 0)
        continue;
      for (int64_t k2 = 0; k2 < g.w[2].k; ++k2) {
        int64_t i2 = source(2, k2);
        if (i2 < 0)
          continue;
        A x = load(0, dBase + i0 * g.data[2] + i1 * g.data[3] + i2 * g.data[4]);
        A y = load(1, wBase + k0 * g.weight[2] + k1 * g.weight[3] + k2 * g.weight[4]);
        acc += x * y;
      }
    }
  }
}

/// One output element of a convolution: the sum over the group's input
/// channels and the window. `load(tensor, offset)` reads element `offset`
/// of the data (tensor 0) or the weight (tensor 1) as A.
template <class A, class Load>
GRAFT_HD A convAt(const Geometry &g, int64_t n, int64_t oc, const int64_t (&o)[kSlots], Load load) {
  int64_t icPer = g.inC / g.groups, ocPer = g.outC / g.groups, grp = oc / ocPer;
  A acc = A(0);
  for (int64_t ic = 0; ic < icPer; ++ic) {
    int64_t cin = grp * icPer + ic;
    accumulateWindow<false>(g, o, n * g.data[0] + cin * g.data[1],
                            oc * g.weight[0] + ic * g.weight[1], load, acc);
  }
  return acc;
}

/// One output element of a transposed convolution (the gradient of conv
/// with respect to its data): weight (C, O/groups, k...).
template <class A, class Load>
GRAFT_HD A convTransposeAt(const Geometry &g, int64_t n, int64_t oc, const int64_t (&o)[kSlots],
                           Load load) {
  int64_t icPer = g.inC / g.groups, ocPer = g.outC / g.groups;
  int64_t grp = oc / ocPer, ocl = oc % ocPer;
  A acc = A(0);
  for (int64_t ic = 0; ic < icPer; ++ic) {
    int64_t cin = grp * icPer + ic;
    accumulateWindow<true>(g, o, n * g.data[0] + cin * g.data[1],
                           cin * g.weight[0] + ocl * g.weight[1], load, acc);
  }
  return acc;
}

/// TOPI's divisor of an average pool's window along one dim (the product
/// over dims is then clamped to at least 1 when padding is excluded).
GRAFT_HD inline int64_t avgCount(const Window &w, int64_t o, bool includePad) {
  int64_t start = o * w.stride - w.padBefore;
  int64_t end = start + (w.k - 1) * w.dil;
  if (includePad) {
    int64_t last = w.in + w.padAfter - 1;
    end = end < last ? end : last;
    return (end - start) / w.dil + 1;
  }
  int64_t jumps = (w.dil - 1 - start) / w.dil;
  jumps = jumps > 0 ? jumps : 0;
  end = end < w.in - 1 ? end : w.in - 1;
  return (end - (start + w.dil * jumps)) / w.dil + 1;
}

/// One output element of a max (Max) or average pool over the taps inside
/// the data; `lowest` is what a window without any such tap yields for max.
template <bool Max, class A, class Load>
GRAFT_HD A poolAt(const Geometry &g, int64_t n, int64_t c, const int64_t (&o)[kSlots],
                  bool includePad, A lowest, Load load) {
  int64_t base = n * g.data[0] + c * g.data[1];
  A acc = Max ? lowest : A(0);
  for (int64_t k0 = 0; k0 < g.w[0].k; ++k0) {
    int64_t i0 = o[0] * g.w[0].stride - g.w[0].padBefore + k0 * g.w[0].dil;
    if (i0 < 0 || i0 >= g.w[0].in)
      continue;
    for (int64_t k1 = 0; k1 < g.w[1].k; ++k1) {
      int64_t i1 = o[1] * g.w[1].stride - g.w[1].padBefore + k1 * g.w[1].dil;
      if (i1 < 0 || i1 >= g.w[1].in)
        continue;
      for (int64_t k2 = 0; k2 < g.w[2].k; ++k2) {
        int64_t i2 = o[2] * g.w[2].stride - g.w[2].padBefore + k2 * g.w[2].dil;
        if (i2 < 0 || i2 >= g.w[2].in)
          continue;
        A x = load(0, base + i0 * g.data[2] + i1 * g.data[3] + i2 * g.data[4]);
        if (Max) {
          // NaN wins, as in numpy and PyTorch.
          if (x != x || (acc == acc && x > acc))
            acc = x;
        } else {
          acc += x;
        }
      }
    }
  }
  if (Max)
    return acc;
  int64_t count = 1;
  for (int s = 0; s < kSlots; ++s)
    count *= avgCount(g.w[s], o[s], includePad);
  if (!includePad && count < 1)
    count = 1;
  return acc / A(count);
}

/// The first tap of output window `o` holding its maximum (a NaN wins, as
/// in poolAt), as a flat canonical data offset; -1 for a window without
/// taps inside the data.
template <class A, class Load>
GRAFT_HD int64_t poolArgMax(const Geometry &g, int64_t base, const int64_t (&o)[kSlots],
                            Load load) {
  int64_t best = -1;
  A acc = A(0);
  for (int64_t k0 = 0; k0 < g.w[0].k; ++k0) {
    int64_t i0 = directSource(g.w[0], o[0], k0);
    if (i0 < 0)
      continue;
    for (int64_t k1 = 0; k1 < g.w[1].k; ++k1) {
      int64_t i1 = directSource(g.w[1], o[1], k1);
      if (i1 < 0)
        continue;
      for (int64_t k2 = 0; k2 < g.w[2].k; ++k2) {
        int64_t i2 = directSource(g.w[2], o[2], k2);
        if (i2 < 0)
          continue;
        int64_t at = base + i0 * g.data[2] + i1 * g.data[3] + i2 * g.data[4];
        A x = load(0, at);
        if (best < 0 || (acc == acc && (x != x || x > acc))) {
          best = at;
          acc = x;
        }
      }
    }
  }
  return best;
}

/// One element of a pool's gradient with respect to its data (TOPI's
/// pool_grad): the sum, over the output windows that hold data element
/// `i`, of the window's incoming gradient, divided by the window's count
/// (average) or taken only where `i` is the window's first maximum (max).
/// `load(0, offset)` reads the data, `load(1, offset)` the gradient, both
/// through the geometry's canonical strides (g.out describes the gradient).
template <bool Max, class A, class Load>
GRAFT_HD A poolGradAt(const Geometry &g, int64_t n, int64_t c, const int64_t (&i)[kSlots],
                      bool includePad, Load load) {
  int64_t base = n * g.data[0] + c * g.data[1];
  int64_t self = base + i[0] * g.data[2] + i[1] * g.data[3] + i[2] * g.data[4];
  A acc = A(0);
  int64_t o[kSlots];
  // Window o holds i at tap k when o * stride - padBefore + k * dil == i.
  auto window = [&](int s, int64_t k) -> int64_t {
    int64_t t = i[s] + g.w[s].padBefore - k * g.w[s].dil;
    if (t < 0 || t % g.w[s].stride)
      return -1;
    t /= g.w[s].stride;
    return t < g.w[s].out ? t : -1;
  };
  for (int64_t k0 = 0; k0 < g.w[0].k; ++k0) {
    if ((o[0] = window(0, k0)) < 0)
      continue;
    for (int64_t k1 = 0; k1 < g.w[1].k; ++k1) {
      if ((o[1] = window(1, k1)) < 0)
        continue;
      for (int64_t k2 = 0; k2 < g.w[2].k; ++k2) {
        if ((o[2] = window(2, k2)) < 0)
          continue;
        A grad = load(1, g.outOffset(n, c, o));
        if (Max) {
          if (poolArgMax<A>(g, base, o, load) == self)
            acc += grad;
          continue;
        }
        int64_t count = 1;
        for (int s = 0; s < kSlots; ++s)
          count *= avgCount(g.w[s], o[s], includePad);
        acc += grad / A(count < 1 ? 1 : count);
      }
    }
  }
  return acc;
}

/// One output element of an adaptive average pool: output o of n covers
/// inputs [floor(o * in / n), ceil((o + 1) * in / n)).
template <class A, class Load>
GRAFT_HD A adaptiveAt(const Geometry &g, int64_t n, int64_t c, const int64_t (&o)[kSlots],
                      Load load) {
  int64_t lo[kSlots], hi[kSlots];
  int64_t count = 1;
  for (int s = 0; s < kSlots; ++s) {
    const Window &w = g.w[s];
    lo[s] = o[s] * w.in / w.out;
    hi[s] = ((o[s] + 1) * w.in + w.out - 1) / w.out;
    count *= hi[s] - lo[s];
  }
  int64_t base = n * g.data[0] + c * g.data[1];
  A acc = A(0);
  for (int64_t i0 = lo[0]; i0 < hi[0]; ++i0)
    for (int64_t i1 = lo[1]; i1 < hi[1]; ++i1)
      for (int64_t i2 = lo[2]; i2 < hi[2]; ++i2)
        acc += load(0, base + i0 * g.data[2] + i1 * g.data[3] + i2 * g.data[4]);
  return count > 0 ? acc / A(count) : acc;
}

} // namespace graft::kernels::conv

#endif // GRAFT_KERNELS_CONVGEOMETRY_H
