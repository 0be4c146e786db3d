//===- vm/KernelBridge.h - Calling kernels from bytecode -------*- C++ -*-===//
//
// Adapts a kernel of kernels/Kernel.h to a packed function. Packed
// arguments, in order:
//   numInputs tensors, one value per KernelInfo::attrNames entry, numOutputs
//   tensors (destination-passing; the kernel writes into them).
// Attribute values map Int -> int64, Float -> double, Bool -> bool,
// String -> string, Shape (or a tuple of ints) -> int64 list, None -> none.
// A variadic side (-1) takes whatever arguments the other counts leave.
// The workspace a kernel asks for comes from the VM's caching allocator of
// the kernel's device and is returned after the call. The call yields None.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_KERNELBRIDGE_H
#define GRAFT_VM_KERNELBRIDGE_H

#include "vm/PackedFunc.h"

namespace graft::vm {

/// A packed function that calls `kernel` (which must outlive it).
PackedFunc kernelPackedFunc(const graft::kernels::KernelInfo *kernel);

/// Converts one packed argument to a kernel attribute.
llvm::Expected<graft::kernels::AttrValue> toAttrValue(const Value &v);

} // namespace graft::vm

#endif // GRAFT_VM_KERNELBRIDGE_H
