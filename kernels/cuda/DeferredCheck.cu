//===- kernels/cuda/DeferredCheck.cu - Index checks read at the next sync -===//
//
// A kernel that must fail on an out-of-range index (scatter_elements) used
// to read its check back at the end of every call: a copy to the host and a
// stream synchronization, a round trip that cost more than the work of a
// small call. Instead, each call takes a record from a ring in device
// memory (a BadIndexRecord, zeroed), its kernel fills it, and the module
// reads the records back at its next synchronization point: synchronize()
// and the copies to or from the host, which wait for the stream anyway
// (Module.cu). The first call, in call order, whose record holds a bad
// index fails that synchronization with the message the call would have
// given. When every record is in use, the call that needs one reads them
// back first (one synchronization per kRecords calls).
//
// One ring per device. Records are handed out in call order from the start
// of the ring and all read back at once, so the ring restarts from its
// start after each read. The read is queued on the synchronizing stream
// (a copy into pinned memory, then a zeroing memset); calls made on another
// stream since the last read are waited for with cudaDeviceSynchronize
// first.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <mutex>

namespace graft::cuda {
namespace {

constexpr size_t kRecords = 1024;

struct Outstanding {
  cudaStream_t stream;
  std::string message; ///< "<symbol>: index ", the value goes after it.
  std::string tail;
};

struct Ring {
  BadIndexRecord *device = nullptr; ///< kRecords, zeroed when handed out.
  BadIndexRecord *host = nullptr;   ///< Pinned: where a read lands.
  std::vector<Outstanding> taken;   ///< Record i went to call taken[i].
};

class DeferredChecks {
public:
  static DeferredChecks &instance() {
    static DeferredChecks checks;
    return checks;
  }

  int take(Ctx &ctx, const std::string &tail, BadIndexRecord *&record) {
    record = nullptr;
    cudaStream_t s = ctx.stream();
    if (streamCapturing(s))
      return 0;
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device))
      return ctx.failCuda("cudaGetDevice", e);
    std::lock_guard<std::mutex> lock(mutex_);
    if (rings_.size() <= size_t(device))
      rings_.resize(device + 1);
    Ring &r = rings_[device];
    if (!r.device) {
      cudaError_t e = cudaMalloc(&r.device, kRecords * sizeof(BadIndexRecord));
      if (!e)
        e = cudaHostAlloc(&r.host, kRecords * sizeof(BadIndexRecord), cudaHostAllocDefault);
      if (!e)
        e = cudaMemsetAsync(r.device, 0, kRecords * sizeof(BadIndexRecord), s);
      if (!e)
        e = cudaStreamSynchronize(s);
      if (e) {
        freeRing(r);
        return ctx.failCuda("allocating the index-check records", e);
      }
    }
    if (r.taken.size() == kRecords) {
      std::string message;
      if (cudaError_t e = readBack(r, s, message))
        return ctx.failCuda("reading the index checks back", e);
      if (!message.empty())
        return ctx.failWith(message);
    }
    record = r.device + r.taken.size();
    r.taken.push_back({s, std::string(ctx.symbol()) + ": index ", tail});
    return 0;
  }

  int report(int device, cudaStream_t s, GraftCudaError *err) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (rings_.size() <= size_t(device) || rings_[device].taken.empty())
      return 0;
    std::string message;
    if (cudaError_t e = readBack(rings_[device], s, message)) {
      std::snprintf(err->message, sizeof err->message, "reading the index checks back: %s (%s)",
                    cudaGetErrorName(e), cudaGetErrorString(e));
      return 1;
    }
    if (message.empty())
      return 0;
    std::snprintf(err->message, sizeof err->message, "%s", message.c_str());
    return 1;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Ring &r : rings_)
      freeRing(r);
  }

private:
  /// Reads every taken record on `s`, zeroes them and hands the ring back
  /// from its start; `message` is the first failing call's error, or empty.
  cudaError_t readBack(Ring &r, cudaStream_t s, std::string &message) {
    size_t n = r.taken.size();
    bool otherStream = false;
    for (const Outstanding &o : r.taken)
      otherStream |= o.stream != s;
    if (otherStream) // Its stream may be gone by now: wait for the device.
      if (cudaError_t e = cudaDeviceSynchronize())
        return e;
    noteHostSync();
    size_t bytes = n * sizeof(BadIndexRecord);
    cudaError_t e = cudaMemcpyAsync(r.host, r.device, bytes, cudaMemcpyDeviceToHost, s);
    if (!e)
      e = cudaMemsetAsync(r.device, 0, bytes, s);
    if (!e)
      e = cudaStreamSynchronize(s);
    if (e)
      return e;
    for (size_t i = 0; i < n && message.empty(); ++i)
      if (r.host[i].key)
        message = r.taken[i].message + std::to_string(r.host[i].value) + r.taken[i].tail;
    r.taken.clear();
    return cudaSuccess;
  }

  static void freeRing(Ring &r) {
    if (r.device)
      cudaFree(r.device);
    if (r.host)
      cudaFreeHost(r.host);
    r = Ring{};
  }

  std::mutex mutex_;
  std::vector<Ring> rings_;
};

} // namespace

int takeBadIndexRecord(Ctx &ctx, const std::string &tail, BadIndexRecord *&record) {
  return DeferredChecks::instance().take(ctx, tail, record);
}

int reportDeferredChecks(int device, cudaStream_t stream, GraftCudaError *err) {
  return DeferredChecks::instance().report(device, stream, err);
}

void releaseDeferredChecks() { DeferredChecks::instance().release(); }

} // namespace graft::cuda
