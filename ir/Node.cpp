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

void Node::destroy() const {
  switch (kind_) {
#define GRAFT_NODE(KIND, CLASS)                                                                    \
  case NodeKind::KIND:                                                                             \
    delete static_cast<const CLASS *>(this);                                                       \
    return;
#include "ir/NodeKinds.def"
  }
  reportCorruptNode("Node::destroy: unknown node kind");
}
