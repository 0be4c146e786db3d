//===- ir/OpKernels.h - Which kernel each op lowers to ----------*- C++ -*-===//
//
// The compiler's side of the kernel ABI (docs/kernels.md): for every
// computational op, the symbol of the kernel legalize-ops calls and where
// each of the kernel's attributes comes from, in the order of the kernel's
// `KernelInfo::attrNames`. The runtime's registry is never included here (the
// compiler and the runtime share no code); a test that links both checks
// that every symbol listed here is registered with the same attribute names
// in the same order.
//
// Ops that legalize-ops leaves alone (call forms, memory/vm/builtin ops,
// shape ops, print/assert) are listed as runtime ops. Every registered op is
// exactly one of the two; a test checks that too.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OPKERNELS_H
#define GRAFT_IR_OPKERNELS_H

#include "ir/Attrs.h"
#include "ir/Op.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace graft {

/// Where one kernel attribute's value comes from.
struct KernelAttr {
  enum class Source : uint8_t {
    OpAttr,   ///< The call's attribute `from` (converted by its value kind).
    OpArg,    ///< The call's argument for the wrapper param `from`.
    OutDType, ///< The output's dtype (an attr the kernel only reads for checks).
    Constant, ///< `value`: an attribute the op does not have (its kernel default).
  };
  llvm::StringRef name; ///< As in the kernel's KernelInfo::attrNames.
  Source source = Source::OpAttr;
  llvm::StringRef from; ///< Attr or param name; "" for OutDType and Constant.
  AttrValue value;      ///< For Constant.
};

/// The lowering of one op.
struct OpKernel {
  const OpInfo *op = nullptr;
  /// The destination-passing kernel: `graft.<op>`.
  std::string symbol;
  /// For a call that reads device data back to the host (readsOnHost(call) is
  /// true for it): the `graft.host.*` function that returns a fresh tensor.
  /// Its kernels are `hostSymbol` (fill a pre-sized output) and
  /// `hostSymbol + "_count"` (the element count). Empty: no host form.
  std::string hostSymbol;
  /// Params whose arguments are the kernel's tensor inputs, in order. A
  /// tuple argument (concat, index_tensor) contributes each of its fields.
  std::vector<llvm::StringRef> inputs;
  std::vector<KernelAttr> attrs;
};

/// The lowering of `op`; null when the op has none (runtime ops, unknown ops).
const OpKernel *lookupOpKernel(const OpInfo &op);

/// Whether legalize-ops leaves calls of `op` as they are: call forms
/// (call_tir, call_dps_packed, ...), memory/vm/builtin ops, shape ops,
/// print/assert, device hints.
bool isRuntimeOp(const OpInfo &op);

/// Every op lowering, in op registration order.
std::vector<const OpKernel *> allOpKernels();

} // namespace graft

#endif // GRAFT_IR_OPKERNELS_H
