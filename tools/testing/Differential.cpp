//===- tools/testing/Differential.cpp - Generated programs, two ways -------------===//

#include "tools/testing/Differential.h"

#include "analysis/WellFormed.h"
#include "codegen/Build.h"
#include "codegen/Interpreter.h"
#include "codegen/ParamTable.h"
#include "ir/OpKernels.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "ir/Visitor.h"
#include "pass/Pass.h"
#include "pass/PassManager.h"
#include "pass/PassTest.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"
#include "vm/CudaDevice.h"
#include "vm/PackedFunc.h"
#include "vm/VM.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace graft;
using namespace graft::testing;
using vm::Value;

namespace {

/// splitmix64 for the inputs (a stream of its own, so changing the inputs
/// never changes the program of a seed).
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x5eed0f1e7aull) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0; }
  /// A multiple of 1/16 in [-1, 1).
  double dyadic() { return static_cast<double>(next() % 32) / 16.0 - 1.0; }

private:
  uint64_t state_;
};

std::unique_ptr<ParsedFile> parseProgram(const std::string &text, uint64_t seed,
                                         std::string &error) {
  auto file = parseText(text, "seed-" + std::to_string(seed) + ".py");
  if (!file) {
    error = "does not parse: " + llvm::toString(file.takeError());
    return nullptr;
  }
  if (file->modules.size() != 1) {
    error = "holds " + std::to_string(file->modules.size()) + " modules";
    return nullptr;
  }
  return std::make_unique<ParsedFile>(std::move(*file));
}

/// Random values: floats uniform in [-1, 1) (or multiples of 1/16 there
/// when `dyadic`), integers in [0, 8), bools.
void fillTensor(vm::TensorObj &t, Rng &rng, bool dyadic) {
  DLDataType dt = t.dtype();
  int64_t n = t.numElements();
  for (int64_t i = 0; i < n; ++i) {
    char *p = t.bytes() + i * (dt.bits / 8);
    if (dt.code == kDLFloat && dt.bits == 32) {
      float v = static_cast<float>(dyadic ? rng.dyadic() : rng.uniform());
      std::memcpy(p, &v, 4);
    } else if (dt.code == kDLFloat && dt.bits == 64) {
      double v = dyadic ? rng.dyadic() : rng.uniform();
      std::memcpy(p, &v, 8);
    } else if (dt.code == kernels::kGraftDLBool) {
      *p = static_cast<char>(rng.next() & 1);
    } else {
      int64_t v = static_cast<int64_t>(rng.next() % 8);
      std::memcpy(p, &v, dt.bits / 8); // little-endian: the low bytes
    }
  }
}

/// Random arguments for `params`; symbolic dims get sizes 1-4, one per name.
llvm::Expected<std::vector<Value>> randomInputs(llvm::ArrayRef<vm::ParamInfo> params, Rng &rng,
                                                bool dyadic = false) {
  llvm::StringMap<int64_t> sizes;
  std::vector<Value> out;
  for (const vm::ParamInfo &p : params) {
    if (p.kind == vm::ParamKind::Bool) {
      out.push_back(Value::boolean(rng.next() & 1));
      continue;
    }
    if (p.kind != vm::ParamKind::Tensor || !p.dtype)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "parameter '" + p.name + "' is not a tensor or a bool");
    llvm::SmallVector<int64_t, 4> shape;
    for (const vm::DimInfo &d : p.dims) {
      if (d.kind == vm::DimInfo::Static)
        shape.push_back(d.value);
      else
        shape.push_back(sizes.try_emplace(d.symbol, 1 + rng.next() % 4).first->second);
    }
    auto t = vm::TensorObj::emptyHost(shape, *p.dtype);
    if (!t)
      return t.takeError();
    fillTensor(**t, rng, dyadic);
    out.push_back(Value::object(*t));
  }
  return out;
}

/// A deep copy, so neither side can see the other's writes.
Value copyValue(const Value &v) {
  if (const auto *t = v.as<vm::TensorObj>()) {
    auto c = vm::TensorObj::emptyHost(t->shape(), t->dtype());
    if (!c) {
      llvm::consumeError(c.takeError());
      return v;
    }
    if (t->byteSize())
      std::memcpy((*c)->bytes(), t->bytes(), t->byteSize());
    return Value::object(*c);
  }
  return v;
}

/// Distance in units in the last place between two finite floats of the
/// same sign class (the bit patterns mapped to a monotonic integer line).
uint64_t ulpDistance(double a, double b, bool single) {
  auto line = [&](double x) -> int64_t {
    if (single) {
      float f = static_cast<float>(x);
      int32_t i;
      std::memcpy(&i, &f, 4);
      return i < 0 ? INT32_MIN - static_cast<int64_t>(i) : i;
    }
    int64_t i;
    std::memcpy(&i, &x, 8);
    return i < 0 ? INT64_MIN - i : i;
  };
  int64_t x = line(a), y = line(b);
  return x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
               : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
}

/// Whether two different floats of a dtype are within `bounds`.
bool withinBounds(double x, double y, bool single, const FloatBounds &bounds) {
  if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y))
    return false;
  if (ulpDistance(x, y, single) <= bounds.maxUlps)
    return true;
  double eps = single ? 0x1p-23 : 0x1p-52;
  double scale = std::max({1.0, std::fabs(x), std::fabs(y)});
  return std::fabs(x - y) <= bounds.epsTol * eps * scale;
}

/// `computedBits`: the float width the values were computed in (0: their
/// dtype's); a float64 tensor computed in float32 is compared at float32's
/// bound.
std::string compareTensors(const vm::TensorObj &a, const vm::TensorObj &b,
                           const FloatBounds &bounds, const std::string &path,
                           unsigned computedBits = 0) {
  if (vm::dtypeStr(a.dtype()) != vm::dtypeStr(b.dtype()))
    return path + ": dtype " + vm::dtypeStr(a.dtype()) + " vs " + vm::dtypeStr(b.dtype());
  if (a.shape() != b.shape())
    return path + ": shapes differ";
  DLDataType dt = a.dtype();
  int64_t n = a.numElements();
  if (dt.code != kDLFloat) {
    if (n && std::memcmp(a.bytes(), b.bytes(), a.byteSize()) != 0)
      return path + ": integer or bool values differ";
    return "";
  }
  for (int64_t i = 0; i < n; ++i) {
    double x, y;
    if (dt.bits == 32) {
      float fx, fy;
      std::memcpy(&fx, a.bytes() + 4 * i, 4);
      std::memcpy(&fy, b.bytes() + 4 * i, 4);
      x = fx;
      y = fy;
    } else {
      std::memcpy(&x, a.bytes() + 8 * i, 8);
      std::memcpy(&y, b.bytes() + 8 * i, 8);
    }
    if (std::isnan(x) && std::isnan(y))
      continue;
    if (x == y)
      continue;
    bool single = dt.bits == 32 || (computedBits != 0 && computedBits < 64);
    if (!withinBounds(x, y, single, bounds))
      return llvm::formatv("{0}[{1}]: {2} vs {3}", path, i, x, y).str();
  }
  return "";
}

/// The entry of `bits` for `path` or the nearest enclosing output
/// ("output_1_0" falls back to "output_1", then "output"); 0 for none.
unsigned bitsFor(const std::map<std::string, unsigned> *bits, std::string path) {
  if (!bits)
    return 0;
  for (;;) {
    auto it = bits->find(path);
    if (it != bits->end())
      return it->second;
    size_t cut = path.rfind('_');
    if (cut == std::string::npos)
      return 0;
    path.resize(cut);
  }
}

/// "" when equal, else where they differ (work list over tuples).
/// `computedBits` (device mode): the float width each output was computed in.
std::string compareValues(const Value &vmOut, const Value &interpOut, const FloatBounds &bounds,
                          const std::map<std::string, unsigned> *computedBits = nullptr) {
  llvm::SmallVector<std::tuple<Value, Value, std::string>, 8> work{{vmOut, interpOut, "output"}};
  while (!work.empty()) {
    auto [a, b, path] = work.pop_back_val();
    if (a.kind() != b.kind())
      return path + ": " + a.str() + " vs " + b.str();
    if (const auto *ta = a.as<vm::TensorObj>()) {
      std::string d =
          compareTensors(*ta, *b.as<vm::TensorObj>(), bounds, path, bitsFor(computedBits, path));
      if (!d.empty())
        return d;
    } else if (const auto *tup = a.as<vm::TupleObj>()) {
      const auto *other = b.as<vm::TupleObj>();
      if (tup->fields.size() != other->fields.size())
        return path + ": tuple sizes differ";
      for (size_t i = 0; i < tup->fields.size(); ++i)
        work.push_back({tup->fields[i], other->fields[i], path + "_" + std::to_string(i)});
    } else if (!vm::structurallyEqual(a, b)) {
      return path + ": " + a.str() + " vs " + b.str();
    }
  }
  return "";
}

/// Combines two float widths, 0 meaning "no float".
unsigned narrower(unsigned a, unsigned b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); }

/// The narrowest float width among a struct info's tensors and prim values.
unsigned floatBitsOf(const StructInfoNode *s) {
  unsigned bits = 0;
  llvm::SmallVector<const StructInfoNode *, 4> work;
  if (s)
    work.push_back(s);
  while (!work.empty()) {
    const StructInfoNode *n = work.pop_back_val();
    if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(n)) {
      if (t->dtype.isFloat())
        bits = narrower(bits, t->dtype.bits);
    } else if (const auto *p = llvm::dyn_cast<PrimSInfoNode>(n)) {
      if (p->dtype.isFloat())
        bits = narrower(bits, p->dtype.bits);
    } else if (const auto *tup = llvm::dyn_cast<TupleSInfoNode>(n)) {
      for (const StructInfo &f : tup->fields)
        work.push_back(f.get());
    }
  }
  return bits;
}

/// For each var of a function, the narrowest float width of what it was
/// computed from: its own dtype, and that of every var, constant and call
/// its value uses (a called function's every value). A binding's value is
/// visited with `current` reset, so bindings nested in an If's branches
/// reach the If's var only through the branches' results.
class FloatWidths : public ExprVisitor {
public:
  explicit FloatWidths(const IRModule &module) : module_(module) {}

  unsigned of(const VarNode *v) const {
    auto it = widths_.find(v);
    return it == widths_.end() ? floatBitsOf(v->sinfo.get()) : it->second;
  }
  const VarBindingNode *bindingOf(const VarNode *v) const { return bindings_.lookup(v); }

  void visitVarDef(const VarNode *var, const BindingNode *binding) override {
    if (!binding)
      widths_[var] = floatBitsOf(var->sinfo.get());
  }
  void visitVarBinding(const VarBindingNode *b) override {
    bindings_[b->var.get()] = b;
    define(b);
  }
  void visitMatchCast(const MatchCastNode *b) override { define(b); }
  void visitVarUse(const VarNode *var) override { current_ = narrower(current_, of(var)); }
  void visitConstant(const ConstantNode *c) override {
    current_ = narrower(current_, floatBitsOf(c->sinfo.get()));
  }
  void visitCall(const CallNode *call) override {
    current_ = narrower(current_, floatBitsOf(call->sinfo.get()));
    if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call->op.get()))
      current_ = narrower(current_, calleeBits(gv->name));
    ExprVisitor::visitCall(call);
  }

private:
  void define(const BindingNode *b) {
    unsigned saved = current_;
    current_ = floatBitsOf(b->var->sinfo.get());
    visitExpr(b->value.get());
    widths_[b->var.get()] = current_;
    current_ = saved;
  }
  /// Every float width a module function holds (params and bindings).
  unsigned calleeBits(const std::string &name) {
    auto it = callees_.find(name);
    if (it != callees_.end())
      return it->second;
    callees_[name] = 0; // A recursive call adds nothing new.
    unsigned bits = 0;
    const ModuleEntry *entry = module_.lookup(name);
    if (const FunctionNode *fn = entry ? entry->asFunction() : nullptr) {
      FloatWidths inner(module_);
      inner.callees_ = callees_;
      inner.visitFunction(fn);
      for (const auto &w : inner.widths_)
        bits = narrower(bits, w.second);
      bits = narrower(bits, floatBitsOf(fn->retSInfo.get()));
    }
    callees_[name] = bits;
    return bits;
  }

  const IRModule &module_;
  unsigned current_ = 0;
  llvm::DenseMap<const VarNode *, unsigned> widths_;
  llvm::DenseMap<const VarNode *, const VarBindingNode *> bindings_;
  std::map<std::string, unsigned> callees_;
};

} // namespace

std::map<std::string, unsigned> graft::testing::outputFloatBits(const IRModule &module,
                                                                const FunctionNode &main) {
  FloatWidths widths(module);
  widths.visitFunction(&main);
  std::map<std::string, unsigned> out;
  // Tuples (written out, or bound to a var) are followed field by field.
  llvm::SmallVector<std::pair<const ExprNode *, std::string>, 8> work;
  if (main.body)
    work.push_back({main.body->body.get(), "output"});
  while (!work.empty()) {
    auto [e, path] = work.pop_back_val();
    if (const auto *v = llvm::dyn_cast<VarNode>(e)) {
      const VarBindingNode *b = widths.bindingOf(v);
      if (b && llvm::isa<TupleNode>(b->value.get())) {
        work.push_back({b->value.get(), path});
        continue;
      }
      out[path] = widths.of(v);
    } else if (const auto *t = llvm::dyn_cast<TupleNode>(e)) {
      for (size_t i = 0; i < t->fields.size(); ++i)
        work.push_back({t->fields[i].get(), path + "_" + std::to_string(i)});
    } else if (e) {
      out[path] = floatBitsOf(e->sinfo.get());
    }
  }
  return out;
}

std::string graft::testing::compareDeviceOutputs(const Value &device, const Value &cpu,
                                                 const FloatBounds &bounds,
                                                 const std::map<std::string, unsigned> &bits) {
  return compareValues(device, cpu, bounds, &bits);
}

TwoWayResult graft::testing::runTwoWays(const std::string &text, uint64_t seed, unsigned maxUlps) {
  auto differ = [](std::string m) { return TwoWayResult{TwoWayResult::Differ, std::move(m)}; };
  auto invalid = [](std::string m) { return TwoWayResult{TwoWayResult::Invalid, std::move(m)}; };
  std::string error;
  std::unique_ptr<ParsedFile> built = parseProgram(text, seed, error);
  std::unique_ptr<ParsedFile> source = parseProgram(text, seed, error);
  if (!built || !source)
    return invalid(error);
  const ModuleEntry *entry = source->modules.front()->lookup("main");
  const FunctionNode *main = entry ? entry->asFunction() : nullptr;
  if (!main)
    return invalid("no main function");
  Rng rng(seed);
  auto inputs = randomInputs(codegen::paramTable(*main, DLDevice{kDLCPU, 0}), rng);
  if (!inputs)
    return invalid("inputs: " + llvm::toString(inputs.takeError()));
  std::vector<Value> copies;
  for (const Value &v : *inputs)
    copies.push_back(copyValue(v));

  auto interpOut = codegen::interpret(*source->modules.front(), "main", copies);
  bool unsupported = false;
  std::string interpError;
  if (!interpOut) {
    llvm::handleAllErrors(interpOut.takeError(), [&](const codegen::InterpretError &e) {
      unsupported = e.kind() != codegen::InterpretError::Kind::Runtime;
      interpError = e.text();
    });
  }
  if (unsupported)
    return {TwoWayResult::Unsupported, interpError};
  auto exe = codegen::buildExecutable(*built->modules.front());
  if (!exe)
    return differ("build-cpu: " + llvm::toString(exe.takeError()));
  auto machine = vm::VirtualMachine::create(std::shared_ptr<const vm::Executable>(std::move(*exe)));
  if (!machine)
    return differ("VM: " + llvm::toString(machine.takeError()));
  auto vmOut = (*machine)->invoke("main", *inputs);
  if (!vmOut) {
    std::string vmError = llvm::toString(vmOut.takeError());
    if (!interpError.empty())
      return {TwoWayResult::BothFailed, "VM: " + vmError + "; interpreter: " + interpError};
    return differ("the VM fails (" + vmError + ") but the interpreter does not");
  }
  if (!interpError.empty())
    return differ("the interpreter fails (" + interpError + ") but the VM does not");
  std::string diff = compareValues(*vmOut, *interpOut, FloatBounds{maxUlps, 0});
  if (!diff.empty())
    return differ("VM and interpreter differ at " + diff);
  return {TwoWayResult::Agree, ""};
}

namespace {

llvm::Expected<std::shared_ptr<vm::Device>> deviceFor(const std::string &target) {
  if (target == "cuda")
    return vm::cudaDevice(0);
  if (target == "cpu")
    return vm::cpuDevice();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown target '" + target + "' (supported: cpu, cuda)");
}

/// One side of runOnTarget: how far it got, and its output or error.
struct TargetRun {
  enum Step { Built, Loaded, Ran } reached = Built;
  bool ok = false;
  Value output;
  std::string error;
};

/// Builds `text` for `target` and runs `main` on the target's device with
/// `inputs` (copied there), the output copied back to the host.
TargetRun runBuilt(const std::string &text, uint64_t seed, const std::string &target,
                   llvm::ArrayRef<Value> inputs) {
  TargetRun run;
  std::unique_ptr<ParsedFile> file = parseProgram(text, seed, run.error);
  if (!file)
    return run;
  codegen::BuildOptions options;
  options.target = target;
  options.passes.verifyEach = true;
  auto exe = codegen::buildExecutable(*file->modules.front(), options);
  if (!exe) {
    run.error = "build for " + target + ": " + llvm::toString(exe.takeError());
    return run;
  }
  auto device = deviceFor(target);
  if (!device) {
    run.error = llvm::toString(device.takeError());
    return run;
  }
  run.reached = TargetRun::Loaded;
  vm::VMOptions vmOptions;
  vmOptions.devices.push_back(*device);
  auto machine =
      vm::VirtualMachine::create(std::shared_ptr<const vm::Executable>(std::move(*exe)), vmOptions);
  if (!machine) {
    run.error = "load on " + target + ": " + llvm::toString(machine.takeError());
    return run;
  }
  run.reached = TargetRun::Ran;
  std::vector<Value> placed;
  for (const Value &v : inputs) {
    auto p = vm::copyTensorsTo(copyValue(v), (*machine)->allocator(0));
    if (!p) {
      run.error = llvm::toString(p.takeError());
      return run;
    }
    placed.push_back(std::move(*p));
  }
  auto out = (*machine)->invoke("main", placed);
  if (out)
    if (llvm::Error err = (*machine)->allocator(0)->device().synchronize())
      out = std::move(err);
  if (!out) {
    run.error = llvm::toString(out.takeError());
    return run;
  }
  auto onHost = vm::copyTensorsToHost(*out);
  if (!onHost) {
    run.error = llvm::toString(onHost.takeError());
    return run;
  }
  run.ok = true;
  run.output = std::move(*onHost);
  return run;
}

/// Whether a failure on the device is a gap of the device, not a bug: a
/// kernel without a version for it, or a limit its kernel states.
bool isDeviceGap(llvm::StringRef error) {
  return error.contains("has no CUDA implementation") || error.contains("on CUDA, ") ||
         error.contains("is not supported yet");
}

} // namespace

TwoWayResult graft::testing::runOnTarget(const std::string &text, uint64_t seed,
                                         const std::string &target, const FloatBounds &bounds) {
  auto differ = [](std::string m) { return TwoWayResult{TwoWayResult::Differ, std::move(m)}; };
  std::string error;
  std::unique_ptr<ParsedFile> source = parseProgram(text, seed, error);
  if (!source)
    return {TwoWayResult::Invalid, error};
  const ModuleEntry *entry = source->modules.front()->lookup("main");
  const FunctionNode *main = entry ? entry->asFunction() : nullptr;
  if (!main)
    return {TwoWayResult::Invalid, "no main function"};
  Rng rng(seed);
  auto inputs = randomInputs(codegen::paramTable(*main, DLDevice{kDLCPU, 0}), rng, true);
  if (!inputs)
    return {TwoWayResult::Invalid, "inputs: " + llvm::toString(inputs.takeError())};
  TargetRun cpu = runBuilt(text, seed, "cpu", *inputs);
  TargetRun dev = runBuilt(text, seed, target, *inputs);
  if (!dev.ok && isDeviceGap(dev.error))
    return {TwoWayResult::Unsupported, dev.error};
  if (!cpu.ok && cpu.reached != TargetRun::Ran)
    return differ(cpu.error);
  if (!dev.ok && dev.reached != TargetRun::Ran)
    return differ(dev.error);
  if (!cpu.ok && !dev.ok)
    return {TwoWayResult::BothFailed, "cpu: " + cpu.error + "; " + target + ": " + dev.error};
  if (!cpu.ok)
    return differ("the CPU fails (" + cpu.error + ") but " + target + " does not");
  if (!dev.ok)
    return differ(target + " fails (" + dev.error + ") but the CPU does not");
  std::string diff = compareDeviceOutputs(dev.output, cpu.output, bounds,
                                          outputFloatBits(*source->modules.front(), *main));
  if (!diff.empty())
    return differ(target + " and the CPU differ at " + diff);
  return {TwoWayResult::Agree, ""};
}

static bool resolves(const std::string &symbol, DLDeviceType device) {
  auto fn = vm::resolvePackedFunc(symbol, device);
  if (fn)
    return true;
  llvm::consumeError(fn.takeError());
  return false;
}

llvm::Expected<std::vector<std::string>>
graft::testing::opsWithoutKernel(const std::string &target) {
  auto device = deviceFor(target);
  if (!device)
    return device.takeError();
  DLDeviceType type = (*device)->dlDevice().device_type;
  std::vector<std::string> out;
  for (const OpKernel *k : allOpKernels()) {
    if (k->forward) // No kernel runs: the value is forwarded.
      continue;
    // An op with a host form (nonzero, a masked index_tensor) reads device
    // data on the host, which only the CPU does today.
    bool runs = type == kDLCPU || k->hostSymbol.empty();
    if (runs)
      runs = resolves(k->symbol, type) || (!k->hostSymbol.empty() && resolves(k->hostSymbol, type));
    if (!runs)
      // The registry name without its namespace, as written after `R.`.
      out.push_back(llvm::StringRef(k->op->name).split('.').second.str());
  }
  return out;
}

namespace {

class Runner {
public:
  Runner(const DifferentialOptions &options, llvm::raw_ostream &log)
      : options_(options), log_(log) {}

  void runSeed(uint64_t seed);
  DifferentialReport report;

private:
  void fail(uint64_t seed, const std::string &text, const std::string &what);
  void runPipeline(uint64_t seed, const std::string &text, const std::string &pipeline);
  void runBoth(uint64_t seed, const std::string &text);
  void checkRoundTrip(uint64_t seed, const std::string &text, const std::string &pipeline,
                      const IRModule &module);

  const DifferentialOptions &options_;
  llvm::raw_ostream &log_;
};

/// A skip's reason without its particulars (shapes), so reasons add up:
/// the kernel and what it lacks.
std::string skipReason(llvm::StringRef message) {
  auto upTo = [](llvm::StringRef s, llvm::StringRef stops) {
    return s.take_until([&](char c) { return stops.contains(c); }).str();
  };
  size_t missing = message.find("kernel '");
  if (missing != llvm::StringRef::npos)
    return upTo(message.drop_front(missing), "(\n");
  size_t limit = message.find("on CUDA, ");
  if (limit == llvm::StringRef::npos)
    return upTo(message, ":\n");
  size_t symbol = message.take_front(limit).rfind("graft.");
  std::string kernel =
      symbol == llvm::StringRef::npos ? "" : upTo(message.drop_front(symbol), ": ") + ": ";
  return kernel + upTo(message.drop_front(limit), ";:\n");
}

void Runner::fail(uint64_t seed, const std::string &text, const std::string &what) {
  std::string line = "seed " + std::to_string(seed) + ": " + what;
  report.failures.push_back(line);
  log_ << line << "\n";
  if (options_.keepDir.empty())
    return;
  llvm::sys::fs::create_directories(options_.keepDir);
  std::error_code ec;
  llvm::raw_fd_ostream os(options_.keepDir + "/seed-" + std::to_string(seed) + ".py", ec);
  if (!ec)
    os << text;
}

/// The pass's output printed and parsed again is the same module (the
/// printer and parser agree on lowered IR too).
void Runner::checkRoundTrip(uint64_t seed, const std::string &text, const std::string &pipeline,
                            const IRModule &module) {
  std::string printed = printModule(module);
  auto again = parseText(printed, "printed.py");
  if (!again)
    return fail(seed, text,
                "-p " + pipeline +
                    ": the printed output does not parse: " + llvm::toString(again.takeError()));
  if (again->modules.size() != 1 || !structuralEqual(module, *again->modules.front()))
    return fail(seed, text, "-p " + pipeline + ": the printed output parses to another module");
  ++report.roundTrips;
}

void Runner::runPipeline(uint64_t seed, const std::string &text, const std::string &pipeline) {
  std::string error;
  std::unique_ptr<ParsedFile> file = parseProgram(text, seed, error);
  if (!file)
    return fail(seed, text, error);
  auto parsed = parsePipeline(pipeline);
  if (!parsed)
    return fail(seed, text, pipeline + ": " + llvm::toString(parsed.takeError()));
  PassContext ctx;
  if (llvm::Error err = configurePassContext(ctx, pipeline, {}))
    return fail(seed, text, pipeline + ": " + llvm::toString(std::move(err)));
  PassManagerOptions pmOptions;
  pmOptions.verifyEach = true;
  PassManager pm(pmOptions);
  llvm::Error err = pm.run(*file->modules.front(), *parsed, ctx);
  if (!err) {
    ++report.passRuns;
    checkRoundTrip(seed, text, pipeline, *file->modules.front());
    return;
  }
  std::string message;
  bool precondition = false;
  llvm::handleAllErrors(
      std::move(err),
      [&](const PassFailure &f) {
        precondition = f.exitCode == 2;
        message = f.message;
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  if (precondition) {
    ++report.preconditions;
    if (options_.verbose)
      log_ << "seed " << seed << ": -p " << pipeline << " refused: " << message << "\n";
  } else {
    fail(seed, text, "-p " + pipeline + ": " + message);
  }
}

void Runner::runBoth(uint64_t seed, const std::string &text) {
  TwoWayResult r = options_.device.empty() ? runTwoWays(text, seed, options_.maxUlps)
                                           : runOnTarget(text, seed, options_.device,
                                                         {options_.maxUlps, options_.epsTol});
  switch (r.outcome) {
  case TwoWayResult::Agree:
    ++report.compared;
    return;
  case TwoWayResult::BothFailed:
    ++report.bothFailed;
    if (options_.verbose)
      log_ << "seed " << seed << ": both fail: " << r.message << "\n";
    return;
  case TwoWayResult::Unsupported:
    if (options_.device.empty()) {
      ++report.unsupported;
      return;
    }
    ++report.skipped;
    ++report.skipReasons[skipReason(r.message)];
    if (options_.verbose)
      log_ << "seed " << seed << ": skipped: " << r.message << "\n";
    return;
  case TwoWayResult::Differ:
  case TwoWayResult::Invalid:
    return fail(seed, text, r.message);
  }
}

void Runner::runSeed(uint64_t seed) {
  ++report.programs;
  std::string text = generateProgram(seed, options_.generator);
  std::string error;
  std::unique_ptr<ParsedFile> file = parseProgram(text, seed, error);
  if (!file)
    return fail(seed, text, error);
  std::vector<Violation> violations = verifyModule(*file->modules.front());
  if (!violations.empty())
    return fail(seed, text, "generated program is ill-formed: " + violations.front().message);
  if (options_.passes && options_.device.empty()) {
    for (const PassInfo *p : allPasses())
      if (!p->testOnly)
        runPipeline(seed, text, p->name);
    for (const PipelineInfo *p : allPipelines())
      runPipeline(seed, text, p->name);
    // Lowering passes mostly see lowered IR: each pass again after the
    // kernel lowering of build-cpu.
    if (options_.lowered)
      for (const PassInfo *p : allPasses())
        if (!p->testOnly)
          runPipeline(seed, text, "fuse-elementwise,legalize-ops," + p->name);
  }
  if (options_.run)
    runBoth(seed, text);
}

} // namespace

DifferentialReport graft::testing::runDifferential(const DifferentialOptions &options,
                                                   llvm::raw_ostream &log) {
  Runner runner(options, log);
  for (uint64_t i = 0; i < options.count; ++i)
    runner.runSeed(options.firstSeed + i);
  return std::move(runner.report);
}
