//===- kernels/FusedKernel.h - Fused elementwise kernels from programs -*- C++ -*-===//
//
// A fused kernel is a group of elementwise, broadcast and injective ops
// given as a small textual program (docs/fusion.md, "Program format"):
// typed inputs, scalar immediates, one line per op naming it as the op
// registry does (injective ops and clip with their attributes), one or more
// outputs of one shape. The CPU evaluator runs it tile by tile over the
// output: every value is evaluated in an index space mapped from the
// output's index (an injective op maps its reader's index to its operand's),
// inputs are read there through their strides, so no intermediate tensor
// exists; each value is computed in its own dtype by the same scalar
// functions as the op's own kernel, so the bits match the unfused ops (the
// op table, kernels/cpu/ElementwiseOps.def).
//
// Parsing checks everything the evaluator relies on (register numbering,
// op names, arities and the dtype rule of each op), so a damaged program is
// an error at load time, never a crash at run time.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_FUSEDKERNEL_H
#define GRAFT_KERNELS_FUSEDKERNEL_H

#include "kernels/Kernel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace graft::kernels {

/// A parsed, validated program; immutable, shared by every call.
class FusedProgram;

/// Parses `text`; errors say `fused kernel program, line N: ...`.
llvm::Expected<std::shared_ptr<const FusedProgram>> parseFusedProgram(llvm::StringRef text);

/// Runs `program` with args.inputs in the program's input order (their
/// dtypes and ranks as declared) into args.outputs, one per output line
/// (each of its register's dtype and shape; all outputs share one shape). `symbol` names the kernel
/// in errors. Like every kernel it allocates nothing: its tiles come from
/// args.workspace, which must hold fusedProgramWorkspaceBytes (else
/// `<symbol>: needs a workspace of N bytes, got M`).
llvm::Error runFusedProgram(const FusedProgram &program, const KernelArgs &args,
                            llvm::StringRef symbol);

/// The workspace runFusedProgram needs for `args` (any alignment): one
/// 8 KiB tile per register and per operand conversion, plus a few words
/// per dim of the output and per input.
size_t fusedProgramWorkspaceBytes(const FusedProgram &program, const KernelArgs &args);

/// Whether the program format has the op `name` (the op registry's script
/// name: "add", "nn.relu").
bool isFusedProgramOp(llvm::StringRef name);

/// The number of inputs the program declares.
size_t fusedProgramInputs(const FusedProgram &program);

/// The number of outputs the program declares (its `output` lines).
size_t fusedProgramOutputs(const FusedProgram &program);

/// Elements per tile: every register of a tile fits in the L1 cache.
inline constexpr int64_t kFusedTileElems = 1024;

} // namespace graft::kernels

#endif // GRAFT_KERNELS_FUSEDKERNEL_H
