//===- fuzz/vm_run.cpp - libFuzzer target for running executables ---------===//
//
// What `graft run` does with an executable it did not build: load it, make
// a VM, check the inputs against the parameter table and run the function.
// An input is a little-endian u32 length L, L bytes of executable and input
// data (the rest). An executable that loads (checksum check off, as in
// exe_loader, so mutations reach the bytecode) gets a VM; each of its first
// VM functions is invoked on arguments drawn from the input data: shaped by
// the function's parameter table (symbolic dims 0-4, a rank of at most 4
// where any rank is allowed), now and then of the wrong kind, dtype or
// shape so that the input checks run too, filled from the data.
//
// Every run is under the VM's limits for untrusted executables
// (VMOptions::maxInstructions, maxMemoryBytes, docs/runtime.md), so a valid
// program that loops or asks for a terabyte is an error like any other. A
// crash, a leak, a hang, an empty error message (__builtin_trap) or a
// sanitizer report is a finding.
//
// Seeds: `graft-fuzz-vm_run -write_seeds=DIR [-seed_sources=P,...]` writes
// every executable of fuzz/SeedExecutables.h with three sets of input data.
//
//===----------------------------------------------------------------------===//

#include "SeedExecutables.h"

#include "vm/VM.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"

using namespace graft::vm;

namespace {

/// Bounds of one run.
constexpr uint64_t kMaxInstructions = 20000;
constexpr uint64_t kMaxMemoryBytes = 8 << 20;
constexpr size_t kMaxFunctions = 4;
constexpr int64_t kMaxElements = 1 << 12; ///< Per tensor argument.

/// The input data, read cyclically (zeros when there is none).
class Data {
public:
  explicit Data(llvm::StringRef bytes) : bytes_(bytes) {}
  uint8_t byte() {
    if (bytes_.empty())
      return 0;
    uint8_t b = static_cast<uint8_t>(bytes_[pos_++ % bytes_.size()]);
    return b;
  }
  uint64_t word() {
    uint64_t w = 0;
    for (int i = 0; i < 8; ++i)
      w = (w << 8) | byte();
    return w;
  }
  /// 1 in `n` (n a power of two) by the next byte; never on zero bytes
  /// (no data), so a seed without data gets well-formed arguments.
  bool oneIn(unsigned n) { return (byte() & (n - 1)) == n - 1; }

private:
  llvm::StringRef bytes_;
  size_t pos_ = 0;
};

const DLDataType kDTypes[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1},
                              {kDLFloat, 16, 1}, {kDLBfloat, 16, 1},
                              {kDLInt, 64, 1},   {kDLInt, 32, 1},
                              {kDLInt, 16, 1},   {kDLInt, 8, 1},
                              {kDLUInt, 8, 1},   {graft::kernels::kGraftDLBool, 8, 1}};

DLDataType anyDType(Data &d) { return kDTypes[d.byte() % std::size(kDTypes)]; }

/// The dims of a tensor or shape parameter; symbolic dims take one size per
/// name for the whole call.
std::vector<int64_t> dimsFor(const ParamInfo &p, Data &d, llvm::StringMap<int64_t> &symbols) {
  std::vector<int64_t> dims;
  int64_t rank = p.ndim >= 0 ? p.ndim : d.byte() % 5;
  for (int64_t i = 0; i < rank; ++i) {
    const DimInfo *info = i < static_cast<int64_t>(p.dims.size()) ? &p.dims[i] : nullptr;
    if (info && info->kind == DimInfo::Static)
      dims.push_back(info->value);
    else if (info && info->kind == DimInfo::Symbolic)
      dims.push_back(symbols.try_emplace(info->symbol, d.byte() % 5).first->second);
    else
      dims.push_back(d.byte() % 5);
  }
  if (d.oneIn(32) && !dims.empty()) // a wrong dim now and then
    dims[d.byte() % dims.size()] += 1;
  return dims;
}

/// A host tensor filled from the data, or None when its size is out of bounds.
Value tensorFor(const ParamInfo &p, Data &d, llvm::StringMap<int64_t> &symbols) {
  std::vector<int64_t> shape = dimsFor(p, d, symbols);
  int64_t n = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || dim > kMaxElements || (n *= dim) > kMaxElements)
      return Value::none();
  }
  DLDataType dtype = p.dtype && !d.oneIn(32) ? *p.dtype : anyDType(d);
  // A parameter table may ask for any dtype (float32x31233); its elements
  // are still bounded.
  if (dtype.lanes != 1 || dtype.bits == 0 || dtype.bits > 64 || dtype.bits % 8)
    dtype = anyDType(d);
  auto t = TensorObj::emptyHost(shape, dtype);
  if (!t) {
    llvm::consumeError(t.takeError());
    return Value::none();
  }
  char *bytes = (*t)->bytes();
  for (size_t i = 0; i < (*t)->byteSize(); ++i)
    bytes[i] = static_cast<char>(d.byte());
  if (dtype.code == graft::kernels::kGraftDLBool)
    for (size_t i = 0; i < (*t)->byteSize(); ++i)
      bytes[i] &= 1; // a bool byte is 0 or 1
  return Value::object(*t);
}

Value argumentFor(const ParamInfo &p, Data &d, llvm::StringMap<int64_t> &symbols) {
  ParamKind kind = d.oneIn(64) ? static_cast<ParamKind>(d.byte() % kNumParamKinds) : p.kind;
  switch (kind) {
  case ParamKind::Any:
  case ParamKind::Tensor:
    return tensorFor(p, d, symbols);
  case ParamKind::Shape:
    return Value::shape(dimsFor(p, d, symbols));
  case ParamKind::Int:
    return Value::integer(static_cast<int64_t>(d.word()) >> (d.byte() % 64));
  case ParamKind::Float: {
    uint64_t bits = d.word();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return Value::real(v);
  }
  case ParamKind::Bool:
    return Value::boolean(d.byte() & 1);
  case ParamKind::String:
    return Value::string(std::string(d.byte() % 8, 'a'));
  case ParamKind::Tuple:
    return Value::tuple({Value::integer(d.byte()), tensorFor(p, d, symbols)});
  case ParamKind::Closure:
    return Value::none();
  }
  return Value::none();
}

/// The arguments of `fn`: one per parameter (a wrong count now and then).
std::vector<Value> argumentsFor(const FuncInfo &fn, Data &d) {
  llvm::StringMap<int64_t> symbols;
  std::vector<Value> args;
  int64_t n = fn.numArgs < 0 ? 0 : std::min<int64_t>(fn.numArgs, 64);
  if (d.oneIn(64))
    n = d.byte() % 4;
  for (int64_t i = 0; i < n; ++i) {
    ParamInfo any;
    const ParamInfo &p = i < static_cast<int64_t>(fn.params.size()) ? fn.params[i] : any;
    args.push_back(argumentFor(p, d, symbols));
  }
  return args;
}

/// GRAFT_FUZZ_VERBOSE=1 prints what each call gave (to see what a corpus
/// reaches: `graft-fuzz-vm_run CORPUS -runs=0`).
const bool kVerbose = std::getenv("GRAFT_FUZZ_VERBOSE") != nullptr;

void trapOnEmpty(llvm::Error err) {
  if (!err)
    return;
  std::string message = llvm::toString(std::move(err));
  if (message.empty())
    __builtin_trap(); // every failure must say why
  if (kVerbose)
    llvm::errs() << "error: " << message.substr(0, 300) << "\n";
}

/// `exe` with three sets of input data behind it, as this target reads them.
void writeSeed(const std::string &dir, const std::string &exe, int &n) {
  static const char *const data[] = {"", "\x01\x02\x03\x04\x05\x06\x07\x08",
                                     "\x02\x00\x7f\xff\x10\x20\x30\x40\x50\x60\x70\x80"};
  for (const char *tail : data) {
    std::string seed(4, '\0');
    llvm::support::endian::write32le(&seed[0], static_cast<uint32_t>(exe.size()));
    seed += exe;
    seed += tail;
    graft::fuzz::writeFile(dir + "/seed-" + std::to_string(n++), seed);
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  graft::fuzz::SeedArgs args = graft::fuzz::seedArgs(*argc, *argv);
  if (args.dir.empty())
    return 0;
  llvm::sys::fs::create_directories(args.dir);
  size_t built = 0;
  int n = 0;
  for (const std::string &bytes : graft::fuzz::seedExecutables(args.sources, &built))
    writeSeed(args.dir, bytes, n);
  llvm::outs() << "wrote " << n << " seeds (" << built << " executables built from sources) to "
               << args.dir << '\n';
  std::exit(0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  llvm::StringRef all(reinterpret_cast<const char *>(data), size);
  uint32_t len = llvm::support::endian::read32le(data);
  llvm::StringRef exeBytes = all.drop_front(4).take_front(len);
  Data input(all.drop_front(4 + exeBytes.size()));
  LoadOptions noChecksum;
  noChecksum.verifyChecksum = false;
  auto exe = loadFromBytes(exeBytes, noChecksum);
  if (!exe) {
    trapOnEmpty(exe.takeError());
    return 0;
  }
  std::shared_ptr<const Executable> shared(std::move(*exe));
  VMOptions options;
  options.maxInstructions = kMaxInstructions;
  options.maxMemoryBytes = kMaxMemoryBytes;
  auto vm = VirtualMachine::create(shared, options);
  if (!vm) {
    trapOnEmpty(vm.takeError());
    return 0;
  }
  size_t ran = 0;
  for (size_t i = 0; i < shared->functions.size() && ran < kMaxFunctions; ++i) {
    const FuncInfo &fn = shared->functions[i];
    if (fn.kind != FuncKind::VM)
      continue;
    ++ran;
    std::vector<Value> args = argumentsFor(fn, input);
    auto out = (*vm)->invoke(static_cast<int64_t>(i), args);
    if (!out) {
      trapOnEmpty(out.takeError());
      continue;
    }
    std::string printed = out->str(); // results print, as `graft run` prints them
    if (kVerbose)
      llvm::errs() << "ran " << fn.name << ": " << printed.substr(0, 100) << "\n";
  }
  return 0;
}
