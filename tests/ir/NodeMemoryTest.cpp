//===- tests/ir/NodeMemoryTest.cpp - Node memory and dense id order ---------===//
//
// Nodes made one after another lie one after another (ir/NodeMemory.h), a
// chunk's memory survives while any node in it lives, and the DenseIds of
// vars made after a large group died come back lowest first, in creation
// order (ir/DenseId.cpp): the layouts the walks over a large function rely on
// (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "ir/NodeMemory.h"
#include "ir/DenseId.h"
#include "ir/Expr.h"
#include "ir/Op.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

using namespace graft;

namespace {

uintptr_t address(const Node *n) { return reinterpret_cast<uintptr_t>(n); }

TEST(NodeMemoryTest, NodesMadeInOrderLieInOrderWithoutHeaders) {
  StructInfo s = objectSInfo();
  std::vector<Binding> bindings;
  std::vector<Var> vars;
  for (int i = 0; i < 64; ++i) {
    vars.push_back(make<VarNode>("v" + std::to_string(i), s));
    bindings.push_back(make<VarBindingNode>(vars.back(), vars.front()));
  }
  size_t adjacent = 0;
  for (int i = 0; i < 64; ++i) {
    // The binding right after its var: the var's block is the node and its
    // name ("v12" and a NUL), rounded to kNodeAlign.
    size_t varBytes =
        (sizeof(VarNode) + vars[i]->name.size() + 1 + kNodeAlign - 1) & ~(kNodeAlign - 1);
    adjacent += address(bindings[i].get()) == address(vars[i].get()) + varBytes;
    EXPECT_EQ(address(vars[i].get()) % kNodeAlign, 0u);
  }
  // Only where a chunk ended may a pair be apart.
  EXPECT_GE(adjacent, 62u);
}

TEST(NodeMemoryTest, ASurvivorKeepsItsNeighboursMemoryAndValues) {
  StructInfo s = objectSInfo();
  Var keep;
  {
    std::vector<Var> many;
    for (int i = 0; i < 5000; ++i)
      many.push_back(make<VarNode>("w" + std::to_string(i), s));
    keep = many[2500];
  }
  // Everything around it died; its chunk must not have been reused under it.
  std::vector<Var> fresh;
  for (int i = 0; i < 5000; ++i)
    fresh.push_back(make<VarNode>("x" + std::to_string(i), s));
  EXPECT_EQ(keep->name, "w2500");
  EXPECT_EQ(keep->sinfo.get(), s.get());
  for (const Var &v : fresh)
    EXPECT_NE(v.get(), keep.get());
}

TEST(NodeMemoryTest, LargeNodesAndNodesDyingOnAnotherThread) {
  StructInfo s = objectSInfo();
  // A call whose arguments do not fit a quarter chunk gets a block of its own.
  std::vector<Expr> args;
  Var a = make<VarNode>("a", s);
  for (size_t i = 0; i < kNodeChunkBytes / sizeof(Expr); ++i)
    args.push_back(a);
  Ref<CallNode> call = make<CallNode>(getOrCreateUnknownOp("relax.memory.test"), args);
  EXPECT_EQ(call->args.size(), args.size());
  EXPECT_EQ(call->args.back().get(), a.get());
  args.clear();
  std::vector<Var> vars;
  for (int i = 0; i < 3000; ++i)
    vars.push_back(make<VarNode>("t" + std::to_string(i), s));
  std::thread([&] {
    vars.clear(); // Dies here, was made on the main thread.
    call = nullptr;
  }).join();
  EXPECT_EQ(a->refCount(), 1u);
  Var after = make<VarNode>("after", s);
  EXPECT_EQ(after->name, "after");
}

TEST(DenseIdTest, IdsFreedTogetherComeBackLowestFirst) {
  StructInfo s = objectSInfo();
  // Ordering waits until the numbers freed since are an eighth of the free
  // list, which other tests of this process may have filled: free more
  // than that.
  size_t n = DenseId::limit() / 4 + 4000;
  std::vector<Var> first;
  for (size_t i = 0; i < n; ++i)
    first.push_back(make<VarNode>("p" + std::to_string(i), s));
  uint32_t lowest = first.front()->id;
  for (const Var &v : first)
    lowest = std::min<uint32_t>(lowest, v->id);
  // Freed last to first, as a module's vars tend to be (users before the
  // values they read).
  while (!first.empty())
    first.pop_back();
  std::vector<Var> second;
  for (size_t i = 0; i < n; ++i)
    second.push_back(make<VarNode>("q" + std::to_string(i), s));
  size_t ascending = 0;
  for (size_t i = 1; i < second.size(); ++i)
    ascending += second[i]->id > second[i - 1]->id;
  EXPECT_GE(ascending, second.size() - 2);
  EXPECT_LE(second.front()->id, lowest);
}

} // namespace
