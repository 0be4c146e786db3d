//===- tests/viz/FunctionGraphTest.cpp - graft viz's graph and DOT text ------===//
//
// The structure of what graft viz draws, not pixels: nodes and their labels,
// edges, capture clusters, host reads, shared colours of reused storages,
// kills (docs/viz.md).
//
//===----------------------------------------------------------------------===//

#include "viz/FunctionGraph.h"

#include "text/Parser.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace graft;
using namespace graft::viz;

namespace {

struct Drawn {
  ParsedFile file;
  FunctionGraph graph;
  std::string dot;
};

Drawn draw(const std::string &text, llvm::StringRef fn = "", VizOptions options = {}) {
  Drawn d;
  auto parsed = parseText(text, "viz-test.py");
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return d;
  }
  d.file = std::move(*parsed);
  auto graph = buildFunctionGraph(*d.file.modules.front(), fn, options);
  if (!graph) {
    ADD_FAILURE() << llvm::toString(graph.takeError());
    return d;
  }
  d.graph = std::move(*graph);
  d.dot = toDot(d.graph);
  return d;
}

/// The error buildFunctionGraph gives for `fn`.
std::string drawError(const std::string &text, llvm::StringRef fn) {
  auto parsed = parseText(text, "viz-test.py");
  if (!parsed)
    return "parse error: " + llvm::toString(parsed.takeError());
  auto graph = buildFunctionGraph(*parsed->modules.front(), fn);
  if (graph)
    return "no error";
  return llvm::toString(graph.takeError());
}

/// Indices of the nodes with `name` (DPS writes share their tensor's name).
std::vector<unsigned> nodesNamed(const FunctionGraph &g, llvm::StringRef name) {
  std::vector<unsigned> out;
  for (unsigned i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].name == name)
      out.push_back(i);
  return out;
}

unsigned onlyNode(const FunctionGraph &g, llvm::StringRef name, llvm::StringRef op) {
  for (unsigned i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].name == name && g.nodes[i].op == op)
      return i;
  ADD_FAILURE() << "no node " << name.str() << " (" << op.str() << ")";
  return 0;
}

bool hasEdge(const FunctionGraph &g, unsigned from, unsigned to, EdgeKind kind = EdgeKind::Data) {
  return std::any_of(g.edges.begin(), g.edges.end(), [&](const VizEdge &e) {
    return e.from == from && e.to == to && e.kind == kind;
  });
}

/// The DOT attribute `key="value"` of node `id`'s line.
std::string attr(const std::string &dot, const std::string &id, const std::string &key) {
  size_t line = dot.find("\n  " + id + " [");
  if (line == std::string::npos)
    line = dot.find("\n    " + id + " [");
  if (line == std::string::npos)
    return "<no node " + id + ">";
  size_t end = dot.find('\n', line + 1);
  std::string text = dot.substr(line, end - line);
  size_t at = key == "label" ? text.find("[label=\"") : text.find(", " + key + "=\"");
  if (at == std::string::npos)
    return "<no " + key + ">";
  at = text.find('"', at) + 1;
  return text.substr(at, text.find('"', at) - at);
}

const char *kChain = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            y = R.add(x, x)
            z = R.multiply(y, x)
            R.output(z)
        return z
)";

TEST(FunctionGraph, BindingsAreNodesWithOpAndShape) {
  Drawn d = draw(kChain);
  const FunctionGraph &g = d.graph;
  ASSERT_EQ(g.nodes.size(), 4u); // x, y, z, return
  EXPECT_EQ(g.function, "main");
  EXPECT_EQ(g.nodes[0].role, Role::Param);
  unsigned y = onlyNode(g, "y", "R.add"), z = onlyNode(g, "z", "R.multiply");
  EXPECT_EQ(g.nodes[y].type, "Tensor((4,), float32)");
  EXPECT_TRUE(hasEdge(g, 0, y));
  EXPECT_TRUE(hasEdge(g, y, z));
  EXPECT_TRUE(hasEdge(g, 0, z));
  EXPECT_EQ(g.nodes.back().role, Role::Return);
  EXPECT_TRUE(hasEdge(g, z, 3));
  EXPECT_EQ(g.edges.size(), 4u) << "x is read twice by y: one edge";

  EXPECT_EQ(d.dot.rfind("digraph \"main\" {\n", 0), 0u) << d.dot;
  EXPECT_NE(d.dot.find("n1 [label=\"y\\nR.add\\nTensor((4,), float32)\""), std::string::npos)
      << d.dot;
  EXPECT_NE(d.dot.find("  n0 -> n1;\n"), std::string::npos) << d.dot;
  EXPECT_NE(d.dot.find("  n1 -> n2;\n"), std::string::npos) << d.dot;
  EXPECT_EQ(d.dot.find("subgraph cluster_"), std::string::npos) << d.dot;
  EXPECT_EQ(d.dot.back(), '\n');
  EXPECT_EQ(d.dot.substr(d.dot.size() - 2), "}\n");
}

// The chain after legalize-ops, ..., static-plan-block-memory and
// kill-after-last-use: `storage` backs alloc and alloc_2 in turn,
// storage_1 backs alloc_1 only.
const char *kPlanned = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        __1: R.Object = R.call_packed("graft.exp", x, alloc)
        storage_1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage_1)
        __2: R.Object = R.call_packed("graft.exp", alloc, alloc_1)
        R.memory.kill_tensor(alloc)
        alloc_2: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage)
        __3: R.Object = R.call_packed("graft.exp", alloc_1, alloc_2)
        R.memory.kill_tensor(alloc_1)
        alloc_3: R.Tensor((4,), dtype="float32") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((4,), dtype="float32"),))
        __4: R.Object = R.call_packed("graft.exp", alloc_2, alloc_3)
        R.memory.kill_tensor(alloc_2)
        return alloc_3
)";

TEST(FunctionGraph, ReusedStorageSharesOneColour) {
  Drawn d = draw(kPlanned);
  const FunctionGraph &g = d.graph;
  ASSERT_EQ(g.storages.size(), 1u) << "only `storage` is reused";
  EXPECT_EQ(g.storages[0].name, "storage");
  EXPECT_EQ(g.storages[0].tensors, 2u);
  unsigned storage = onlyNode(g, "storage", "R.memory.alloc_storage");
  unsigned alloc = onlyNode(g, "alloc", "R.memory.alloc_tensor");
  unsigned alloc2 = onlyNode(g, "alloc_2", "R.memory.alloc_tensor");
  unsigned storage1 = onlyNode(g, "storage_1", "R.memory.alloc_storage");
  unsigned alloc1 = onlyNode(g, "alloc_1", "R.memory.alloc_tensor");
  EXPECT_EQ(g.nodes[storage].role, Role::Storage);
  EXPECT_EQ(g.nodes[alloc].role, Role::Tensor);
  EXPECT_EQ(g.nodes[storage].storage, 0);
  EXPECT_EQ(g.nodes[alloc].storage, 0);
  EXPECT_EQ(g.nodes[alloc2].storage, 0);
  EXPECT_EQ(g.nodes[storage1].storage, -1);
  EXPECT_EQ(g.nodes[alloc1].storage, -1);

  std::string colour = attr(d.dot, g.nodes[storage].id, "fillcolor");
  EXPECT_EQ(colour, g.storages[0].colour);
  EXPECT_NE(colour, "#ffffff");
  EXPECT_EQ(attr(d.dot, g.nodes[alloc].id, "fillcolor"), colour);
  EXPECT_EQ(attr(d.dot, g.nodes[alloc2].id, "fillcolor"), colour);
  EXPECT_EQ(attr(d.dot, g.nodes[storage1].id, "fillcolor"), "#ffffff");
  EXPECT_EQ(attr(d.dot, g.nodes[alloc1].id, "fillcolor"), "#ffffff");
  // The kernels writing into storage's tensors carry its colour too.
  unsigned write0 = onlyNode(g, "alloc", "graft.exp");
  EXPECT_EQ(attr(d.dot, g.nodes[write0].id, "fillcolor"), colour);
  EXPECT_EQ(attr(d.dot, g.nodes[onlyNode(g, "alloc_1", "graft.exp")].id, "fillcolor"), "#ffffff");
  EXPECT_NE(d.dot.find("subgraph cluster_legend"), std::string::npos) << d.dot;
  EXPECT_NE(d.dot.find("storage: 2 tensors"), std::string::npos) << d.dot;
}

TEST(FunctionGraph, KernelWritesStandForTheirOutputTensor) {
  Drawn d = draw(kPlanned);
  const FunctionGraph &g = d.graph;
  unsigned alloc = onlyNode(g, "alloc", "R.memory.alloc_tensor");
  unsigned write0 = onlyNode(g, "alloc", "graft.exp");
  unsigned write1 = onlyNode(g, "alloc_1", "graft.exp");
  EXPECT_TRUE(hasEdge(g, 0, write0)) << "reads x";
  EXPECT_TRUE(hasEdge(g, alloc, write0, EdgeKind::Writes));
  EXPECT_FALSE(hasEdge(g, alloc, write0, EdgeKind::Data));
  // The next kernel reads what the first wrote, not the empty allocation.
  EXPECT_TRUE(hasEdge(g, write0, write1));
  EXPECT_FALSE(hasEdge(g, alloc, write1));
  EXPECT_NE(d.dot.find(g.nodes[alloc].id + " -> " + g.nodes[write0].id + " [style=dotted"),
            std::string::npos)
      << d.dot;
  // The result is what the last kernel wrote.
  unsigned last = onlyNode(g, "alloc_3", "graft.exp");
  EXPECT_TRUE(hasEdge(g, last, g.nodes.size() - 1));
}

TEST(FunctionGraph, KillsAreNodesWhereTheyHappen) {
  Drawn d = draw(kPlanned);
  const FunctionGraph &g = d.graph;
  std::vector<unsigned> kills;
  for (unsigned i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].role == Role::Kill)
      kills.push_back(i);
  ASSERT_EQ(kills.size(), 5u);
  unsigned killAlloc = 0;
  for (unsigned k : kills)
    if (g.nodes[k].op == "kill alloc")
      killAlloc = k;
  ASSERT_NE(killAlloc, 0u);
  // alloc is killed after the kernel that last reads it; the kill edge
  // comes from what alloc holds (the first kernel's write).
  unsigned write0 = onlyNode(g, "alloc", "graft.exp");
  unsigned write1 = onlyNode(g, "alloc_1", "graft.exp");
  EXPECT_TRUE(hasEdge(g, write0, killAlloc, EdgeKind::Kill));
  EXPECT_NE(std::find(g.killOrder.begin(), g.killOrder.end(), std::make_pair(write1, killAlloc)),
            g.killOrder.end())
      << "kill alloc follows the kernel writing alloc_1";
  EXPECT_NE(d.dot.find(g.nodes[write1].id + " -> " + g.nodes[killAlloc].id + " [style=invis]"),
            std::string::npos)
      << d.dot;
  EXPECT_EQ(attr(d.dot, g.nodes[killAlloc].id, "label"), "kill alloc");
  EXPECT_NE(d.dot.find(g.nodes[killAlloc].id + " [label=\"kill alloc\", shape=octagon"),
            std::string::npos)
      << d.dot;
}

const char *kHostReads = R"(from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 8), dtype="float32"), keep: R.Tensor((4, 8), dtype="bool")) -> R.Tensor(dtype="float32", ndim=1):
        picked = R.index_tensor(x, (keep,))
        total = R.sum(x)
        ok = R.greater(total, R.const(0.0, "float32"))
        R.assert_op(ok, format="positive")
        doubled = R.add(x, x)
        return picked
)";

TEST(FunctionGraph, HostReadsAreMarked) {
  Drawn d = draw(kHostReads);
  const FunctionGraph &g = d.graph;
  unsigned picked = onlyNode(g, "picked", "R.index_tensor");
  EXPECT_TRUE(g.nodes[picked].hostRead) << "a bool mask's count is read on the host";
  unsigned doubled = onlyNode(g, "doubled", "R.add");
  EXPECT_FALSE(g.nodes[doubled].hostRead);
  EXPECT_FALSE(g.nodes[onlyNode(g, "total", "R.sum")].hostRead);
  unsigned asserts = 0;
  for (const VizNode &n : g.nodes)
    if (n.op == "R.assert_op") {
      EXPECT_TRUE(n.hostRead) << "the asserted scalar is read on the host";
      ++asserts;
    }
  EXPECT_EQ(asserts, 1u);
  EXPECT_EQ(attr(d.dot, g.nodes[picked].id, "color"), "#d62728");
  EXPECT_NE(d.dot.find("[reads on host]"), std::string::npos);
  EXPECT_EQ(attr(d.dot, g.nodes[doubled].id, "color"), "<no color>");
}

// TVM's test_rewrite_cuda_graph after rewrite-cuda-graph.
const char *kCaptured = R"(from tvm.script import ir as I, relax as R, tir as T
@I.ir_module
class Module:
    @T.prim_func
    def sigmoid(a: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            b[i, j] = T.sigmoid(a[i, j])

    @R.function(private=True)
    def cuda_graph_alloc() -> R.Tuple(R.Object, R.Object, R.Object):
        R.func_attr({"relax.force_pure": True})
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        gv: R.Tuple(R.Object, R.Object, R.Object) = (s0, s1, s2)
        return gv

    @R.function(private=True)
    def main_cuda_graph_capture(t0: R.Tensor((2, 4), dtype="float32"), t1: R.Tensor((2, 4), dtype="float32"), s0: R.Object, s2: R.Object) -> R.Tuple(R.Tensor((2, 4), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        cls.sigmoid(t0, t1)
        R.memory.kill_tensor(t0)
        t2: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        cls.sigmoid(t1, t2)
        R.memory.kill_tensor(t1)
        t3: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        cls.sigmoid(t2, t3)
        R.memory.kill_tensor(t2)
        gv: R.Tuple(R.Tensor((2, 4), dtype="float32")) = (t3,)
        return gv

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        gv: R.Tuple(R.Object, R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.get_cached_alloc", (cls.cuda_graph_alloc, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object, R.Object),))
        s0: R.Object = gv[0]
        t0: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        cls.sigmoid(x, t0)
        s1: R.Object = gv[1]
        t1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        s2: R.Object = gv[2]
        gv_1: R.Tuple(R.Tensor((2, 4), dtype="float32")) = R.call_builtin_with_ctx("vm.builtin.cuda_graph.run_or_capture", (cls.main_cuda_graph_capture, (t0, t1, s0, s2), R.prim_value(0)), sinfo_args=(R.Tuple(R.Tensor((2, 4), dtype="float32")),))
        t3: R.Tensor((2, 4), dtype="float32") = gv_1[0]
        out: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.sigmoid(t3, out)
        R.memory.kill_tensor(t3)
        R.memory.kill_storage(s0)
        R.memory.kill_storage(s1)
        R.memory.kill_storage(s2)
        return out
)";

TEST(FunctionGraph, CaptureLaunchIsAClusterOfTheCaptureFunction) {
  Drawn d = draw(kCaptured);
  const FunctionGraph &g = d.graph;
  ASSERT_EQ(g.clusters.size(), 1u);
  EXPECT_EQ(g.clusters[0].function, "main_cuda_graph_capture");
  EXPECT_EQ(g.clusters[0].launch, "gv_1");
  EXPECT_EQ(g.clusters[0].index, "0");
  // The capture function's bindings are inside, the rest outside.
  unsigned t2 = onlyNode(g, "t2", "R.memory.alloc_tensor");
  unsigned t3Write = onlyNode(g, "t3", "cls.sigmoid");
  EXPECT_EQ(g.nodes[t2].cluster, 0);
  EXPECT_EQ(g.nodes[t3Write].cluster, 0);
  unsigned t0Alloc = onlyNode(g, "t0", "R.memory.alloc_tensor");
  unsigned outWrite = onlyNode(g, "out", "cls.sigmoid");
  EXPECT_EQ(g.nodes[t0Alloc].cluster, -1);
  EXPECT_EQ(g.nodes[outWrite].cluster, -1);
  // The launch's inputs feed the capture's bindings directly: t1's
  // allocation (outside) is written by the first kernel inside.
  unsigned t1Alloc = onlyNode(g, "t1", "R.memory.alloc_tensor");
  unsigned t1Write = onlyNode(g, "t1", "cls.sigmoid");
  EXPECT_EQ(g.nodes[t1Write].cluster, 0);
  EXPECT_TRUE(hasEdge(g, t1Alloc, t1Write, EdgeKind::Writes));
  // The launch's result field t3 = gv_1[0] reads what the capture wrote.
  unsigned t3Out = onlyNode(g, "t3", "gv_1[0]");
  EXPECT_TRUE(hasEdge(g, t3Write, t3Out));
  EXPECT_TRUE(hasEdge(g, t3Out, outWrite));
  // s0 (fetched from cuda_graph_alloc) backs t0 outside and t2 inside.
  unsigned s0 = onlyNode(g, "s0", "gv[0]");
  EXPECT_EQ(g.nodes[s0].role, Role::Storage);
  EXPECT_GE(g.nodes[s0].storage, 0);
  EXPECT_EQ(g.nodes[t2].storage, g.nodes[s0].storage);
  EXPECT_EQ(g.nodes[t0Alloc].storage, g.nodes[s0].storage);

  size_t open = d.dot.find("  subgraph cluster_0 {\n");
  ASSERT_NE(open, std::string::npos) << d.dot;
  size_t close = d.dot.find("\n  }\n", open);
  std::string cluster = d.dot.substr(open, close - open);
  EXPECT_NE(cluster.find("label=\"CUDA graph capture main_cuda_graph_capture (launch 0, bound to "
                         "gv_1)\""),
            std::string::npos)
      << cluster;
  EXPECT_NE(cluster.find("    " + g.nodes[t2].id + " ["), std::string::npos) << cluster;
  EXPECT_EQ(cluster.find(" " + g.nodes[t0Alloc].id + " ["), std::string::npos) << cluster;
  EXPECT_NE(d.dot.find("  " + g.nodes[t0Alloc].id + " ["), std::string::npos);
}

const char *kShapes = R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.match_shape", x, heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("x"), sinfo_args=(R.Tuple,))
        s: R.Shape([n]) = R.shape_of(x)
        y = R.add(x, x)
        return y
)";

TEST(FunctionGraph, ShapeBookkeepingIsHiddenUnlessAskedFor) {
  Drawn hidden = draw(kShapes);
  EXPECT_TRUE(nodesNamed(hidden.graph, "heap").empty());
  EXPECT_TRUE(nodesNamed(hidden.graph, "s").empty());
  EXPECT_EQ(hidden.graph.nodes.size(), 3u) << hidden.dot; // x, y, return
  VizOptions all;
  all.showShapeBookkeeping = true;
  Drawn shown = draw(kShapes, "", all);
  EXPECT_EQ(nodesNamed(shown.graph, "heap").size(), 1u);
  EXPECT_EQ(nodesNamed(shown.graph, "s").size(), 1u);
  EXPECT_EQ(shown.graph.nodes.size(), 6u) << shown.dot;
}

const char *kTwoFunctions = R"(from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        for i in range(4):
            b[i] = a[i] + a[i]

    @R.function
    def first(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

    @R.function
    def second(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y = R.add(x, x)
        return y
)";

TEST(FunctionGraph, FunctionIsChosenByNameOrMainOrTheOnlyOne) {
  EXPECT_EQ(draw(kChain).graph.function, "main");
  EXPECT_EQ(draw(kTwoFunctions, "second").graph.function, "second");
  std::string noMain = kChain;
  noMain.replace(noMain.find("def main"), 8, "def only");
  EXPECT_EQ(draw(noMain).graph.function, "only");
}

TEST(FunctionGraph, FunctionErrorsNameTheCandidates) {
  EXPECT_EQ(drawError(kTwoFunctions, ""),
            "module Module has no main and several Relax functions (first, second): pick one "
            "with --fn");
  EXPECT_EQ(drawError(kTwoFunctions, "third"),
            "no function 'third' in module Module (Relax functions: first, second)");
  EXPECT_EQ(drawError(kTwoFunctions, "add"),
            "'add' is not a Relax function in module Module (Relax functions: first, second)");
}

TEST(FunctionGraph, LabelsAreEscaped) {
  FunctionGraph g;
  g.function = "say \"hi\"";
  VizNode n;
  n.id = "n0";
  n.name = "a\\b";
  n.op = "R.str(\"x\")";
  g.nodes.push_back(n);
  std::string dot = toDot(g);
  EXPECT_NE(dot.find("digraph \"say \\\"hi\\\"\" {"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n0 [label=\"a\\\\b\\nR.str(\\\"x\\\")\""), std::string::npos) << dot;
}

} // namespace
