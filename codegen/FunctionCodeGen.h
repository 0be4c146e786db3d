//===- codegen/FunctionCodeGen.h - One Relax function to bytecode -*- C++ -*-===//
//
// Emits a function's bytecode event by event (LinearWalk): bindings, `if`
// with a result register written at the end of each branch, and the return.
// Bindings that codegen gives no register are classified through
// analysis/RegisterlessBindings.h, the table kill-after-last-use reads too,
// so a kill is never emitted for a var without a register.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_FUNCTIONCODEGEN_H
#define GRAFT_CODEGEN_FUNCTIONCODEGEN_H

#include "codegen/ModuleContext.h"
#include "codegen/RegisterAllocator.h"

namespace graft::codegen {

class FunctionCodeGen {
public:
  FunctionCodeGen(ModuleContext &ctx, const FunctionNode &fn, std::string name);
  llvm::Error run();

private:
  struct PendingIf {
    int64_t ifInstr = -1;
    int64_t gotoInstr = -1;
    int64_t resultReg = -1;
  };

  // Events (FunctionCodeGen.cpp).
  llvm::Error emitEvent(const WalkEvent &event);
  llvm::Error emitBinding(const BindingNode &binding);
  llvm::Error emitIfBegin(const BindingNode &binding);
  llvm::Error emitBranchEnd(const WalkEvent &event);
  void emitIfEnd(const BindingNode &binding);
  llvm::Error emitReturn(const ExprNode &result);

  // Leaves (FunctionCodeGen.cpp).
  llvm::Expected<vm::Arg> leaf(const ExprNode &e);
  llvm::Expected<vm::Arg> atom(const ExprNode &e);
  llvm::Error leaves(llvm::ArrayRef<Expr> exprs, llvm::SmallVectorImpl<vm::Arg> &out);
  llvm::Expected<vm::Arg> emitTuple(const TupleNode &t, int64_t dst);

  // Calls (CallCodeGen.cpp).
  llvm::Expected<vm::Arg> emitCall(const CallNode &call, const VarNode &var);
  llvm::Expected<vm::Arg> emitOpCall(const CallNode &call, const OpNode &op, const VarNode &var);
  llvm::Expected<vm::Arg> emitPackedCall(llvm::StringRef callee, llvm::ArrayRef<vm::Arg> args,
                                         const CallNode &call, const VarNode &var);
  void emitKill(const CallNode &call);
  int64_t destination(const CallNode &call, const VarNode &var);

  llvm::Error error(llvm::SMLoc loc, const llvm::Twine &message) const;

  ModuleContext &ctx_;
  vm::ExecBuilder &b_;
  const FunctionNode &fn_;
  std::string name_;
  RegisterAllocator regs_;
  llvm::DenseMap<const VarNode *, vm::Arg> vars_;
  llvm::DenseMap<const BindingNode *, PendingIf> ifs_;
  llvm::SMLoc loc_; ///< Location of the binding being emitted.
};

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_FUNCTIONCODEGEN_H
