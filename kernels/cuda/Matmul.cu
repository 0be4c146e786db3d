//===- kernels/cuda/Matmul.cu - matmul through cuBLAS -----------------------===//
//
// numpy matmul (1-D operands, broadcast batch dims) as one strided batched
// GEMM: half types accumulate in float (CUBLAS_COMPUTE_32F), float32 in
// float without TF32, float64 in double, as the CPU kernel accumulates.
// Row-major C = A·B is column-major C^T = B^T·A^T, so cuBLAS gets b first.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <cublas_v2.h>

#include <mutex>
#include <unordered_map>

namespace graft::cuda {
namespace {

const char *cublasName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  default:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  }
}

std::mutex handleMutex;
std::unordered_map<int, cublasHandle_t> handles;

/// One cuBLAS handle per device, made on first use.
cublasStatus_t handleFor(int device, cublasHandle_t &out) {
  std::lock_guard<std::mutex> lock(handleMutex);
  auto it = handles.find(device);
  if (it != handles.end()) {
    out = it->second;
    return CUBLAS_STATUS_SUCCESS;
  }
  cublasStatus_t s = cublasCreate(&out);
  if (s == CUBLAS_STATUS_SUCCESS)
    handles.emplace(device, out);
  return s;
}

struct Operand {
  int64_t rows, cols, batchStride; ///< batchStride 0: one matrix for every batch
};

int matmul(const GraftCudaKernelArgs *args, GraftCudaError *err) {
  Ctx ctx(args, "graft.matmul", err);
  if (ctx.checkArity(2, 1))
    return 1;
  const DLTensor &a = ctx.in(0), &b = ctx.in(1), &out = ctx.out(0);
  ScalarType t = scalarTypeOf(a.dtype);
  if (scalarTypeOf(b.dtype) != t)
    return ctx.fail("inputs have different dtypes " + dtypeName(a.dtype) + " and " +
                    dtypeName(b.dtype));
  if (!isFloatType(t) || scalarTypeOf(out.dtype) != t)
    return ctx.fail("on CUDA, takes float16, bfloat16, float32 or float64 with an output of the "
                    "same dtype; got " +
                    dtypeName(a.dtype) + " into " + dtypeName(out.dtype));
  if (a.ndim == 0 || b.ndim == 0)
    return ctx.fail("operands must have at least 1 dim, got shapes " + shapeStr(a) + " and " +
                    shapeStr(b));
  if (!isCompact(a) || !isCompact(b) || !isCompact(out))
    return ctx.fail("on CUDA, takes compact tensors only");
  bool aVec = a.ndim == 1, bVec = b.ndim == 1;
  int64_t m = aVec ? 1 : a.shape[a.ndim - 2], k = a.shape[a.ndim - 1];
  int64_t kb = bVec ? b.shape[0] : b.shape[b.ndim - 2], n = bVec ? 1 : b.shape[b.ndim - 1];
  if (k != kb)
    return ctx.fail("contraction dims differ: shapes " + shapeStr(a) + " and " + shapeStr(b));
  // Batch dims: broadcast, and each operand either has all of them or one
  // matrix for all (a general broadcast is not one strided batch).
  int abd = aVec ? 0 : a.ndim - 2, bbd = bVec ? 0 : b.ndim - 2;
  int bd = abd > bbd ? abd : bbd;
  std::vector<int64_t> batch(bd, 1), outShape;
  int64_t aBatch = 1, bBatch = 1, nBatch = 1;
  for (int d = 0; d < bd; ++d) {
    int64_t sa = d - (bd - abd) >= 0 ? a.shape[d - (bd - abd)] : 1;
    int64_t sb = d - (bd - bbd) >= 0 ? b.shape[d - (bd - bbd)] : 1;
    if (sa != sb && sa != 1 && sb != 1)
      return ctx.fail("cannot broadcast batch dims of shapes " + shapeStr(a) + " and " +
                      shapeStr(b));
    batch[d] = sa == 1 ? sb : sa;
    aBatch *= sa;
    bBatch *= sb;
    nBatch *= batch[d];
  }
  outShape = batch;
  if (!aVec)
    outShape.push_back(m);
  if (!bVec)
    outShape.push_back(n);
  if (shapeStr(outShape.data(), int(outShape.size())) != shapeStr(out))
    return ctx.fail("output has shape " + shapeStr(out) + " but the product has shape " +
                    shapeStr(outShape.data(), int(outShape.size())));
  if ((aBatch != 1 && aBatch != nBatch) || (bBatch != 1 && bBatch != nBatch))
    return ctx.fail("on CUDA, each operand must have every batch dim or none; got shapes " +
                    shapeStr(a) + " and " + shapeStr(b));
  if (numel(out) == 0)
    return 0;
  if (k == 0)
    return cudaMemsetAsync(dataOf(out), 0, numel(out) * (out.dtype.bits / 8), ctx.stream())
               ? ctx.fail("cudaMemsetAsync failed")
               : 0;
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || nBatch > INT32_MAX)
    return ctx.fail("a dim is beyond cuBLAS's int range");

  cublasHandle_t handle;
  if (cublasStatus_t s = handleFor(out.device.device_id, handle))
    return ctx.fail(std::string("cublasCreate: ") + cublasName(s));
  if (cublasStatus_t s = cublasSetStream(handle, ctx.stream()))
    return ctx.fail(std::string("cublasSetStream: ") + cublasName(s));
  cudaDataType_t dt = t == ScalarType::Float16    ? CUDA_R_16F
                      : t == ScalarType::BFloat16 ? CUDA_R_16BF
                      : t == ScalarType::Float32  ? CUDA_R_32F
                                                  : CUDA_R_64F;
  cublasComputeType_t ct =
      t == ScalarType::Float64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F_PEDANTIC;
  if (t == ScalarType::Float16 || t == ScalarType::BFloat16)
    ct = CUBLAS_COMPUTE_32F;
  float one = 1.0f, zero = 0.0f;
  double oneD = 1.0, zeroD = 0.0;
  const void *alpha = t == ScalarType::Float64 ? static_cast<const void *>(&oneD) : &one;
  const void *beta = t == ScalarType::Float64 ? static_cast<const void *>(&zeroD) : &zero;
  cublasStatus_t s = cublasGemmStridedBatchedEx(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), alpha, dataOf(b), dt, int(n),
      bBatch == 1 ? 0 : k * n, dataOf(a), dt, int(k), aBatch == 1 ? 0 : m * k, beta, dataOf(out),
      dt, int(n), m * n, int(nBatch), ct, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS)
    return ctx.fail(std::string("cublasGemmStridedBatchedEx: ") + cublasName(s));
  return 0;
}

const char *const kMatmulAttrs[] = {"out_dtype"};

} // namespace

void releaseMatmulResources() {
  std::lock_guard<std::mutex> lock(handleMutex);
  for (auto &entry : handles)
    cublasDestroy(entry.second);
  handles.clear();
}

void addMatmulKernels(std::vector<GraftCudaKernel> &out) {
  out.push_back({"graft.matmul", 2, 1, kMatmulAttrs, 1, matmul, nullptr});
}

} // namespace graft::cuda
