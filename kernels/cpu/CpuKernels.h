//===- kernels/cpu/CpuKernels.h - Registration of the CPU reference kernels ===//
//
// Each kernel family registers itself through one function, called from
// the registry the first time anyone asks for a kernel. An explicit call
// (instead of static initializers) keeps a static link from dropping a
// family whose object file nothing else references.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CPU_CPUKERNELS_H
#define GRAFT_KERNELS_CPU_CPUKERNELS_H

#include "kernels/Kernel.h"

namespace graft::kernels::cpu {

/// Adds one kernel without triggering the lazy CPU registration (the
/// families call this while that registration runs).
void addKernel(const KernelInfo *info);

void registerUnaryKernels();
void registerBinaryKernels();
void registerElementwiseKernels();
void registerCreationKernels();
void registerReduceKernels();
void registerMatmulKernels();
void registerLayoutKernels();
void registerIndexKernels();
void registerScatterKernels();
void registerSortKernels();
void registerNNKernels();
void registerAttentionKernels();
void registerMovementKernels();
void registerQuantizeKernels();
void registerTopKKernels();
void registerEinsumKernels();
void registerBatchBKernels();
void registerConvKernels();
void registerSamplingVisionKernels();
void registerTrainingKernels();
void registerUniqueKernels();

} // namespace graft::kernels::cpu

#endif // GRAFT_KERNELS_CPU_CPUKERNELS_H
