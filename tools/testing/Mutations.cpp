//===- tools/testing/Mutations.cpp - Single faults for the verifier --------------===//
//
// Every mutation edits the top-level blocks of `main` and rebuilds the
// function around them; the other nodes are shared with the original.
//
//===----------------------------------------------------------------------===//

#include "tools/testing/Mutations.h"

#include "ir/Expr.h"
#include "ir/Walk.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseSet.h"

#include <vector>

using namespace graft;
using namespace graft::testing;

namespace {

using Blocks = std::vector<std::vector<Binding>>;

struct Place {
  size_t block, binding;
};

bool reads(const Node *root, const VarNode *v) {
  return containsNode<VarNode>(root, [&](const VarNode *u) { return u == v; });
}

/// Whether anything after `at` (later bindings, the body) reads `v`.
bool readLater(const Blocks &blocks, const Expr &body, Place at, const VarNode *v) {
  for (size_t b = at.block; b < blocks.size(); ++b)
    for (size_t i = b == at.block ? at.binding + 1 : 0; i < blocks[b].size(); ++i)
      if (reads(blocks[b][i]->value.get(), v) || reads(blocks[b][i].get(), v))
        return true;
  return reads(body.get(), v);
}

const VarNode *defined(const Binding &b) { return b->var.get(); }

class Mutator {
public:
  Mutator(const FunctionNode &fn, const std::vector<bool> &dataflow, uint64_t choice)
      : fn_(fn), dataflow_(dataflow), choice_(choice) {
    for (const BindingBlock &block : fn.body->blocks)
      blocks.push_back(block->bindings);
  }

  bool apply(Mutation m);
  Blocks blocks;
  std::vector<bool> dataflow;

private:
  /// The choice_-th place satisfying `pred`, or none.
  template <typename Pred> llvm::Optional<Place> pick(Pred pred) {
    std::vector<Place> places;
    for (size_t b = 0; b < blocks.size(); ++b)
      for (size_t i = 0; i < blocks[b].size(); ++i)
        if (pred(Place{b, i}))
          places.push_back({b, i});
    if (places.empty())
      return llvm::None;
    return places[choice_ % places.size()];
  }
  const Binding &at(Place p) const { return blocks[p.block][p.binding]; }

  bool dropUsed();
  bool swapDependent();
  bool reannotate(bool dtype);
  bool impureInDataflow();
  bool dataflowVarOutside();
  bool symbolicBeforeDefinition();

  const FunctionNode &fn_;
  const std::vector<bool> &dataflow_;
  uint64_t choice_;
};

bool Mutator::dropUsed() {
  auto p = pick([&](Place p) { return readLater(blocks, fn_.body->body, p, defined(at(p))); });
  if (!p)
    return false;
  blocks[p->block].erase(blocks[p->block].begin() + p->binding);
  return true;
}

bool Mutator::swapDependent() {
  auto p = pick([&](Place p) {
    return p.binding + 1 < blocks[p.block].size() &&
           reads(blocks[p.block][p.binding + 1]->value.get(), defined(at(p)));
  });
  if (!p)
    return false;
  std::swap(blocks[p->block][p->binding], blocks[p->block][p->binding + 1]);
  return true;
}

/// A dead VarBinding of a tensor of known dtype and shape gets a var with
/// another dtype (or a first dim 7 larger): one fault, nothing else reads it.
bool Mutator::reannotate(bool dtype) {
  auto p = pick([&](Place p) {
    const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(at(p)->var->sinfo.get());
    return llvm::isa<VarBindingNode>(at(p).get()) && t && !t->dtype.isVoid() && t->shapeValues() &&
           (dtype || !t->shapeValues()->empty()) &&
           !readLater(blocks, fn_.body->body, p, defined(at(p)));
  });
  if (!p)
    return false;
  const auto *t = llvm::cast<TensorSInfoNode>(at(*p)->var->sinfo.get());
  std::vector<PrimExpr> dims = *t->shapeValues();
  DataType dt = t->dtype;
  if (dtype)
    dt = dt == DataType::int64() ? DataType::float32() : DataType::int64();
  else
    dims[0] = primBinary(PrimOp::Add, dims[0], intImm(7));
  const VarNode &old = *at(*p)->var;
  StructInfo sinfo = tensorSInfo(dims, dt, t->vdevice);
  Var v = old.isDataflow() ? Var(make<DataflowVarNode>(old.name, sinfo))
                           : make<VarNode>(old.name, sinfo);
  blocks[p->block][p->binding] = make<VarBindingNode>(v, at(*p)->value);
  return true;
}

bool Mutator::impureInDataflow() {
  auto p = pick([&](Place p) { return dataflow_[p.block]; });
  if (!p)
    return false;
  Expr call =
      make<CallNode>(ops::assertOp(), std::vector<Expr>{primValue(boolImm(true)), stringImm("")},
                     nullptr, std::vector<StructInfo>{}, voidSInfo());
  Var v = make<DataflowVarNode>("bad", voidSInfo());
  blocks[p->block].insert(blocks[p->block].begin() + p->binding, make<VarBindingNode>(v, call));
  return true;
}

bool Mutator::dataflowVarOutside() {
  auto p = pick([&](Place p) { return dataflow_[p.block] && at(p)->var->isDataflow(); });
  if (!p)
    return false;
  Var dv = at(*p)->var;
  Var v = make<VarNode>("leak", dv->sinfo);
  blocks.insert(blocks.begin() + p->block + 1, {make<VarBindingNode>(v, Expr(dv))});
  dataflow.insert(dataflow.begin() + p->block + 1, false);
  return true;
}

bool Mutator::symbolicBeforeDefinition() {
  llvm::DenseSet<const TirVarNode *> known;
  for (const Var &param : fn_.params)
    if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(param->sinfo.get()))
      if (t->shapeValues())
        for (const PrimExpr &d : *t->shapeValues())
          forEachTirVar(d.get(), [&](const TirVarNode *v) { known.insert(v); });
  PrimExpr fresh;
  for (const auto &block : blocks)
    for (const Binding &b : block) {
      const auto *mc = llvm::dyn_cast<MatchCastNode>(b.get());
      const auto *t = mc ? llvm::dyn_cast<TensorSInfoNode>(mc->castSInfo.get()) : nullptr;
      if (!t || !t->shapeValues())
        continue;
      for (const PrimExpr &d : *t->shapeValues()) {
        const auto *v = llvm::dyn_cast<TirVarNode>(d.get());
        if (!fresh && v && !known.count(v))
          fresh = d;
      }
    }
  if (!fresh || blocks.empty())
    return false;
  Expr value = primValue(fresh);
  Var v = make<VarNode>("early", value->sinfo);
  size_t first = 0; // The first plain block, else a new one in front.
  while (first < blocks.size() && dataflow[first])
    ++first;
  if (first == blocks.size()) {
    blocks.insert(blocks.begin(), {});
    dataflow.insert(dataflow.begin(), false);
    first = 0;
  }
  if (first != 0) {
    blocks.insert(blocks.begin(), {});
    dataflow.insert(dataflow.begin(), false);
    first = 0;
  }
  blocks[first].insert(blocks[first].begin(), make<VarBindingNode>(v, value));
  return true;
}

bool Mutator::apply(Mutation m) {
  dataflow = dataflow_;
  switch (m) {
  case Mutation::DropUsedBinding:
    return dropUsed();
  case Mutation::UseBeforeDefinition:
    return swapDependent();
  case Mutation::WrongDType:
    return reannotate(true);
  case Mutation::WrongShape:
    return reannotate(false);
  case Mutation::ImpureInDataflow:
    return impureInDataflow();
  case Mutation::DataflowVarOutside:
    return dataflowVarOutside();
  case Mutation::SymbolicBeforeDefinition:
    return symbolicBeforeDefinition();
  }
  return false;
}

} // namespace

llvm::ArrayRef<Mutation> graft::testing::allMutations() {
  static const Mutation all[] = {Mutation::DropUsedBinding,
                                 Mutation::UseBeforeDefinition,
                                 Mutation::WrongDType,
                                 Mutation::WrongShape,
                                 Mutation::ImpureInDataflow,
                                 Mutation::DataflowVarOutside,
                                 Mutation::SymbolicBeforeDefinition};
  return all;
}

llvm::StringRef graft::testing::mutationName(Mutation m) {
  switch (m) {
  case Mutation::DropUsedBinding:
    return "drop-used-binding";
  case Mutation::UseBeforeDefinition:
    return "use-before-definition";
  case Mutation::WrongDType:
    return "wrong-dtype";
  case Mutation::WrongShape:
    return "wrong-shape";
  case Mutation::ImpureInDataflow:
    return "impure-in-dataflow";
  case Mutation::DataflowVarOutside:
    return "dataflow-var-outside";
  case Mutation::SymbolicBeforeDefinition:
    return "symbolic-before-definition";
  }
  return "";
}

bool graft::testing::applyMutation(IRModule &module, Mutation m, uint64_t choice) {
  const ModuleEntry *entry = module.lookup("main");
  const FunctionNode *fn = entry ? entry->asFunction() : nullptr;
  if (!fn)
    return false;
  std::vector<bool> dataflow;
  for (const BindingBlock &block : fn->body->blocks)
    dataflow.push_back(block->isDataflow);
  Mutator mutator(*fn, dataflow, choice);
  if (!mutator.apply(m))
    return false;
  std::vector<BindingBlock> blocks;
  for (size_t b = 0; b < mutator.blocks.size(); ++b)
    blocks.push_back(make<BindingBlockNode>(mutator.blocks[b], mutator.dataflow[b]));
  SeqExpr body = make<SeqExprNode>(std::move(blocks), fn->body->body, fn->body->sinfo);
  Function mutated = make<FunctionNode>(fn->params, body, fn->retSInfo, fn->isPure, fn->attrs,
                                        fn->loc, fn->checkWellFormed);
  module.add(entry->gvar, mutated);
  return true;
}
