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
// Each lowering also carries its kernel's dtype rule as data (`dtypes`):
// legalize-ops refuses a call the kernel would refuse at run time, and the
// same test checks the rule against the kernels (the elementwise table's
// rules and the other kernels' own checks).
//
// Ops that legalize-ops leaves alone (call forms, memory/vm/builtin ops,
// shape ops, print/assert) are listed as runtime ops. Every registered op is
// exactly one of the two; a test checks that too.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OPKERNELS_H
#define GRAFT_IR_OPKERNELS_H

#include "ir/Attrs.h"
#include "ir/Expr.h"
#include "ir/Op.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
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

/// Classes of dtypes, as a bit set.
enum DTypeClasses : uint8_t {
  kBoolDTypes = 1,
  kIntDTypes = 2, ///< Signed and unsigned integers.
  kFloatDTypes = 4,
  kNonBoolDTypes = kIntDTypes | kFloatDTypes,
  kIntOrBoolDTypes = kIntDTypes | kBoolDTypes,
  kAnyDTypes = kBoolDTypes | kIntDTypes | kFloatDTypes,
};

/// The class of `dtype` (one of the bits above); 0 for void and handles.
uint8_t dtypeClassOf(DataType dtype);

/// "integer or floating-point", "bool", ...: the classes in `set`.
std::string describeDTypeClasses(uint8_t set);

/// One check of a kernel's dtype rule: the dtype of the call's output, or
/// of the argument of an input param (each field of a tuple argument), must
/// be of a class in `takes`.
struct DTypeCheck {
  /// The param whose argument is checked; "" checks the output.
  llvm::StringRef param;
  uint8_t takes = kAnyDTypes;
  /// When set, the check applies only when the call's attribute `attr` has
  /// one of `attrValues` (a string, or "true"/"false"), or its default
  /// `attrDefault` when unset: scatter_elements refuses bool only for some
  /// reductions.
  llvm::StringRef attr;
  std::vector<llvm::StringRef> attrValues;
  llvm::StringRef attrDefault;
};

/// The lowering of one op.
struct OpKernel {
  const OpInfo *op = nullptr;
  /// The destination-passing kernel: `graft.<op>`.
  std::string symbol;
  /// For a call that reads device data back to the host (readsOnHost(call) is
  /// true for it): the `graft.host.*` function that returns fresh tensors
  /// (one, or a tuple). It takes the inputs, then `attrs`. Its kernels are
  /// `hostSymbol` (fill pre-sized outputs) and `hostSymbol + "_count"` (what
  /// sizes them). Empty: no host form.
  std::string hostSymbol;
  /// Params whose arguments are the kernel's tensor inputs, in order. A
  /// tuple argument (concat, index_tensor) contributes each of its fields.
  std::vector<llvm::StringRef> inputs;
  std::vector<KernelAttr> attrs;
  /// The kernel's dtype rule; empty: it takes every dtype.
  std::vector<DTypeCheck> dtypes;
  /// Why the kernel cannot compute `call` (an attribute value it does not
  /// take), or "" when it can; null: it takes every call the op infers.
  std::string (*unsupported)(const CallNode &call) = nullptr;
  /// The call is the value of its first argument (the gradient checkpoint
  /// markers): legalize-ops forwards it, no kernel runs.
  bool forward = false;
};

/// The lowering of `op`; null when the op has none (runtime ops, unknown ops).
const OpKernel *lookupOpKernel(const OpInfo &op);

/// The dtype classes `check` lets through for a call with `attrs`:
/// `check.takes`, or kAnyDTypes when its attribute condition does not hold.
uint8_t dtypeClassesTaken(const DTypeCheck &check, const AttrsNode *attrs);

/// Index in Call.args of the op's param `name` (Expr-like params fill
/// Call.args in param order); -1 when the op has no such param.
int paramArgIndex(const OpInfo &info, llvm::StringRef name);

/// A dtype outside a kernel's rule: the check it fails and the dtype.
struct DTypeRefusal {
  const DTypeCheck *check = nullptr;
  DataType dtype;
};

/// The first check of `kernel.dtypes` that `call` (a call of kernel.op)
/// fails; none when the kernel takes its dtypes. A dtype the struct info
/// does not know passes (the kernel checks it at run time).
std::optional<DTypeRefusal> findDTypeRefusal(const CallNode &call, const OpKernel &kernel);

/// Whether legalize-ops leaves calls of `op` as they are: call forms
/// (call_tir, call_dps_packed, ...), memory/vm/builtin ops, shape ops,
/// print/assert, device hints.
bool isRuntimeOp(const OpInfo &op);

/// Whether `op` is one graft parses, infers and prints (TVM parity) but has
/// no kernel for yet: legalize-ops refuses its calls ("needs a kernel for
/// every op"). docs/ops.md lists them.
bool isUnloweredOp(const OpInfo &op);

/// Every op lowering, in op registration order.
std::vector<const OpKernel *> allOpKernels();

} // namespace graft

#endif // GRAFT_IR_OPKERNELS_H
