//===- vm/Inspect.cpp - A tensor's DLTensor fields as integers -------------===//

#include "vm/Inspect.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace graft;
using namespace graft::vm;

llvm::Optional<TensorField> vm::tensorFieldNamed(llvm::StringRef field) {
  return llvm::StringSwitch<llvm::Optional<TensorField>>(field)
      .Case("tensor_dtype_code", TensorField::DTypeCode)
      .Case("tensor_dtype_bits", TensorField::DTypeBits)
      .Case("tensor_dtype_lanes", TensorField::DTypeLanes)
      .Case("tensor_ndim", TensorField::NDim)
      .Case("tensor_shape_i", TensorField::ShapeI)
      .Case("tensor_stride_i", TensorField::StrideI)
      .Case("tensor_byte_offset", TensorField::ByteOffset)
      .Case("tensor_elem_offset", TensorField::ElemOffset)
      .Default(llvm::None);
}

llvm::Expected<int64_t> vm::readTensorField(const TensorObj &t, TensorField field, int64_t axis) {
  const DLTensor &dl = t.dl;
  switch (field) {
  case TensorField::DTypeCode:
    return dl.dtype.code;
  case TensorField::DTypeBits:
    return dl.dtype.bits;
  case TensorField::DTypeLanes:
    return dl.dtype.lanes;
  case TensorField::NDim:
    return dl.ndim;
  case TensorField::ByteOffset:
    return static_cast<int64_t>(dl.byte_offset);
  case TensorField::ElemOffset: {
    uint64_t elemBytes = (dl.dtype.bits * static_cast<uint64_t>(dl.dtype.lanes) + 7) / 8;
    return elemBytes ? static_cast<int64_t>(dl.byte_offset / elemBytes) : 0;
  }
  case TensorField::ShapeI:
  case TensorField::StrideI:
    break;
  }
  if (axis < 0 || axis >= dl.ndim)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("axis {0} is outside the {1} dimensions of the tensor", axis, dl.ndim));
  if (field == TensorField::ShapeI)
    return dl.shape[axis];
  if (dl.strides)
    return dl.strides[axis];
  int64_t stride = 1;
  for (int k = static_cast<int>(axis) + 1; k < dl.ndim; ++k)
    stride *= dl.shape[k];
  return stride;
}
