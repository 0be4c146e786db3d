//===- vm/HostKernels.h - The graft.host.* forms' output shapes -*- C++ -*-===//
//
// A graft.host.<kernel> form (docs/runtime.md, "Host forms") runs its count
// kernel, sizes its outputs from what that wrote, then runs the fill kernel
// into them. The VM's packed functions (HostKernels.cpp) and the reference
// interpreter (codegen/InterpretOps.cpp) size the outputs with the same
// description, declared here.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_HOSTKERNELS_H
#define GRAFT_VM_HOSTKERNELS_H

#include "kernels/Kernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace graft::vm {

/// One output of a host form: its shape and dtype.
struct HostOutput {
  llvm::SmallVector<int64_t, 4> shape;
  DLDataType dtype;
};
using HostOutputs = llvm::SmallVector<HostOutput, 4>;

/// A host form's call as its shape functions see it: the input tensors,
/// the fill kernel's attributes (in its attrNames order), and the int64
/// values the count kernel wrote (null before it ran).
struct HostCall {
  llvm::ArrayRef<DLTensor *> inputs;
  llvm::ArrayRef<graft::kernels::AttrValue> attrs;
  const int64_t *counts = nullptr;
};

/// One host form. The count kernel `<symbol>_count` takes the fill kernel's
/// trailing inputs it declares and, by name, the fill kernel's attributes
/// it lists; it writes a 0-d int64 count, or `countLength` int64 values
/// when that is set. The call returns `outputs`' one tensor, or a tuple of
/// several.
struct HostForm {
  const char *symbol;
  HostOutputs (*outputs)(const HostCall &call);
  int64_t (*countLength)(const HostCall &call) = nullptr;

  /// The count kernel's output shape.
  llvm::SmallVector<int64_t, 1> countShape(const HostCall &call) const {
    if (!countLength)
      return {};
    return {countLength(call)};
  }
};

/// The host form registered under `symbol`; null when there is none.
const HostForm *lookupHostForm(llvm::StringRef symbol);

/// The fill kernel's attribute index of each attribute of the count
/// kernel; -1 for one the fill kernel does not have.
llvm::SmallVector<int, 2> countAttrIndices(const graft::kernels::KernelInfo &count,
                                           const graft::kernels::KernelInfo &fill);

} // namespace graft::vm

#endif // GRAFT_VM_HOSTKERNELS_H
