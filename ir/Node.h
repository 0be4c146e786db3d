//===- ir/Node.h - Reference-counted immutable IR nodes ---------*- C++ -*-===//
//
// Every IR object (PrimExpr, StructInfo, Expr, Binding, BindingBlock, ...)
// derives from Node: an intrusive, non-atomic reference count plus a kind tag
// for LLVM-style RTTI (isa/dyn_cast/cast). Nodes are immutable once built and
// shared freely; a pass that changes something builds new nodes. The count is
// non-atomic because one module is only ever touched by one thread.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_NODE_H
#define GRAFT_IR_NODE_H

#include "llvm/Support/Casting.h"

#include <cassert>
#include <cstdint>
#include <utility>

namespace graft {

/// One tag per concrete node class. Ranges (First*/Last*) drive classof()
/// of the abstract bases.
enum class NodeKind : uint8_t {
  // PrimExpr: symbolic integer (and float/bool) scalar expressions.
  IntImm,
  FloatImm,
  TirVar,
  PrimBinary,
  PrimNot,
  PrimCast,
  PrimSelect,
  FirstPrim = IntImm,
  LastPrim = PrimSelect,

  // StructInfo.
  ObjectSInfo,
  PrimSInfo,
  ShapeSInfo,
  TensorSInfo,
  TupleSInfo,
  FuncSInfo,
  FirstSInfo = ObjectSInfo,
  LastSInfo = FuncSInfo,

  // Relax expressions. Var and DataflowVar are adjacent (DataflowVar isa Var).
  Var,
  DataflowVar,
  Constant,
  ShapeExpr,
  PrimValue,
  StringImm,
  DataTypeImm,
  Tuple,
  TupleGetItem,
  Call,
  If,
  SeqExpr,
  Function,
  ExternFunc,
  GlobalVar,
  Op,
  FirstLeaf = Var, ///< Var .. DataTypeImm are TVM's LeafExpr.
  LastLeaf = DataTypeImm,
  FirstExpr = Var,
  LastExpr = Op, // Keep last: the next enumerator follows Op.

  // Bindings and blocks.
  VarBinding,
  MatchCast,
  BindingBlock,

  // Module-level objects.
  PrimFunc,
  VDevice,
  Attrs,
};

class Node {
public:
  explicit Node(NodeKind kind) : kind_(kind) {}
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  NodeKind getKind() const { return kind_; }

  void retain() const { ++refCount_; }
  void release() const {
    assert(refCount_ > 0 && "releasing a dead node");
    if (--refCount_ == 0)
      destroy();
  }
  uint32_t refCount() const { return refCount_; }

protected:
  ~Node() = default;

private:
  /// Dispatches on kind_ to the concrete destructor (no vtable).
  void destroy() const;

  mutable uint32_t refCount_ = 0;
  NodeKind kind_;
};

/// Intrusive strong reference. Null is allowed and means "absent" wherever a
/// field is optional.
template <typename T> class Ref {
public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  Ref(const T *ptr) : ptr_(const_cast<T *>(ptr)) {
    if (ptr_)
      ptr_->retain();
  }
  Ref(const Ref &other) : Ref(other.ptr_) {}
  Ref(Ref &&other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  Ref(const Ref<U> &other) : Ref(static_cast<const T *>(other.get())) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  Ref(Ref<U> &&other) noexcept : ptr_(other.release()) {}
  ~Ref() {
    if (ptr_)
      ptr_->release();
  }

  Ref &operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  const T *get() const { return ptr_; }
  const T *operator->() const {
    assert(ptr_ && "dereferencing a null Ref");
    return ptr_;
  }
  const T &operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  /// Implicit use as a raw pointer keeps isa/dyn_cast and comparisons cheap.
  operator const T *() const { return ptr_; }

  /// Gives up ownership without releasing (for converting moves).
  T *release() { return std::exchange(ptr_, nullptr); }

private:
  T *ptr_ = nullptr;
};

/// Allocates a node and wraps it; the only way nodes are created.
template <typename T, typename... Args> Ref<T> make(Args &&...args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

} // namespace graft

namespace llvm {
// isa/dyn_cast/cast on Ref<T> look through to the raw pointer.
template <typename T> struct simplify_type<graft::Ref<T>> {
  using SimpleType = const T *;
  static SimpleType getSimplifiedValue(const graft::Ref<T> &ref) { return ref.get(); }
};
template <typename T> struct simplify_type<const graft::Ref<T>> {
  using SimpleType = const T *;
  static SimpleType getSimplifiedValue(const graft::Ref<T> &ref) { return ref.get(); }
};
} // namespace llvm

#endif // GRAFT_IR_NODE_H
