//===- viz/FunctionGraph.h - One Relax function as a picture's graph -*- C++ -*-===//
//
// What `graft viz` draws (docs/viz.md): the bindings of one function as
// nodes (name, op, struct info), dataflow edges between them, each CUDA-graph
// capture that rewrite-cuda-graph made as a cluster holding the capture
// function's bindings, host reads marked, the tensors of one storage that
// static-plan-block-memory reused in one shared colour, and each kill as a
// node of its own right after the binding it follows. `writeDot` prints it as
// Graphviz DOT text; rendering DOT to SVG or PNG is the tool's business.
//
// Library graft_viz: depends on graft_analysis and graft_ir only.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VIZ_FUNCTIONGRAPH_H
#define GRAFT_VIZ_FUNCTIONGRAPH_H

#include "ir/Module.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace graft::viz {

/// What a node stands for; decides its shape and style.
enum class Role : uint8_t {
  Param,   ///< A function parameter.
  Value,   ///< A binding that computes something on the device or host.
  Storage, ///< A storage allocation (or a storage fetched from cuda_graph_alloc).
  Tensor,  ///< A tensor allocation, of a storage or fresh.
  Kill,    ///< The end of a value's lifetime (a kill op).
  Return,  ///< The function's result.
};

struct VizNode {
  std::string id; ///< DOT identifier: n0, n1, ...
  /// The var's name, made unique per function as the printer does (`alloc`,
  /// `alloc_1`, ...); for a kernel call that writes into an output tensor
  /// (destination passing), that tensor's name. "" for a kill or the return.
  std::string name;
  std::string op;   ///< What computes it: "R.matmul", "graft.matmul", "gv[0]", ...
  std::string type; ///< Its struct info, shortened ("Tensor((seq, 64), float32)").
  Role role = Role::Value;
  /// Reads device data back on the host (a mask count, an asserted scalar):
  /// a synchronization, and a binding no CUDA graph can hold.
  bool hostRead = false;
  /// Index into FunctionGraph::storages when the node is a storage that
  /// backs more than one tensor, one of those tensors, or a kernel call
  /// writing into one of them; -1 otherwise.
  int storage = -1;
  /// Index into FunctionGraph::clusters when the node is a binding of a
  /// capture function drawn inside its launch; -1 otherwise.
  int cluster = -1;
};

enum class EdgeKind : uint8_t {
  Data,   ///< The target reads the source's value.
  Writes, ///< The target (a kernel call) writes into the source (its output tensor).
  Kill,   ///< The target (a kill) ends the source's lifetime.
};

struct VizEdge {
  unsigned from, to;
  EdgeKind kind = EdgeKind::Data;
};

/// One CUDA-graph launch (`vm.builtin.cuda_graph.run_or_capture`) with the
/// bindings of the capture function it runs.
struct VizCluster {
  std::string function; ///< The capture function ("main_cuda_graph_capture").
  std::string launch;   ///< The var the launch binds in the drawn function.
  std::string index;    ///< The launch's entry index, as written.
};

/// A storage whose memory more than one tensor uses in turn.
struct VizStorage {
  std::string name;
  std::string colour; ///< "#rrggbb", shared by the storage and its tensors.
  unsigned tensors = 0;
};

struct FunctionGraph {
  std::string function;
  std::vector<VizNode> nodes;
  std::vector<VizEdge> edges;
  std::vector<VizCluster> clusters;
  std::vector<VizStorage> storages;
  /// Kills that follow a binding, as (binding, kill) node pairs: drawn as
  /// invisible edges that keep each kill right below the binding it follows.
  std::vector<std::pair<unsigned, unsigned>> killOrder;
};

struct VizOptions {
  /// Draw the host-side shape bookkeeping that vm-shape-lower adds (the
  /// shape heap, make_shape, match_shape, shape functions) and bindings of
  /// shapes and scalars; hidden by default, as they would outnumber the rest.
  bool showShapeBookkeeping = false;
};

/// The Relax function to draw: `name`, or without a name `main`, or the
/// module's only Relax function. Errors name the module's Relax functions.
llvm::Expected<const FunctionNode *> selectFunction(const IRModule &module, llvm::StringRef name,
                                                    std::string *chosen = nullptr);

/// The graph of function `name` of `module` (see selectFunction).
llvm::Expected<FunctionGraph> buildFunctionGraph(const IRModule &module, llvm::StringRef name,
                                                 const VizOptions &options = {});

/// Graphviz DOT text of `graph`: one `digraph`, one `subgraph cluster_N` per
/// capture launch, node labels `name`, `op`, `type` on three lines.
void writeDot(const FunctionGraph &graph, llvm::raw_ostream &os);
std::string toDot(const FunctionGraph &graph);

} // namespace graft::viz

#endif // GRAFT_VIZ_FUNCTIONGRAPH_H
