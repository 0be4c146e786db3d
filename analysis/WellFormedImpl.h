//===- analysis/WellFormedImpl.h - The verifier's walk ----------*- C++ -*-===//
//
// Private to analysis/WellFormed*.cpp: the Verifier class whose one walk
// checks the rules of docs/verifier.md. WellFormed.cpp holds the module,
// function and binding level, WellFormedExpr.cpp the expressions and struct
// info.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_ANALYSIS_WELLFORMEDIMPL_H
#define GRAFT_ANALYSIS_WELLFORMEDIMPL_H

#include "analysis/VerifyCache.h"
#include "analysis/WellFormed.h"

#include "ir/DenseId.h"
#include "ir/Op.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace graft {
namespace wellformed {

/// Sort key of a violation: lower ranks are root causes of higher ones.
enum Rank : uint8_t {
  RankScope = 0, ///< Definitions, scoping, module-level consistency.
  RankForm = 1,  ///< Normal form and missing struct info.
  RankOp = 2,    ///< Purity and op-specific checks.
  RankSInfo = 3, ///< Struct-info correctness.
};

/// Keys of the "report once" set: one report per node and rule.
enum OnceKey : unsigned {
  OnceUndefVar,
  OnceUndefDataflowVar,
  OnceDataflowOutside,
  OnceUndefSym,
  OnceSymShared,
  OnceGlobalVar,
  OnceGlobalVarSInfo,
  OnceDefinedTwice,
};

struct RankedViolation {
  Rank rank;
  Violation v;
};

/// The innermost function being checked.
struct FnFrame {
  const FunctionNode *fn = nullptr;
  const VarNode *selfVar = nullptr; ///< The binding var of a local function.
  const BindingNode *impureBinding = nullptr;
  const CallNode *impureCall = nullptr;
};

/// Who owns a parameter or symbolic var (rules 4 and 5).
struct Owner {
  const FunctionNode *top = nullptr;
  llvm::StringRef name;
};

std::string quoted(llvm::StringRef s);
bool isForcePure(const FunctionNode *fn);
/// How a diagnostic names a callee: R.print, cls.f, R.call_packed("sym").
std::string calleeText(const ExprNode *op);
/// "a Call", "an If", ... for messages about misplaced expressions.
const char *kindName(const ExprNode *e);

class Verifier {
public:
  Verifier(const IRModule &module, const VerifyOptions &opts, VerifyCache *cache)
      : mod_(module), opts_(opts), cache_(cache) {
    inferCtx_.module = &module;
  }

  std::vector<Violation> run();

private:
  // Reporting.
  void report(Rank rank, llvm::SMLoc loc, const BindingNode *binding, std::string message,
              std::vector<DiagNote> notes = {});
  /// At the binding being checked (or the function's def when none).
  void reportHere(Rank rank, std::string message) {
    report(rank, hereLoc(), binding_, std::move(message));
  }
  llvm::SMLoc hereLoc() const;
  bool once(const void *key, OnceKey rule) { return reported_.insert({key, rule}).second; }
  std::string inFn() const { return " in function " + quoted(topName_); }
  std::string fnDesc() const;
  std::string bindingDesc() const;

  // Module and functions.
  void checkEntry(const ModuleEntry &entry);
  void reserveFor(const FunctionNode *fn);
  void visitFunction(const FunctionNode *fn, const VarNode *selfVar);
  void checkParam(const VarNode *param);
  void checkPurity(const FnFrame &frame, bool forcePure);

  // Bindings and expressions.
  void visitSeq(const SeqExprNode *seq);
  void visitBlock(const BindingBlockNode *block);
  void visitBinding(const BindingNode *binding);
  void visitVarDef(const VarNode *var, bool isParam);
  void visitExpr(const ExprNode *e);
  void visitLeafOrTuple(const Expr &e, const char *what, size_t index);
  void visitVarUse(const VarNode *var);
  void visitGlobalVar(const GlobalVarNode *gv);
  void visitShapeExpr(const ShapeExprNode *shape);
  void visitCall(const CallNode *call);
  void checkCallOp(const CallNode *call, const OpInfo *info);
  void checkCallSInfo(const CallNode *call, const OpInfo *info);
  void visitIf(const IfNode *ifNode);
  void checkBindingSInfo(const VarBindingNode *binding);

  // Struct info and symbolic vars.
  void visitSInfo(const StructInfoNode *s, bool isDef);
  void visitSInfoUse(const StructInfoNode *s) {
    if (opts_.checkStructInfo && s && s != lastSInfoUse_)
      visitSInfo(s, /*isDef=*/false);
  }
  void visitPrim(const PrimExprNode *e, bool isDef);
  void checkDeferredPrims(size_t mark);
  void useSym(const TirVarNode *v);

  // Scopes.
  struct ScopeMark {
    size_t vars, syms;
  };
  ScopeMark mark() const { return {definedLog_.size(), symLog_.size()}; }
  void restore(ScopeMark m);

  const IRModule &mod_;
  VerifyOptions opts_;
  VerifyCache *cache_;
  InferContext inferCtx_;
  std::vector<RankedViolation> out_;

  // The top-level function being checked.
  const FunctionNode *top_ = nullptr;
  const GlobalVarNode *topGVar_ = nullptr;
  llvm::StringRef topName_;

  // Position in it.
  FnFrame *frame_ = nullptr;
  const BindingNode *binding_ = nullptr;
  llvm::SMLoc fnLoc_;
  bool inDataflow_ = false;
  /// Violations of RankScope so far: a call whose arguments added one is
  /// not re-inferred (its failure would be a cascade).
  size_t scopeErrors_ = 0;
  /// The binding var's struct info, already visited: a call or If whose
  /// struct info is the same node is not visited twice.
  const StructInfoNode *lastSInfoUse_ = nullptr;

  // Scoped definitions, undone through their logs. Keyed by the vars'
  // DenseIds: a 200k-binding function defines 200k vars, and a hash set of
  // that size is probed at random (docs/performance.md).
  DenseIdSet defined_;
  std::vector<const VarNode *> definedLog_;
  DenseIdSet symDefined_;
  std::vector<const TirVarNode *> symLog_;
  /// Compound expressions met at a definition site (`"N-2"` in a parameter's
  /// shape), checked once every var of that site is defined: TVM defines all
  /// of a signature's symbolic vars before it checks any expression.
  std::vector<const PrimExprNode *> deferredPrims_;
  DenseIdSet dataflowDefined_;
  /// What dataflowDefined_ holds, to empty it at the end of each block.
  std::vector<uint32_t> dataflowLog_;
  DenseIdSet recursive_;

  // Module-wide ownership (an Owner with a null `top`: none yet).
  DenseIdMap<Owner> paramOwner_;
  DenseIdMap<Owner> symOwner_;
  llvm::DenseSet<std::pair<const void *, unsigned>> reported_;
};

} // namespace wellformed
} // namespace graft

#endif // GRAFT_ANALYSIS_WELLFORMEDIMPL_H
