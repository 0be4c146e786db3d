//===- vm/Executable.cpp - Verification and text dump ---------------------===//

#include "vm/Executable.h"

#include "vm/FusedKernels.h"
#include "vm/ScalarProgram.h"

#include "kernels/FusedKernel.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace graft::vm;

llvm::StringRef graft::vm::paramKindName(ParamKind kind) {
  static const char *names[] = {"any",  "tensor", "shape", "int",    "float",
                                "bool", "string", "tuple", "closure"};
  unsigned k = static_cast<unsigned>(kind);
  return k < kNumParamKinds ? names[k] : "invalid";
}

ParamInfo ParamInfo::tensor(std::string name, DLDataType dtype, std::vector<DimInfo> dims,
                            DLDevice device) {
  ParamInfo p;
  p.name = std::move(name);
  p.kind = ParamKind::Tensor;
  p.dtype = dtype;
  p.device = device;
  p.ndim = static_cast<int32_t>(dims.size());
  p.dims = std::move(dims);
  return p;
}

llvm::StringRef graft::vm::targetName(Target t) { return t == Target::CUDA ? "cuda" : "cpu"; }

int64_t Executable::findFunction(llvm::StringRef name) const {
  auto it = funcMap_.find(name);
  return it == funcMap_.end() ? -1 : it->second;
}

void Executable::indexLastFunction() {
  int64_t idx = static_cast<int64_t>(functions.size()) - 1;
  funcMap_.try_emplace(functions[idx].name, idx);
}

void Executable::reindex() {
  funcMap_.clear();
  for (size_t i = 0; i < functions.size(); ++i)
    funcMap_.try_emplace(functions[i].name, static_cast<int64_t>(i));
}

template <typename... Ts> static llvm::Error fail(const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

llvm::Error Executable::decodeOffsets() {
  instrOffset.clear();
  int64_t size = static_cast<int64_t>(instrData.size());
  for (int64_t pos = 0; pos < size;) {
    int64_t header = instrHeaderWords(instrData[pos]);
    if (header == 0)
      return fail("bytecode word {0}: unknown opcode {1}", pos, instrData[pos]);
    if (header > size - pos)
      return fail("bytecode word {0}: instruction is cut off", pos);
    int64_t len = header;
    if (static_cast<Opcode>(instrData[pos]) == Opcode::Call) {
      int64_t n = instrData[pos + 3];
      if (n < 0 || n > size - pos - header)
        return fail("bytecode word {0}: call has {1} arguments but only {2} "
                    "words remain",
                    pos, n, size - pos - header);
      len += n;
    }
    instrOffset.push_back(pos);
    pos += len;
  }
  return llvm::Error::success();
}

// Verification ---------------------------------------------------------------

namespace {

/// Checks one VM function's instructions.
class FunctionVerifier {
public:
  FunctionVerifier(const Executable &exe, const FuncInfo &fn)
      : exe_(exe), fn_(fn), written_(static_cast<unsigned>(fn.registerFileSize)) {}

  llvm::Error run() {
    for (int64_t pc = fn_.startInstr; pc < fn_.endInstr; ++pc)
      if (auto err = checkInstr(pc))
        return err;
    return llvm::Error::success();
  }

private:
  llvm::Error error(int64_t pc, const llvm::Twine &msg) const {
    return fail("function '{0}' instruction {1}: {2}", fn_.name, pc, msg.str());
  }

  bool inRange(int64_t reg) const {
    return (reg >= 0 && reg < fn_.registerFileSize) || isSpecialRegister(reg);
  }

  llvm::Error checkRead(int64_t pc, int64_t reg, llvm::StringRef what) {
    if (!inRange(reg))
      return error(pc, llvm::formatv("{0} register {1} is out of range "
                                     "(register file of {2})",
                                     what, reg, fn_.registerFileSize));
    if (reg < fn_.numArgs || isSpecialRegister(reg) || written_.test(static_cast<unsigned>(reg)))
      return llvm::Error::success();
    return error(pc, llvm::formatv("register %{0} is read before it is "
                                   "written",
                                   reg));
  }

  llvm::Error checkTarget(int64_t pc, int64_t target) const {
    if (target < fn_.startInstr || target >= fn_.endInstr)
      return error(pc, llvm::formatv("jump target {0} is outside the "
                                     "function [{1}, {2})",
                                     target, fn_.startInstr, fn_.endInstr));
    return llvm::Error::success();
  }

  llvm::Error checkArg(int64_t pc, Arg a) {
    int64_t v = a.value();
    switch (a.rawKind()) {
    case static_cast<unsigned>(ArgKind::Register):
      return checkRead(pc, v, "argument");
    case static_cast<unsigned>(ArgKind::Immediate):
      return llvm::Error::success();
    case static_cast<unsigned>(ArgKind::ConstIdx):
      if (v < 0 || v >= static_cast<int64_t>(exe_.constants.size()))
        return error(pc, llvm::formatv("constant index {0} is out of range "
                                       "({1} constants)",
                                       v, exe_.constants.size()));
      return llvm::Error::success();
    case static_cast<unsigned>(ArgKind::FuncIdx):
      if (v < 0 || v >= static_cast<int64_t>(exe_.functions.size()))
        return error(pc, llvm::formatv("function index {0} is out of range "
                                       "({1} functions)",
                                       v, exe_.functions.size()));
      return llvm::Error::success();
    default:
      return error(pc, llvm::formatv("unknown argument kind {0}", a.rawKind()));
    }
  }

  llvm::Error checkCall(int64_t pc, InstrView in) {
    if (in.funcIdx() < 0 || in.funcIdx() >= static_cast<int64_t>(exe_.functions.size()))
      return error(pc, llvm::formatv("callee index {0} is out of range ({1} "
                                     "functions)",
                                     in.funcIdx(), exe_.functions.size()));
    for (int64_t i = 0; i < in.numArgs(); ++i)
      if (auto err = checkArg(pc, in.arg(i)))
        return err;
    if (!inRange(in.dst()))
      return error(pc, llvm::formatv("destination register {0} is out of "
                                     "range (register file of {1})",
                                     in.dst(), fn_.registerFileSize));
    if (!isSpecialRegister(in.dst()))
      written_.set(static_cast<unsigned>(in.dst()));
    return checkTarget(pc, pc + 1);
  }

  llvm::Error checkInstr(int64_t pc) {
    InstrView in = exe_.instr(pc);
    switch (in.op) {
    case Opcode::Call:
      return checkCall(pc, in);
    case Opcode::Ret:
      return checkRead(pc, in.result(), "result");
    case Opcode::Goto:
      if (in.pcOffset() == 0)
        return error(pc, "goto offset is 0");
      return checkTarget(pc, pc + in.pcOffset());
    case Opcode::If:
      if (auto err = checkRead(pc, in.cond(), "condition"))
        return err;
      if (in.falseOffset() <= 1)
        return error(pc, llvm::formatv("if false offset {0} must be > 1", in.falseOffset()));
      if (auto err = checkTarget(pc, pc + 1))
        return err;
      return checkTarget(pc, pc + in.falseOffset());
    }
    return error(pc, "unknown opcode");
  }

  const Executable &exe_;
  const FuncInfo &fn_;
  llvm::BitVector written_;
};

} // namespace

static llvm::Error verifyParams(const FuncInfo &fn) {
  if (fn.params.empty())
    return llvm::Error::success();
  if (static_cast<int64_t>(fn.params.size()) != fn.numArgs)
    return fail("function '{0}': parameter table has {1} entries for {2} "
                "parameters",
                fn.name, fn.params.size(), fn.numArgs);
  for (const ParamInfo &p : fn.params) {
    if (static_cast<unsigned>(p.kind) >= kNumParamKinds)
      return fail("function '{0}' parameter '{1}': unknown kind {2}", fn.name, p.name,
                  static_cast<unsigned>(p.kind));
    if (p.ndim > kMaxTensorNDim)
      return fail("function '{0}' parameter '{1}': ndim {2} is more than {3}", fn.name, p.name,
                  p.ndim, kMaxTensorNDim);
    if (p.ndim < -1 || (!p.dims.empty() && p.ndim != static_cast<int32_t>(p.dims.size())))
      return fail("function '{0}' parameter '{1}': ndim {2} does not match "
                  "{3} dims",
                  fn.name, p.name, p.ndim, p.dims.size());
    for (const DimInfo &d : p.dims)
      if (d.kind > DimInfo::Any || (d.kind == DimInfo::Symbolic && d.symbol.empty()))
        return fail("function '{0}' parameter '{1}': malformed dim", fn.name, p.name);
  }
  return llvm::Error::success();
}

static llvm::Error verifyFunction(const Executable &exe, const FuncInfo &fn) {
  if (fn.kind == FuncKind::Packed) {
    if (!fn.params.empty())
      return fail("packed function '{0}' has a parameter table", fn.name);
    return llvm::Error::success();
  }
  if (fn.kind != FuncKind::VM)
    return fail("function '{0}': unknown kind {1}", fn.name, static_cast<unsigned>(fn.kind));
  int64_t n = exe.numInstructions();
  if (fn.startInstr < 0 || fn.startInstr >= fn.endInstr || fn.endInstr > n)
    return fail("function '{0}': instruction range [{1}, {2}) is invalid "
                "({3} instructions)",
                fn.name, fn.startInstr, fn.endInstr, n);
  if (fn.numArgs < 0 || static_cast<int64_t>(fn.paramNames.size()) != fn.numArgs)
    return fail("function '{0}': {1} parameters but {2} parameter names", fn.name, fn.numArgs,
                fn.paramNames.size());
  // Every register beyond the inputs is the dst of some instruction, which
  // bounds the frame a hostile file can make the VM allocate.
  if (fn.registerFileSize < fn.numArgs ||
      fn.registerFileSize > fn.numArgs + (fn.endInstr - fn.startInstr))
    return fail("function '{0}': register file size {1} is out of range", fn.name,
                fn.registerFileSize);
  if (auto err = verifyParams(fn))
    return err;
  return FunctionVerifier(exe, fn).run();
}

/// Kernel sources the VM runs itself (fused kernels, scalar programs) must
/// parse, so a damaged one is refused on load rather than when the VM is
/// created or the kernel called; other sources (CUDA C) are opaque here.
static llvm::Error verifyKernelSources(const Executable &exe) {
  llvm::StringSet<> names;
  for (const KernelSource &k : exe.kernelSources) {
    if (k.name.empty())
      return fail("a kernel source has an empty name");
    if (!names.insert(k.name).second)
      return fail("kernel source '{0}' appears twice", k.name);
    if (isFusedKernelSource(k)) {
      auto program = graft::kernels::parseFusedProgram(k.text);
      if (!program)
        return fail("kernel source '{0}': {1}", k.name, llvm::toString(program.takeError()));
    } else if (isScalarProgram(k.text)) {
      auto program = ScalarProgram::parse(k.name, k.text);
      if (!program)
        return fail("kernel source '{0}': {1}", k.name, llvm::toString(program.takeError()));
    } else if (llvm::StringRef(k.name).startswith(kFusedSymbolPrefix)) {
      return fail("kernel source '{0}' is not a fused kernel program", k.name);
    }
  }
  return llvm::Error::success();
}

llvm::Error Executable::verify() const {
  if (auto err = verifyKernelSources(*this))
    return err;
  llvm::StringSet<> names;
  for (const FuncInfo &fn : functions) {
    if (fn.name.empty())
      return fail("a function has an empty name");
    if (!names.insert(fn.name).second)
      return fail("function '{0}' appears twice in the function table", fn.name);
    if (auto err = verifyFunction(*this, fn))
      return err;
  }
  return llvm::Error::success();
}

// Text dump -------------------------------------------------------------------

static void printReg(llvm::raw_ostream &os, int64_t reg) {
  if (reg == kVoidRegister)
    os << "%void";
  else if (reg == kVMRegister)
    os << "%vm";
  else
    os << '%' << reg;
}

static void printArg(llvm::raw_ostream &os, const Executable &exe, Arg a) {
  switch (a.kind()) {
  case ArgKind::Register:
    printReg(os, a.value());
    return;
  case ArgKind::Immediate:
    os << 'i' << a.value();
    return;
  case ArgKind::ConstIdx:
    os << "c[" << a.value() << ']';
    return;
  case ArgKind::FuncIdx:
    os << "f[";
    if (a.value() >= 0 && a.value() < static_cast<int64_t>(exe.functions.size()))
      os << exe.functions[a.value()].name;
    else
      os << '#' << a.value();
    os << ']';
    return;
  }
  os << "?" << a.word();
}

static void printInstr(llvm::raw_ostream &os, const Executable &exe, int64_t pc) {
  InstrView in = exe.instr(pc);
  os << llvm::formatv("  {0,4}: ", pc);
  switch (in.op) {
  case Opcode::Call: {
    int64_t f = in.funcIdx();
    os << "call "
       << (f >= 0 && f < static_cast<int64_t>(exe.functions.size())
               ? llvm::StringRef(exe.functions[f].name)
               : llvm::StringRef("<bad callee>"))
       << " in: ";
    for (int64_t i = 0; i < in.numArgs(); ++i) {
      if (i)
        os << ", ";
      printArg(os, exe, in.arg(i));
    }
    os << " dst: ";
    printReg(os, in.dst());
    break;
  }
  case Opcode::Ret:
    os << "ret ";
    printReg(os, in.result());
    break;
  case Opcode::Goto:
    os << "goto " << in.pcOffset();
    break;
  case Opcode::If:
    os << "if ";
    printReg(os, in.cond());
    os << ", " << in.falseOffset();
    break;
  }
  os << '\n';
}

static void printDims(llvm::raw_ostream &os, const ParamInfo &p) {
  if (p.ndim < 0) {
    os << " [...]";
    return;
  }
  os << " [";
  for (int32_t i = 0; i < p.ndim; ++i) {
    if (i)
      os << ", ";
    if (p.dims.empty() || p.dims[i].kind == DimInfo::Any)
      os << '?';
    else if (p.dims[i].kind == DimInfo::Static)
      os << p.dims[i].value;
    else
      os << p.dims[i].symbol;
  }
  os << ']';
}

static void printParam(llvm::raw_ostream &os, const ParamInfo &p) {
  os << "    param " << p.name << ": " << paramKindName(p.kind);
  if (p.dtype)
    os << ' ' << dtypeStr(*p.dtype);
  if (p.kind == ParamKind::Tensor || p.kind == ParamKind::Shape)
    printDims(os, p);
  if (p.device)
    os << ' ' << deviceStr(*p.device);
  os << '\n';
}

static void printFunction(llvm::raw_ostream &os, const Executable &exe, size_t idx) {
  const FuncInfo &fn = exe.functions[idx];
  if (fn.kind != FuncKind::VM) {
    os << "function @" << idx << ' ' << fn.name << " (packed)\n";
    return;
  }
  os << "function @" << idx << ' ' << fn.name << '(';
  llvm::interleaveComma(fn.paramNames, os);
  os << ") registers=" << fn.registerFileSize << " instructions=[" << fn.startInstr << ", "
     << fn.endInstr << ")\n";
  for (const ParamInfo &p : fn.params)
    printParam(os, p);
  for (int64_t pc = fn.startInstr; pc < fn.endInstr; ++pc)
    printInstr(os, exe, pc);
}

void Executable::dump(llvm::raw_ostream &os) const {
  os << "; graft VM executable: " << functions.size() << " functions, " << constants.size()
     << " constants, " << numInstructions() << " instructions, " << kernelSources.size()
     << " kernel sources\n";
  if (target != Target::CPU)
    os << "; target: " << targetName(target) << "\n";
  for (size_t i = 0; i < functions.size(); ++i)
    printFunction(os, *this, i);
  if (!constants.empty())
    os << "constants:\n";
  for (size_t i = 0; i < constants.size(); ++i)
    os << "  c[" << i << "] = " << constants[i] << '\n';
  for (const KernelSource &k : kernelSources) {
    os << "kernel source " << k.name << " (" << k.text.size() << " bytes):\n";
    os << k.text;
    if (!k.text.empty() && k.text.back() != '\n')
      os << '\n';
  }
}

std::string Executable::asText() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  dump(os);
  return os.str();
}
