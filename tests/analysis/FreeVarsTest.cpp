//===- tests/analysis/FreeVarsTest.cpp - Free Relax and symbolic vars -------===//

#include "analysis/FreeVars.h"

#include "AnalysisTestUtil.h"

#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

template <typename T> std::string names(const std::vector<const T *> &vs) {
  std::string out = "[";
  for (size_t i = 0; i < vs.size(); ++i)
    out += (i ? "," : "") + vs[i]->name;
  return out + "]";
}

const char *kText = R"(
@R.function
def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(ndim=1, dtype="float32")):
    n = T.int64()
    m = T.int64()
    k = T.int64()
    a = R.add(x, x)
    @R.function
    def inner(p: R.Tensor(("k",), "float32")) -> R.Tensor((k,), "float32"):
        q = R.add(p, y)
        s = R.multiply(q, p)
        t = R.reshape(a, R.shape([n * 4]))
        return s
    z = R.match_cast(y, R.Tensor((m,), "float32"))
    w = R.reshape(x, R.shape([n * 4 + m]))
    return w
)";

TEST(FreeVars, ClosureCaptures) {
  auto m = parseModule(kText);
  ASSERT_TRUE(m);
  const FunctionNode *fn = function(*m, "main");
  const auto *innerBinding = fn->body->blocks[0]->bindings[1].get();
  const auto *inner = llvm::cast<FunctionNode>(innerBinding->value.get());
  EXPECT_EQ(names(freeVars(inner)), "[y,a]");
  EXPECT_EQ(names(allVars(inner)), "[p,y,q,s,a,t]");
  EXPECT_EQ(names(freeVars(fn)), "[]");
}

TEST(FreeVars, SymbolicVars) {
  auto m = parseModule(kText);
  ASSERT_TRUE(m);
  const FunctionNode *fn = function(*m, "main");
  const auto *inner = llvm::cast<FunctionNode>(fn->body->blocks[0]->bindings[1]->value.get());
  // main defines n (param) and m (match_cast); k is the closure's own.
  EXPECT_EQ(names(freeSymbolicVars(fn)), "[]");
  // Inside the closure n is used (in a shape) but defined outside.
  EXPECT_EQ(names(freeSymbolicVars(inner)), "[n]");
  // The last binding alone: n and m come from elsewhere.
  const BindingNode *last = fn->body->blocks.back()->bindings.back().get();
  EXPECT_EQ(names(freeSymbolicVars(last->value.get())), "[n,m]");
}

} // namespace
