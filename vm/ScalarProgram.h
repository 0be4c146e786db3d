//===- vm/ScalarProgram.h - Generated host PrimFuncs as stack programs -*- C++ -*-===//
//
// graft generates two kinds of host PrimFunc (vm-shape-lower's shape_func and
// compute-prim-value's compute_symbolic_expr). Neither needs a TIR compiler:
// each computes PrimExprs over int64/float64/bool scalars. The code generator
// writes the PrimExprs as a postfix program into the executable's kernel
// sources, under the function's name, and the VM turns such a source into a
// packed function when it is created. The text (one instruction a line):
//
//   graft-scalar-program 1
//   params heap            (shape_func: one int64 1-d host tensor, the shape heap)
//   params 2               (or: this many scalar arguments)
//   load 0                 push heap[0]
//   arg 1                  push argument 1
//   int -3 | float 0.5     push a constant
//   add sub mul floordiv floormod min max eq ne lt le gt ge and or   pop b, a; push a op b
//   not                    pop a; push !a
//   select                 pop f, t, c; push c ? t : f
//   cast int32             convert the top to a dtype (intN, uintN, floatN, bool)
//   store 3                pop into heap[3]
//   ret int64              pop and return it as a value of that dtype (scalar params only)
//
// Integers wrap (two's complement), floordiv/floormod round toward negative
// infinity as TIR's do, and a zero divisor is an error. The parser checks the
// stack discipline, so running never underflows.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_SCALARPROGRAM_H
#define GRAFT_VM_SCALARPROGRAM_H

#include "vm/PackedFunc.h"

#include <memory>

namespace graft::vm {

inline constexpr llvm::StringLiteral kScalarProgramHeader = "graft-scalar-program 1";

/// Whether a kernel source holds a scalar program.
bool isScalarProgram(llvm::StringRef text);

class ScalarProgram {
public:
  enum class Op : uint8_t {
    Load,
    Arg,
    Int,
    Float,
    Add,
    Sub,
    Mul,
    FloorDiv,
    FloorMod,
    Min,
    Max,
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    And,
    Or,
    Not,
    Select,
    Cast,
    Store,
    Ret,
  };
  struct Instr {
    Op op;
    DLDataType dtype{}; ///< Cast, Ret.
    int64_t i = 0;      ///< Load/Store slot, Arg index, Int value.
    double f = 0;       ///< Float value.
  };

  /// Parses and checks `text`; errors name the function and the line.
  static llvm::Expected<std::unique_ptr<ScalarProgram>> parse(llvm::StringRef name,
                                                              llvm::StringRef text);

  /// Runs the program on packed arguments.
  llvm::Expected<Value> run(llvm::ArrayRef<Value> args) const;

  /// A packed function running `program` (which must outlive it).
  static PackedFunc packed(const ScalarProgram *program);

  const std::string &name() const { return name_; }
  bool takesHeap() const { return numArgs_ < 0; }

private:
  llvm::Error check();

  std::string name_;
  int64_t numArgs_ = 0; ///< -1: the heap.
  int64_t maxSlot_ = -1;
  size_t maxStack_ = 0;
  std::vector<Instr> code_;
};

} // namespace graft::vm

#endif // GRAFT_VM_SCALARPROGRAM_H
