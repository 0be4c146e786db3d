//===- vm/Inspect.h - A tensor's DLTensor fields as integers ----*- C++ -*-===//
//
// What TVM's relax.inspect.* ops read at run time (R.inspect.tensor_ndim,
// `A.shape[i]`, ...): one field of a tensor's DLTensor. The VM runs them as
// the builtins `vm.builtin.tensor_<field>` (lower-runtime-builtin emits the
// calls) and the reference interpreter reads them here too.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_INSPECT_H
#define GRAFT_VM_INSPECT_H

#include "vm/Value.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace graft::vm {

enum class TensorField : uint8_t {
  DTypeCode,
  DTypeBits,
  DTypeLanes,
  NDim,
  ShapeI,  ///< Takes an axis.
  StrideI, ///< Takes an axis; a compact tensor's strides when it has none.
  ByteOffset,
  ElemOffset, ///< byte_offset in elements of the tensor's dtype.
};

/// The field a builtin name (`vm.builtin.tensor_ndim`) or op script name
/// (`inspect.tensor_ndim`) reads, after its prefix; None for other names.
llvm::Optional<TensorField> tensorFieldNamed(llvm::StringRef field);

/// Reads `field` of `t`; `axis` only for ShapeI and StrideI, which fail
/// with a message for an axis outside [0, ndim).
llvm::Expected<int64_t> readTensorField(const TensorObj &t, TensorField field, int64_t axis = 0);

} // namespace graft::vm

#endif // GRAFT_VM_INSPECT_H
