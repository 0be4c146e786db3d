//===- tools/graft/VizCommand.cpp - graft viz -------------------------------===//
//
// Draws one function after an optional pipeline (docs/viz.md): the graph and
// its DOT text come from graft_viz; SVG and PNG are rendered here through
// Graphviz's library when graft was built with it (GRAFT_HAS_GRAPHVIZ).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "viz/FunctionGraph.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifdef GRAFT_HAS_GRAPHVIZ
#include <gvc.h>
#endif

using namespace graft;
using namespace graft::driver;

namespace {

llvm::Error vizError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void printVizError(llvm::Error err) {
  llvm::errs() << "graft viz: error: " << llvm::toString(std::move(err)) << "\n";
}

/// "dot", "svg" or "png" from the output's name ("-": DOT on standard output).
llvm::Expected<std::string> outputFormat(llvm::StringRef output) {
  if (output.empty())
    return vizError("no output file (use -o OUT.svg, OUT.png or OUT.dot; -o - writes DOT text "
                    "to standard output)");
  if (output == "-")
    return std::string("dot");
  std::string ext = llvm::sys::path::extension(output).lower();
  if (ext == ".dot" || ext == ".gv")
    return std::string("dot");
  if (ext != ".svg" && ext != ".png")
    return vizError("cannot tell the picture format of '" + output +
                    "': its name must end in .svg, .png or .dot");
#ifndef GRAFT_HAS_GRAPHVIZ
  return vizError("this graft was built without Graphviz's library (libgraphviz-dev), so it "
                  "writes .dot only: write '" +
                  llvm::sys::path::stem(output) + ".dot' and render it with `dot -T" +
                  ext.substr(1) + "`, or rebuild after tools/setup.sh");
#else
  return ext.substr(1);
#endif
}

llvm::Error makeParentFolder(llvm::StringRef output) {
  llvm::StringRef parent = llvm::sys::path::parent_path(output);
  if (parent.empty())
    return llvm::Error::success();
  if (std::error_code ec = llvm::sys::fs::create_directories(parent))
    return vizError("cannot create the folder '" + parent + "' of '" + output +
                    "': " + ec.message());
  return llvm::Error::success();
}

llvm::Error writeText(llvm::StringRef output, llvm::StringRef text) {
  if (output == "-") {
    llvm::outs() << text;
    return llvm::Error::success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(output, ec);
  if (ec)
    return vizError("cannot write " + output + ": " + ec.message());
  os << text;
  return llvm::Error::success();
}

#ifdef GRAFT_HAS_GRAPHVIZ
/// Lays `dot` out with Graphviz's dot engine and renders it to `output`.
llvm::Error render(llvm::StringRef dot, llvm::StringRef format, llvm::StringRef output) {
  agseterr(AGERR); // Graphviz's own warnings are about layout, not the user's input.
  GVC_t *gvc = gvContext();
  std::string text = dot.str();
  Agraph_t *graph = agmemread(text.c_str());
  llvm::Error err = llvm::Error::success();
  if (!graph) {
    err = vizError("Graphviz could not read the DOT text graft wrote");
  } else if (gvLayout(gvc, graph, "dot") != 0) {
    err = vizError("Graphviz could not lay the graph out");
  } else {
    std::string format0 = format.str(), output0 = output.str();
    if (gvRenderFilename(gvc, graph, format0.c_str(), output0.c_str()) != 0)
      err = vizError("Graphviz could not render " + format + " to '" + output + "' (is its " +
                     format + " plugin installed?)");
    gvFreeLayout(gvc, graph);
  }
  if (graph)
    agclose(graph);
  gvFreeContext(gvc);
  return err;
}
#endif

} // namespace

int driver::runViz(const VizArgs &args) {
  auto format = outputFormat(args.output);
  if (!format) {
    printVizError(format.takeError());
    return kBadInput;
  }
  std::unique_ptr<Input> input;
  int exitCode = kSuccess;
  if (args.pipeline.empty()) {
    // No pipeline: the function as written (a file's # PIPELINE: line is
    // for graft opt and graft test).
    input = openInput(args.file, args.moduleName, /*exactlyOne=*/true);
    if (!input)
      return kBadInput;
    if (!verifyAndReport(*input->modules.front(), input->file, false))
      return kNegative;
  } else {
    OptArgs opt;
    opt.file = args.file;
    opt.pipeline = args.pipeline;
    opt.moduleName = args.moduleName;
    opt.configs = args.configs;
    llvm::TimerGroup timers("graft", "graft viz timing");
    input = runPipelineOnFile(opt, timers, exitCode);
    if (!input)
      return exitCode;
  }

  viz::VizOptions options;
  options.showShapeBookkeeping = args.showShapes;
  auto graph = viz::buildFunctionGraph(*input->modules.front(), args.function, options);
  if (!graph) {
    printVizError(graph.takeError());
    return kBadInput;
  }
  std::string dot = viz::toDot(*graph);
  llvm::Error err = args.output == "-" ? llvm::Error::success() : makeParentFolder(args.output);
  if (!err) {
#ifdef GRAFT_HAS_GRAPHVIZ
    err = *format == "dot" ? writeText(args.output, dot) : render(dot, *format, args.output);
#else
    err = writeText(args.output, dot);
#endif
  }
  if (err) {
    printVizError(std::move(err));
    return kBadInput;
  }
  return kSuccess;
}
