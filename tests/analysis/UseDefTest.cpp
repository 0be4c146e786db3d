//===- tests/analysis/UseDefTest.cpp - Use-def chains and use counts --------===//

#include "analysis/UseDef.h"

#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

std::string render(const UseDefInfo &info) {
  std::string out;
  for (unsigned i : info.defOrder) {
    const UseDefInfo::VarInfo &v = info.vars[i];
    out += v.var->name + ": def=" + (v.binding ? "binding" : "param") +
           " uses=" + std::to_string(v.useCount) + " users=[";
    for (size_t k = 0; k < v.users.size(); ++k)
      out += (k ? "," : "") + info.vars[v.users[k]].var->name;
    out += "]\n";
  }
  out += "outputs=[";
  for (size_t k = 0; k < info.outputs.size(); ++k)
    out += (k ? "," : "") + info.vars[info.outputs[k]].var->name;
  return out + "]\n";
}

TEST(UseDef, BindingsBranchesAndMatchCast) {
  auto m = parseModule(R"(
@R.function
def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool"), unused: R.Tensor((4,), "float32")):
    n = T.int64()
    a = R.add(x, x)
    b = R.multiply(a, x)
    mc = R.match_cast(b, R.Tensor((n,), "float32"))
    if c:
        t = R.add(a, a)
        r = t
    else:
        r = b
    return r
)");
  ASSERT_TRUE(m);
  UseDefInfo info = computeUseDef(function(*m, "main"));
  // A match_cast value is read outside any VarBinding: b is an output.
  // The branch result t and the condition c are read by the if's var r.
  EXPECT_EQ(render(info), "x: def=param uses=3 users=[a,b]\n"
                          "c: def=param uses=1 users=[r]\n"
                          "unused: def=param uses=0 users=[]\n"
                          "a: def=binding uses=3 users=[b,t]\n"
                          "b: def=binding uses=2 users=[r]\n"
                          "mc: def=binding uses=0 users=[]\n"
                          "t: def=binding uses=1 users=[r]\n"
                          "r: def=binding uses=1 users=[]\n"
                          "outputs=[b,r]\n");
}

TEST(UseDef, NestedFunctionResultIsAnOutput) {
  auto m = parseModule(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.add(x, x)
    @R.function
    def inner(a: R.Tensor((4,), "float32")):
        b = R.add(a, y)
        return b
    z = inner(x)
    return z
)");
  ASSERT_TRUE(m);
  UseDefInfo info = computeUseDef(function(*m, "main"));
  EXPECT_EQ(render(info), "x: def=param uses=3 users=[y,z]\n"
                          "y: def=binding uses=1 users=[b]\n"
                          "inner: def=binding uses=1 users=[z]\n"
                          "a: def=param uses=1 users=[b]\n"
                          "b: def=binding uses=1 users=[]\n"
                          "z: def=binding uses=1 users=[]\n"
                          "outputs=[b,z]\n");
}

TEST(UseDef, LinearOnLongChains) {
  // 20k bindings: a quadratic step would take far longer than the walk.
  std::string text = "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n"
                     "    v0 = R.add(x, x)\n";
  for (int i = 1; i < 20000; ++i)
    text += "    v" + std::to_string(i) + " = R.add(v" + std::to_string(i - 1) + ", x)\n";
  text += "    return v19999\n";
  auto m = parseModule(text);
  ASSERT_TRUE(m);
  UseDefInfo info = computeUseDef(function(*m, "main"));
  EXPECT_EQ(info.defOrder.size(), 20001u);
  EXPECT_EQ(info.vars[info.defOrder[1]].users.size(), 1u);
  EXPECT_EQ(info.vars[info.defOrder[0]].users.size(), 20000u);
}

} // namespace
