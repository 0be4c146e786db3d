//===- ir/StructuralDetail.h - Float rules shared by equal and hash -*- C++ -*-===//
//
// Private to ir/StructuralEqual.cpp and ir/StructuralHash.cpp: the one place
// that says when two floats are "the same" (bit for bit, except that every
// NaN equals every NaN), so equality and hash cannot drift apart.
//
// Tensor data (Constant): v0.23 compares the bytes with memcmp, which would
// make two NaN payloads differ. graft's product rule (docs/text-format.md) says every NaN
// equals every NaN, so for float16/bfloat16/float32/float64 data the bytes
// are compared element by element with that rule; every other dtype (ints,
// bool, float8, ...) is compared byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_STRUCTURALDETAIL_H
#define GRAFT_IR_STRUCTURALDETAIL_H

#include "ir/DataType.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace graft {
namespace structural {

inline uint64_t doubleBits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

/// Bit for bit, except that every NaN equals every NaN (-0.0 != 0.0).
inline bool floatSame(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return doubleBits(a) == doubleBits(b);
}

/// The bits a float hashes by: one canonical NaN.
inline uint64_t floatHashBits(double v) {
  return std::isnan(v) ? 0x7ff8000000000000ULL : doubleBits(v);
}

/// Element width in bytes when `dt` is a float layout whose NaNs graft
/// recognizes (f16, bf16, f32, f64, one lane); 0 otherwise.
inline unsigned nanAwareWidth(DataType dt) {
  if (dt.lanes != 1)
    return 0;
  if (dt.code == DataType::Float && (dt.bits == 16 || dt.bits == 32 || dt.bits == 64))
    return dt.bits / 8;
  if (dt.code == DataType::BFloat && dt.bits == 16)
    return 2;
  return 0;
}

/// Whether the element at `p` (width from nanAwareWidth) is a NaN.
inline bool isNaNElement(DataType dt, const uint8_t *p) {
  switch (dt.bits) {
  case 16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    if (dt.code == DataType::BFloat)
      return (v & 0x7f80u) == 0x7f80u && (v & 0x007fu) != 0;
    return (v & 0x7c00u) == 0x7c00u && (v & 0x03ffu) != 0;
  }
  case 32: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return (v & 0x7f800000u) == 0x7f800000u && (v & 0x007fffffu) != 0;
  }
  case 64: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return (v & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (v & 0x000fffffffffffffULL) != 0;
  }
  default:
    return false;
  }
}

} // namespace structural
} // namespace graft

#endif // GRAFT_IR_STRUCTURALDETAIL_H
