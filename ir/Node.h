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

#include "ir/NodeMemory.h"

#include "llvm/Support/Casting.h"

#include <cassert>
#include <cstdint>
#include <new>
#include <utility>

namespace graft {

/// One tag per concrete node class, generated from ir/NodeKinds.def. Ranges
/// (First*/Last*) drive classof() of the abstract bases; they follow the
/// kinds so that they do not shift the numbering.
enum class NodeKind : uint8_t {
#define GRAFT_NODE(Kind, Class) Kind,
#include "ir/NodeKinds.def"
#define GRAFT_NODE_RANGE(Name, FirstKind, LastKind) First##Name = FirstKind, Last##Name = LastKind,
#include "ir/NodeKinds.def"
};

/// How many node kinds there are; NodeKind values are 0 .. kNumNodeKinds-1.
inline constexpr unsigned kNumNodeKinds = 0
#define GRAFT_NODE(Kind, Class) +1
#include "ir/NodeKinds.def"
    ;

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

  /// Node memory comes from ir/NodeMemory.h (newNode), never from new/delete.
  static void *operator new(size_t) = delete;
  static void operator delete(void *) = delete;

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

/// Stops the process with `what`: a node whose kind no dispatch knows. This is
/// report_fatal_error, not llvm_unreachable, so a corrupt node or a kind added
/// to the IR without its dispatch fails loudly in Release builds (and in the
/// tests that run there) instead of being undefined behaviour.
[[noreturn]] void reportCorruptNode(const char *what);

/// Constructs a T in node memory (ir/NodeMemory.h) of `bytes` (sizeof(T)
/// plus the tail that `construct(block, tail)` fills), given back if the
/// constructor throws.
template <typename T, typename Construct> T *constructNode(size_t tailBytes, Construct construct) {
  static_assert(alignof(T) <= kNodeAlign && sizeof(T) % kNodeAlign == 0,
                "node memory is aligned to kNodeAlign only");
  void *block = allocateNodeMemory(sizeof(T) + tailBytes);
  try {
    return construct(block, static_cast<char *>(block) + sizeof(T));
  } catch (...) {
    freeNodeMemory(block, sizeof(T) + tailBytes);
    throw;
  }
}

/// A new node with a count of 0. A class that keeps data after the node, in
/// the same allocation (a call's arguments, a var's name: ir/Expr.h), has a
/// `static T *create(...)` that sizes the block (and a `tailBytes()` that
/// tells its size when the node dies); every other class is just its
/// object.
template <typename T, typename... Args> T *newNode(Args &&...args) {
  if constexpr (requires { T::create(std::forward<Args>(args)...); })
    return T::create(std::forward<Args>(args)...);
  else
    return constructNode<T>(
        0, [&](void *block, char *) { return ::new (block) T(std::forward<Args>(args)...); });
}

/// Allocates a node and wraps it; the only way nodes are created.
template <typename T, typename... Args> Ref<T> make(Args &&...args) {
  return Ref<T>(newNode<T>(std::forward<Args>(args)...));
}

/// A node that is still being built: its one owner may set fields that the
/// constructor does not take (a location, a flag, a PrimFunc's parts) until
/// publish() hands it out as an immutable Ref. This, not a const_cast on a
/// published node, is how code fills such fields.
template <typename T> class Draft {
public:
  template <typename... Args>
  explicit Draft(std::in_place_t, Args &&...args) : ptr_(newNode<T>(std::forward<Args>(args)...)) {
    ptr_->retain();
  }
  Draft(const Draft &) = delete;
  Draft &operator=(const Draft &) = delete;
  Draft(Draft &&other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  ~Draft() {
    if (ptr_)
      ptr_->release();
  }

  T *operator->() const { return ptr_; }
  T &operator*() const { return *ptr_; }

  /// The finished node; the draft is empty afterwards.
  Ref<T> publish() {
    Ref<T> out(ptr_);
    std::exchange(ptr_, nullptr)->release();
    return out;
  }

private:
  T *ptr_;
};

/// Starts a Draft: `auto f = draft<PrimFuncNode>(); f->isPrivate = true;
/// return f.publish();`.
template <typename T, typename... Args> Draft<T> draft(Args &&...args) {
  return Draft<T>(std::in_place, std::forward<Args>(args)...);
}

/// make<T>(args...) with the node's source location set: `loc` is a field of
/// every located node class but no constructor parameter of most.
template <typename T, typename Loc, typename... Args> Ref<T> makeAt(Loc loc, Args &&...args) {
  Draft<T> node = draft<T>(std::forward<Args>(args)...);
  node->loc = loc;
  return node.publish();
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
