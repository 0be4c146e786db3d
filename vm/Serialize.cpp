//===- vm/Serialize.cpp - Save and load executables -----------------------===//

#include "vm/Serialize.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace graft::vm;
namespace endian = llvm::support::endian;

/// Constant tags in the constants section.
enum class ConstTag : uint8_t {
  None = 0,
  Int = 1,
  Float = 2,
  Bool = 3,
  DataType = 4,
  String = 5,
  Shape = 6,
  Tensor = 7,
};

/// Bit flags of a parameter record.
enum : uint8_t { kHasDType = 1, kHasDevice = 2 };

/// A tensor constant or parameter has at most this many dims.
static constexpr uint32_t kMaxNDim = kMaxTensorNDim;

uint64_t graft::vm::fnv1a64(llvm::StringRef bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Writing ------------------------------------------------------------------

namespace {

class Writer {
public:
  std::string buf;

  template <typename T> void put(T v) {
    char tmp[sizeof(T)];
    endian::write<T, llvm::support::little, 1>(tmp, v);
    buf.append(tmp, sizeof(T));
  }
  void u8(uint8_t v) { buf.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { put(v); }
  void i32(int32_t v) { put(v); }
  void u64(uint64_t v) { put(v); }
  void i64(int64_t v) { put(v); }
  void str(llvm::StringRef s) {
    u64(s.size());
    buf.append(s.data(), s.size());
  }
  void dtype(DLDataType dt) {
    u8(dt.code);
    u8(dt.bits);
    put<uint16_t>(dt.lanes);
  }
};

void writeFunctions(Writer &w, const Executable &exe) {
  w.u64(exe.functions.size());
  for (const FuncInfo &fn : exe.functions) {
    w.u8(static_cast<uint8_t>(fn.kind));
    w.str(fn.name);
    w.i64(fn.startInstr);
    w.i64(fn.endInstr);
    w.i64(fn.numArgs);
    w.i64(fn.registerFileSize);
    w.u64(fn.paramNames.size());
    for (const std::string &p : fn.paramNames)
      w.str(p);
  }
}

void writeTensor(Writer &w, const TensorObj &t) {
  w.dtype(t.dtype());
  w.u32(static_cast<uint32_t>(t.shape().size()));
  for (int64_t d : t.shape())
    w.i64(d);
  // Constants are compact host tensors (the builder gets them that way).
  w.u64(t.byteSize());
  w.buf.append(t.bytes(), t.byteSize());
}

void writeConstant(Writer &w, const Value &v) {
  switch (v.kind()) {
  case ValueKind::Int:
    w.u8(uint8_t(ConstTag::Int));
    w.i64(v.getInt());
    return;
  case ValueKind::Float: {
    uint64_t bits;
    double d = v.getFloat();
    std::memcpy(&bits, &d, sizeof bits);
    w.u8(uint8_t(ConstTag::Float));
    w.u64(bits);
    return;
  }
  case ValueKind::Bool:
    w.u8(uint8_t(ConstTag::Bool));
    w.u8(v.getBool());
    return;
  case ValueKind::DataType:
    w.u8(uint8_t(ConstTag::DataType));
    w.dtype(v.getDataType());
    return;
  case ValueKind::String:
    w.u8(uint8_t(ConstTag::String));
    w.str(v.as<StringObj>()->value);
    return;
  case ValueKind::Shape:
    w.u8(uint8_t(ConstTag::Shape));
    w.u64(v.as<ShapeObj>()->dims.size());
    for (int64_t d : v.as<ShapeObj>()->dims)
      w.i64(d);
    return;
  case ValueKind::Tensor:
    w.u8(uint8_t(ConstTag::Tensor));
    writeTensor(w, *v.as<TensorObj>());
    return;
  default:
    // Tuples, storages, closures and handles are never constants; None
    // stands in so that indices stay stable.
    w.u8(uint8_t(ConstTag::None));
    return;
  }
}

void writeParam(Writer &w, const ParamInfo &p) {
  w.str(p.name);
  w.u8(static_cast<uint8_t>(p.kind));
  w.u8((p.dtype ? kHasDType : 0) | (p.device ? kHasDevice : 0));
  if (p.dtype)
    w.dtype(*p.dtype);
  if (p.device) {
    w.i32(static_cast<int32_t>(p.device->device_type));
    w.i32(p.device->device_id);
  }
  w.i32(p.ndim);
  w.u64(p.dims.size());
  for (const DimInfo &d : p.dims) {
    w.u8(d.kind);
    if (d.kind == DimInfo::Static)
      w.i64(d.value);
    else if (d.kind == DimInfo::Symbolic)
      w.str(d.symbol);
  }
}

void writeSection(Writer &out, SectionId id, const Writer &body) {
  out.u32(static_cast<uint32_t>(id));
  out.u64(body.buf.size());
  out.buf += body.buf;
}

} // namespace

std::string graft::vm::saveToBytes(const Executable &exe) {
  Writer payload, s;
  writeFunctions(s, exe);
  writeSection(payload, SectionId::Functions, s);
  s.buf.clear();
  s.u64(exe.constants.size());
  for (const Value &c : exe.constants)
    writeConstant(s, c);
  writeSection(payload, SectionId::Constants, s);
  s.buf.clear();
  s.u64(exe.instrData.size());
  for (ExecWord word : exe.instrData)
    s.i64(word);
  writeSection(payload, SectionId::Code, s);
  s.buf.clear();
  s.u64(exe.functions.size());
  for (const FuncInfo &fn : exe.functions) {
    s.u64(fn.params.size());
    for (const ParamInfo &p : fn.params)
      writeParam(s, p);
  }
  writeSection(payload, SectionId::Params, s);
  s.buf.clear();
  s.u64(exe.kernelSources.size());
  for (const KernelSource &k : exe.kernelSources) {
    s.str(k.name);
    s.str(k.text);
  }
  writeSection(payload, SectionId::KernelSources, s);

  Writer file;
  file.buf.append(kExecMagic, sizeof kExecMagic);
  file.u32(kExecVersion);
  file.u32(exe.target == Target::CUDA ? kHeaderFlagCUDA : 0);
  file.u64(payload.buf.size());
  file.u64(fnv1a64(payload.buf));
  file.buf += payload.buf;
  return std::move(file.buf);
}

llvm::Error graft::vm::saveToFile(const Executable &exe, llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s': %s", path.str().c_str(),
                                   ec.message().c_str());
  os << saveToBytes(exe);
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(), "cannot write '%s'", path.str().c_str());
  return llvm::Error::success();
}

// Reading ------------------------------------------------------------------

namespace {

/// A cursor over one section with a sticky error: after the first failure
/// every read returns zero, and every count is checked against the bytes
/// left before the caller sizes anything by it.
class Reader {
public:
  Reader(llvm::StringRef data, llvm::StringRef section, size_t base)
      : data_(data), section_(section), base_(base) {}

  bool ok() const { return error_.empty(); }
  size_t left() const { return data_.size() - pos_; }
  const std::string &error() const { return error_; }

  void fail(const llvm::Twine &msg) {
    if (ok())
      error_ =
          llvm::formatv("section '{0}' at file offset {1}: {2}", section_, base_ + pos_, msg.str())
              .str();
  }

  template <typename T> T get(llvm::StringRef what) {
    if (!need(sizeof(T), what))
      return T();
    T v = endian::read<T, llvm::support::little, 1>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  uint8_t u8(llvm::StringRef what) { return get<uint8_t>(what); }
  uint32_t u32(llvm::StringRef what) { return get<uint32_t>(what); }
  int32_t i32(llvm::StringRef what) { return get<int32_t>(what); }
  uint64_t u64(llvm::StringRef what) { return get<uint64_t>(what); }
  int64_t i64(llvm::StringRef what) { return get<int64_t>(what); }

  /// A count of elements that each take at least `minBytes` in the file.
  uint64_t count(llvm::StringRef what, uint64_t minBytes) {
    uint64_t n = u64(what);
    if (ok() && n > left() / minBytes) {
      fail(llvm::formatv("{0} {1} is more than the {2} bytes left can hold "
                         "(at least {3} bytes each)",
                         what, n, left(), minBytes));
      return 0;
    }
    return ok() ? n : 0;
  }

  llvm::StringRef bytes(uint64_t n, llvm::StringRef what) {
    if (!need(n, what))
      return {};
    llvm::StringRef r = data_.substr(pos_, n);
    pos_ += n;
    return r;
  }
  std::string str(llvm::StringRef what) {
    uint64_t n = count(what, 1);
    return bytes(n, what).str();
  }
  DLDataType dtype(llvm::StringRef what) {
    DLDataType dt;
    dt.code = u8(what);
    dt.bits = u8(what);
    dt.lanes = get<uint16_t>(what);
    return dt;
  }
  void expectEnd() {
    if (ok() && left() != 0)
      fail(llvm::formatv("{0} unexpected trailing bytes", left()));
  }

private:
  bool need(uint64_t n, llvm::StringRef what) {
    if (!ok())
      return false;
    if (n > left()) {
      fail(llvm::formatv("truncated: {0} needs {1} bytes but only {2} remain", what, n, left()));
      return false;
    }
    return true;
  }

  llvm::StringRef data_;
  llvm::StringRef section_;
  size_t base_;
  size_t pos_ = 0;
  std::string error_;
};

void readFunctions(Reader &r, Executable &exe) {
  // kind + name length + 4 i64 + param-name count.
  uint64_t n = r.count("function count", 1 + 8 + 32 + 8);
  exe.functions.reserve(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    FuncInfo fn;
    uint8_t kind = r.u8("function kind");
    if (kind > static_cast<uint8_t>(FuncKind::VM))
      r.fail(llvm::formatv("function {0} has unknown kind {1}", i, kind));
    fn.kind = static_cast<FuncKind>(kind);
    fn.name = r.str("function name");
    fn.startInstr = r.i64("start instruction");
    fn.endInstr = r.i64("end instruction");
    fn.numArgs = r.i64("parameter count");
    fn.registerFileSize = r.i64("register file size");
    uint64_t np = r.count("parameter name count", 8);
    for (uint64_t j = 0; j < np && r.ok(); ++j)
      fn.paramNames.push_back(r.str("parameter name"));
    exe.functions.push_back(std::move(fn));
  }
}

Value readTensor(Reader &r) {
  DLDataType dt = r.dtype("tensor dtype");
  uint32_t ndim = r.u32("tensor ndim");
  if (r.ok() && (!isSupportedDType(dt) || ndim > kMaxNDim)) {
    r.fail(llvm::formatv("tensor constant has unsupported dtype {0} or ndim "
                         "{1} (at most {2})",
                         dtypeStr(dt), ndim, kMaxNDim));
    return {};
  }
  llvm::SmallVector<int64_t, 4> shape;
  for (uint32_t i = 0; i < ndim && r.ok(); ++i)
    shape.push_back(r.i64("tensor dim"));
  uint64_t nbytes = r.u64("tensor byte count");
  if (!r.ok())
    return {};
  auto expected = checkedNumElements(shape);
  uint64_t want = 0;
  if (!expected || __builtin_mul_overflow(*expected, dtypeBytes(dt), &want) || want != nbytes) {
    if (!expected)
      llvm::consumeError(expected.takeError());
    r.fail(llvm::formatv("tensor constant holds {0} bytes, which does not "
                         "match its shape and dtype",
                         nbytes));
    return {};
  }
  llvm::StringRef data = r.bytes(nbytes, "tensor data");
  if (!r.ok())
    return {};
  auto t = TensorObj::emptyHost(shape, dt);
  if (!t) {
    r.fail(llvm::toString(t.takeError()));
    return {};
  }
  if (nbytes)
    std::memcpy((*t)->bytes(), data.data(), nbytes);
  return Value::object(*t);
}

Value readConstant(Reader &r) {
  uint8_t tag = r.u8("constant tag");
  switch (static_cast<ConstTag>(tag)) {
  case ConstTag::None:
    return {};
  case ConstTag::Int:
    return Value::integer(r.i64("int constant"));
  case ConstTag::Float: {
    uint64_t bits = r.u64("float constant");
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return Value::real(d);
  }
  case ConstTag::Bool:
    return Value::boolean(r.u8("bool constant") != 0);
  case ConstTag::DataType:
    return Value::dataType(r.dtype("dtype constant"));
  case ConstTag::String:
    return Value::string(r.str("string constant"));
  case ConstTag::Shape: {
    uint64_t n = r.count("shape rank", 8);
    llvm::SmallVector<int64_t, 4> dims;
    for (uint64_t i = 0; i < n && r.ok(); ++i)
      dims.push_back(r.i64("shape dim"));
    return Value::shape(dims);
  }
  case ConstTag::Tensor:
    return readTensor(r);
  }
  if (r.ok())
    r.fail(llvm::formatv("unknown constant tag {0}", tag));
  return {};
}

void readConstants(Reader &r, Executable &exe) {
  uint64_t n = r.count("constant count", 1);
  exe.constants.reserve(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i)
    exe.constants.push_back(readConstant(r));
}

void readCode(Reader &r, Executable &exe) {
  uint64_t n = r.count("bytecode word count", 8);
  exe.instrData.reserve(n);
  for (uint64_t i = 0; i < n && r.ok(); ++i)
    exe.instrData.push_back(r.i64("bytecode word"));
}

DimInfo readDim(Reader &r) {
  DimInfo d;
  uint8_t kind = r.u8("dim kind");
  if (kind > DimInfo::Any) {
    r.fail(llvm::formatv("unknown dim kind {0}", kind));
    return d;
  }
  d.kind = static_cast<DimInfo::Kind>(kind);
  if (d.kind == DimInfo::Static)
    d.value = r.i64("static dim");
  else if (d.kind == DimInfo::Symbolic)
    d.symbol = r.str("dim symbol");
  return d;
}

bool isKnownDeviceType(int32_t type) {
  switch (type) {
  case kDLCPU:
  case kDLCUDA:
  case kDLCUDAHost:
  case kDLOpenCL:
  case kDLVulkan:
  case kDLMetal:
  case kDLVPI:
  case kDLROCM:
  case kDLROCMHost:
  case kDLExtDev:
  case kDLCUDAManaged:
    return true;
  default:
    return false;
  }
}

ParamInfo readParam(Reader &r) {
  ParamInfo p;
  p.name = r.str("parameter name");
  uint8_t kind = r.u8("parameter kind");
  if (kind >= kNumParamKinds)
    r.fail(llvm::formatv("parameter '{0}' has unknown kind {1}", p.name, kind));
  p.kind = static_cast<ParamKind>(kind);
  uint8_t flags = r.u8("parameter flags");
  if (flags & ~(kHasDType | kHasDevice))
    r.fail(llvm::formatv("parameter '{0}' has unknown flags {1:x}", p.name, flags));
  if (flags & kHasDType)
    p.dtype = r.dtype("parameter dtype");
  if (flags & kHasDevice) {
    int32_t type = r.i32("device type");
    // Converting an unknown number to DLDeviceType would be undefined.
    if (r.ok() && !isKnownDeviceType(type))
      r.fail(llvm::formatv("parameter '{0}' has unknown device type {1}", p.name, type));
    DLDevice dev{r.ok() ? static_cast<DLDeviceType>(type) : kDLCPU, 0};
    dev.device_id = r.i32("device id");
    p.device = dev;
  }
  p.ndim = r.i32("parameter ndim");
  uint64_t nd = r.count("parameter dim count", 1);
  if (nd > kMaxNDim)
    r.fail(llvm::formatv("parameter '{0}' has {1} dims (at most {2})", p.name, nd, kMaxNDim));
  for (uint64_t i = 0; i < nd && r.ok(); ++i)
    p.dims.push_back(readDim(r));
  return p;
}

void readParams(Reader &r, Executable &exe) {
  uint64_t n = r.count("parameter table count", 8);
  if (r.ok() && n != exe.functions.size()) {
    r.fail(llvm::formatv("{0} parameter tables for {1} functions", n, exe.functions.size()));
    return;
  }
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    // name length + kind + flags + ndim + dim count.
    uint64_t np = r.count("parameter count", 8 + 1 + 1 + 4 + 8);
    for (uint64_t j = 0; j < np && r.ok(); ++j)
      exe.functions[i].params.push_back(readParam(r));
  }
}

void readKernelSources(Reader &r, Executable &exe) {
  uint64_t n = r.count("kernel source count", 16);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    KernelSource k;
    k.name = r.str("kernel name");
    k.text = r.str("kernel text");
    exe.kernelSources.push_back(std::move(k));
  }
}

struct SectionSpec {
  SectionId id;
  const char *name;
  void (*read)(Reader &, Executable &);
};

const SectionSpec kSections[] = {
    {SectionId::Functions, "functions", readFunctions},
    {SectionId::Constants, "constants", readConstants},
    {SectionId::Code, "code", readCode},
    {SectionId::Params, "params", readParams},
    {SectionId::KernelSources, "kernel sources", readKernelSources},
};

template <typename... Ts> llvm::Error invalid(const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invalid executable: " +
                                     llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

llvm::Error checkHeader(llvm::StringRef bytes, LoadOptions options) {
  if (bytes.size() < kExecHeaderBytes)
    return invalid("file is {0} bytes, shorter than the {1}-byte header", bytes.size(),
                   kExecHeaderBytes);
  if (std::memcmp(bytes.data(), kExecMagic, sizeof kExecMagic) != 0)
    return invalid("bad magic (not a graft VM executable)");
  const char *p = bytes.data();
  uint32_t version = endian::read32le(p + 8);
  if (version != kExecVersion)
    return invalid("unsupported version {0} (this build reads version {1})", version, kExecVersion);
  if (uint32_t flags = endian::read32le(p + 12) & ~kHeaderFlagCUDA)
    return invalid("unknown header flags {0:x}", flags);
  uint64_t size = endian::read64le(p + 16);
  uint64_t have = bytes.size() - kExecHeaderBytes;
  if (size != have)
    return invalid("header declares {0} payload bytes but {1} follow{2}", size, have,
                   size > have ? " (truncated file)" : "");
  uint64_t stored = endian::read64le(p + 24);
  uint64_t computed = fnv1a64(bytes.drop_front(kExecHeaderBytes));
  if (options.verifyChecksum && stored != computed)
    return invalid("checksum mismatch (stored {0:x16}, computed {1:x16}): the "
                   "file is damaged",
                   stored, computed);
  return llvm::Error::success();
}

llvm::Error readSections(llvm::StringRef payload, Executable &exe) {
  size_t pos = 0;
  for (const SectionSpec &spec : kSections) {
    if (payload.size() - pos < 12)
      return invalid("truncated: section '{0}' header missing at file offset "
                     "{1}",
                     spec.name, kExecHeaderBytes + pos);
    uint32_t id = endian::read32le(payload.data() + pos);
    uint64_t size = endian::read64le(payload.data() + pos + 4);
    pos += 12;
    if (id != static_cast<uint32_t>(spec.id))
      return invalid("expected section '{0}' (id {1}) but found id {2}", spec.name,
                     static_cast<uint32_t>(spec.id), id);
    if (size > payload.size() - pos)
      return invalid("section '{0}' declares {1} bytes but only {2} remain", spec.name, size,
                     payload.size() - pos);
    Reader r(payload.substr(pos, size), spec.name, kExecHeaderBytes + pos);
    spec.read(r, exe);
    r.expectEnd();
    if (!r.ok())
      return invalid("{0}", r.error());
    pos += size;
  }
  if (pos != payload.size())
    return invalid("{0} unexpected bytes after the last section", payload.size() - pos);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<Executable>> graft::vm::loadFromBytes(llvm::StringRef bytes,
                                                                     LoadOptions options) {
  if (auto err = checkHeader(bytes, options))
    return err;
  auto exe = std::make_unique<Executable>();
  if (endian::read32le(bytes.data() + 12) & kHeaderFlagCUDA)
    exe->target = Target::CUDA;
  if (auto err = readSections(bytes.drop_front(kExecHeaderBytes), *exe))
    return err;
  exe->reindex();
  if (auto err = exe->decodeOffsets())
    return invalid("{0}", llvm::toString(std::move(err)));
  if (auto err = exe->verify())
    return invalid("{0}", llvm::toString(std::move(err)));
  return exe;
}

llvm::Expected<std::unique_ptr<Executable>> graft::vm::loadFromFile(llvm::StringRef path,
                                                                    LoadOptions options) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return llvm::createStringError(buf.getError(), "cannot read '%s': %s", path.str().c_str(),
                                   buf.getError().message().c_str());
  auto exe = loadFromBytes((*buf)->getBuffer(), options);
  if (!exe)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", path.str().c_str(),
                                   llvm::toString(exe.takeError()).c_str());
  return exe;
}
