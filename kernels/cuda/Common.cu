//===- kernels/cuda/Common.cu - Argument checks of the CUDA kernels ---------===//

#include "kernels/cuda/Common.cuh"

#include <atomic>
#include <cstdarg>

namespace graft::cuda {

std::string dtypeName(DLDataType t) {
  switch (scalarTypeOf(t)) {
  case ScalarType::Bool:
    return "bool";
  case ScalarType::Float16:
    return "float16";
  case ScalarType::BFloat16:
    return "bfloat16";
  default:
    break;
  }
  const char *base = t.code == kDLInt     ? "int"
                     : t.code == kDLUInt  ? "uint"
                     : t.code == kDLFloat ? "float"
                                          : "dtype";
  std::string s = base + std::to_string(t.bits);
  if (t.lanes != 1)
    s += "x" + std::to_string(t.lanes);
  return s;
}

std::string shapeStr(const int64_t *shape, int ndim) {
  std::string s = "[";
  for (int i = 0; i < ndim; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t numel(const DLTensor &t) {
  int64_t n = 1;
  for (int i = 0; i < t.ndim; ++i)
    n *= t.shape[i];
  return n;
}

void elementStrides(const DLTensor &t, int64_t *strides) {
  int64_t s = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    strides[d] = t.strides ? t.strides[d] : s;
    s *= t.shape[d];
  }
}

bool isCompact(const DLTensor &t) {
  if (!t.strides)
    return true;
  int64_t s = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != 1 && t.strides[d] != s)
      return false;
    s *= t.shape[d];
  }
  return true;
}

int Ctx::fail(const std::string &message) {
  std::snprintf(err_->message, sizeof err_->message, "%s: %s", symbol_, message.c_str());
  return 1;
}

int Ctx::failWith(const std::string &message) {
  std::snprintf(err_->message, sizeof err_->message, "%s", message.c_str());
  return 1;
}

int Ctx::failCuda(const char *call, cudaError_t e) {
  return fail(std::string(call) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

int Ctx::checkLaunch(const char *kernelName) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    return 0;
  return failCuda((std::string("launch of ") + kernelName).c_str(), e);
}

namespace {
std::atomic<uint64_t> hostSyncCount{0};
} // namespace

void noteHostSync() { hostSyncCount.fetch_add(1, std::memory_order_relaxed); }
uint64_t hostSyncs() { return hostSyncCount.load(std::memory_order_relaxed); }

int Ctx::hostRead(const char *what) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaError_t e = cudaStreamIsCapturing(stream(), &status))
    return failCuda("cudaStreamIsCapturing", e);
  if (status != cudaStreamCaptureStatusNone)
    return fail(std::string("host read of ") + what +
                " refused while a CUDA-graph capture is open");
  noteHostSync();
  return 0;
}

static bool onDevice(const DLTensor &t) {
  return t.device.device_type == kDLCUDA || t.device.device_type == kDLCUDAManaged;
}

int Ctx::checkArity(int inputs, int outputs) {
  if (inputs >= 0 && args_.numInputs != inputs)
    return fail("expects " + std::to_string(inputs) + " inputs but got " +
                std::to_string(args_.numInputs));
  if (outputs >= 0 && args_.numOutputs != outputs)
    return fail("expects " + std::to_string(outputs) + " outputs but got " +
                std::to_string(args_.numOutputs));
  for (int i = 0; i < args_.numInputs; ++i) {
    if (!onDevice(in(i)))
      return fail("input " + std::to_string(i) + " is not in CUDA device memory");
    if (int rc = checkRank(in(i), "input"))
      return rc;
  }
  for (int i = 0; i < args_.numOutputs; ++i) {
    if (!onDevice(out(i)))
      return fail("output " + std::to_string(i) + " is not in CUDA device memory");
    if (int rc = checkRank(out(i), "output"))
      return rc;
  }
  return 0;
}

int Ctx::checkRank(const DLTensor &t, const char *role) {
  if (t.ndim > kMaxDims)
    return fail(std::string(role) + " has " + std::to_string(t.ndim) +
                " dims; the CUDA kernels take at most " + std::to_string(kMaxDims));
  if (scalarTypeOf(t.dtype) == ScalarType::Invalid)
    return fail(std::string(role) + " has unsupported dtype " + dtypeName(t.dtype));
  return 0;
}

bool Ctx::intAttr(int i, const char *name, int64_t dflt, int64_t &out) {
  out = dflt;
  if (!hasAttr(i))
    return true;
  const GraftCudaAttr &a = attr(i);
  if (a.kind == GRAFT_CUDA_ATTR_INT || a.kind == GRAFT_CUDA_ATTR_BOOL) {
    out = a.i;
    return true;
  }
  fail(std::string("attribute '") + name + "' must be an integer");
  return false;
}

bool Ctx::floatAttr(int i, const char *name, double dflt, double &out) {
  out = dflt;
  if (!hasAttr(i))
    return true;
  const GraftCudaAttr &a = attr(i);
  if (a.kind == GRAFT_CUDA_ATTR_FLOAT) {
    out = a.f;
    return true;
  }
  if (a.kind == GRAFT_CUDA_ATTR_INT) {
    out = double(a.i);
    return true;
  }
  fail(std::string("attribute '") + name + "' must be a number");
  return false;
}

bool Ctx::boolAttr(int i, const char *name, bool dflt, bool &out) {
  out = dflt;
  if (!hasAttr(i))
    return true;
  const GraftCudaAttr &a = attr(i);
  if (a.kind == GRAFT_CUDA_ATTR_BOOL || a.kind == GRAFT_CUDA_ATTR_INT) {
    out = a.i != 0;
    return true;
  }
  fail(std::string("attribute '") + name + "' must be a bool");
  return false;
}

bool Ctx::intsAttr(int i, const char *name, std::vector<int64_t> &out, bool &set) {
  out.clear();
  set = hasAttr(i);
  if (!set)
    return true;
  const GraftCudaAttr &a = attr(i);
  if (a.kind == GRAFT_CUDA_ATTR_INT) {
    out.push_back(a.i);
    return true;
  }
  if (a.kind == GRAFT_CUDA_ATTR_INTS) {
    out.assign(a.ints, a.ints + a.numInts);
    return true;
  }
  fail(std::string("attribute '") + name + "' must be an integer list");
  return false;
}

bool broadcastTo(Ctx &ctx, const DLTensor &out, const DLTensor *const *ops, int nops, int &ndim,
                 int64_t *shape, int64_t (*strides)[kMaxDims], bool exact) {
  // The broadcast shape of the inputs must be the output's shape exactly
  // (or, not exact, broadcast to it: the output joins the broadcast).
  const DLTensor *all[kMaxDims + 1];
  for (int k = 0; k < nops; ++k)
    all[k] = ops[k];
  if (!exact)
    all[nops++] = &out;
  ops = all;
  int bnd = 0;
  for (int k = 0; k < nops; ++k)
    bnd = ops[k]->ndim > bnd ? ops[k]->ndim : bnd;
  int64_t bshape[kMaxDims];
  for (int d = 0; d < bnd; ++d) {
    int64_t size = 1;
    for (int k = 0; k < nops; ++k) {
      int off = bnd - ops[k]->ndim;
      if (d < off)
        continue;
      int64_t s = ops[k]->shape[d - off];
      if (s == 1 || s == size)
        continue;
      if (size != 1) {
        std::string shapes;
        for (int j = 0; j < nops; ++j)
          shapes += (j ? " and " : "") + shapeStr(*ops[j]);
        ctx.fail("cannot broadcast shapes " + shapes);
        return false;
      }
      size = s;
    }
    bshape[d] = size;
  }
  bool same = bnd == out.ndim;
  for (int d = 0; same && d < bnd; ++d)
    same = bshape[d] == out.shape[d];
  if (!same) {
    ctx.fail("output has shape " + shapeStr(out) + " but the inputs broadcast to " +
             shapeStr(bshape, bnd));
    return false;
  }
  ndim = out.ndim;
  for (int d = 0; d < ndim; ++d)
    shape[d] = out.shape[d];
  elementStrides(out, strides[0]);
  if (!exact)
    --nops;
  for (int k = 0; k < nops; ++k) {
    int64_t own[kMaxDims];
    elementStrides(*ops[k], own);
    int off = ndim - ops[k]->ndim;
    for (int d = 0; d < ndim; ++d)
      strides[k + 1][d] = d < off || ops[k]->shape[d - off] == 1 ? 0 : own[d - off];
  }
  return true;
}

} // namespace graft::cuda
