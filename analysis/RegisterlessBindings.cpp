//===- analysis/RegisterlessBindings.cpp - Bindings VM codegen gives no register ===//

#include "analysis/RegisterlessBindings.h"

#include "ir/Op.h"
#include "ir/ops/OpHandles.h"

using namespace graft;

namespace {

bool isNullValueCall(const ExprNode *e) { return asCallTo(e, ops::nullValue()); }

// Codegen picks the void register from the call's struct info alone, so any
// callee counts (packed calls, builtins, kills).
bool isVoidCall(const ExprNode *e) {
  return llvm::isa<CallNode>(e) && !isNullValueCall(e) && e->sinfo && isVoidSInfo(e->sinfo.get());
}

template <typename T> bool isA(const ExprNode *e) { return llvm::isa<T>(e); }

const RegisterlessRow kTable[] = {
    {RegisterlessKind::NullValue, "null-value", "void register / null handle", "R.Object",
     "R.null_value()", isNullValueCall},
    {RegisterlessKind::VoidCall, "void-call", "void register", "R.Tuple",
     "R.call_packed(\"sink\", x, sinfo_args=(R.Tuple,))", isVoidCall},
    {RegisterlessKind::Constant, "constant", "constant-pool index",
     "R.Tensor((4,), dtype=\"float32\")", "R.const([1.0, 2.0, 3.0, 4.0], \"float32\")",
     isA<ConstantNode>},
    {RegisterlessKind::ShapeExpr, "shape", "constant-pool shape", "R.Shape([2, 3])",
     "R.shape([2, 3])", isA<ShapeExprNode>},
    {RegisterlessKind::PrimValue, "prim-value", "immediate or constant", "R.Prim(\"int64\")",
     "R.prim_value(7)", isA<PrimValueNode>},
    {RegisterlessKind::StringImm, "string", "constant-pool string", "R.Object", "R.str(\"text\")",
     isA<StringImmNode>},
    {RegisterlessKind::DataTypeImm, "dtype", "constant-pool DLDataType", "R.Object",
     "R.dtype(\"float32\")", isA<DataTypeImmNode>},
    {RegisterlessKind::GlobalVar, "global-var", "function-table index", "", "cls.helper",
     isA<GlobalVarNode>},
    {RegisterlessKind::ExternFunc, "extern-func", "function-table index", "",
     "R.ExternFunc(\"ext\")", isA<ExternFuncNode>},
    {RegisterlessKind::Function, "function", "lifted before codegen (function-table index)", "", "",
     isA<FunctionNode>},
};

} // namespace

llvm::ArrayRef<RegisterlessRow> graft::registerlessTable() { return kTable; }

const RegisterlessRow *graft::registerlessRowFor(const ExprNode *value) {
  if (!value)
    return nullptr;
  for (const RegisterlessRow &row : kTable)
    if (row.matches(value))
      return &row;
  return nullptr;
}
