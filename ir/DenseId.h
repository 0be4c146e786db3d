//===- ir/DenseId.h - Dense numbers for var nodes and side tables -*- C++ -*-===//
//
// Walks over a 200k-binding function (verifier, printer, structural equality
// and hash) keep per-var data. Keyed by node pointer, that data lives in hash
// tables of several megabytes, probed at random: at 200k bindings they no
// longer fit the caches and TLB as they do at 100k, and each lookup costs
// more (docs/performance.md). Instead every Relax var and TIR var carries a
// DenseId, a small number unique among the live nodes that hold one, and the
// walks index DenseIdMap tables by it: a few bytes per var, laid out in
// creation order, so a walk over bindings in text order touches them almost
// sequentially.
//
// Numbers are recycled when their node dies, so they stay below the largest
// number of such nodes alive at once, not the number ever created. The free
// list is per thread (a node may die on another thread than it was made on:
// its number simply moves to that thread's list), and fresh numbers come
// from one atomic counter, so no two live nodes share a number.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_DENSEID_H
#define GRAFT_IR_DENSEID_H

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace graft {

/// A member of a node class: takes a number when the node is made, gives it
/// back when the node dies.
class DenseId {
public:
  DenseId() : value_(acquire()) {}
  ~DenseId() { release(value_); }
  DenseId(const DenseId &) = delete;
  DenseId &operator=(const DenseId &) = delete;

  uint32_t get() const { return value_; }
  operator uint32_t() const { return value_; }

  /// A bound on every number handed out so far (numbers are below it).
  static uint32_t limit();

private:
  static uint32_t acquire();
  static void release(uint32_t id);

  uint32_t value_;
};

/// Data per DenseId for one walk. Absent entries read as T() (so T() must
/// mean "nothing recorded"). The first few entries live inline (a
/// comparison of two struct infos records one or two vars, and must not pay
/// for a page); beyond that, storage comes in pages of 2^PageBits entries
/// made on first write, so a walk whose vars got large numbers (recycled
/// after a large module died) pays for the pages it touches, not for every
/// number below its own.
template <typename T, unsigned PageBits = 10> class DenseIdMap {
  static constexpr uint32_t kPageSize = 1u << PageBits;
  static constexpr unsigned kInline = 8;

public:
  /// The entry of `id`, or T() when none was written.
  T lookup(uint32_t id) const {
    if (!paged_) {
      for (const auto &e : inline_)
        if (e.first == id)
          return e.second;
      return T();
    }
    uint32_t page = id >> PageBits;
    if (page >= pages_.size() || !pages_[page])
      return T();
    return pages_[page][id & (kPageSize - 1)];
  }
  /// The entry of `id`, made (as T()) if needed. Valid until the next
  /// call that may add an entry.
  T &operator[](uint32_t id) {
    if (!paged_) {
      for (auto &e : inline_)
        if (e.first == id)
          return e.second;
      if (inline_.size() < kInline) {
        inline_.emplace_back(id, T());
        return inline_.back().second;
      }
      toPages();
    }
    uint32_t page = id >> PageBits;
    if (page >= pages_.size())
      pages_.resize(page + 1);
    std::unique_ptr<T[]> &p = pages_[page];
    if (!p)
      p.reset(new T[kPageSize]());
    return p[id & (kPageSize - 1)];
  }
  /// Resets one entry to T() (no storage is made).
  void erase(uint32_t id) {
    if (!paged_) {
      for (auto &e : inline_)
        if (e.first == id)
          e.second = T();
      return;
    }
    uint32_t page = id >> PageBits;
    if (page < pages_.size() && pages_[page])
      pages_[page][id & (kPageSize - 1)] = T();
  }
  /// Frees every page.
  void clear() {
    inline_.clear();
    pages_.clear();
    paged_ = false;
  }
  void swap(DenseIdMap &other) {
    inline_.swap(other.inline_);
    pages_.swap(other.pages_);
    std::swap(paged_, other.paged_);
  }

private:
  void toPages() {
    paged_ = true;
    llvm::SmallVector<std::pair<uint32_t, T>, kInline> entries;
    entries.swap(inline_);
    for (auto &e : entries)
      (*this)[e.first] = std::move(e.second);
  }

  llvm::SmallVector<std::pair<uint32_t, T>, kInline> inline_;
  std::vector<std::unique_ptr<T[]>> pages_;
  bool paged_ = false;
};

/// A set of DenseIds (one byte per id of a touched page).
class DenseIdSet {
public:
  bool contains(uint32_t id) const { return flags_.lookup(id) != 0; }
  /// True when `id` was not in the set.
  bool insert(uint32_t id) {
    uint8_t &f = flags_[id];
    bool inserted = f == 0;
    f = 1;
    return inserted;
  }
  void erase(uint32_t id) { flags_.erase(id); }
  void clear() { flags_.clear(); }
  void swap(DenseIdSet &other) { flags_.swap(other.flags_); }

private:
  DenseIdMap<uint8_t, 12> flags_;
};

/// A set of DenseIds as one flat bit vector: an eighth of DenseIdSet's bytes,
/// for a walk that touches every var of a large function (a 200k-binding
/// function's set is 25 KiB and stays in the first-level caches). Ids are
/// bounded by the vars alive at once, so the vector stays that small.
class DenseIdBits {
public:
  bool contains(uint32_t id) const {
    size_t w = id >> 6;
    return w < words_.size() && (words_[w] >> (id & 63) & 1);
  }
  void insert(uint32_t id) {
    size_t w = id >> 6;
    if (w >= words_.size())
      words_.resize(std::max(w + 1, words_.size() * 2));
    words_[w] |= uint64_t(1) << (id & 63);
  }
  bool empty() const {
    for (uint64_t w : words_)
      if (w)
        return false;
    return true;
  }
  /// Room for the ids handed out so far, made at once instead of grown.
  void reserveForLiveIds() { words_.resize((DenseId::limit() + 63) / 64); }

private:
  std::vector<uint64_t> words_;
};

} // namespace graft

#endif // GRAFT_IR_DENSEID_H
