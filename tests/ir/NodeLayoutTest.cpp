//===- tests/ir/NodeLayoutTest.cpp - Data kept in a node's own block -------===//
//
// A call's arguments and sinfo_args and a var's name lie right after the
// node, in the block CallNode::create / VarNode::create sized for them
// (ir/Expr.h). These tests check that the views point there, that the node
// owns what it holds (references taken and given back, the name copied),
// and the empty cases.
//
//===----------------------------------------------------------------------===//

#include "ir/Expr.h"
#include "ir/Op.h"

#include <gtest/gtest.h>

#include <string>

using namespace graft;

namespace {

const char *blockEnd(const Node *n, size_t nodeBytes) {
  return reinterpret_cast<const char *>(n) + nodeBytes;
}

TEST(NodeLayoutTest, CallKeepsItsArgumentsAndSInfoArgsAfterItself) {
  Var a = make<VarNode>("a", objectSInfo());
  Var b = make<DataflowVarNode>("b", objectSInfo());
  StructInfo s = objectSInfo();
  uint32_t aCount = a->refCount(), sCount = s->refCount();
  {
    Ref<CallNode> call =
        make<CallNode>(getOrCreateUnknownOp("relax.layout.test"), std::vector<Expr>{a, b, a},
                       nullptr, std::vector<StructInfo>{s}, /*sinfo=*/nullptr);
    ASSERT_EQ(call->args.size(), 3u);
    EXPECT_EQ(call->args[0].get(), a.get());
    EXPECT_EQ(call->args[1].get(), b.get());
    EXPECT_EQ(call->args[2].get(), a.get());
    ASSERT_EQ(call->sinfoArgs.size(), 1u);
    EXPECT_EQ(call->sinfoArgs[0].get(), s.get());
    EXPECT_EQ(reinterpret_cast<const char *>(call->args.data()),
              blockEnd(call.get(), sizeof(CallNode)));
    EXPECT_EQ(static_cast<const void *>(call->sinfoArgs.data()),
              static_cast<const void *>(call->args.data() + 3));
    // The call holds a reference per argument slot.
    EXPECT_EQ(a->refCount(), aCount + 2);
    EXPECT_EQ(s->refCount(), sCount + 1);
  }
  // ... and gives them back when it dies.
  EXPECT_EQ(a->refCount(), aCount);
  EXPECT_EQ(s->refCount(), sCount);
}

TEST(NodeLayoutTest, CallWithoutArguments) {
  Ref<CallNode> call =
      make<CallNode>(getOrCreateUnknownOp("relax.layout.none"), std::vector<Expr>{});
  EXPECT_TRUE(call->args.empty());
  EXPECT_TRUE(call->sinfoArgs.empty());
  EXPECT_EQ(call->attrs.get(), nullptr);
}

TEST(NodeLayoutTest, VarCopiesItsNameAfterItself) {
  std::string name = "a_name_longer_than_any_small_string_buffer";
  Var v = make<VarNode>(name, objectSInfo());
  Var d = makeAt<DataflowVarNode>(llvm::SMLoc(), "lv", objectSInfo());
  std::string expected = name;
  name.assign(name.size(), 'x'); // The node holds a copy, not a view of the argument.
  EXPECT_EQ(v->name, expected);
  EXPECT_EQ(v->name.data(), blockEnd(v.get(), sizeof(VarNode)));
  EXPECT_EQ(v->name.c_str()[v->name.size()], '\0');
  EXPECT_EQ(std::string(v->name.c_str()), expected);
  EXPECT_EQ(d->name, "lv");
  EXPECT_TRUE(d->isDataflow());
  EXPECT_EQ(d->name.data(), blockEnd(d.get(), sizeof(DataflowVarNode)));
  // VarName converts to std::string where one is wanted.
  std::string joined = d->name + "_1";
  EXPECT_EQ(joined, "lv_1");
}

TEST(NodeLayoutTest, VarWithAnEmptyName) {
  Var v = make<VarNode>("", nullptr);
  EXPECT_TRUE(v->name.empty());
  EXPECT_EQ(v->name.c_str()[0], '\0');
}

} // namespace
