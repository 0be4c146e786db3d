//===- vm/ExecBuilder.h - Assemble an Executable ---------------*- C++ -*-===//
//
// The API the code generator (and tests) use to emit bytecode, following
// TVM's ExecBuilder (TVM `src/runtime/relax_vm/`):
//   - functions are declared on first mention, by emission or reference;
//     the table order is the order of first mention;
//   - an int64 constant that fits 56 bits becomes an immediate, anything
//     else goes to the pool, de-duplicated by structural equality;
//   - finish() renumbers each VM function's non-input registers densely in
//     order of first appearance as a destination, then verifies.
//
// Emission methods never fail on the spot: the first error is kept and
// returned by finish(), so a code generator can emit straight-line code.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_EXECBUILDER_H
#define GRAFT_VM_EXECBUILDER_H

#include "vm/Executable.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace graft::vm {

class ExecBuilder {
public:
  ExecBuilder();

  /// Index of `name`, declaring it with `kind` on first mention.
  int64_t declareFunction(llvm::StringRef name, FuncKind kind);
  /// Starts the body of VM function `name`; registers 0..n-1 are its params.
  void beginFunction(llvm::StringRef name, llvm::ArrayRef<std::string> paramNames,
                     std::vector<ParamInfo> params = {});
  void endFunction();

  void emitCall(llvm::StringRef callee, llvm::ArrayRef<Arg> args, int64_t dst = kVoidRegister);
  void emitCall(int64_t calleeIdx, llvm::ArrayRef<Arg> args, int64_t dst = kVoidRegister);
  void emitRet(int64_t reg);
  void emitGoto(int64_t pcOffset);
  void emitIf(int64_t condReg, int64_t falseOffset);

  /// Sets the offset of the Goto or If at instruction `instr` (emitted with a
  /// placeholder before its target was known).
  void setJumpOffset(int64_t instr, int64_t offset);

  /// Index of the next instruction to be emitted (for computing offsets).
  int64_t nextInstr() const { return exe_->numInstructions(); }

  /// An immediate for an int64 that fits, else a pool constant.
  Arg convertConstant(const Value &v);
  /// Pool index of `v`, reusing a structurally equal constant.
  int64_t addConstant(const Value &v);
  /// A FuncIdx argument naming `name` (declared with `kind`).
  Arg functionArg(llvm::StringRef name, FuncKind kind = FuncKind::VM);

  void addKernelSource(std::string name, std::string text);

  /// Formalizes registers and verifies; the builder is spent afterwards.
  llvm::Expected<std::unique_ptr<Executable>> finish();

private:
  void setError(const llvm::Twine &msg);
  llvm::Error formalize(FuncInfo &fn);

  std::unique_ptr<Executable> exe_;
  llvm::DenseMap<uint64_t, llvm::SmallVector<int64_t, 1>> constIndex_;
  int64_t current_ = -1; ///< Function being emitted, or -1.
  std::string error_;
};

} // namespace graft::vm

#endif // GRAFT_VM_EXECBUILDER_H
