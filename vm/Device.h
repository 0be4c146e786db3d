//===- vm/Device.h - Devices and the caching allocator ---------*- C++ -*-===//
//
// A Device allocates raw blocks, copies bytes between itself and the host,
// and synchronizes. The CPU device exists now; a CUDA device will implement
// the same interface (cudaMalloc, cudaMemcpyAsync on the current stream).
//
// The CachingAllocator sits in front of one device and keeps freed blocks in
// size classes for reuse, so a VM that allocates the same tensors on every
// call stops calling the device after the first call. Its `captureOpen` flag
// refuses every request while a CUDA-graph capture is open, since an
// allocation inside a capture would be baked into the graph.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_DEVICE_H
#define GRAFT_VM_DEVICE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <dlpack/dlpack.h>

#include <cstddef>
#include <memory>

namespace graft::vm {

/// The nodes of a captured graph by kind: what each replay launches.
struct GraphNodeCounts {
  unsigned kernels = 0;
  unsigned copies = 0; ///< memcpy nodes
  unsigned sets = 0;   ///< memset nodes
  unsigned other = 0;  ///< event, host, empty and other nodes
  unsigned total() const { return kernels + copies + sets + other; }
};

class Device {
public:
  enum class Kind { CPU, CUDA };

  explicit Device(Kind kind, DLDevice dev) : kind_(kind), dev_(dev) {}
  virtual ~Device() = default;

  Kind kind() const { return kind_; }
  DLDevice dlDevice() const { return dev_; }

  virtual llvm::Expected<void *> allocate(size_t bytes, size_t alignment) = 0;
  virtual void free(void *ptr, size_t bytes) = 0;
  /// Copies `bytes` from `src` on `srcDev` to `dst` on `dstDev`; one of the
  /// two is this device, the other this device or the host.
  virtual llvm::Error copy(void *dst, DLDevice dstDev, const void *src, DLDevice srcDev,
                           size_t bytes) = 0;
  virtual llvm::Error synchronize() = 0;

  /// CUDA graphs (vm/CudaGraph.h): a device that can record the work it is
  /// given into a graph and replay it. The CPU cannot, so the graph
  /// builtins run every region eagerly there; a test device may fake it.
  virtual bool canCaptureGraphs() const { return false; }
  virtual llvm::Error beginCapture();
  /// Ends the capture and instantiates the graph; on failure nothing of the
  /// capture is left and the device is out of capture mode.
  virtual llvm::Expected<void *> endCapture();
  /// The nodes of the graph the last successful endCapture made; all zero
  /// where the device does not count them.
  virtual GraphNodeCounts capturedNodes() const { return {}; }
  virtual llvm::Error launchGraph(void *graph);
  virtual void destroyGraph(void *graph) {}
  /// How often the host has waited for this device so far
  /// (graft run --profile).
  virtual uint64_t hostSyncs() const { return 0; }

private:
  Kind kind_;
  DLDevice dev_;
};

class CPUDevice final : public Device {
public:
  CPUDevice() : Device(Kind::CPU, DLDevice{kDLCPU, 0}) {}
  static bool classof(const Device *d) { return d->kind() == Kind::CPU; }

  llvm::Expected<void *> allocate(size_t bytes, size_t alignment) override;
  void free(void *ptr, size_t bytes) override;
  llvm::Error copy(void *dst, DLDevice dstDev, const void *src, DLDevice srcDev,
                   size_t bytes) override;
  llvm::Error synchronize() override { return llvm::Error::success(); }
};

/// The process-wide CPU device.
std::shared_ptr<Device> cpuDevice();

struct AllocatorStats {
  uint64_t currentBytes = 0; ///< Bytes handed out and not yet freed.
  uint64_t peakBytes = 0;    ///< Maximum of currentBytes.
  uint64_t cachedBytes = 0;  ///< Freed blocks kept for reuse.
  uint64_t deviceAllocs = 0; ///< Calls that reached the device.
  uint64_t cacheHits = 0;    ///< Requests served from the cache.
};

class CachingAllocator {
public:
  /// Every block is aligned to this many bytes (DLPack asks for 64 or more
  /// for vectorized kernels; CUDA gives 256).
  static constexpr size_t kAlignment = 64;

  explicit CachingAllocator(std::shared_ptr<Device> device) : device_(std::move(device)) {}
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  /// A block of at least `bytes` bytes. Refused while a capture is open.
  llvm::Expected<void *> allocate(size_t bytes);
  /// Returns a block obtained from allocate(bytes) with the same `bytes`.
  void free(void *ptr, size_t bytes);
  /// Gives every cached block back to the device.
  void releaseCache();

  /// The size class a request of `bytes` is served from: multiples of 64
  /// up to 4 KiB, then four classes per power of two (at most 25% waste).
  static size_t sizeClass(size_t bytes);

  /// Bytes this allocator may have handed out at once (in size classes);
  /// a request past it fails. 0: no limit (VMOptions::maxMemoryBytes).
  void setLimit(uint64_t bytes) { limit_ = bytes; }
  uint64_t limit() const { return limit_; }

  void setCaptureOpen(bool open) { captureOpen_ = open; }
  bool captureOpen() const { return captureOpen_; }

  const AllocatorStats &stats() const { return stats_; }
  Device &device() const { return *device_; }
  DLDevice dlDevice() const { return device_->dlDevice(); }

private:
  std::shared_ptr<Device> device_;
  llvm::DenseMap<size_t, llvm::SmallVector<void *, 4>> freeBlocks_;
  AllocatorStats stats_;
  uint64_t limit_ = 0;
  bool captureOpen_ = false;
};

} // namespace graft::vm

#endif // GRAFT_VM_DEVICE_H
