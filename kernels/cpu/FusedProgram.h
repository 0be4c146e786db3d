//===- kernels/cpu/FusedProgram.h - A parsed fused program as data -*- C++ -*-===//
//
// What a code generator needs of a parsed fused kernel program
// (kernels/FusedKernel.h): one entry per register with its kind, dtype,
// operands (and the dtype the op reads each as), immediates by their value
// and clip's bounds. The CUDA source generator (FusedCuda.cpp) is written
// against this view, so the CPU evaluator's internals stay its own.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CPU_FUSEDPROGRAM_H
#define GRAFT_KERNELS_CPU_FUSEDPROGRAM_H

#include "kernels/FusedKernel.h"
#include "kernels/cpu/TensorIter.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace graft::kernels {

struct FusedRegView {
  enum Kind : uint8_t {
    Input,
    Const,
    Row,    ///< A row of ElementwiseOps.def.
    Astype, ///< operand 0 converted to the register's dtype.
    Where,
    Clip,
    Injective, ///< permute_dims, reshape, take, concat, ...: an index map.
  } kind;
  cpu::ScalarType type;
  int64_t rank;
  /// The op's script name ("add", "permute_dims"); null for inputs and
  /// immediates.
  const char *op = nullptr;
  /// Row: the row's Name in ElementwiseOps.def ("Add").
  const char *rowName = nullptr;
  struct Operand {
    unsigned reg;
    /// The dtype the op reads it as (the register's, or a conversion's).
    cpu::ScalarType type;
  };
  llvm::SmallVector<Operand, 3> operands;
  /// Const: a double for float dtypes, else an integer.
  bool isFloat = false;
  double f = 0;
  int64_t i = 0;
  /// Clip: the bounds as written.
  double min = 0, max = 0;
};

struct FusedProgramView {
  std::vector<FusedRegView> regs;
  /// Inputs are registers 0..numInputs-1.
  unsigned numInputs = 0;
  std::vector<unsigned> outputs;
};

FusedProgramView viewFusedProgram(const FusedProgram &program);

} // namespace graft::kernels

#endif // GRAFT_KERNELS_CPU_FUSEDPROGRAM_H
