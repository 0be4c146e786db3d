//===- tests/analysis/DefinedVarsTest.cpp - Definitions of every kind -------===//

#include "analysis/DefinedVars.h"

#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

std::string render(const std::vector<DefinedVar> &defs) {
  std::string out;
  for (const DefinedVar &d : defs) {
    const char *kind = !d.binding                            ? "param"
                       : llvm::isa<MatchCastNode>(d.binding) ? "match_cast"
                                                             : "binding";
    out += d.var->name + ":" + kind + (d.var->isDataflow() ? ":dataflow" : "") + "\n";
  }
  return out;
}

TEST(DefinedVars, EveryKindAlike) {
  auto m = parseModule(R"(
@R.function
def main(x: R.Tensor(ndim=1, dtype="float32"), c: R.Tensor((), "bool")):
    n = T.int64()
    with R.dataflow():
        a = R.add(x, x)
        b = R.match_cast(a, R.Tensor((n,), "float32"))
        R.output(b)
    @R.function
    def f(p: R.Tensor((4,), "float32")):
        q = R.add(p, p)
        return q
    if c:
        t = R.add(b, b)
        r = t
    else:
        r = b
    return r
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(render(definedVars(function(*m, "main"))), "x:param\n"
                                                       "c:param\n"
                                                       "a:binding:dataflow\n"
                                                       "b:match_cast\n"
                                                       "f:binding\n"
                                                       "p:param\n"
                                                       "q:binding\n"
                                                       "t:binding\n"
                                                       "r:binding\n");
}

} // namespace
