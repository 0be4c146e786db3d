//===- kernels/LayoutGather.h - layout_transform as a gather -*- C++ -*-===//
//
// The CUDA layout_transform kernel's fast form. The index map runs forward
// (input index -> output index, kernels/IndexMapPlan.h); run per input
// element it scatters, interprets its program and divides in 64 bits, and
// the output needs a second pass for the padding. Layout maps (split,
// permute, fuse, pad) factor into independent groups: the output indices of
// a group read only the input indices of that group (NCHW -> NCHW4c:
// {n}->{n}, {c}->{c // 4, c % 4}, {h}->{h}, {w}->{w}). Each group is
// inverted on the host, so every output element finds its input element
// (or learns it is padding) and the kernel writes the output once, in
// order:
//
//  - a linear group (one input index i) has i = bias + sum_k weight_k o_k
//    over its output indices o_k, exactly where some input maps to o and
//    outside [0, extent) everywhere else (checked over the group's whole
//    output box), so padding is a range check;
//  - any other group gets a table over its output box: the input element
//    offset of the group's input indices, or -1 for padding.
//
// The groups are found from which input indices each output program reads
// (a structural fact, not a numeric guess), and the inversion enumerates
// each group's inputs through the map itself, so the result is the forward
// map's for every map the plan accepts. A map that is not injective, too
// large a group, or a tensor past 32-bit offsets is refused ("" means
// accepted) and the interpreter runs instead. Output coordinates come from
// the flat index by division by invariant integers (multiply-high and
// shift, valid below 2^31).
//
// Plain C++ without LLVM or exceptions: the host test runs gatherOffsets
// against the CPU kernel without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_LAYOUTGATHER_H
#define GRAFT_KERNELS_LAYOUTGATHER_H

#include "kernels/IndexMapPlan.h"

#include <cstdint>
#include <string>
#include <vector>

// Loops over the plan's fixed dims unroll on the device (the host compilers
// reject the pragma).
#ifdef __CUDA_ARCH__
#define GRAFT_UNROLL _Pragma("unroll")
#else
#define GRAFT_UNROLL
#endif

namespace graft::kernels::indexmap {

/// n / d for 0 <= n < 2^31 and 1 <= d < 2^31 by a multiply-high and a
/// shift: with s = ceil(log2 d) and m = floor(2^32 (2^s - d) / d) + 1
/// (which fits 32 bits), n / d = (mulhi(n, m) + n) >> s; the sum stays
/// below 2^32 because both terms are below 2^31.
struct FastDiv {
  uint32_t d = 1, m = 1, s = 0;

  static FastDiv of(uint32_t d) {
    FastDiv f;
    f.d = d;
    while (f.s < 32 && (uint64_t(1) << f.s) < d)
      ++f.s;
    f.m = uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << f.s) - d)) / d + 1);
    return f;
  }
  GRAFT_HD uint32_t div(uint32_t n) const {
#ifdef __CUDA_ARCH__
    uint32_t hi = __umulhi(n, m);
#else
    uint32_t hi = uint32_t((uint64_t(n) * m) >> 32);
#endif
    return (hi + n) >> s;
  }
};

constexpr int kGatherDims = 8;     ///< Output rank the plan holds (the kernel's 4 or 8).
constexpr int kGatherTable = 2048; ///< Table entries of all table groups together.
/// Inputs, and output box, of one group at most (the host enumerates them
/// once per distinct call).
constexpr int64_t kGatherEnumerate = int64_t(1) << 20;

/// Output dims are padded at the front with dims of extent 1 up to `ndim`
/// (4, 6 or 8: the kernel's unrolled rank);
/// group 0 holds the last output dim (whose consecutive elements a thread
/// takes). Offsets are in elements; arithmetic wraps in 32 bits (the
/// host checks that the values that matter do not).
struct GatherPlan {
  int ndim = 0, groups = 0;
  uint32_t shape[kGatherDims] = {};
  FastDiv div[kGatherDims] = {};
  uint32_t weight[kGatherDims][kGatherDims] = {}; ///< [group][output dim]
  uint32_t bias[kGatherDims] = {};   ///< Linear: added to the index; table: its first entry.
  int32_t extent[kGatherDims] = {};  ///< Linear: the input extent; table: -1.
  uint32_t stride[kGatherDims] = {}; ///< Linear: the input index's element stride.
  int32_t tableLen = 0;
  int32_t table[kGatherTable] = {};
};

/// Adds group g's part of the input offset for its index i, or clears hit
/// when the element is padding.
GRAFT_HD inline void gatherLookup(const GatherPlan &p, const int32_t *table, int g, uint32_t i,
                                  uint32_t &off, bool &hit) {
  if (p.extent[g] < 0) {
    int32_t t = table[i];
    hit = hit && t >= 0;
    off += uint32_t(t);
  } else {
    hit = hit && i < uint32_t(p.extent[g]);
    off += i * p.stride[g];
  }
}

/// The input element offsets of output elements first .. first + V - 1
/// (consecutive along the last dim: V divides its extent and first), and
/// whether each has an input element (else it is padding). `table` is the
/// plan's table (the kernel's copy in shared memory).
template <int KT, int V>
GRAFT_HD inline void gatherOffsets(const GatherPlan &p, const int32_t *table, uint32_t first,
                                   uint32_t (&off)[V], bool (&hit)[V]) {
  uint32_t idx[KT];
  GRAFT_UNROLL
  for (int g = 0; g < KT; ++g)
    idx[g] = p.bias[g];
  uint32_t rest = first;
  GRAFT_UNROLL
  for (int k = KT - 1; k >= 0; --k) {
    uint32_t o = rest;
    if (k > 0) {
      uint32_t q = p.div[k].div(rest);
      o = rest - q * p.shape[k];
      rest = q;
    }
    GRAFT_UNROLL
    for (int g = 0; g < KT; ++g)
      idx[g] += o * p.weight[g][k];
  }
  uint32_t base = 0;
  bool ok = true;
  GRAFT_UNROLL
  for (int g = 1; g < KT; ++g)
    if (g < p.groups)
      gatherLookup(p, table, g, idx[g], base, ok);
  GRAFT_UNROLL
  for (int e = 0; e < V; ++e) {
    off[e] = base;
    hit[e] = ok;
    gatherLookup(p, table, 0, idx[0] + uint32_t(e) * p.weight[0][KT - 1], off[e], hit[e]);
  }
}

/// Builds the gather plan of `map` from an input of `inNdim` dims (extents
/// and element strides) to a compact output; "" when it applies, else why
/// not (the interpreter then runs).
inline std::string buildGatherPlan(const IndexMapPlan &map, int inNdim, const int64_t *inShape,
                                   const int64_t *inStride, int outNdim, const int64_t *outShape,
                                   GatherPlan &g) {
  g = GatherPlan();
  if (outNdim < 1 || outNdim > kGatherDims || inNdim > kGatherDims)
    return "rank";
  int64_t nOut = 1, maxOff = 0;
  for (int k = 0; k < outNdim; ++k) {
    nOut *= outShape[k];
    if (outShape[k] <= 0 || nOut >= (int64_t(1) << 31))
      return "empty output or past 32 bits";
  }
  for (int d = 0; d < inNdim; ++d) {
    if (inShape[d] <= 0 || inStride[d] < 0)
      return "empty input or negative stride";
    maxOff += (inShape[d] - 1) * inStride[d];
    if (maxOff >= (int64_t(1) << 31))
      return "input offsets past 32 bits";
  }
  // Which input indices each output program reads.
  unsigned reads[kGatherDims] = {};
  for (int i = 0, k = 0; i < map.len; ++i) {
    int64_t t = map.code[i];
    if (t == kVar)
      reads[k] |= 1u << map.code[++i];
    else if (t == kConst)
      ++i;
    else if (t == kEnd)
      ++k;
  }
  // Groups: connected components of (input index, output index) pairs.
  int comp[kGatherDims]; // group of each output dim
  unsigned groupIn[kGatherDims] = {};
  int groups = 0;
  for (int k = 0; k < outNdim; ++k)
    comp[k] = -1;
  // Group 0 grows from the last output dim, the others from the first
  // output dim not yet in a group.
  for (int step = 0; step < outNdim; ++step) {
    int seed = step == 0 ? outNdim - 1 : step - 1;
    if (comp[seed] >= 0)
      continue;
    int gi = groups++;
    comp[seed] = gi;
    unsigned ins = reads[seed];
    for (bool grew = true; grew;) {
      grew = false;
      for (int k = 0; k < outNdim; ++k)
        if (comp[k] < 0 && (reads[k] & ins)) {
          comp[k] = gi;
          ins |= reads[k];
          grew = true;
        }
    }
    groupIn[gi] = ins;
  }
  unsigned used = 0;
  for (int gi = 0; gi < groups; ++gi)
    used |= groupIn[gi];
  for (int d = 0; d < inNdim; ++d)
    if (!(used >> d & 1) && inShape[d] > 1)
      return "an input index the map does not read"; // not injective
  const int kt = outNdim <= 4 ? 4 : outNdim <= 6 ? 6 : 8, pad = kt - outNdim;
  g.ndim = kt;
  g.groups = groups;
  for (int k = 0; k < kt; ++k) {
    g.shape[k] = k < pad ? 1u : uint32_t(outShape[k - pad]);
    g.div[k] = FastDiv::of(g.shape[k]);
  }
  int64_t src[kMaxRank] = {}, dst[kMaxRank] = {};
  for (int gi = 0; gi < groups; ++gi) {
    std::vector<int> ins, outs;
    int64_t inCount = 1, box = 1;
    for (int d = 0; d < inNdim; ++d)
      if (groupIn[gi] >> d & 1) {
        ins.push_back(d);
        inCount *= inShape[d];
        if (inCount > kGatherEnumerate)
          return "a group with too many inputs";
      }
    for (int k = 0; k < outNdim; ++k)
      if (comp[k] == gi) {
        outs.push_back(k);
        box *= outShape[k];
        if (box > kGatherEnumerate)
          return "a group with too large an output box";
      }
    // radix[j]: the box index weight of outs[j] (the last fastest).
    std::vector<int64_t> radix(outs.size());
    for (int64_t j = int64_t(outs.size()) - 1, r = 1; j >= 0; --j) {
      radix[j] = r;
      r *= outShape[outs[j]];
    }
    // The inverse over the box: the input index (one input) or element
    // offset (several) of each output tuple, -1 where none maps.
    std::vector<int64_t> inverse(size_t(box), -1);
    for (int d = 0; d < inNdim; ++d)
      src[d] = 0;
    for (int64_t n = 0; n < inCount; ++n) {
      int64_t rest = n, offset = 0;
      for (int64_t j = int64_t(ins.size()) - 1; j >= 0; --j) {
        src[ins[j]] = rest % inShape[ins[j]];
        rest /= inShape[ins[j]];
        offset += src[ins[j]] * inStride[ins[j]];
      }
      applyPlan(map, src, dst);
      int64_t t = 0;
      bool inside = true;
      for (size_t j = 0; j < outs.size(); ++j) {
        int64_t o = dst[outs[j]];
        inside = inside && o >= 0 && o < outShape[outs[j]];
        t += o * radix[j];
      }
      if (!inside)
        continue; // The interpreter skips such an input as well.
      if (inverse[size_t(t)] >= 0)
        return "not injective";
      inverse[size_t(t)] = ins.size() == 1 ? src[ins[0]] : offset;
    }
    // A linear inverse for one input index: weights from neighbours that
    // both have a preimage, the bias from any one that has.
    bool linear = ins.size() == 1;
    std::vector<int64_t> w(outs.size(), 0);
    int64_t bias = 0, extent = linear ? inShape[ins[0]] : 0;
    if (linear) {
      for (size_t j = 0; j < outs.size(); ++j)
        for (int64_t t = 0; t < box; ++t) {
          int64_t o = t / radix[j] % outShape[outs[j]];
          if (o + 1 < outShape[outs[j]] && inverse[size_t(t)] >= 0 &&
              inverse[size_t(t + radix[j])] >= 0) {
            w[j] = inverse[size_t(t + radix[j])] - inverse[size_t(t)];
            break;
          }
        }
      bool any = false;
      for (int64_t t = 0; t < box && !any; ++t)
        if (inverse[size_t(t)] >= 0) {
          any = true;
          bias = inverse[size_t(t)];
          for (size_t j = 0; j < outs.size(); ++j)
            bias -= w[j] * (t / radix[j] % outShape[outs[j]]);
        }
      if (!any)
        extent = 0; // Nothing lands in the output: all padding.
      // No wrap in 32 bits anywhere in the box, and exact on it.
      int64_t reach = bias < 0 ? -bias : bias;
      for (size_t j = 0; j < outs.size(); ++j)
        reach += (w[j] < 0 ? -w[j] : w[j]) * (outShape[outs[j]] - 1);
      linear = reach < (int64_t(1) << 31);
      for (int64_t t = 0; t < box && linear; ++t) {
        int64_t i = bias;
        for (size_t j = 0; j < outs.size(); ++j)
          i += w[j] * (t / radix[j] % outShape[outs[j]]);
        linear = inverse[size_t(t)] >= 0 ? i == inverse[size_t(t)] : (i < 0 || i >= extent);
      }
    }
    if (linear) {
      for (size_t j = 0; j < outs.size(); ++j)
        g.weight[gi][outs[j] + pad] = uint32_t(w[j]);
      g.bias[gi] = uint32_t(bias);
      g.extent[gi] = int32_t(extent);
      g.stride[gi] = uint32_t(inStride[ins[0]]);
      continue;
    }
    if (g.tableLen + box > kGatherTable)
      return "tables too large";
    for (size_t j = 0; j < outs.size(); ++j)
      g.weight[gi][outs[j] + pad] = uint32_t(radix[j]);
    g.bias[gi] = uint32_t(g.tableLen);
    g.extent[gi] = -1;
    for (int64_t t = 0; t < box; ++t) {
      int64_t v = inverse[size_t(t)];
      if (v >= 0 && ins.size() == 1)
        v *= inStride[ins[0]];
      g.table[g.tableLen + t] = int32_t(v);
    }
    g.tableLen += int32_t(box);
  }
  return "";
}

} // namespace graft::kernels::indexmap

#endif // GRAFT_KERNELS_LAYOUTGATHER_H
