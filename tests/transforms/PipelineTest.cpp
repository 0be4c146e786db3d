//===- tests/transforms/PipelineTest.cpp - Pipeline text and options --------===//

#include "pass/Pipeline.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

class NopPass : public Pass {
public:
  llvm::Expected<bool> run(IRModule &, PassContext &) override { return false; }
};

void registerTestPasses() {
  static bool done = [] {
    PassInfo a;
    a.name = "test-pipeline-a";
    a.alias = "TestPipelineA";
    a.summary = "test";
    a.options = {{"flag", PassOptionSpec::Kind::Bool, "false", ""},
                 {"names", PassOptionSpec::Kind::List, "", ""},
                 {"count", PassOptionSpec::Kind::Int, "3", ""}};
    a.create = [](const PassOptions &) { return std::make_unique<NopPass>(); };
    registerPass(a);
    PassInfo b = a;
    b.name = "test-pipeline-b";
    b.alias = "";
    b.options = {};
    registerPass(b);
    registerPipeline({"test-pipeline-both", "both", "test-pipeline-a,test-pipeline-b"});
    return true;
  }();
  (void)done;
}

std::string errorOf(llvm::StringRef text) {
  auto p = parsePipeline(text);
  if (p)
    return "<no error>";
  return llvm::toString(p.takeError());
}

TEST(Pipeline, PrintsBackCanonically) {
  registerTestPasses();
  auto p =
      parsePipeline("test-pipeline-a{flag=true,names=x,y,count=5}, TestPipelineA,test-pipeline-b");
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  EXPECT_EQ(p->str(),
            "test-pipeline-a{flag=true,names=x,y,count=5},test-pipeline-a,test-pipeline-b");
  auto again = parsePipeline(p->str());
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->str(), p->str());
}

TEST(Pipeline, TypedOptionValues) {
  registerTestPasses();
  auto p = parsePipeline("test-pipeline-a{names=x,y}");
  ASSERT_TRUE(bool(p));
  const PassOptions &o = p->passes[0].values;
  EXPECT_FALSE(o.getBool("flag"));
  EXPECT_EQ(o.getInt("count"), 3);
  EXPECT_EQ(o.getList("names"), (std::vector<std::string>{"x", "y"}));
}

TEST(Pipeline, NamedPipelinesExpand) {
  registerTestPasses();
  auto p = parsePipeline("test-pipeline-both");
  ASSERT_TRUE(bool(p));
  EXPECT_EQ(p->str(), "test-pipeline-a,test-pipeline-b");
  EXPECT_TRUE(p->contains("test-pipeline-b"));
}

TEST(Pipeline, Errors) {
  registerTestPasses();
  EXPECT_EQ(errorOf("no-such-pass"), "unknown pass 'no-such-pass' (see 'graft passes --all')");
  EXPECT_EQ(errorOf("test-pipeline-a{bogus=1}"), "pass 'test-pipeline-a' has no option 'bogus'");
  EXPECT_EQ(errorOf("test-pipeline-a{flag=maybe}"),
            "option 'flag' of pass 'test-pipeline-a' expects true or false, got 'maybe'");
  EXPECT_EQ(errorOf("test-pipeline-a{count=x}"),
            "option 'count' of pass 'test-pipeline-a' expects an integer, got 'x'");
  EXPECT_EQ(errorOf("test-pipeline-a{flag=true"),
            "unbalanced '{' in pipeline 'test-pipeline-a{flag=true'");
  EXPECT_EQ(errorOf("test-pipeline-a,,test-pipeline-b"), "empty pass name in pipeline");
  EXPECT_EQ(errorOf("test-pipeline-both{x=1}"), "pipeline 'test-pipeline-both' takes no options");
}

TEST(Pipeline, EmptyTextIsEmptyPipeline) {
  auto p = parsePipeline("  ");
  ASSERT_TRUE(bool(p));
  EXPECT_TRUE(p->passes.empty());
}

} // namespace
