//===- tests/plugin/PluginCliTest.cpp - graft --load-pass-plugin ------------===//
//
// Loads the example plugin (examples/plugin) and the broken ones of
// tests/plugin/modules into the built graft and checks what it does and
// says (docs/packaging.md).
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

std::string src(const std::string &rel) { return std::string(GRAFT_SOURCE_DIR) + "/" + rel; }

std::string plugin(const std::string &name) {
  return std::string(GRAFT_TEST_PLUGIN_DIR) + "/graft-test-plugin-" + name + ".so";
}

const std::string kExample = EXAMPLE_PLUGIN;

TEST(PassPlugin, OptRunsThePluginsPass) {
  Result r = graft("opt --load-pass-plugin=" + kExample + " -p fold-double-negation " +
                   src("examples/plugin/tests/fold.py") + " --module Before");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("= R.add(x, x)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("R.negative(a)"), std::string::npos) << r.out;
}

TEST(PassPlugin, TheTvmAliasAndStatisticsWork) {
  Result r = graft("opt --load-pass-plugin=" + kExample + " -p FoldDoubleNegation --stats " +
                   src("examples/plugin/tests/with-dce.py") + " --module Before -o /dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fold-double-negation.folded = 1"), std::string::npos) << r.out;
}

TEST(PassPlugin, PassesListsThePluginsPass) {
  Result r = graft("passes --load-pass-plugin=" + kExample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fold-double-negation (FoldDoubleNegation)"), std::string::npos) << r.out;
}

TEST(PassPlugin, WithoutThePluginThePassIsUnknown) {
  Result r = graft("opt -p fold-double-negation " + src("examples/plugin/tests/fold.py") +
                   " --module Before");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST(PassPlugin, MissingFileIsBadInput) {
  Result r = graft("opt --load-pass-plugin=/nonexistent/p.so -p canonicalize-bindings " +
                   src("examples/mlp.py"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "graft: error: pass plugin '/nonexistent/p.so': no such file\n");
}

TEST(PassPlugin, AFileThatIsNoSharedObjectIsBadInput) {
  Result r =
      graft("opt --load-pass-plugin=" + src("examples/mlp.py") + " " + src("examples/mlp.py"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.out.find("graft: error: pass plugin '" + src("examples/mlp.py") + "': cannot load it: "),
      0u)
      << r.out;
}

TEST(PassPlugin, AnUndefinedSymbolIsBadInputAtLoadTime) {
  Result r = graft("passes --load-pass-plugin=" + plugin("MissingSymbol"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.out.find("graft: error: pass plugin '" + plugin("MissingSymbol") + "': cannot load it: "),
      0u)
      << r.out;
  EXPECT_NE(r.out.find("undefined symbol: graftNoSuchFunction"), std::string::npos) << r.out;
}

TEST(PassPlugin, NoEntryPointIsBadInput) {
  Result r = graft("test --load-pass-plugin=" + plugin("NoEntryPoint") + " " +
                   src("examples/plugin/tests"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "graft: error: pass plugin '" + plugin("NoEntryPoint") +
                       "': not a graft pass plugin: it exports no 'graftGetPassPluginInfo' (see "
                       "docs/packaging.md)\n");
}

TEST(PassPlugin, AnotherApiVersionIsRefused) {
  Result r = graft("passes --load-pass-plugin=" + plugin("WrongVersion"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "graft: error: pass plugin '" + plugin("WrongVersion") +
                       "': built for plugin API version 999, this graft loads version 1: "
                       "rebuild it against this graft\n");
}

TEST(PassPlugin, ANameGraftHasIsRefused) {
  Result r = graft("passes --load-pass-plugin=" + plugin("NameClash"));
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "graft: error: pass plugin '" + plugin("NameClash") +
                       "': registers pass 'dead-code-elimination', a name graft already has\n");
}

} // namespace
