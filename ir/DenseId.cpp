//===- ir/DenseId.cpp - Handing out and recycling dense ids -----------------===//
//
// The free numbers of a thread live in a thread-local stack (no lock, no
// atomic on the common path). When a thread ends, its stack joins a shared
// pool that threads draw from once their own stack is empty, so the numbers
// a short-lived thread freed are not lost.
//
//===----------------------------------------------------------------------===//

#include "ir/DenseId.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>

using namespace graft;

namespace {

std::atomic<uint32_t> nextFresh{0};

struct SharedPool {
  std::mutex lock;
  std::vector<uint32_t> ids;
  std::atomic<bool> nonEmpty{false};
};

SharedPool &sharedPool() {
  // Never destroyed: threads may end after static destruction has begun.
  static SharedPool *pool = new SharedPool;
  return *pool;
}

/// The calling thread's free numbers. A plain pointer (trivially
/// destructible) so that it stays readable while the thread's other
/// thread-locals are destroyed; LocalOwner hands the numbers to the shared
/// pool when the thread ends, and later releases go straight to the pool.
thread_local std::vector<uint32_t> *localIds = nullptr;
thread_local bool localEnded = false;

struct LocalOwner {
  ~LocalOwner() {
    SharedPool &pool = sharedPool();
    std::lock_guard<std::mutex> guard(pool.lock);
    pool.ids.insert(pool.ids.end(), localIds->begin(), localIds->end());
    pool.nonEmpty.store(!pool.ids.empty(), std::memory_order_relaxed);
    delete localIds;
    localIds = nullptr;
    localEnded = true;
  }
};
thread_local LocalOwner localOwner;

/// The calling thread's list, or null once the thread is ending.
std::vector<uint32_t> *localList() {
  if (!localIds && !localEnded) {
    localIds = new std::vector<uint32_t>();
    (void)&localOwner; // Registers the owner's destructor for this thread.
  }
  return localIds;
}

uint32_t fromPoolOrFresh() {
  SharedPool &pool = sharedPool();
  if (pool.nonEmpty.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> guard(pool.lock);
    if (!pool.ids.empty()) {
      uint32_t id = pool.ids.back();
      pool.ids.pop_back();
      pool.nonEmpty.store(!pool.ids.empty(), std::memory_order_relaxed);
      return id;
    }
  }
  uint32_t id = nextFresh.fetch_add(1, std::memory_order_relaxed);
  if (id == std::numeric_limits<uint32_t>::max())
    llvm::report_fatal_error("more than 2^32 - 1 vars alive at once");
  return id;
}

/// Numbers the calling thread freed since its list was last put in order.
thread_local size_t localUnordered = 0;

/// Puts `ids` in descending order, so that the next numbers handed out
/// are the lowest free ones, ascending. A module freed and another parsed
/// after it would otherwise give the new vars the old ones' numbers last
/// freed first: descending in binding order, so every walk indexing a
/// DenseIdMap by them read its pages backwards (canonicalize-bindings at
/// 200k bindings took 18% longer after a 100k module died than in a fresh
/// process, docs/performance.md). The numbers are distinct and below
/// DenseId::limit(), so a bit per number orders them in linear time.
void orderDescending(std::vector<uint32_t> &ids) {
  uint32_t top = *std::max_element(ids.begin(), ids.end());
  std::vector<uint64_t> bits(top / 64 + 1, 0);
  for (uint32_t id : ids)
    bits[id / 64] |= uint64_t(1) << (id % 64);
  size_t out = 0;
  for (size_t w = bits.size(); w-- > 0;)
    for (uint64_t word = bits[w]; word;) {
      unsigned bit = 63 - static_cast<unsigned>(__builtin_clzll(word));
      ids[out++] = static_cast<uint32_t>(w * 64 + bit);
      word &= ~(uint64_t(1) << bit);
    }
}

} // namespace

uint32_t DenseId::acquire() {
  std::vector<uint32_t> *ids = localList();
  if (!ids || ids->empty())
    return fromPoolOrFresh();
  // Ordering costs a pass over the list, so only once the numbers freed
  // since the last ordering are a good part of it (amortized O(1) each);
  // small lists are not worth it.
  if (localUnordered >= 256 && localUnordered * 8 >= ids->size()) {
    orderDescending(*ids);
    localUnordered = 0;
  }
  uint32_t id = ids->back();
  ids->pop_back();
  return id;
}

void DenseId::release(uint32_t id) {
  if (std::vector<uint32_t> *ids = localList()) {
    ids->push_back(id);
    ++localUnordered;
    return;
  }
  SharedPool &pool = sharedPool();
  std::lock_guard<std::mutex> guard(pool.lock);
  pool.ids.push_back(id);
  pool.nonEmpty.store(true, std::memory_order_relaxed);
}

uint32_t DenseId::limit() { return nextFresh.load(std::memory_order_relaxed); }
