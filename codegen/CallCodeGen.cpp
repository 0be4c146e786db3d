//===- codegen/CallCodeGen.cpp - Calls to bytecode ------------------------===//
//
// TVM's CodeGenVM call rules (codegen_vm.cc): the VM intrinsics that
// survive `finalize` (call_builtin_with_ctx, vm.alloc_storage,
// vm.alloc_tensor, vm.kill_object) plus R.assert_op and R.print, which
// become vm.builtin.assert and vm.builtin.print (TVM's relax.run.assert_op
// and relax.run.print); calls of module functions, extern functions and
// kernels go through the function table; a call of a var invokes a closure.
//
//===----------------------------------------------------------------------===//

#include "codegen/FunctionCodeGen.h"

#include "ir/Op.h"
#include "ir/ops/OpHandles.h"

using namespace graft;
using namespace graft::codegen;
using vm::Arg;

/// The void register for a call whose value is void or never read.
int64_t FunctionCodeGen::destination(const CallNode &call, const VarNode &var) {
  if ((call.sinfo && isVoidSInfo(call.sinfo.get())) || !regs_.isRead(&var))
    return vm::kVoidRegister;
  return regs_.allocateFor(&var);
}

llvm::Expected<Arg> FunctionCodeGen::emitCall(const CallNode &call, const VarNode &var) {
  if (const auto *op = llvm::dyn_cast<OpNode>(call.op.get()))
    return emitOpCall(call, *op, var);
  auto callee = atom(*call.op);
  if (!callee)
    return callee.takeError();
  llvm::SmallVector<Arg, 8> args;
  if (callee->kind() == vm::ArgKind::Register) {
    // A closure value: vm.builtin.invoke_closure(%vm, closure, args...).
    args.push_back(Arg::reg(vm::kVMRegister));
    args.push_back(*callee);
  } else if (callee->kind() != vm::ArgKind::FuncIdx) {
    return error(loc_, "the callee is not a function");
  }
  if (auto err = leaves(call.args, args))
    return err;
  int64_t dst = destination(call, var);
  if (callee->kind() == vm::ArgKind::Register)
    b_.emitCall("vm.builtin.invoke_closure", args, dst);
  else
    b_.emitCall(callee->value(), args, dst);
  return Arg::reg(dst);
}

llvm::Expected<Arg> FunctionCodeGen::emitPackedCall(llvm::StringRef callee,
                                                    llvm::ArrayRef<Arg> args, const CallNode &call,
                                                    const VarNode &var) {
  int64_t dst = destination(call, var);
  b_.emitCall(callee, args, dst);
  return Arg::reg(dst);
}

/// `vm.kill_object(x)` writes None into x's register; a var without one
/// (RegisterlessBindings.h) gets no instruction.
void FunctionCodeGen::emitKill(const CallNode &call) {
  const auto *v = call.args.empty() ? nullptr : llvm::dyn_cast<VarNode>(call.args[0].get());
  auto it = v ? vars_.find(v) : vars_.end();
  if (it == vars_.end() || it->second.kind() != vm::ArgKind::Register ||
      vm::isSpecialRegister(it->second.value()))
    return;
  b_.emitCall("vm.builtin.null_value", {}, it->second.value());
}

llvm::Expected<Arg> FunctionCodeGen::emitOpCall(const CallNode &call, const OpNode &op,
                                                const VarNode &var) {
  llvm::SmallVector<Arg, 8> args;
  if (isCallTo(call, ops::vmKillObject())) {
    emitKill(call);
    return Arg::reg(vm::kVoidRegister);
  }
  if (isCallTo(call, ops::callBuiltinWithCtx())) {
    const auto *ext = llvm::dyn_cast<ExternFuncNode>(call.args[0].get());
    const auto *tuple = llvm::dyn_cast<TupleNode>(call.args[1].get());
    if (!ext || !tuple)
      return error(loc_, "call_builtin_with_ctx needs an extern function and an argument tuple");
    args.push_back(Arg::reg(vm::kVMRegister));
    if (auto err = leaves(tuple->fields, args))
      return err;
    return emitPackedCall(ext->symbol, args, call, var);
  }
  if (isCallTo(call, ops::vmAllocStorage())) {
    args.push_back(Arg::reg(vm::kVMRegister));
    if (auto err = leaves(call.args, args))
      return err;
    return emitPackedCall("vm.builtin.alloc_storage", args, call, var);
  }
  if (isCallTo(call, ops::vmAllocTensor())) {
    // storage, offset, shape, dtype; the device index is the storage's.
    if (auto err = leaves(llvm::ArrayRef<Expr>(call.args).take_front(4), args))
      return err;
    return emitPackedCall("vm.builtin.alloc_tensor", args, call, var);
  }
  if (isCallTo(call, ops::assertOp())) {
    // assert_op's args are (cond, format, values...), vm.builtin.assert's order.
    if (auto err = leaves(call.args, args))
      return err;
    return emitPackedCall("vm.builtin.assert", args, call, var);
  }
  if (isCallTo(call, ops::print())) {
    // print's args are (format, values...), vm.builtin.print's order.
    if (auto err = leaves(call.args, args))
      return err;
    return emitPackedCall("vm.builtin.print", args, call, var);
  }
  return error(loc_, "R." + op.info->scriptName() +
                         " must be lowered before code generation (graft build runs "
                         "legalize-ops and finalize)");
}
