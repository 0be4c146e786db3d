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

} // namespace

uint32_t DenseId::acquire() {
  std::vector<uint32_t> *ids = localList();
  if (!ids || ids->empty())
    return fromPoolOrFresh();
  uint32_t id = ids->back();
  ids->pop_back();
  return id;
}

void DenseId::release(uint32_t id) {
  if (std::vector<uint32_t> *ids = localList()) {
    ids->push_back(id);
    return;
  }
  SharedPool &pool = sharedPool();
  std::lock_guard<std::mutex> guard(pool.lock);
  pool.ids.push_back(id);
  pool.nonEmpty.store(true, std::memory_order_relaxed);
}

uint32_t DenseId::limit() { return nextFresh.load(std::memory_order_relaxed); }
