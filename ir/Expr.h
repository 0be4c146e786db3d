//===- ir/Expr.h - Relax expressions, bindings and blocks -------*- C++ -*-===//
//
// The Relax node set of TVM `include/tvm/relax/expr.h`. Every expression carries its
// struct info (set by the constructor or by the BlockBuilder, never changed
// after the node is published) and an optional source location used by
// diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_EXPR_H
#define GRAFT_IR_EXPR_H

#include "ir/Attrs.h"
#include "ir/DataType.h"
#include "ir/DenseId.h"
#include "ir/Node.h"
#include "ir/PrimExpr.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace graft {

struct OpInfo;

class ExprNode : public Node {
public:
  /// Null only for Op, and transiently for a Call or If the BlockBuilder has
  /// not normalized yet.
  StructInfo sinfo;
  llvm::SMLoc loc;

  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::FirstExpr && n->getKind() <= NodeKind::LastExpr;
  }

protected:
  ExprNode(NodeKind kind, StructInfo sinfo = nullptr) : Node(kind), sinfo(std::move(sinfo)) {}
};

/// A var's name: a StringRef to NUL-terminated characters that the VarNode
/// keeps right after itself, in the node's own allocation. It converts to
/// std::string where one is wanted.
class VarName : public llvm::StringRef {
public:
  VarName() = default;
  VarName(const char *chars, size_t size) : llvm::StringRef(chars, size) {}
  const char *c_str() const { return data(); }
  operator std::string() const { return str(); }
  friend std::string operator+(const VarName &a, const char *b) { return a.str() + b; }
  friend std::string operator+(const VarName &a, const std::string &b) { return a.str() + b; }
  friend std::string operator+(const char *a, const VarName &b) { return a + b.str(); }
  friend std::string operator+(const std::string &a, const VarName &b) { return a + b.str(); }
};

/// A Relax variable. Identity is the node itself; `name` is only a hint.
/// One allocation holds the node and its name (create()), so that a binding's
/// var is one small block: the walks of a large function read every var.
class VarNode : public ExprNode {
public:
  /// Index of the walks' side tables (ir/DenseId.h). Before the name, so
  /// that it shares a cache line with the kind that walks read first.
  DenseId id;
  VarName name;
  static VarNode *create(llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc = {});
  bool isDataflow() const { return getKind() == NodeKind::DataflowVar; }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Var || n->getKind() == NodeKind::DataflowVar;
  }
  /// The name after the node (create()), its NUL included.
  size_t tailBytes() const { return name.size() + 1; }

protected:
  VarNode(NodeKind kind, VarName name, StructInfo sinfo, llvm::SMLoc loc)
      : ExprNode(kind, std::move(sinfo)), name(name) {
    this->loc = loc;
  }
  /// A T (VarNode or DataflowVarNode) with `name` copied after it.
  template <typename T>
  static T *createNamed(NodeKind kind, llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc);
};
using Var = Ref<VarNode>;

class DataflowVarNode : public VarNode {
public:
  static DataflowVarNode *create(llvm::StringRef name, StructInfo sinfo, llvm::SMLoc loc = {});
  static bool classof(const Node *n) { return n->getKind() == NodeKind::DataflowVar; }

private:
  friend class VarNode;
  DataflowVarNode(NodeKind kind, VarName name, StructInfo sinfo, llvm::SMLoc loc)
      : VarNode(kind, name, std::move(sinfo), loc) {}
};

/// Dense host tensor data, shared between constants that hold the same array.
struct TensorData {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes; ///< Row-major; bool: one byte per element.
  int64_t numElements() const;
};

class ConstantNode : public ExprNode {
public:
  std::shared_ptr<const TensorData> data;
  /// Struct info defaults to Tensor(shape of data, dtype).
  ConstantNode(std::shared_ptr<const TensorData> data, StructInfo sinfo = nullptr);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Constant; }
};

class ShapeExprNode : public ExprNode {
public:
  std::vector<PrimExpr> values;
  explicit ShapeExprNode(std::vector<PrimExpr> values);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::ShapeExpr; }
};

class PrimValueNode : public ExprNode {
public:
  PrimExpr value;
  explicit PrimValueNode(PrimExpr value);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimValue; }
};

class StringImmNode : public ExprNode {
public:
  std::string value;
  explicit StringImmNode(std::string value);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::StringImm; }
};

class DataTypeImmNode : public ExprNode {
public:
  DataType value;
  explicit DataTypeImmNode(DataType value);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::DataTypeImm; }
};

class TupleNode : public ExprNode {
public:
  std::vector<Expr> fields;
  /// Struct info is the tuple of the fields' when every field has one.
  explicit TupleNode(std::vector<Expr> fields);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Tuple; }
};

class TupleGetItemNode : public ExprNode {
public:
  Expr tuple;
  int index;
  TupleGetItemNode(Expr tuple, int index);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::TupleGetItem; }
};

/// The arguments and the sinfo_args lie after the node, in its own
/// allocation (create()): no separate array per call, and a binding's call
/// is one block.
class CallNode : public ExprNode {
public:
  Expr op; ///< Op, GlobalVar, ExternFunc or a Var (closure call).
  llvm::ArrayRef<Expr> args;
  Attrs attrs; ///< Null: none.
  llvm::ArrayRef<StructInfo> sinfoArgs;
  static CallNode *create(Expr op, std::vector<Expr> args, Attrs attrs = nullptr,
                          std::vector<StructInfo> sinfoArgs = {}, StructInfo sinfo = nullptr);
  ~CallNode();
  /// The registry entry when the callee is an Op, else null.
  const OpInfo *opInfo() const;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Call; }
  /// The arguments and sinfo_args after the node (create()).
  size_t tailBytes() const {
    return args.size() * sizeof(Expr) + sinfoArgs.size() * sizeof(StructInfo);
  }

private:
  CallNode(Expr op, std::vector<Expr> &args, Attrs attrs, std::vector<StructInfo> &sinfoArgs,
           StructInfo sinfo, void *tail);
};

class SeqExprNode;
using SeqExpr = Ref<SeqExprNode>;

class IfNode : public ExprNode {
public:
  Expr cond;
  SeqExpr thenBranch, elseBranch;
  IfNode(Expr cond, SeqExpr thenBranch, SeqExpr elseBranch, StructInfo sinfo = nullptr);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::If; }
};

//===----------------------------------------------------------------------===//
// Bindings and blocks.
//===----------------------------------------------------------------------===//

class BindingNode : public Node {
public:
  Var var;
  Expr value;
  llvm::SMLoc loc;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::VarBinding || n->getKind() == NodeKind::MatchCast;
  }

protected:
  BindingNode(NodeKind kind, Var var, Expr value, llvm::SMLoc loc)
      : Node(kind), var(std::move(var)), value(std::move(value)), loc(loc) {}
};
using Binding = Ref<BindingNode>;

class VarBindingNode : public BindingNode {
public:
  VarBindingNode(Var var, Expr value, llvm::SMLoc loc = {})
      : BindingNode(NodeKind::VarBinding, std::move(var), std::move(value), loc) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::VarBinding; }
};

/// `var = R.match_cast(value, sinfo)`: a runtime check that also defines the
/// symbolic vars first met (bare) in `sinfo`. var's struct info is `sinfo`.
class MatchCastNode : public BindingNode {
public:
  StructInfo castSInfo;
  MatchCastNode(Var var, Expr value, StructInfo castSInfo, llvm::SMLoc loc = {})
      : BindingNode(NodeKind::MatchCast, std::move(var), std::move(value), loc),
        castSInfo(std::move(castSInfo)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::MatchCast; }
};

/// A BindingBlock or, with `isDataflow`, a DataflowBlock.
class BindingBlockNode : public Node {
public:
  std::vector<Binding> bindings;
  bool isDataflow;
  llvm::SMLoc loc;
  BindingBlockNode(std::vector<Binding> bindings, bool isDataflow, llvm::SMLoc loc = {})
      : Node(NodeKind::BindingBlock), bindings(std::move(bindings)), isDataflow(isDataflow),
        loc(loc) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::BindingBlock; }
};
using BindingBlock = Ref<BindingBlockNode>;

class SeqExprNode : public ExprNode {
public:
  std::vector<BindingBlock> blocks;
  Expr body;
  SeqExprNode(std::vector<BindingBlock> blocks, Expr body, StructInfo sinfo = nullptr)
      : ExprNode(NodeKind::SeqExpr, std::move(sinfo)), blocks(std::move(blocks)),
        body(std::move(body)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::SeqExpr; }
};

//===----------------------------------------------------------------------===//
// Functions and global references.
//===----------------------------------------------------------------------===//

class FunctionNode : public ExprNode {
public:
  std::vector<Var> params;
  SeqExpr body;
  StructInfo retSInfo;
  bool isPure;
  Attrs attrs; ///< DictAttrs; null when empty.
  /// Set by the parser from `check_well_formed=False`; printed back. A pass
  /// that rebuilds a function passes the original's on.
  bool checkWellFormed = true;
  /// The struct info is FuncSInfo(param sinfo, retSInfo, isPure).
  FunctionNode(std::vector<Var> params, SeqExpr body, StructInfo retSInfo, bool isPure, Attrs attrs,
               llvm::SMLoc loc = {}, bool checkWellFormed = true);
  const AttrValue *attr(llvm::StringRef key) const { return attrs ? attrs->lookup(key) : nullptr; }
  /// The `global_symbol` attribute, or "" for a private/nested function.
  llvm::StringRef globalSymbol() const;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Function; }
};
using Function = Ref<FunctionNode>;

class ExternFuncNode : public ExprNode {
public:
  std::string symbol;
  Attrs attrs;
  /// Struct info defaults to the opaque, impure FuncSInfo deriving its result
  /// from sinfo_args (kInferBySInfoArgs).
  explicit ExternFuncNode(std::string symbol, StructInfo sinfo = nullptr, Attrs attrs = nullptr);
  static bool classof(const Node *n) { return n->getKind() == NodeKind::ExternFunc; }
};

/// A module-level function name. Names matter for equality (TVM `src/node/structural_equal.cc`).
class GlobalVarNode : public ExprNode {
public:
  std::string name;
  GlobalVarNode(std::string name, StructInfo sinfo = nullptr)
      : ExprNode(NodeKind::GlobalVar, std::move(sinfo)), name(std::move(name)) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::GlobalVar; }
};
using GlobalVar = Ref<GlobalVarNode>;

/// Gives a forward-declared GlobalVar the struct info of its definition, as
/// TVM does when a module defines a function it declared first. The one
/// update of a published node: every call already built on the declaration
/// sees the definition's signature.
void updateDeclaredSInfo(const GlobalVarNode &gv, StructInfo sinfo);

/// A registered (or, when annotated, unknown) operator. One node per name.
class OpNode : public ExprNode {
public:
  const OpInfo *info;
  explicit OpNode(const OpInfo *info) : ExprNode(NodeKind::Op), info(info) {}
  llvm::StringRef name() const;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Op; }
};
using Op = Ref<OpNode>;

//===----------------------------------------------------------------------===//
// Small queries used everywhere.
//===----------------------------------------------------------------------===//

/// TVM's LeafExpr: Var, DataflowVar, Constant, ShapeExpr, PrimValue,
/// StringImm, DataTypeImm.
inline bool isLeaf(const ExprNode *e) {
  return e->getKind() >= NodeKind::FirstLeaf && e->getKind() <= NodeKind::LastLeaf;
}
/// TVM's IsLeafOrTuple: a leaf, GlobalVar, ExternFunc, Op or Tuple.
bool isLeafOrTuple(const ExprNode *e);

/// Builders with the struct info the node's constructor implies.
Expr primValue(PrimExpr value);
Expr primValueInt(int64_t value);
Expr stringImm(std::string value);
Expr dataTypeImm(DataType dtype);
Expr shapeExpr(std::vector<PrimExpr> values);
Expr tupleExpr(std::vector<Expr> fields);

/// `e` located at `loc`, for a call or tuple built by a helper that takes no
/// location. A node nobody else holds yet gets the location in place; a
/// shared Call, Tuple, TupleGetItem or If is copied. Any other shared node
/// (a var, a constant, a function) keeps the location of its definition
/// and is returned as it is.
Expr withLoc(Expr e, llvm::SMLoc loc);

} // namespace graft

#endif // GRAFT_IR_EXPR_H
