//===- analysis/VerifyCache.h - Reuse work between verifications -*- C++ -*-===//
//
// verify-each runs the verifier after every pass, and most passes leave most
// bindings untouched. Nodes are immutable, so a call node (or a binding node)
// that passed the struct-info checks once passes them again: the cache
// remembers those nodes and the verifier skips their re-inference.
//
// The cache holds a reference to every node it remembers, so a freed node's
// address can never be reused by a different node that would then be
// mistaken for a checked one. Each verification keeps only the nodes it saw,
// so the cache never outgrows the module it last verified.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_VERIFYCACHE_H
#define GRAFT_ANALYSIS_VERIFYCACHE_H

#include "analysis/WellFormed.h"
#include "ir/Node.h"

#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace graft {

class VerifyCache {
public:
  /// Whether the last verification (or the current one) checked `n`.
  bool contains(const Node *n) const { return last_.count(n) || current_.count(n); }
  /// Records that `n` passed its struct-info checks in this verification.
  void insert(const Node *n) {
    if (current_.insert(n).second)
      currentKeep_.emplace_back(n);
  }
  /// Called by the verifier: starts and ends one verification.
  void begin() {
    current_.clear();
    currentKeep_.clear();
    current_.reserve(last_.size());
    currentKeep_.reserve(last_.size());
  }
  void end() {
    last_ = std::move(current_);
    lastKeep_ = std::move(currentKeep_);
    current_.clear();
    currentKeep_.clear();
  }
  void clear() {
    begin();
    last_.clear();
    lastKeep_.clear();
  }
  size_t size() const { return last_.size(); }

private:
  llvm::DenseSet<const Node *> last_, current_;
  std::vector<Ref<Node>> lastKeep_, currentKeep_;
};

/// As verifyModule, skipping the struct-info re-inference (rules 26-27) of
/// call and binding nodes `cache` saw pass before; the nodes that pass now
/// replace the cache's content. `cache` may be null.
std::vector<Violation> verifyModule(const IRModule &module, const VerifyOptions &opts,
                                    VerifyCache *cache);

} // namespace graft

#endif // GRAFT_ANALYSIS_VERIFYCACHE_H
