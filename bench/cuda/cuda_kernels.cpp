//===- bench/cuda/cuda_kernels.cpp - CUDA kernel bandwidth and GEMM speed --===//
//
// Every figure is device time from CUDA events around the launches on one
// stream (Google Benchmark's manual time), so host overhead between calls
// does not count; bytes/s counts every byte read and written once.
//
//   copy_f32/67108864      cudaMemcpyAsync device to device, 256 MiB
//   add_f32, add_bf16      graft.add, 256 MiB per operand
//   exp_f32, relu_bf16     unary ops, 256 MiB in
//   softmax, layer_norm, rms_norm on 8192x8192 float32, 16384x4096 bfloat16 (a block
//                          per row; _warp: GRAFT_CUDA_ROWS=warp, a warp per row;
//                          _warp_cs: GRAFT_CUDA_ROWS=warp-cs, streaming loads/stores;
//                          layer_norm and rms_norm _persist: GRAFT_CUDA_ROWS=persist,
//                          resident blocks taking rows in turn, the next row's loads in
//                          flight; _persist_cs: persist-cs, the same with st.global.cs)
//   sum_rows_f32           graft.sum over the last axis of 8192x8192
//   cumsum_f32/64M         graft.cumsum of the flattened 64M elements
//   sort, argsort          16M float32 in one row, and 4096 rows of 4096
//   topk_*                 graft.topk (k = 50, values and int64 indices) of one
//                          row of 100000 and of 16M, and 4096 rows of 4096
//   layout_transform_*     graft.layout_transform NCHW -> NCHW4c with padding (also
//                          forced through the interpreter: _scatter), NCHW -> NHWC,
//                          NCHW4c -> NCHW
//   matmul_*               graft.matmul against the same cublasGemmEx call
//   BM_attention/*         graft.nn.attention, bf16 (4, 2048, 16, 128), causal and not;
//                          (the default); v1_ flashKernel, v5_ flashSmemQKernel, wgmma_
//                          wgmmaKernel (sm_90a): the forms GRAFT_CUDA_ATTENTION selects
//   scatter_{sum,amax,mean}_f32_4096x1024_into_{512,4}_{default,owner,global}, _512_tile
//   scatter_{sum,amax,mean}_f32_4096x1024_into_{512,4}_match
//   scatter_sum_f32_8x1024_into_4_{default,match}_call_floor (a call's fixed cost)
//   scatter_{sum,amax,mean}_f32_4096x1024_into_512_match_{atomic,rounds}, {sum,mean}
//                          into 4 _match_rounds (GRAFT_CUDA_SCATTER_WALK: groups by shared-
//                          memory atomics; the ranked walk of round 11)
//   scatter_{sum,amax,mean}_f32_4096x1024_into_512_match_stage16, {sum,mean} into 4
//                          (GRAFT_CUDA_SCATTER_STAGE=16: twice the rows staged at once)
//   scatter_{sum,amax,mean}_f32_4096x1024_into_4_match_{packed,warp}
//                          (GRAFT_CUDA_SCATTER_LANES: the lane walk 32 / P lines a
//                          warp, or a warp a line)
//   scatter_{sum,amax,mean}_f32_4096x1024_into_512_match_split{2,1}
//                          (GRAFT_CUDA_SCATTER_SPLIT: two warps a line, 4 lines a
//                          block, the default here; or a warp a line, 8 lines a
//                          block; an axis of at most 32, into 4, takes no split)
//   scatter_{sum,amax,mean}_f32_4096x1024_into_512_column_smem, {sum,mean} into 4
//   scatter_{sum,amax,mean}_f32_4096x1024_into_4_column
//   scatter_{sum,mean}_f32_4096x1024_into_{512,4}_owner_reorder
//                          graft.scatter_elements along axis 0 with int64
//                          indices through each plan (deterministic;
//                          PyTorch's atomic kernel is the bar,
//                          docs/performance.md)
//   masked_copy/where_f32_16M, _16K
//                          graft.where(mask, src, out), the masked copy after
//                          fuse-masked-copy (PyTorch's index + index_put is
//                          the bar, docs/performance.md)
//   graph_replay/{add,add_flat,permute,alternate,add1,add1_flat,add1_plain,
//                 add1_forced}/{1,99}
//                          one replay of a captured chain of 1 or 99 kernels
//                          (the per-kernel replay cost, docs/cuda-graphs.md;
//                          _flat: the adds without the tiny kernel)
//   BM_graphReplayForm/<form>/{1,99}
//                          the same replay with the benchmark's own tiny
//                          kernels in each form a graph can take (body,
//                          parameter bytes, block size, capture or nodes,
//                          programmatic dependent launch), and
//                          BM_graphReplayFirstLaunch/{upload,noupload}
//   fused_chain_f32, _bf16 a fused kernel compiled by NVRTC (multiply, add,
//                          sigmoid, multiply: two inputs, one output of
//                          256 MiB each), next to copy_f32 (the bar: 85%)
//   fused_permute_add_f32, fused_concat_exp_{f32,bf16}
//                          index-map fused kernels: a transpose added to a
//                          matrix, a concat of two halves through exp
//
// Run: graft-bench-cuda --benchmark_repetitions=5 --benchmark_report_aggregates_only
// (docs/performance.md, "CUDA", quotes medians).
//
//===----------------------------------------------------------------------===//

#include "vm/CudaCompile.h"
#include "vm/CudaDevice.h"

#include "kernels/FusedCuda.h"
#include "kernels/FusedKernel.h"
#include "kernels/Kernel.h"

#include "GraphForms.h"

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using graft::kernels::AttrValue;
using graft::kernels::KernelArgs;

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                             \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

cudaStream_t stream() {
  static cudaStream_t s = [] {
    cudaStream_t r;
    CHECK_CUDA(cudaStreamCreateWithFlags(&r, cudaStreamNonBlocking));
    return r;
  }();
  return s;
}

/// Writes small finite values in every dtype: a byte pattern whose period
/// (256 bytes) divides the 1 MiB block built on the host, so the rest of the
/// buffer is copies of that block on the device. Filling 256 MiB on the host
/// took most of each benchmark's wall time, and Google Benchmark builds the
/// inputs once per repetition.
void fillPattern(uint8_t *device, size_t bytes, size_t width) {
  std::vector<uint8_t> host(std::min(bytes, size_t(1) << 20));
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = (i % width == width - 1) ? uint8_t(0x3c ^ (i & 0x81)) : uint8_t(i * 7);
  CHECK_CUDA(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice));
  for (size_t done = host.size(); done < bytes; done *= 2)
    CHECK_CUDA(
        cudaMemcpy(device + done, device, std::min(done, bytes - done), cudaMemcpyDeviceToDevice));
}

/// A device tensor filled with a repeating ramp of values in [-1, 1).
struct Buf {
  std::vector<int64_t> shape;
  DLTensor dl{};
  Buf(DLDataType t, std::vector<int64_t> s) : shape(std::move(s)) {
    size_t n = 1;
    for (int64_t d : shape)
      n *= size_t(d);
    size_t bytes = n * t.bits / 8;
    CHECK_CUDA(cudaMalloc(&dl.data, bytes));
    fillPattern(static_cast<uint8_t *>(dl.data), bytes, t.bits / 8);
    dl.device = {kDLCUDA, 0};
    dl.ndim = int32_t(shape.size());
    dl.dtype = t;
    dl.shape = shape.data();
  }
  ~Buf() { cudaFree(dl.data); }
  Buf(const Buf &) = delete;
  size_t bytes() const {
    size_t n = dl.dtype.bits / 8;
    for (int64_t d : shape)
      n *= size_t(d);
    return n;
  }
};

const DLDataType F32{kDLFloat, 32, 1}, BF16{kDLBfloat, 16, 1}, F16{kDLFloat, 16, 1},
    F64{kDLFloat, 64, 1};

const GraftCudaKernel &kernel(const char *symbol) {
  auto module = graft::vm::CudaModule::get();
  if (!module) {
    std::fprintf(stderr, "%s\n", llvm::toString(module.takeError()).c_str());
    std::exit(1);
  }
  const GraftCudaKernel *k = module->findKernel(symbol);
  if (!k) {
    std::fprintf(stderr, "no CUDA kernel %s\n", symbol);
    std::exit(1);
  }
  return *k;
}

/// Times `launch` with events: one warm-up, then one timed launch per
/// iteration.
/// The first failure of a graft kernel since the last benchmark: the
/// benchmark that met it is reported as skipped with the message, and the
/// rest of the suite still runs.
std::string &kernelFailure() {
  static std::string message;
  return message;
}

template <class Fn> void timeLaunches(benchmark::State &state, size_t bytes, Fn &&launch) {
  launch();
  if (!kernelFailure().empty()) {
    state.SkipWithError(kernelFailure().c_str());
    kernelFailure().clear();
    // A failed launch may leave a sticky error behind; the next benchmark
    // starts from a clean state either way.
    cudaGetLastError();
    return;
  }
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (auto _ : state) {
    CHECK_CUDA(cudaEventRecord(start, stream()));
    launch();
    CHECK_CUDA(cudaEventRecord(stop, stream()));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(double(ms) / 1e3);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

/// Scratch memory for kernels that ask for it, grown on demand (in the
/// warm-up call, outside the timed ones).
graft::kernels::Workspace workspace(size_t bytes) {
  static void *data = nullptr;
  static size_t have = 0;
  if (bytes > have) {
    cudaFree(data);
    CHECK_CUDA(cudaMalloc(&data, bytes));
    have = bytes;
  }
  return {data, bytes};
}

void runGraft(const char *symbol, std::vector<DLTensor *> in, std::vector<DLTensor *> out,
              std::vector<AttrValue> attrs = {}) {
  KernelArgs args{in, out, attrs, {}};
  if (size_t bytes = graft::vm::cudaKernelWorkspaceBytes(kernel(symbol), args, stream()))
    args.workspace = workspace(bytes);
  if (llvm::Error e = graft::vm::runCudaKernel(kernel(symbol), args, stream())) {
    std::string message = llvm::toString(std::move(e));
    if (kernelFailure().empty())
      kernelFailure() = message;
  }
}

constexpr int64_t k256MiBf32 = int64_t(64) << 20;

void BM_copy(benchmark::State &state) {
  Buf a(F32, {k256MiBf32}), b(F32, {k256MiBf32});
  timeLaunches(state, 2 * a.bytes(), [&] {
    CHECK_CUDA(
        cudaMemcpyAsync(b.dl.data, a.dl.data, a.bytes(), cudaMemcpyDeviceToDevice, stream()));
  });
}
BENCHMARK(BM_copy)->Name("copy_f32/256MiB")->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_binary(benchmark::State &state, DLDataType t, const char *symbol) {
  int64_t n = (int64_t(256) << 20) / (t.bits / 8);
  Buf a(t, {n}), b(t, {n}), c(t, {n});
  timeLaunches(state, 3 * a.bytes(), [&] { runGraft(symbol, {&a.dl, &b.dl}, {&c.dl}); });
}
BENCHMARK_CAPTURE(BM_binary, add_f32, F32, "graft.add")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_binary, add_bf16, BF16, "graft.add")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_unary(benchmark::State &state, DLDataType t, const char *symbol) {
  int64_t n = (int64_t(256) << 20) / (t.bits / 8);
  Buf a(t, {n}), c(t, {n});
  timeLaunches(state, 2 * a.bytes(), [&] { runGraft(symbol, {&a.dl}, {&c.dl}); });
}
BENCHMARK_CAPTURE(BM_unary, exp_f32, F32, "graft.exp")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_unary, relu_bf16, BF16, "graft.nn.relu")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// GRAFT_CUDA_ROWS for one benchmark: "warp" forces a warp per row (slower
/// than the default block per row on the H200), "warp-cs" the warp per row with
/// streaming loads and stores (docs/performance.md compares them); "persist"
/// and "persist-cs" the norms' persistent blocks, plain and streamed stores.
struct RowsForm {
  explicit RowsForm(const char *form) {
    if (form)
      setenv("GRAFT_CUDA_ROWS", form, 1);
  }
  ~RowsForm() { unsetenv("GRAFT_CUDA_ROWS"); }
};

void BM_softmax(benchmark::State &state, DLDataType t, int64_t rows, int64_t cols,
                const char *form = nullptr) {
  RowsForm scoped(form);
  Buf x(t, {rows, cols}), y(t, {rows, cols});
  timeLaunches(state, 2 * x.bytes(),
               [&] { runGraft("graft.nn.softmax", {&x.dl}, {&y.dl}, {int64_t(-1)}); });
}
BENCHMARK_CAPTURE(BM_softmax, f32_8192x8192, F32, 8192, 8192)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_softmax, bf16_16384x4096, BF16, 16384, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_softmax, bf16_16384x4096_warp, BF16, 16384, 4096, "warp")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_softmax, bf16_16384x4096_warp_cs, BF16, 16384, 4096, "warp-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_layerNorm(benchmark::State &state, DLDataType t, int64_t rows, int64_t cols,
                  const char *form = nullptr) {
  RowsForm scoped(form);
  Buf x(t, {rows, cols}), y(t, {rows, cols}), g(t, {cols}), b(t, {cols});
  std::vector<AttrValue> attrs = {std::vector<int64_t>{-1}, 1e-5, true, true};
  timeLaunches(state, 2 * x.bytes(), [&] {
    runGraft("graft.nn.layer_norm", {&x.dl, &g.dl, &b.dl}, {&y.dl}, attrs);
  });
}
BENCHMARK_CAPTURE(BM_layerNorm, f32_8192x8192, F32, 8192, 8192)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, bf16_16384x4096, BF16, 16384, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, bf16_16384x4096_warp, BF16, 16384, 4096, "warp")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, bf16_16384x4096_warp_cs, BF16, 16384, 4096, "warp-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, f32_8192x8192_persist, F32, 8192, 8192, "persist")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, bf16_16384x4096_persist, BF16, 16384, 4096, "persist")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layerNorm, bf16_16384x4096_persist_cs, BF16, 16384, 4096, "persist-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_rmsNorm(benchmark::State &state, DLDataType t, int64_t rows, int64_t cols,
                const char *form = nullptr) {
  RowsForm scoped(form);
  Buf x(t, {rows, cols}), y(t, {rows, cols}), g(t, {cols});
  std::vector<AttrValue> attrs = {std::vector<int64_t>{-1}, 1e-6};
  timeLaunches(state, 2 * x.bytes(), [&] {
    runGraft("graft.nn.rms_norm", {&x.dl, &g.dl}, {&y.dl}, attrs);
  });
}
BENCHMARK_CAPTURE(BM_rmsNorm, f32_8192x8192, F32, 8192, 8192)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, bf16_16384x4096, BF16, 16384, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, bf16_16384x4096_warp, BF16, 16384, 4096, "warp")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, bf16_16384x4096_warp_cs, BF16, 16384, 4096, "warp-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, f32_8192x8192_persist, F32, 8192, 8192, "persist")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, f32_8192x8192_persist_cs, F32, 8192, 8192, "persist-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, bf16_16384x4096_persist, BF16, 16384, 4096, "persist")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_rmsNorm, bf16_16384x4096_persist_cs, BF16, 16384, 4096, "persist-cs")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_sumRows(benchmark::State &state) {
  Buf x(F32, {8192, 8192}), y(F32, {8192});
  std::vector<AttrValue> attrs = {std::vector<int64_t>{-1}, false};
  timeLaunches(state, x.bytes() + y.bytes(),
               [&] { runGraft("graft.sum", {&x.dl}, {&y.dl}, attrs); });
}
BENCHMARK(BM_sumRows)
    ->Name("sum_rows_f32/8192x8192")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_cumsum(benchmark::State &state) {
  Buf x(F32, {int64_t(64) << 20}), y(F32, {int64_t(64) << 20});
  std::vector<AttrValue> attrs = {std::monostate(), false};
  timeLaunches(state, x.bytes() + y.bytes(),
               [&] { runGraft("graft.cumsum", {&x.dl}, {&y.dl}, attrs); });
}
BENCHMARK(BM_cumsum)->Name("cumsum_f32/64M")->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_sort(benchmark::State &state, const char *symbol, int64_t rows, int64_t cols) {
  Buf x(F32, {rows, cols});
  Buf y(llvm::StringRef(symbol) == "graft.sort" ? F32 : DLDataType{kDLInt, 64, 1}, {rows, cols});
  std::vector<AttrValue> attrs = {int64_t(-1), false};
  timeLaunches(state, x.bytes() + y.bytes(), [&] { runGraft(symbol, {&x.dl}, {&y.dl}, attrs); });
}
BENCHMARK_CAPTURE(BM_sort, sort_f32_16M, "graft.sort", 1, int64_t(16) << 20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_sort, argsort_f32_16M, "graft.argsort", 1, int64_t(16) << 20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_sort, sort_rows_f32_4096x4096, "graft.sort", 4096, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_sort, argsort_rows_f32_4096x4096, "graft.argsort", 4096, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// graft.topk of the k largest with int64 indices: one long row (cub's
/// radix sort) and many rows of a block each.
void BM_topk(benchmark::State &state, int64_t rows, int64_t cols, int64_t k) {
  Buf x(F32, {rows, cols}), v(F32, {rows, k}), i(DLDataType{kDLInt, 64, 1}, {rows, k});
  std::vector<AttrValue> attrs = {k, int64_t(-1), std::string("both"), true};
  timeLaunches(state, x.bytes() + v.bytes() + i.bytes(), [&] {
    runGraft("graft.topk", {&x.dl}, {&v.dl, &i.dl}, attrs);
  });
}
BENCHMARK_CAPTURE(BM_topk, topk_f32_1x100000_k50, 1, 100000, 50)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_topk, topk_f32_1x16M_k50, 1, int64_t(16) << 20, 50)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_topk, topk_rows_f32_4096x4096_k50, 4096, 4096, 50)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// graft.layout_transform of float32 activations, next to copy_f32: NCHW ->
/// NCHW4c of (64, 130, 56, 56) (130 channels: the last block of 4 half
/// padding), through the gather form (the default) and the interpreter
/// (GRAFT_CUDA_LAYOUT_TRANSFORM=scatter); NCHW -> NHWC of (64, 128, 56, 56);
/// NCHW4c -> NCHW of (64, 32, 56, 56, 4) (a fused channel index: a table).
void BM_layoutTransform(benchmark::State &state, std::vector<int64_t> in, std::vector<int64_t> out,
                        std::vector<int64_t> program, const char *form) {
  Buf x(F32, in), y(F32, out);
  std::vector<AttrValue> attrs = {std::move(program), 0.0};
  if (std::string(form) == "scatter")
    setenv("GRAFT_CUDA_LAYOUT_TRANSFORM", "scatter", 1);
  timeLaunches(state, x.bytes() + y.bytes(),
               [&] { runGraft("graft.layout_transform", {&x.dl}, {&y.dl}, attrs); });
  unsetenv("GRAFT_CUDA_LAYOUT_TRANSFORM");
}
const std::vector<int64_t> kToNCHW4c = {4, 5, 1, 0, 0, 1, 1, 2, 4, 6, 0, 1,
                                        2, 0, 1, 3, 0, 1, 1, 2, 4, 7, 0};
BENCHMARK_CAPTURE(BM_layoutTransform, nchw4c, std::vector<int64_t>{64, 130, 56, 56},
                  std::vector<int64_t>{64, 33, 56, 56, 4}, kToNCHW4c, "gather")
    ->Name("layout_transform_f32_nchw4c/64x130x56x56")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layoutTransform, nchw4c_scatter, std::vector<int64_t>{64, 130, 56, 56},
                  std::vector<int64_t>{64, 33, 56, 56, 4}, kToNCHW4c, "scatter")
    ->Name("layout_transform_f32_nchw4c_scatter/64x130x56x56")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layoutTransform, nhwc, std::vector<int64_t>{64, 128, 56, 56},
                  std::vector<int64_t>{64, 56, 56, 128},
                  std::vector<int64_t>{4, 4, 1, 0, 0, 1, 2, 0, 1, 3, 0, 1, 1, 0}, "gather")
    ->Name("layout_transform_f32_nhwc/64x128x56x56")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_layoutTransform, from_nchw4c, std::vector<int64_t>{64, 32, 56, 56, 4},
                  std::vector<int64_t>{64, 128, 56, 56},
                  std::vector<int64_t>{5, 4, 1, 0, 0, 1, 1, 2, 4, 5, 1, 4, 3, 0, 1, 2, 0, 1, 3, 0},
                  "gather")
    ->Name("layout_transform_f32_from_nchw4c/64x32x56x56x4")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// graft.matmul, or (bare) the cublasGemmEx call it makes, on n x n x n.
void BM_matmul(benchmark::State &state, DLDataType t, int64_t n, bool bare) {
  Buf a(t, {n, n}), b(t, {n, n}), c(t, {n, n});
  static cublasHandle_t handle = [] {
    cublasHandle_t h;
    cublasCreate(&h);
    return h;
  }();
  cublasSetStream(handle, stream());
  cudaDataType_t dt = t.bits == 64 ? CUDA_R_64F : t.code == kDLBfloat ? CUDA_R_16BF : CUDA_R_16F;
  cublasComputeType_t ct = t.bits == 64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  float one = 1, zero = 0;
  double oneD = 1, zeroD = 0;
  const void *alpha = t.bits == 64 ? static_cast<const void *>(&oneD) : &one;
  const void *beta = t.bits == 64 ? static_cast<const void *>(&zeroD) : &zero;
  timeLaunches(state, 3 * a.bytes(), [&] {
    if (!bare) {
      runGraft("graft.matmul", {&a.dl, &b.dl}, {&c.dl});
      return;
    }
    if (cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), alpha, b.dl.data, dt,
                     int(n), a.dl.data, dt, int(n), beta, c.dl.data, dt, int(n), ct,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
      std::exit(1);
  });
  state.counters["TFLOP/s"] = benchmark::Counter(2.0 * double(n) * double(n) * double(n) *
                                                     double(state.iterations()) / 1e12,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_matmul, graft_bf16_8192, BF16, 8192, false)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_matmul, cublas_bf16_8192, BF16, 8192, true)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_matmul, graft_f16_4096, F16, 4096, false)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_matmul, cublas_f16_4096, F16, 4096, true)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_matmul, graft_f64_4096, F64, 4096, false)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_matmul, cublas_f64_4096, F64, 4096, true)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// scatter_elements of a float32 4096x1024 into `rows` rows along axis 0,
/// int64 indices spread evenly (a fixed pseudo-random pattern), through
/// one plan (GRAFT_CUDA_SCATTER: "global" sorts all updates by element,
/// "lines" each column by row, "tile" pairs of columns in a block, "owner"
/// folds tiles of 32 columns without a sort, "owner-reorder" also in
/// chunks for float sums, "column" a thread per column and target row)
/// or the one the kernel picks ("default": the figure the bar is for).
void BM_scatter(benchmark::State &state, const char *reduction, int64_t rows, const char *plan,
                int64_t sourceRows = 4096, const char *knob = nullptr) {
  const DLDataType I64{kDLInt, 64, 1};
  Buf data(F32, {rows, 1024}), out(F32, {rows, 1024}), upd(F32, {sourceRows, 1024}),
      idx(I64, {sourceRows, 1024});
  std::vector<int64_t> host(size_t(sourceRows) * 1024);
  uint64_t x = 88172645463325252ull;
  for (int64_t &v : host) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = int64_t(x % uint64_t(rows));
  }
  CHECK_CUDA(cudaMemcpy(idx.dl.data, host.data(), idx.bytes(), cudaMemcpyHostToDevice));
  if (llvm::StringRef(plan) == "default")
    unsetenv("GRAFT_CUDA_SCATTER");
  else
    setenv("GRAFT_CUDA_SCATTER", plan, 1);
  // A knob of the ranked walk, "NAME=VALUE", set for this benchmark only.
  std::string knobName = knob ? std::string(knob).substr(0, std::string(knob).find('=')) : "";
  if (knob)
    setenv(knobName.c_str(), knob + knobName.size() + 1, 1);
  std::vector<AttrValue> attrs = {int64_t(0), std::string(reduction), true};
  timeLaunches(state, upd.bytes() + idx.bytes() + data.bytes() + out.bytes(), [&] {
    runGraft("graft.scatter_elements", {&data.dl, &idx.dl, &upd.dl}, {&out.dl}, attrs);
  });
  unsetenv("GRAFT_CUDA_SCATTER");
  if (knob)
    unsetenv(knobName.c_str());
}
#define GRAFT_SCATTER_BENCH(red, rows, plan)                                                       \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_##plan, #red, rows, #plan)       \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
// The figures the bars are for, then the exact forms that do not sort
// (measured first: a cut-off run keeps them), then the other plans.
GRAFT_SCATTER_BENCH(sum, 512, default);
GRAFT_SCATTER_BENCH(amax, 512, default);
GRAFT_SCATTER_BENCH(mean, 512, default);
GRAFT_SCATTER_BENCH(sum, 4, default);
GRAFT_SCATTER_BENCH(amax, 4, default);
GRAFT_SCATTER_BENCH(mean, 4, default);
// The ranked walk (a warp per column, lanes ranked by __match_any_sync,
// accumulators in shared memory; exact for every reduction): the candidate
// default for float sums and means, to compare with the lines above.
GRAFT_SCATTER_BENCH(sum, 512, match);
GRAFT_SCATTER_BENCH(amax, 512, match);
GRAFT_SCATTER_BENCH(mean, 512, match);
GRAFT_SCATTER_BENCH(sum, 4, match);
GRAFT_SCATTER_BENCH(amax, 4, match);
GRAFT_SCATTER_BENCH(mean, 4, match);
// The fixed cost of a call (host planning, the launches; the index check is
// read back at the next synchronization, not in the call): 8 source rows.
BENCHMARK_CAPTURE(BM_scatter, sum_f32_8x1024_into_4_default_call_floor, "sum", 4, "default", 8)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_scatter, sum_f32_8x1024_into_4_match_call_floor, "sum", 4, "match", 8)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
// The ranked walk as round 11 measured it (GRAFT_CUDA_SCATTER_WALK=rounds:
// lanes folding in rounds, the lane walk selecting twice a row), against
// the default's leader fold and identity lane walk above.
// GRAFT_CUDA_SCATTER_WALK=atomic finds the groups with shared-memory atomics
// instead of __match_any_sync (an axis of more than 32 positions).
#define GRAFT_SCATTER_WALK_BENCH(red, rows, walk)                                                  \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_match_##walk, #red, rows,        \
                    "match", 4096, "GRAFT_CUDA_SCATTER_WALK=" #walk)                               \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAFT_SCATTER_WALK_BENCH(sum, 512, atomic);
GRAFT_SCATTER_WALK_BENCH(amax, 512, atomic);
GRAFT_SCATTER_WALK_BENCH(mean, 512, atomic);
GRAFT_SCATTER_WALK_BENCH(sum, 512, rounds);
GRAFT_SCATTER_WALK_BENCH(amax, 512, rounds);
GRAFT_SCATTER_WALK_BENCH(mean, 512, rounds);
GRAFT_SCATTER_WALK_BENCH(sum, 4, rounds);
GRAFT_SCATTER_WALK_BENCH(mean, 4, rounds);
// GRAFT_CUDA_SCATTER_STAGE=16: stretches of 512 rows (16 elements a thread
// in flight) instead of 256.
#define GRAFT_SCATTER_STAGE_BENCH(red, rows)                                                       \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_match_stage16, #red, rows,       \
                    "match", 4096, "GRAFT_CUDA_SCATTER_STAGE=16")                                  \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAFT_SCATTER_STAGE_BENCH(sum, 512);
GRAFT_SCATTER_STAGE_BENCH(amax, 512);
GRAFT_SCATTER_STAGE_BENCH(mean, 512);
GRAFT_SCATTER_STAGE_BENCH(sum, 4);
GRAFT_SCATTER_STAGE_BENCH(mean, 4);
// GRAFT_CUDA_SCATTER_LANES: the lane walk (into 4 rows) with 32 / P lines a
// warp (packed: one warp of the block walks its 8 lines) or a warp a line
// (each of the 8 warps walks one), and GRAFT_CUDA_SCATTER_SPLIT: 2, two warps
// a line, each folding the positions of one parity, 4 lines a block (256
// blocks: two an SM), or 1, a warp a line, 8 lines a block (128 blocks).
#define GRAFT_SCATTER_KNOB_BENCH(red, rows, name, knob)                                            \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_match_##name, #red, rows,        \
                    "match", 4096, knob)                                                           \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAFT_SCATTER_KNOB_BENCH(sum, 4, packed, "GRAFT_CUDA_SCATTER_LANES=packed");
GRAFT_SCATTER_KNOB_BENCH(amax, 4, packed, "GRAFT_CUDA_SCATTER_LANES=packed");
GRAFT_SCATTER_KNOB_BENCH(mean, 4, packed, "GRAFT_CUDA_SCATTER_LANES=packed");
GRAFT_SCATTER_KNOB_BENCH(sum, 4, warp, "GRAFT_CUDA_SCATTER_LANES=warp");
GRAFT_SCATTER_KNOB_BENCH(amax, 4, warp, "GRAFT_CUDA_SCATTER_LANES=warp");
GRAFT_SCATTER_KNOB_BENCH(mean, 4, warp, "GRAFT_CUDA_SCATTER_LANES=warp");
GRAFT_SCATTER_KNOB_BENCH(sum, 512, split2, "GRAFT_CUDA_SCATTER_SPLIT=2");
GRAFT_SCATTER_KNOB_BENCH(amax, 512, split2, "GRAFT_CUDA_SCATTER_SPLIT=2");
GRAFT_SCATTER_KNOB_BENCH(mean, 512, split2, "GRAFT_CUDA_SCATTER_SPLIT=2");
GRAFT_SCATTER_KNOB_BENCH(sum, 512, split1, "GRAFT_CUDA_SCATTER_SPLIT=1");
GRAFT_SCATTER_KNOB_BENCH(amax, 512, split1, "GRAFT_CUDA_SCATTER_SPLIT=1");
GRAFT_SCATTER_KNOB_BENCH(mean, 512, split1, "GRAFT_CUDA_SCATTER_SPLIT=1");
// A thread per column, its accumulators in shared memory.
#define GRAFT_SCATTER_SMEM_BENCH(red, rows)                                                        \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_column_smem, #red, rows,         \
                    "column-smem")                                                                 \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAFT_SCATTER_SMEM_BENCH(sum, 512);
GRAFT_SCATTER_SMEM_BENCH(amax, 512);
GRAFT_SCATTER_SMEM_BENCH(mean, 512);
GRAFT_SCATTER_SMEM_BENCH(sum, 4);
GRAFT_SCATTER_SMEM_BENCH(mean, 4);
// A thread per column and target row.
GRAFT_SCATTER_BENCH(sum, 4, column);
GRAFT_SCATTER_BENCH(amax, 4, column);
GRAFT_SCATTER_BENCH(mean, 4, column);
GRAFT_SCATTER_BENCH(sum, 512, owner);
GRAFT_SCATTER_BENCH(amax, 512, owner);
GRAFT_SCATTER_BENCH(mean, 512, owner);
GRAFT_SCATTER_BENCH(sum, 4, owner);
GRAFT_SCATTER_BENCH(amax, 4, owner);
GRAFT_SCATTER_BENCH(mean, 4, owner);
// The owner fold with float sums split into chunks too (not the CPU's
// rounding order; docs/cuda.md): what chunking would cost them.
#define GRAFT_SCATTER_REORDER_BENCH(red, rows)                                                     \
  BENCHMARK_CAPTURE(BM_scatter, red##_f32_4096x1024_into_##rows##_owner_reorder, #red, rows,       \
                    "owner-reorder")                                                               \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAFT_SCATTER_REORDER_BENCH(sum, 512);
GRAFT_SCATTER_REORDER_BENCH(mean, 512);
GRAFT_SCATTER_REORDER_BENCH(sum, 4);
GRAFT_SCATTER_REORDER_BENCH(mean, 4);
GRAFT_SCATTER_BENCH(sum, 512, global);
GRAFT_SCATTER_BENCH(sum, 512, tile);
GRAFT_SCATTER_BENCH(amax, 512, global);
GRAFT_SCATTER_BENCH(amax, 512, tile);
GRAFT_SCATTER_BENCH(mean, 512, global);
GRAFT_SCATTER_BENCH(mean, 512, tile);
GRAFT_SCATTER_BENCH(sum, 4, global);
GRAFT_SCATTER_BENCH(amax, 4, global);
GRAFT_SCATTER_BENCH(mean, 4, global);
/// A fused program compiled by NVRTC and launched as the VM does (the disk
/// cache off: every run compiles).
struct FusedKernel {
  std::shared_ptr<const graft::kernels::FusedProgram> program;
  std::unique_ptr<graft::vm::LoadedCudaImage> image;
  const GraftCudaApi *api = nullptr;

  explicit FusedKernel(const std::string &text) {
    auto p = graft::kernels::parseFusedProgram(text);
    if (!p)
      fail(p.takeError());
    program = *p;
    auto module = graft::vm::CudaModule::get();
    if (!module)
      fail(module.takeError());
    api = &module->api();
    char name[256];
    int major = 0, minor = 0;
    GraftCudaError err;
    if (api->describe(0, name, sizeof name, &major, &minor, &err)) {
      std::fprintf(stderr, "%s\n", err.message);
      std::exit(1);
    }
    std::vector<const char *> entries = graft::kernels::fusedKernelEntries(*program);
    auto loaded = graft::vm::loadCudaSource(
        *api, 0, major, minor, llvm::cantFail(graft::kernels::fusedProgramCudaSource(*program)),
        "graft.fused.bench", entries, graft::vm::KernelCache(""));
    if (!loaded)
      fail(loaded.takeError());
    image = std::move(*loaded);
  }
  [[noreturn]] static void fail(llvm::Error e) {
    std::fprintf(stderr, "%s\n", llvm::toString(std::move(e)).c_str());
    std::exit(1);
  }
  void run(std::vector<DLTensor *> in, DLTensor *out) {
    std::vector<DLTensor *> outs{out};
    auto plan = graft::kernels::planFusedLaunch(*program, KernelArgs{in, outs, {}, {}},
                                                "graft.fused.bench");
    if (!plan)
      fail(plan.takeError());
    // The programs here have no take that could fail: no index check.
    GraftCudaError err;
    if (api->launch(image->functions[plan->entry], plan->grid, plan->block, plan->params.data(),
                    stream(), &err)) {
      std::fprintf(stderr, "%s\n", err.message);
      std::exit(1);
    }
  }
};

void BM_fusedChain(benchmark::State &state, DLDataType t, const char *dtype) {
  std::string T = dtype;
  FusedKernel k("fused 2\ninput %0 " + T + " 1\ninput %1 " + T + " 1\nconst %2 " + T +
                " 0x1p-1\n%3 = multiply " + T + " %0 %1\n%4 = add " + T + " %3 %2\n" +
                "%5 = sigmoid " + T + " %4\n%6 = multiply " + T + " %5 %0\noutput %6\n");
  int64_t n = (int64_t(256) << 20) / (t.bits / 8);
  Buf a(t, {n}), b(t, {n}), c(t, {n});
  timeLaunches(state, 3 * a.bytes(), [&] { k.run({&a.dl, &b.dl}, &c.dl); });
}
BENCHMARK_CAPTURE(BM_fusedChain, fused_chain_f32, F32, "float32")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_fusedChain, fused_chain_bf16, BF16, "bfloat16")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// Index-map kernels (docs/cuda.md, "Index-map kernels"), 256 MiB per
/// operand: a transposed input added to a row-major one (8192x8192), and
/// two halves concatenated along the last axis through exp (8192x4096 each
/// into 8192x8192).
void BM_fusedIndex(benchmark::State &state, DLDataType t, const char *dtype, bool concat) {
  std::string T = dtype;
  int64_t rows = 8192, cols = (int64_t(256) << 20) / (t.bits / 8) / rows;
  if (concat) {
    FusedKernel k("fused 2\ninput %0 " + T + " 2\ninput %1 " + T + " 2\n%2 = concat " + T +
                  " %0 %1 axis=1\n%3 = exp " + T + " %2\noutput %3\n");
    Buf a(t, {rows, cols / 2}), b(t, {rows, cols / 2}), c(t, {rows, cols});
    timeLaunches(state, 2 * c.bytes(), [&] { k.run({&a.dl, &b.dl}, &c.dl); });
    return;
  }
  FusedKernel k("fused 2\ninput %0 " + T + " 2\ninput %1 " + T + " 2\n%2 = permute_dims " + T +
                " %0 axes=1,0\n%3 = add " + T + " %2 %1\noutput %3\n");
  Buf a(t, {cols, rows}), b(t, {rows, cols}), c(t, {rows, cols});
  timeLaunches(state, 3 * c.bytes(), [&] { k.run({&a.dl, &b.dl}, &c.dl); });
}
BENCHMARK_CAPTURE(BM_fusedIndex, fused_permute_add_f32, F32, "float32", false)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_fusedIndex, fused_concat_exp_f32, F32, "float32", true)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_fusedIndex, fused_concat_exp_bf16, BF16, "bfloat16", true)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// graft.nn.attention on bfloat16 (B, S, N, H) = (4, 2048, 16, 128) for
/// query, key, value and output, as PyTorch's flash attention figure.
/// TFLOP/s counts 4 B N S S_kv H (Q K^T and P V), halved with a causal mask.
/// `variant` sets GRAFT_CUDA_ATTENTION (the flash kernel's form; "" the
/// default).
void BM_attention(benchmark::State &state, bool causal, const char *variant) {
  const int64_t b = 4, s = 2048, n = 16, h = 128;
  Buf q(BF16, {b, s, n, h}), k(BF16, {b, s, n, h}), v(BF16, {b, s, n, h}), o(BF16, {b, s, n, h});
  std::vector<AttrValue> attrs = {std::monostate(),
                                  causal ? AttrValue(std::string("BottomRight")) : std::monostate(),
                                  std::monostate()};
  if (*variant)
    setenv("GRAFT_CUDA_ATTENTION", variant, 1);
  else
    unsetenv("GRAFT_CUDA_ATTENTION");
  timeLaunches(state, 4 * q.bytes(), [&] {
    runGraft("graft.nn.attention", {&q.dl, &k.dl, &v.dl}, {&o.dl}, attrs);
  });
  unsetenv("GRAFT_CUDA_ATTENTION");
  double flops = 4.0 * double(b * n) * double(s) * double(s) * double(h) / (causal ? 2 : 1);
  state.counters["TFLOP/s"] =
      benchmark::Counter(flops * double(state.iterations()) / 1e12, benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_attention, bf16_4x2048x16x128, false, "")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, causal_bf16_4x2048x16x128, true, "")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, v1_bf16_4x2048x16x128, false, "v1")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, v1_causal_bf16_4x2048x16x128, true, "v1")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, v5_bf16_4x2048x16x128, false, "v5")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, v5_causal_bf16_4x2048x16x128, true, "v5")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// graft.where(mask, src, out): the masked copy `out[mask] = src[mask]`
/// after fuse-masked-copy (docs/cuda-graphs.md; PyTorch's index +
/// index_put: 355 us at 16M elements, 190 us at 16K). Bytes: the mask, src
/// and out read, the result written.
void BM_maskedCopy(benchmark::State &state, int64_t rows, int64_t cols) {
  Buf mask(DLDataType{graft::kernels::kGraftDLBool, 8, 1}, {rows, cols}), src(F32, {rows, cols}),
      out(F32, {rows, cols}), res(F32, {rows, cols});
  timeLaunches(state, mask.bytes() + 3 * src.bytes(), [&] {
    runGraft("graft.where", {&mask.dl, &src.dl, &out.dl}, {&res.dl});
  });
}
BENCHMARK_CAPTURE(BM_maskedCopy, where_f32_16M, 4096, 4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_maskedCopy, where_f32_16K, 128, 128)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// Skips the benchmark (the rest of the run goes on) when `call` fails.
#define SKIP_ON_ERROR(state, call)                                                                 \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      cudaGetLastError();                                                                          \
      (state).SkipWithError((std::string(#call) + ": " + cudaGetErrorString(e_)).c_str());         \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

/// Replay of a captured chain of `n` kernels on 16x16 float32 (as
/// tools/gpu-check.sh's chain programs), captured through graft's kernel
/// calls on the stream and ended by the module's endCapture, as the VM does
/// (so in the graph form the runtime makes): device time of one
/// cudaGraphLaunch from events around it. `kind`: "add" (the flat
/// elementwise kernel), "permute" (permute_dims, the strided kernel),
/// "alternate" (the chain programs' permute/add), "add1" (add on one
/// element: the launch alone); "add1_plain" ends the capture itself and
/// instantiates the graph as captured (full edges), "add1_forced" makes
/// every kernel edge of that graph programmatic itself (what the module's
/// endCapture should have done: compare with add1). The add1 kinds check
/// the chain's result after timing (counter result_over_n: 1 when right).
/// The adds on 16x16 and one element take the tiny elementwise kernel
/// (kernels/cuda/Elementwise.cuh); "add_flat" and "add1_flat" capture the
/// same chains with it off (GRAFT_CUDA_TINY=0 while capturing: the flat
/// kernel, as before it), so one run compares both.
/// us per kernel = (time at 99 - time at 1) / 98.
void BM_graphReplay(benchmark::State &state, const char *kind) {
  int64_t n = state.range(0);
  std::string k = kind;
  bool own = k == "add1_plain" || k == "add1_forced";
  bool flat = k == "add_flat" || k == "add1_flat";
  bool one = k == "add1" || k == "add1_flat" || own;
  std::vector<int64_t> shape = one ? std::vector<int64_t>{1} : std::vector<int64_t>{16, 16};
  Buf a(F32, shape), b(F32, shape), w(F32, shape);
  std::vector<AttrValue> axes = {std::vector<int64_t>{1, 0}};
  const GraftCudaApi &api = graft::vm::CudaModule::get()->api();
  GraftCudaError err{};
  if (own)
    CHECK_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  else if (api.beginCapture(0, stream(), &err))
    return state.SkipWithError(err.message);
  // The flat kinds turn the tiny kernel off while capturing and then put
  // back what the environment held (a whole run may set it).
  const char *had = std::getenv("GRAFT_CUDA_TINY");
  std::string before = had ? had : "";
  if (flat)
    setenv("GRAFT_CUDA_TINY", "0", 1);
  for (int64_t i = 0; i < n; ++i) {
    DLTensor *x = i % 2 ? &b.dl : &a.dl, *y = i % 2 ? &a.dl : &b.dl;
    if (k == "permute" || (k == "alternate" && i % 2 == 0))
      runGraft("graft.permute_dims", {x}, {y}, axes);
    else
      runGraft("graft.add", {x, &w.dl}, {y});
  }
  if (flat && had)
    setenv("GRAFT_CUDA_TINY", before.c_str(), 1);
  else if (flat)
    unsetenv("GRAFT_CUDA_TINY");
  cudaGraphExec_t exec = nullptr;
  GraftCudaGraphNodes nodes{};
  if (own) {
    cudaGraph_t graph;
    CHECK_CUDA(cudaStreamEndCapture(stream(), &graph));
    nodes.kernels = uint32_t(n);
    if (k == "add1_forced")
      SKIP_ON_ERROR(state, graft::bench::makeEdgesProgrammatic(graph));
    SKIP_ON_ERROR(state, cudaGraphInstantiate(&exec, graph, 0));
    CHECK_CUDA(cudaGraphUpload(exec, stream()));
    cudaGraphDestroy(graph);
  } else {
    void *g = nullptr;
    if (api.endCapture(0, stream(), &g, &nodes, &err))
      return state.SkipWithError(err.message);
    exec = static_cast<cudaGraphExec_t>(g);
  }
  timeLaunches(state, 0, [&] { CHECK_CUDA(cudaGraphLaunch(exec, stream())); });
  state.counters["nodes"] = double(nodes.kernels);
  if (one) {
    float unit = 1, got = 0;
    CHECK_CUDA(cudaMemset(a.dl.data, 0, 4));
    CHECK_CUDA(cudaMemset(b.dl.data, 0, 4));
    CHECK_CUDA(cudaMemcpy(w.dl.data, &unit, 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaGraphLaunch(exec, stream()));
    CHECK_CUDA(cudaStreamSynchronize(stream()));
    CHECK_CUDA(cudaMemcpy(&got, n % 2 ? b.dl.data : a.dl.data, 4, cudaMemcpyDeviceToHost));
    state.counters["result_over_n"] = double(got) / double(n);
  }
  cudaGraphExecDestroy(exec);
}
BENCHMARK_CAPTURE(BM_graphReplay, add, "add")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, add_flat, "add_flat")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, permute, "permute")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, alternate, "alternate")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, add1, "add1")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, add1_flat, "add1_flat")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, add1_plain, "add1_plain")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplay, add1_forced, "add1_forced")
    ->Arg(1)
    ->Arg(99)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// The forms a chain of tiny kernels can take in a graph (GraphForms.cu),
/// to split BM_graphReplay's per-node cost into its causes: device time of
/// one replay of 1 or 99 kernels of one block. Body: `empty` (no code) or
/// `add1` (b[0] = a[0] + w[0], the previous link's result), written in
/// thread 0, or `_restrict` one element per thread with read-only loads,
/// or `_loop` as graft's flat kernel (64-bit grid-stride loops). Form:
/// `_t256` 256 threads (graft's block; else 1), `_p1k`/`_p4k` 1 KiB / 4 KiB
/// of unused parameter bytes (else 40 bytes; graft's adds take 28 and 32),
/// `_nodes` built with cudaGraphAddKernelNode (else stream capture),
/// `_stream` the same launches on the stream without a graph, `_pdl`
/// captured launches with programmatic stream serialization whose kernels
/// wait (griddepcontrol.wait) before their body, `_trigger` kernels that
/// also release their dependents first (griddepcontrol.launch_dependents),
/// `_edges` a plain capture whose kernel-to-kernel edges are then made
/// programmatic (kernels that wait).
enum class Build { Capture, Nodes, Stream, CaptureEdges };

void BM_graphReplayForm(benchmark::State &state, graft::bench::ChainForm form, Build build) {
  int n = int(state.range(0));
  Buf a(F32, {1}), b(F32, {1}), w(F32, {1});
  auto *pa = static_cast<float *>(a.dl.data), *pb = static_cast<float *>(b.dl.data);
  auto *pw = static_cast<const float *>(w.dl.data);
  if (build == Build::Stream) {
    SKIP_ON_ERROR(state, graft::bench::launchChain(stream(), form, n, pa, pb, pw));
    timeLaunches(state, 0,
                 [&] { CHECK_CUDA(graft::bench::launchChain(stream(), form, n, pa, pb, pw)); });
    state.counters["nodes"] = double(n);
    return;
  }
  cudaGraph_t graph = nullptr;
  if (build == Build::Nodes) {
    SKIP_ON_ERROR(state, graft::bench::buildChainGraph(form, n, pa, pb, pw, &graph));
  } else {
    SKIP_ON_ERROR(state, cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
    cudaError_t e = graft::bench::launchChain(stream(), form, n, pa, pb, pw);
    cudaError_t end = cudaStreamEndCapture(stream(), &graph);
    SKIP_ON_ERROR(state, e);
    SKIP_ON_ERROR(state, end);
  }
  if (build == Build::CaptureEdges)
    SKIP_ON_ERROR(state, graft::bench::makeEdgesProgrammatic(graph));
  size_t nodes = 0;
  SKIP_ON_ERROR(state, cudaGraphGetNodes(graph, nullptr, &nodes));
  cudaGraphExec_t exec;
  SKIP_ON_ERROR(state, cudaGraphInstantiate(&exec, graph, 0));
  SKIP_ON_ERROR(state, cudaGraphUpload(exec, stream()));
  timeLaunches(state, 0, [&] { CHECK_CUDA(cudaGraphLaunch(exec, stream())); });
  // The chain must still compute: from a = b = 0 and w = 1, one replay
  // leaves n in its last output (counter 1) when each link waited for the
  // one before.
  if (form.add) {
    float one = 1, got = 0;
    CHECK_CUDA(cudaMemset(pa, 0, 4));
    CHECK_CUDA(cudaMemset(pb, 0, 4));
    CHECK_CUDA(cudaMemcpy(const_cast<float *>(pw), &one, 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaGraphLaunch(exec, stream()));
    CHECK_CUDA(cudaStreamSynchronize(stream()));
    CHECK_CUDA(cudaMemcpy(&got, n % 2 ? pb : pa, 4, cudaMemcpyDeviceToHost));
    state.counters["result_over_n"] = double(got) / n;
  }
  state.counters["nodes"] = double(nodes);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

graft::bench::ChainForm chainForm(bool add, int threads = 1, int pad = 0, bool pdl = false,
                                  bool trigger = false, bool wait = false,
                                  graft::bench::AddBody body = graft::bench::AddBody::Thread0) {
  graft::bench::ChainForm f;
  f.add = add;
  f.body = body;
  f.threads = threads;
  f.padBytes = pad;
  f.pdlLaunch = pdl;
  f.trigger = trigger;
  f.wait = wait || pdl;
  return f;
}

#define GRAPH_FORM(name, form, build)                                                              \
  BENCHMARK_CAPTURE(BM_graphReplayForm, name, form, build)                                         \
      ->Arg(1)                                                                                     \
      ->Arg(99)                                                                                    \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)
GRAPH_FORM(empty, chainForm(false), Build::Capture);
GRAPH_FORM(empty_t256, chainForm(false, 256), Build::Capture);
GRAPH_FORM(empty_p1k, chainForm(false, 1, 1000), Build::Capture);
GRAPH_FORM(empty_p4k, chainForm(false, 1, 4000), Build::Capture);
GRAPH_FORM(empty_nodes, chainForm(false), Build::Nodes);
GRAPH_FORM(empty_stream, chainForm(false), Build::Stream);
GRAPH_FORM(empty_pdl, chainForm(false, 1, 0, true), Build::Capture);
GRAPH_FORM(add1, chainForm(true), Build::Capture);
GRAPH_FORM(add1_t256, chainForm(true, 256), Build::Capture);
GRAPH_FORM(add1_p1k, chainForm(true, 1, 1000), Build::Capture);
GRAPH_FORM(add1_nodes, chainForm(true), Build::Nodes);
GRAPH_FORM(add1_stream, chainForm(true), Build::Stream);
GRAPH_FORM(add1_pdl, chainForm(true, 1, 0, true), Build::Capture);
GRAPH_FORM(add1_pdl_trigger, chainForm(true, 1, 0, true, true), Build::Capture);
GRAPH_FORM(add1_t256_pdl_trigger, chainForm(true, 256, 0, true, true), Build::Capture);
GRAPH_FORM(add1_stream_pdl_trigger, chainForm(true, 1, 0, true, true), Build::Stream);
GRAPH_FORM(add1_edges, chainForm(true, 1, 0, false, false, true), Build::CaptureEdges);
GRAPH_FORM(add1_edges_trigger, chainForm(true, 1, 0, false, true, true), Build::CaptureEdges);
GRAPH_FORM(add1_t256_edges_trigger, chainForm(true, 256, 0, false, true, true),
           Build::CaptureEdges);
GRAPH_FORM(add1_t256_edges_trigger_restrict,
           chainForm(true, 256, 0, false, true, true, graft::bench::AddBody::Restrict),
           Build::CaptureEdges);
GRAPH_FORM(add1_t256_edges_trigger_loop,
           chainForm(true, 256, 0, false, true, true, graft::bench::AddBody::Loop),
           Build::CaptureEdges);

/// The first launch of a freshly instantiated graph of graft's 99 one-element
/// adds, with cudaGraphUpload before it (`upload`, what the runtime does) or
/// without (`noupload`): device time of that launch alone.
void BM_graphReplayFirstLaunch(benchmark::State &state, bool upload) {
  Buf a(F32, {1}), b(F32, {1}), w(F32, {1});
  CHECK_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < 99; ++i)
    runGraft("graft.add", {i % 2 ? &b.dl : &a.dl, &w.dl}, {i % 2 ? &a.dl : &b.dl});
  cudaGraph_t graph;
  CHECK_CUDA(cudaStreamEndCapture(stream(), &graph));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (auto _ : state) {
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    if (upload)
      CHECK_CUDA(cudaGraphUpload(exec, stream()));
    CHECK_CUDA(cudaStreamSynchronize(stream()));
    CHECK_CUDA(cudaEventRecord(start, stream()));
    CHECK_CUDA(cudaGraphLaunch(exec, stream()));
    CHECK_CUDA(cudaEventRecord(stop, stream()));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(double(ms) / 1e3);
    cudaGraphExecDestroy(exec);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaGraphDestroy(graph);
}
BENCHMARK_CAPTURE(BM_graphReplayFirstLaunch, upload, true)
    ->Iterations(200)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_graphReplayFirstLaunch, noupload, false)
    ->Iterations(200)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

} // namespace

// The forced wgmma attention kernel last of all: a fault there would leave
// the process's CUDA context unusable for every benchmark after it.
BENCHMARK_CAPTURE(BM_attention, wgmma_bf16_4x2048x16x128, false, "wgmma")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_attention, wgmma_causal_bf16_4x2048x16x128, true, "wgmma")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
