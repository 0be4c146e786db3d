//===- ir/NodeMemory.cpp - Chunks of node memory ----------------------------===//
//
// A chunk starts with its Chunk record, aligned to kNodeChunkBytes, so a node
// finds its chunk by rounding its address down. `live` counts the chunk's
// nodes not yet freed plus, while a thread still bumps into the chunk, a
// large bias; that thread counts what it hands out without atomics and
// takes the bias off (less that count) when it moves to the next chunk. So
// the count reaches zero exactly once: when the chunk is closed and its last
// node has died, whichever comes later.
//
// A node too large to leave most of a chunk for others gets a block of its
// own, laid out the same way (its record says so), given back when it dies.
//
//===----------------------------------------------------------------------===//

#include "ir/NodeMemory.h"

#include "ir/HugePages.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <new>
#include <queue>
#include <utility>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_NODE_MEMORY_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GRAFT_NODE_MEMORY_ASAN 1
#endif

#ifdef GRAFT_NODE_MEMORY_ASAN
#include <sanitizer/asan_interface.h>
#define GRAFT_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define GRAFT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define GRAFT_POISON(p, n) ((void)(p), (void)(n))
#define GRAFT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#if defined(__linux__) && !defined(GRAFT_NODE_MEMORY_ASAN)
#include <sys/mman.h>
#define GRAFT_NODE_MEMORY_SLABS 1
#endif

using namespace graft;

namespace {

struct Chunk {
  std::atomic<uint64_t> live;
  /// A block of one large node, freed with it rather than cached.
  bool dedicated;
};

/// Nodes start one cache line into the chunk.
constexpr size_t kHeaderBytes = 64;
static_assert(sizeof(Chunk) <= kHeaderBytes);
static_assert((kNodeChunkBytes & (kNodeChunkBytes - 1)) == 0, "a power of two");
/// Beyond this, a node gets a block of its own.
constexpr size_t kLargeBytes = kNodeChunkBytes / 4;
/// Added to an open chunk's count; larger than any number of nodes in it.
constexpr uint64_t kOpenBias = uint64_t(1) << 40;
/// Empty chunks a thread keeps for its next ones (recently used, so cached).
constexpr unsigned kSpareChunks = 8;

constexpr size_t roundUp(size_t n, size_t to) { return (n + to - 1) & ~(to - 1); }

Chunk *newBlock(size_t bytes, bool dedicated) {
  void *mem = std::aligned_alloc(kNodeChunkBytes, bytes);
  if (!mem)
    throw std::bad_alloc();
  return ::new (mem) Chunk{{0}, dedicated};
}

void freeBlock(Chunk *c) {
  // Its nodes' bytes may still be poisoned; malloc's own bookkeeping must not
  // trip over that.
  GRAFT_UNPOISON(c, c->dedicated ? kHeaderBytes : kNodeChunkBytes);
  c->~Chunk();
  std::free(c);
}

#ifdef GRAFT_NODE_MEMORY_SLABS
/// Chunks come from 2 MiB slabs mapped on huge pages where the kernel allows
/// (a walk of a large function then misses the TLB once per 2 MiB, not per
/// 4 KiB); a slab is never unmapped: empty chunks return to a shared pool,
/// so the process keeps the most node memory it ever held. The pool hands
/// out its lowest chunk first, so that a function parsed after a larger
/// one died still lies in ascending order: taken last-freed-first, the
/// chunks of a 200k-binding function parsed after a 100k one came in
/// descending order, and canonicalize-bindings on it took 18% longer than
/// on the same function parsed into fresh slabs. (aligned_alloc of a chunk would also leave a
/// chunk-sized gap before each one.) Sanitizer builds take chunks from malloc instead, so that
/// LeakSanitizer scans them for pointers.
constexpr size_t kSlabBytes = size_t(2) << 20;
static_assert(kSlabBytes % kNodeChunkBytes == 0);

struct ChunkPool {
  std::mutex lock;
  size_t mapped = 0; ///< Chunks in all slabs.
  /// Lowest address on top.
  std::priority_queue<Chunk *, std::vector<Chunk *>, std::greater<Chunk *>> empty;
};

ChunkPool &chunkPool() {
  // Never destroyed: nodes may die during static destruction.
  static ChunkPool *pool = new ChunkPool;
  return *pool;
}

template <typename Queue> void mapSlab(Queue &into) {
  // Twice the size, then the unaligned ends cut off.
  void *raw =
      mmap(nullptr, 2 * kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (begin + kSlabBytes - 1) & ~(kSlabBytes - 1);
  if (aligned > begin)
    munmap(raw, aligned - begin);
  if (uintptr_t tail = begin + 2 * kSlabBytes - (aligned + kSlabBytes))
    munmap(reinterpret_cast<void *>(aligned + kSlabBytes), tail);
  char *slab = reinterpret_cast<char *>(aligned);
  adviseHugePages(slab, kSlabBytes);
  chunkPool().mapped += kSlabBytes / kNodeChunkBytes;
  for (size_t off = 0; off < kSlabBytes; off += kNodeChunkBytes)
    into.push(reinterpret_cast<Chunk *>(slab + off));
}

Chunk *newChunk() {
  ChunkPool &pool = chunkPool();
  std::lock_guard<std::mutex> guard(pool.lock);
  if (pool.empty.empty())
    mapSlab(pool.empty);
  Chunk *c = pool.empty.top();
  pool.empty.pop();
  return ::new (c) Chunk{{0}, false};
}

void freeChunk(Chunk *c) {
  c->~Chunk();
  ChunkPool &pool = chunkPool();
  std::lock_guard<std::mutex> guard(pool.lock);
  pool.empty.push(c);
}
size_t chunksHeld() {
  ChunkPool &pool = chunkPool();
  std::lock_guard<std::mutex> guard(pool.lock);
  return pool.mapped - pool.empty.size();
}
#else
size_t chunksHeld() { return 0; }
Chunk *newChunk() { return newBlock(kNodeChunkBytes, false); }
void freeChunk(Chunk *c) { freeBlock(c); }
#endif

char *payload(Chunk *c) { return reinterpret_cast<char *>(c) + kHeaderBytes; }

/// The calling thread's open chunk and its empty spares.
struct ThreadChunks {
  Chunk *open = nullptr;
  char *next = nullptr, *end = nullptr;
  uint64_t handedOut = 0;
  Chunk *spares[kSpareChunks];
  unsigned numSpares = 0;

  ~ThreadChunks();
  void close();
  void openFresh();
  void *allocate(size_t bytes);
  /// Takes an empty chunk as a spare; false when full (the caller frees it).
  bool keep(Chunk *c);
};

thread_local ThreadChunks threadChunks;
/// Set once this thread's ThreadChunks is destroyed; nodes freed later (by
/// static destructors, say) give their chunks straight back to malloc.
/// Trivially destructible, so it stays readable until the thread is gone.
thread_local bool threadChunksEnded = false;

void releaseIfDead(Chunk *c, uint64_t drop) {
  if (c->live.fetch_sub(drop, std::memory_order_acq_rel) != drop)
    return;
  if (c->dedicated)
    freeBlock(c);
  else if (threadChunksEnded || !threadChunks.keep(c))
    freeChunk(c);
}

void ThreadChunks::close() {
  if (!open)
    return;
  Chunk *c = std::exchange(open, nullptr);
  next = end = nullptr;
  releaseIfDead(c, kOpenBias - std::exchange(handedOut, 0));
}

void ThreadChunks::openFresh() {
  close();
  Chunk *c = numSpares ? spares[--numSpares] : newChunk();
  c->live.store(kOpenBias, std::memory_order_relaxed);
  GRAFT_POISON(payload(c), kNodeChunkBytes - kHeaderBytes);
  open = c;
  next = payload(c);
  end = reinterpret_cast<char *>(c) + kNodeChunkBytes;
}

void *ThreadChunks::allocate(size_t bytes) {
  if (static_cast<size_t>(end - next) < bytes)
    openFresh();
  char *p = next;
  next += bytes;
  ++handedOut;
  GRAFT_UNPOISON(p, bytes);
  return p;
}

bool ThreadChunks::keep(Chunk *c) {
  if (numSpares == kSpareChunks)
    return false;
  GRAFT_POISON(payload(c), kNodeChunkBytes - kHeaderBytes);
  spares[numSpares++] = c;
  return true;
}

ThreadChunks::~ThreadChunks() {
  threadChunksEnded = true;
  close();
  while (numSpares)
    freeChunk(spares[--numSpares]);
}

Chunk *chunkOf(void *node) {
  return reinterpret_cast<Chunk *>(reinterpret_cast<uintptr_t>(node) & ~(kNodeChunkBytes - 1));
}

} // namespace

void *graft::allocateNodeMemory(size_t bytes) {
  bytes = roundUp(bytes ? bytes : 1, kNodeAlign);
  if (bytes > kLargeBytes || threadChunksEnded) {
    Chunk *c = newBlock(roundUp(kHeaderBytes + bytes, kNodeChunkBytes), true);
    c->live.store(1, std::memory_order_relaxed);
    return payload(c);
  }
  return threadChunks.allocate(bytes);
}

void graft::freeNodeMemory(void *node, size_t bytes) {
  GRAFT_POISON(node, bytes);
  (void)bytes;
  releaseIfDead(chunkOf(node), 1);
}

size_t graft::nodeMemoryHeld() { return chunksHeld() * kNodeChunkBytes; }
