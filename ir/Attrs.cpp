//===- ir/Attrs.cpp ---------------------------------------------------------===//

#include "ir/Attrs.h"
#include "ir/IndexMap.h"
#include "ir/StructInfo.h"

using namespace graft;

AttrValue AttrValue::sinfo(Ref<StructInfoNode> s) {
  return AttrValue(Storage(std::in_place_index<9>, Ref<Node>(s.get())));
}

const StructInfoNode *AttrValue::getSInfo() const {
  return llvm::cast<StructInfoNode>(std::get<9>(storage_).get());
}

AttrValue AttrValue::indexMap(Ref<IndexMapNode> m) {
  return AttrValue(Storage(std::in_place_index<10>, Ref<Node>(m.get())));
}

const IndexMapNode *AttrValue::getIndexMap() const {
  return llvm::cast<IndexMapNode>(std::get<10>(storage_).get());
}

const AttrValue *AttrValue::lookup(llvm::StringRef key) const {
  if (kind() != Kind::Dict)
    return nullptr;
  for (const auto &[k, v] : getDict())
    if (k == key)
      return &v;
  return nullptr;
}

const AttrValue *AttrsNode::lookup(llvm::StringRef key) const {
  for (const auto &[k, v] : entries)
    if (k == key)
      return &v;
  return nullptr;
}

Attrs graft::withAttr(const AttrsNode *attrs, llvm::StringRef key, AttrValue value) {
  AttrDict entries = attrs ? attrs->entries : AttrDict();
  for (auto &[k, v] : entries) {
    if (k == key) {
      v = std::move(value);
      return make<AttrsNode>(std::move(entries));
    }
  }
  entries.emplace_back(key.str(), std::move(value));
  return make<AttrsNode>(std::move(entries));
}

Attrs graft::withoutAttr(const AttrsNode *attrs, llvm::StringRef key) {
  if (!attrs)
    return nullptr;
  AttrDict entries;
  for (const auto &[k, v] : attrs->entries)
    if (k != key)
      entries.emplace_back(k, v);
  if (entries.empty())
    return nullptr;
  return make<AttrsNode>(std::move(entries));
}
