//===- vm/ExecBuilder.cpp - Assemble an Executable -------------------------===//

#include "vm/ExecBuilder.h"

#include "llvm/Support/FormatVariadic.h"

using namespace graft::vm;

/// num_args of a VM function declared but not yet emitted (as in TVM).
static constexpr int64_t kUndefinedArgs = -2;

ExecBuilder::ExecBuilder() : exe_(std::make_unique<Executable>()) {}

void ExecBuilder::setError(const llvm::Twine &msg) {
  if (error_.empty())
    error_ = msg.str();
}

int64_t ExecBuilder::declareFunction(llvm::StringRef name, FuncKind kind) {
  int64_t idx = exe_->findFunction(name);
  if (idx >= 0) {
    if (exe_->functions[idx].kind != kind)
      setError("function '" + name + "' is declared with two different kinds");
    return idx;
  }
  FuncInfo fn;
  fn.kind = kind;
  fn.name = name.str();
  fn.numArgs = kind == FuncKind::VM ? kUndefinedArgs : -1;
  exe_->functions.push_back(std::move(fn));
  exe_->indexLastFunction();
  return static_cast<int64_t>(exe_->functions.size()) - 1;
}

void ExecBuilder::beginFunction(llvm::StringRef name, llvm::ArrayRef<std::string> paramNames,
                                std::vector<ParamInfo> params) {
  if (current_ >= 0) {
    setError("function '" + name + "' begins inside function '" + exe_->functions[current_].name +
             "'");
    return;
  }
  int64_t idx = declareFunction(name, FuncKind::VM);
  FuncInfo &fn = exe_->functions[idx];
  if (fn.numArgs != kUndefinedArgs) {
    setError("function '" + name + "' is defined twice");
    return;
  }
  fn.numArgs = static_cast<int64_t>(paramNames.size());
  fn.paramNames.assign(paramNames.begin(), paramNames.end());
  fn.params = std::move(params);
  fn.startInstr = fn.endInstr = exe_->numInstructions();
  current_ = idx;
}

void ExecBuilder::endFunction() {
  if (current_ < 0) {
    setError("endFunction without beginFunction");
    return;
  }
  exe_->functions[current_].endInstr = exe_->numInstructions();
  current_ = -1;
}

void ExecBuilder::emitCall(llvm::StringRef callee, llvm::ArrayRef<Arg> args, int64_t dst) {
  // A callee not declared yet is a packed function (TVM's EmitCall).
  int64_t idx = exe_->findFunction(callee);
  emitCall(idx >= 0 ? idx : declareFunction(callee, FuncKind::Packed), args, dst);
}

void ExecBuilder::emitCall(int64_t calleeIdx, llvm::ArrayRef<Arg> args, int64_t dst) {
  if (current_ < 0)
    return setError("call emitted outside a function");
  auto &w = exe_->instrData;
  exe_->instrOffset.push_back(static_cast<int64_t>(w.size()));
  w.push_back(static_cast<ExecWord>(Opcode::Call));
  w.push_back(dst);
  w.push_back(calleeIdx);
  w.push_back(static_cast<ExecWord>(args.size()));
  for (Arg a : args)
    w.push_back(a.word());
}

void ExecBuilder::emitRet(int64_t reg) {
  if (current_ < 0)
    return setError("ret emitted outside a function");
  exe_->instrOffset.push_back(static_cast<int64_t>(exe_->instrData.size()));
  exe_->instrData.push_back(static_cast<ExecWord>(Opcode::Ret));
  exe_->instrData.push_back(reg);
}

void ExecBuilder::emitGoto(int64_t pcOffset) {
  if (current_ < 0)
    return setError("goto emitted outside a function");
  exe_->instrOffset.push_back(static_cast<int64_t>(exe_->instrData.size()));
  exe_->instrData.push_back(static_cast<ExecWord>(Opcode::Goto));
  exe_->instrData.push_back(pcOffset);
}

void ExecBuilder::emitIf(int64_t condReg, int64_t falseOffset) {
  if (current_ < 0)
    return setError("if emitted outside a function");
  exe_->instrOffset.push_back(static_cast<int64_t>(exe_->instrData.size()));
  exe_->instrData.push_back(static_cast<ExecWord>(Opcode::If));
  exe_->instrData.push_back(condReg);
  exe_->instrData.push_back(falseOffset);
}

void ExecBuilder::setJumpOffset(int64_t instr, int64_t offset) {
  if (instr < 0 || instr >= nextInstr())
    return setError("setJumpOffset: instruction " + llvm::Twine(instr) + " does not exist");
  ExecWord *w = exe_->instrData.data() + exe_->instrOffset[instr];
  if (w[0] == static_cast<ExecWord>(Opcode::Goto))
    w[1] = offset;
  else if (w[0] == static_cast<ExecWord>(Opcode::If))
    w[2] = offset;
  else
    setError("setJumpOffset: instruction " + llvm::Twine(instr) + " is not a Goto or If");
}

Arg ExecBuilder::convertConstant(const Value &v) {
  if (v.isInt() && Arg::fitsImmediate(v.getInt()))
    return Arg::imm(v.getInt());
  return Arg::constIdx(addConstant(v));
}

int64_t ExecBuilder::addConstant(const Value &v) {
  auto &bucket = constIndex_[structuralHash(v)];
  for (int64_t idx : bucket)
    if (structurallyEqual(exe_->constants[idx], v))
      return idx;
  exe_->constants.push_back(v);
  int64_t idx = static_cast<int64_t>(exe_->constants.size()) - 1;
  bucket.push_back(idx);
  return idx;
}

Arg ExecBuilder::functionArg(llvm::StringRef name, FuncKind kind) {
  return Arg::funcIdx(declareFunction(name, kind));
}

void ExecBuilder::addKernelSource(std::string name, std::string text) {
  exe_->kernelSources.push_back({std::move(name), std::move(text)});
}

/// Renumbers non-input registers in order of first appearance as a dst and
/// rejects a register read before any write in linear order.
llvm::Error ExecBuilder::formalize(FuncInfo &fn) {
  llvm::DenseMap<int64_t, int64_t> map;
  int64_t next = fn.numArgs;
  auto read = [&](int64_t &reg, int64_t pc) -> llvm::Error {
    if (isSpecialRegister(reg) || (reg >= 0 && reg < fn.numArgs))
      return llvm::Error::success();
    auto it = map.find(reg);
    if (it == map.end())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("function '{0}' instruction {1}: register %{2} is "
                        "read before it is written",
                        fn.name, pc, reg)
              .str());
    reg = it->second;
    return llvm::Error::success();
  };
  for (int64_t pc = fn.startInstr; pc < fn.endInstr; ++pc) {
    ExecWord *w = exe_->instrData.data() + exe_->instrOffset[pc];
    switch (static_cast<Opcode>(w[0])) {
    case Opcode::Call:
      for (int64_t i = 0; i < w[3]; ++i) {
        Arg a = Arg::fromWord(w[4 + i]);
        if (a.kind() != ArgKind::Register)
          continue;
        int64_t r = a.value();
        if (auto err = read(r, pc))
          return err;
        w[4 + i] = Arg::reg(r).word();
      }
      if (!isSpecialRegister(w[1]) && (w[1] < 0 || w[1] >= fn.numArgs)) {
        auto ins = map.try_emplace(w[1], next);
        next += ins.second;
        w[1] = ins.first->second;
      }
      break;
    case Opcode::Ret:
    case Opcode::If:
      if (auto err = read(w[1], pc))
        return err;
      break;
    case Opcode::Goto:
      break;
    }
  }
  fn.registerFileSize = next;
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Executable>> ExecBuilder::finish() {
  if (current_ >= 0)
    setError("function '" + exe_->functions[current_].name + "' was not ended");
  for (const FuncInfo &fn : exe_->functions)
    if (fn.kind == FuncKind::VM && fn.numArgs == kUndefinedArgs)
      setError("VM function '" + fn.name + "' is declared but never defined");
  if (!error_.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error_);
  for (FuncInfo &fn : exe_->functions)
    if (fn.kind == FuncKind::VM)
      if (auto err = formalize(fn))
        return err;
  if (auto err = exe_->verify())
    return err;
  return std::move(exe_);
}
