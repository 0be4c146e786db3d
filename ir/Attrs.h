//===- ir/Attrs.h - Attribute values of calls, functions, modules -*- C++ -*-===//
//
// One canonical variant for every attribute value that the parser and the
// passes produce. The kind is part of the value: an int 1, a bool True and a
// string "1" never compare equal, as in TVM's structural equality.
//
// Attrs is an ordered list of (name, value). For an op call it holds the op's
// attribute fields in schema order (every field, defaults included, as TVM
// prints them); for an unknown op the keyword arguments as written; for a
// function or module it is TVM's DictAttrs (compared by key, printed in
// insertion order).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_ATTRS_H
#define GRAFT_IR_ATTRS_H

#include "ir/DataType.h"
#include "ir/Node.h"
#include "ir/PrimExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace graft {

class StructInfoNode;
class AttrValue;
class IndexMapNode;

using AttrArray = std::vector<AttrValue>;
using AttrDict = std::vector<std::pair<std::string, AttrValue>>;

class AttrValue {
public:
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    DType,
    Prim,
    Array,
    Dict,
    SInfo,
    IndexMap
  };

  AttrValue() = default;
  static AttrValue none() { return AttrValue(); }
  static AttrValue boolean(bool b) { return AttrValue(Storage(std::in_place_index<1>, b)); }
  static AttrValue integer(int64_t v) { return AttrValue(Storage(std::in_place_index<2>, v)); }
  static AttrValue floating(double v) { return AttrValue(Storage(std::in_place_index<3>, v)); }
  static AttrValue string(std::string s) {
    return AttrValue(Storage(std::in_place_index<4>, std::move(s)));
  }
  static AttrValue dtype(DataType dt) { return AttrValue(Storage(std::in_place_index<5>, dt)); }
  static AttrValue prim(PrimExpr e) {
    return AttrValue(Storage(std::in_place_index<6>, std::move(e)));
  }
  static AttrValue array(AttrArray a) {
    return AttrValue(Storage(std::in_place_index<7>, std::move(a)));
  }
  static AttrValue dict(AttrDict d) {
    return AttrValue(Storage(std::in_place_index<8>, std::move(d)));
  }
  static AttrValue sinfo(Ref<StructInfoNode> s);
  static AttrValue indexMap(Ref<IndexMapNode> m);

  Kind kind() const { return static_cast<Kind>(storage_.index()); }
  bool isNone() const { return kind() == Kind::None; }

  bool getBool() const { return std::get<1>(storage_); }
  int64_t getInt() const { return std::get<2>(storage_); }
  double getFloat() const { return std::get<3>(storage_); }
  const std::string &getString() const { return std::get<4>(storage_); }
  DataType getDType() const { return std::get<5>(storage_); }
  const PrimExpr &getPrim() const { return std::get<6>(storage_); }
  const AttrArray &getArray() const { return std::get<7>(storage_); }
  const AttrDict &getDict() const { return std::get<8>(storage_); }
  const StructInfoNode *getSInfo() const;
  const IndexMapNode *getIndexMap() const;

  /// Looks a key up in a Dict value; null when absent or not a dict.
  const AttrValue *lookup(llvm::StringRef key) const;

private:
  // Struct info is held through a Node pointer to keep this header light.
  using Storage = std::variant<std::monostate, bool, int64_t, double, std::string, DataType,
                               PrimExpr, AttrArray, AttrDict, Ref<Node>, Ref<Node>>;
  explicit AttrValue(Storage s) : storage_(std::move(s)) {}
  Storage storage_;
};

/// Attributes of one call, function or module; immutable and shared.
class AttrsNode : public Node {
public:
  AttrDict entries;
  explicit AttrsNode(AttrDict entries) : Node(NodeKind::Attrs), entries(std::move(entries)) {}

  const AttrValue *lookup(llvm::StringRef key) const;
  bool empty() const { return entries.empty(); }

  static bool classof(const Node *n) { return n->getKind() == NodeKind::Attrs; }
};
using Attrs = Ref<AttrsNode>;

/// A copy of `attrs` with `key` set (replaced in place, or appended).
Attrs withAttr(const AttrsNode *attrs, llvm::StringRef key, AttrValue value);
/// A copy of `attrs` without `key`; null when nothing remains.
Attrs withoutAttr(const AttrsNode *attrs, llvm::StringRef key);

} // namespace graft

#endif // GRAFT_IR_ATTRS_H
