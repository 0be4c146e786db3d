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
// Each source defines two kernels over FusedParams<K> (K = outputs + inputs,
// the outputs first; all outputs have one shape):
//   graft_fused_flat     every operand compact with the output's shape and
//                        aligned: V elements per thread, 16-byte accesses;
//   graft_fused_strided  anything else: one element per thread, operands
//                        read through their broadcast byte strides.
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
/// Threads per block of both kernels (FusedOps.cuh's kThreads).
inline constexpr unsigned kFusedThreads = 256;
/// Dims a fused kernel indexes after coalescing (FusedOps.cuh's kMaxDims).
inline constexpr size_t kFusedMaxDims = 8;
/// Operands (inputs + the output) whose parameters fit in the 4 KiB a
/// kernel's parameters may take on every CUDA version.
inline constexpr size_t kFusedMaxOperands = 48;

/// The CUDA C++ source of `program`; an error for an op the generator does
/// not take yet (the injective ops).
llvm::Expected<std::string> fusedProgramCudaSource(const FusedProgram &program);

/// Elements per thread of graft_fused_flat: 16 bytes of the widest input
/// or output.
int fusedVectorWidth(const FusedProgram &program);

/// One launch of a fused kernel.
struct FusedLaunch {
  const char *kernel = kFusedStridedKernel;
  /// FusedParams<K> as 8-byte words.
  std::vector<int64_t> params;
  unsigned grid = 0; ///< 0: no element, nothing to launch.
  unsigned block = kFusedThreads;
};

/// Checks a call's tensors against the program (as runFusedProgram does;
/// every tensor on one CUDA device) and plans the launch.
llvm::Expected<FusedLaunch> planFusedLaunch(const FusedProgram &program, const KernelArgs &args,
                                            llvm::StringRef symbol);

} // namespace graft::kernels

#endif // GRAFT_KERNELS_FUSEDCUDA_H
