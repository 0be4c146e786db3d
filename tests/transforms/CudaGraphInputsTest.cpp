//===- tests/transforms/CudaGraphInputsTest.cpp - What a capture reads ------===//
//
// A CUDA graph replays the addresses of its capture, and the runtime refuses
// a hit whose inputs moved (docs/cuda.md, "Hit"). So after build-cuda with
// graphs on, every input of every run_or_capture in the examples must be
// something whose address is the same on every call: a storage of
// cuda_graph_alloc (get_cached_alloc, made once per VM), a tensor made on
// one, a weight (a parameter from num_input on, bound once by the caller),
// or a value compared by equality (shapes, prim values). An activation
// parameter (before num_input) or a per-call allocation must never be one:
// stage-cuda-graph-inputs copies activations to static tensors first
// (docs/cuda-graphs.md).
//
//===----------------------------------------------------------------------===//

#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Visitor.h"
#include "pass/PassManager.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"

#include "llvm/ADT/DenseMap.h"

#include <gtest/gtest.h>

using namespace graft;

namespace {

/// The builtin a call_builtin_with_ctx / call_packed names, or "".
llvm::StringRef builtinOf(const ExprNode *e) {
  const auto *call = llvm::dyn_cast_or_null<CallNode>(e);
  if (!call || call->args.empty())
    return "";
  if (const auto *f = llvm::dyn_cast<ExternFuncNode>(call->args[0].get()))
    return f->symbol;
  return "";
}

/// Checks every run_or_capture input of `fn`; returns one line per input
/// whose address may change between calls, and counts the regions.
std::vector<std::string> movingInputs(const FunctionNode &fn, unsigned &regions) {
  int64_t numInput = int64_t(fn.params.size());
  if (const AttrValue *n = fn.attr("num_input"); n && n->kind() == AttrValue::Kind::Int)
    numInput = n->getInt();
  llvm::DenseMap<const VarNode *, int64_t> paramIndex;
  for (size_t i = 0; i < fn.params.size(); ++i)
    paramIndex[fn.params[i].get()] = int64_t(i);
  struct Collect : ExprVisitor {
    llvm::DenseMap<const VarNode *, const ExprNode *> values;
    std::vector<const CallNode *> captures;
    void visitVarBinding(const VarBindingNode *b) override {
      values[b->var.get()] = b->value.get();
      if (builtinOf(b->value.get()) == "vm.builtin.cuda_graph.run_or_capture")
        captures.push_back(llvm::cast<CallNode>(b->value.get()));
      ExprVisitor::visitVarBinding(b);
    }
  } c;
  c.visitFunction(&fn);
  // Static: a field of get_cached_alloc's tuple, or a tensor made on one.
  auto isStatic = [&](const VarNode *v) {
    for (int hops = 0; v && hops < 2; ++hops) {
      const ExprNode *value = c.values.lookup(v);
      if (const auto *item = llvm::dyn_cast_or_null<TupleGetItemNode>(value)) {
        const auto *tuple = llvm::dyn_cast<VarNode>(item->tuple.get());
        return tuple &&
               builtinOf(c.values.lookup(tuple)) == "vm.builtin.cuda_graph.get_cached_alloc";
      }
      const auto *call = llvm::dyn_cast_or_null<CallNode>(value);
      const auto *op = call ? llvm::dyn_cast<OpNode>(call->op.get()) : nullptr;
      if (!op || !op->name().endswith("vm.alloc_tensor") || call->args.empty())
        return false;
      v = llvm::dyn_cast<VarNode>(call->args[0].get());
    }
    return false;
  };
  std::vector<std::string> out;
  for (const CallNode *call : c.captures) {
    ++regions;
    const auto *args =
        call->args.size() > 1 ? llvm::dyn_cast<TupleNode>(call->args[1].get()) : nullptr;
    const auto *inputs = args && args->fields.size() > 1
                             ? llvm::dyn_cast<TupleNode>(args->fields[1].get())
                             : nullptr;
    if (!inputs) {
      out.push_back("a run_or_capture without an input tuple");
      continue;
    }
    for (size_t i = 0; i < inputs->fields.size(); ++i) {
      const ExprNode *in = inputs->fields[i].get();
      const auto *v = llvm::dyn_cast<VarNode>(in);
      if (!v || llvm::isa_and_nonnull<ShapeSInfoNode>(v->sinfo.get()) ||
          llvm::isa_and_nonnull<PrimSInfoNode>(v->sinfo.get()))
        continue; // Compared by value.
      auto p = paramIndex.find(v);
      if (p != paramIndex.end() ? p->second >= numInput : isStatic(v))
        continue;
      out.push_back(
          "input " + std::to_string(i) + " (" + v->name + ")" +
          (p != paramIndex.end() ? " is an activation parameter" : " is not a cached allocation"));
    }
  }
  return out;
}

TEST(CudaGraphInputs, EveryCaptureInputOfTheExamplesKeepsItsAddress) {
  unsigned regions = 0;
  for (const char *name : {"transformer_block.py", "mlp.py", "dynamic_shape.py"}) {
    std::string path = std::string(GRAFT_SOURCE_DIR) + "/examples/" + name;
    SCOPED_TRACE(path);
    auto file = parseFile(path);
    ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
    IRModule &module = *file->modules.front();
    auto pipeline = parsePipeline("build-cuda");
    ASSERT_TRUE(bool(pipeline)) << llvm::toString(pipeline.takeError());
    PassManager pm(PassManagerOptions{});
    PassContext ctx;
    ctx.config["relax.backend.use_cuda_graph"] = "true";
    ASSERT_FALSE(bool(pm.run(module, *pipeline, ctx)));
    const ModuleEntry *entry = module.lookup("main");
    ASSERT_TRUE(entry && entry->asFunction());
    for (const std::string &line : movingInputs(*entry->asFunction(), regions))
      ADD_FAILURE() << name << ": " << line;
  }
  // transformer_block.py and mlp.py are captured whole (docs/cuda-graphs.md).
  EXPECT_GE(regions, 2u);
}

} // namespace
