//===- ir/ops/OpHelpers.h - Shared pieces of the op definitions -*- C++ -*-===//
//
// Param-schema builders and the struct-info inference building blocks that
// the op families share (argument checks, attr access with schema defaults,
// axis normalization, the binary dtype rule, shape broadcasting). Private to
// ir/ops/*.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_OPS_OPHELPERS_H
#define GRAFT_IR_OPS_OPHELPERS_H

#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/PrimExpr.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace graft {
namespace opdef {

//===----------------------------------------------------------------------===//
// Schema builders
//===----------------------------------------------------------------------===//

/// A required argument.
OpParam arg(llvm::StringRef name, ParamKind kind = ParamKind::Expr);
/// An argument whose default is None: left out of Call.args when omitted.
OpParam optArg(llvm::StringRef name, ParamKind kind = ParamKind::Expr);
/// An argument with a value default (converted as `kind` says).
OpParam argOr(llvm::StringRef name, ParamKind kind, AttrValue def);
/// An attribute field with a default.
OpParam attr(llvm::StringRef name, AttrKind kind, AttrValue def);
/// An attribute field the wrapper requires.
OpParam reqAttr(llvm::StringRef name, AttrKind kind);
/// An int-list attribute where a lone int is wrapped into a list.
OpParam listAttr(llvm::StringRef name, AttrKind kind, AttrValue def);
OpParam reqListAttr(llvm::StringRef name, AttrKind kind);

/// An OpInfo named "relax." + scriptName with its fusion pattern (TVM's
/// TOpPattern of the op) and the default traits of a pure tensor op.
OpInfo makeOp(llvm::StringRef scriptName, std::vector<OpParam> params, InferFn infer,
              OpPattern pattern);

inline AttrValue intVal(int64_t v) { return AttrValue::integer(v); }
inline AttrValue boolVal(bool v) { return AttrValue::boolean(v); }
inline AttrValue strVal(const char *s) { return AttrValue::string(s); }
inline AttrValue dtypeVal(DataType dt) { return AttrValue::dtype(dt); }
inline AttrValue noneVal() { return AttrValue::none(); }
AttrValue intListVal(llvm::ArrayRef<int64_t> values);

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// "R.add" for a call to relax.add.
std::string opSpelling(const CallNode &call);
/// An error at the call: "R.<op> " + message.
llvm::Error opError(const CallNode &call, const llvm::Twine &message);
/// "Tensor", "Shape", "Object", ... for messages.
llvm::StringRef sinfoKindName(const StructInfoNode *s);
std::string dimString(const PrimExpr &e);
std::string shapeString(llvm::ArrayRef<PrimExpr> dims);

//===----------------------------------------------------------------------===//
// Arguments and attributes
//===----------------------------------------------------------------------===//

/// Checks min <= #args <= max.
llvm::Error checkArity(const CallNode &call, size_t min, size_t max);
inline llvm::Error checkArity(const CallNode &call, size_t n) { return checkArity(call, n, n); }
/// The name of argument `i` in the op schema (for messages).
std::string argName(const CallNode &call, unsigned i);

/// Argument `i` must have Tensor struct info.
llvm::Expected<const TensorSInfoNode *> tensorArg(const CallNode &call, unsigned i);
/// Argument `i` must have Shape struct info.
llvm::Expected<const ShapeSInfoNode *> shapeArg(const CallNode &call, unsigned i);
/// Argument `i` must have Tuple struct info whose fields are tensors.
llvm::Expected<llvm::SmallVector<const TensorSInfoNode *, 4>> tensorTupleArg(const CallNode &call,
                                                                             unsigned i);

/// The attr named `name`: the call's, else the schema default, else None.
const AttrValue &attrValue(const CallNode &call, llvm::StringRef name);
llvm::Expected<int64_t> intAttr(const CallNode &call, llvm::StringRef name);
llvm::Expected<llvm::Optional<int64_t>> optIntAttr(const CallNode &call, llvm::StringRef name);
llvm::Expected<bool> boolAttr(const CallNode &call, llvm::StringRef name);
llvm::Expected<DataType> dtypeAttr(const CallNode &call, llvm::StringRef name);
llvm::Expected<double> floatAttr(const CallNode &call, llvm::StringRef name);
llvm::Expected<std::string> stringAttr(const CallNode &call, llvm::StringRef name);
/// None -> no value; an int alone reads as a one-element list.
llvm::Expected<llvm::Optional<llvm::SmallVector<int64_t, 4>>> optIntListAttr(const CallNode &call,
                                                                             llvm::StringRef name);

//===----------------------------------------------------------------------===//
// Shapes and axes
//===----------------------------------------------------------------------===//

/// Maps a possibly negative axis into [0, ndim); error when out of range.
llvm::Expected<int> normalizeAxis(const CallNode &call, int64_t axis, int ndim);
/// As normalizeAxis for each, rejecting repeated axes.
llvm::Expected<llvm::SmallVector<int, 4>> normalizeAxes(const CallNode &call,
                                                        llvm::ArrayRef<int64_t> axes, int ndim);

/// TVM's binary broadcast of two known shapes: None when some pair of dims
/// cannot be decided statically (the result then keeps only ndim); an error
/// for two different constants neither of which is 1.
llvm::Expected<llvm::Optional<std::vector<PrimExpr>>>
broadcastShapes(const CallNode &call, llvm::ArrayRef<PrimExpr> a, llvm::ArrayRef<PrimExpr> b);

/// The product of dims, simplified (1 for a scalar).
PrimExpr shapeProduct(llvm::ArrayRef<PrimExpr> dims);
PrimExpr i64(int64_t v);

/// The binary dtype rule of v0.23: void wins, equal dtypes pass, a bool
/// side takes the left dtype, anything else is an error.
llvm::Expected<DataType> binaryArithDType(const CallNode &call, DataType a, DataType b);
/// The one defined vdevice of two (error when both are set and differ).
llvm::Expected<VDevice> mergeVDevice(const CallNode &call, const VDevice &a, const VDevice &b);

/// A tensor struct info like `t` with another dtype (same shape expr).
StructInfo withDType(const TensorSInfoNode *t, DataType dtype);
/// Tensor struct info from dims when known, else from ndim.
StructInfo tensorFrom(const std::vector<PrimExpr> *dims, int ndim, DataType dtype, VDevice vdevice);

/// The struct info of a call with DTensor arguments: the op's distInfer, else
/// the op inferred on the global views with shardings propagated
/// (ir/ops/DistributedOps.cpp).
llvm::Expected<StructInfo> inferDistributedCall(const CallNode &call, const OpInfo &info,
                                                const InferContext &ctx);

/// The result of calls that take their struct info from sinfo_args:
/// none -> R.Object, one -> it, several -> a Tuple of them.
StructInfo sinfoFromSInfoArgs(const CallNode &call);

/// For alloc ops (v0.23): the vdevice at index `arg` (a PrimValue IntImm)
/// among the context module's vdevices; null when absent or out of range.
llvm::Expected<VDevice> vdeviceFromIndexArg(const CallNode &call, unsigned arg,
                                            const InferContext &ctx);

/// Unary elementwise inference (ElementwiseOps.cpp): the input's struct
/// info; the Float variant rejects a non-float dtype.
llvm::Expected<StructInfo> inferUnaryAny(const CallNode &call, const InferContext &ctx);
llvm::Expected<StructInfo> inferUnaryFloat(const CallNode &call, const InferContext &ctx);

/// Dims of a tensor's shape when known (a ShapeExpr, or a shape var whose
/// struct info has values); null otherwise.
const std::vector<PrimExpr> *knownDims(const TensorSInfoNode *t);

//===----------------------------------------------------------------------===//
// Data layouts (convolutions, pools, image ops)
//===----------------------------------------------------------------------===//

/// One axis of a layout: an upper-case primal axis, or a sub-axis (lower
/// case) of `factor` elements.
struct LayoutAxis {
  char name;
  int64_t factor = 0;
};

struct Layout {
  llvm::SmallVector<LayoutAxis, 6> axes;
  int ndim() const { return static_cast<int>(axes.size()); }
};

/// Parses `layout` against the canonical axis letters (e.g. "NCHW").
llvm::Expected<Layout> parseLayout(const CallNode &call, llvm::StringRef layout,
                                   llvm::StringRef canonical, llvm::StringRef what);
/// simplify(a op b).
PrimExpr simplified(PrimOp op, PrimExpr a, PrimExpr b);
/// A shape in `l` brought to the canonical order: a split axis multiplies
/// back together.
std::vector<PrimExpr> toCanonical(const Layout &l, llvm::ArrayRef<PrimExpr> dims,
                                  llvm::StringRef canonical);
/// A canonical shape laid out in `l`: a split axis gives its outer extent
/// and its factor.
std::vector<PrimExpr> fromCanonical(const Layout &l, llvm::ArrayRef<PrimExpr> dims,
                                    llvm::StringRef canonical);

} // namespace opdef
} // namespace graft

#endif // GRAFT_IR_OPS_OPHELPERS_H
