//===- vm/VM.cpp - The bytecode interpreter --------------------------------===//
//
// The interpreter runs on these invariants; the loop checks none of them.
//
// Load-time validation. The VM is only given executables that passed
// Executable::verify() (ExecBuilder::finish and the loader run it), so in a
// VM function's instructions: every register operand is below the
// function's registerFileSize or is %void / %vm; every constant and function
// index is in range and every argument kind is known; every jump target lies
// inside [startInstr, endInstr); and no path runs past endInstr. The loop
// therefore indexes registers, constants, callees and instructions without
// bounds checks. Instructions are read only through InstrView's named
// accessors (vm/Executable.h), never by word position.
//
// Frames. Each bytecode call pushes a Frame: a register file of exactly
// registerFileSize Values (parameters in registers 0..numArgs-1, the rest
// None) and an argument buffer for Call. Frames live in frames_ and are
// recycled by depth, so a warm VM allocates nothing per call or per
// instruction. A register is only ever read in its own frame; values cross
// frames only as call arguments and results.
//
// Ownership. Registers own their values (a Value copy is one refcount). The
// argument buffer holds copies only for the duration of one call and
// is cleared right after it, so that a kill (writing None into a register)
// drops the last reference to a tensor or storage. Returning pops the frame,
// clearing its registers. Constants and the f[i] closures are owned by the
// VM and handed out by reference; an immediate argument is materialised in
// a per-call scratch Value. Writes to %void are dropped; reads of %void give
// None and reads of %vm give the VM handle.
//
// Errors. Nothing in the loop aborts: a failing callee or a condition that
// is neither int nor bool returns an llvm::Error to which every VM frame on
// the way out adds its function name and instruction index (VMError).
//
//===----------------------------------------------------------------------===//

#include "vm/VM.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft::vm;

template <typename... Ts> static llvm::Error vmError(const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

/// Registers and the argument buffer of one active call. Both keep their
/// capacity when the frame is recycled.
struct VirtualMachine::Frame {
  llvm::SmallVector<Value, 16> regs;
  llvm::SmallVector<Value, 8> args;
};

static const char kVMTypeKey[] = "graft.vm";

VirtualMachine::~VirtualMachine() = default;

llvm::Expected<std::unique_ptr<VirtualMachine>>
VirtualMachine::create(std::shared_ptr<const Executable> exe, VMOptions options) {
  std::unique_ptr<VirtualMachine> vm(new VirtualMachine());
  if (auto err = vm->init(std::move(exe), std::move(options)))
    return err;
  return vm;
}

/// Copies a tensor constant to `alloc`'s device when it is not there.
static llvm::Expected<Value> placeConstant(const Value &c,
                                           const std::shared_ptr<CachingAllocator> &alloc) {
  auto *t = c.as<TensorObj>();
  if (!t || t->device().device_type == alloc->dlDevice().device_type)
    return c;
  auto dst = TensorObj::empty(alloc, t->shape(), t->dtype());
  if (!dst)
    return dst.takeError();
  if (auto err = alloc->device().copy((*dst)->bytes(), alloc->dlDevice(), t->bytes(), t->device(),
                                      t->byteSize()))
    return err;
  return Value::object(*dst);
}

llvm::Error VirtualMachine::init(std::shared_ptr<const Executable> exe, VMOptions options) {
  exe_ = std::move(exe);
  maxDepth_ = options.maxCallDepth;
  if (options.maxInstructions)
    maxInstructions_ = options.maxInstructions;
  infoLog_ = std::move(options.infoLog);
  devices_ = std::move(options.devices);
  if (devices_.empty() || !llvm::isa<CPUDevice>(*devices_.back()))
    devices_.push_back(cpuDevice());
  for (auto &dev : devices_) {
    allocators_.push_back(std::make_shared<CachingAllocator>(dev));
    allocators_.back()->setLimit(options.maxMemoryBytes);
  }
  handle_ = Value::object(makeRef<OpaqueObj>(this, kVMTypeKey, nullptr));

  // Fused kernels are parsed up front: a damaged program is a load error.
  if (llvm::Error err = fused_.load(*exe_, devices_.front().get()))
    return err;
  DLDeviceType mainType = devices_.front()->dlDevice().device_type;
  int64_t n = static_cast<int64_t>(exe_->functions.size());
  callees_.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    const FuncInfo &fn = exe_->functions[i];
    funcValues_.push_back(Value::object(makeRef<ClosureObj>(i, llvm::None)));
    if (fn.kind != FuncKind::Packed)
      continue;
    auto packed = resolveCallee(fn, mainType);
    if (!packed)
      return packed.takeError();
    callees_[i].packed = options.profile ? profiledFunc(fn.name, *packed) : *packed;
  }
  if (options.profile)
    calibrateProfiler();
  for (const Value &c : exe_->constants) {
    auto placed = placeConstant(c, allocators_.front());
    if (!placed)
      return placed.takeError();
    constants_.push_back(std::move(*placed));
  }
  return llvm::Error::success();
}

/// A packed function of the executable: a fused kernel or a scalar program
/// among its kernel sources, else the registry or a kernel.
llvm::Expected<PackedFunc> VirtualMachine::resolveCallee(const FuncInfo &fn, DLDeviceType device) {
  if (PackedFunc fused = fused_.lookup(fn.name))
    return fused;
  for (const KernelSource &src : exe_->kernelSources) {
    if (src.name != fn.name || !isScalarProgram(src.text))
      continue;
    auto program = ScalarProgram::parse(src.name, src.text);
    if (!program)
      return program.takeError();
    programs_.push_back(std::move(*program));
    return ScalarProgram::packed(programs_.back().get());
  }
  return resolvePackedFunc(fn.name, device);
}

VirtualMachine *VirtualMachine::fromHandle(const Value &v) {
  auto *o = v.as<OpaqueObj>();
  if (!o || o->typeKey != kVMTypeKey)
    return nullptr;
  return static_cast<VirtualMachine *>(o->ptr);
}

llvm::Expected<size_t> VirtualMachine::deviceIndex(int64_t index) const {
  if (index == -1)
    return allocators_.size() - 1;
  if (index < 0 || index >= static_cast<int64_t>(allocators_.size()))
    return vmError("device index {0} is out of range ({1} devices)", index, allocators_.size());
  return static_cast<size_t>(index);
}

llvm::Expected<size_t> VirtualMachine::findDevice(DLDevice dev) const {
  for (size_t i = 0; i < devices_.size(); ++i) {
    DLDevice d = devices_[i]->dlDevice();
    if (d.device_type == dev.device_type && d.device_id == dev.device_id)
      return i;
  }
  return vmError("device {0} is not one of this VM's devices", deviceStr(dev));
}

void VirtualMachine::logInfo(const std::string &message) const {
  if (infoLog_)
    return infoLog_(message);
  llvm::errs() << "info: " << message << '\n';
}

bool VirtualMachine::captureOpen() const {
  for (const auto &a : allocators_)
    if (a->captureOpen())
      return true;
  return false;
}

// Calls ----------------------------------------------------------------------

llvm::Expected<Value> VirtualMachine::invoke(llvm::StringRef function, llvm::ArrayRef<Value> args) {
  int64_t idx = exe_->findFunction(function);
  if (idx < 0)
    return vmError("no function named '{0}' in the executable", function);
  return invoke(idx, args);
}

llvm::Expected<Value> VirtualMachine::invoke(int64_t funcIdx, llvm::ArrayRef<Value> args) {
  if (funcIdx < 0 || funcIdx >= static_cast<int64_t>(callees_.size()))
    return vmError("function index {0} is out of range", funcIdx);
  if (auto err = checkInputs(exe_->functions[funcIdx], args))
    return err;
  return callFunction(funcIdx, args);
}

llvm::Expected<Value> VirtualMachine::callFunction(int64_t funcIdx, llvm::ArrayRef<Value> args) {
  const PackedFunc &packed = callees_[funcIdx].packed;
  if (packed)
    return packed(*this, args);
  return runBytecode(funcIdx, args);
}

llvm::Expected<Value> VirtualMachine::invokeClosure(const Value &closure,
                                                    llvm::ArrayRef<Value> args) {
  auto *clo = closure.as<ClosureObj>();
  if (!clo)
    return vmError("expected a closure to call but got {0}", closure.str());
  if (clo->funcIndex < 0 || clo->funcIndex >= static_cast<int64_t>(callees_.size()))
    return vmError("closure names function index {0}, which is out of range", clo->funcIndex);
  if (clo->captured.empty())
    return callFunction(clo->funcIndex, args);
  // Captured values are the trailing arguments (TVM's BindLastArgs).
  llvm::SmallVector<Value, 8> all(args.begin(), args.end());
  all.append(clo->captured.begin(), clo->captured.end());
  return callFunction(clo->funcIndex, all);
}

// Frames ---------------------------------------------------------------------

VirtualMachine::Frame &VirtualMachine::pushFrame(int64_t registers) {
  if (depth_ == frames_.size())
    frames_.push_back(std::make_unique<Frame>());
  Frame &f = *frames_[depth_++];
  f.regs.resize(static_cast<size_t>(registers));
  return f;
}

void VirtualMachine::popFrame() {
  Frame &f = *frames_[--depth_];
  // Dropping the registers releases what the function still held (kills).
  f.regs.clear();
  f.args.clear();
}

llvm::Expected<Value> VirtualMachine::runBytecode(int64_t funcIdx, llvm::ArrayRef<Value> args) {
  const FuncInfo &fn = exe_->functions[funcIdx];
  if (static_cast<int64_t>(args.size()) != fn.numArgs)
    return vmError("function '{0}' expects {1} arguments but got {2}", fn.name, fn.numArgs,
                   args.size());
  if (depth_ >= maxDepth_)
    return vmError("call depth limit {0} exceeded calling function '{1}'", maxDepth_, fn.name);
  if (depth_ == 0)
    instructionsLeft_ = maxInstructions_;
  Frame &frame = pushFrame(fn.registerFileSize);
  std::copy(args.begin(), args.end(), frame.regs.begin());
  auto result = runLoop(fn, frame);
  popFrame();
  return result;
}

static const Value kNone;

/// The value of register `reg` (special registers included).
static inline const Value &readReg(const Value *regs, int64_t reg, const Value &vmHandle) {
  if (reg < kBeginSpecialReg)
    return regs[reg];
  return reg == kVMRegister ? vmHandle : kNone;
}

const Value &VirtualMachine::loadArg(const Frame &frame, Arg a, Value &scratch) const {
  switch (a.kind()) {
  case ArgKind::Register:
    return readReg(frame.regs.data(), a.value(), handle_);
  case ArgKind::Immediate:
    scratch = Value::integer(a.value());
    return scratch;
  case ArgKind::ConstIdx:
    return constants_[a.value()];
  case ArgKind::FuncIdx:
    return funcValues_[a.value()];
  }
  return kNone;
}

char VMError::ID = 0;

void VMError::addFrame(Frame f) {
  // Deep recursion would otherwise make a message of every frame.
  if (frames_.size() < kMaxFrames)
    frames_.push_back(std::move(f));
  else
    ++omitted_;
}

void VMError::log(llvm::raw_ostream &os) const {
  if (omitted_)
    os << "(" << omitted_ << " outer frames omitted) ";
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
    os << "in function '" << it->function << "' at instruction " << it->instr << " (" << it->what
       << "): ";
  os << message_;
}

llvm::Error VirtualMachine::instrError(const FuncInfo &fn, int64_t pc, llvm::Error inner) const {
  InstrView in = exe_->instr(pc);
  VMError::Frame frame{fn.name, pc,
                       in.op == Opcode::Call ? "call " + exe_->functions[in.funcIdx()].name
                                             : std::string("if")};
  if (inner.isA<VMError>()) {
    return llvm::handleErrors(std::move(inner), [&](std::unique_ptr<VMError> e) -> llvm::Error {
      e->addFrame(std::move(frame));
      return llvm::Error(std::move(e));
    });
  }
  auto err = std::make_unique<VMError>(llvm::toString(std::move(inner)));
  err->addFrame(std::move(frame));
  return llvm::Error(std::move(err));
}

llvm::Error VirtualMachine::execCall(const FuncInfo &fn, Frame &frame, int64_t pc,
                                     const ExecWord *call) {
  InstrView in = InstrView::at(call);
  int64_t n = in.numArgs();
  auto &args = frame.args;
  Value scratch;
  for (int64_t i = 0; i < n; ++i)
    args.push_back(loadArg(frame, in.arg(i), scratch));
  auto result = callFunction(in.funcIdx(), args);
  // Arguments must not outlive the call: a kill relies on the register
  // holding the last reference.
  args.clear();
  if (!result)
    return instrError(fn, pc, result.takeError());
  int64_t dst = in.dst();
  if (dst < kBeginSpecialReg)
    frame.regs[dst] = std::move(*result);
  return llvm::Error::success();
}

/// If's condition: an int or a bool (codegen puts read_if_cond's result
/// there).
static llvm::Expected<bool> condition(const Value &v) {
  if (v.isBool())
    return v.getBool();
  if (v.isInt())
    return v.getInt() != 0;
  return vmError("if condition must be an int or bool but is {0}", v.str());
}

llvm::Expected<Value> VirtualMachine::runLoop(const FuncInfo &fn, Frame &frame) {
  // Hoisted out of the loop: a callee cannot change the executable, but the
  // compiler cannot know that across a call.
  const ExecWord *data = exe_->instrData.data();
  const int64_t *offsets = exe_->instrOffset.data();
  int64_t pc = fn.startInstr;
  for (;;) {
    if (LLVM_UNLIKELY(instructionsLeft_ == 0))
      return vmError("in function '{0}' at instruction {1}: the budget of {2} instructions per "
                     "call is spent (VMOptions::maxInstructions)",
                     fn.name, pc, maxInstructions_);
    --instructionsLeft_;
    InstrView in = InstrView::at(data + offsets[pc]);
    switch (in.op) {
    case Opcode::Call:
      // Only the words pointer crosses the call: passing the whole view costs
      // a register and measurably slows BM_NoOpCall.
      if (auto err = execCall(fn, frame, pc, in.words))
        return err;
      ++pc;
      break;
    case Opcode::Ret:
      return readReg(frame.regs.data(), in.result(), handle_);
    case Opcode::Goto:
      pc += in.pcOffset();
      break;
    case Opcode::If: {
      auto c = condition(readReg(frame.regs.data(), in.cond(), handle_));
      if (!c)
        return instrError(fn, pc, c.takeError());
      pc += *c ? 1 : in.falseOffset();
      break;
    }
    }
  }
}

// Input checks ----------------------------------------------------------------

namespace {

/// Binds symbolic dims to the first value seen, remembering where.
struct SymbolTable {
  struct Entry {
    llvm::StringRef symbol;
    int64_t value;
    llvm::StringRef param;
    size_t dim;
  };
  llvm::SmallVector<Entry, 8> entries;

  const Entry *find(llvm::StringRef s) const {
    for (const Entry &e : entries)
      if (e.symbol == s)
        return &e;
    return nullptr;
  }
};

bool kindMatches(ParamKind kind, const Value &v) {
  switch (kind) {
  case ParamKind::Any:
    return true;
  case ParamKind::Tensor:
    return v.kind() == ValueKind::Tensor;
  case ParamKind::Shape:
    return v.kind() == ValueKind::Shape;
  case ParamKind::Int:
    return v.isInt();
  case ParamKind::Float:
    return v.isFloat();
  case ParamKind::Bool:
    return v.isBool();
  case ParamKind::String:
    return v.kind() == ValueKind::String;
  case ParamKind::Tuple:
    return v.kind() == ValueKind::Tuple;
  case ParamKind::Closure:
    return v.kind() == ValueKind::Closure;
  }
  return false;
}

llvm::Error checkDims(const FuncInfo &fn, const ParamInfo &p, llvm::ArrayRef<int64_t> dims,
                      SymbolTable &symbols) {
  if (p.ndim >= 0 && static_cast<int64_t>(dims.size()) != p.ndim)
    return vmError("function '{0}' parameter '{1}': expected {2} dims but got "
                   "{3}",
                   fn.name, p.name, p.ndim, dims.size());
  for (size_t i = 0; i < p.dims.size() && i < dims.size(); ++i) {
    const DimInfo &d = p.dims[i];
    if (d.kind == DimInfo::Static && d.value != dims[i])
      return vmError("function '{0}' parameter '{1}' dim {2}: expected size "
                     "{3} but got {4}",
                     fn.name, p.name, i, d.value, dims[i]);
    if (d.kind != DimInfo::Symbolic)
      continue;
    const SymbolTable::Entry *e = symbols.find(d.symbol);
    if (!e) {
      symbols.entries.push_back({d.symbol, dims[i], p.name, i});
      continue;
    }
    if (e->value != dims[i])
      return vmError("function '{0}' parameter '{1}' dim {2}: symbolic dim "
                     "'{3}' is {4} here but {5} in parameter '{6}' dim {7}",
                     fn.name, p.name, i, d.symbol, dims[i], e->value, e->param, e->dim);
  }
  return llvm::Error::success();
}

llvm::Error checkTensor(const FuncInfo &fn, const ParamInfo &p, const TensorObj &t,
                        SymbolTable &symbols) {
  if (p.dtype && !dtypeEqual(*p.dtype, t.dtype()))
    return vmError("function '{0}' parameter '{1}': expected dtype {2} but "
                   "got {3}",
                   fn.name, p.name, dtypeStr(*p.dtype), dtypeStr(t.dtype()));
  if (p.device && (p.device->device_type != t.device().device_type ||
                   p.device->device_id != t.device().device_id))
    return vmError("function '{0}' parameter '{1}': expected device {2} but "
                   "got {3}",
                   fn.name, p.name, deviceStr(*p.device), deviceStr(t.device()));
  return checkDims(fn, p, t.shape(), symbols);
}

} // namespace

llvm::Error VirtualMachine::checkInputs(const FuncInfo &fn, llvm::ArrayRef<Value> args) const {
  if (fn.kind == FuncKind::VM && static_cast<int64_t>(args.size()) != fn.numArgs)
    return vmError("function '{0}' expects {1} arguments but got {2}", fn.name, fn.numArgs,
                   args.size());
  SymbolTable symbols;
  for (size_t i = 0; i < fn.params.size() && i < args.size(); ++i) {
    const ParamInfo &p = fn.params[i];
    const Value &v = args[i];
    if (!kindMatches(p.kind, v))
      return vmError("function '{0}' parameter '{1}': expected {2} but got "
                     "{3}",
                     fn.name, p.name, paramKindName(p.kind), v.str());
    if (auto *t = v.as<TensorObj>()) {
      if (auto err = checkTensor(fn, p, *t, symbols))
        return err;
    } else if (auto *s = v.as<ShapeObj>()) {
      if (auto err = checkDims(fn, p, s->dims, symbols))
        return err;
    }
  }
  return llvm::Error::success();
}
