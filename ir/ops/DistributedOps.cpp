//===- ir/ops/DistributedOps.cpp - relax.distributed and collective ops -----===//
//
// The ops of TVM's relax.distributed (src/relax/op/distributed/distributed.cc,
// op.cc) and its collectives (src/relax/op/ccl/ccl.cc): sharding
// annotations, redistribution, the distributed call_tir forms, and
// allreduce/allgather/broadcast/scatter. None has a kernel (docs/ops.md "Not
// lowered yet").
//
// Also the struct info of any other op called with DTensor arguments
// (inferDistributedCall): TVM gives most ops a `dist.FInferStructInfo` that
// propagates shardings through an axis graph; graft infers the op on the
// global views and propagates each sharded axis through elementwise and
// broadcast ops and matmul, and replicates the rest (docs/ops.md).
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpDefs.h"
#include "ir/ops/OpHelpers.h"

#include "ir/Module.h"

using namespace graft;
using namespace graft::opdef;

namespace {

/// The mesh a distribution attr names ("mesh[0]") among the module's global
/// infos.
llvm::Expected<DeviceMesh> meshAttr(const CallNode &call, const InferContext &ctx) {
  auto spec = stringAttr(call, "device_mesh");
  if (!spec)
    return spec.takeError();
  llvm::StringRef text = *spec;
  auto [key, rest] = text.split('[');
  uint64_t index = 0;
  if (rest.consume_back("]") && !rest.getAsInteger(10, index) && ctx.module)
    for (const auto &[k, infos] : ctx.module->globalInfos)
      if (k == key && index < infos.size())
        if (const auto *mesh = llvm::dyn_cast_or_null<DeviceMeshNode>(infos[index].get()))
          return DeviceMesh(mesh);
  return opError(call, "names device mesh \"" + text + "\", which the module's global infos lack");
}

llvm::Expected<const DTensorSInfoNode *> dtensorArg(const CallNode &call, unsigned i) {
  const StructInfoNode *s =
      i < call.args.size() && call.args[i] ? call.args[i]->sinfo.get() : nullptr;
  if (const auto *d = llvm::dyn_cast_or_null<DTensorSInfoNode>(s))
    return d;
  return opError(call, "expects argument " + argName(call, i) + " to be a DTensor, but got " +
                           sinfoKindName(s));
}

/// annotate_sharding is a hint for propagate-sharding: its value is its input.
llvm::Expected<StructInfo> inferAnnotateSharding(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  return call.args[0]->sinfo;
}

llvm::Expected<StructInfo> inferRedistribute(const CallNode &call, const InferContext &ctx) {
  if (auto err = checkArity(call, 1))
    return err;
  auto d = dtensorArg(call, 0);
  if (!d)
    return d.takeError();
  auto mesh = meshAttr(call, ctx);
  if (!mesh)
    return mesh.takeError();
  auto text = stringAttr(call, "placement");
  if (!text)
    return text.takeError();
  llvm::Optional<Placement> p = parsePlacement(*text);
  if (!p || p->size() != (*mesh)->shape.size())
    return opError(call, "placement \"" + *text + "\" does not fit the device mesh");
  return StructInfo(make<DTensorSInfoNode>((*d)->tensor, std::move(*mesh), std::move(*p)));
}

/// The input's shape with `axis` divided by `num_workers` (TVM's scatter rule).
llvm::Expected<StructInfo> scatterView(const CallNode &call, const TensorSInfoNode *t) {
  auto workers = intAttr(call, "num_workers");
  auto axis = intAttr(call, "axis");
  if (!workers || !axis)
    return llvm::joinErrors(workers.takeError(), axis.takeError());
  const std::vector<PrimExpr> *dims = knownDims(t);
  if (!dims)
    return opError(call, "expects an input of known shape");
  auto ax = normalizeAxis(call, *axis, t->ndim);
  if (!ax)
    return ax.takeError();
  if (*workers <= 0)
    return opError(call, "expects a positive num_workers, but got " + std::to_string(*workers));
  PrimExpr dim = (*dims)[*ax];
  if (const auto *imm = llvm::dyn_cast<IntImmNode>(dim.get()))
    if (imm->value % *workers != 0)
      return opError(call, "expects the size of axis " + std::to_string(*ax) +
                               " of the input to be divisible by num_workers. However, the axis " +
                               std::to_string(*ax) + " of the input is " + dimString(dim) +
                               " while num_workers is " + std::to_string(*workers));
  std::vector<PrimExpr> out = *dims;
  out[*ax] = simplify(primBinary(PrimOp::FloorDiv, dim, i64(*workers)));
  return tensorSInfo(std::move(out), t->dtype, t->vdevice);
}

/// redistribute_replica_to_shard: on a DTensor, the global view stays and the
/// placement becomes S[axis] (TVM supports one-dimensional meshes only); on
/// a tensor, the local shard.
llvm::Expected<StructInfo> inferReplicaToShard(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  const StructInfoNode *s = call.args[0]->sinfo.get();
  if (const auto *d = llvm::dyn_cast_or_null<DTensorSInfoNode>(s)) {
    auto view = scatterView(call, d->tensor.get());
    if (!view)
      return view.takeError();
    if (d->placement.size() != 1 || d->placement[0] != kReplica)
      return opError(call, "expects a replicated input on a one-dimensional device mesh");
    auto axis = intAttr(call, "axis");
    if (!axis)
      return axis.takeError();
    Placement p{static_cast<int32_t>(*axis)};
    return StructInfo(make<DTensorSInfoNode>(d->tensor, d->mesh, std::move(p)));
  }
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return scatterView(call, *t);
}

llvm::Expected<StructInfo> inferSameTensor(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return StructInfo(*t);
}

llvm::Expected<StructInfo> inferAllGather(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  auto workers = intAttr(call, "num_workers");
  if (!workers)
    return workers.takeError();
  const std::vector<PrimExpr> *dims = knownDims(*t);
  if (!dims || dims->empty())
    return StructInfo(*t);
  std::vector<PrimExpr> out = *dims;
  out[0] = simplify(primBinary(PrimOp::Mul, out[0], i64(*workers)));
  return tensorSInfo(std::move(out), (*t)->dtype, (*t)->vdevice);
}

llvm::Expected<StructInfo> inferScatter(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 1))
    return err;
  auto t = tensorArg(call, 0);
  if (!t)
    return t.takeError();
  return scatterView(call, *t);
}

/// dist.call_tir and dist.call_tir_local_view: the out_sinfo.
llvm::Expected<StructInfo> inferDistCallTIR(const CallNode &call, const InferContext &) {
  if (auto err = checkArity(call, 2, 3))
    return err;
  if (call.sinfoArgs.size() != 1)
    return opError(call, "expects exactly one output struct info in sinfo_args, but got " +
                             std::to_string(call.sinfoArgs.size()));
  return call.sinfoArgs[0];
}

/// TVM prints a placement in its canonical text ("S[0], R").
llvm::Error canonicalizePlacement(std::vector<Expr> &, Attrs &attrs) {
  if (!attrs)
    return llvm::Error::success();
  AttrDict entries = attrs->entries;
  for (auto &[key, value] : entries)
    if (key == "placement" && value.kind() == AttrValue::Kind::String) {
      llvm::Optional<Placement> p = parsePlacement(value.getString());
      if (!p)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "invalid placement \"" + value.getString() +
                                           "\" (expected e.g. \"S[0], R\")");
      value = AttrValue::string(placementText(*p));
    }
  attrs = make<AttrsNode>(std::move(entries));
  return llvm::Error::success();
}

OpInfo distributionOp(llvm::StringRef name, InferFn infer) {
  OpInfo op = makeOp(name,
                     {arg("input"), reqAttr("device_mesh", AttrKind::String),
                      reqAttr("placement", AttrKind::String)},
                     infer, OpPattern::Opaque);
  op.canonicalize = canonicalizePlacement;
  op.distInfer = infer;
  return op;
}

OpInfo distCallForm(llvm::StringRef name) {
  OpInfo op = makeOp(
      name, {arg("gvar"), arg("args", ParamKind::ExprTuple), optArg("tir_vars", ParamKind::Shape)},
      inferDistCallTIR, OpPattern::Opaque);
  op.textForm = TextForm::CallTIR;
  op.deterministic = false;
  return op;
}

//===----------------------------------------------------------------------===//
// Other ops on DTensors
//===----------------------------------------------------------------------===//

/// The output axis that input axis `axis` of an `inNDim`-dimensional
/// argument `arg` becomes, if any.
llvm::Optional<int> outputAxis(const OpInfo &info, unsigned arg, int axis, int inNDim,
                               int outNDim) {
  if (inNDim < 0 || outNDim < 0)
    return llvm::None;
  if (info.name == "relax.matmul") {
    // The contracted axes (lhs's last, rhs's second to last) leave no
    // output axis; batch axes align from the right.
    bool contracted = arg == 0 ? axis == inNDim - 1 : (inNDim >= 2 && axis == inNDim - 2);
    if (contracted || inNDim < 2)
      return llvm::None;
    if (arg == 1 && axis == inNDim - 1)
      return outNDim - 1;
    if (arg == 0 && axis == inNDim - 2)
      return outNDim - 2;
    int out = axis - (inNDim - 2) + (outNDim - 2);
    return out >= 0 ? llvm::Optional<int>(out) : llvm::None;
  }
  OpPattern pattern = info.fusionPattern();
  if (pattern != OpPattern::ElemWise && pattern != OpPattern::Broadcast)
    return llvm::None;
  int out = axis + (outNDim - inNDim);
  return out >= 0 && out < outNDim ? llvm::Optional<int>(out) : llvm::None;
}

/// A tensor result of the global views as a DTensor on `mesh`.
StructInfo distribute(const StructInfo &view, const CallNode &call, const OpInfo &info,
                      const DeviceMesh &mesh) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(view.get());
  if (!t)
    return view;
  Placement placement(mesh->shape.size(), kReplica);
  for (unsigned a = 0; a < call.args.size(); ++a) {
    const auto *d = llvm::dyn_cast_or_null<DTensorSInfoNode>(call.args[a]->sinfo.get());
    if (!d)
      continue;
    for (size_t m = 0; m < placement.size() && m < d->placement.size(); ++m) {
      if (d->placement[m] == kReplica || placement[m] != kReplica)
        continue;
      llvm::Optional<int> out = outputAxis(info, a, d->placement[m], d->tensor->ndim, t->ndim);
      if (out && llvm::find(placement, *out) == placement.end())
        placement[m] = *out;
    }
  }
  return make<DTensorSInfoNode>(Ref<TensorSInfoNode>(t), mesh, std::move(placement));
}

} // namespace

llvm::Expected<StructInfo> graft::opdef::inferDistributedCall(const CallNode &call,
                                                              const OpInfo &info,
                                                              const InferContext &ctx) {
  if (info.distInfer)
    return info.distInfer(call, ctx);
  if (!info.infer)
    return opError(call, "has no struct info inference: annotate the binding");
  DeviceMesh mesh;
  std::vector<Expr> views;
  views.reserve(call.args.size());
  for (const Expr &a : call.args) {
    const StructInfoNode *s = a ? a->sinfo.get() : nullptr;
    if (llvm::isa_and_nonnull<TensorSInfoNode>(s))
      return opError(call, "takes a DTensor and a Tensor; a distributed op takes DTensors only");
    const auto *d = llvm::dyn_cast_or_null<DTensorSInfoNode>(s);
    if (!d) {
      views.push_back(a);
      continue;
    }
    if (!mesh)
      mesh = d->mesh;
    else if (!sameDeviceMesh(mesh.get(), d->mesh.get()))
      return opError(call, "takes DTensors on different device meshes");
    views.push_back(make<VarNode>("view", StructInfo(d->tensor)));
  }
  Ref<CallNode> local =
      makeAt<CallNode>(call.loc, call.op, std::move(views), call.attrs, call.sinfoArgs);
  auto out = info.infer(*local, ctx);
  if (!out)
    return out.takeError();
  if (const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(out->get())) {
    std::vector<StructInfo> fields;
    for (const StructInfo &f : tuple->fields)
      fields.push_back(distribute(f, call, info, mesh));
    return tupleSInfo(std::move(fields));
  }
  return distribute(*out, call, info, mesh);
}

void graft::registerDistributedOps() {
  registerOp(distributionOp("dist.annotate_sharding", inferAnnotateSharding));
  registerOp(distributionOp("dist.redistribute", inferRedistribute));
  OpInfo toShard =
      makeOp("dist.redistribute_replica_to_shard",
             {arg("input"), reqAttr("num_workers", AttrKind::Int), reqAttr("axis", AttrKind::Int)},
             inferReplicaToShard, OpPattern::Opaque);
  toShard.distInfer = inferReplicaToShard;
  registerOp(toShard);
  registerOp(distCallForm("dist.call_tir"));
  registerOp(distCallForm("dist.call_tir_local_view"));

  registerOp(makeOp("ccl.allreduce",
                    {arg("x"), attr("op_type", AttrKind::String, strVal("sum")),
                     attr("in_group", AttrKind::Bool, boolVal(true))},
                    inferSameTensor, OpPattern::Opaque));
  registerOp(makeOp("ccl.allgather",
                    {arg("x"), reqAttr("num_workers", AttrKind::Int),
                     attr("in_group", AttrKind::Bool, boolVal(true))},
                    inferAllGather, OpPattern::Opaque));
  registerOp(makeOp("ccl.broadcast_from_worker0", {arg("x")}, inferSameTensor, OpPattern::Opaque));
  registerOp(makeOp(
      "ccl.scatter_from_worker0",
      {arg("x"), reqAttr("num_workers", AttrKind::Int), attr("axis", AttrKind::Int, intVal(0))},
      inferScatter, OpPattern::Opaque));
}
