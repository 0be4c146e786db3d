//===- tests/analysis/LivenessTest.cpp - Last use of each var ---------------===//

#include "analysis/Liveness.h"

#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

/// "var -> binding var" per read var, in binding order of first definition
/// (params first), "(result)" for a read by the SeqExpr's result.
std::string render(const FunctionNode &fn, const LivenessInfo &info) {
  std::string out;
  auto line = [&](const VarNode *v) {
    auto it = info.lastUse.find(v);
    if (it == info.lastUse.end())
      out += v->name + " -> (never)\n";
    else
      out += v->name + " -> " + (it->second ? it->second->var->name.str() : "(result)") + "\n";
  };
  for (const Var &p : fn.params)
    line(p.get());
  for (const BindingNode *b : info.bindingOrder)
    line(b->var.get());
  return out;
}

TEST(Liveness, LastUseAcrossBranches) {
  auto m = parseModule(R"(
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")):
    a = R.add(x, x)
    b = R.multiply(x, x)
    d = R.add(b, b)
    if c:
        t = R.add(a, a)
        r = t
    else:
        r = b
    s = R.add(r, x)
    return s
)");
  ASSERT_TRUE(m);
  const FunctionNode *fn = function(*m, "main");
  LivenessInfo info = computeLastUses(*fn->body);
  // a is last read inside the then branch (by t); b by the else branch's
  // result (counted at the if's binding r); x by s; d never; s by the result.
  EXPECT_EQ(render(*fn, info), "x -> s\n"
                               "c -> r\n"
                               "a -> t\n"
                               "b -> r\n"
                               "d -> (never)\n"
                               "r -> s\n"
                               "t -> r\n"
                               "s -> (result)\n");
  EXPECT_TRUE(
      info.isOutput(fn->body->body.get() ? llvm::cast<VarNode>(fn->body->body.get()) : nullptr));
}

TEST(Liveness, ClosureReadsCapturesWhereDefined) {
  auto m = parseModule(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.add(x, x)
    @R.function
    def inner(a: R.Tensor((4,), "float32")):
        b = R.add(a, y)
        return b
    z = R.add(x, x)
    w = inner(z)
    return w
)");
  ASSERT_TRUE(m);
  const FunctionNode *fn = function(*m, "main");
  LivenessInfo info = computeLastUses(*fn->body);
  // The closure holds y from its definition on; its own bindings are not
  // part of main's order.
  EXPECT_EQ(render(*fn, info), "x -> z\n"
                               "y -> inner\n"
                               "inner -> w\n"
                               "z -> w\n"
                               "w -> (result)\n");
}

} // namespace

namespace {

/// "var -> binding var" of lastUseIn(var, seq) for each var bound in `seq`,
/// "(result)" for the sequence's result, "(never)" when nothing reads it.
std::string renderIn(const SeqExprNode &seq, const LivenessInfo &info) {
  std::string out;
  for (const BindingBlock &block : seq.blocks)
    for (const Binding &b : block->bindings) {
      llvm::Optional<const BindingNode *> last = info.lastUseIn(b->var.get(), &seq);
      out += b->var->name + " -> " +
             (!last   ? "(never)"
              : *last ? (*last)->var->name
                      : std::string("(result)")) +
             "\n";
    }
  return out;
}

TEST(Liveness, AnIfIsOneUseAsSeenFromItsSequence) {
  auto m = parseModule(R"(
@R.function(pure=False)
def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")):
    a = R.add(x, x)
    b = R.multiply(x, x)
    if c:
        t = R.add(a, a)
        u = R.add(t, t)
        r = u
    else:
        r = b
    s = R.add(r, x)
    _ = R.memory.kill_tensor(s)
    return x
)");
  ASSERT_TRUE(m);
  const FunctionNode *fn = function(*m, "main");
  LivenessInfo info = computeLastUses(*fn->body);
  // From main's body, the reads of a (by t) and b (by the else result) are
  // the if binding r; the kill is no read of s.
  EXPECT_EQ(renderIn(*fn->body, info), "a -> r\n"
                                       "b -> r\n"
                                       "r -> s\n"
                                       "s -> (never)\n"
                                       "_ -> (never)\n");
  // From the then branch: t is last read by u, u by the branch's result.
  const auto *ifNode = llvm::cast<IfNode>(fn->body->blocks[0]->bindings[2]->value.get());
  EXPECT_EQ(renderIn(*ifNode->thenBranch, info), "t -> u\n"
                                                 "u -> (result)\n");
}

} // namespace
