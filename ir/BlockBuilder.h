//===- ir/BlockBuilder.h - Emitting and normalizing bindings ----*- C++ -*-===//
//
// The one place where Relax expressions are normalized (TVM `src/relax/ir/block_builder.cc`,
// §2.4): A-normal form (a non-leaf argument is bound to a fresh `lv`/`gv`
// var), struct-info inference of fresh calls, If and SeqExpr struct info
// with out-of-scope symbolic vars erased, merging of adjacent blocks of the
// same kind and dropping of empty ones, and the function return rule.
// The parser and every pass build IR through it.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_BLOCKBUILDER_H
#define GRAFT_IR_BLOCKBUILDER_H

#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "ir/StructInfoAnalysis.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace graft {

class BlockBuilder {
public:
  /// `module` (may be null) provides vdevices to inference.
  explicit BlockBuilder(const IRModule *module = nullptr);
  ~BlockBuilder();

  class FunctionScope;
  class InnerScope;
  class BlockScope;

  /// Opens a function scope: symbolic vars defined by `params` are in scope.
  /// Prefer the RAII FunctionScope, InnerScope and BlockScope below: they
  /// close what they opened on every path, early error returns included.
  void beginFunctionScope(llvm::ArrayRef<Var> params);
  void endFunctionScope();
  /// Opens a nested scope (an If branch): vars bound inside are erased from
  /// the struct info that leaves it.
  void beginInnerScope();
  void endInnerScope();

  void beginBlock(bool isDataflow);
  /// Closes the current block; returns it (possibly empty).
  BindingBlock endBlock();
  bool inDataflowBlock() const;
  /// Room for `n` more bindings in the current block (a mutator rewriting a
  /// block of 200k bindings would otherwise grow it by copying, a 1.6 MB
  /// array the last time).
  void reserveBindings(size_t n);

  /// Normalizes `value` (ANF-lifting non-leaf arguments into the current
  /// block) and binds it to a fresh var named `nameHint` (a DataflowVar
  /// inside a dataflow block). Returns the var.
  llvm::Expected<Var> emit(Expr value, llvm::StringRef nameHint = "", llvm::SMLoc loc = {});
  /// Binds `value` to `var` as given (the caller built the var).
  llvm::Error emitBinding(Binding binding);
  /// Emits a match_cast binding; defines the bare symbolic vars of `sinfo`.
  llvm::Expected<Var> emitMatchCast(Expr value, StructInfo sinfo, llvm::StringRef nameHint = "",
                                    llvm::SMLoc loc = {});

  /// Normalizes an expression: fills struct info of fresh calls (op
  /// inference or callee derivation), ANF-lifts nested non-leaf arguments
  /// into the current block. Leaves a normalized expression unchanged
  /// (same node).
  llvm::Expected<Expr> normalize(Expr e);
  /// Normalizes an argument position: the result is leaf-or-tuple.
  llvm::Expected<Expr> normalizeArgument(Expr e);

  /// Builds SeqExpr(blocks, body) with merged/dropped blocks; a non-leaf
  /// body is emitted into a trailing block first. Struct info: the body's,
  /// erased to the symbolic vars in scope.
  llvm::Expected<SeqExpr> finalizeSeqExpr(std::vector<BindingBlock> blocks, Expr body);

  /// TVM's Function constructor rule (TVM `src/relax/ir/expr.cc`): the annotation is
  /// kept only when it is not a base of the body's erased struct info.
  static StructInfo functionRetSInfo(const StructInfoNode *annotation,
                                     const StructInfoNode *bodySInfo, llvm::ArrayRef<Var> params);

  /// Merges adjacent blocks of the same kind and drops empty ones.
  static std::vector<BindingBlock> mergeBlocks(std::vector<BindingBlock> blocks);

  /// The symbolic vars defined in the current scopes.
  const llvm::DenseSet<const TirVarNode *> &definedTirVars() const;

  /// Fresh name generation for lifted values ("lv", "gv" with a counter).
  std::string freshName(llvm::StringRef hint);

private:
  llvm::Expected<Expr> normalizeCall(const Expr &e);
  llvm::Expected<Expr> normalizeIf(const Expr &e);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The function scope of `params`, open for the object's lifetime.
class BlockBuilder::FunctionScope {
public:
  FunctionScope(BlockBuilder &builder, llvm::ArrayRef<Var> params) : builder_(builder) {
    builder_.beginFunctionScope(params);
  }
  ~FunctionScope() { builder_.endFunctionScope(); }
  FunctionScope(const FunctionScope &) = delete;
  FunctionScope &operator=(const FunctionScope &) = delete;

private:
  BlockBuilder &builder_;
};

/// A nested scope (an If branch), open for the object's lifetime.
class BlockBuilder::InnerScope {
public:
  explicit InnerScope(BlockBuilder &builder) : builder_(builder) { builder_.beginInnerScope(); }
  ~InnerScope() { builder_.endInnerScope(); }
  InnerScope(const InnerScope &) = delete;
  InnerScope &operator=(const InnerScope &) = delete;

private:
  BlockBuilder &builder_;
};

/// A binding block (dataflow or not) that collects the emitted bindings
/// until finish() returns it; one never finished (an error path) is closed
/// and dropped when the object dies.
class BlockBuilder::BlockScope {
public:
  BlockScope(BlockBuilder &builder, bool isDataflow) : builder_(builder) {
    builder_.beginBlock(isDataflow);
  }
  ~BlockScope() {
    if (open_)
      builder_.endBlock();
  }
  BlockScope(const BlockScope &) = delete;
  BlockScope &operator=(const BlockScope &) = delete;

  /// Closes the block and returns it (possibly empty). Call at most once.
  BindingBlock finish() {
    assert(open_ && "BlockScope finished twice");
    open_ = false;
    return builder_.endBlock();
  }

private:
  BlockBuilder &builder_;
  bool open_ = true;
};

} // namespace graft

#endif // GRAFT_IR_BLOCKBUILDER_H
