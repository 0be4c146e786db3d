//===- bench/cuda/GraphForms.cu - Chains of tiny kernels in each graph form -===//

#include "GraphForms.h"

#include <vector>

namespace graft::bench {
namespace {

/// Three pointers, the element count and `Pad` unused bytes: the parameter
/// block's size is what a launch copies into the kernel's constant bank.
template <int Pad> struct Params {
  float *a;
  float *b;
  const float *w;
  long long n;
  char pad[Pad > 0 ? Pad : 1];
};

__device__ inline void waitForUpstream() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ inline void releaseDependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

/// The add as graft's flat elementwise kernel runs it: a 64-bit
/// grid-stride loop over 16-byte vectors, then one over the tail.
__device__ inline void loopAdd(const float *__restrict__ a, const float *__restrict__ w,
                               float *__restrict__ b, long long n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long nv = n / 4;
  for (long long i = first; i < nv; i += stride) {
    float4 x = reinterpret_cast<const float4 *>(a)[i], y = reinterpret_cast<const float4 *>(w)[i];
    reinterpret_cast<float4 *>(b)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (long long i = nv * 4 + first; i < n; i += stride)
    b[i] = a[i] + w[i];
}

/// Body: 0 empty, 1 the add in thread 0, 2 one element per thread behind a
/// 32-bit bound with read-only loads through __restrict__, 3 the add as
/// graft's flat kernel.
template <int Pad, int Body, bool Wait, bool Trigger> __global__ void tiny(Params<Pad> p) {
  if constexpr (Trigger)
    releaseDependents();
  if constexpr (Wait)
    waitForUpstream();
  if constexpr (Body == 1) {
    if (threadIdx.x == 0)
      p.b[0] = p.a[0] + p.w[0];
  } else if constexpr (Body == 2) {
    const float *__restrict__ a = p.a, *__restrict__ w = p.w;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < unsigned(p.n))
      p.b[i] = a[i] + w[i];
  } else if constexpr (Body == 3) {
    loopAdd(p.a, p.w, p.b, p.n);
  }
}

template <int Pad, int Body, bool Wait> const void *pickTrigger(bool trigger) {
  return trigger ? reinterpret_cast<const void *>(tiny<Pad, Body, Wait, true>)
                 : reinterpret_cast<const void *>(tiny<Pad, Body, Wait, false>);
}

template <int Pad, int Body> const void *pickWait(const ChainForm &f) {
  return f.wait ? pickTrigger<Pad, Body, true>(f.trigger)
                : pickTrigger<Pad, Body, false>(f.trigger);
}

template <int Pad> const void *pickAdd(const ChainForm &f) {
  if (!f.add)
    return pickWait<Pad, 0>(f);
  switch (f.body) {
  case AddBody::Restrict:
    return pickWait<Pad, 2>(f);
  case AddBody::Loop:
    return pickWait<Pad, 3>(f);
  default:
    return pickWait<Pad, 1>(f);
  }
}

/// One link of the chain: the kernel and its parameter block.
struct Link {
  const void *fn = nullptr;
  std::vector<char> params; // Params<Pad>, aligned by the vector's allocation.
  void *args[1] = {};
};

template <int Pad> Link makeLink(const ChainForm &f, float *from, float *to, const float *w) {
  Link l;
  l.fn = pickAdd<Pad>(f);
  Params<Pad> p{};
  p.a = from;
  p.b = to;
  p.w = w;
  p.n = 1;
  l.params.resize(sizeof p);
  __builtin_memcpy(l.params.data(), &p, sizeof p);
  return l;
}

Link link(const ChainForm &f, int i, float *a, float *b, const float *w) {
  float *from = i % 2 ? b : a, *to = i % 2 ? a : b;
  Link l = f.padBytes >= 4000   ? makeLink<4000>(f, from, to, w)
           : f.padBytes >= 1000 ? makeLink<1000>(f, from, to, w)
                                : makeLink<0>(f, from, to, w);
  l.args[0] = l.params.data();
  return l;
}

} // namespace

cudaError_t launchChain(cudaStream_t s, const ChainForm &form, int n, float *a, float *b,
                        const float *w) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  for (int i = 0; i < n; ++i) {
    Link l = link(form, i, a, b, w);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1);
    config.blockDim = dim3(unsigned(form.threads));
    config.stream = s;
    config.attrs = form.pdlLaunch ? &attr : nullptr;
    config.numAttrs = form.pdlLaunch ? 1 : 0;
    if (cudaError_t e = cudaLaunchKernelExC(&config, l.fn, l.args))
      return e;
  }
  return cudaSuccess;
}

cudaError_t buildChainGraph(const ChainForm &form, int n, float *a, float *b, const float *w,
                            cudaGraph_t *graph) {
  if (cudaError_t e = cudaGraphCreate(graph, 0))
    return e;
  cudaGraphNode_t prev = nullptr;
  for (int i = 0; i < n; ++i) {
    Link l = link(form, i, a, b, w);
    cudaKernelNodeParams p{};
    p.func = const_cast<void *>(l.fn);
    p.gridDim = dim3(1);
    p.blockDim = dim3(unsigned(form.threads));
    p.kernelParams = l.args;
    cudaGraphNode_t node;
    if (cudaError_t e =
            cudaGraphAddKernelNode(&node, *graph, prev ? &prev : nullptr, prev ? 1 : 0, &p))
      return e;
    prev = node;
  }
  return cudaSuccess;
}

cudaError_t makeEdgesProgrammatic(cudaGraph_t g) {
  size_t n = 0;
  if (cudaError_t e = cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n))
    return e;
  std::vector<cudaGraphNode_t> from(n), to(n);
  std::vector<cudaGraphEdgeData> data(n);
  if (cudaError_t e = cudaGraphGetEdges(g, from.data(), to.data(), data.data(), &n))
    return e;
  for (size_t i = 0; i < n; ++i) {
    cudaGraphNodeType ft, tt;
    if (cudaError_t e = cudaGraphNodeGetType(from[i], &ft))
      return e;
    if (cudaError_t e = cudaGraphNodeGetType(to[i], &tt))
      return e;
    if (ft != cudaGraphNodeTypeKernel || tt != cudaGraphNodeTypeKernel ||
        data[i].type != cudaGraphDependencyTypeDefault)
      continue;
    if (cudaError_t e = cudaGraphRemoveDependencies(g, &from[i], &to[i], &data[i], 1))
      return e;
    cudaGraphEdgeData edge{};
    edge.from_port = cudaGraphKernelNodePortProgrammatic;
    edge.type = cudaGraphDependencyTypeProgrammatic;
    if (cudaError_t e = cudaGraphAddDependencies(g, &from[i], &to[i], &edge, 1))
      return e;
  }
  return cudaSuccess;
}

} // namespace graft::bench
