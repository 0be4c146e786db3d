//===- kernels/FusedKernel.h - Fused elementwise kernels from programs -*- C++ -*-===//
//
// A fused kernel is a chain of elementwise ops given as a small textual
// program (docs/fusion.md, "Program format"): typed inputs, scalar
// immediates, one line per op naming it as the op table does, one output.
// The CPU evaluator runs it tile by tile over the output, every input
// broadcast to the output's shape numpy-style and read through its strides,
// so no intermediate tensor exists; each value is computed in its own dtype
// by the same scalar functions as the op's own kernel, so the bits match
// the unfused ops (the op table, kernels/cpu/ElementwiseOps.def).
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
/// dtypes and ranks as declared, shapes broadcasting to the output's) into
/// args.outputs[0] (the program's output dtype). `symbol` names the kernel
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

/// Elements per tile: every register of a tile fits in the L1 cache.
inline constexpr int64_t kFusedTileElems = 1024;

} // namespace graft::kernels

#endif // GRAFT_KERNELS_FUSEDKERNEL_H
