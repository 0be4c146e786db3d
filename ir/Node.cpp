//===- ir/Node.cpp - Node destruction by kind -------------------------------===//
//
// Nodes have no vtable: destroy() switches on the kind tag to run the
// concrete destructor. The cases come from ir/NodeKinds.def.
//
//===----------------------------------------------------------------------===//

#include "ir/Attrs.h"
#include "ir/Expr.h"
#include "ir/IndexMap.h"
#include "ir/Module.h"
#include "ir/PrimExpr.h"
#include "ir/StructInfo.h"

#include "llvm/Support/ErrorHandling.h"

using namespace graft;

void graft::reportCorruptNode(const char *what) {
  llvm::report_fatal_error(what, /*gen_crash_diag=*/false);
}

namespace {
/// The bytes of `node`'s block: the object and, for a class with a tail
/// (ir/Expr.h's create()), the tail.
template <typename T> size_t blockBytes(const T *node) {
  if constexpr (requires { node->tailBytes(); })
    return sizeof(T) + node->tailBytes();
  else
    return sizeof(T);
}

template <typename T> void destroyAs(const Node *node) {
  auto *object = const_cast<T *>(static_cast<const T *>(node));
  size_t bytes = blockBytes(object);
  object->~T();
  freeNodeMemory(object, bytes);
}
} // namespace

void Node::destroy() const {
  switch (kind_) {
#define GRAFT_NODE(KIND, CLASS)                                                                    \
  case NodeKind::KIND:                                                                             \
    return destroyAs<CLASS>(this);
#include "ir/NodeKinds.def"
  }
  reportCorruptNode("Node::destroy: unknown node kind");
}
