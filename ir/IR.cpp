//===- ir/IR.cpp - Node constructors and small queries ----------------------===//

#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/StructInfo.h"

#include <algorithm>
#include <memory>

using namespace graft;

//===----------------------------------------------------------------------===//
// Struct info
//===----------------------------------------------------------------------===//

TensorSInfoNode::TensorSInfoNode(Expr shape, DataType dtype, int ndim, VDevice vdevice)
    : StructInfoNode(NodeKind::TensorSInfo), shape(std::move(shape)), dtype(dtype), ndim(ndim),
      vdevice(std::move(vdevice)) {
  if (const auto *se = llvm::dyn_cast_or_null<ShapeExprNode>(this->shape.get()))
    this->ndim = static_cast<int>(se->values.size());
  else if (this->shape)
    if (const auto *ss = llvm::dyn_cast_or_null<ShapeSInfoNode>(this->shape->sinfo.get()))
      if (ss->ndim >= 0)
        this->ndim = ss->ndim;
}

const std::vector<PrimExpr> *TensorSInfoNode::shapeValues() const {
  if (const auto *se = llvm::dyn_cast_or_null<ShapeExprNode>(shape.get()))
    return &se->values;
  return nullptr;
}

StructInfo graft::objectSInfo() {
  static StructInfo object = make<ObjectSInfoNode>();
  return object;
}
StructInfo graft::voidSInfo() { return make<TupleSInfoNode>(std::vector<StructInfo>{}); }
StructInfo graft::primSInfo(DataType dtype) { return make<PrimSInfoNode>(dtype); }
StructInfo graft::primValueSInfo(PrimExpr value) {
  DataType dt = value->dtype;
  return make<PrimSInfoNode>(dt, std::move(value));
}
StructInfo graft::shapeSInfo(std::vector<PrimExpr> values) {
  return make<ShapeSInfoNode>(std::move(values));
}
StructInfo graft::shapeSInfoNDim(int ndim) { return make<ShapeSInfoNode>(ndim); }
StructInfo graft::tensorSInfo(std::vector<PrimExpr> dims, DataType dtype, VDevice vdevice) {
  int ndim = static_cast<int>(dims.size());
  return make<TensorSInfoNode>(shapeExpr(std::move(dims)), dtype, ndim, std::move(vdevice));
}
StructInfo graft::tensorSInfoNDim(int ndim, DataType dtype, VDevice vdevice) {
  return make<TensorSInfoNode>(nullptr, dtype, ndim, std::move(vdevice));
}
StructInfo graft::tupleSInfo(std::vector<StructInfo> fields) {
  return make<TupleSInfoNode>(std::move(fields));
}
bool graft::sameDeviceMesh(const DeviceMeshNode *a, const DeviceMeshNode *b) {
  if (a == b)
    return true;
  return a && b && a->shape == b->shape && a->deviceIds == b->deviceIds && a->range == b->range;
}

StructInfo graft::withDTensorView(const DTensorSInfoNode *d, const StructInfo &tensor) {
  if (tensor.get() == d->tensor.get())
    return StructInfo(d);
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(tensor.get());
  if (!t)
    return tensor;
  return make<DTensorSInfoNode>(Ref<TensorSInfoNode>(t), d->mesh, d->placement);
}

std::string graft::placementText(const Placement &p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (i)
      out += ", ";
    out += p[i] == kReplica ? std::string("R") : "S[" + std::to_string(p[i]) + "]";
  }
  return out;
}

llvm::Optional<Placement> graft::parsePlacement(llvm::StringRef text) {
  Placement out;
  for (;;) {
    text = text.ltrim(" ,");
    if (text.empty())
      return out;
    if (text.consume_front("R")) {
      out.push_back(kReplica);
      continue;
    }
    unsigned axis = 0;
    if (!text.consume_front("S["))
      return llvm::None;
    size_t close = text.find(']');
    if (close == llvm::StringRef::npos || text.take_front(close).trim().getAsInteger(10, axis) ||
        axis > 1024)
      return llvm::None;
    out.push_back(static_cast<int32_t>(axis));
    text = text.drop_front(close + 1);
  }
}

bool graft::isVoidSInfo(const StructInfoNode *s) {
  const auto *t = llvm::dyn_cast_or_null<TupleSInfoNode>(s);
  return t && t->fields.empty();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

int64_t TensorData::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

ConstantNode::ConstantNode(std::shared_ptr<const TensorData> data, StructInfo sinfo)
    : ExprNode(NodeKind::Constant, std::move(sinfo)), data(std::move(data)) {
  if (!this->sinfo) {
    std::vector<PrimExpr> dims;
    for (int64_t d : this->data->shape)
      dims.push_back(intImm(d));
    this->sinfo = tensorSInfo(std::move(dims), this->data->dtype);
  }
}

ShapeExprNode::ShapeExprNode(std::vector<PrimExpr> vals)
    : ExprNode(NodeKind::ShapeExpr), values(std::move(vals)) {
  // TVM casts IntImm dims to int64.
  for (PrimExpr &v : values)
    if (const auto *imm = llvm::dyn_cast<IntImmNode>(v.get()))
      if (imm->dtype != DataType::int64())
        v = intImm(imm->value);
  sinfo = make<ShapeSInfoNode>(values);
}

PrimValueNode::PrimValueNode(PrimExpr value)
    : ExprNode(NodeKind::PrimValue, primValueSInfo(value)), value(std::move(value)) {}

StringImmNode::StringImmNode(std::string value)
    : ExprNode(NodeKind::StringImm, objectSInfo()), value(std::move(value)) {}

DataTypeImmNode::DataTypeImmNode(DataType value)
    : ExprNode(NodeKind::DataTypeImm, objectSInfo()), value(value) {}

TupleNode::TupleNode(std::vector<Expr> fields)
    : ExprNode(NodeKind::Tuple), fields(std::move(fields)) {
  std::vector<StructInfo> infos;
  infos.reserve(this->fields.size());
  for (const Expr &f : this->fields) {
    if (!f->sinfo)
      return;
    infos.push_back(f->sinfo);
  }
  sinfo = tupleSInfo(std::move(infos));
}

TupleGetItemNode::TupleGetItemNode(Expr tuple, int index)
    : ExprNode(NodeKind::TupleGetItem), tuple(std::move(tuple)), index(index) {
  if (const auto *ts = llvm::dyn_cast_or_null<TupleSInfoNode>(this->tuple->sinfo.get()))
    if (index >= 0 && static_cast<size_t>(index) < ts->fields.size())
      sinfo = ts->fields[index];
}

IfNode::IfNode(Expr cond, SeqExpr thenBranch, SeqExpr elseBranch, StructInfo sinfo)
    : ExprNode(NodeKind::If, std::move(sinfo)), cond(std::move(cond)),
      thenBranch(std::move(thenBranch)), elseBranch(std::move(elseBranch)) {}

FunctionNode::FunctionNode(std::vector<Var> params, SeqExpr body, StructInfo retSInfo, bool isPure,
                           Attrs attrs, llvm::SMLoc loc, bool checkWellFormed)
    : ExprNode(NodeKind::Function), params(std::move(params)), body(std::move(body)),
      retSInfo(std::move(retSInfo)), isPure(isPure), attrs(std::move(attrs)),
      checkWellFormed(checkWellFormed) {
  this->loc = loc;
  std::vector<StructInfo> paramInfos;
  for (const Var &p : this->params)
    paramInfos.push_back(p->sinfo ? p->sinfo : objectSInfo());
  sinfo = make<FuncSInfoNode>(std::move(paramInfos),
                              this->retSInfo ? this->retSInfo : objectSInfo(), isPure);
}

llvm::StringRef FunctionNode::globalSymbol() const {
  const AttrValue *v = attr("global_symbol");
  if (v && v->kind() == AttrValue::Kind::String)
    return v->getString();
  return "";
}

ExternFuncNode::ExternFuncNode(std::string symbol, StructInfo sinfo, Attrs attrs)
    : ExprNode(NodeKind::ExternFunc, std::move(sinfo)), symbol(std::move(symbol)),
      attrs(std::move(attrs)) {
  if (!this->sinfo)
    this->sinfo =
        make<FuncSInfoNode>(llvm::None, objectSInfo(), /*purity=*/false, kInferBySInfoArgs);
}

llvm::StringRef OpNode::name() const { return info->name; }

template <typename T>
T *VarNode::createNamed(NodeKind kind, llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc) {
  return constructNode<T>(name.size() + 1, [&](void *block, char *tail) {
    std::copy(name.begin(), name.end(), tail);
    tail[name.size()] = '\0';
    return ::new (block) T(kind, VarName(tail, name.size()), std::move(sinfo), loc);
  });
}

VarNode *VarNode::create(llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc) {
  return createNamed<VarNode>(NodeKind::Var, name, std::move(sinfo), loc);
}

DataflowVarNode *DataflowVarNode::create(llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc) {
  return createNamed<DataflowVarNode>(NodeKind::DataflowVar, name, std::move(sinfo), loc);
}

CallNode *CallNode::create(Expr op, std::vector<Expr> args, Attrs attrs,
                           std::vector<StructInfo> sinfoArgs, StructInfo sinfo) {
  size_t tail = args.size() * sizeof(Expr) + sinfoArgs.size() * sizeof(StructInfo);
  return constructNode<CallNode>(tail, [&](void *block, char *tailChars) {
    return ::new (block)
        CallNode(std::move(op), args, std::move(attrs), sinfoArgs, std::move(sinfo), tailChars);
  });
}

CallNode::CallNode(Expr op, std::vector<Expr> &args, Attrs attrs,
                   std::vector<StructInfo> &sinfoArgs, StructInfo sinfo, void *tail)
    : ExprNode(NodeKind::Call, std::move(sinfo)), op(std::move(op)), attrs(std::move(attrs)) {
  // Moving Refs cannot throw: once the node exists, its tail is complete.
  auto *argStore = static_cast<Expr *>(tail);
  std::uninitialized_move(args.begin(), args.end(), argStore);
  this->args = llvm::ArrayRef<Expr>(argStore, args.size());
  auto *sinfoStore = reinterpret_cast<StructInfo *>(argStore + args.size());
  std::uninitialized_move(sinfoArgs.begin(), sinfoArgs.end(), sinfoStore);
  this->sinfoArgs = llvm::ArrayRef<StructInfo>(sinfoStore, sinfoArgs.size());
}

CallNode::~CallNode() {
  std::destroy(args.begin(), args.end());
  std::destroy(sinfoArgs.begin(), sinfoArgs.end());
}

const OpInfo *CallNode::opInfo() const {
  if (const auto *o = llvm::dyn_cast<OpNode>(op.get()))
    return o->info;
  return nullptr;
}

bool graft::isLeafOrTuple(const ExprNode *e) {
  if (isLeaf(e))
    return true;
  switch (e->getKind()) {
  case NodeKind::GlobalVar:
  case NodeKind::ExternFunc:
  case NodeKind::Op:
  case NodeKind::Tuple:
    return true;
  default:
    return false;
  }
}

Expr graft::primValue(PrimExpr value) { return make<PrimValueNode>(std::move(value)); }
Expr graft::primValueInt(int64_t value) { return primValue(intImm(value)); }
Expr graft::stringImm(std::string value) { return make<StringImmNode>(std::move(value)); }
Expr graft::dataTypeImm(DataType dtype) { return make<DataTypeImmNode>(dtype); }
Expr graft::shapeExpr(std::vector<PrimExpr> values) {
  return make<ShapeExprNode>(std::move(values));
}
Expr graft::tupleExpr(std::vector<Expr> fields) { return make<TupleNode>(std::move(fields)); }

void graft::updateDeclaredSInfo(const GlobalVarNode &gv, StructInfo sinfo) {
  const_cast<GlobalVarNode &>(gv).sinfo = std::move(sinfo);
}

Expr graft::withLoc(Expr e, llvm::SMLoc loc) {
  if (!e || e->loc == loc)
    return e;
  if (e->refCount() == 1) {
    // The caller holds the only reference: the node is not published yet.
    const_cast<ExprNode *>(e.get())->loc = loc;
    return e;
  }
  if (const auto *c = llvm::dyn_cast<CallNode>(e.get()))
    return makeAt<CallNode>(loc, c->op, c->args, c->attrs, c->sinfoArgs, c->sinfo);
  if (const auto *t = llvm::dyn_cast<TupleNode>(e.get())) {
    Draft<TupleNode> copy = draft<TupleNode>(t->fields);
    copy->sinfo = t->sinfo;
    copy->loc = loc;
    return copy.publish();
  }
  if (const auto *g = llvm::dyn_cast<TupleGetItemNode>(e.get())) {
    Draft<TupleGetItemNode> copy = draft<TupleGetItemNode>(g->tuple, g->index);
    copy->sinfo = g->sinfo;
    copy->loc = loc;
    return copy.publish();
  }
  if (const auto *i = llvm::dyn_cast<IfNode>(e.get()))
    return makeAt<IfNode>(loc, i->cond, i->thenBranch, i->elseBranch, i->sinfo);
  return e;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

const FunctionNode *ModuleEntry::asFunction() const {
  return llvm::dyn_cast_or_null<FunctionNode>(func.get());
}
const ExternFuncNode *ModuleEntry::asExtern() const {
  return llvm::dyn_cast_or_null<ExternFuncNode>(func.get());
}
const PrimFuncNode *ModuleEntry::asPrimFunc() const {
  return llvm::dyn_cast_or_null<PrimFuncNode>(func.get());
}

const ModuleEntry *IRModule::lookup(llvm::StringRef name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

void IRModule::add(GlobalVar gvar, Ref<Node> func) {
  auto [it, inserted] = index_.try_emplace(gvar->name, entries_.size());
  if (inserted)
    entries_.push_back({std::move(gvar), std::move(func)});
  else
    entries_[it->second] = {std::move(gvar), std::move(func)};
}

bool IRModule::remove(llvm::StringRef name) {
  auto it = index_.find(name);
  if (it == index_.end())
    return false;
  entries_.erase(entries_.begin() + it->second);
  index_.clear();
  for (size_t i = 0; i < entries_.size(); ++i)
    index_[entries_[i].gvar->name] = i;
  return true;
}

std::vector<VDevice> IRModule::vdevices() const {
  std::vector<VDevice> out;
  for (const auto &[key, infos] : globalInfos)
    if (key == "vdevice")
      for (const Ref<Node> &n : infos)
        if (const auto *vd = llvm::dyn_cast_or_null<VDeviceNode>(n.get()))
          out.push_back(vd);
  return out;
}

StructInfo PrimFuncNode::relaxSInfo() const {
  std::vector<StructInfo> ps;
  for (const PrimParam &p : params) {
    switch (p.kind) {
    case PrimParam::Kind::Buffer: {
      std::vector<PrimExpr> dims = p.shape;
      ps.push_back(tensorSInfo(std::move(dims), p.dtype));
      break;
    }
    case PrimParam::Kind::Handle:
      ps.push_back(objectSInfo());
      break;
    case PrimParam::Kind::Scalar:
      ps.push_back(primSInfo(p.dtype));
      break;
    }
  }
  StructInfo ret = retType.isVoid() ? voidSInfo() : primSInfo(retType);
  return make<FuncSInfoNode>(std::move(ps), std::move(ret), isPure);
}
