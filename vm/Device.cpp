//===- vm/Device.cpp - CPU device and caching allocator --------------------===//

#include "vm/Device.h"
#include "vm/Value.h"

#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <cstring>

using namespace graft::vm;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

llvm::Expected<void *> CPUDevice::allocate(size_t bytes, size_t alignment) {
  // aligned_alloc wants a size that is a multiple of the alignment, and a
  // zero-byte tensor still needs a distinct non-null pointer.
  size_t rounded = llvm::alignTo(bytes == 0 ? 1 : bytes, alignment);
  if (rounded < bytes)
    return createStringError(inconvertibleErrorCode(), "cpu: allocation of %zu bytes overflows",
                             bytes);
  void *p = std::aligned_alloc(alignment, rounded);
  if (!p)
    return createStringError(inconvertibleErrorCode(), "cpu: out of memory allocating %zu bytes",
                             bytes);
  return p;
}

void CPUDevice::free(void *ptr, size_t) { std::free(ptr); }

llvm::Error CPUDevice::copy(void *dst, DLDevice dstDev, const void *src, DLDevice srcDev,
                            size_t bytes) {
  if (dstDev.device_type != kDLCPU || srcDev.device_type != kDLCPU)
    return createStringError(inconvertibleErrorCode(), "cpu device cannot copy from %s to %s",
                             deviceStr(srcDev).c_str(), deviceStr(dstDev).c_str());
  if (bytes)
    std::memmove(dst, src, bytes);
  return llvm::Error::success();
}

static llvm::Error noGraphs(const Device &d) {
  return createStringError(inconvertibleErrorCode(), "%s cannot capture CUDA graphs",
                           deviceStr(d.dlDevice()).c_str());
}

llvm::Error Device::beginCapture() { return noGraphs(*this); }
llvm::Expected<void *> Device::endCapture() { return noGraphs(*this); }
llvm::Error Device::launchGraph(void *) { return noGraphs(*this); }

std::shared_ptr<Device> graft::vm::cpuDevice() {
  static std::shared_ptr<Device> dev = std::make_shared<CPUDevice>();
  return dev;
}

CachingAllocator::~CachingAllocator() { releaseCache(); }

size_t CachingAllocator::sizeClass(size_t bytes) {
  if (bytes <= 4096)
    return llvm::alignTo(bytes == 0 ? 1 : bytes, 64);
  // Quarter steps of the power of two just below: 4K, 5K, 6K, 7K, 8K, 10K...
  unsigned log = llvm::Log2_64(bytes);
  size_t step = size_t(1) << (log - 2);
  size_t rounded = llvm::alignTo(bytes, step);
  return rounded < bytes ? bytes : rounded;
}

llvm::Expected<void *> CachingAllocator::allocate(size_t bytes) {
  if (captureOpen_)
    return createStringError(inconvertibleErrorCode(),
                             "allocation of %zu bytes on %s refused: a CUDA-graph capture is open",
                             bytes, deviceStr(dlDevice()).c_str());
  if (limit_ && (bytes > limit_ || sizeClass(bytes) > limit_ - stats_.currentBytes))
    return createStringError(inconvertibleErrorCode(),
                             "allocation of %zu bytes on %s refused: %llu of the limit of %llu "
                             "bytes are in use (VMOptions::maxMemoryBytes)",
                             bytes, deviceStr(dlDevice()).c_str(),
                             static_cast<unsigned long long>(stats_.currentBytes),
                             static_cast<unsigned long long>(limit_));
  size_t cls = sizeClass(bytes);
  auto it = freeBlocks_.find(cls);
  void *p = nullptr;
  if (it != freeBlocks_.end() && !it->second.empty()) {
    p = it->second.pop_back_val();
    stats_.cachedBytes -= cls;
    ++stats_.cacheHits;
  } else {
    auto fresh = device_->allocate(cls, kAlignment);
    if (!fresh) {
      // Out of memory: give the cache back and try once more.
      llvm::consumeError(fresh.takeError());
      releaseCache();
      fresh = device_->allocate(cls, kAlignment);
      if (!fresh)
        return fresh.takeError();
    }
    p = *fresh;
    ++stats_.deviceAllocs;
  }
  stats_.currentBytes += cls;
  if (stats_.currentBytes > stats_.peakBytes)
    stats_.peakBytes = stats_.currentBytes;
  return p;
}

void CachingAllocator::free(void *ptr, size_t bytes) {
  if (!ptr)
    return;
  size_t cls = sizeClass(bytes);
  freeBlocks_[cls].push_back(ptr);
  stats_.currentBytes -= cls;
  stats_.cachedBytes += cls;
}

void CachingAllocator::releaseCache() {
  for (auto &entry : freeBlocks_)
    for (void *p : entry.second)
      device_->free(p, entry.first);
  freeBlocks_.clear();
  stats_.cachedBytes = 0;
}
