//===- kernels/cuda/Common.cuh - Shared machinery of the CUDA kernels -*- CUDA -*-===//
//
// What every CUDA kernel file shares: the dtype table and dispatch, element
// loads and stores with the CPU kernels' conversion rules, the broadcast
// indexer, and the argument checks that turn bad input into an error
// message (the C ABI of CudaAbi.h carries no exception and no llvm::Error).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CUDA_COMMON_CUH
#define GRAFT_KERNELS_CUDA_COMMON_CUH

#include "kernels/cuda/CudaAbi.h"
#include "kernels/cuda/Scalar.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace graft::cuda {

constexpr int kMaxDims = 8;
constexpr uint8_t kDLBoolCode = 6;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

enum class ScalarType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Invalid
};

inline ScalarType scalarTypeOf(DLDataType t) {
  if (t.lanes != 1)
    return ScalarType::Invalid;
  switch (t.code) {
  case kDLBoolCode:
    return t.bits == 8 ? ScalarType::Bool : ScalarType::Invalid;
  case kDLInt:
    return t.bits == 8    ? ScalarType::Int8
           : t.bits == 16 ? ScalarType::Int16
           : t.bits == 32 ? ScalarType::Int32
           : t.bits == 64 ? ScalarType::Int64
                          : ScalarType::Invalid;
  case kDLUInt:
    // TVM's uint1 is bool.
    return t.bits == 8 ? ScalarType::UInt8 : t.bits == 1 ? ScalarType::Bool : ScalarType::Invalid;
  case kDLFloat:
    return t.bits == 16   ? ScalarType::Float16
           : t.bits == 32 ? ScalarType::Float32
           : t.bits == 64 ? ScalarType::Float64
                          : ScalarType::Invalid;
  case kDLBfloat:
    return t.bits == 16 ? ScalarType::BFloat16 : ScalarType::Invalid;
  default:
    return ScalarType::Invalid;
  }
}

inline bool isFloatType(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}

std::string dtypeName(DLDataType t);
std::string shapeStr(const int64_t *shape, int ndim);
inline std::string shapeStr(const DLTensor &t) { return shapeStr(t.shape, t.ndim); }

/// Calls fn(T{}) with the storage type of `t` (bool as bool, half types as
/// __half and __nv_bfloat16).
template <class Fn> auto dispatch(ScalarType t, Fn &&fn) {
  switch (t) {
  case ScalarType::Bool:
    return fn(bool{});
  case ScalarType::Int8:
    return fn(int8_t{});
  case ScalarType::Int16:
    return fn(int16_t{});
  case ScalarType::Int32:
    return fn(int32_t{});
  case ScalarType::Int64:
    return fn(int64_t{});
  case ScalarType::UInt8:
    return fn(uint8_t{});
  case ScalarType::Float16:
    return fn(__half{});
  case ScalarType::BFloat16:
    return fn(__nv_bfloat16{});
  case ScalarType::Float32:
    return fn(float{});
  default:
    return fn(double{});
  }
}

/// Loads element `p` of runtime dtype `t` converted to C (the mixed-dtype
/// path: a bool operand of an arithmetic op).
template <class C> __device__ inline C loadAs(const char *p, ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
    return castTo<C>(*reinterpret_cast<const uint8_t *>(p) != 0);
  case ScalarType::Int8:
    return castTo<C>(*reinterpret_cast<const int8_t *>(p));
  case ScalarType::Int16:
    return castTo<C>(*reinterpret_cast<const int16_t *>(p));
  case ScalarType::Int32:
    return castTo<C>(*reinterpret_cast<const int32_t *>(p));
  case ScalarType::Int64:
    return castTo<C>(*reinterpret_cast<const int64_t *>(p));
  case ScalarType::UInt8:
    return castTo<C>(*reinterpret_cast<const uint8_t *>(p));
  case ScalarType::Float16:
    return castTo<C>(__half2float(*reinterpret_cast<const __half *>(p)));
  case ScalarType::BFloat16:
    return castTo<C>(__bfloat162float(*reinterpret_cast<const __nv_bfloat16 *>(p)));
  case ScalarType::Float32:
    return castTo<C>(*reinterpret_cast<const float *>(p));
  default:
    return castTo<C>(*reinterpret_cast<const double *>(p));
  }
}

/// Stores `v` as element `p` of runtime dtype `t` with the CPU kernels'
/// conversion rules (castTo; the half types round to nearest even): the
/// counterpart of loadAs, for a kernel that computes in one type and
/// writes whichever dtype the output has.
template <class V> __device__ inline void storeAs(char *p, ScalarType t, V v) {
  switch (t) {
  case ScalarType::Bool:
    *reinterpret_cast<uint8_t *>(p) = castTo<bool>(v) ? 1 : 0;
    break;
  case ScalarType::Int8:
    *reinterpret_cast<int8_t *>(p) = castTo<int8_t>(v);
    break;
  case ScalarType::Int16:
    *reinterpret_cast<int16_t *>(p) = castTo<int16_t>(v);
    break;
  case ScalarType::Int32:
    *reinterpret_cast<int32_t *>(p) = castTo<int32_t>(v);
    break;
  case ScalarType::Int64:
    *reinterpret_cast<int64_t *>(p) = castTo<int64_t>(v);
    break;
  case ScalarType::UInt8:
    *reinterpret_cast<uint8_t *>(p) = castTo<uint8_t>(v);
    break;
  case ScalarType::Float16:
    *reinterpret_cast<__half *>(p) = __float2half_rn(castTo<float>(v));
    break;
  case ScalarType::BFloat16:
    *reinterpret_cast<__nv_bfloat16 *>(p) = __float2bfloat16_rn(castTo<float>(v));
    break;
  case ScalarType::Float32:
    *reinterpret_cast<float *>(p) = castTo<float>(v);
    break;
  default:
    *reinterpret_cast<double *>(p) = castTo<double>(v);
    break;
  }
}

//===----------------------------------------------------------------------===//
// Broadcast indexing
//===----------------------------------------------------------------------===//

/// Element strides of up to N operands over one iteration shape (stride 0
/// on a broadcast dim). Operand 0 is the output.
template <int N> struct Indexer {
  int ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t stride[N][kMaxDims] = {};

  /// Element offsets of linear (row-major) index i.
  __device__ void offsets(int64_t i, int64_t (&off)[N]) const {
    for (int k = 0; k < N; ++k)
      off[k] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      int64_t q = i / shape[d], r = i - q * shape[d];
      i = q;
      for (int k = 0; k < N; ++k)
        off[k] += r * stride[k][d];
    }
  }
};

/// Byte address of a tensor's first element.
inline char *dataOf(const DLTensor &t) { return static_cast<char *>(t.data) + t.byte_offset; }
int64_t numel(const DLTensor &t);
bool isCompact(const DLTensor &t);

//===----------------------------------------------------------------------===//
// Argument checks and errors
//===----------------------------------------------------------------------===//

/// One kernel call: its arguments, its symbol and where its error goes.
class Ctx {
public:
  Ctx(const GraftCudaKernelArgs *args, const char *symbol, GraftCudaError *err)
      : args_(*args), symbol_(symbol), err_(err) {}

  const DLTensor &in(int i) const { return *args_.inputs[i]; }
  const DLTensor &out(int i) const { return *args_.outputs[i]; }
  int numInputs() const { return args_.numInputs; }
  int numOutputs() const { return args_.numOutputs; }
  cudaStream_t stream() const { return static_cast<cudaStream_t>(args_.stream); }
  const GraftCudaKernelArgs &args() const { return args_; }
  const char *symbol() const { return symbol_; }

  /// Fails the call with "<symbol>: <message>".
  int fail(const std::string &message);
  /// Fails the call with `message` as it is (another call's error).
  int failWith(const std::string &message);
  /// Fails the call with "<symbol>: <call>: <CUDA's message>".
  int failCuda(const char *call, cudaError_t e);
  /// After a launch: the launch error, if any.
  int checkLaunch(const char *kernelName);

  /// Arity and that every tensor lives on a CUDA device (0 on success).
  int checkArity(int inputs, int outputs);
  /// A dim count this library's indexer takes.
  int checkRank(const DLTensor &t, const char *role);
  /// A kernel that reads device data back to the host (a mask count, an
  /// index check) calls this before the copy and the wait: it fails,
  /// instead of breaking the capture, while the stream is being captured
  /// into a CUDA graph (the VM then runs the region without a graph), else
  /// counts the wait for graft run --profile.
  int hostRead(const char *what);

  bool hasAttr(int i) const {
    return i < args_.numAttrs && args_.attrs[i].kind != GRAFT_CUDA_ATTR_NONE;
  }
  const GraftCudaAttr &attr(int i) const { return args_.attrs[i]; }
  /// An int attr, or `dflt` when unset; false (after fail) on a wrong kind.
  bool intAttr(int i, const char *name, int64_t dflt, int64_t &out);
  bool floatAttr(int i, const char *name, double dflt, double &out);
  bool boolAttr(int i, const char *name, bool dflt, bool &out);
  /// An int list attr (a single int becomes a list); `set` false when unset.
  bool intsAttr(int i, const char *name, std::vector<int64_t> &out, bool &set);

private:
  const GraftCudaKernelArgs &args_;
  const char *symbol_;
  GraftCudaError *err_;
};

/// Element strides of `t` (its own, or row-major when it has none).
void elementStrides(const DLTensor &t, int64_t *strides);

/// Checks that the inputs `ops` broadcast (numpy rules) to exactly `out`'s
/// shape and writes the iteration: out's shape, out's strides as operand 0,
/// each input's strides (0 on broadcast dims) as operands 1..; false after
/// ctx.fail.
/// With `exact` false the inputs need only broadcast to the output
/// (full, broadcast_to).
bool broadcastTo(Ctx &ctx, const DLTensor &out, const DLTensor *const *ops, int nops, int &ndim,
                 int64_t *shape, int64_t (*strides)[kMaxDims], bool exact = true);

template <int N>
bool makeIndexer(Ctx &ctx, const DLTensor &out, const DLTensor *const *ops, Indexer<N> &idx,
                 bool exact = true) {
  return broadcastTo(ctx, out, ops, N - 1, idx.ndim, idx.shape, idx.stride, exact);
}

//===----------------------------------------------------------------------===//
// Workspace and index checks (Index.cu)
//===----------------------------------------------------------------------===//

/// Pieces of a kernel's workspace, each 256-byte aligned from a base that
/// alignedBase() rounds up (total() has room for that).
class WorkspaceCarver {
public:
  size_t take(size_t bytes) {
    size_t at = at_;
    at_ += (bytes + 255) / 256 * 256;
    return at;
  }
  size_t total() const { return at_ + 256; }

private:
  size_t at_ = 0;
};
inline char *alignedBase(void *workspace) {
  return reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(workspace) + 255) / 256 * 256);
}

/// Whether `s` is being captured into a CUDA graph (no host read then).
bool streamCapturing(cudaStream_t s);

/// An integer index tensor whose values must lie in [-n, n).
struct IndexRange {
  const DLTensor *t;
  int64_t n;
};
struct BadIndex {
  bool found = false;
  int which = 0;     ///< The range the first bad value is in.
  int64_t value = 0; ///< That value.
};
/// Finds the first out-of-range value (ranges in order, each in row-major
/// order) with a kernel and reads it back on the host, using 8 bytes of
/// device memory at `slot`. Skipped while the stream is captured. Returns
/// nonzero after ctx.fail on a CUDA error.
int findBadIndex(Ctx &ctx, const IndexRange *ranges, int num, void *slot, BadIndex &bad);

//===----------------------------------------------------------------------===//
// Deferred index checks (DeferredCheck.cu, docs/cuda.md "Deferred index checks")
//===----------------------------------------------------------------------===//

/// One kernel call's record of its first out-of-range index, in device
/// memory: the kernel keeps the complement of the least bad row-major
/// position (0: none) with atomicMax, and the last of its blocks to finish
/// stores the index's value there, so that the host can report the CPU's
/// message later without reading the indices (they may be gone by then).
struct BadIndexRecord {
  unsigned long long key;    ///< ~(least bad position), or 0.
  long long value;           ///< The index at that position.
  unsigned long long blocks; ///< Blocks finished (the last one stores `value`).
};

/// Notes that the index at row-major position `pos` is out of range.
__device__ inline void noteBadIndex(BadIndexRecord *r, unsigned long long pos) {
  if (r)
    atomicMax(&r->key, ~pos);
}

/// A zeroed record for a call on ctx's stream whose index check is read back
/// at the module's next synchronization point (synchronize, a copy to or
/// from the host) instead of by the call; an out-of-range index then fails
/// that synchronization with "<symbol>: index V<tail>". Null while the
/// stream is captured into a CUDA graph (no check; the kernel skips bad
/// positions). Nonzero after ctx.fail on a CUDA error, or when all records
/// are in use and reading them back finds an earlier call's bad index (its
/// message).
int takeBadIndexRecord(Ctx &ctx, const std::string &tail, BadIndexRecord *&record);

/// After the host has waited for `stream` (Module.cu): reads back the
/// records of the calls since the last read (waiting for the device if one
/// ran on another stream) and fails with the first call's message whose
/// record holds a bad index. Returns 0 at once when none is outstanding.
int reportDeferredChecks(int device, cudaStream_t stream, GraftCudaError *err);

/// Frees the records (releaseResources); outstanding checks are dropped.
void releaseDeferredChecks();

/// Byte strides of `v` broadcast (numpy rules) to `shape`, 0 on broadcast
/// dims; false after ctx.fail naming `role`.
bool broadcastStrides(Ctx &ctx, const DLTensor &v, const std::vector<int64_t> &shape,
                      int64_t *strides, const char *role);

/// dst <- src, one dtype and shape, any strides (Layout.cu).
int copyView(Ctx &ctx, const DLTensor &dst, const DLTensor &src);

/// Kernel tables of each file, collected by Module.cu.
void addUnaryKernels(std::vector<GraftCudaKernel> &out);
void addBinaryKernels(std::vector<GraftCudaKernel> &out);
void addCreationKernels(std::vector<GraftCudaKernel> &out);
void addNNKernels(std::vector<GraftCudaKernel> &out);
void addAttentionKernels(std::vector<GraftCudaKernel> &out);
void addMatmulKernels(std::vector<GraftCudaKernel> &out);
void addReduceKernels(std::vector<GraftCudaKernel> &out);
void addLayoutKernels(std::vector<GraftCudaKernel> &out);
void addScanKernels(std::vector<GraftCudaKernel> &out);
void addSortKernels(std::vector<GraftCudaKernel> &out);
void addIndexKernels(std::vector<GraftCudaKernel> &out);
void addScatterKernels(std::vector<GraftCudaKernel> &out);
/// repeat, tile, flip, dynamic_strided_slice, quantize/dequantize, topk, einsum (LateOps.cu).
void addLateOpKernels(std::vector<GraftCudaKernel> &out);
void addConvKernels(std::vector<GraftCudaKernel> &out);
/// nn.attention_var_len (AttentionVarLen.cu).
void addAttentionVarLenKernels(std::vector<GraftCudaKernel> &out);
/// multinomial_from_uniform, vision.all_class_non_max_suppression (SamplingVision.cu).
void addSamplingVisionKernels(std::vector<GraftCudaKernel> &out);
void addBatchCKernels(std::vector<GraftCudaKernel> &out);
/// The run-time compilation entries of the API (Rtc.cu).
void addRtcApi(GraftCudaApi &api);
/// Gives back what the files keep for the life of the process (cuBLAS
/// handles), so a leak check sees only real leaks.
void releaseMatmulResources();
/// Counts one wait of the host for the device (GraftCudaApi::hostSyncs).
void noteHostSync();
uint64_t hostSyncs();

/// The first statement of every kernel of this module. In a captured graph
/// the edges between two of the module's kernels are programmatic
/// (Module.cu, endCapture): the next kernel launches while this one runs,
/// so a chain of small kernels does not pay each launch after the end of
/// the one before. Each kernel therefore lets its dependents launch, then
/// waits (griddepcontrol.wait) until the kernels it depends on have ended
/// and their writes are visible, before it touches memory. Outside such a
/// graph both are no-ops. Releasing at the start cannot starve this grid:
/// the dependents launch only once every block of it has started.
__device__ inline void awaitUpstream() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Blocks for a grid-stride loop over n items.
inline unsigned gridFor(int64_t n, int threads) {
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks < 1)
    blocks = 1;
  return unsigned(blocks > 65535 * 32 ? 65535 * 32 : blocks);
}

} // namespace graft::cuda

#endif // GRAFT_KERNELS_CUDA_COMMON_CUH
