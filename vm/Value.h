//===- vm/Value.h - The VM's register values ------------------*- C++ -*-===//
//
// A Value is what a VM register holds: 16 bytes, a kind tag plus either an
// inline scalar (int, float, bool, data type) or a pointer to a refcounted
// heap object (string, shape, tuple, tensor, storage, closure, opaque
// handle). Copying a Value costs at most one atomic increment, which keeps
// the interpreter loop free of allocation.
//
// Heap objects use LLVM-style RTTI (classof over ObjectKind); `Value::as<T>`
// returns null when the kind does not match, so builtins can check argument
// kinds without exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_VALUE_H
#define GRAFT_VM_VALUE_H

#include "kernels/Kernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <dlpack/dlpack.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace graft::vm {

class CachingAllocator;

enum class ValueKind : uint8_t {
  None,
  Int,
  Float,
  Bool,
  DataType,
  // Heap kinds from here on (see Value::isHeap).
  String,
  Shape,
  Tuple,
  Tensor,
  Storage,
  Closure,
  Opaque,
};

llvm::StringRef valueKindName(ValueKind kind);

/// Base of every refcounted heap object. The count is atomic because a
/// tensor exported through DLPack may be released by another framework on
/// another thread.
class Object {
public:
  explicit Object(ValueKind kind) : kind_(kind) {}
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;
  virtual ~Object() = default;

  ValueKind kind() const { return kind_; }
  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  uint32_t refCount() const { return refs_.load(std::memory_order_relaxed); }

private:
  std::atomic<uint32_t> refs_{0};
  ValueKind kind_;
};

/// Intrusive smart pointer to an Object subclass.
template <typename T> class Ref {
public:
  Ref() = default;
  Ref(T *p) : p_(p) {
    if (p_)
      p_->retain();
  }
  Ref(const Ref &o) : Ref(o.p_) {}
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_)
      p_->release();
  }
  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

private:
  T *p_ = nullptr;
};

template <typename T, typename... Args> Ref<T> makeRef(Args &&...args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

class Value;

/// Structural equality and hash used for constant de-duplication (tensor
/// contents compared byte by byte; closures and opaque handles by identity).
bool structurallyEqual(const Value &a, const Value &b);
uint64_t structuralHash(const Value &v);

/// A register value. None by default.
class Value {
public:
  Value() : kind_(ValueKind::None) { u_.i = 0; }
  Value(const Value &o) : kind_(o.kind_), u_(o.u_) {
    if (isHeap())
      u_.obj->retain();
  }
  Value(Value &&o) noexcept : kind_(o.kind_), u_(o.u_) { o.kind_ = ValueKind::None; }
  Value &operator=(const Value &o) {
    Value tmp(o);
    swap(tmp);
    return *this;
  }
  Value &operator=(Value &&o) noexcept {
    Value tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~Value() {
    if (isHeap())
      u_.obj->release();
  }
  void swap(Value &o) noexcept {
    std::swap(kind_, o.kind_);
    std::swap(u_, o.u_);
  }

  static Value none() { return Value(); }
  static Value integer(int64_t v) {
    Value r(ValueKind::Int);
    r.u_.i = v;
    return r;
  }
  static Value real(double v) {
    Value r(ValueKind::Float);
    r.u_.f = v;
    return r;
  }
  static Value boolean(bool v) {
    Value r(ValueKind::Bool);
    r.u_.b = v;
    return r;
  }
  static Value dataType(DLDataType v) {
    Value r(ValueKind::DataType);
    r.u_.dt = v;
    return r;
  }
  /// Wraps a heap object (its kind becomes the value's kind); null gives None.
  static Value object(Object *obj) {
    Value r;
    if (obj) {
      obj->retain();
      r.kind_ = obj->kind();
      r.u_.obj = obj;
    }
    return r;
  }
  template <typename T> static Value object(const Ref<T> &ref) {
    return object(static_cast<Object *>(ref.get()));
  }
  static Value string(std::string s);
  static Value shape(llvm::ArrayRef<int64_t> dims);
  static Value tuple(llvm::ArrayRef<Value> fields);

  ValueKind kind() const { return kind_; }
  bool isNone() const { return kind_ == ValueKind::None; }
  bool isInt() const { return kind_ == ValueKind::Int; }
  bool isFloat() const { return kind_ == ValueKind::Float; }
  bool isBool() const { return kind_ == ValueKind::Bool; }
  bool isDataType() const { return kind_ == ValueKind::DataType; }
  bool isHeap() const { return kind_ >= ValueKind::String; }

  int64_t getInt() const { return u_.i; }
  double getFloat() const { return u_.f; }
  bool getBool() const { return u_.b; }
  DLDataType getDataType() const { return u_.dt; }
  Object *getObject() const { return isHeap() ? u_.obj : nullptr; }

  /// The heap object as T, or null when the value is not a T.
  template <typename T> T *as() const {
    Object *o = getObject();
    return o ? llvm::dyn_cast<T>(o) : nullptr;
  }

  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  explicit Value(ValueKind k) : kind_(k) { u_.i = 0; }

  ValueKind kind_;
  union {
    int64_t i;
    double f;
    bool b;
    DLDataType dt;
    Object *obj;
  } u_;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Value &v) {
  v.print(os);
  return os;
}

class StringObj : public Object {
public:
  explicit StringObj(std::string s) : Object(ValueKind::String), value(std::move(s)) {}
  static bool classof(const Object *o) { return o->kind() == ValueKind::String; }
  std::string value;
};

class ShapeObj : public Object {
public:
  explicit ShapeObj(llvm::ArrayRef<int64_t> d)
      : Object(ValueKind::Shape), dims(d.begin(), d.end()) {}
  static bool classof(const Object *o) { return o->kind() == ValueKind::Shape; }
  llvm::SmallVector<int64_t, 4> dims;
};

class TupleObj : public Object {
public:
  explicit TupleObj(llvm::ArrayRef<Value> f)
      : Object(ValueKind::Tuple), fields(f.begin(), f.end()) {}
  static bool classof(const Object *o) { return o->kind() == ValueKind::Tuple; }
  llvm::SmallVector<Value, 4> fields;
};

/// A block from a device's caching allocator; tensors view it at a byte
/// offset. The block goes back to the allocator when the last reference
/// (the storage value or a tensor viewing it) is dropped.
class StorageObj : public Object {
public:
  /// `alloc` null: `data` came from std::aligned_alloc on the host (see
  /// hostBlock) and goes back to std::free.
  StorageObj(std::shared_ptr<CachingAllocator> alloc, void *data, size_t bytes, DLDevice device);
  /// A host block outside any VM's allocator, for constants and tests; safe
  /// to create from any thread.
  static llvm::Expected<Ref<StorageObj>> hostBlock(size_t bytes);
  ~StorageObj() override;
  static bool classof(const Object *o) { return o->kind() == ValueKind::Storage; }
  void *data() const { return data_; }
  size_t bytes() const { return bytes_; }
  DLDevice device() const { return device_; }

private:
  std::shared_ptr<CachingAllocator> alloc_;
  void *data_;
  size_t bytes_;
  DLDevice device_;
};

/// A DLPack tensor. Either a view of a StorageObj (shape and strides owned
/// here) or an imported DLManagedTensor whose deleter runs when this object
/// dies. `dl` is always a complete DLTensor that kernels can take.
class TensorObj : public Object {
public:
  /// A compact view of `storage` at `byteOffset`; checks that it fits.
  static llvm::Expected<Ref<TensorObj>> view(Ref<StorageObj> storage, uint64_t byteOffset,
                                             llvm::ArrayRef<int64_t> shape, DLDataType dtype);
  /// A fresh compact tensor allocated from `alloc`.
  static llvm::Expected<Ref<TensorObj>> empty(const std::shared_ptr<CachingAllocator> &alloc,
                                              llvm::ArrayRef<int64_t> shape, DLDataType dtype);
  /// A fresh compact host tensor outside any allocator (see hostBlock).
  static llvm::Expected<Ref<TensorObj>> emptyHost(llvm::ArrayRef<int64_t> shape, DLDataType dtype);
  /// A view of compact `base` with another shape of the same element count.
  static llvm::Expected<Ref<TensorObj>> reshapeView(Ref<TensorObj> base,
                                                    llvm::ArrayRef<int64_t> shape);
  /// Takes ownership of `managed` without copying; its deleter runs when the
  /// tensor is released. Rejects a null tensor or a negative dim.
  static llvm::Expected<Ref<TensorObj>> fromDLPack(DLManagedTensor *managed);
  /// Exports without copying: the result keeps this tensor alive until the
  /// consumer calls its deleter.
  DLManagedTensor *toDLPack();

  ~TensorObj() override;
  static bool classof(const Object *o) { return o->kind() == ValueKind::Tensor; }

  DLTensor dl{};
  llvm::ArrayRef<int64_t> shape() const { return {dl.shape, static_cast<size_t>(dl.ndim)}; }
  DLDataType dtype() const { return dl.dtype; }
  DLDevice device() const { return dl.device; }
  int64_t numElements() const;
  /// Bytes of a compact tensor of this shape and dtype.
  uint64_t byteSize() const;
  bool isCompact() const;
  /// First byte (data + byte_offset).
  char *bytes() const { return static_cast<char *>(dl.data) + dl.byte_offset; }
  StorageObj *storage() const { return storage_.get(); }

private:
  TensorObj() : Object(ValueKind::Tensor) {}
  llvm::SmallVector<int64_t, 4> shape_;
  Ref<StorageObj> storage_;
  Ref<TensorObj> base_; ///< reshapeView: keeps the viewed tensor alive.
  DLManagedTensor *imported_ = nullptr;
};

/// A function of an executable (by index into its function table) with
/// values bound as its trailing arguments (TVM's BindLastArgs).
class ClosureObj : public Object {
public:
  ClosureObj(int64_t funcIndex, llvm::ArrayRef<Value> captured)
      : Object(ValueKind::Closure), funcIndex(funcIndex),
        captured(captured.begin(), captured.end()) {}
  static bool classof(const Object *o) { return o->kind() == ValueKind::Closure; }
  int64_t funcIndex;
  llvm::SmallVector<Value, 2> captured;
};

/// A pointer the VM does not interpret (the VM itself for ctx builtins, a
/// CUDA-graph cache, a user handle). `deleter` (may be null) frees it.
class OpaqueObj : public Object {
public:
  OpaqueObj(void *ptr, llvm::StringRef typeKey, void (*deleter)(void *))
      : Object(ValueKind::Opaque), ptr(ptr), typeKey(typeKey.str()), deleter(deleter) {}
  ~OpaqueObj() override {
    if (deleter)
      deleter(ptr);
  }
  static bool classof(const Object *o) { return o->kind() == ValueKind::Opaque; }
  void *ptr;
  std::string typeKey;
  void (*deleter)(void *);
};

// Data types ---------------------------------------------------------------

/// Bool is DLPack code 6 with 8 bits; TVM's `uint1` is read as the same.
DLDataType normalizeDType(DLDataType dt);
bool dtypeEqual(DLDataType a, DLDataType b);
/// "float32", "bool", "bfloat16", "int8x4", ...
std::string dtypeStr(DLDataType dt);
/// Inverse of dtypeStr for lanes 1; fails on an unknown spelling.
llvm::Expected<DLDataType> parseDType(llvm::StringRef text);
/// Bytes per element; 0 when bits is not a multiple of 8 (unsupported).
uint64_t dtypeBytes(DLDataType dt);
/// True for the element types graft stores (see docs/runtime.md).
bool isSupportedDType(DLDataType dt);
std::string deviceStr(DLDevice dev);

/// Elements in a shape; error on a negative dim or overflow.
llvm::Expected<uint64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape);

} // namespace graft::vm

#endif // GRAFT_VM_VALUE_H
