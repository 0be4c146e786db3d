//===- bench/cuda/GraphForms.h - Chains of tiny kernels in each graph form -===//
//
// The benchmark's own kernels (GraphForms.cu) for BM_graphForm: a chain of
// tiny launches recorded in one of the forms a captured region could take,
// so that one GPU run separates the causes of the per-node replay cost
// (kernel body, parameter bytes, block size, capture against the explicit
// node API, programmatic dependent launch).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_BENCH_CUDA_GRAPHFORMS_H
#define GRAFT_BENCH_CUDA_GRAPHFORMS_H

#include <cuda_runtime.h>

namespace graft::bench {

/// How an add link is written: thread 0 alone with plain loads; one
/// element per thread behind a 32-bit bound, loading through __restrict__
/// pointers (the read-only path graft's flat kernels take); or as graft's
/// flat kernel, 64-bit grid-stride loops over 16-byte vectors and the tail.
enum class AddBody { Thread0, Restrict, Loop };

struct ChainForm {
  bool add = false; ///< b[0] = a[0] + w[0] (else an empty body).
  AddBody body = AddBody::Thread0;
  int threads = 1;        ///< Threads of the one block.
  int padBytes = 0;       ///< Unused parameter bytes after the three pointers.
  bool wait = false;      ///< The kernel waits for its programmatic upstream first.
  bool trigger = false;   ///< The kernel lets its dependents launch first.
  bool pdlLaunch = false; ///< Launched with programmatic stream serialization.
};

/// Launches `n` kernels of `form` on `s` (capturing or not), alternating
/// a -> b and b -> a.
cudaError_t launchChain(cudaStream_t s, const ChainForm &form, int n, float *a, float *b,
                        const float *w);

/// Builds the same chain with cudaGraphAddKernelNode, each node depending on
/// the one before (plain edges).
cudaError_t buildChainGraph(const ChainForm &form, int n, float *a, float *b, const float *w,
                            cudaGraph_t *graph);

/// Turns every kernel-to-kernel edge of `g` into a programmatic one (the
/// downstream kernel may launch before the upstream one ends, and waits for
/// it with cudaGridDependencySynchronize). Correct only for kernels that
/// wait before touching memory.
cudaError_t makeEdgesProgrammatic(cudaGraph_t g);

} // namespace graft::bench

#endif // GRAFT_BENCH_CUDA_GRAPHFORMS_H
