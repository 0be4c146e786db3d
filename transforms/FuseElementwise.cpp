//===- transforms/FuseElementwise.cpp - Elementwise groups to fused kernels -===//
//
// `fuse-elementwise` (graft's, after TVM's FuseOps for the elementwise case):
// a maximal group of elementwise and broadcast op calls of one binding block,
// in which every value except the group's result is read only by the group,
// becomes one private function marked `"Primitive": True` holding the
// group's bindings, and the group's result binding becomes
//
//   R.call_dps_packed("graft.fused.<function>", (inputs...), out_sinfo=...)
//
// The function's body is the kernel's definition: codegen turns it into a
// program that the CPU evaluator runs tile by tile, without materializing
// the intermediates (docs/fusion.md). Passes after this one leave Primitive
// functions alone (pass/Pass.h).
//
// Groups form inside one block, walking it backwards: a fusable binding joins
// the group of its readers when all of them are in one group and no barrier
// (an impure call, a host read, an If) lies between it and them. The walk
// needs no recursion: nested blocks (If branches, local functions) are
// grouped when the mutator reaches them. A call of a dtype its kernel does
// not take (ir/OpKernels.h) is never fused: legalize-ops refuses it.
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"
#include "transforms/Passes.h"

#include "analysis/Analyses.h"

#include "ir/AttrKeys.h"
#include "ir/Op.h"
#include "ir/OpKernels.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace graft;

static constexpr const char *kPassName = "fuse-elementwise";

namespace {

/// A fused function's name stops growing at this length (a 1000-op chain
/// would otherwise name a 7000-character function).
constexpr size_t kMaxNameLength = 64;

const TensorSInfoNode *tensorOf(const ExprNode *e) {
  return e ? llvm::dyn_cast_or_null<TensorSInfoNode>(e->sinfo.get()) : nullptr;
}

/// A tensor of known dtype and rank.
bool isKnownTensor(const ExprNode *e) {
  const TensorSInfoNode *t = tensorOf(e);
  return t && !t->dtype.isVoid() && t->ndim >= 0;
}

/// The op call a binding fuses, or null: a pure elementwise or broadcast op
/// that does not read on the host, whose arguments are tensor vars or
/// constants and whose result is a tensor of known dtype and rank. Calls
/// with attributes are left alone (shapes, axes and fill values are not
/// elementwise), except astype, whose dtype the result already states.
const CallNode *fusableCall(const BindingNode &binding) {
  if (!llvm::isa<VarBindingNode>(binding))
    return nullptr;
  const auto *call = llvm::dyn_cast<CallNode>(binding.value.get());
  const OpInfo *info = call ? call->opInfo() : nullptr;
  if (!info || info->unknown || !info->pure || readsOnHost(*call))
    return nullptr;
  OpPattern pattern = info->fusionPattern();
  if (pattern != OpPattern::ElemWise && pattern != OpPattern::Broadcast)
    return nullptr;
  if (call->attrs && !call->attrs->empty() && !isCallTo(*call, ops::astype()))
    return nullptr;
  if (call->args.empty() || !call->sinfoArgs.empty() || !isKnownTensor(binding.var.get()))
    return nullptr;
  for (const Expr &arg : call->args)
    if (!llvm::isa<VarNode, ConstantNode>(arg.get()) || !isKnownTensor(arg.get()))
      return nullptr;
  // A dtype the op's kernel does not take stays unfused, for legalize-ops
  // to refuse with the op's name (a fused kernel would fail only at run time).
  const OpKernel *kernel = lookupOpKernel(*info);
  if (kernel && findDTypeRefusal(*call, *kernel))
    return nullptr;
  return call;
}

/// Ends a group: nothing moves across an impure call, a host read or an If.
bool isBarrier(const BindingNode &binding) {
  const ExprNode *value = binding.value.get();
  if (llvm::isa<IfNode>(value))
    return true;
  const auto *call = llvm::dyn_cast<CallNode>(value);
  return call && (isImpureCall(*call) || readsOnHost(*call));
}

/// A scalar constant stays inside the fused function (an immediate of the
/// kernel program); any other constant is passed in.
bool isScalarConstant(const ExprNode *e) {
  const auto *c = llvm::dyn_cast<ConstantNode>(e);
  return c && c->data && c->data->shape.empty();
}

/// One group of at least two bindings, in binding order; the last is the
/// root, whose var is the group's only value read outside it.
struct Group {
  std::vector<const BindingNode *> members;
};

/// The groups of one block.
class BlockGrouper {
public:
  explicit BlockGrouper(const BindingFacts &facts) : facts_(facts) {}

  /// Appends the block's groups of two or more bindings to `groups`.
  void group(const BindingBlockNode &block, std::vector<Group> &groups) {
    size_t n = block.bindings.size();
    // segment[i]: barriers before binding i.
    std::vector<unsigned> segment(n);
    unsigned barriers = 0;
    for (size_t i = 0; i < n; ++i) {
      segment[i] = barriers;
      if (isBarrier(*block.bindings[i]))
        ++barriers;
    }
    llvm::DenseMap<const VarNode *, size_t> index;
    for (size_t i = 0; i < n; ++i)
      index[block.bindings[i]->var.get()] = i;

    // groupOf[i]: the group id of binding i, -1 when not fusable.
    std::vector<int> groupOf(n, -1);
    std::vector<size_t> rootOf; // group id -> root binding index
    // Reads of each var by fusable bindings of this block, per group.
    llvm::DenseMap<const VarNode *, std::pair<int, unsigned>>
        reads; // (group, count), group -2: mixed
    for (size_t k = n; k-- > 0;) {
      const BindingNode *b = block.bindings[k].get();
      const CallNode *call = fusableCall(*b);
      if (!call)
        continue;
      int g = joinedGroup(b->var.get(), reads, rootOf, segment, k);
      if (g < 0) {
        g = static_cast<int>(rootOf.size());
        rootOf.push_back(k);
      }
      groupOf[k] = g;
      for (const Expr &arg : call->args) {
        const auto *v = llvm::dyn_cast<VarNode>(arg.get());
        if (!v || !index.count(v))
          continue;
        auto [it, fresh] = reads.try_emplace(v, g, 0);
        if (!fresh && it->second.first != g)
          it->second.first = -2;
        ++it->second.second;
      }
    }
    std::vector<Group> byId(rootOf.size());
    for (size_t i = 0; i < n; ++i)
      if (groupOf[i] >= 0)
        byId[groupOf[i]].members.push_back(block.bindings[i].get());
    // Emit in root order, so fused functions are numbered in binding order.
    std::vector<int> order;
    for (int g = static_cast<int>(rootOf.size()); g-- > 0;)
      order.push_back(g);
    for (int g : order)
      if (byId[g].members.size() >= 2)
        groups.push_back(std::move(byId[g]));
  }

private:
  /// The group `var` joins: the one group whose members read it, when they
  /// are its only readers and no barrier separates it from the group's root.
  int joinedGroup(const VarNode *var,
                  const llvm::DenseMap<const VarNode *, std::pair<int, unsigned>> &reads,
                  const std::vector<size_t> &rootOf, const std::vector<unsigned> &segment,
                  size_t k) const {
    auto it = reads.find(var);
    if (it == reads.end() || it->second.first < 0)
      return -1;
    int g = it->second.first;
    if (facts_.useCount(var) != it->second.second)
      return -1;
    if (segment[rootOf[g]] != segment[k])
      return -1;
    return g;
  }

  const BindingFacts &facts_;
};

/// The function names of the module and those given so far.
struct NameTable {
  llvm::StringSet<> taken;
  /// The last suffix given to each base name.
  llvm::StringMap<unsigned> nextSuffix;
};

/// A fused function to add to the module.
struct NewFunction {
  GlobalVar gvar;
  Function fn;
};

class Fuser : public ExprMutator {
public:
  Fuser(const IRModule *module, const BindingFacts &facts, NameTable &names,
        std::vector<NewFunction> &added)
      : ExprMutator(module), module_(module), grouper_(facts), names_(names), added_(added) {}

  int64_t fusedOps = 0;

  llvm::Error rewriteBlock(const BindingBlockNode *block) override {
    std::vector<Group> groups;
    grouper_.group(*block, groups);
    for (Group &g : groups) {
      const BindingNode *root = g.members.back();
      for (const BindingNode *m : g.members)
        member_[m] = root;
      groups_[root] = std::move(g);
    }
    return ExprMutator::rewriteBlock(block);
  }

  llvm::Error rewriteBinding(const BindingNode *binding) override {
    auto m = member_.find(binding);
    if (m == member_.end())
      return ExprMutator::rewriteBinding(binding);
    if (m->second != binding)
      return llvm::Error::success(); // Emitted inside the fused function.
    return emitFusedCall(groups_.find(binding)->second);
  }

private:
  /// `fused_<op>_<op>...`, made unique in the module.
  std::string functionName(const Group &g) {
    std::string name = "fused";
    for (const BindingNode *m : g.members) {
      std::string op = llvm::cast<CallNode>(m->value.get())->opInfo()->scriptName().str();
      std::replace(op.begin(), op.end(), '.', '_');
      if (name.size() + 1 + op.size() > kMaxNameLength)
        break;
      name += "_" + op;
    }
    // Probing resumes after the last suffix given to this base name, so
    // 10k groups of the same ops cost linear time.
    unsigned &suffix = names_.nextSuffix[name];
    std::string unique = name;
    while (names_.taken.count(unique))
      unique = name + "_" + std::to_string(++suffix);
    names_.taken.insert(unique);
    return unique;
  }

  /// The group's inputs in first-read order: vars bound outside the group
  /// and constants other than scalars.
  static std::vector<const ExprNode *> inputsOf(const Group &g) {
    llvm::DenseSet<const VarNode *> inside;
    for (const BindingNode *m : g.members)
      inside.insert(m->var.get());
    llvm::SetVector<const ExprNode *> inputs;
    for (const BindingNode *m : g.members)
      for (const Expr &arg : llvm::cast<CallNode>(m->value.get())->args) {
        const auto *v = llvm::dyn_cast<VarNode>(arg.get());
        if (v ? !inside.count(v) : !isScalarConstant(arg.get()))
          inputs.insert(arg.get());
      }
    return {inputs.begin(), inputs.end()};
  }

  /// The inputs' struct info as the fused function's parameters: symbolic
  /// vars are the function's own (fresh vars of the same names, as a function
  /// may not share them with its caller), and what no parameter defines (a
  /// dim `n + 1` alone, a shape var) is erased to the rank.
  static std::vector<StructInfo> paramSInfos(const std::vector<const ExprNode *> &inputs) {
    TirVarMap fresh;
    std::vector<StructInfo> out;
    llvm::DenseSet<const TirVarNode *> defined;
    for (const ExprNode *in : inputs) {
      llvm::SmallVector<const TirVarNode *, 4> vars;
      collectTirVars(in->sinfo.get(), vars);
      for (const TirVarNode *v : vars)
        if (!fresh.count(v))
          fresh[v] = make<TirVarNode>(v->name, v->dtype, v->isSizeVar);
      out.push_back(substituteSInfo(in->sinfo.get(), fresh));
      llvm::SmallVector<const TirVarNode *, 4> definable;
      collectDefinableTirVars(out.back().get(), definable);
      defined.insert(definable.begin(), definable.end());
    }
    llvm::DenseSet<const VarNode *> noShapeVars;
    for (StructInfo &s : out)
      s = eraseToWellDefined(s.get(), defined, &noShapeVars);
    return out;
  }

  llvm::Expected<Function> buildFunction(const Group &g,
                                         const std::vector<const ExprNode *> &inputs) {
    std::vector<StructInfo> sinfos = paramSInfos(inputs);
    llvm::DenseMap<const ExprNode *, Expr> map;
    std::vector<Var> params;
    unsigned constants = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto *v = llvm::dyn_cast<VarNode>(inputs[i]);
      std::string name = v ? v->name : "c" + std::to_string(constants++);
      params.push_back(make<VarNode>(name, sinfos[i]));
      map[inputs[i]] = params.back();
    }
    BlockBuilder bb(module_);
    BlockBuilder::FunctionScope scope(bb, params);
    BlockBuilder::BlockScope blockScope(bb, /*isDataflow=*/true);
    Var result;
    for (const BindingNode *m : g.members) {
      const auto *call = llvm::cast<CallNode>(m->value.get());
      std::vector<Expr> args;
      for (const Expr &a : call->args) {
        auto it = map.find(a.get());
        args.push_back(it == map.end() ? a : it->second);
      }
      Expr fresh = make<CallNode>(call->op, std::move(args), call->attrs, call->sinfoArgs);
      llvm::Expected<Expr> value = bb.normalize(std::move(fresh));
      if (!value)
        return value.takeError();
      bool isRoot = m == g.members.back();
      Var var = isRoot ? make<VarNode>(m->var->name, (*value)->sinfo)
                       : Var(make<DataflowVarNode>(m->var->name, (*value)->sinfo));
      if (llvm::Error err = bb.emitBinding(make<VarBindingNode>(var, std::move(*value))))
        return err;
      map[m->var.get()] = var;
      result = var;
    }
    std::vector<BindingBlock> blocks{blockScope.finish()};
    llvm::Expected<SeqExpr> body = bb.finalizeSeqExpr(std::move(blocks), result);
    if (!body)
      return body.takeError();
    StructInfo ret =
        BlockBuilder::functionRetSInfo(result->sinfo.get(), (*body)->sinfo.get(), params);
    Attrs attrs = withAttr(nullptr, kPrimitiveAttr, AttrValue::boolean(true));
    return make<FunctionNode>(std::move(params), *body, ret, /*isPure=*/true, attrs);
  }

  llvm::Error emitFusedCall(const Group &g) {
    std::vector<const ExprNode *> inputs = inputsOf(g);
    llvm::Expected<Function> fn = buildFunction(g, inputs);
    if (!fn)
      return fn.takeError();
    std::string name = functionName(g);
    added_.push_back({make<GlobalVarNode>(name, (*fn)->sinfo), *fn});
    fusedOps += static_cast<int64_t>(g.members.size());

    const BindingNode *root = g.members.back();
    std::vector<Expr> args;
    for (const ExprNode *in : inputs) {
      const auto *v = llvm::dyn_cast<VarNode>(in);
      args.push_back(v ? lookupVar(v) : Expr(in));
    }
    Expr callee = make<ExternFuncNode>(fusedKernelSymbol(name));
    Expr call = makeAt<CallNode>(root->value->loc, ops::callDPSPacked(),
                                 std::vector<Expr>{callee, tupleExpr(std::move(args))}, nullptr,
                                 std::vector<StructInfo>{root->var->sinfo});
    llvm::Expected<Expr> value = builder_.normalize(std::move(call));
    if (!value)
      return value.takeError();
    return builder_.emitBinding(make<VarBindingNode>(root->var, std::move(*value), root->loc));
  }

  const IRModule *module_;
  BlockGrouper grouper_;
  NameTable &names_;
  std::vector<NewFunction> &added_;
  llvm::DenseMap<const BindingNode *, const BindingNode *> member_;
  llvm::DenseMap<const BindingNode *, Group> groups_;
};

class FuseElementwisePass : public ModulePass {
public:
  FuseElementwisePass() : ModulePass(kPassName) {}

  PassStatistic groups{this, "groups", "fused functions created"};
  PassStatistic ops{this, "ops", "op calls moved into fused functions"};

  llvm::Expected<bool> runOnModule(IRModule &module, PassContext &) override {
    NameTable names;
    for (const ModuleEntry &e : module.entries())
      names.taken.insert(e.gvar->name);
    std::vector<NewFunction> added;
    int64_t fusedOps = 0;
    llvm::Expected<bool> changed =
        rewriteFunctions(module, [&](const GlobalVar &gvar, const Function &fn) {
          const BindingFacts &facts = analyses().get<BindingFactsAnalysis>(gvar->name, *fn);
          Fuser fuser(&module, facts, names, added);
          llvm::Expected<Function> out = fuser.rewriteFunction(fn);
          fusedOps += fuser.fusedOps;
          return out;
        });
    if (!changed)
      return changed.takeError();
    for (NewFunction &f : added)
      module.add(f.gvar, f.fn);
    groups += static_cast<int64_t>(added.size());
    ops += fusedOps;
    return *changed || !added.empty();
  }
};

} // namespace

void graft::registerFuseElementwisePass() {
  PassInfo info;
  info.summary = "Turns each maximal group of elementwise and broadcast op calls into one "
                 "Primitive function called as a fused kernel (graft.fused.<name>)";
  info.preconditions = "none (run before legalize-ops: it groups high-level op calls)";
  registerPass<FuseElementwisePass>(std::move(info));
}
