//===- tests/pass/PassOptionsTest.cpp - Options and statistics as members ---===//
//
// registerPass<P>() reads a pass's option declarations into the registry
// (what `graft passes` prints and the pipeline parser checks), a pipeline's
// values reach the typed members, and statistics are reported under the
// pass's name only when the pass added to them.
//
//===----------------------------------------------------------------------===//

#include "PassTestUtil.h"

#include "ir/Diagnostics.h"
#include "pass/Pipeline.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::testing;

namespace {

class OptionsPass : public ModulePass {
public:
  OptionsPass() : ModulePass("test-options") {}

  PassOption<bool> flag{this, "flag", "a flag", true};
  PassOption<int64_t> count{this, "count", "a count", 3};
  PassOption<std::string> label{this, "label", "a label"};
  PassOption<std::vector<std::string>> names{this, "names", "some names", {"a", "b"}};
  PassStatistic runs{this, "runs", "runs"};
  PassStatistic untouched{this, "untouched", "never added to"};
  PassStatistic zero{this, "zero", "added 0"};

  /// What the last run saw, for the test to read.
  static std::string seen;

  llvm::Expected<bool> runOnModule(IRModule &, PassContext &) override {
    seen = std::string(flag ? "true" : "false") + " " + std::to_string(count) + " '" +
           label.getValue() + "'";
    for (const std::string &n : names.getValue())
      seen += " " + n;
    ++runs;
    zero += 0;
    return false;
  }
};
std::string OptionsPass::seen;

const PassInfo &registered() {
  static const PassInfo *info = [] {
    registerPass<OptionsPass>(PassInfo());
    return lookupPass("test-options");
  }();
  return *info;
}

TEST(PassOptions, SpecsComeFromTheDeclarations) {
  const PassInfo &info = registered();
  ASSERT_EQ(info.options.size(), 4u);
  auto line = [](const PassOptionSpec &s) {
    return s.name + "=" + s.defaultValue + " (" + describeOptionKind(s.kind).str() +
           "): " + s.description;
  };
  EXPECT_EQ(line(info.options[0]), "flag=true (true or false): a flag");
  EXPECT_EQ(line(info.options[1]), "count=3 (an integer): a count");
  EXPECT_EQ(line(info.options[2]), "label= (a string): a label");
  EXPECT_EQ(line(info.options[3]), "names=a,b (a comma-separated list): some names");
}

TEST(PassOptions, PipelineValuesReachTheMembers) {
  registered();
  auto module = parseModule(kTwoFunctions);
  ASSERT_TRUE(module);
  for (auto [text, expected] :
       {std::pair<const char *, const char *>{"test-options", "true 3 '' a b"},
        {"test-options{flag=false,count=-7,label=x y,names=p,q,r}", "false -7 'x y' p q r"}}) {
    llvm::Expected<Pipeline> pipeline = parsePipeline(text);
    ASSERT_TRUE(bool(pipeline)) << llvm::toString(pipeline.takeError());
    const PassInvocation &inv = pipeline->passes.front();
    std::unique_ptr<Pass> pass = inv.info->create(inv.values);
    PassContext ctx;
    llvm::Expected<bool> changed = pass->run(*module, ctx);
    ASSERT_TRUE(bool(changed));
    EXPECT_EQ(OptionsPass::seen, expected);
    // Reported: what the run added to, 0 included; never what it did not touch.
    EXPECT_EQ(ctx.stats(),
              (std::map<std::string, int64_t>{{"test-options.runs", 1}, {"test-options.zero", 0}}));
  }
}

TEST(PassOptions, UnknownNameAndBadValueSayWhatIsAccepted) {
  registered();
  llvm::Expected<Pipeline> unknown = parsePipeline("test-options{flags=true}");
  ASSERT_FALSE(unknown);
  std::string notes;
  llvm::handleAllErrors(unknown.takeError(), [&](const DiagnosticError &e) {
    notes = e.message;
    for (const DiagNote &n : e.notes)
      notes += "\nnote: " + n.message;
  });
  EXPECT_EQ(notes, "pass 'test-options' has no option 'flags'\n"
                   "note: pass 'test-options' accepts: flag (true or false), count (an integer), "
                   "label (a string), names (a comma-separated list)");
  llvm::Expected<Pipeline> bad = parsePipeline("test-options{count=many}");
  ASSERT_FALSE(bad);
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "option 'count' of pass 'test-options' expects an integer, got 'many'");
}

} // namespace
