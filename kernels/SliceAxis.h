//===- kernels/SliceAxis.h - numpy's slice of one axis ----------*- C++ -*-===//
//
// The normalization strided_slice and dynamic_strided_slice apply to each
// axis, shared by the CPU kernels, the fused program evaluator and the CUDA
// kernels' host set-up, so that every path cuts the same elements. Plain
// C++17, no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_SLICEAXIS_H
#define GRAFT_KERNELS_SLICEAXIS_H

#include <algorithm>
#include <cstdint>
#include <utility>

namespace graft::kernels {

/// numpy's slice of an axis of extent n by begin, end and a non-zero step:
/// (start, length).
inline std::pair<int64_t, int64_t> sliceAxis(int64_t n, int64_t begin, int64_t end, int64_t step) {
  auto clampIdx = [&](int64_t i) {
    if (i < 0)
      i += n;
    return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
  };
  int64_t b = clampIdx(begin), e = clampIdx(end);
  int64_t span = step > 0 ? e - b : b - e;
  // Unsigned: |INT64_MIN| and span + |step| - 1 do not fit an int64_t.
  uint64_t mag = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
  return {b, span <= 0 ? 0 : int64_t(1 + uint64_t(span - 1) / mag)};
}

} // namespace graft::kernels

#endif // GRAFT_KERNELS_SLICEAXIS_H
