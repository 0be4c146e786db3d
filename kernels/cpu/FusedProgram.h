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

  /// Injective: the index map's attributes as parsed.
  enum class Map : uint8_t {
    None,
    Permute,
    Reshape,
    ExpandDims,
    Squeeze,
    BroadcastTo,
    StridedSlice,
    Take,
    Concat
  } map = Map::None;
  /// permute_dims, expand_dims, squeeze, strided_slice: the axes; take and
  /// concat: {axis}.
  llvm::SmallVector<int64_t, 4> axes;
  llvm::SmallVector<int64_t, 4> begin, end, strides; ///< strided_slice.
  /// reshape and broadcast_to: the target, a dim each: a number, the one
  /// dim a reshape infers, or dim `dim` of register `reg`.
  struct Dim {
    enum Kind : uint8_t { Fixed, Infer, Ref } kind;
    int64_t value;
    unsigned reg, dim;
  };
  llvm::SmallVector<Dim, 4> dims;
  enum class TakeMode : uint8_t { Fast, Wrap, Clip } mode = TakeMode::Fast;
};

struct FusedProgramView {
  std::vector<FusedRegView> regs;
  /// Inputs are registers 0..numInputs-1.
  unsigned numInputs = 0;
  std::vector<unsigned> outputs;
};

FusedProgramView viewFusedProgram(const FusedProgram &program);

/// Every register's shape in a call of `program` (register r's at
/// result[r]), with the CPU evaluator's checks and errors: broadcasting,
/// reshape sizes, squeezed dims, concat operands, shapes too large for
/// int64 indices, and each output's shape. The caller has checked the
/// tensors' dtypes and ranks. For a code generator's host side: the
/// shapes its index maps read.
llvm::Expected<std::vector<cpu::Dims>>
fusedProgramShapes(const FusedProgram &program, const KernelArgs &args, llvm::StringRef symbol);

} // namespace graft::kernels

#endif // GRAFT_KERNELS_CPU_FUSEDPROGRAM_H
