//===- ir/Module.h - IRModule and PrimFunc declarations ---------*- C++ -*-===//
//
// An IRModule maps GlobalVars to functions: Relax Functions, ExternFuncs and
// PrimFuncs. A PrimFunc keeps its signature, its leading T.func_attr /
// T.match_buffer statements and its body as a TIR statement tree
// (ir/TirBody.h), or, for a body that tree does not model, as canonical
// tokens (docs/text-format.md, PrimFuncs).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_MODULE_H
#define GRAFT_IR_MODULE_H

#include "ir/Attrs.h"
#include "ir/Expr.h"
#include "ir/StructInfo.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace graft {

namespace tir {
struct Body;
} // namespace tir

/// One parameter of a PrimFunc.
struct PrimParam {
  enum class Kind : uint8_t { Buffer, Handle, Scalar };
  std::string name;
  Kind kind = Kind::Scalar;
  std::vector<PrimExpr> shape; ///< Buffer only.
  DataType dtype;              ///< Buffer element or scalar type.
};

class PrimFuncNode : public Node {
public:
  std::vector<PrimParam> params;
  /// Scalar return type (`-> T.int64`), or void.
  DataType retType;
  Attrs attrs; ///< From T.func_attr; `global_symbol` lives here.
  bool isPrivate = false;
  bool checkWellFormed = true;
  bool isPure = true;
  /// The body after the leading func_attr/match_buffer statements as a
  /// statement tree, shared and immutable; null when it is kept as tokens.
  std::shared_ptr<const tir::Body> body;
  /// Otherwise the body as canonical tokens (comments dropped, whitespace
  /// normalized).
  std::vector<std::string> bodyTokens;
  /// For PrimFuncs graft generates (shape_func, compute_symbolic_expr): the
  /// value they compute, which the printer and the VM use instead of tokens.
  PrimExpr computed;
  /// For generated shape_funcs (`H[slot] = expr`, H the int64 heap buffer
  /// params[0]): the stores in order. Their values read the heap through
  /// `heapLoads` vars only, so every PrimExpr algorithm applies unchanged.
  std::vector<std::pair<int64_t, PrimExpr>> heapStores;
  /// The vars that stand for `H[slot]` in heapStores' values (definitions,
  /// in first-use order). Loads and stores never share a slot (vars are
  /// loaded, composites stored), so binding them on entry is exact.
  std::vector<std::pair<int64_t, TirVar>> heapLoads;
  llvm::SMLoc loc;

  PrimFuncNode() : Node(NodeKind::PrimFunc) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::PrimFunc; }

  /// The Relax FuncStructInfo of a GlobalVar bound to this PrimFunc
  /// (TVM `src/relax/ir/expr.cc`).
  StructInfo relaxSInfo() const;
};
using PrimFunc = Ref<PrimFuncNode>;

/// What a module maps a GlobalVar to.
struct ModuleEntry {
  GlobalVar gvar;
  Ref<Node> func; ///< FunctionNode, ExternFuncNode or PrimFuncNode.

  const FunctionNode *asFunction() const;
  const ExternFuncNode *asExtern() const;
  const PrimFuncNode *asPrimFunc() const;
};

class IRModule {
public:
  /// The class name in the text (`Before`, `Expected`) or "Module".
  std::string name = "Module";
  bool checkWellFormed = true;
  Attrs attrs;
  /// `I.module_global_infos`: key -> list; "vdevice" holds VDeviceNodes.
  std::vector<std::pair<std::string, std::vector<Ref<Node>>>> globalInfos;
  /// Keeps the parsed text alive so diagnostics can point into it.
  std::shared_ptr<llvm::SourceMgr> sources;
  llvm::SMLoc loc;

  /// Functions in insertion order (the printer sorts as TVM does).
  const std::vector<ModuleEntry> &entries() const { return entries_; }
  const ModuleEntry *lookup(llvm::StringRef name) const;
  /// Adds or replaces the entry named gvar->name.
  void add(GlobalVar gvar, Ref<Node> func);
  bool remove(llvm::StringRef name);

  /// The module's vdevices (global_infos["vdevice"]), in order.
  std::vector<VDevice> vdevices() const;

private:
  std::vector<ModuleEntry> entries_;
  llvm::StringMap<size_t> index_;
};

} // namespace graft

#endif // GRAFT_IR_MODULE_H
