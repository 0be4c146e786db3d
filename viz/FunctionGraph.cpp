//===- viz/FunctionGraph.cpp - One Relax function as a picture's graph ------===//

#include "viz/FunctionGraph.h"

#include "analysis/FreeVars.h"
#include "ir/Op.h"
#include "ir/OpKernels.h"
#include "ir/Printer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace graft;
using namespace graft::viz;

namespace {

// Runtime symbols rewrite-cuda-graph emits (TVM's names).
constexpr llvm::StringLiteral kRunOrCapture = "vm.builtin.cuda_graph.run_or_capture";
constexpr llvm::StringLiteral kCudaGraphPrefix = "vm.builtin.cuda_graph.";
constexpr llvm::StringLiteral kVMBuiltinPrefix = "vm.builtin.";
// The attribute graft's generated shape functions carry.
constexpr llvm::StringLiteral kHostFuncAttr = "tir.is_host_func";

// Fill colours of reused storages: light enough for black text, distinct
// from the capture clusters' blue. Cycled when a function reuses more.
const char *const kPalette[] = {"#fdb462", "#b3de69", "#fccde5", "#bebada", "#80b1d3", "#ffed6f",
                                "#8dd3c7", "#fb8072", "#ccebc5", "#bc80bd", "#d9d9d9", "#e5c494"};

/// The symbol a call runs: its callee's, or the first argument's for the
/// call forms that take one (call_packed, call_dps_packed, call_builtin_with_ctx).
llvm::StringRef externSymbol(const CallNode &call) {
  if (const auto *ext = llvm::dyn_cast<ExternFuncNode>(call.op.get()))
    return ext->symbol;
  if (!call.args.empty())
    if (const auto *ext = llvm::dyn_cast<ExternFuncNode>(call.args[0].get()))
      return ext->symbol;
  return "";
}

/// The `graft.host.*` kernels legalize-ops emits for calls that read device
/// data back (and their `_count` halves).
const llvm::StringSet<> &hostKernelSymbols() {
  static const llvm::StringSet<> symbols = [] {
    llvm::StringSet<> s;
    for (const OpKernel *k : allOpKernels())
      if (!k->hostSymbol.empty()) {
        s.insert(k->hostSymbol);
        s.insert(k->hostSymbol + "_count");
      }
    return s;
  }();
  return symbols;
}

bool isHostRead(const CallNode &call) {
  return readsOnHost(call) || hostKernelSymbols().contains(externSymbol(call));
}

std::string shortType(const StructInfo &sinfo) {
  if (!sinfo)
    return "";
  std::string text = printStructInfo(sinfo.get());
  for (llvm::StringRef drop : {"R.", "dtype=", "\""}) {
    size_t at;
    while ((at = text.find(drop.str())) != std::string::npos)
      text.erase(at, drop.size());
  }
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  return text;
}

/// What a node label says computes the value.
std::string opLabel(const ExprNode *value) {
  if (const auto *call = llvm::dyn_cast<CallNode>(value)) {
    llvm::StringRef symbol = externSymbol(*call);
    if (const OpInfo *info = call->opInfo()) {
      std::string label = ("R." + info->scriptName()).str();
      if (!symbol.empty())
        label += " " + symbol.str();
      else if (!call->args.empty())
        if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call->args[0].get()))
          label += " " + gv->name;
      return label;
    }
    if (!symbol.empty())
      return symbol.str();
    if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call->op.get()))
      return "cls." + gv->name;
    return "call";
  }
  if (const auto *item = llvm::dyn_cast<TupleGetItemNode>(value)) {
    std::string base = "tuple";
    if (const auto *var = llvm::dyn_cast<VarNode>(item->tuple.get()))
      base = var->name;
    return base + "[" + std::to_string(item->index) + "]";
  }
  if (const auto *var = llvm::dyn_cast<VarNode>(value))
    return "= " + var->name;
  switch (value->getKind()) {
  case NodeKind::Tuple:
    return "tuple";
  case NodeKind::If:
    return "if";
  case NodeKind::Constant:
    return "const";
  case NodeKind::ShapeExpr:
    return "shape";
  case NodeKind::PrimValue:
    return "prim value";
  case NodeKind::Function:
    return "closure";
  default:
    return "value";
  }
}

/// Unique display names in definition order, TVM's printer style: the hint
/// when free, else `hint_1`, `hint_2`, ... (so `alloc_3` in a picture is
/// `alloc_3` in `graft opt`'s output in the common case).
class NameScope {
public:
  explicit NameScope(llvm::StringRef moduleName) {
    for (llvm::StringRef reserved : {"R", "T", "I", "cls"})
      taken_.insert(reserved);
    taken_.insert(moduleName);
  }
  std::string claim(llvm::StringRef hint) {
    if (taken_.insert(hint).second)
      return hint.str();
    unsigned &next = nextSuffix_[hint];
    for (;;) {
      std::string name = (hint + "_" + llvm::Twine(++next)).str();
      if (taken_.insert(name).second)
        return name;
    }
  }

private:
  llvm::StringSet<> taken_;
  llvm::StringMap<unsigned> nextSuffix_;
};

class GraphBuilder {
public:
  GraphBuilder(const IRModule &module, const VizOptions &options)
      : module_(module), options_(options) {}

  FunctionGraph build(const FunctionNode &fn, llvm::StringRef name) {
    graph_.function = name.str();
    NameScope names(module_.name);
    names_ = &names;
    for (const Var &p : fn.params)
      nodeOf_[p.get()] = addNode(nameOf(*p), "param", shortType(p->sinfo), Role::Param);
    addBody(*fn.body, /*cluster=*/-1);
    if (auto it = varNode(fn.body->body.get()))
      graph_.edges.push_back(
          {*it, addNode("", "return", shortType(fn.body->body->sinfo), Role::Return)});
    colourStorages();
    return std::move(graph_);
  }

private:
  unsigned addNode(std::string name, std::string op, std::string type, Role role,
                   int cluster = -1) {
    VizNode n;
    n.id = "n" + std::to_string(graph_.nodes.size());
    n.name = std::move(name);
    n.op = std::move(op);
    n.type = std::move(type);
    n.role = role;
    n.cluster = cluster;
    graph_.nodes.push_back(std::move(n));
    return graph_.nodes.size() - 1;
  }

  /// The display name of a var, claimed on first sight.
  /// `_` (a result nothing reads) is claimed, as the printer does, but not shown.
  std::string nameOf(const VarNode &v) {
    auto it = displayName_.find(&v);
    if (it == displayName_.end())
      it = displayName_.try_emplace(&v, names_->claim(v.name)).first;
    return v.name == "_" ? std::string() : it->second;
  }

  /// opLabel, with the display names of the vars it names.
  std::string valueLabel(const ExprNode *value) {
    if (const auto *item = llvm::dyn_cast<TupleGetItemNode>(value))
      if (const auto *var = llvm::dyn_cast<VarNode>(item->tuple.get()))
        return nameOf(*var) + "[" + std::to_string(item->index) + "]";
    if (const auto *var = llvm::dyn_cast<VarNode>(value))
      return "= " + nameOf(*var);
    return opLabel(value);
  }

  llvm::Optional<unsigned> varNode(const ExprNode *e) const {
    const auto *var = llvm::dyn_cast_or_null<VarNode>(e);
    if (!var)
      return llvm::None;
    auto it = nodeOf_.find(var);
    if (it == nodeOf_.end())
      return llvm::None;
    return it->second;
  }

  /// Shape and scalar bookkeeping on the host: hidden unless asked for.
  bool isBookkeeping(const BindingNode &b) const {
    if (options_.showShapeBookkeeping)
      return false;
    const auto *call = llvm::dyn_cast<CallNode>(b.value.get());
    if (call && isHostRead(*call))
      return false;
    if (b.var->sinfo && (llvm::isa<ShapeSInfoNode>(b.var->sinfo.get()) ||
                         llvm::isa<PrimSInfoNode>(b.var->sinfo.get())))
      return true;
    if (!call)
      return false;
    llvm::StringRef symbol = externSymbol(*call);
    if (symbol.startswith(kVMBuiltinPrefix) && !symbol.startswith(kCudaGraphPrefix))
      return true;
    if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call->op.get()))
      if (const ModuleEntry *entry = module_.lookup(gv->name))
        if (const PrimFuncNode *prim = entry->asPrimFunc())
          return prim->attrs && prim->attrs->lookup(kHostFuncAttr);
    return false;
  }

  void addBody(const SeqExprNode &seq, int cluster) {
    unsigned previous = graph_.nodes.empty() ? 0 : graph_.nodes.size() - 1;
    for (const BindingBlock &block : seq.blocks)
      for (const Binding &b : block->bindings) {
        if (isBookkeeping(*b))
          continue;
        unsigned node = addBinding(*b, cluster);
        if (graph_.nodes[node].role == Role::Kill)
          graph_.killOrder.push_back({previous, node});
        previous = node;
      }
  }

  /// Adds the node of one binding (or, for a CUDA-graph launch, the cluster
  /// of the capture function it runs); returns the last node added.
  unsigned addBinding(const BindingNode &b, int cluster) {
    const ExprNode *value = b.value.get();
    const auto *call = llvm::dyn_cast<CallNode>(value);
    if (call && externSymbol(*call) == kRunOrCapture)
      if (llvm::Optional<unsigned> last = addLaunch(b, *call))
        return *last;
    const OpInfo *info = call ? call->opInfo() : nullptr;
    if (info && info->kills && !call->args.empty())
      return addKill(*call, cluster);

    if (call)
      if (llvm::Optional<unsigned> node = addKernelWrite(b, *call, cluster))
        return *node;
    Role role = Role::Value;
    if (info && info->allocates == AllocKind::Storage)
      role = Role::Storage;
    else if (info && info->allocates == AllocKind::Tensor)
      role = Role::Tensor;
    else if (b.var->sinfo && llvm::isa<ObjectSInfoNode>(b.var->sinfo.get()) &&
             llvm::isa<TupleGetItemNode>(value))
      role = Role::Storage; // A storage fetched from cuda_graph_alloc.
    unsigned node =
        addNode(nameOf(*b.var), valueLabel(value), shortType(b.var->sinfo), role, cluster);
    graph_.nodes[node].hostRead = call && isHostRead(*call);
    if (role == Role::Tensor) {
      allocated_.insert(b.var.get());
      if (!call->args.empty())
        if (llvm::Optional<unsigned> storage = varNode(call->args[0].get()))
          if (graph_.nodes[*storage].role == Role::Storage) {
            tensorsOf_[*storage].push_back(node);
          }
    }
    addReads(value, node);
    nodeOf_[b.var.get()] = node;
    return node;
  }

  /// A destination-passing kernel call (`graft.matmul(a, b, out)`, a
  /// PrimFunc call after call-tir-rewrite): no result of its own, its last
  /// argument an allocated tensor. It is drawn as the value of that tensor,
  /// which later reads take from it.
  llvm::Optional<unsigned> addKernelWrite(const BindingNode &b, const CallNode &call, int cluster) {
    const StructInfoNode *result = b.var->sinfo.get();
    const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(result);
    bool noResult =
        llvm::isa_and_nonnull<ObjectSInfoNode>(result) || (tuple && tuple->fields.empty());
    if (!noResult || call.args.empty() || isHostRead(call))
      return llvm::None;
    const auto *out = llvm::dyn_cast<VarNode>(call.args.back().get());
    if (!out || !allocated_.contains(out))
      return llvm::None;
    llvm::Optional<unsigned> before = varNode(out);
    unsigned node =
        addNode(nameOf(*out), opLabel(&call), shortType(out->sinfo), Role::Value, cluster);
    // The call reads its other arguments; it writes into the output.
    for (size_t i = 0; i + 1 < call.args.size(); ++i)
      for (const VarNode *v : freeVars(call.args[i].get()))
        if (llvm::Optional<unsigned> from = varNode(v))
          if (!llvm::any_of(graph_.edges,
                            [&](const VizEdge &e) { return e.from == *from && e.to == node; }))
            graph_.edges.push_back({*from, node});
    if (before) {
      graph_.edges.push_back({*before, node, EdgeKind::Writes});
      unsigned tensor = *before;
      auto it = writtenTensor_.find(tensor);
      if (it != writtenTensor_.end())
        tensor = it->second;
      writtenTensor_[node] = tensor;
    }
    nodeOf_[out] = node;
    return node;
  }

  void addReads(const ExprNode *value, unsigned node) {
    // A field of a launch's result reads the capture function's value.
    if (const auto *item = llvm::dyn_cast<TupleGetItemNode>(value))
      if (const auto *var = llvm::dyn_cast<VarNode>(item->tuple.get())) {
        auto it = launchOutputs_.find(var);
        if (it != launchOutputs_.end() && item->index >= 0 &&
            static_cast<size_t>(item->index) < it->second.size()) {
          graph_.edges.push_back({it->second[item->index], node});
          return;
        }
      }
    llvm::SmallVector<unsigned, 8> seen;
    for (const VarNode *v : freeVars(value)) {
      llvm::Optional<unsigned> from = varNode(v);
      if (!from || llvm::is_contained(seen, *from))
        continue;
      seen.push_back(*from);
      graph_.edges.push_back({*from, node});
    }
  }

  unsigned addKill(const CallNode &call, int cluster) {
    const auto *killed = llvm::dyn_cast<VarNode>(call.args[0].get());
    std::string name = killed ? nameOf(*killed) : "?";
    unsigned node = addNode("", "kill " + name, "", Role::Kill, cluster);
    if (llvm::Optional<unsigned> from = varNode(killed))
      graph_.edges.push_back({*from, node, EdgeKind::Kill});
    return node;
  }

  /// `run_or_capture(capture, (inputs...), index)`: the capture function's
  /// bindings, drawn in a cluster, read the launch's inputs directly; the
  /// fields of its result tuple stand for the launch's result. None when
  /// the call is not of that form (then it is drawn as a plain binding).
  llvm::Optional<unsigned> addLaunch(const BindingNode &b, const CallNode &call) {
    const TupleNode *args =
        call.args.size() >= 2 ? llvm::dyn_cast<TupleNode>(call.args[1].get()) : nullptr;
    if (!args || args->fields.size() < 2)
      return llvm::None;
    const auto *gv = llvm::dyn_cast<GlobalVarNode>(args->fields[0].get());
    const auto *inputs = llvm::dyn_cast<TupleNode>(args->fields[1].get());
    const ModuleEntry *entry = gv ? module_.lookup(gv->name) : nullptr;
    const FunctionNode *capture = entry ? entry->asFunction() : nullptr;
    if (!capture || !inputs)
      return llvm::None;
    VizCluster cluster;
    cluster.function = gv->name;
    cluster.launch = nameOf(*b.var);
    if (args->fields.size() > 2) {
      const ExprNode *index = args->fields[2].get();
      const auto *prim = llvm::dyn_cast<PrimValueNode>(index);
      if (prim) {
        llvm::raw_string_ostream os(cluster.index);
        printPrimExpr(os, prim->value.get());
      } else {
        cluster.index = printExpr(index);
      }
    }
    graph_.clusters.push_back(std::move(cluster));
    int index = static_cast<int>(graph_.clusters.size() - 1);

    for (size_t i = 0; i < capture->params.size() && i < inputs->fields.size(); ++i) {
      const VarNode *param = capture->params[i].get();
      if (llvm::Optional<unsigned> from = varNode(inputs->fields[i].get()))
        nodeOf_[param] = *from;
      // Inside, a launch input goes by its name outside.
      if (const auto *input = llvm::dyn_cast<VarNode>(inputs->fields[i].get())) {
        displayName_[param] = nameOf(*input);
        if (allocated_.contains(input))
          allocated_.insert(param);
      }
    }
    size_t before = graph_.nodes.size();
    // The capture function's bindings keep the names it prints with.
    NameScope inner(module_.name);
    NameScope *outer = names_;
    names_ = &inner;
    addBody(*capture->body, index);
    names_ = outer;
    const ExprNode *result = capture->body->body.get();
    std::vector<unsigned> outputs;
    if (const TupleNode *tuple = resultTuple(*capture->body)) {
      for (const Expr &field : tuple->fields)
        if (llvm::Optional<unsigned> n = varNode(field.get()))
          outputs.push_back(*n);
    }
    if (llvm::Optional<unsigned> n = varNode(result))
      nodeOf_[b.var.get()] = *n;
    launchOutputs_[b.var.get()] = std::move(outputs);
    if (graph_.nodes.size() == before) // An empty capture: keep a node for the launch.
      return addNode(nameOf(*b.var), opLabel(&call), shortType(b.var->sinfo), Role::Value, index);
    return graph_.nodes.size() - 1;
  }

  /// The tuple a function body returns, when it is bound in the body.
  static const TupleNode *resultTuple(const SeqExprNode &seq) {
    if (const auto *tuple = llvm::dyn_cast<TupleNode>(seq.body.get()))
      return tuple;
    const auto *var = llvm::dyn_cast<VarNode>(seq.body.get());
    for (const BindingBlock &block : seq.blocks)
      for (const Binding &b : block->bindings)
        if (b->var.get() == var)
          return llvm::dyn_cast<TupleNode>(b->value.get());
    return nullptr;
  }

  /// One colour per storage that backs more than one tensor.
  void colourStorages() {
    for (unsigned node = 0; node < graph_.nodes.size(); ++node) {
      auto it = tensorsOf_.find(node);
      if (it == tensorsOf_.end() || it->second.size() < 2)
        continue;
      int index = static_cast<int>(graph_.storages.size());
      VizStorage s;
      s.name = graph_.nodes[node].name;
      s.colour = kPalette[index % std::size(kPalette)];
      s.tensors = it->second.size();
      graph_.storages.push_back(std::move(s));
      graph_.nodes[node].storage = index;
      for (unsigned t : it->second)
        graph_.nodes[t].storage = index;
    }
    // A kernel's output lives in its tensor's storage.
    for (auto [writer, tensor] : writtenTensor_)
      graph_.nodes[writer].storage = graph_.nodes[tensor].storage;
  }

  const IRModule &module_;
  const VizOptions &options_;
  FunctionGraph graph_;
  llvm::DenseMap<const VarNode *, unsigned> nodeOf_;
  llvm::DenseMap<unsigned, std::vector<unsigned>> tensorsOf_;
  llvm::DenseMap<const VarNode *, std::vector<unsigned>> launchOutputs_;
  llvm::DenseMap<const VarNode *, std::string> displayName_;
  NameScope *names_ = nullptr;
  llvm::DenseSet<const VarNode *> allocated_;
  /// Kernel-call node -> the allocation node of the tensor it writes.
  llvm::DenseMap<unsigned, unsigned> writtenTensor_;
};

std::string relaxFunctionNames(const IRModule &module) {
  std::vector<std::string> names;
  for (const ModuleEntry &e : module.entries())
    if (e.asFunction())
      names.push_back(e.gvar->name);
  return names.empty() ? "none" : llvm::join(names, ", ");
}

} // namespace

llvm::Expected<const FunctionNode *>
viz::selectFunction(const IRModule &module, llvm::StringRef name, std::string *chosen) {
  auto pick = [&](const ModuleEntry &e) {
    if (chosen)
      *chosen = e.gvar->name;
    return e.asFunction();
  };
  if (!name.empty()) {
    const ModuleEntry *entry = module.lookup(name);
    if (entry && entry->asFunction())
      return pick(*entry);
    std::string what =
        entry ? "'" + name.str() + "' is not a Relax function" : "no function '" + name.str() + "'";
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + " in module " + module.name +
                                       " (Relax functions: " + relaxFunctionNames(module) + ")");
  }
  if (const ModuleEntry *entry = module.lookup("main"))
    if (entry->asFunction())
      return pick(*entry);
  const ModuleEntry *only = nullptr;
  unsigned count = 0;
  for (const ModuleEntry &e : module.entries())
    if (e.asFunction()) {
      only = &e;
      ++count;
    }
  if (count == 1)
    return pick(*only);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "module " + module.name +
                                     (count
                                          ? " has no main and several Relax functions (" +
                                                relaxFunctionNames(module) + "): pick one with --fn"
                                          : " has no Relax function to draw"));
}

llvm::Expected<FunctionGraph> viz::buildFunctionGraph(const IRModule &module, llvm::StringRef name,
                                                      const VizOptions &options) {
  std::string chosen;
  auto fn = selectFunction(module, name, &chosen);
  if (!fn)
    return fn.takeError();
  return GraphBuilder(module, options).build(**fn, chosen);
}
