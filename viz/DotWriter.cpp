//===- viz/DotWriter.cpp - FunctionGraph as Graphviz DOT text ---------------===//

#include "viz/FunctionGraph.h"

#include "llvm/ADT/SmallVector.h"

using namespace graft;
using namespace graft::viz;

namespace {

constexpr llvm::StringLiteral kHostReadColour = "#d62728";
constexpr llvm::StringLiteral kClusterColour = "#1f77b4";
constexpr llvm::StringLiteral kClusterFill = "#eef4fb";

/// A DOT double-quoted string: quotes and backslashes escaped, `\n` kept as
/// DOT's centred line break.
void quoted(llvm::raw_ostream &os, llvm::StringRef text) {
  os << '"';
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\';
    os << c;
  }
  os << '"';
}

std::string label(const VizNode &n) {
  std::string text;
  auto line = [&](llvm::StringRef s) {
    if (s.empty())
      return;
    if (!text.empty())
      text += '\n';
    text += s.str();
  };
  line(n.name);
  line(n.op);
  line(n.type);
  if (n.hostRead)
    line("[reads on host]");
  return text;
}

void writeNode(llvm::raw_ostream &os, const FunctionGraph &g, const VizNode &n,
               llvm::StringRef indent) {
  os << indent << n.id << " [label=";
  // DOT's escString takes "\n" as a line break; write the two characters.
  std::string text = label(n);
  std::string escaped;
  for (char c : text) {
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c;
  }
  os << '"' << escaped << '"';
  switch (n.role) {
  case Role::Param:
    os << ", shape=invhouse";
    break;
  case Role::Kill:
    os << ", shape=octagon, style=dashed, fontcolor=\"#555555\", color=\"#999999\", fontsize=9";
    break;
  case Role::Return:
    os << ", shape=house";
    break;
  case Role::Storage:
    os << ", shape=cylinder";
    break;
  default:
    os << ", shape=box";
    break;
  }
  if (n.role != Role::Kill) {
    llvm::StringRef fill =
        n.storage >= 0 ? llvm::StringRef(g.storages[n.storage].colour) : llvm::StringRef("#ffffff");
    os << ", style=\"filled" << (n.role == Role::Tensor || n.role == Role::Value ? ",rounded" : "")
       << "\", fillcolor=\"" << fill << "\"";
  }
  if (n.hostRead)
    os << ", color=\"" << kHostReadColour << "\", penwidth=3";
  os << "];\n";
}

} // namespace

void viz::writeDot(const FunctionGraph &g, llvm::raw_ostream &os) {
  os << "digraph ";
  quoted(os, g.function);
  os << " {\n";
  os << "  graph [rankdir=TB, fontname=\"Helvetica\", label=";
  quoted(os, "function " + g.function);
  os << ", labelloc=t];\n";
  os << "  node [fontname=\"Helvetica\", fontsize=10];\n";
  os << "  edge [color=\"#444444\"];\n";

  for (const VizNode &n : g.nodes)
    if (n.cluster < 0)
      writeNode(os, g, n, "  ");
  for (size_t c = 0; c < g.clusters.size(); ++c) {
    const VizCluster &cluster = g.clusters[c];
    os << "  subgraph cluster_" << c << " {\n";
    os << "    label=";
    std::string text = "CUDA graph capture " + cluster.function;
    if (!cluster.index.empty())
      text += " (launch " + cluster.index + ", bound to " + cluster.launch + ")";
    quoted(os, text);
    os << ";\n    style=\"rounded,filled\"; color=\"" << kClusterColour << "\"; fillcolor=\""
       << kClusterFill << "\"; penwidth=2;\n";
    for (const VizNode &n : g.nodes)
      if (n.cluster == static_cast<int>(c))
        writeNode(os, g, n, "    ");
    os << "  }\n";
  }

  for (const VizEdge &e : g.edges) {
    os << "  " << g.nodes[e.from].id << " -> " << g.nodes[e.to].id;
    if (e.kind == EdgeKind::Kill)
      os << " [style=dashed, color=\"#999999\", arrowhead=tee]";
    else if (e.kind == EdgeKind::Writes)
      os << " [style=dotted, arrowhead=empty]";
    os << ";\n";
  }
  // Keeps each kill right below the binding it follows, where it happens.
  for (auto [after, kill] : g.killOrder)
    os << "  " << g.nodes[after].id << " -> " << g.nodes[kill].id << " [style=invis];\n";

  if (!g.storages.empty()) {
    os << "  subgraph cluster_legend {\n    label=\"storages reused (one colour each)\"; "
          "style=dashed; color=\"#999999\";\n";
    for (size_t s = 0; s < g.storages.size(); ++s) {
      os << "    legend" << s << " [shape=box, style=filled, fillcolor=\"" << g.storages[s].colour
         << "\", label=";
      quoted(os, g.storages[s].name + ": " + std::to_string(g.storages[s].tensors) + " tensors");
      os << "];\n";
    }
    os << "  }\n";
  }
  os << "}\n";
}

std::string viz::toDot(const FunctionGraph &graph) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeDot(graph, os);
  return os.str();
}
