//===- vm/FusedKernels.h - The fused kernels of an executable ---*- C++ -*-===//
//
// An executable carries each fused kernel (fuse-elementwise's Primitive
// functions) as a KernelSource {name: "graft.fused.<function>", text: its
// program, docs/fusion.md}. When a VM is created, every such source is
// parsed, so a damaged program is a load error; a call of the kernel's name
// then runs the CPU evaluator (kernels/FusedKernel.h). On a VM whose device
// is a GPU each program is also compiled for it (CUDA C++ from
// kernels/FusedCuda.h through NVRTC and the on-disk cache, vm/CudaCompile.h)
// when the VM is created, and a call launches it. Packed arguments: the
// program's inputs in order, then its output tensors; the call yields None.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_FUSEDKERNELS_H
#define GRAFT_VM_FUSEDKERNELS_H

#include "vm/CudaCompile.h"
#include "vm/Executable.h"
#include "vm/PackedFunc.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace graft::kernels {
class FusedProgram;
}

namespace graft::vm {

class Device;

/// The name prefix of fused kernels (ir/AttrKeys.h, fusedKernelSymbol).
inline constexpr llvm::StringLiteral kFusedSymbolPrefix = "graft.fused.";

/// Whether a kernel source holds a fused kernel program.
bool isFusedKernelSource(const KernelSource &source);

class FusedKernels {
public:
  /// Parses every fused kernel source of `exe`, and with a CUDA `device`
  /// compiles and loads each for it; the first failure is an error naming
  /// the kernel (with NVRTC's log when it did not compile).
  llvm::Error load(const Executable &exe, const Device *device = nullptr);
  /// The packed function of the fused kernel `name`; null when there is none.
  PackedFunc lookup(llvm::StringRef name) const;

  struct Kernel {
    std::string name;
    std::shared_ptr<const graft::kernels::FusedProgram> program;
    /// On a CUDA device: the kernels fusedKernelEntries names, loaded.
    std::unique_ptr<LoadedCudaImage> cuda;
    const GraftCudaApi *api = nullptr;
  };

private:
  llvm::StringMap<std::unique_ptr<Kernel>> kernels_;
};

} // namespace graft::vm

#endif // GRAFT_VM_FUSEDKERNELS_H
