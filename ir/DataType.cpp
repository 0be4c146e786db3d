//===- ir/DataType.cpp ------------------------------------------------------===//

#include "ir/DataType.h"

#include "llvm/ADT/StringSwitch.h"

using namespace graft;

std::string DataType::str() const {
  if (isVoid())
    return "";
  if (isBool())
    return lanes == 1 ? "bool" : "boolx" + std::to_string(lanes);
  std::string s;
  switch (code) {
  case Int:
    s = "int";
    break;
  case UInt:
    s = "uint";
    break;
  case Float:
    s = "float";
    break;
  case BFloat:
    s = "bfloat";
    break;
  case Handle:
    return "handle";
  default:
    s = "custom" + std::to_string(code) + "_";
    break;
  }
  s += std::to_string(bits);
  if (lanes != 1)
    s += "x" + std::to_string(lanes);
  return s;
}

llvm::Optional<DataType> DataType::parse(llvm::StringRef text) {
  if (text.empty() || text == "void")
    return DataType::voidType();
  if (text == "bool")
    return DataType::boolType();
  if (text == "handle")
    return DataType(Handle, 64);
  llvm::StringRef base = text;
  uint16_t lanes = 1;
  size_t x = text.find('x');
  if (x != llvm::StringRef::npos) {
    base = text.substr(0, x);
    unsigned l;
    if (text.substr(x + 1).getAsInteger(10, l) || l == 0 || l > 65535)
      return llvm::None;
    lanes = static_cast<uint16_t>(l);
  }
  auto withPrefix = [&](llvm::StringRef prefix, Code code) -> llvm::Optional<DataType> {
    if (!base.startswith(prefix))
      return llvm::None;
    unsigned bits;
    if (base.drop_front(prefix.size()).getAsInteger(10, bits))
      return llvm::None;
    // Integers of any width up to 64 (TVM's int4 and uint2 pack quantized weights, often as
    // vectors: int4x8); floats only in the widths graft knows.
    bool intCode = code == Int || code == UInt;
    if (intCode ? (bits == 0 || bits > 64) : (bits != 8 && bits != 16 && bits != 32 && bits != 64))
      return llvm::None;
    return DataType(code, static_cast<uint8_t>(bits), lanes);
  };
  if (auto dt = withPrefix("bfloat", BFloat))
    return dt->bits == 16 ? dt : llvm::None;
  if (auto dt = withPrefix("float", Float))
    return dt->bits >= 16 ? dt : llvm::None;
  if (auto dt = withPrefix("uint", UInt))
    return dt;
  if (auto dt = withPrefix("int", Int))
    return dt;
  return llvm::None;
}
