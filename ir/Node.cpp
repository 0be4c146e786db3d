//===- ir/Node.cpp - Node destruction by kind -------------------------------===//
//
// Nodes have no vtable: destroy() switches on the kind tag to run the
// concrete destructor. Adding a node kind means adding a case here.
//
//===----------------------------------------------------------------------===//

#include "ir/Attrs.h"
#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/PrimExpr.h"
#include "ir/StructInfo.h"

#include "llvm/Support/ErrorHandling.h"

using namespace graft;

void Node::destroy() const {
  switch (kind_) {
#define GRAFT_DELETE(KIND, CLASS)                                                                  \
  case NodeKind::KIND:                                                                             \
    delete static_cast<const CLASS *>(this);                                                       \
    return;
    GRAFT_DELETE(IntImm, IntImmNode)
    GRAFT_DELETE(FloatImm, FloatImmNode)
    GRAFT_DELETE(TirVar, TirVarNode)
    GRAFT_DELETE(PrimBinary, PrimBinaryNode)
    GRAFT_DELETE(PrimNot, PrimNotNode)
    GRAFT_DELETE(PrimCast, PrimCastNode)
    GRAFT_DELETE(PrimSelect, PrimSelectNode)
    GRAFT_DELETE(ObjectSInfo, ObjectSInfoNode)
    GRAFT_DELETE(PrimSInfo, PrimSInfoNode)
    GRAFT_DELETE(ShapeSInfo, ShapeSInfoNode)
    GRAFT_DELETE(TensorSInfo, TensorSInfoNode)
    GRAFT_DELETE(TupleSInfo, TupleSInfoNode)
    GRAFT_DELETE(FuncSInfo, FuncSInfoNode)
    GRAFT_DELETE(Var, VarNode)
    GRAFT_DELETE(DataflowVar, DataflowVarNode)
    GRAFT_DELETE(Constant, ConstantNode)
    GRAFT_DELETE(ShapeExpr, ShapeExprNode)
    GRAFT_DELETE(PrimValue, PrimValueNode)
    GRAFT_DELETE(StringImm, StringImmNode)
    GRAFT_DELETE(DataTypeImm, DataTypeImmNode)
    GRAFT_DELETE(Tuple, TupleNode)
    GRAFT_DELETE(TupleGetItem, TupleGetItemNode)
    GRAFT_DELETE(Call, CallNode)
    GRAFT_DELETE(If, IfNode)
    GRAFT_DELETE(SeqExpr, SeqExprNode)
    GRAFT_DELETE(Function, FunctionNode)
    GRAFT_DELETE(ExternFunc, ExternFuncNode)
    GRAFT_DELETE(GlobalVar, GlobalVarNode)
    GRAFT_DELETE(Op, OpNode)
    GRAFT_DELETE(VarBinding, VarBindingNode)
    GRAFT_DELETE(MatchCast, MatchCastNode)
    GRAFT_DELETE(BindingBlock, BindingBlockNode)
    GRAFT_DELETE(PrimFunc, PrimFuncNode)
    GRAFT_DELETE(VDevice, VDeviceNode)
    GRAFT_DELETE(Attrs, AttrsNode)
#undef GRAFT_DELETE
  }
  llvm_unreachable("unknown node kind");
}
