//===- tests/vm/VMTestUtil.h - Helpers for the VM tests --------*- C++ -*-===//
#ifndef GRAFT_TESTS_VM_VMTESTUTIL_H
#define GRAFT_TESTS_VM_VMTESTUTIL_H

#include "vm/ExecBuilder.h"
#include "vm/Serialize.h"
#include "vm/VM.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

namespace graft::vm::test {

inline constexpr DLDataType kF32{kDLFloat, 32, 1};
inline constexpr DLDataType kI64{kDLInt, 64, 1};
inline constexpr DLDataType kI32{kDLInt, 32, 1};
inline constexpr DLDataType kBool{graft::kernels::kGraftDLBool, 8, 1};

/// Unwraps an Expected, failing the test with the error message.
template <typename T> T take(llvm::Expected<T> e) {
  if (!e) {
    ADD_FAILURE() << llvm::toString(e.takeError());
    return T();
  }
  return std::move(*e);
}

/// The message of a failed Expected (or "<success>").
template <typename T> std::string errorOf(llvm::Expected<T> e) {
  if (e)
    return "<success>";
  return llvm::toString(e.takeError());
}
inline std::string errorOf(llvm::Error e) {
  if (!e)
    return "<success>";
  return llvm::toString(std::move(e));
}

/// A host tensor holding `data`.
template <typename T>
Value hostTensor(llvm::ArrayRef<int64_t> shape, DLDataType dtype, const std::vector<T> &data) {
  auto t = take(TensorObj::emptyHost(shape, dtype));
  EXPECT_EQ(t->byteSize(), data.size() * sizeof(T));
  if (!data.empty())
    std::memcpy(t->bytes(), data.data(), data.size() * sizeof(T));
  return Value::object(t);
}

inline Value f32Tensor(llvm::ArrayRef<int64_t> shape, const std::vector<float> &data) {
  return hostTensor(shape, kF32, data);
}

template <typename T> std::vector<T> tensorData(const Value &v) {
  auto *t = v.as<TensorObj>();
  if (!t) {
    ADD_FAILURE() << "not a tensor: " << v.str();
    return {};
  }
  std::vector<T> out(t->numElements());
  std::memcpy(out.data(), t->bytes(), out.size() * sizeof(T));
  return out;
}

inline std::shared_ptr<const Executable> finish(ExecBuilder &b) {
  return std::shared_ptr<const Executable>(take(b.finish()));
}

inline std::unique_ptr<VirtualMachine> makeVM(std::shared_ptr<const Executable> exe) {
  return take(VirtualMachine::create(std::move(exe)));
}

/// Assembles `f(p0 .. p{n-1}) { %n = call name [(%vm,) %0 ..]; ret %n }`
/// and runs it on `args`, so each builtin goes through real bytecode.
inline llvm::Expected<Value> callThroughProgram(llvm::StringRef name, llvm::ArrayRef<Value> args,
                                                bool withCtx = false) {
  ExecBuilder b;
  std::vector<std::string> params;
  std::vector<Arg> callArgs;
  if (withCtx)
    callArgs.push_back(Arg::reg(kVMRegister));
  for (size_t i = 0; i < args.size(); ++i) {
    params.push_back("p" + std::to_string(i));
    callArgs.push_back(Arg::reg(static_cast<int64_t>(i)));
  }
  int64_t dst = static_cast<int64_t>(args.size());
  b.beginFunction("f", params);
  b.emitCall(name, callArgs, dst);
  b.emitRet(dst);
  b.endFunction();
  auto exe = b.finish();
  if (!exe)
    return exe.takeError();
  auto vm = VirtualMachine::create(std::move(*exe));
  if (!vm)
    return vm.takeError();
  return (*vm)->invoke("f", args);
}

} // namespace graft::vm::test

#endif // GRAFT_TESTS_VM_VMTESTUTIL_H
