//===- tests/tools/VizCliTest.cpp - graft viz, end to end ----------------------===//
//
// Exit codes, messages and outputs of graft viz (docs/viz.md). The structure
// of the graph itself is tested in tests/viz.
//
//===----------------------------------------------------------------------===//

#include "tests/tools/GraftProcess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

namespace {

using graft::test::Result;

Result graft(const std::string &args) { return graft::test::runGraft(GRAFT_BINARY, args); }

std::string src(const std::string &rel) { return std::string(GRAFT_SOURCE_DIR) + "/" + rel; }

/// A fresh folder for one test's outputs.
std::string tempDir() {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createUniqueDirectory("graft-viz-cli", path))
    ADD_FAILURE() << "cannot create a temporary folder";
  return std::string(path);
}

std::string writeTemp(const std::string &text) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("graft-viz-cli", "py", path))
    ADD_FAILURE() << "cannot create a temporary file";
  std::ofstream(std::string(path)) << text;
  return std::string(path);
}

std::string readFile(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : "<cannot read " + path + ">";
}

const char *kTwoFunctions = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def first(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

    @R.function
    def second(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        return y
)";

TEST(VizCli, NoOutputIsUsageError) {
  Result r = graft("viz " + src("examples/mlp.py"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "graft viz: error: no output file (use -o OUT.svg, OUT.png or OUT.dot; -o - "
                   "writes DOT text to standard output)\n");
}

TEST(VizCli, UnknownOutputExtensionIsUsageError) {
  for (const char *name : {"out.jpg", "out", "out.svg.txt"}) {
    Result r = graft("viz " + src("examples/mlp.py") + " -o " + name);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out, std::string("graft viz: error: cannot tell the picture format of '") + name +
                         "': its name must end in .svg, .png or .dot\n");
  }
}

TEST(VizCli, SeveralFunctionsWithoutMainNeedFn) {
  std::string path = writeTemp(kTwoFunctions);
  Result r = graft("viz " + path + " -o -");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "graft viz: error: module Module has no main and several Relax functions "
                   "(first, second): pick one with --fn\n");
  Result ok = graft("viz " + path + " --fn second -o -");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_EQ(ok.out.rfind("digraph \"second\" {", 0), 0u) << ok.out;
}

TEST(VizCli, UnknownFunctionNamesTheFunctions) {
  std::string path = writeTemp(kTwoFunctions);
  Result r = graft("viz " + path + " --fn third -o -");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "graft viz: error: no function 'third' in module Module (Relax functions: "
                   "first, second)\n");
}

TEST(VizCli, PipelineErrorsKeepTheirExitCodes) {
  Result r = graft("viz " + src("examples/mlp.py") + " -p no-such-pass -o -");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no-such-pass"), std::string::npos) << r.out;
  Result bad =
      graft("viz " + src("tests/verify/impure_call_in_pure_function.py") + " --fn main -o -");
  // check_well_formed=False files are drawn as written, as graft opt reads them.
  EXPECT_EQ(bad.code, 0) << bad.out;
}

TEST(VizCli, DotGoesToTheFileOrStandardOutput) {
  std::string dir = tempDir();
  std::string out = dir + "/sub/mlp.dot";
  Result r = graft("viz " + src("examples/mlp.py") + " -o " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  std::string dot = readFile(out);
  EXPECT_EQ(dot.rfind("digraph \"main\" {", 0), 0u) << dot;
  Result stdoutDot = graft("viz " + src("examples/mlp.py") + " -o -");
  EXPECT_EQ(stdoutDot.code, 0);
  EXPECT_EQ(stdoutDot.out, dot);
}

/// The fill colours of the nodes of a DOT text, with how many nodes use each.
std::map<std::string, unsigned> fillColours(const std::string &dot) {
  std::map<std::string, unsigned> out;
  std::regex fill("\\n +n[0-9]+ \\[[^\\n]*fillcolor=\"(#[0-9a-f]{6})\"");
  for (std::sregex_iterator it(dot.begin(), dot.end(), fill), end; it != end; ++it)
    ++out[(*it)[1]];
  return out;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(VizCli, TransformerBlockHostReadsAsWritten) {
  Result r = graft("viz " + src("examples/transformer_block.py") + " -o -");
  ASSERT_EQ(r.code, 0) << r.out;
  // The mask count of out[mask] = src[mask] and the asserted scalar.
  EXPECT_NE(r.out.find("picked\\nR.index_tensor\\n"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "[reads on host]"), 2u) << r.out;
}

TEST(VizCli, TransformerBlockAfterBuildCuda) {
  Result r = graft("viz " + src("examples/transformer_block.py") +
                   " -p build-cuda --config relax.backend.use_cuda_graph=true -o -");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string &dot = r.out;
  // stage-cuda-graph-inputs copies x into a static buffer: the block is one capture.
  EXPECT_NE(dot.find("label=\"CUDA graph capture main_cuda_graph_capture (launch 0"),
            std::string::npos)
      << dot;
  // build-cuda fuses the masked copy and drops the device check: no host
  // read is left.
  EXPECT_EQ(count(dot, "[reads on host]"), 0u) << dot;
  // Storages that static-plan-block-memory reused: several colours, each on
  // a storage, at least two tensors and their kernels.
  std::map<std::string, unsigned> colours = fillColours(dot);
  colours.erase("#ffffff");
  EXPECT_GE(colours.size(), 3u) << dot;
  for (const auto &[colour, nodes] : colours)
    EXPECT_GE(nodes, 5u) << colour; // storage, 2 tensors, 2 kernels
  EXPECT_NE(dot.find("subgraph cluster_legend"), std::string::npos);
  // Kills, each right after the binding it follows.
  EXPECT_NE(dot.find("[label=\"kill alloc\", shape=octagon"), std::string::npos) << dot;
  EXPECT_NE(dot.find("[style=invis]"), std::string::npos) << dot;
  // Shape bookkeeping is hidden unless asked for.
  EXPECT_EQ(dot.find("vm.builtin.make_shape"), std::string::npos);
  Result all =
      graft("viz " + src("examples/transformer_block.py") +
            " -p build-cuda --config relax.backend.use_cuda_graph=true --show-shapes -o -");
  EXPECT_NE(all.out.find("vm.builtin.make_shape"), std::string::npos);
}

TEST(VizCli, CaptureRegionsAreClusters) {
  Result r = graft("viz " + src("examples/dynamic_shape.py") +
                   " -p build-cuda --config relax.backend.use_cuda_graph=true -o -");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("subgraph cluster_0 {"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("label=\"CUDA graph capture main_cuda_graph_capture (launch 0"),
            std::string::npos)
      << r.out;
}

#ifdef GRAFT_HAS_GRAPHVIZ
TEST(VizCli, SvgAndPngAreRendered) {
  std::string dir = tempDir();
  Result svg = graft("viz " + src("examples/mlp.py") + " -o " + dir + "/mlp.svg");
  EXPECT_EQ(svg.code, 0) << svg.out;
  std::string text = readFile(dir + "/mlp.svg");
  EXPECT_NE(text.find("<svg"), std::string::npos) << text.substr(0, 200);
  EXPECT_NE(text.find("function main"), std::string::npos);
  Result png = graft("viz " + src("examples/mlp.py") + " -o " + dir + "/mlp.PNG");
  EXPECT_EQ(png.code, 0) << png.out;
  EXPECT_EQ(readFile(dir + "/mlp.PNG").substr(0, 8), "\x89PNG\r\n\x1a\n");
}
#else
TEST(VizCli, WithoutGraphvizSvgAndPngAreRefused) {
  for (const char *ext : {"svg", "png"}) {
    Result r = graft("viz " + src("examples/mlp.py") + " -o out/mlp." + ext);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out, std::string("graft viz: error: this graft was built without Graphviz's "
                                 "library (libgraphviz-dev), so it writes .dot only: write "
                                 "'mlp.dot' and render it with `dot -T") +
                         ext + "`, or rebuild after tools/setup.sh\n");
  }
}
#endif

TEST(VizCli, UnwritableOutputIsBadInput) {
  Result r = graft("viz " + src("examples/mlp.py") + " -o /proc/graft-no-such/x.dot");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("graft viz: error: cannot create the folder '/proc/graft-no-such'"),
            std::string::npos)
      << r.out;
}

} // namespace
