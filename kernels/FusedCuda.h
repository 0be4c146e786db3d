//===- kernels/FusedCuda.h - Fused kernel programs as CUDA C++ --*- C++ -*-===//
//
// On a CUDA device a fused kernel program (kernels/FusedKernel.h) runs as
// CUDA C++ generated from it here and compiled by NVRTC when the
// executable is loaded (vm/FusedKernels.h; docs/cuda.md, "Fused kernels").
// The source is self-contained: the device headers it calls
// (kernels/cuda/FusedOps.cuh, ElementwiseOps.cuh with the op table,
// Scalar.cuh, RtcPrelude.cuh) are embedded as text at build time, so every
// op computes with the same scalar functions as its unfused CUDA kernel.
//
// A program of elementwise ops only defines two kernels over
// FusedParams<K> (K = outputs + inputs, the outputs first; all outputs have
// one shape):
//   graft_fused_flat     every operand compact with the output's shape and
//                        aligned: V elements per thread, 16-byte accesses;
//   graft_fused_strided  anything else: one element per thread, operands
//                        read through their broadcast byte strides.
// A program with injective ops (index maps) defines two kernels over
// IndexParams<K, M>, one output element per thread: each index space's
// coordinates are computed from the output's as the CPU evaluator maps
// them (permute, reshape, slice, take, concat, ...), dims the program fixes
// folded as constants, the others read from the M words:
//   graft_fused_index32  coordinates in int32 (every register's element
//                        count below 2^31; byte offsets are int64 anyway);
//   graft_fused_index64  coordinates in int64.
// planFusedLaunch checks a call's tensors and picks one.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_FUSEDCUDA_H
#define GRAFT_KERNELS_FUSEDCUDA_H

#include "kernels/FusedKernel.h"

#include <string>
#include <vector>

namespace graft::kernels {

inline constexpr const char *kFusedFlatKernel = "graft_fused_flat";
inline constexpr const char *kFusedStridedKernel = "graft_fused_strided";
inline constexpr const char *kFusedIndex32Kernel = "graft_fused_index32";
inline constexpr const char *kFusedIndex64Kernel = "graft_fused_index64";
/// Threads per block of both kernels (FusedOps.cuh's kThreads).
inline constexpr unsigned kFusedThreads = 256;
/// Dims a fused kernel indexes after coalescing (FusedOps.cuh's kMaxDims).
inline constexpr size_t kFusedMaxDims = 8;
/// Operands (inputs + the output) whose parameters fit in the 4 KiB a
/// kernel's parameters may take on every CUDA version.
inline constexpr size_t kFusedMaxOperands = 48;

/// Index-map kernels: parameters past this size are an error (CUDA 12.1
/// and later take 32 KiB of kernel parameters on sm_70 and later).
inline constexpr size_t kFusedMaxParamBytes = 32764;

/// The CUDA C++ source of `program`; an error when its index-map kernel
/// would need more parameter space than kFusedMaxParamBytes.
llvm::Expected<std::string> fusedProgramCudaSource(const FusedProgram &program);

/// The __global__ functions the source defines, in the order
/// FusedLaunch::entry counts them.
std::vector<const char *> fusedKernelEntries(const FusedProgram &program);

/// Elements per thread of graft_fused_flat: 16 bytes of the widest input
/// or output.
int fusedVectorWidth(const FusedProgram &program);

/// One launch of a fused kernel.
struct FusedLaunch {
  const char *kernel = kFusedStridedKernel;
  /// Its position in fusedKernelEntries.
  unsigned entry = 1;
  /// FusedParams<K> or IndexParams<K, M> as 8-byte words.
  std::vector<int64_t> params;
  unsigned grid = 0; ///< 0: no element, nothing to launch.
  unsigned block = kFusedThreads;
  /// A take may meet an index out of range: the caller puts the address of
  /// 16 bytes of device memory holding {~0, 0} into params[kFusedSlotWord]
  /// and reads them back after the launch; a key below ~0 is an error, whose
  /// value a second launch with params[kFusedReportWord] = 1 writes
  /// (fusedIndexError). Left 0 (while a CUDA graph is captured), the kernel
  /// checks nothing and reads an out-of-range index as 0.
  bool checksIndices = false;
};

inline constexpr size_t kFusedSlotWord = 1;
inline constexpr size_t kFusedReportWord = 2;

/// Checks a call's tensors against the program (as runFusedProgram does;
/// every tensor on one CUDA device) and plans the launch.
llvm::Expected<FusedLaunch> planFusedLaunch(const FusedProgram &program, const KernelArgs &args,
                                            llvm::StringRef symbol);

/// The CPU evaluator's error for the index check's slot {key, value}:
/// `<symbol>: %R (take): index V is out of range for a dim of L`.
std::string fusedIndexError(const FusedProgram &program, const KernelArgs &args,
                            llvm::StringRef symbol, uint64_t key, int64_t value);

} // namespace graft::kernels

#endif // GRAFT_KERNELS_FUSEDCUDA_H
