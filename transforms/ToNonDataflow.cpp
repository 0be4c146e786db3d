//===- transforms/ToNonDataflow.cpp - Dataflow blocks to plain blocks -------===//
//
// `to-non-dataflow` (TVM's ToNonDataflow, TVM `src/relax/transform/to_non_dataflow.cc`): the VM
// code generator handles neither DataflowBlocks nor DataflowVars, and the later lowering passes
// insert impure calls, which a dataflow block may not hold. Every dataflow block becomes a plain
// block with the same bindings, every DataflowVar definition a fresh Var of the same name and
// struct info (uses follow), and adjacent plain blocks merge. Nested functions are included.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/LoweringSupport.h"
#include "transforms/Passes.h"

#include "ir/Visitor.h"

using namespace graft;

static constexpr const char *kPassName = "to-non-dataflow";

namespace {

class DataflowRemover : public ExprMutator {
public:
  explicit DataflowRemover(const IRModule *module) : ExprMutator(module) {}

  int64_t blocksConverted = 0;

  llvm::Expected<Expr> rewriteSeqExpr(const SeqExprNode *seq) override {
    bool anyDataflow = false;
    for (const BindingBlock &block : seq->blocks)
      anyDataflow |= block->isDataflow;
    if (!anyDataflow)
      return ExprMutator::rewriteSeqExpr(seq);
    std::vector<BindingBlock> blocks;
    blocks.reserve(seq->blocks.size() + 1);
    for (const BindingBlock &block : seq->blocks) {
      blocksConverted += block->isDataflow;
      BlockBuilder::BlockScope scope(builder_, /*isDataflow=*/false);
      if (llvm::Error err = rewriteBlock(block.get()))
        return err;
      blocks.push_back(scope.finish());
    }
    BlockBuilder::BlockScope trailingScope(builder_, /*isDataflow=*/false);
    llvm::Expected<Expr> body = rewriteExpr(seq->body);
    BindingBlock trailing = trailingScope.finish();
    if (!body)
      return body.takeError();
    if (!trailing->bindings.empty())
      blocks.push_back(std::move(trailing));
    llvm::Expected<SeqExpr> out = builder_.finalizeSeqExpr(std::move(blocks), std::move(*body));
    if (!out)
      return out.takeError();
    return Expr(std::move(*out));
  }

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    const VarNode *var = binding->var.get();
    if (!var->isDataflow())
      return ExprMutator::rewriteBinding(binding);
    llvm::Expected<Expr> value = rewriteExpr(binding->value);
    if (!value)
      return value.takeError();
    Var fresh = make<VarNode>(var->name, var->sinfo, var->loc);
    remapVar(var, fresh);
    if (const auto *mc = llvm::dyn_cast<MatchCastNode>(binding))
      return builder_.emitBinding(
          make<MatchCastNode>(fresh, std::move(*value), mc->castSInfo, mc->loc));
    return builder_.emitBinding(make<VarBindingNode>(fresh, std::move(*value), binding->loc));
  }
};

class ToNonDataflowPass : public FunctionPass {
public:
  ToNonDataflowPass() : FunctionPass(kPassName) {}

  PassStatistic blocks{this, "blocks", "dataflow blocks turned into binding blocks"};

  llvm::Expected<Function> runOnFunction(const Function &fn) override {
    DataflowRemover remover(&module());
    llvm::Expected<Function> out = remover.rewriteFunction(fn);
    if (out && remover.blocksConverted)
      blocks += remover.blocksConverted;
    return out;
  }
};

} // namespace

void graft::registerToNonDataflowPass() {
  PassInfo info;
  info.alias = "ToNonDataflow";
  info.summary = "Turns dataflow blocks into plain binding blocks and DataflowVars into Vars";
  info.preconditions = "none";
  registerPass<ToNonDataflowPass>(std::move(info));
}
