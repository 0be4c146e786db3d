//===- codegen/Constants.cpp - IR leaves as VM constant values ------------===//

#include "codegen/Constants.h"

#include "ir/Diagnostics.h"

#include <cstring>

using namespace graft;
using namespace graft::codegen;

DLDataType codegen::toDLDataType(DataType dt) {
  return vm::normalizeDType(DLDataType{dt.code, dt.bits, dt.lanes});
}

llvm::Expected<vm::Value> codegen::tensorConstant(const ConstantNode &c) {
  const TensorData &data = *c.data;
  DLDataType dt = toDLDataType(data.dtype);
  if (!vm::isSupportedDType(dt))
    return diagError(c.loc, "codegen: constant of dtype " + data.dtype.str() +
                                " has no runtime representation");
  auto t = vm::TensorObj::emptyHost(data.shape, dt);
  if (!t)
    return t.takeError();
  if ((*t)->byteSize() != data.bytes.size())
    return diagError(c.loc, "codegen: constant holds " + llvm::Twine(data.bytes.size()) +
                                " bytes but its shape and dtype need " +
                                llvm::Twine((*t)->byteSize()));
  if (!data.bytes.empty())
    std::memcpy((*t)->bytes(), data.bytes.data(), data.bytes.size());
  return vm::Value::object(*t);
}

llvm::Expected<vm::Value> codegen::primConstant(const PrimValueNode &p) {
  const PrimExprNode *e = p.value.get();
  if (const auto *i = llvm::dyn_cast<IntImmNode>(e))
    return i->dtype.isBool() ? vm::Value::boolean(i->value != 0) : vm::Value::integer(i->value);
  if (const auto *f = llvm::dyn_cast<FloatImmNode>(e))
    return vm::Value::real(f->value);
  return diagError(p.loc, "codegen: R.prim_value(" + toString(e) +
                              ") is symbolic; vm-shape-lower must compute it first");
}

llvm::Expected<vm::Value> codegen::shapeConstant(const ShapeExprNode &s) {
  llvm::SmallVector<int64_t, 4> dims;
  for (const PrimExpr &v : s.values) {
    auto i = asConstInt(v.get());
    if (!i)
      return diagError(s.loc, "codegen: shape dim " + toString(v.get()) +
                                  " is symbolic; vm-shape-lower must compute it first");
    dims.push_back(*i);
  }
  return vm::Value::shape(dims);
}

vm::Value codegen::stringConstant(const StringImmNode &s) { return vm::Value::string(s.value); }

vm::Value codegen::dataTypeConstant(const DataTypeImmNode &d) {
  return vm::Value::dataType(toDLDataType(d.value));
}
