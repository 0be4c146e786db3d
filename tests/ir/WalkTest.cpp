//===- tests/ir/WalkTest.cpp - walk<NodeT> ----------------------------------===//

#include "ir/Walk.h"
#include "ir/Op.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

TEST(Walk, FindsEveryNodeOfOneKindInOrderWithoutRecursion) {
  Var x = make<VarNode>("x", tensorSInfoNDim(1, DataType::float32()));
  // A chain of 30k nested calls, deeper than the visitor is meant to recurse.
  Expr e = x;
  for (int i = 0; i < 30000; ++i)
    e = make<CallNode>(getOp("relax.add"), std::vector<Expr>{e, x});
  size_t calls = 0, vars = 0;
  walk<CallNode>(e.get(), [&](const CallNode *) { ++calls; });
  walk<VarNode>(e.get(), [&](const VarNode *) { ++vars; });
  EXPECT_EQ(calls, 30000u);
  EXPECT_EQ(vars, 30001u);
  EXPECT_TRUE(containsNode<OpNode>(e.get()));
  EXPECT_FALSE(containsNode<IfNode>(e.get()));
  size_t seen = 0;
  bool completed = walk<CallNode>(e.get(), [&](const CallNode *) {
    return ++seen == 3 ? WalkResult::Interrupt : WalkResult::Advance;
  });
  EXPECT_FALSE(completed);
  EXPECT_EQ(seen, 3u);
}

} // namespace
