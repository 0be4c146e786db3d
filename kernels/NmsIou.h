//===- kernels/NmsIou.h - NMS arithmetic shared by the CPU and CUDA kernels ===//
//
// The pieces of TOPI's all-class NMS (python/tvm/topi/vision/nms.py,
// nms_util.py) whose results the CPU and CUDA kernels must agree on
// exactly: the score order, the count above the score threshold and the
// intersection over union. Everything is in double; on the device each
// operation is an explicitly rounded intrinsic, so no multiply-add is
// contracted and both sides round identically.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_NMSIOU_H
#define GRAFT_KERNELS_NMSIOU_H

#include <cstdint>

#if defined(__CUDACC__)
#define GRAFT_NMS_HD __host__ __device__
#else
#define GRAFT_NMS_HD
#endif

namespace graft::kernels::nms {

GRAFT_NMS_HD inline double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GRAFT_NMS_HD inline double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
GRAFT_NMS_HD inline double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
GRAFT_NMS_HD inline double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
GRAFT_NMS_HD inline double lesser(double a, double b) { return b < a ? b : a; }
GRAFT_NMS_HD inline double greater(double a, double b) { return a < b ? b : a; }

/// Score order: descending, NaN first (as graft's sort); a stable sort
/// keeps ties in box order.
GRAFT_NMS_HD inline bool sortsBefore(double a, double b) {
  bool na = a != a, nb = b != b;
  if (na || nb)
    return na && !nb;
  return b < a;
}

/// TOPI's binary_search: the boundary of the scores above `threshold` in a
/// row sorted in descending order.
GRAFT_NMS_HD inline int64_t countAbove(const double *sorted, int64_t n, double threshold) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = (lo + hi) >> 1;
    if (sorted[mid] > threshold)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// TOPI's calculate_overlap of two boxes given as two corners in either
/// order: intersection over union, 0 when the union is not positive.
GRAFT_NMS_HD inline double iou(const double (&a)[4], const double (&b)[4]) {
  double al = lesser(a[0], a[2]), at = lesser(a[1], a[3]);
  double ar = greater(a[0], a[2]), ab = greater(a[1], a[3]);
  double bl = lesser(b[0], b[2]), bt = lesser(b[1], b[3]);
  double br = greater(b[0], b[2]), bb = greater(b[1], b[3]);
  double w = greater(0.0, sub(lesser(ar, br), greater(al, bl)));
  double h = greater(0.0, sub(lesser(ab, bb), greater(at, bt)));
  double area = mul(h, w);
  double u = sub(add(mul(sub(ar, al), sub(ab, at)), mul(sub(br, bl), sub(bb, bt))), area);
  return u <= 0.0 ? 0.0 : div(area, u);
}

} // namespace graft::kernels::nms

#endif // GRAFT_KERNELS_NMSIOU_H
