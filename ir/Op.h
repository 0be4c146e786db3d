//===- ir/Op.h - The operator registry --------------------------*- C++ -*-===//
//
// Each Relax operator declares, in one place: its name, the parameters of its
// Python wrapper (call arguments and attribute fields interleaved, in wrapper
// order, with defaults and the conversion each applies), its struct-info
// inference, and the traits passes ask about instead of comparing op names
// (purity, host reads, allocation, kills, aliasing, determinism, kernel
// launches, the fusion pattern; docs/ops.md lists them per op).
//
// The parser matches a call's positional and keyword arguments against
// `params`, converts each as its kind says (TVM's op wrappers in `python/tvm/relax/op/`), puts the
// Expr params in Call.args and the Attr params in Call.attrs (every field, in `params` order,
// defaults included, as TVM prints them).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OP_H
#define GRAFT_IR_OP_H

#include "ir/Attrs.h"
#include "ir/Expr.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace graft {

class IRModule;

/// How the parser converts the text written for one wrapper parameter.
enum class ParamKind : uint8_t {
  Expr,      ///< Any Relax expr; int -> PrimValue(int64), float -> PrimValue(float64),
             ///< str -> StringImm, list/tuple -> Tuple (generic args_converter).
  ExprTuple, ///< A list/tuple written inline becomes a Tuple; a single expr stays.
  VarArgs,   ///< `*args: Expr`: the rest of the positional args, each as Expr.
  Shape,     ///< list/tuple of prims -> ShapeExpr; an Expr (shape var) is kept.
  PrimValue, ///< int/prim -> PrimValue(int64).
  String,    ///< str -> StringImm.
  DType,     ///< str -> DataTypeImm.
  Attr,      ///< An attribute field; `attrKind` says its value kind.
};

/// The value kind of an attribute field and how text converts to it.
enum class AttrKind : uint8_t {
  Bool,
  Int,
  Float,
  String,
  DType,
  IntList,         ///< [1, 2]; an int alone becomes [int] when `wrapScalar`.
  OptionalIntList, ///< None or IntList.
  OptionalInt,     ///< None or Int.
  PrimList,        ///< list of PrimExpr (shapes in attrs).
  FloatOrNone,
  IndexMap, ///< `lambda i: (i // 4, i % 4)` or `T.index_map(lambda ..., index_dtype=)`.
  Any,      ///< Kept as written (unknown ops).
};

struct OpParam {
  llvm::StringRef name;
  ParamKind kind = ParamKind::Expr;
  AttrKind attrKind = AttrKind::Any;
  /// For args and attrs that may be omitted. An absent Expr arg with a None
  /// default is left out of Call.args.
  bool hasDefault = false;
  /// The default of an omitted param. For an Expr-like param it converts as
  /// written text would (an empty array -> empty Tuple, as memory.view needs).
  AttrValue defaultValue;
  /// IntList/OptionalIntList: the wrapper turns a lone int into [int].
  bool wrapScalar = false;
};

/// Context for struct-info inference: the module being built, if any (for
/// its vdevices).
struct InferContext {
  const IRModule *module = nullptr;
};

using InferFn = llvm::Expected<StructInfo> (*)(const CallNode &call, const InferContext &ctx);
/// TVM's FNormalize: returns the canonical form of a call (or the call).
using NormalizeFn = Expr (*)(const CallNode &call);
/// TVM's FValidate: an error describing why the call is invalid.
using ValidateFn = llvm::Error (*)(const CallNode &call, const IRModule *module);

/// Special text forms the parser and printer handle by hand.
enum class TextForm : uint8_t {
  Generic,        ///< R.op(args..., attrs as kwargs)
  CallTIR,        ///< R.call_tir(gv, (args,), out_sinfo=..., tir_vars=...)
  CallTIRInplace, ///< + inplace_indices
  CallDPSPacked,  ///< R.call_dps_packed("sym" | expr, (args,), out_sinfo=...)
  CallPurePacked, ///< R.call_pure_packed("sym", args..., sinfo_args=...)
  CallInplacePacked,
  CallBuiltinWithCtx,
  PrintOrAssert, ///< format= keyword is an argument (first for print, second for assert)
  WithSInfoArgs, ///< accepts sinfo_args= (invoke_closure, invoke_pure_closure)
  HintOnDevice,  ///< R.hint_on_device(x, R.device(device_type=, index=), scope): the
                 ///< device's two fields fill the device_type and index attrs.
};

/// The part of a Python wrapper / C++ op constructor that depends on the
/// argument values or struct info (reshape's -1 and 0 dims, arange's
/// `end=None` and dtype choice). The parser calls it after converting the
/// params (args normalized, omitted None args dropped, attrs complete) and
/// before inference; it may rewrite args and attrs in place.
using CanonicalizeFn = llvm::Error (*)(std::vector<Expr> &args, Attrs &attrs);

/// TVM's OpPatternKind (the TOpPattern op attribute): how each output element
/// depends on the inputs, which decides what operator fusion may merge. The
/// values are TVM's.
enum class OpPattern : uint8_t {
  ElemWise = 0,        ///< out[i] = f(in[i]) on inputs of the output's shape.
  Broadcast = 1,       ///< Elementwise after broadcasting the inputs to the output shape.
  Injective = 2,       ///< Each output element reads one input element (reshape, take).
  CommReduce = 3,      ///< A commutative reduction over some axes.
  OutEWiseFusable = 4, ///< A complex op whose elementwise consumers fuse into it (matmul).
  Opaque = 8,          ///< Fuses with nothing.
};

/// What memory an op's result is.
enum class AllocKind : uint8_t {
  None,    ///< Not an allocation.
  Storage, ///< A fresh storage object (memory/vm.alloc_storage).
  Tensor,  ///< A tensor of fresh or given storage (builtin/memory/vm.alloc_tensor).
};

struct OpInfo {
  std::string name; ///< Full name: "relax.add", "relax.nn.softmax".
  std::vector<OpParam> params;
  InferFn infer = nullptr;
  /// TVM's dist.FInferStructInfo: the inference for a call with DTensor
  /// arguments; null: the generic rule of ir/ops/DistributedOps.cpp.
  InferFn distInfer = nullptr;
  NormalizeFn normalize = nullptr;
  ValidateFn validate = nullptr;

  /// \name Traits
  /// What passes ask about an op instead of comparing its name. docs/ops.md
  /// lists them for every registered op.
  /// @{
  bool pure = true;
  /// Reads device data back on the host (an output size, a printed value, an
  /// assert's condition), which synchronizes with the device.
  bool readsOnHost = false;
  /// Per-call refinement of `readsOnHost` (index_tensor reads back only with
  /// a bool mask); null: `readsOnHost` decides alone. See readsOnHost(call).
  bool (*readsOnHostCall)(const CallNode &call) = nullptr;
  /// False for an op that can never be inside a CUDA-graph capture (every
  /// op that always reads on the host); a call is capturable when this holds
  /// and the call does not read on the host. See isCapturableCall.
  bool capturable = true;
  AllocKind allocates = AllocKind::None;
  /// Ends the lifetime of its argument (memory.kill_*, vm.kill_object).
  bool kills = false;
  /// The result is a view of the first argument's storage (reshape,
  /// memory.view): the argument's memory lives as long as the result.
  bool aliasesInput = false;
  /// Two calls with equal arguments and attrs give equal results, so one
  /// may stand for the other. False for calls out of the registry's
  /// knowledge (packed, TIR, closures), allocations and impure ops.
  bool deterministic = true;
  /// Runs device work (a kernel or a copy) once lowered, as opposed to
  /// host-side bookkeeping (allocation, shapes, closures, null values).
  bool launchesKernel = true;
  /// Every op of ir/ops/ declares one (makeOp requires it); None only for an
  /// op registered elsewhere without one, which fusion treats as Opaque.
  llvm::Optional<OpPattern> pattern;
  /// @}
  CanonicalizeFn canonicalize = nullptr;
  TextForm textForm = TextForm::Generic;
  /// An op the registry does not know, parsed from an annotated binding:
  /// opaque, pure, struct info from the annotation, kwargs kept as written.
  bool unknown = false;

  /// The name without the "relax." prefix, as written after "R.".
  llvm::StringRef scriptName() const;
  /// The declared fusion pattern, Opaque when none was declared.
  OpPattern fusionPattern() const { return pattern.getValueOr(OpPattern::Opaque); }
  /// Index of the attr fields in `params`, in order.
  llvm::SmallVector<unsigned, 4> attrParamIndices() const;
};

/// The registry entry for a full name ("relax.add") or a script name
/// ("add", "nn.softmax"); null when unknown.
const OpInfo *lookupOp(llvm::StringRef name);
/// The one Op node of a registered op (full or script name). An unregistered
/// name is a programmer error: it aborts with a message naming the op (in
/// every build type), because a pass that builds or matches an op the
/// registry does not know would otherwise silently get a pure unknown op.
/// Passes use the handles of ir/ops/OpHandles.h, which call this once.
Op getOp(llvm::StringRef name);
/// The Op node for a name the registry may not know: the registered op when
/// there is one, else an unknown op (`unknown = true`: pure, opaque, struct
/// info from an annotation), created on first use and the same node after.
/// For the parser's annotated calls to unregistered `R.` ops.
Op getOrCreateUnknownOp(llvm::StringRef fullName);
/// Every registered op, in registration order.
std::vector<const OpInfo *> allOps();
/// The ops ir/ops/ defines (registered before any other), in registration
/// order: allOps() less the ops a tool or test registers later.
std::vector<const OpInfo *> builtinOps();

/// The registry entry of the op that `e` calls; null when `e` is not a call
/// to an op.
inline const OpInfo *calledOp(const ExprNode *e) {
  const auto *call = llvm::dyn_cast_or_null<CallNode>(e);
  return call ? call->opInfo() : nullptr;
}

/// Infers the struct info of a call (op inference, or for a callee with
/// FuncStructInfo the derived return). Errors carry TVM-like messages.
llvm::Expected<StructInfo> inferCallSInfo(const CallNode &call, const InferContext &ctx);

/// Purity of one call (TVM `src/relax/ir/expr.cc`): false when the op is impure or the
/// callee's FuncStructInfo is impure.
bool isImpureCall(const CallNode &call);

/// Whether a call to an op reads device data back on the host (the op's
/// `readsOnHost`, refined per call). Non-op callees: false.
inline bool readsOnHost(const CallNode &call) {
  const OpInfo *info = call.opInfo();
  if (!info)
    return false;
  return info->readsOnHostCall ? info->readsOnHostCall(call) : info->readsOnHost;
}

/// Whether a call to an op may run inside a CUDA-graph capture (it does not
/// read device data back to the host). Non-op callees: true.
inline bool isCapturableCall(const CallNode &call) {
  const OpInfo *info = call.opInfo();
  return !info || (info->capturable && !readsOnHost(call));
}

/// Registers an op; used by the op definition files (ir/ops/*.cpp).
void registerOp(OpInfo info);

} // namespace graft

#endif // GRAFT_IR_OP_H
