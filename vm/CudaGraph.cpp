//===- vm/CudaGraph.cpp - The CUDA-graph builtins ---------------------------===//
//
// The rules are in CudaGraph.h and docs/cuda.md, "CUDA graphs". The state
// lives in a VM extension, so it is per VM and dies with it: every graph is
// destroyed and the memory recorded as its own freed then.
//
//===----------------------------------------------------------------------===//

#include "vm/CudaGraph.h"
#include "vm/VM.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace graft::vm;
using llvm::ArrayRef;
using llvm::Expected;

namespace {

constexpr const char *kRunOrCapture = "vm.builtin.cuda_graph.run_or_capture";
constexpr const char *kGetCachedAlloc = "vm.builtin.cuda_graph.get_cached_alloc";

llvm::Error fail(const char *builtin, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), builtin + llvm::Twine(": ") + msg);
}

/// What a graph saw of one capture input: a tensor's dtype, shape and first
/// byte, a storage's address, else the value itself (shapes, prim values).
/// A hit compares without allocating; the message is made only for a
/// mismatch.
struct InputSig {
  enum class Kind { Tensor, Storage, Other } kind = Kind::Other;
  DLDataType dtype{};
  llvm::SmallVector<int64_t, 4> shape;
  const void *address = nullptr;
  Value value;
};

InputSig signatureOf(const Value &v) {
  InputSig s;
  if (auto *t = v.as<TensorObj>()) {
    s.kind = InputSig::Kind::Tensor;
    s.dtype = t->dtype();
    s.shape.assign(t->shape().begin(), t->shape().end());
    s.address = t->bytes();
  } else if (auto *st = v.as<StorageObj>()) {
    s.kind = InputSig::Kind::Storage;
    s.address = st->data();
  } else {
    s.value = v;
  }
  return s;
}

/// Whether two non-tensor, non-storage inputs are the same value: ints,
/// floats and bools by value, shapes by their dims, anything else by its
/// printed form.
bool sameOther(const Value &a, const Value &b) {
  if (a.isInt() || b.isInt())
    return a.isInt() && b.isInt() && a.getInt() == b.getInt();
  if (a.isBool() || b.isBool())
    return a.isBool() && b.isBool() && a.getBool() == b.getBool();
  if (a.isNone() || b.isNone())
    return a.isNone() && b.isNone();
  auto *sa = a.as<ShapeObj>(), *sb = b.as<ShapeObj>();
  if (sa || sb)
    return sa && sb && llvm::ArrayRef<int64_t>(sa->dims) == llvm::ArrayRef<int64_t>(sb->dims);
  return a.str() == b.str();
}

/// Whether `v` replays a graph captured with `sig` (the hit path: no
/// allocation for tensors, storages, ints and shapes).
bool matches(const InputSig &sig, const Value &v) {
  switch (sig.kind) {
  case InputSig::Kind::Tensor: {
    auto *t = v.as<TensorObj>();
    return t && t->bytes() == sig.address && dtypeEqual(t->dtype(), sig.dtype) &&
           llvm::ArrayRef<int64_t>(t->shape()) == llvm::ArrayRef<int64_t>(sig.shape);
  }
  case InputSig::Kind::Storage: {
    auto *st = v.as<StorageObj>();
    return st && st->data() == sig.address;
  }
  case InputSig::Kind::Other:
    return !v.as<TensorObj>() && !v.as<StorageObj>() && sameOther(sig.value, v);
  }
  return false;
}

/// Why `v` cannot replay a graph captured with `sig`, or empty. `name` is
/// the capture function's parameter (empty when unknown): it tells a weight
/// (a parameter the caller must pass as the same tensor on every call) from
/// a staged activation.
std::string mismatch(size_t i, llvm::StringRef name, const InputSig &sig, const Value &v) {
  if (matches(sig, v))
    return "";
  InputSig now = signatureOf(v);
  std::string in = "input " + std::to_string(i);
  if (!name.empty())
    in += " (" + name.str() + ")";
  auto captured = [&] {
    switch (sig.kind) {
    case InputSig::Kind::Tensor:
      return std::string("a tensor");
    case InputSig::Kind::Storage:
      return std::string("a storage");
    case InputSig::Kind::Other:
      break;
    }
    return sig.value.str();
  };
  if (now.kind != sig.kind)
    return llvm::formatv("{0} is {1}, captured with {2}", in, v.str(), captured());
  switch (sig.kind) {
  case InputSig::Kind::Tensor:
    if (!dtypeEqual(now.dtype, sig.dtype))
      return llvm::formatv("{0} has dtype {1}, captured with {2}", in, dtypeStr(now.dtype),
                           dtypeStr(sig.dtype));
    if (now.shape.size() != sig.shape.size())
      return llvm::formatv("{0} has {1} dims, captured with {2}", in, now.shape.size(),
                           sig.shape.size());
    for (size_t d = 0; d < sig.shape.size(); ++d)
      if (now.shape[d] != sig.shape[d])
        return llvm::formatv("{0} has size {1} in dim {2}, captured with {3}", in, now.shape[d], d,
                             sig.shape[d]);
    [[fallthrough]];
  case InputSig::Kind::Storage:
    return llvm::formatv("{0} is at address {1}, captured at {2} (a graph replays the "
                         "addresses of its capture)",
                         in, now.address, sig.address);
  case InputSig::Kind::Other:
    return llvm::formatv("{0} is {1}, captured with {2}", in, v.str(), sig.value.str());
  }
  return "";
}

/// A block a graph's kernels use (their workspace), made before the capture.
struct Block {
  void *ptr = nullptr;
  size_t bytes = 0;
};

struct Graph {
  void *exec = nullptr;
  Value outputs;
  std::vector<InputSig> inputs;
  /// Made for the graph; recorded as its own (owned) once its first launch
  /// succeeded, freed with the graph either way.
  Block pending;
  Block owned;
};

/// Orders graph keys; looks them up by ArrayRef, so a hit copies no key.
struct KeyLess {
  using is_transparent = void;
  bool operator()(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
};

struct Region {
  std::string function;
  bool eagerOnly = false;
  std::string reason;
  uint64_t eagerRuns = 0, captures = 0, replays = 0;
  GraphNodeCounts nodes;                                 ///< Of the last graph captured.
  std::map<std::vector<int64_t>, Graph, KeyLess> graphs; ///< By symbolic shape values.
};

class CudaGraphState final : public VMExtension {
public:
  ~CudaGraphState() override {
    for (auto &r : regions)
      for (auto &g : r.second.graphs)
        release(g.second);
  }

  void release(Graph &g) {
    if (!device)
      return;
    if (g.exec)
      device->destroyGraph(g.exec);
    g.exec = nullptr;
    for (Block *b : {&g.pending, &g.owned})
      if (b->ptr) {
        device->free(b->ptr, b->bytes);
        *b = Block();
      }
  }

  std::shared_ptr<Device> device; ///< The capturing device, once known.
  std::map<int64_t, Region> regions;
  std::map<int64_t, Value> allocs; ///< get_cached_alloc's results by index.
  uint64_t allocCalls = 0;
};

/// Sets the capture flag of every allocator of `vm` for the scope.
class CaptureScope {
public:
  explicit CaptureScope(VirtualMachine &vm, Block ws) : vm_(vm) {
    set(true);
    GraphWorkspace &gw = vm_.graphWorkspace();
    gw.base = static_cast<char *>(ws.ptr);
    gw.size = ws.bytes;
    gw.used = 0;
  }
  ~CaptureScope() {
    set(false);
    vm_.graphWorkspace() = GraphWorkspace();
  }

private:
  void set(bool open) {
    for (size_t i = 0; i < vm_.numDevices(); ++i)
      vm_.allocator(i)->setCaptureOpen(open);
  }
  VirtualMachine &vm_;
};

/// The parameter names of the closure's function, or none.
llvm::ArrayRef<std::string> paramNames(VirtualMachine &vm, const Value &func) {
  if (auto *c = func.as<ClosureObj>())
    if (c->funcIndex >= 0 && size_t(c->funcIndex) < vm.executable().functions.size())
      return vm.executable().functions[c->funcIndex].paramNames;
  return {};
}

std::string functionName(VirtualMachine &vm, const Value &func) {
  if (auto *c = func.as<ClosureObj>())
    if (c->funcIndex >= 0 && size_t(c->funcIndex) < vm.executable().functions.size())
      return vm.executable().functions[c->funcIndex].name;
  return func.str();
}

/// Runs the region eagerly, measuring the workspace its kernels ask for.
Expected<Value> runEager(VirtualMachine &vm, const Value &func, ArrayRef<Value> inputs,
                         size_t *workspace) {
  GraphWorkspace &gw = vm.graphWorkspace();
  gw.measuring = workspace != nullptr;
  gw.measured = 0;
  auto out = vm.invokeClosure(func, inputs);
  if (workspace)
    *workspace = gw.measured;
  gw.measuring = false;
  return out;
}

/// Captures the region into `g`; an error says why it could not be, and
/// leaves nothing behind.
llvm::Error capture(VirtualMachine &vm, Device &dev, const Value &func, ArrayRef<Value> inputs,
                    size_t workspace, Graph &g) {
  Block ws;
  if (workspace) {
    auto p = dev.allocate(workspace, GraphWorkspace::kAlign);
    if (!p)
      return p.takeError();
    ws = Block{*p, workspace};
  }
  auto freeWs = [&] {
    if (ws.ptr)
      dev.free(ws.ptr, ws.bytes);
  };
  if (llvm::Error err = dev.beginCapture()) {
    freeWs();
    return err;
  }
  Expected<Value> out = Value();
  {
    CaptureScope scope(vm, ws);
    out = vm.invokeClosure(func, inputs);
  }
  // The capture is ended whatever happened inside it, so that the device
  // leaves capture mode.
  auto exec = dev.endCapture();
  if (!out || !exec) {
    if (exec)
      dev.destroyGraph(*exec);
    freeWs();
    if (!out) {
      llvm::consumeError(exec ? llvm::Error::success() : exec.takeError());
      return out.takeError();
    }
    return exec.takeError();
  }
  g.exec = *exec;
  g.outputs = *out;
  g.pending = ws;
  for (const Value &v : inputs)
    g.inputs.push_back(signatureOf(v));
  return llvm::Error::success();
}

/// vm.builtin.cuda_graph.run_or_capture(%vm, capture, (inputs...), index[, shape])
///
/// A hit (the common case) makes no allocation: the key is looked up as the
/// shape's dims, the inputs are the tuple's fields, and each is compared
/// with its signature in place.
Expected<Value> runOrCapture(VirtualMachine &, const void *, ArrayRef<Value> args) {
  if (args.size() < 4 || args.size() > 5)
    return fail(kRunOrCapture, llvm::formatv("expects 4 or 5 arguments but got {0}", args.size()));
  VirtualMachine *vm = VirtualMachine::fromHandle(args[0]);
  if (!vm)
    return fail(kRunOrCapture, "argument 0 must be the VM context (%vm) but is " + args[0].str());
  const Value &func = args[1];
  if (!func.as<ClosureObj>())
    return fail(kRunOrCapture, "argument 1 must be the capture function but is " + func.str());
  auto *tuple = args[2].as<TupleObj>();
  if (!tuple)
    return fail(kRunOrCapture,
                "argument 2 must be the tuple of capture inputs but is " + args[2].str());
  ArrayRef<Value> inputs = tuple->fields;
  if (!args[3].isInt())
    return fail(kRunOrCapture, "argument 3 must be the entry index but is " + args[3].str());
  int64_t index = args[3].getInt();
  ArrayRef<int64_t> key;
  if (args.size() == 5 && !args[4].isNone()) {
    auto *shape = args[4].as<ShapeObj>();
    if (!shape)
      return fail(kRunOrCapture, "argument 4 must be a shape but is " + args[4].str());
    key = shape->dims;
  }

  auto &state = vm->extension<CudaGraphState>();
  Region &region = state.regions[index];
  if (region.function.empty())
    region.function = functionName(*vm, func);
  Device *dev = vm->numDevices() > 0 ? &vm->allocator(0)->device() : nullptr;
  bool canCapture = dev && dev->canCaptureGraphs() && !vm->captureOpen();
  if (!canCapture || region.eagerOnly) {
    ++region.eagerRuns;
    if (!canCapture && region.reason.empty())
      region.reason = "the device cannot capture graphs";
    return runEager(*vm, func, inputs, nullptr);
  }
  if (!state.device)
    state.device = std::shared_ptr<Device>(vm->allocator(0), dev);

  auto it = region.graphs.find(key);
  if (it != region.graphs.end()) {
    Graph &g = it->second;
    size_t n = std::min(g.inputs.size(), inputs.size());
    for (size_t i = 0; i < n; ++i)
      if (!matches(g.inputs[i], inputs[i])) {
        llvm::ArrayRef<std::string> names = paramNames(*vm, func);
        llvm::StringRef name = i < names.size() ? llvm::StringRef(names[i]) : "";
        return fail(kRunOrCapture, llvm::formatv("region {0} ({1}): {2}", index, region.function,
                                                 mismatch(i, name, g.inputs[i], inputs[i])));
      }
    if (llvm::Error err = dev->launchGraph(g.exec)) {
      // The graph and what was made for it go; the next call captures again.
      std::string msg = llvm::toString(std::move(err));
      state.release(g);
      region.graphs.erase(it);
      return fail(kRunOrCapture, llvm::formatv("region {0} ({1}): launch failed: {2}", index,
                                               region.function, msg));
    }
    if (g.pending.ptr) {
      g.owned = g.pending;
      g.pending = Block();
    }
    ++region.replays;
    return g.outputs;
  }

  size_t workspace = 0;
  auto eager = runEager(*vm, func, inputs, &workspace);
  if (!eager)
    return eager.takeError();
  ++region.eagerRuns;
  workspace = llvm::alignTo(workspace, GraphWorkspace::kAlign);
  Graph g;
  if (llvm::Error err = capture(*vm, *dev, func, inputs, workspace, g)) {
    region.eagerOnly = true;
    region.reason = llvm::toString(std::move(err));
    vm->logInfo(llvm::formatv("CUDA-graph region {0} ({1}) runs without a graph in this VM: the "
                              "capture failed: {2}",
                              index, region.function, region.reason));
    return eager;
  }
  ++region.captures;
  region.nodes = dev->capturedNodes();
  region.graphs.emplace(std::vector<int64_t>(key.begin(), key.end()), std::move(g));
  return eager;
}

/// vm.builtin.cuda_graph.get_cached_alloc(%vm, alloc_func, index): the
/// lifted storages, made by the first call of `alloc_func` in this VM.
Expected<Value> getCachedAlloc(VirtualMachine &, const void *, ArrayRef<Value> args) {
  if (args.size() != 3)
    return fail(kGetCachedAlloc, llvm::formatv("expects 3 arguments but got {0}", args.size()));
  VirtualMachine *vm = VirtualMachine::fromHandle(args[0]);
  if (!vm)
    return fail(kGetCachedAlloc, "argument 0 must be the VM context (%vm) but is " + args[0].str());
  if (!args[1].as<ClosureObj>())
    return fail(kGetCachedAlloc,
                "argument 1 must be the allocation function but is " + args[1].str());
  if (!args[2].isInt())
    return fail(kGetCachedAlloc, "argument 2 must be the entry index but is " + args[2].str());
  auto &state = vm->extension<CudaGraphState>();
  int64_t index = args[2].getInt();
  auto it = state.allocs.find(index);
  if (it != state.allocs.end())
    return it->second;
  auto made = vm->invokeClosure(args[1], {});
  if (!made)
    return made.takeError();
  ++state.allocCalls;
  state.allocs.emplace(index, *made);
  return *made;
}

} // namespace

std::vector<CudaGraphRegionReport> graft::vm::cudaGraphReport(VirtualMachine &vm) {
  std::vector<CudaGraphRegionReport> out;
  for (const auto &[index, r] : vm.extension<CudaGraphState>().regions) {
    CudaGraphRegionReport rep;
    rep.index = index;
    rep.function = r.function;
    rep.state = r.eagerOnly      ? CudaGraphRegionReport::State::EagerOnly
                : r.captures > 0 ? CudaGraphRegionReport::State::Captured
                                 : CudaGraphRegionReport::State::Eager;
    rep.reason = r.reason;
    rep.eagerRuns = r.eagerRuns;
    rep.captures = r.captures;
    rep.replays = r.replays;
    rep.graphs = r.graphs.size();
    rep.nodes = r.nodes;
    for (const auto &g : r.graphs)
      rep.ownedBytes += g.second.owned.bytes;
    out.push_back(std::move(rep));
  }
  return out;
}

uint64_t graft::vm::cudaGraphAllocCalls(VirtualMachine &vm) {
  return vm.extension<CudaGraphState>().allocCalls;
}

const char *graft::vm::cudaGraphStateName(CudaGraphRegionReport::State state) {
  switch (state) {
  case CudaGraphRegionReport::State::Eager:
    return "eager";
  case CudaGraphRegionReport::State::Captured:
    return "captured";
  case CudaGraphRegionReport::State::EagerOnly:
    return "eager-only";
  }
  return "eager";
}

llvm::Expected<KernelWorkspace> graft::vm::acquireKernelWorkspace(VirtualMachine &vm, size_t device,
                                                                  size_t bytes) {
  KernelWorkspace ws;
  if (bytes == 0)
    return ws;
  GraphWorkspace &gw = vm.graphWorkspace();
  size_t rounded = llvm::alignTo(bytes, GraphWorkspace::kAlign);
  if (gw.measuring)
    gw.measured += rounded;
  ws.bytes = bytes;
  if (vm.captureOpen()) {
    if (gw.used + rounded > gw.size)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("workspace of {0} bytes refused: a CUDA-graph capture is open and the "
                        "graph's block has {1} of {2} bytes left",
                        bytes, gw.size - gw.used, gw.size)
              .str());
    ws.ptr = gw.base + gw.used;
    gw.used += rounded;
    ws.graphOwned = true;
    return ws;
  }
  auto mem = vm.allocator(device)->allocate(bytes);
  if (!mem)
    return mem.takeError();
  ws.ptr = *mem;
  return ws;
}

void graft::vm::releaseKernelWorkspace(VirtualMachine &vm, size_t device,
                                       const KernelWorkspace &ws) {
  if (ws.ptr && !ws.graphOwned)
    vm.allocator(device)->free(ws.ptr, ws.bytes);
}

void graft::vm::registerCudaGraphBuiltins(PackedRegistry &registry) {
  registry.add(kRunOrCapture, runOrCapture);
  registry.add(kGetCachedAlloc, getCachedAlloc);
}
