//===- transforms/LowerRuntimeBuiltin.cpp - Ops to VM builtins --------------===//
//
// `lower-runtime-builtin` (TVM's LowerRuntimeBuiltin, formerly VMBuiltinLower;
// TVM `src/relax/backend/vm/lower_runtime_builtin.cc`): the ops that the VM runs as builtins become
// calls the code generator knows:
//   memory.alloc_storage(size, dev, scope, dtype) -> vm.alloc_storage(size, dev, "uint8", scope)
//   memory.alloc_tensor(...)                     -> vm.alloc_tensor(...)
//   memory.kill_storage / memory.kill_tensor     -> vm.kill_object
//   vm.call_tir_dyn(f, (a...))                   -> "vm.builtin.call_tir_dyn"(f, a...)
//   reshape / shape_of / tensor_to_shape         -> "vm.builtin.<same>"(...)
//   inspect.tensor_<field>(x[, axis])            -> "vm.builtin.tensor_<field>"(...)
//   to_vdevice(x)                                -> "vm.builtin.to_device"(x, type, id, scope)
//   make_closure(f, (a...))                      -> "vm.builtin.make_closure"(f, a...)
//   invoke_closure(c, (a...))                    ->
//   call_builtin_with_ctx("vm.builtin.invoke_closure", (c, a...)) memory.view /
//   memory.ensure_zero_offset      -> their runtime functions
// Packed calls carry the original call's struct info as sinfo_args. An
// `R.builtin.alloc_tensor` left over is an error: lower-alloc-tensor must run
// first.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

static constexpr const char *kPassName = "lower-runtime-builtin";
/// The derive function ir/StructInfoAnalysis.cpp knows: memory.view's inference.
static constexpr const char *kInferViewSInfo = "tvm.relax.struct_info.infer_view_sinfo";

namespace {

/// DLPack device type of a vdevice's target kind.
int64_t dlDeviceType(llvm::StringRef kind) {
  if (kind == "cuda")
    return 2;
  if (kind == "opencl")
    return 4;
  if (kind == "vulkan")
    return 7;
  if (kind == "metal")
    return 8;
  if (kind == "rocm")
    return 10;
  return 1; // llvm, c, cpu
}

/// The VM builtin of a relax.inspect op (its value read at run time), or
/// null for other ops.
const char *inspectBuiltin(const ExprNode *op) {
  static const std::pair<const ExprNode *, const char *> kTable[] = {
      {ops::inspectDTypeCode(), "vm.builtin.tensor_dtype_code"},
      {ops::inspectDTypeBits(), "vm.builtin.tensor_dtype_bits"},
      {ops::inspectDTypeLanes(), "vm.builtin.tensor_dtype_lanes"},
      {ops::inspectNDim(), "vm.builtin.tensor_ndim"},
      {ops::inspectShapeI(), "vm.builtin.tensor_shape_i"},
      {ops::inspectStrideI(), "vm.builtin.tensor_stride_i"},
      {ops::inspectByteOffset(), "vm.builtin.tensor_byte_offset"},
      {ops::inspectElemOffset(), "vm.builtin.tensor_elem_offset"},
  };
  for (const auto &[handle, builtin] : kTable)
    if (op == handle)
      return builtin;
  return nullptr;
}

/// The fields of an inline argument tuple, or the expression itself.
std::vector<Expr> tupleFields(const Expr &e) {
  if (const auto *t = llvm::dyn_cast<TupleNode>(e.get()))
    return t->fields;
  return {e};
}

bool isUnset(const Expr &e) {
  const auto *t = llvm::dyn_cast<TupleNode>(e.get());
  return t && t->fields.empty();
}

class BuiltinLowerer : public ExprMutator {
public:
  explicit BuiltinLowerer(const IRModule *module) : ExprMutator(module) {}

  int64_t lowered = 0;

  llvm::Expected<Expr> rewriteCall(const CallNode *call) override {
    llvm::Expected<Expr> out = ExprMutator::rewriteCall(call);
    if (!out)
      return out;
    const auto *c = llvm::dyn_cast<CallNode>(out->get());
    const OpInfo *info = c ? c->opInfo() : nullptr;
    if (!info)
      return out;
    llvm::Expected<Expr> fresh = lowerOp(*c, c->op.get());
    if (!fresh)
      return fresh.takeError();
    if (!*fresh)
      return out;
    ++lowered;
    if (llvm::isa<CallNode>(fresh->get()))
      *fresh = withLoc(std::move(*fresh), call->loc);
    return builder_.normalize(std::move(*fresh));
  }

private:
  /// The lowered form, or null when the op stays.
  llvm::Expected<Expr> lowerOp(const CallNode &c, const ExprNode *op) {
    llvm::ArrayRef<Expr> a = c.args;
    std::vector<StructInfo> same{c.sinfo};
    if (op == ops::memAllocStorage() && a.size() == 4)
      return opCall(ops::vmAllocStorage(),
                    {a[0], a[1], dataTypeImm(DataType(DataType::UInt, 8)), a[2]});
    if (op == ops::memAllocTensor())
      return opCall(ops::vmAllocTensor(), a);
    if ((op == ops::memKillStorage() || op == ops::memKillTensor()) && a.size() == 1)
      return opCall(ops::vmKillObject(), a);
    if (op == ops::builtinAllocTensor())
      return needsError(kPassName, "R.builtin.alloc_tensor lowered first (run "
                                   "lower-alloc-tensor before it)");
    if (op == ops::vmCallTIRDyn() && a.size() == 2)
      return withCallee("vm.builtin.call_tir_dyn", a[0], a[1], {voidSInfo()});
    if (op == ops::reshape() && a.size() == 2) {
      if (!llvm::isa_and_nonnull<ShapeSInfoNode>(a[1]->sinfo.get()))
        return diagError(c.loc, "R.reshape needs a shape argument of struct info R.Shape to "
                                "be lowered to vm.builtin.reshape");
      return externCall("vm.builtin.reshape", a, same);
    }
    if (op == ops::shapeOf())
      return externCall("vm.builtin.shape_of", a, same);
    if (op == ops::tensorToShape())
      return externCall("vm.builtin.tensor_to_shape", a, same);
    if (const char *builtin = inspectBuiltin(op))
      return externCall(builtin, a, same);
    if (op == ops::toVDevice())
      return lowerToVDevice(c);
    if (op == ops::makeClosure() && a.size() == 2)
      return withCallee("vm.builtin.make_closure", a[0], a[1], {objectSInfo()});
    if (op == ops::invokeClosure() && a.size() == 2) {
      std::vector<Expr> fields{a[0]};
      for (Expr &f : tupleFields(a[1]))
        fields.push_back(std::move(f));
      return Expr(
          make<CallNode>(ops::callBuiltinWithCtx(),
                         std::vector<Expr>{make<ExternFuncNode>("vm.builtin.invoke_closure"),
                                           tupleExpr(std::move(fields))},
                         nullptr, c.sinfoArgs));
    }
    if (op == ops::memView() && a.size() == 4)
      return lowerView(c);
    if (op == ops::memEnsureZeroOffset())
      return externCall("vm.builtin.ensure_zero_offset", a, same);
    return Expr();
  }

  static Expr opCall(const Op &op, std::vector<Expr> args) {
    return make<CallNode>(op, std::move(args));
  }

  /// `"symbol"(callee, fields of args...)`.
  static Expr withCallee(llvm::StringRef symbol, const Expr &callee, const Expr &args,
                         std::vector<StructInfo> sinfoArgs) {
    std::vector<Expr> all{callee};
    for (Expr &f : tupleFields(args))
      all.push_back(std::move(f));
    return externCall(symbol, std::move(all), std::move(sinfoArgs));
  }

  /// The target device comes from the result's vdevice, else from the
  /// `dst_vdevice` attribute as written ("cuda:1:global").
  llvm::Expected<Expr> lowerToVDevice(const CallNode &c) {
    std::string kind, scope = "global";
    int64_t id = 0;
    const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(c.sinfo.get());
    if (t && t->vdevice) {
      kind = t->vdevice->targetKind;
      id = t->vdevice->vdeviceId;
      scope = t->vdevice->memoryScope;
    } else if (const AttrValue *v = c.attrs ? c.attrs->lookup("dst_vdevice") : nullptr;
               v && v->kind() == AttrValue::Kind::String) {
      llvm::SmallVector<llvm::StringRef, 3> parts;
      llvm::StringRef(v->getString()).split(parts, ':');
      kind = parts[0].str();
      if (parts.size() > 1 && parts[1].getAsInteger(10, id))
        return diagError(c.loc, "R.to_vdevice: bad device id in '" + v->getString() + "'");
      if (parts.size() > 2)
        scope = parts[2].str();
    } else {
      return diagError(c.loc, "R.to_vdevice needs a target vdevice");
    }
    return externCall(
        "vm.builtin.to_device",
        {c.args[0], primValueInt(dlDeviceType(kind)), primValueInt(id), stringImm(scope)},
        {c.sinfo});
  }

  /// `runtime.TVMTensorCreateView(x, shape, dtype, offset)` with x's shape,
  /// dtype and 0 where the view leaves them unset; x itself when all are.
  llvm::Expected<Expr> lowerView(const CallNode &c) {
    Expr data = c.args[0], shape = c.args[1], dtype = c.args[2], offset = c.args[3];
    if (isUnset(shape) && isUnset(dtype) && isUnset(offset))
      return data;
    const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(data->sinfo.get());
    if (!t)
      return diagError(c.loc, "R.memory.view needs a tensor argument");
    if (isUnset(shape)) {
      if (const std::vector<PrimExpr> *dims = t->shapeValues())
        shape = shapeExpr(*dims);
      else if (t->shape)
        shape = t->shape;
      else
        return diagError(c.loc, "R.memory.view of a tensor of unknown shape needs a shape");
    }
    if (isUnset(dtype))
      dtype = dataTypeImm(t->dtype);
    if (isUnset(offset))
      offset = primValueInt(0);
    // A pure ExternFunc whose derive function infers the view's struct info (TVM's form), so
    // the view stays pure and may sit in a dataflow block or a pure function.
    auto callee = make<ExternFuncNode>(
        "runtime.TVMTensorCreateView",
        make<FuncSInfoNode>(llvm::None, objectSInfo(), /*purity=*/true, kInferViewSInfo));
    return make<CallNode>(std::move(callee), std::vector<Expr>{data, shape, dtype, offset});
  }
};

/// Pure ops that this pass turns into (impure) packed calls.
bool becomesPackedCall(const CallNode &call) {
  const ExprNode *op = call.op.get();
  return op == ops::reshape() || op == ops::shapeOf() || op == ops::tensorToShape() ||
         op == ops::toVDevice() || op == ops::makeClosure() || op == ops::memEnsureZeroOffset() ||
         inspectBuiltin(op);
}

class LowerRuntimeBuiltinPass : public FunctionPass {
public:
  LowerRuntimeBuiltinPass() : FunctionPass(kPassName) {}

  PassStatistic calls{this, "calls", "calls lowered to VM builtins"};

  llvm::Error checkPreconditions(const IRModule &module) override {
    return checkImpureLoweringSites(module, kPassName, becomesPackedCall);
  }

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    BuiltinLowerer lowerer(&module());
    llvm::Expected<Function> out = lowerer.rewriteFunction(fn);
    if (out && lowerer.lowered)
      calls += lowerer.lowered;
    return out;
  }
};

} // namespace

void graft::registerLowerRuntimeBuiltinPass() {
  PassInfo info;
  info.alias = "LowerRuntimeBuiltin";
  info.summary = "Lowers memory, closure, shape and call_tir_dyn ops to VM builtins "
                 "(TVM's VMBuiltinLower)";
  info.preconditions = "no R.builtin.alloc_tensor left (lower-alloc-tensor)";
  registerPass<LowerRuntimeBuiltinPass>(std::move(info));
}
