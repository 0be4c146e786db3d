//===- kernels/Kernel.h - The kernel ABI shared by the VM and code generator ===//
//
// A kernel is a plain function over DLPack tensors. It never allocates its
// outputs (destination-passing style) and takes scratch memory from the
// caller, so the same kernel runs under the VM, in a unit test, or from
// another framework that hands in its own DLTensors.
//
// This header is the contract between three parts of graft:
//   - kernels/ implements and registers kernels (CPU reference kernels now,
//     CUDA kernels later) and includes neither vm/ nor the compiler;
//   - vm/ adapts a registered kernel to a packed function callable from
//     bytecode (see docs/runtime.md, "Calling a kernel");
//   - the compiler's legalize-ops lowers a high-level op to the kernel symbol.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_KERNEL_H
#define GRAFT_KERNELS_KERNEL_H

#include <dlpack/dlpack.h>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace graft::kernels {

/// DLPack 0.6 has no boolean code; DLPack 0.8 gives kDLBool the value 6.
/// graft stores bool as code 6 with 8 bits per element.
inline constexpr uint8_t kGraftDLBool = 6;

/// Scratch memory owned by the caller. A kernel that needs more than
/// `bytes` returns an error naming the size it needs (see
/// KernelInfo::workspaceBytes to ask up front).
struct Workspace {
  void *data = nullptr;
  size_t bytes = 0;
};

/// One attribute value, in the order of KernelInfo::attrNames.
/// Lists of integers carry axes, shapes and index lists.
using AttrValue =
    std::variant<std::monostate, int64_t, double, bool, std::string, std::vector<int64_t>>;

struct KernelArgs {
  llvm::ArrayRef<DLTensor *> inputs;
  llvm::ArrayRef<DLTensor *> outputs;
  llvm::ArrayRef<AttrValue> attrs; ///< Same order as KernelInfo::attrNames.
  Workspace workspace;
};

using KernelFn = llvm::Error (*)(const KernelArgs &args);

/// How much scratch memory a kernel needs for the given tensors and attrs.
using WorkspaceFn = size_t (*)(const KernelArgs &args);

/// A registered kernel. `symbol` is the name bytecode calls it by:
/// `graft.<op>` for an op `R.<op>` (e.g. `graft.add`, `graft.nn.softmax`),
/// `graft.host.<op>` for one that reads device data back to the host
/// (boolean-mask indexing, nonzero), which a CUDA-graph capture must not
/// contain.
struct KernelInfo {
  llvm::StringRef symbol;
  int numInputs;  ///< -1: variadic (concat); then attrs say how many.
  int numOutputs; ///< -1: variadic (split).
  llvm::ArrayRef<llvm::StringRef> attrNames;
  KernelFn fn;
  WorkspaceFn workspaceBytes = nullptr; ///< null: needs none.
  DLDeviceType device = kDLCPU;
};

/// Looks up a kernel by symbol for a device; null when none is registered.
const KernelInfo *lookupKernel(llvm::StringRef symbol, DLDeviceType device = kDLCPU);

/// Every registered kernel, for `graft` listings and tests.
llvm::ArrayRef<const KernelInfo *> allKernels();

/// Registers a kernel at static-initialization time or later. Not
/// thread-safe; registration happens before any VM runs.
void registerKernel(const KernelInfo *info);

} // namespace graft::kernels

#endif // GRAFT_KERNELS_KERNEL_H
