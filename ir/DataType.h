//===- ir/DataType.h - Scalar data types ------------------------*- C++ -*-===//
//
// A TVM-style data type: type code, bits, lanes. `void` (unknown dtype in a
// TensorStructInfo) is Handle with 0 bits and 0 lanes, as in TVM. `bool` is
// UInt with 1 bit, as TVM spells it; at runtime a bool element is one byte
// (DLPack code 6), see kernels/Kernel.h.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_DATATYPE_H
#define GRAFT_IR_DATATYPE_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace graft {

struct DataType {
  enum Code : uint8_t { Int = 0, UInt = 1, Float = 2, Handle = 3, BFloat = 4 };

  uint8_t code = Handle;
  uint8_t bits = 0;
  uint16_t lanes = 0;

  constexpr DataType() = default;
  constexpr DataType(Code code, uint8_t bits, uint16_t lanes = 1)
      : code(code), bits(bits), lanes(lanes) {}

  static constexpr DataType voidType() { return DataType(); }
  static constexpr DataType boolType() { return DataType(UInt, 1); }
  static constexpr DataType int32() { return DataType(Int, 32); }
  static constexpr DataType int64() { return DataType(Int, 64); }
  static constexpr DataType float32() { return DataType(Float, 32); }
  static constexpr DataType float64() { return DataType(Float, 64); }

  bool isVoid() const { return code == Handle && bits == 0 && lanes == 0; }
  bool isBool() const { return code == UInt && bits == 1; }
  bool isInt() const { return code == Int; }
  bool isUInt() const { return code == UInt && bits != 1; }
  /// Int or UInt, bool excluded.
  bool isIntegral() const { return isInt() || isUInt(); }
  bool isFloat() const { return code == Float || code == BFloat; }
  bool isHandle() const { return code == Handle && !isVoid(); }

  /// Bytes one element occupies in memory (bool: 1).
  unsigned storageBytes() const { return (bits + 7) / 8 * lanes; }

  bool operator==(const DataType &o) const {
    return code == o.code && bits == o.bits && lanes == o.lanes;
  }
  bool operator!=(const DataType &o) const { return !(*this == o); }

  /// "float32", "int64", "bool", "bfloat16", "handle", "" for void.
  std::string str() const;
  /// Inverse of str(); None for a spelling graft does not know.
  static llvm::Optional<DataType> parse(llvm::StringRef text);
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, DataType dt) { return os << dt.str(); }

} // namespace graft

#endif // GRAFT_IR_DATATYPE_H
