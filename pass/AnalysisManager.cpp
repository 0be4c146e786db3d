//===- pass/AnalysisManager.cpp -------------------------------------------===//

#include "pass/AnalysisManager.h"

using namespace graft;

void AnalysisManager::invalidate(const IRModule &before, const IRModule &after,
                                 const PreservedAnalyses &preserved) {
  llvm::SmallVector<llvm::StringRef, 4> emptied;
  for (auto &entry : slots_) {
    llvm::StringRef name = entry.getKey();
    llvm::DenseMap<AnalysisID, Slot> &slots = entry.getValue();
    const ModuleEntry *old = before.lookup(name);
    const ModuleEntry *now = after.lookup(name);
    const Node *oldFn = old ? old->func.get() : nullptr;
    const Node *newFn = now && now->asFunction() ? now->func.get() : nullptr;
    if (oldFn == newFn)
      continue; // Untouched by the pass.
    llvm::SmallVector<AnalysisID, 4> dropped;
    for (auto &[id, slot] : slots) {
      if (newFn && slot.function.get() == oldFn && preserved.isPreserved(id))
        slot.function = Ref<Node>(newFn);
      else
        dropped.push_back(id);
    }
    for (AnalysisID id : dropped)
      slots.erase(id);
    if (slots.empty())
      emptied.push_back(name);
  }
  for (llvm::StringRef name : emptied)
    slots_.erase(name);
}
