//===- vm/CudaGraph.h - The CUDA-graph builtins ----------------*- C++ -*-===//
//
// `vm.builtin.cuda_graph.run_or_capture` and `get_cached_alloc`, the calls
// rewrite-cuda-graph puts around capture regions and lifted storages (TVM
// `src/runtime/relax_vm/cuda/cuda_graph_builtin.cc`), with graft's rules
// (docs/cuda.md, "CUDA graphs"):
//
// - a miss runs the region eagerly (the call's results), then captures and
//   instantiates it; the graph first launches on the next hit;
// - a capture or instantiation that fails (a refused host read or
//   allocation, a CUDA error) is discarded: the eager results stand, the
//   region runs eagerly from then on in this VM, logged once at info level;
//   a failed launch is an error;
// - a hit checks each capture input's shape, dtype and address against the
//   capture and refuses a mismatch;
// - the memory a graph owns (its kernels' workspace) becomes the graph's
//   only once its first launch succeeded, and is freed with the graph;
// - the caching allocator serves nothing while a capture is open.
//
// A device that cannot capture (the CPU) runs every region eagerly.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_CUDAGRAPH_H
#define GRAFT_VM_CUDAGRAPH_H

#include "vm/Device.h"
#include "vm/PackedFunc.h"

#include <string>
#include <vector>

namespace graft::vm {

class VirtualMachine;

/// What one region (one `run_or_capture` entry index) did in a VM so far.
struct CudaGraphRegionReport {
  enum class State {
    Eager,     ///< Not captured yet, or the device cannot capture.
    Captured,  ///< At least one graph instantiated.
    EagerOnly, ///< A capture failed; the region runs eagerly in this VM.
  };
  int64_t index = 0;
  std::string function; ///< The capture function.
  State state = State::Eager;
  std::string reason; ///< Why EagerOnly (or Eager on a device without graphs).
  uint64_t eagerRuns = 0;
  uint64_t captures = 0;
  uint64_t replays = 0;
  size_t graphs = 0;     ///< Live graphs (one per symbolic shape).
  GraphNodeCounts nodes; ///< The nodes of the last graph captured.
  size_t ownedBytes = 0; ///< Memory recorded as the graphs' own.
};

/// The regions `vm` has met, by entry index.
std::vector<CudaGraphRegionReport> cudaGraphReport(VirtualMachine &vm);
/// How often `get_cached_alloc` ran an allocation function in `vm` (once
/// per entry index and VM).
uint64_t cudaGraphAllocCalls(VirtualMachine &vm);
/// "captured", "eager", "eager-only".
const char *cudaGraphStateName(CudaGraphRegionReport::State state);

/// Scratch memory of one kernel call on VM device `device`. Inside a
/// region's eager run the request is measured; while a capture is open it
/// is served from the graph's own block (the caching allocator serves
/// nothing then), else from the device's caching allocator.
struct KernelWorkspace {
  void *ptr = nullptr;
  size_t bytes = 0;
  bool graphOwned = false;
};
llvm::Expected<KernelWorkspace> acquireKernelWorkspace(VirtualMachine &vm, size_t device,
                                                       size_t bytes);
/// Gives a block of acquireKernelWorkspace back (at once: later work on the
/// device's one stream cannot overtake the kernel that used it).
void releaseKernelWorkspace(VirtualMachine &vm, size_t device, const KernelWorkspace &ws);

void registerCudaGraphBuiltins(PackedRegistry &registry);

} // namespace graft::vm

#endif // GRAFT_VM_CUDAGRAPH_H
