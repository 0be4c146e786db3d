//===- codegen/RegisterAllocator.h - Registers reused after last use -*- C++ -*-===//
//
// Gives each var that needs one a VM register and takes the register back
// after the var's last use in linear order (LinearWalk positions). There are
// no back edges in Relax bytecode, so a register is free once no later
// instruction in linear order reads its var: a branch never needs a value
// whose last linear use lay in the branch before it. A kill (vm.kill_object)
// writes its var's register, so it counts as a use. Parameters keep
// registers 0..n-1 for the whole function.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_CODEGEN_REGISTERALLOCATOR_H
#define GRAFT_CODEGEN_REGISTERALLOCATOR_H

#include "codegen/LinearWalk.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <queue>

namespace graft::codegen {

/// Calls `fn` on every var the event reads at run time (struct info
/// annotations are not reads).
void forEachUse(const WalkEvent &event, llvm::function_ref<void(const VarNode *)> fn);

class RegisterAllocator {
public:
  explicit RegisterAllocator(const FunctionNode &fn);

  /// Whether any later event reads `v`.
  bool isRead(const VarNode *v) const { return lastUse_.count(v) != 0; }

  /// A free register for `v`, held until v's last use (or the end of the
  /// current event when nothing reads v).
  int64_t allocateFor(const VarNode *v);
  /// Gives `v` the register `reg` (already allocated, e.g. an if's result).
  void own(const VarNode *v, int64_t reg);
  /// A register held until the end of the current event.
  int64_t temporary();
  /// A register held until release() (an if's result while its branches run).
  int64_t allocate();
  void release(int64_t reg);

  /// Ends the current event: frees temporaries and the registers of vars
  /// whose last use it was.
  void endEvent();

  /// Registers in use at most at once, parameters included.
  int64_t peak() const { return next_; }

private:
  llvm::DenseMap<const VarNode *, int64_t> lastUse_;
  llvm::DenseMap<int64_t, llvm::SmallVector<int64_t, 2>> freeAt_; ///< Position -> registers.
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<int64_t>> free_;
  llvm::SmallVector<int64_t, 4> temporaries_;
  int64_t next_ = 0;
  int64_t pos_ = 0;
};

} // namespace graft::codegen

#endif // GRAFT_CODEGEN_REGISTERALLOCATOR_H
