//===- vm/Executable.h - Function table, constants, bytecode --*- C++ -*-===//
//
// What the code generator produces and the VM runs: the function table (VM
// functions with bytecode ranges, packed functions by name), the constant
// pool, the bytecode, a parameter table per function that the VM checks
// inputs against, and the sources of generated kernels.
//
// An Executable is immutable once built (ExecBuilder) or loaded
// (Serialize.h); verify() holds for both.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_EXECUTABLE_H
#define GRAFT_VM_EXECUTABLE_H

#include "vm/Bytecode.h"
#include "vm/Value.h"

#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace graft::vm {

enum class FuncKind : uint8_t { Packed = 0, VM = 1 };

/// One dim of a parameter's shape: a number, a symbolic name that must take
/// one value across all parameters of the call, or anything.
struct DimInfo {
  enum Kind : uint8_t { Static = 0, Symbolic = 1, Any = 2 };
  Kind kind = Any;
  int64_t value = 0;  ///< Static only.
  std::string symbol; ///< Symbolic only.

  static DimInfo fixed(int64_t v) { return {Static, v, {}}; }
  static DimInfo sym(std::string name) { return {Symbolic, 0, std::move(name)}; }
  static DimInfo any() { return {}; }
};

/// What a parameter accepts. Kinds other than Tensor and Shape only check
/// the value kind.
enum class ParamKind : uint8_t {
  Any = 0,
  Tensor = 1,
  Shape = 2,
  Int = 3,
  Float = 4,
  Bool = 5,
  String = 6,
  Tuple = 7,
  Closure = 8,
};
inline constexpr unsigned kNumParamKinds = 9;
llvm::StringRef paramKindName(ParamKind kind);

/// A tensor constant or parameter has at most this many dims (the loader and
/// the verifier refuse more).
inline constexpr int32_t kMaxTensorNDim = 64;

struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::Any;
  std::optional<DLDataType> dtype; ///< Tensor: required element type.
  std::optional<DLDevice> device;  ///< Tensor: required device.
  int32_t ndim = -1;               ///< Tensor/Shape: -1 for any rank.
  std::vector<DimInfo> dims;       ///< Empty, or ndim entries.

  static ParamInfo tensor(std::string name, DLDataType dtype, std::vector<DimInfo> dims,
                          DLDevice device = DLDevice{kDLCPU, 0});
};

struct FuncInfo {
  FuncKind kind = FuncKind::Packed;
  std::string name;
  int64_t startInstr = 0; ///< VM: first instruction.
  int64_t endInstr = 0;   ///< VM: one past the last instruction.
  int64_t numArgs = -1;   ///< VM: parameter count; packed: -1.
  int64_t registerFileSize = 0;
  std::vector<std::string> paramNames;
  /// Empty (inputs unchecked) or one entry per parameter.
  std::vector<ParamInfo> params;
};

struct KernelSource {
  std::string name;
  std::string text;
};

/// A decoded view of one instruction (valid while the executable lives).
/// Every reader of bytecode (verifier, dump, interpreter) goes through these
/// accessors, so the word layout of Bytecode.h is spelled out only here.
struct InstrView {
  Opcode op;
  const ExecWord *words;

  /// The instruction whose first (opcode) word is `*w`.
  static InstrView at(const ExecWord *w) { return {static_cast<Opcode>(w[0]), w}; }

  // Call
  int64_t dst() const { return words[1]; }
  int64_t funcIdx() const { return words[2]; }
  int64_t numArgs() const { return words[3]; }
  Arg arg(int64_t i) const { return Arg::fromWord(words[4 + i]); }
  // Ret
  int64_t result() const { return words[1]; }
  // Goto
  int64_t pcOffset() const { return words[1]; }
  // If
  int64_t cond() const { return words[1]; }
  int64_t falseOffset() const { return words[2]; }
};

/// What an executable was built for (`graft build --target`); `graft run`
/// refuses a device of another target. Stored as bit 0 of the header flags.
enum class Target : uint8_t { CPU, CUDA };

/// "cpu" or "cuda".
llvm::StringRef targetName(Target t);

class Executable {
public:
  Target target = Target::CPU;
  std::vector<FuncInfo> functions;
  std::vector<Value> constants;
  std::vector<ExecWord> instrData;
  std::vector<int64_t> instrOffset; ///< Instruction index -> first word.
  std::vector<KernelSource> kernelSources;

  /// Index of the function named `name`, or -1.
  int64_t findFunction(llvm::StringRef name) const;
  /// Rebuilds the name index after `functions` changed.
  void reindex();
  /// Adds the last function to the name index (a builder appending one
  /// function at a time stays linear).
  void indexLastFunction();

  int64_t numInstructions() const { return static_cast<int64_t>(instrOffset.size()); }
  InstrView instr(int64_t i) const { return InstrView::at(instrData.data() + instrOffset[i]); }

  /// Recomputes instrOffset from instrData, checking that every instruction
  /// is complete and has a known opcode.
  llvm::Error decodeOffsets();

  /// Everything the interpreter relies on so that it never checks a range
  /// itself (see the invariants at the top of vm/VM.cpp): function ranges,
  /// register, constant and function indices, jump targets inside the
  /// function, no path falling off the end, every register read after it is
  /// written (in linear order), and well-formed parameter tables.
  llvm::Error verify() const;

  /// Human-readable listing (`graft run --dump`).
  void dump(llvm::raw_ostream &os) const;
  std::string asText() const;

private:
  llvm::StringMap<int64_t> funcMap_;
};

} // namespace graft::vm

#endif // GRAFT_VM_EXECUTABLE_H
