//===- ir/ops/CoreOps.cpp - Call forms, memory, VM and builtin ops ---------===//
//
// The ops that structure a program rather than compute on tensors: the call
// forms (call_tir, call_dps_packed, call_pure_packed, ...), closures,
// allocation and lifetime ops of the memory/vm/builtin namespaces, shape
// conversions, print/assert and device hints (TVM `python/tvm/relax/op/`, v0.23).
//
//===----------------------------------------------------------------------===//

#include "ir/StructInfoAnalysis.h"
#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

using namespace graft;
using namespace graft::opdef;

namespace {

//===----------------------------------------------------------------------===//
// Inference functions
//===----------------------------------------------------------------------===//

llvm::Expected<StructInfo> inferObject(const CallNode &, const InferContext &) {
  return objectSInfo();
}

llvm::Expected<StructInfo> inferVoid(const CallNode &, const InferContext &) { return voidSInfo(); }

/// Ops whose result is their first argument's struct info.
llvm::Expected<StructInfo> inferFirstArg(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  if (!call.args[0]->sinfo)
    return opError(call, "expects its input to have struct info");
  return call.args[0]->sinfo;
}

/// hint_on_device: the input's struct info, which must be a tensor's (TVM's
/// GetUnaryInputTensorStructInfo).
llvm::Expected<StructInfo> inferHintOnDevice(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return call.args[0]->sinfo;
}

llvm::Expected<StructInfo> inferBySInfoArgs(const CallNode &call, const InferContext &) {
  return sinfoFromSInfoArgs(call);
}

/// call_tir, call_tir_inplace, call_dps_packed: exactly one output sinfo.
llvm::Expected<StructInfo> inferDPSCall(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2, 3))
    return err;
  if (call.sinfoArgs.size() != 1)
    return opError(call, "expects exactly one output struct info in sinfo_args, but got " +
                             std::to_string(call.sinfoArgs.size()));
  return call.sinfoArgs[0];
}

/// call_pure_packed / call_inplace_packed: the callee's opaque FuncSInfo
/// derivation (by sinfo_args for an ExternFunc).
llvm::Expected<StructInfo> inferPurePacked(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1, SIZE_MAX))
    return err;
  const auto *func = llvm::dyn_cast_or_null<FuncSInfoNode>(call.args[0]->sinfo.get());
  if (!func)
    return sinfoFromSInfoArgs(call);
  if (!func->isOpaque())
    return opError(call, "expects an opaque function (R.Callable without params) as callee");
  if (!func->deriveFunc.empty())
    return deriveCallRetSInfo(*func, call);
  return func->ret;
}

llvm::Expected<StructInfo> inferBuiltinWithCtx(const CallNode &call, const InferContext &) {
  if (call.sinfoArgs.empty())
    return voidSInfo();
  return call.sinfoArgs[0];
}

/// memory.alloc_tensor, builtin.alloc_tensor: Tensor(shape arg, dtype arg).
llvm::Expected<StructInfo> allocTensorSInfo(const CallNode &call, unsigned shapeArg_,
                                            unsigned dtypeArg, const InferContext &ctx,
                                            int deviceArg) {
  auto shape = shapeArg(call, shapeArg_);
  if (!shape)
    return shape.takeError();
  DataType dtype;
  if (const auto *dt = llvm::dyn_cast<DataTypeImmNode>(call.args[dtypeArg].get()))
    dtype = dt->value;
  VDevice vdevice;
  if (deviceArg >= 0) {
    auto vd = vdeviceFromIndexArg(call, deviceArg, ctx);
    if (!vd)
      return vd.takeError();
    vdevice = *vd;
  }
  Expr shapeExprArg = call.args[shapeArg_];
  if (const auto *se = llvm::dyn_cast<ShapeExprNode>(shapeExprArg.get()))
    return tensorSInfo(se->values, dtype, vdevice);
  if ((*shape)->values)
    return tensorSInfo(*(*shape)->values, dtype, vdevice);
  if (llvm::isa<VarNode>(shapeExprArg.get()))
    return make<TensorSInfoNode>(shapeExprArg, dtype, (*shape)->ndim, vdevice);
  return tensorSInfoNDim((*shape)->ndim, dtype, vdevice);
}

llvm::Expected<StructInfo> inferMemAllocTensor(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 4, 5))
    return err;
  return allocTensorSInfo(call, 2, 3, ctx, call.args.size() == 5 ? 4 : -1);
}

llvm::Expected<StructInfo> inferVMAllocTensor(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 4, 5))
    return err;
  return allocTensorSInfo(call, 2, 3, ctx, call.args.size() == 5 ? 4 : -1);
}

llvm::Expected<StructInfo> inferBuiltinAllocTensor(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 3, 4))
    return err;
  return allocTensorSInfo(call, 0, 1, ctx, 2);
}

llvm::Expected<StructInfo> inferAllocStorage(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 3, 4))
    return err;
  return objectSInfo();
}

llvm::Expected<StructInfo> inferKill(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  return voidSInfo();
}

/// memory.view(data, shape, dtype, relative_byte_offset): an empty tuple in
/// a slot means "as the input".
llvm::Expected<StructInfo> inferView(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1, 4))
    return err;
  auto data = tensorArg(call, 0);
  if (!data)
    return data.takeError();
  auto isUnset = [&](unsigned i) {
    return i >= call.args.size() || isVoidSInfo(call.args[i]->sinfo.get());
  };
  DataType dtype = (*data)->dtype;
  if (!isUnset(2)) {
    // A dtype known only at run time (an R.Object) gives a view of unknown dtype, as in TVM.
    const auto *dt = llvm::dyn_cast<DataTypeImmNode>(call.args[2].get());
    if (dt)
      dtype = dt->value;
    else if (llvm::isa_and_nonnull<ObjectSInfoNode>(call.args[2]->sinfo.get()))
      dtype = DataType::voidType();
    else
      return opError(call, "expects dtype to be a R.dtype(...), an R.Object or an empty tuple");
  }
  if (isUnset(1))
    return make<TensorSInfoNode>((*data)->shape, dtype, (*data)->ndim, (*data)->vdevice);
  auto shape = shapeArg(call, 1);
  if (!shape)
    return shape.takeError();
  if (const auto *se = llvm::dyn_cast<ShapeExprNode>(call.args[1].get()))
    return tensorSInfo(se->values, dtype, (*data)->vdevice);
  if ((*shape)->values)
    return tensorSInfo(*(*shape)->values, dtype, (*data)->vdevice);
  return tensorSInfoNDim((*shape)->ndim, dtype, (*data)->vdevice);
}

llvm::Expected<StructInfo> inferShapeOf(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if (const std::vector<PrimExpr> *dims = (*t)->shapeValues())
    return shapeSInfo(*dims);
  if ((*t)->shape && llvm::isa_and_nonnull<ShapeSInfoNode>((*t)->shape->sinfo.get()))
    return (*t)->shape->sinfo;
  return shapeSInfoNDim((*t)->ndim);
}

llvm::Expected<StructInfo> inferTensorToShape(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  if ((*t)->ndim != -1 && (*t)->ndim != 1)
    return opError(call, "expects a 1-D tensor, but got one of " + std::to_string((*t)->ndim) +
                             " dimensions");
  if (!(*t)->dtype.isVoid() && (*t)->dtype != DataType::int64())
    return opError(call, "expects an int64 tensor, but got " + (*t)->dtype.str());
  if (const std::vector<PrimExpr> *dims = (*t)->shapeValues())
    if (auto len = asConstInt((*dims)[0].get()))
      return shapeSInfoNDim(static_cast<int>(*len));
  return shapeSInfoNDim(-1);
}

llvm::Expected<StructInfo> inferShapeToTensor(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto s = shapeArg(call, 0);
  if (!s)
    return s.takeError();
  if ((*s)->ndim >= 0)
    return tensorSInfo({i64((*s)->ndim)}, DataType::int64());
  return tensorSInfoNDim(1, DataType::int64());
}

llvm::Expected<StructInfo> inferAssert(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2, SIZE_MAX))
    return err;
  const StructInfoNode *cond = call.args[0]->sinfo.get();
  if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(cond)) {
    if ((!t->dtype.isVoid() && !t->dtype.isBool()) || (t->ndim != -1 && t->ndim != 0))
      return opError(call, "expects the condition to be a scalar bool tensor");
  } else if (const auto *p = llvm::dyn_cast_or_null<PrimSInfoNode>(cond)) {
    if (!p->dtype.isBool())
      return opError(call, "expects the condition to be bool, but got " + p->dtype.str());
  } else {
    return opError(call, "expects the condition to be a R.Tensor or R.Prim, but got " +
                             sinfoKindName(cond));
  }
  return voidSInfo();
}

llvm::Expected<StructInfo> inferToVDevice(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  // The attr holds the text form "kind:idx[:scope]"; resolve it against the
  // context module when there is one.
  VDevice vdevice;
  const AttrValue &dst = attrValue(call, "dst_vdevice");
  if (ctx.module && dst.kind() == AttrValue::Kind::String) {
    auto [kind, rest] = llvm::StringRef(dst.getString()).split(':');
    int64_t idx = 0;
    rest.split(':').first.getAsInteger(10, idx);
    for (const VDevice &vd : ctx.module->vdevices())
      if (vd->targetKind == kind && idx-- == 0) {
        vdevice = vd;
        break;
      }
  }
  return make<TensorSInfoNode>((*t)->shape, (*t)->dtype, (*t)->ndim, vdevice);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//
//
// TVM gives none of these ops a fusion pattern other than opaque (call_tir's
// comes from its PrimFunc), so every one here is Opaque.

/// The traits of an op whose result is not a function of its operands alone
/// (a call out of the registry's knowledge, an allocation, an effect).
OpInfo &nondeterministic(OpInfo &op) {
  op.deterministic = false;
  return op;
}

/// Host-side bookkeeping: no device work once lowered.
OpInfo &hostOnly(OpInfo &op) {
  op.launchesKernel = false;
  return op;
}

OpInfo &impure(OpInfo &op) {
  op.pure = false;
  return nondeterministic(op);
}

/// An op that reads device data back on the host: never capturable.
OpInfo &hostRead(OpInfo &op) {
  op.readsOnHost = true;
  op.capturable = false;
  return hostOnly(op);
}

OpInfo coreOp(llvm::StringRef name, std::vector<OpParam> params, InferFn infer) {
  return makeOp(name, std::move(params), infer, OpPattern::Opaque);
}

/// A call form: what it computes is its callee's business.
OpInfo callForm(llvm::StringRef name, std::vector<OpParam> params, InferFn infer, TextForm form,
                bool pure = true) {
  OpInfo op = coreOp(name, std::move(params), infer);
  op.textForm = form;
  op.pure = pure;
  return nondeterministic(op);
}

void registerCallForms() {
  registerOp(callForm(
      "call_tir",
      {arg("gvar"), arg("args", ParamKind::ExprTuple), optArg("tir_vars", ParamKind::Shape)},
      inferDPSCall, TextForm::CallTIR));
  // call_tir with the name (and keyword arguments) of the TE gradient that
  // TVM's Gradient pass applies; everywhere else it is a call_tir.
  registerOp(callForm("call_tir_with_grad",
                      {arg("gvar"), arg("args", ParamKind::ExprTuple),
                       reqAttr("te_grad_name", AttrKind::String),
                       attr("te_grad_kwargs", AttrKind::Any, AttrValue::dict({})),
                       optArg("tir_vars", ParamKind::Shape)},
                      inferDPSCall, TextForm::CallTIR));
  registerOp(callForm("call_tir_inplace",
                      {arg("gvar"), arg("args", ParamKind::ExprTuple),
                       reqListAttr("inplace_indices", AttrKind::IntList),
                       optArg("tir_vars", ParamKind::Shape)},
                      inferDPSCall, TextForm::CallTIRInplace));
  registerOp(callForm("call_dps_packed", {arg("func"), arg("args", ParamKind::ExprTuple)},
                      inferDPSCall, TextForm::CallDPSPacked));
  registerOp(callForm("call_pure_packed", {arg("func"), arg("args", ParamKind::VarArgs)},
                      inferPurePacked, TextForm::CallPurePacked));
  registerOp(callForm("call_inplace_packed",
                      {arg("func"), arg("args", ParamKind::VarArgs),
                       reqListAttr("inplace_indices", AttrKind::IntList)},
                      inferPurePacked, TextForm::CallInplacePacked));
  // The VM's context builtins (cuda-graph lookups, shape heaps) are host code.
  OpInfo withCtx =
      callForm("call_builtin_with_ctx", {arg("func"), arg("args", ParamKind::ExprTuple)},
               inferBuiltinWithCtx, TextForm::CallBuiltinWithCtx, /*pure=*/false);
  registerOp(hostOnly(withCtx));
  OpInfo makeClosure = callForm("make_closure", {arg("func"), arg("args", ParamKind::ExprTuple)},
                                inferObject, TextForm::Generic);
  registerOp(hostOnly(makeClosure));
  registerOp(callForm("invoke_closure", {arg("closure"), arg("args", ParamKind::ExprTuple)},
                      inferBySInfoArgs, TextForm::WithSInfoArgs, /*pure=*/false));
  registerOp(callForm("invoke_pure_closure", {arg("closure"), arg("args", ParamKind::ExprTuple)},
                      inferBySInfoArgs, TextForm::WithSInfoArgs));
}

/// An allocation: fresh memory each call, allocated on the host.
OpInfo allocOp(llvm::StringRef name, std::vector<OpParam> params, InferFn infer, AllocKind kind) {
  OpInfo op = coreOp(name, std::move(params), infer);
  op.allocates = kind;
  return hostOnly(nondeterministic(op));
}

OpInfo killOp(llvm::StringRef name, llvm::StringRef param) {
  OpInfo op = coreOp(name, {arg(param)}, inferKill);
  op.kills = true;
  return hostOnly(impure(op));
}

/// An op whose result is a view of its first argument.
OpInfo viewOp(llvm::StringRef name, std::vector<OpParam> params, InferFn infer) {
  OpInfo op = coreOp(name, std::move(params), infer);
  op.aliasesInput = true;
  return hostOnly(op);
}

void registerMemoryOps() {
  registerOp(
      allocOp("memory.alloc_storage",
              {arg("size", ParamKind::Shape), arg("virtual_device_index", ParamKind::PrimValue),
               arg("storage_scope", ParamKind::String), arg("dtype", ParamKind::DType)},
              inferAllocStorage, AllocKind::Storage));
  registerOp(allocOp("memory.alloc_tensor",
                     {arg("storage"), arg("offset", ParamKind::PrimValue),
                      arg("shape", ParamKind::Shape), arg("dtype", ParamKind::DType),
                      argOr("runtime_device_ind", ParamKind::PrimValue, intVal(0))},
                     inferMemAllocTensor, AllocKind::Tensor));
  registerOp(killOp("memory.kill_storage", "storage"));
  registerOp(killOp("memory.kill_tensor", "tensor"));
  // Absent view slots are empty tuples, as TVM's constructor fills them.
  AttrValue unset = AttrValue::array({});
  // The wrapper converts a list to a ShapeExpr, a str to a DataTypeImm and
  // an int to a PrimValue; None, like an absent slot, is the empty tuple.
  registerOp(viewOp("memory.view",
                    {arg("data"), argOr("shape", ParamKind::Shape, unset),
                     argOr("dtype", ParamKind::DType, unset),
                     argOr("relative_byte_offset", ParamKind::PrimValue, unset)},
                    inferView));
  registerOp(viewOp("memory.ensure_zero_offset", {arg("data")}, inferFirstArg));
}

void registerVMOps() {
  registerOp(allocOp(
      "vm.alloc_storage",
      {arg("size", ParamKind::Shape), arg("runtime_device_index", ParamKind::PrimValue),
       arg("dtype", ParamKind::DType), argOr("storage_scope", ParamKind::String, strVal("global"))},
      inferAllocStorage, AllocKind::Storage));
  registerOp(allocOp("vm.alloc_tensor",
                     {arg("storage"), arg("offset", ParamKind::PrimValue),
                      arg("shape", ParamKind::Shape), arg("dtype", ParamKind::DType),
                      argOr("runtime_device_ind", ParamKind::PrimValue, intVal(0))},
                     inferVMAllocTensor, AllocKind::Tensor));
  registerOp(killOp("vm.kill_object", "obj"));
  OpInfo dyn =
      coreOp("vm.call_tir_dyn", {arg("func"), arg("args", ParamKind::ExprTuple)}, inferVoid);
  registerOp(impure(dyn));
}

void registerBuiltinOps() {
  registerOp(allocOp("builtin.alloc_tensor",
                     {arg("shape", ParamKind::Shape), arg("dtype", ParamKind::DType),
                      arg("runtime_device_index", ParamKind::PrimValue),
                      argOr("storage_scope", ParamKind::String, strVal("global"))},
                     inferBuiltinAllocTensor, AllocKind::Tensor));
  registerOp(viewOp("builtin.stop_lift_params", {arg("x")}, inferFirstArg));
}

void registerMiscOps() {
  OpInfo null = coreOp("null_value", {}, inferObject);
  registerOp(hostOnly(null));
  OpInfo shapeOf = coreOp("shape_of", {arg("expr")}, inferShapeOf);
  registerOp(hostOnly(shapeOf)); // Reads the shape the tensor carries, not its data.
  OpInfo toShape = coreOp("tensor_to_shape", {arg("expr")}, inferTensorToShape);
  registerOp(hostRead(toShape)); // Reads the tensor's values on the host.
  OpInfo toTensor = coreOp("shape_to_tensor", {arg("expr")}, inferShapeToTensor);
  registerOp(hostOnly(toTensor));

  OpInfo print = callForm(
      "print", {arg("values", ParamKind::VarArgs), argOr("format", ParamKind::String, strVal(""))},
      inferVoid, TextForm::PrintOrAssert, /*pure=*/false);
  registerOp(hostRead(print));
  OpInfo assertOp = callForm("assert_op",
                             {arg("condition"), arg("format_args", ParamKind::VarArgs),
                              argOr("format", ParamKind::String, strVal(""))},
                             inferAssert, TextForm::PrintOrAssert, /*pure=*/false);
  registerOp(hostRead(assertOp)); // Reads the condition on the host.

  // A hint the device planner consumes: the result is the input.
  OpInfo hint =
      callForm("hint_on_device",
               {arg("data"), reqAttr("device_type", AttrKind::Int), reqAttr("index", AttrKind::Int),
                attr("memory_scope", AttrKind::String, strVal("global"))},
               inferHintOnDevice, TextForm::HintOnDevice);
  hint.deterministic = true;
  hint.aliasesInput = true;
  registerOp(hostOnly(hint));
  // A copy to another device: device work.
  registerOp(coreOp("to_vdevice", {arg("data"), reqAttr("dst_vdevice", AttrKind::String)},
                    inferToVDevice));
}

} // namespace

void graft::registerCoreOps() {
  registerCallForms();
  registerMemoryOps();
  registerVMOps();
  registerBuiltinOps();
  registerMiscOps();
}
