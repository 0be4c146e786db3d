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
#include "transforms/FusedOps.h"
#include "transforms/Passes.h"

#include "analysis/Analyses.h"

#include "ir/AttrKeys.h"
#include "ir/Op.h"
#include "ir/OpKernels.h"
#include "ir/StructInfoAnalysis.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "ir/ops/OpHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace graft;

static constexpr const char *kPassName = "fuse-elementwise";

namespace {

/// A fused function's name stops growing at this length (a 1000-op chain
/// would otherwise name a 7000-character function).
constexpr size_t kMaxNameLength = 64;

/// How a binding fuses, or None: a pure elementwise, broadcast or
/// injective op call the fused program format can state
/// (transforms/FusedOps.h), in a dtype its kernel takes.
llvm::Optional<FusedOpForm> fusableCall(const BindingNode &binding) {
  if (!llvm::isa<VarBindingNode>(binding))
    return llvm::None;
  const auto *call = llvm::dyn_cast<CallNode>(binding.value.get());
  if (!call)
    return llvm::None;
  llvm::Optional<FusedOpForm> form = fusedOpForm(*call, binding.var->sinfo.get());
  if (!form)
    return llvm::None;
  // A dtype the op's kernel does not take stays unfused, for legalize-ops
  // to refuse with the op's name (a fused kernel would fail only at run time).
  const OpKernel *kernel = lookupOpKernel(*call->opInfo());
  if (kernel && findDTypeRefusal(*call, *kernel))
    return llvm::None;
  return form;
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

/// Index spaces one binding may be evaluated in (the evaluator's bound on
/// a program's expansion, kernels/cpu/FusedProgram.cpp: the same constant).
constexpr size_t kMaxSpacesPerBinding = 16;
/// Outputs of one fused kernel at most.
constexpr size_t kMaxOutputs = 8;

/// One group of bindings, in binding order; the last is the root. Besides
/// the root, `outputs` are members also read outside the group (extra
/// outputs of the kernel, of the root's shape).
struct Group {
  std::vector<const BindingNode *> members;
  std::vector<FusedOpForm> forms;
  std::vector<const BindingNode *> outputs; ///< In binding order, the root last.
};

/// The groups of one block.
class BlockGrouper {
public:
  explicit BlockGrouper(const BindingFacts &facts) : facts_(facts) {}

  /// Appends the block's groups that fuse to `groups`.
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
    // The bindings of this block that read each var of it.
    llvm::DenseMap<const VarNode *, llvm::SmallVector<size_t, 2>> readers;
    llvm::SmallVector<const VarNode *, 8> used;
    for (size_t i = 0; i < n; ++i) {
      used.clear();
      collectBindingUses(block.bindings[i].get(), used);
      for (const VarNode *v : used)
        if (index.count(v))
          readers[v].push_back(i);
    }

    groupOf_.assign(n, -1);
    forms_.assign(n, llvm::None);
    spaces_.assign(n, {});
    spaceIds_.clear();
    rootOf_.clear();
    llvm::DenseMap<const VarNode *, std::pair<int, unsigned>> reads; // (group, count); -2: mixed
    // (reader, operand index) of each var among fusable bindings.
    llvm::DenseMap<const VarNode *, llvm::SmallVector<std::pair<size_t, unsigned>, 2>> operandOf;
    std::vector<unsigned> outputsOf; // group id -> outputs so far
    for (size_t k = n; k-- > 0;) {
      const BindingNode *b = block.bindings[k].get();
      forms_[k] = fusableCall(*b);
      if (!forms_[k])
        continue;
      const VarNode *var = b->var.get();
      int g = joinedGroup(var, reads, segment, k, block, readers, outputsOf);
      bool extra = g >= 0 && facts_.useCount(var) != reads.lookup(var).second;
      if (g >= 0 && !spacesFromReaders(k, g, extra, operandOf.lookup(var)))
        g = -1;
      if (g < 0) {
        g = static_cast<int>(rootOf_.size());
        rootOf_.push_back(k);
        outputsOf.push_back(1);
        spaces_[k] = {0};
      } else if (extra) {
        ++outputsOf[g];
      }
      groupOf_[k] = g;
      for (unsigned i = 0; i < forms_[k]->operands.size(); ++i) {
        const auto *v = llvm::dyn_cast<VarNode>(forms_[k]->operands[i]);
        if (!v || !index.count(v))
          continue;
        auto [it, fresh] = reads.try_emplace(v, g, 0);
        if (!fresh && it->second.first != g)
          it->second.first = -2;
        ++it->second.second;
        operandOf[v].push_back({k, i});
      }
    }
    std::vector<Group> byId(rootOf_.size());
    for (size_t i = 0; i < n; ++i) {
      int g = groupOf_[i];
      if (g < 0)
        continue;
      const BindingNode *b = block.bindings[i].get();
      byId[g].members.push_back(b);
      byId[g].forms.push_back(std::move(*forms_[i]));
      const VarNode *v = b->var.get();
      if (i == rootOf_[g] || facts_.useCount(v) != reads.lookup(v).second)
        byId[g].outputs.push_back(b);
    }
    // Emit in root order, so fused functions are numbered in binding order.
    for (int g = static_cast<int>(rootOf_.size()); g-- > 0;)
      if (worthFusing(byId[g]))
        groups.push_back(std::move(byId[g]));
  }

private:
  /// Two or more ops that would each launch a kernel (a reshape alone is a
  /// view, and a group of views would only add a copy).
  static bool worthFusing(const Group &g) {
    unsigned kernels = 0;
    for (const BindingNode *m : g.members)
      kernels += llvm::cast<CallNode>(m->value.get())->opInfo()->launchesKernel;
    return g.members.size() >= 2 && kernels >= 2;
  }

  /// The group `var` joins: the one group whose members read it, when no
  /// barrier separates it from the group's root, and either the group's
  /// members are its only readers or it can be an extra output: its shape
  /// is the root's and every other reader comes after the root.
  int joinedGroup(const VarNode *var,
                  const llvm::DenseMap<const VarNode *, std::pair<int, unsigned>> &reads,
                  const std::vector<unsigned> &segment, size_t k, const BindingBlockNode &block,
                  const llvm::DenseMap<const VarNode *, llvm::SmallVector<size_t, 2>> &readers,
                  const std::vector<unsigned> &outputsOf) const {
    auto it = reads.find(var);
    if (it == reads.end() || it->second.first < 0)
      return -1;
    int g = it->second.first;
    size_t root = rootOf_[g];
    if (segment[root] != segment[k])
      return -1;
    if (facts_.useCount(var) == it->second.second)
      return g;
    if (outputsOf[g] >= kMaxOutputs || !sameKnownShape(var, block.bindings[root]->var.get()))
      return -1;
    auto r = readers.find(var);
    if (r != readers.end())
      for (size_t j : r->second)
        if (groupOf_[j] != g && j < root)
          return -1;
    return g;
  }

  static bool sameKnownShape(const VarNode *a, const VarNode *b) {
    const auto *ta = llvm::dyn_cast_or_null<TensorSInfoNode>(a->sinfo.get());
    const auto *tb = llvm::dyn_cast_or_null<TensorSInfoNode>(b->sinfo.get());
    const std::vector<PrimExpr> *sa = ta ? ta->shapeValues() : nullptr;
    const std::vector<PrimExpr> *sb = tb ? tb->shapeValues() : nullptr;
    if (!sa || !sb || sa->size() != sb->size())
      return false;
    for (size_t i = 0; i < sa->size(); ++i)
      if (!structuralEqual((*sa)[i].get(), (*sb)[i].get()))
        return false;
    return true;
  }

  /// The index spaces binding k is evaluated in, as the evaluator expands
  /// the program: an elementwise reader's own, and for an injective reader
  /// one per (reader space, operand); false past kMaxSpacesPerBinding.
  bool spacesFromReaders(size_t k, int g, bool extraOutput,
                         llvm::ArrayRef<std::pair<size_t, unsigned>> operandOf) {
    llvm::SmallVector<unsigned, 4> out;
    if (extraOutput)
      out.push_back(0); // The output's own space.
    auto add = [&](unsigned id) {
      if (!llvm::is_contained(out, id))
        out.push_back(id);
    };
    for (auto [j, i] : operandOf) {
      if (groupOf_[j] != g)
        continue;
      for (unsigned sp : spaces_[j]) {
        if (!forms_[j]->injective) {
          add(sp);
          continue;
        }
        unsigned result = intern(sp, j, -1);
        add(intern(result, j, int(i)));
      }
    }
    if (out.size() > kMaxSpacesPerBinding)
      return false;
    spaces_[k] = std::move(out);
    return true;
  }

  unsigned intern(unsigned parent, size_t reader, int operand) {
    auto key = std::make_tuple(parent, reader, operand);
    auto [it, fresh] = spaceIds_.try_emplace(key, unsigned(spaceIds_.size() + 1));
    return it->second;
  }

  const BindingFacts &facts_;
  std::vector<int> groupOf_;
  std::vector<size_t> rootOf_;
  std::vector<llvm::Optional<FusedOpForm>> forms_;
  std::vector<llvm::SmallVector<unsigned, 4>> spaces_;
  std::map<std::tuple<unsigned, size_t, int>, unsigned> spaceIds_;
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
    bool saved = inDataflow_;
    inDataflow_ = block->isDataflow;
    llvm::Error err = groupAndRewrite(block);
    inDataflow_ = saved;
    return err;
  }

  llvm::Error groupAndRewrite(const BindingBlockNode *block) {
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
    for (const FusedOpForm &form : g.forms)
      for (const ExprNode *arg : form.operands) {
        const auto *v = llvm::dyn_cast<VarNode>(arg);
        if (v ? !inside.count(v) : !isScalarConstant(arg))
          inputs.insert(arg);
      }
    return {inputs.begin(), inputs.end()};
  }

  /// The fused function's symbolic vars: the caller's var -> the function's
  /// own, and which of the function's a parameter defines.
  struct SymbolicVars {
    TirVarMap fresh;
    llvm::DenseSet<const TirVarNode *> defined;
  };

  /// The inputs' struct info as the fused function's parameters: symbolic
  /// vars are the function's own (fresh vars of the same names, as a function
  /// may not share them with its caller), and what no parameter defines (a
  /// dim `n + 1` alone, a shape var) is erased to the rank.
  static std::vector<StructInfo> paramSInfos(const std::vector<const ExprNode *> &inputs,
                                             SymbolicVars &sym) {
    std::vector<StructInfo> out;
    for (const ExprNode *in : inputs) {
      llvm::SmallVector<const TirVarNode *, 4> vars;
      collectTirVars(in->sinfo.get(), vars);
      for (const TirVarNode *v : vars)
        if (!sym.fresh.count(v))
          sym.fresh[v] = make<TirVarNode>(v->name, v->dtype, v->isSizeVar);
      out.push_back(substituteSInfo(in->sinfo.get(), sym.fresh));
      llvm::SmallVector<const TirVarNode *, 4> definable;
      collectDefinableTirVars(out.back().get(), definable);
      sym.defined.insert(definable.begin(), definable.end());
    }
    llvm::DenseSet<const VarNode *> noShapeVars;
    for (StructInfo &s : out)
      s = eraseToWellDefined(s.get(), sym.defined, &noShapeVars);
    return out;
  }

  /// An argument of a member inside the fused function: tensors mapped to
  /// the function's params and bindings, symbolic vars to its own. None
  /// when a symbolic var is one no parameter defines.
  static llvm::Optional<Expr> remapArg(const Expr &a,
                                       const llvm::DenseMap<const ExprNode *, Expr> &map,
                                       const SymbolicVars &sym) {
    if (auto it = map.find(a.get()); it != map.end())
      return it->second;
    if (const auto *tuple = llvm::dyn_cast<TupleNode>(a.get())) {
      std::vector<Expr> fields;
      for (const Expr &f : tuple->fields) {
        llvm::Optional<Expr> mapped = remapArg(f, map, sym);
        if (!mapped)
          return llvm::None;
        fields.push_back(*mapped);
      }
      return Expr(make<TupleNode>(std::move(fields)));
    }
    if (!llvm::isa<ShapeExprNode, PrimValueNode>(a.get()))
      return a;
    llvm::SmallVector<const TirVarNode *, 4> vars;
    collectTirVars(a->sinfo.get(), vars);
    if (vars.empty())
      return a;
    for (const TirVarNode *v : vars) {
      auto it = sym.fresh.find(v);
      if (it == sym.fresh.end() || !sym.defined.count(llvm::cast<TirVarNode>(it->second.get())))
        return llvm::None;
    }
    if (const auto *shape = llvm::dyn_cast<ShapeExprNode>(a.get())) {
      std::vector<PrimExpr> values;
      for (const PrimExpr &e : shape->values)
        values.push_back(substitutePrim(e, sym.fresh));
      return Expr(make<ShapeExprNode>(std::move(values)));
    }
    return Expr(
        make<PrimValueNode>(substitutePrim(llvm::cast<PrimValueNode>(a.get())->value, sym.fresh)));
  }

  /// The fused function, or None when the group cannot be one (a symbolic
  /// var no parameter defines, a member whose form inside the function is
  /// not one the program format states): the group then stays unfused.
  llvm::Expected<llvm::Optional<Function>>
  buildFunction(const Group &g, const std::vector<const ExprNode *> &inputs) {
    SymbolicVars sym;
    std::vector<StructInfo> sinfos = paramSInfos(inputs, sym);
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
    std::vector<Expr> results;
    for (const BindingNode *m : g.members) {
      const auto *call = llvm::cast<CallNode>(m->value.get());
      std::vector<Expr> args;
      for (const Expr &a : call->args) {
        llvm::Optional<Expr> mapped = remapArg(a, map, sym);
        if (!mapped)
          return llvm::None;
        args.push_back(*mapped);
      }
      Expr fresh = make<CallNode>(call->op, std::move(args), call->attrs, call->sinfoArgs);
      llvm::Expected<Expr> value = bb.normalize(std::move(fresh));
      if (!value)
        return value.takeError();
      const auto *inner = llvm::cast<CallNode>(value->get());
      if (!fusedOpForm(*inner, (*value)->sinfo.get()))
        return llvm::None;
      bool isOutput = llvm::is_contained(g.outputs, m);
      Var var = isOutput ? make<VarNode>(m->var->name, (*value)->sinfo)
                         : Var(make<DataflowVarNode>(m->var->name, (*value)->sinfo));
      if (llvm::Error err = bb.emitBinding(make<VarBindingNode>(var, std::move(*value))))
        return err;
      map[m->var.get()] = var;
      if (isOutput)
        results.push_back(var);
    }
    std::vector<BindingBlock> blocks{blockScope.finish()};
    Expr result = results.size() == 1 ? results[0] : tupleExpr(std::move(results));
    llvm::Expected<SeqExpr> body = bb.finalizeSeqExpr(std::move(blocks), result);
    if (!body)
      return body.takeError();
    StructInfo ret =
        BlockBuilder::functionRetSInfo(result->sinfo.get(), (*body)->sinfo.get(), params);
    Attrs attrs = withAttr(nullptr, kPrimitiveAttr, AttrValue::boolean(true));
    return Function(make<FunctionNode>(std::move(params), *body, ret, /*isPure=*/true, attrs));
  }

  llvm::Error emitUnfused(const Group &g) {
    for (const BindingNode *m : g.members)
      if (llvm::Error err = ExprMutator::rewriteBinding(m))
        return err;
    return llvm::Error::success();
  }

  llvm::Error emitFusedCall(const Group &g) {
    std::vector<const ExprNode *> inputs = inputsOf(g);
    llvm::Expected<llvm::Optional<Function>> fn = buildFunction(g, inputs);
    if (!fn)
      return fn.takeError();
    if (!*fn)
      return emitUnfused(g);
    std::string name = functionName(g);
    added_.push_back({make<GlobalVarNode>(name, (**fn)->sinfo), **fn});
    fusedOps += static_cast<int64_t>(g.members.size());

    const BindingNode *root = g.members.back();
    std::vector<Expr> args;
    for (const ExprNode *in : inputs) {
      const auto *v = llvm::dyn_cast<VarNode>(in);
      args.push_back(v ? lookupVar(v) : Expr(in));
    }
    std::vector<StructInfo> outSInfo;
    for (const BindingNode *o : g.outputs)
      outSInfo.push_back(o->var->sinfo);
    if (outSInfo.size() > 1)
      outSInfo = {StructInfo(make<TupleSInfoNode>(std::move(outSInfo)))};
    Expr callee = make<ExternFuncNode>(fusedKernelSymbol(name));
    Expr call = makeAt<CallNode>(root->value->loc, ops::callDPSPacked(),
                                 std::vector<Expr>{callee, tupleExpr(std::move(args))}, nullptr,
                                 std::move(outSInfo));
    llvm::Expected<Expr> value = builder_.normalize(std::move(call));
    if (!value)
      return value.takeError();
    if (g.outputs.size() == 1)
      return builder_.emitBinding(make<VarBindingNode>(root->var, std::move(*value), root->loc));
    // Several outputs: the call gives a tuple, each output var is bound to
    // its field, after the call.
    Var tuple = inDataflow_ ? Var(make<DataflowVarNode>(name + "_out", (*value)->sinfo))
                            : make<VarNode>(name + "_out", (*value)->sinfo);
    if (llvm::Error err =
            builder_.emitBinding(make<VarBindingNode>(tuple, std::move(*value), root->loc)))
      return err;
    for (size_t i = 0; i < g.outputs.size(); ++i) {
      const BindingNode *o = g.outputs[i];
      llvm::Expected<Expr> field =
          builder_.normalize(make<TupleGetItemNode>(tuple, static_cast<int>(i)));
      if (!field)
        return field.takeError();
      if (llvm::Error err =
              builder_.emitBinding(make<VarBindingNode>(o->var, std::move(*field), o->loc)))
        return err;
    }
    return llvm::Error::success();
  }

  const IRModule *module_;
  BlockGrouper grouper_;
  NameTable &names_;
  std::vector<NewFunction> &added_;
  llvm::DenseMap<const BindingNode *, const BindingNode *> member_;
  llvm::DenseMap<const BindingNode *, Group> groups_;
  bool inDataflow_ = false;
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
