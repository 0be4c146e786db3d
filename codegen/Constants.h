//===- codegen/Constants.h - IR leaves as VM constant values ----*- C++ -*-===//
//
// Converts the leaves codegen puts in the constant pool (or in immediates):
// tensor constants of every dtype graft stores (bool, ints, uints, float16,
// bfloat16, float32, float64), prim values, constant shapes, strings and
// dtypes.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_CONSTANTS_H
#define GRAFT_CODEGEN_CONSTANTS_H

#include "ir/Expr.h"
#include "vm/Value.h"

#include "llvm/Support/Error.h"

namespace graft::codegen {

/// The DLPack type of an IR dtype (bool becomes graft's 8-bit bool).
DLDataType toDLDataType(DataType dt);

/// A host tensor holding the constant's bytes.
llvm::Expected<vm::Value> tensorConstant(const ConstantNode &c);
/// Int (ints and uints), Bool or Float; symbolic values are an error.
llvm::Expected<vm::Value> primConstant(const PrimValueNode &p);
/// A Shape; every dim must be an integer by now.
llvm::Expected<vm::Value> shapeConstant(const ShapeExprNode &s);
vm::Value stringConstant(const StringImmNode &s);
vm::Value dataTypeConstant(const DataTypeImmNode &d);

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_CONSTANTS_H
