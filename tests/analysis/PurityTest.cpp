//===- tests/analysis/PurityTest.cpp - Purity of calls and functions --------===//

#include "analysis/Purity.h"

#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

std::string render(const IRModule &m) {
  std::string out;
  for (const ModuleEntry &e : m.entries()) {
    const FunctionNode *fn = e.asFunction();
    if (!fn)
      continue;
    FunctionPurity p = analyzePurity(*fn, e.gvar.get());
    out += e.gvar->name + ": declared=" + (p.declaredPure ? "pure" : "impure") +
           " force=" + (p.forcePure ? "1" : "0") + " impure-call=" + (p.hasImpureCall ? "1" : "0") +
           " pure=" + (p.isPure() ? "1" : "0") +
           " violates=" + (p.violatesDeclaration() ? "1" : "0") + "\n";
  }
  return out;
}

TEST(Purity, Functions) {
  auto m = parseModule(R"(
@I.ir_module
class Module:
    @R.function
    def pure_fn(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        return y

    @R.function(pure=False)
    def prints(x: R.Tensor((4,), "float32")):
        _ = R.print(x, format="{}")
        return x

    @R.function
    def forced(x: R.Tensor((4,), "float32")):
        R.func_attr({"relax.force_pure": True})
        y = R.call_packed("side_effect", x, sinfo_args=R.Object)
        return x

    @R.function(check_well_formed=False)
    def lying(x: R.Tensor((4,), "float32")):
        _ = R.print(x, format="{}")
        return x

    @R.function
    def closure_only(x: R.Tensor((4,), "float32")):
        @R.function(pure=False)
        def f(a: R.Tensor((4,), "float32")):
            _ = R.print(a, format="{}")
            return a
        return x

    @R.function(pure=False)
    def branch(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")):
        if c:
            _ = R.print(x, format="{}")
            r = x
        else:
            r = x
        return r
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(render(*m), "pure_fn: declared=pure force=0 impure-call=0 pure=1 violates=0\n"
                        "prints: declared=impure force=0 impure-call=1 pure=0 violates=0\n"
                        "forced: declared=pure force=1 impure-call=1 pure=1 violates=0\n"
                        "lying: declared=pure force=0 impure-call=1 pure=0 violates=1\n"
                        "closure_only: declared=pure force=0 impure-call=0 pure=1 violates=0\n"
                        "branch: declared=impure force=0 impure-call=1 pure=0 violates=0\n");
}

TEST(Purity, CallsOfImpureFunctionsAndRecursion) {
  auto m = parseModule(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def impure_callee(x: R.Tensor((4,), "float32")):
        _ = R.print(x, format="{}")
        return x

    @R.function(pure=False)
    def caller(x: R.Tensor((4,), "float32")):
        cls = Module
        y = cls.impure_callee(x)
        return y

    @R.function(pure=False)
    def recursive(x: R.Tensor((4,), "float32")):
        cls = Module
        y = cls.recursive(x)
        return y
)");
  ASSERT_TRUE(m);
  const ModuleEntry *caller = m->lookup("caller");
  const ModuleEntry *rec = m->lookup("recursive");
  EXPECT_TRUE(containsImpureCall(caller->asFunction(), caller->gvar.get()));
  // A call to the function itself is ignored; from elsewhere it counts.
  EXPECT_FALSE(containsImpureCall(rec->asFunction(), rec->gvar.get()));
  EXPECT_TRUE(containsImpureCall(rec->asFunction()));
}

} // namespace
