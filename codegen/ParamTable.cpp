//===- codegen/ParamTable.cpp - A function's parameter table --------------===//

#include "codegen/ParamTable.h"

#include "codegen/Constants.h"

using namespace graft;
using namespace graft::codegen;

static vm::DimInfo dimInfo(const PrimExprNode *e) {
  if (auto v = asConstInt(e))
    return vm::DimInfo::fixed(*v);
  if (const auto *var = llvm::dyn_cast<TirVarNode>(e))
    return vm::DimInfo::sym(var->name);
  // A composite (n + 1) is checked by vm-shape-lower's code, not here.
  return vm::DimInfo::any();
}

static void setDims(vm::ParamInfo &p, int ndim, const std::vector<PrimExpr> *values) {
  p.ndim = ndim;
  if (!values)
    return;
  for (const PrimExpr &v : *values)
    p.dims.push_back(dimInfo(v.get()));
}

static DLDevice deviceOf(const VDeviceNode *vd, DLDevice dflt) {
  if (!vd)
    return dflt;
  DLDeviceType type = vd->targetKind == "cuda" ? kDLCUDA : kDLCPU;
  return DLDevice{type, static_cast<int32_t>(vd->vdeviceId)};
}

static vm::ParamKind primKind(DataType dt) {
  if (dt.isBool())
    return vm::ParamKind::Bool;
  if (dt.isFloat())
    return vm::ParamKind::Float;
  if (dt.isIntegral())
    return vm::ParamKind::Int;
  return vm::ParamKind::Any;
}

static vm::ParamInfo paramInfo(const VarNode &param, DLDevice defaultDevice) {
  vm::ParamInfo p;
  p.name = param.name;
  const StructInfoNode *s = param.sinfo.get();
  if (const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s)) {
    p.kind = vm::ParamKind::Tensor;
    if (!t->dtype.isVoid())
      p.dtype = toDLDataType(t->dtype);
    p.device = deviceOf(t->vdevice.get(), defaultDevice);
    setDims(p, t->ndim, t->shapeValues());
  } else if (const auto *sh = llvm::dyn_cast_or_null<ShapeSInfoNode>(s)) {
    p.kind = vm::ParamKind::Shape;
    setDims(p, sh->ndim, sh->values ? &*sh->values : nullptr);
  } else if (const auto *prim = llvm::dyn_cast_or_null<PrimSInfoNode>(s)) {
    p.kind = primKind(prim->dtype);
  } else if (llvm::isa_and_nonnull<TupleSInfoNode>(s)) {
    p.kind = vm::ParamKind::Tuple;
  } else if (llvm::isa_and_nonnull<FuncSInfoNode>(s)) {
    p.kind = vm::ParamKind::Closure;
  }
  return p;
}

std::vector<vm::ParamInfo> codegen::paramTable(const FunctionNode &fn, DLDevice defaultDevice) {
  std::vector<vm::ParamInfo> table;
  for (const Var &param : fn.params)
    table.push_back(paramInfo(*param, defaultDevice));
  return table;
}
