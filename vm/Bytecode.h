//===- vm/Bytecode.h - Instruction encoding --------------------*- C++ -*-===//
//
// TVM Relax VM bytecode (TVM `src/runtime/relax_vm/`): a flat array of int64 words.
//
//   Call  [1, dst_reg, func_idx, num_args, arg_0 ... arg_{n-1}]
//   Ret   [2, result_reg]
//   Goto  [3, pc_offset]          pc += pc_offset (non-zero)
//   If    [4, cond_reg, false_off] pc += (cond != 0) ? 1 : false_off (> 1)
//
// A Call argument packs its kind in the top 8 bits and a sign-extended
// 56-bit value below. `pc` counts instructions; Executable::instrOffset maps
// an instruction index to its first word.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_BYTECODE_H
#define GRAFT_VM_BYTECODE_H

#include <cstdint>

namespace graft::vm {

using ExecWord = int64_t;

enum class Opcode : ExecWord { Call = 1, Ret = 2, Goto = 3, If = 4 };

/// Raw register numbers at or above this are special registers.
inline constexpr int64_t kBeginSpecialReg = int64_t(1) << 54;
/// Reads give None, writes are dropped.
inline constexpr int64_t kVoidRegister = kBeginSpecialReg;
/// Reads give the VM as an opaque handle (the ctx of ctx builtins).
inline constexpr int64_t kVMRegister = kBeginSpecialReg + 1;

inline bool isSpecialRegister(int64_t reg) { return reg == kVoidRegister || reg == kVMRegister; }

enum class ArgKind : uint8_t {
  Register = 0,
  Immediate = 1,
  ConstIdx = 2,
  FuncIdx = 3,
};
inline constexpr unsigned kNumArgKinds = 4;

class Arg {
public:
  static constexpr int kValueBits = 56;
  static constexpr int64_t kValueMax = (int64_t(1) << 55) - 1;

  /// The void register, as TVM's default Arg.
  Arg() : Arg(ArgKind::Register, kVoidRegister) {}
  Arg(ArgKind kind, int64_t value)
      : word_(static_cast<ExecWord>((static_cast<uint64_t>(kind) << kValueBits) |
                                    (static_cast<uint64_t>(value) & kValueMask))) {}

  static Arg reg(int64_t r) { return Arg(ArgKind::Register, r); }
  static Arg imm(int64_t v) { return Arg(ArgKind::Immediate, v); }
  static Arg constIdx(int64_t i) { return Arg(ArgKind::ConstIdx, i); }
  static Arg funcIdx(int64_t i) { return Arg(ArgKind::FuncIdx, i); }
  static Arg fromWord(ExecWord w) {
    Arg a;
    a.word_ = w;
    return a;
  }
  static bool fitsImmediate(int64_t v) { return v >= -kValueMax && v <= kValueMax; }

  /// The raw kind, which may be out of range in a hostile file.
  unsigned rawKind() const { return static_cast<uint64_t>(word_) >> kValueBits; }
  ArgKind kind() const { return static_cast<ArgKind>(rawKind()); }
  int64_t value() const {
    // Sign-extend the low 56 bits.
    return static_cast<int64_t>(static_cast<uint64_t>(word_) << 8) >> 8;
  }
  ExecWord word() const { return word_; }

private:
  static constexpr uint64_t kValueMask = (uint64_t(1) << kValueBits) - 1;
  ExecWord word_;
};

/// Words an instruction occupies given its opcode word and (for Call) its
/// argument count; 0 for an unknown opcode.
inline int64_t instrHeaderWords(ExecWord op) {
  switch (static_cast<Opcode>(op)) {
  case Opcode::Call:
    return 4;
  case Opcode::Ret:
    return 2;
  case Opcode::Goto:
    return 2;
  case Opcode::If:
    return 3;
  }
  return 0;
}

} // namespace graft::vm

#endif // GRAFT_VM_BYTECODE_H
