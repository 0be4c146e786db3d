//===- pass/AnalysisManager.h - Cached per-function analyses ----*- C++ -*-===//
//
// Passes ask for an analysis of a function instead of computing it:
//
//   const UseDefInfo &info = getAnalysis<UseDefAnalysis>();        // FunctionPass
//   const UseDefInfo &info = analyses().get<UseDefAnalysis>(name, fn); // ModulePass
//
// An analysis is a type with a `Result` and `static Result compute(const
// FunctionNode &)` (analysis/Analyses.h lists graft's). The manager computes
// it on first request and caches it per function for the rest of the
// pipeline. After a pass changes the module, the PassManager invalidates the
// results of every function the pass changed, except the analyses the pass
// declared preserved (the model of LLVM's PreservedAnalyses): those move to
// the function's new node. A result is also recomputed whenever the function
// node asked about is not the one it was computed for, so a module changed
// behind the manager's back never sees a stale result.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_ANALYSISMANAGER_H
#define GRAFT_PASS_ANALYSISMANAGER_H

#include "ir/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

namespace graft {

/// Identifies an analysis type: the address of a per-type variable.
using AnalysisID = const void *;
template <typename AnalysisT> AnalysisID analysisID() {
  static const char id = 0;
  return &id;
}

/// The analyses a pass keeps valid in the functions it changes.
class PreservedAnalyses {
public:
  template <typename... AnalysisTs> void preserve() {
    (ids_.insert(analysisID<AnalysisTs>()), ...);
  }
  void preserveAll() { all_ = true; }
  bool isPreserved(AnalysisID id) const { return all_ || ids_.count(id); }

private:
  bool all_ = false;
  llvm::SmallPtrSet<AnalysisID, 4> ids_;
};

class AnalysisManager {
public:
  /// The result of `AnalysisT` for `fn`, the function named `name` in the
  /// module being transformed: cached, or computed now.
  template <typename AnalysisT>
  const typename AnalysisT::Result &get(llvm::StringRef name, const FunctionNode &fn) {
    using Result = typename AnalysisT::Result;
    AnalysisID id = analysisID<AnalysisT>();
    Slot &slot = slots_[name][id];
    if (!slot.result || slot.function.get() != &fn) {
      slot.result = std::make_unique<Holder<Result>>(AnalysisT::compute(fn));
      slot.function = Ref<Node>(&fn);
      ++computations_[id];
    }
    return static_cast<const Holder<Result> &>(*slot.result).value;
  }

  /// Drops what a pass invalidated when it turned `before` into `after`:
  /// the results of each function it replaced or removed, except, for a
  /// replaced function, the analyses in `preserved`.
  void invalidate(const IRModule &before, const IRModule &after,
                  const PreservedAnalyses &preserved);
  void clear() { slots_.clear(); }

  /// How many times `AnalysisT` was computed by this manager (tests and
  /// benchmarks count cache misses with it).
  template <typename AnalysisT> unsigned computations() const {
    return computations_.lookup(analysisID<AnalysisT>());
  }

private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <typename T> struct Holder : HolderBase {
    explicit Holder(T v) : value(std::move(v)) {}
    T value;
  };
  struct Slot {
    /// The node the result describes, kept alive so that its address cannot
    /// be reused by another function.
    Ref<Node> function;
    std::unique_ptr<HolderBase> result;
  };

  llvm::StringMap<llvm::DenseMap<AnalysisID, Slot>> slots_;
  llvm::DenseMap<AnalysisID, unsigned> computations_;
};

} // namespace graft

#endif // GRAFT_PASS_ANALYSISMANAGER_H
