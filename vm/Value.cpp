//===- vm/Value.cpp - Register values, tensors and data types -------------===//

#include "vm/Value.h"
#include "vm/Device.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cstring>

using namespace graft::vm;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

llvm::StringRef graft::vm::valueKindName(ValueKind kind) {
  switch (kind) {
  case ValueKind::None:
    return "none";
  case ValueKind::Int:
    return "int";
  case ValueKind::Float:
    return "float";
  case ValueKind::Bool:
    return "bool";
  case ValueKind::DataType:
    return "dtype";
  case ValueKind::String:
    return "string";
  case ValueKind::Shape:
    return "shape";
  case ValueKind::Tuple:
    return "tuple";
  case ValueKind::Tensor:
    return "tensor";
  case ValueKind::Storage:
    return "storage";
  case ValueKind::Closure:
    return "closure";
  case ValueKind::Opaque:
    return "opaque";
  }
  return "unknown";
}

Value Value::string(std::string s) { return object(makeRef<StringObj>(std::move(s))); }
Value Value::shape(llvm::ArrayRef<int64_t> dims) { return object(makeRef<ShapeObj>(dims)); }
Value Value::tuple(llvm::ArrayRef<Value> fields) { return object(makeRef<TupleObj>(fields)); }

// Printing -----------------------------------------------------------------

static void printDims(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> dims) {
  os << '[';
  llvm::interleaveComma(dims, os);
  os << ']';
}

static void printTensor(llvm::raw_ostream &os, const TensorObj &t) {
  os << "tensor<" << dtypeStr(t.dtype());
  printDims(os, t.shape());
  os << ", " << deviceStr(t.device()) << '>';
}

void Value::print(llvm::raw_ostream &os) const {
  switch (kind_) {
  case ValueKind::None:
    os << "none";
    return;
  case ValueKind::Int:
    os << u_.i;
    return;
  case ValueKind::Float:
    os << llvm::format("%g", u_.f);
    return;
  case ValueKind::Bool:
    os << (u_.b ? "true" : "false");
    return;
  case ValueKind::DataType:
    os << dtypeStr(u_.dt);
    return;
  case ValueKind::String:
    os << '"';
    llvm::printEscapedString(as<StringObj>()->value, os);
    os << '"';
    return;
  case ValueKind::Shape:
    os << "shape";
    printDims(os, as<ShapeObj>()->dims);
    return;
  case ValueKind::Tuple: {
    os << '(';
    llvm::interleaveComma(as<TupleObj>()->fields, os, [&](const Value &v) { v.print(os); });
    os << ')';
    return;
  }
  case ValueKind::Tensor:
    printTensor(os, *as<TensorObj>());
    return;
  case ValueKind::Storage: {
    auto *s = as<StorageObj>();
    os << "storage<" << s->bytes() << " bytes, " << deviceStr(s->device()) << '>';
    return;
  }
  case ValueKind::Closure: {
    auto *c = as<ClosureObj>();
    os << "closure<f" << c->funcIndex << ", " << c->captured.size() << " captured>";
    return;
  }
  case ValueKind::Opaque:
    os << "opaque<" << as<OpaqueObj>()->typeKey << '>';
    return;
  }
}

std::string Value::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return os.str();
}

// Structural equality ------------------------------------------------------

static bool tensorsEqual(const TensorObj &a, const TensorObj &b) {
  if (!dtypeEqual(a.dtype(), b.dtype()) || a.shape() != b.shape() ||
      a.device().device_type != b.device().device_type)
    return false;
  // Only compact host tensors are compared by content (constants are both).
  if (a.device().device_type != kDLCPU || !a.isCompact() || !b.isCompact())
    return &a == &b;
  return std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

bool graft::vm::structurallyEqual(const Value &a, const Value &b) {
  if (a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case ValueKind::None:
    return true;
  case ValueKind::Int:
    return a.getInt() == b.getInt();
  // Bitwise, so that -0.0 and 0.0 stay distinct constants and NaN equals NaN.
  case ValueKind::Float: {
    double x = a.getFloat(), y = b.getFloat();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  case ValueKind::Bool:
    return a.getBool() == b.getBool();
  case ValueKind::DataType:
    return dtypeEqual(a.getDataType(), b.getDataType());
  case ValueKind::String:
    return a.as<StringObj>()->value == b.as<StringObj>()->value;
  case ValueKind::Shape:
    return a.as<ShapeObj>()->dims == b.as<ShapeObj>()->dims;
  case ValueKind::Tuple: {
    auto &fa = a.as<TupleObj>()->fields, &fb = b.as<TupleObj>()->fields;
    if (fa.size() != fb.size())
      return false;
    for (size_t i = 0; i < fa.size(); ++i)
      if (!structurallyEqual(fa[i], fb[i]))
        return false;
    return true;
  }
  case ValueKind::Tensor:
    return tensorsEqual(*a.as<TensorObj>(), *b.as<TensorObj>());
  default:
    return a.getObject() == b.getObject();
  }
}

uint64_t graft::vm::structuralHash(const Value &v) {
  using llvm::hash_combine;
  size_t h = llvm::hash_value(static_cast<int>(v.kind()));
  switch (v.kind()) {
  case ValueKind::None:
    return h;
  case ValueKind::Int:
    return hash_combine(h, v.getInt());
  case ValueKind::Float: {
    double d = v.getFloat();
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return hash_combine(h, bits);
  }
  case ValueKind::Bool:
    return hash_combine(h, v.getBool());
  case ValueKind::DataType: {
    DLDataType dt = normalizeDType(v.getDataType());
    return hash_combine(h, dt.code, dt.bits, dt.lanes);
  }
  case ValueKind::String:
    return hash_combine(h, v.as<StringObj>()->value);
  case ValueKind::Shape: {
    auto &d = v.as<ShapeObj>()->dims;
    return hash_combine(h, llvm::hash_combine_range(d.begin(), d.end()));
  }
  case ValueKind::Tuple:
    for (const Value &f : v.as<TupleObj>()->fields)
      h = hash_combine(h, structuralHash(f));
    return h;
  case ValueKind::Tensor: {
    auto *t = v.as<TensorObj>();
    auto s = t->shape();
    h = hash_combine(h, llvm::hash_combine_range(s.begin(), s.end()));
    if (t->device().device_type == kDLCPU && t->isCompact())
      h = hash_combine(h, llvm::hash_value(llvm::StringRef(t->bytes(), t->byteSize())));
    return h;
  }
  default:
    return hash_combine(h, v.getObject());
  }
}

// Storage and tensors ------------------------------------------------------

StorageObj::StorageObj(std::shared_ptr<CachingAllocator> alloc, void *data, size_t bytes,
                       DLDevice device)
    : Object(ValueKind::Storage), alloc_(std::move(alloc)), data_(data), bytes_(bytes),
      device_(device) {}

StorageObj::~StorageObj() {
  if (alloc_)
    alloc_->free(data_, bytes_);
  else
    cpuDevice()->free(data_, bytes_);
}

llvm::Expected<Ref<StorageObj>> StorageObj::hostBlock(size_t bytes) {
  auto mem = cpuDevice()->allocate(bytes, CachingAllocator::kAlignment);
  if (!mem)
    return mem.takeError();
  return Ref<StorageObj>(new StorageObj(nullptr, *mem, bytes, DLDevice{kDLCPU, 0}));
}

llvm::Expected<uint64_t> graft::vm::checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return createStringError(inconvertibleErrorCode(), "negative dimension %lld in shape",
                               static_cast<long long>(d));
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(d), &n))
      return createStringError(inconvertibleErrorCode(), "shape has too many elements");
  }
  return n;
}

/// Bytes of a compact tensor, with overflow and dtype checks.
static llvm::Expected<uint64_t> compactBytes(llvm::ArrayRef<int64_t> shape, DLDataType dtype) {
  uint64_t elemBytes = dtypeBytes(dtype);
  if (elemBytes == 0)
    return createStringError(inconvertibleErrorCode(), "unsupported dtype %s for a tensor",
                             dtypeStr(dtype).c_str());
  auto n = checkedNumElements(shape);
  if (!n)
    return n.takeError();
  uint64_t bytes;
  if (__builtin_mul_overflow(*n, elemBytes, &bytes))
    return createStringError(inconvertibleErrorCode(), "tensor byte size overflows");
  return bytes;
}

llvm::Expected<Ref<TensorObj>> TensorObj::view(Ref<StorageObj> storage, uint64_t byteOffset,
                                               llvm::ArrayRef<int64_t> shape, DLDataType dtype) {
  auto bytes = compactBytes(shape, dtype);
  if (!bytes)
    return bytes.takeError();
  uint64_t end;
  if (__builtin_add_overflow(byteOffset, *bytes, &end) || end > storage->bytes())
    return createStringError(inconvertibleErrorCode(),
                             "tensor of %llu bytes at offset %llu does not fit in a storage of "
                             "%zu bytes",
                             static_cast<unsigned long long>(*bytes),
                             static_cast<unsigned long long>(byteOffset), storage->bytes());
  Ref<TensorObj> t(new TensorObj());
  t->shape_.assign(shape.begin(), shape.end());
  // Kernels see a plain pointer (data + offset), as TVM does for CPU/CUDA.
  t->dl.data = static_cast<char *>(storage->data()) + byteOffset;
  t->dl.device = storage->device();
  t->dl.ndim = static_cast<int32_t>(shape.size());
  t->dl.dtype = normalizeDType(dtype);
  t->dl.shape = t->shape_.data();
  t->dl.strides = nullptr;
  t->dl.byte_offset = 0;
  t->storage_ = std::move(storage);
  return t;
}

llvm::Expected<Ref<TensorObj>> TensorObj::empty(const std::shared_ptr<CachingAllocator> &alloc,
                                                llvm::ArrayRef<int64_t> shape, DLDataType dtype) {
  auto bytes = compactBytes(shape, dtype);
  if (!bytes)
    return bytes.takeError();
  auto mem = alloc->allocate(*bytes);
  if (!mem)
    return mem.takeError();
  Ref<StorageObj> storage(new StorageObj(alloc, *mem, *bytes, alloc->dlDevice()));
  return view(std::move(storage), 0, shape, dtype);
}

llvm::Expected<Ref<TensorObj>> TensorObj::emptyHost(llvm::ArrayRef<int64_t> shape,
                                                    DLDataType dtype) {
  auto bytes = compactBytes(shape, dtype);
  if (!bytes)
    return bytes.takeError();
  auto storage = StorageObj::hostBlock(*bytes);
  if (!storage)
    return storage.takeError();
  return view(std::move(*storage), 0, shape, dtype);
}

llvm::Expected<Ref<TensorObj>> TensorObj::reshapeView(Ref<TensorObj> base,
                                                      llvm::ArrayRef<int64_t> shape) {
  auto n = checkedNumElements(shape);
  if (!n)
    return n.takeError();
  if (!base->isCompact())
    return createStringError(inconvertibleErrorCode(), "cannot reshape a strided tensor");
  if (*n != static_cast<uint64_t>(base->numElements()))
    return createStringError(
        inconvertibleErrorCode(), "cannot reshape a tensor of %lld elements to %llu elements",
        static_cast<long long>(base->numElements()), static_cast<unsigned long long>(*n));
  Ref<TensorObj> t(new TensorObj());
  t->shape_.assign(shape.begin(), shape.end());
  t->dl = base->dl;
  t->dl.ndim = static_cast<int32_t>(shape.size());
  t->dl.shape = t->shape_.data();
  t->dl.strides = nullptr;
  t->base_ = std::move(base);
  return t;
}

llvm::Expected<Ref<TensorObj>> TensorObj::fromDLPack(DLManagedTensor *managed) {
  if (!managed)
    return createStringError(inconvertibleErrorCode(), "cannot import a null DLManagedTensor");
  const DLTensor &src = managed->dl_tensor;
  bool badShape = src.ndim < 0 || (src.ndim > 0 && !src.shape);
  for (int i = 0; !badShape && i < src.ndim; ++i)
    badShape = src.shape[i] < 0;
  if (badShape)
    return createStringError(inconvertibleErrorCode(), "cannot import a DLManagedTensor with a "
                                                       "negative ndim or dimension");
  Ref<TensorObj> t(new TensorObj());
  t->dl = src;
  t->dl.dtype = normalizeDType(src.dtype);
  t->imported_ = managed;
  return t;
}

static void deleteExported(DLManagedTensor *self) {
  static_cast<TensorObj *>(self->manager_ctx)->release();
  delete self;
}

DLManagedTensor *TensorObj::toDLPack() {
  auto *m = new DLManagedTensor();
  m->dl_tensor = dl;
  retain();
  m->manager_ctx = this;
  m->deleter = deleteExported;
  return m;
}

TensorObj::~TensorObj() {
  if (imported_ && imported_->deleter)
    imported_->deleter(imported_);
}

int64_t TensorObj::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape())
    n *= d;
  return n;
}

uint64_t TensorObj::byteSize() const {
  return static_cast<uint64_t>(numElements()) * dtypeBytes(dtype());
}

bool TensorObj::isCompact() const {
  if (!dl.strides)
    return true;
  int64_t expected = 1;
  for (int i = dl.ndim - 1; i >= 0; --i) {
    if (dl.shape[i] != 1 && dl.strides[i] != expected)
      return false;
    expected *= dl.shape[i];
  }
  return true;
}

// Data types ---------------------------------------------------------------

DLDataType graft::vm::normalizeDType(DLDataType dt) {
  if (dt.code == kDLUInt && dt.bits == 1)
    return DLDataType{graft::kernels::kGraftDLBool, 8, dt.lanes};
  return dt;
}

bool graft::vm::dtypeEqual(DLDataType a, DLDataType b) {
  a = normalizeDType(a);
  b = normalizeDType(b);
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

std::string graft::vm::dtypeStr(DLDataType dt) {
  std::string s;
  switch (dt.code) {
  case kDLInt:
    s = "int";
    break;
  case kDLUInt:
    s = dt.bits == 1 ? "bool" : "uint";
    break;
  case kDLFloat:
    s = "float";
    break;
  case kDLBfloat:
    s = "bfloat";
    break;
  case kDLOpaqueHandle:
    s = "handle";
    break;
  case graft::kernels::kGraftDLBool:
    s = "bool";
    break;
  default:
    s = "code";
    s += std::to_string(dt.code);
    s += '_';
    break;
  }
  bool isBool = s == "bool";
  if (!isBool || (dt.code == graft::kernels::kGraftDLBool && dt.bits != 8))
    s += std::to_string(dt.bits);
  if (dt.lanes != 1) {
    s += 'x';
    s += std::to_string(dt.lanes);
  }
  return s;
}

llvm::Expected<DLDataType> graft::vm::parseDType(llvm::StringRef text) {
  if (text == "bool")
    return DLDataType{graft::kernels::kGraftDLBool, 8, 1};
  struct Prefix {
    llvm::StringRef name;
    uint8_t code;
  };
  static const Prefix prefixes[] = {
      {"bfloat", kDLBfloat}, {"float", kDLFloat}, {"uint", kDLUInt}, {"int", kDLInt}};
  for (const Prefix &p : prefixes) {
    unsigned bits;
    llvm::StringRef rest = text;
    if (rest.consume_front(p.name) && !rest.getAsInteger(10, bits)) {
      DLDataType dt{p.code, static_cast<uint8_t>(bits), 1};
      if (bits < 256 && isSupportedDType(dt))
        return dt;
    }
  }
  return createStringError(inconvertibleErrorCode(), "unknown dtype '%s'", text.str().c_str());
}

bool graft::vm::isSupportedDType(DLDataType dt) {
  dt = normalizeDType(dt);
  if (dt.lanes != 1)
    return false;
  switch (dt.code) {
  case kDLInt:
  case kDLUInt:
    return dt.bits == 8 || dt.bits == 16 || dt.bits == 32 || dt.bits == 64;
  case kDLFloat:
    return dt.bits == 16 || dt.bits == 32 || dt.bits == 64;
  case kDLBfloat:
    return dt.bits == 16;
  case graft::kernels::kGraftDLBool:
    return dt.bits == 8;
  default:
    return false;
  }
}

uint64_t graft::vm::dtypeBytes(DLDataType dt) {
  dt = normalizeDType(dt);
  if (dt.bits == 0 || dt.bits % 8 != 0 || dt.lanes == 0)
    return 0;
  return uint64_t(dt.bits / 8) * dt.lanes;
}

std::string graft::vm::deviceStr(DLDevice dev) {
  std::string name;
  switch (dev.device_type) {
  case kDLCPU:
    name = "cpu";
    break;
  case kDLCUDA:
    name = "cuda";
    break;
  case kDLCUDAHost:
    name = "cuda_host";
    break;
  default:
    name = "device";
    name += std::to_string(static_cast<int>(dev.device_type));
  }
  name += ':';
  name += std::to_string(dev.device_id);
  return name;
}
