//===- ir/PrintImpl.h - Internals of the TVMScript printer ------*- C++ -*-===//
//
// Shared by ir/Printer.cpp (module, functions, bindings), ir/PrintExpr.cpp
// (expressions, calls, constants, attribute values), ir/PrintStructInfo.cpp
// and ir/PrintPrimFunc.cpp. Not part of the public API: use ir/Printer.h.
//
// One ScriptPrinter prints one top-level item at a time. Names are unique
// within a top-level function (nested functions included), so the text never
// relies on Python shadowing and re-parsing gives the same names back: a
// printed name is a fixpoint of the renaming.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_IR_PRINTIMPL_H
#define GRAFT_IR_PRINTIMPL_H

#include "ir/DenseId.h"
#include "ir/Expr.h"
#include "ir/Module.h"
#include "ir/Printer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace graft {
namespace printer {

/// Gives every Relax var and TIR var of one function a unique identifier,
/// TVM style: the hint if free, else `hint_1`, `hint_2`, ... Keywords and
/// the script prefixes (R, T, I, cls, the module name) are never handed out.
class NameTable {
public:
  NameTable() { reset({}); }
  /// Forgets every name; `moduleName` stays reserved.
  void reset(llvm::StringRef moduleName);
  /// The name of `n` (a VarNode or TirVarNode), giving it one from `hint`
  /// on first sight.
  template <typename V> llvm::StringRef nameOf(const V *n, llvm::StringRef hint) {
    return nameOfId(n->id, hint);
  }
  /// Makes room for `n` names.
  void reserve(size_t n);
  /// Starts loading the slot where `hint` would be claimed when that is a
  /// slot of the hashed set (a name without a number at its end): its
  /// probes land at random in a table that can outgrow the cache, so the
  /// printer asks for each slot a few bindings early.
  void prefetch(llvm::StringRef hint) const {
    // A name ending in a digit is nearly always a numbered one (a wrong
    // guess only costs the prefetch).
    if (hint.empty() || hint.back() < '0' || hint.back() > '9')
      __builtin_prefetch(&slots_[hashName(hint) & (slots_.size() - 1)]);
  }

private:
  llvm::StringRef nameOfId(uint32_t id, llvm::StringRef hint);
  /// Claims a name from `hint`; returns its index in claimed_.
  uint32_t claim(llvm::StringRef hint);

  /// Copies `s` into alloc_.
  llvm::StringRef keep(llvm::StringRef s);

  // The set of names taken is two structures, chosen by the name's text:
  //
  // - A name that ends in a decimal number (`v123`, `lv_4`: a non-empty
  //   base, digits without a leading zero, below kMaxNumbered) is kept by
  //   its base, in a DenseIdMap indexed by the number. A large function's
  //   vars are nearly all such names (`v0` .. `v199999`), claimed in
  //   order, so the probes walk a few pages sequentially instead of landing
  //   at random in a table of megabytes: at 200k bindings that table (4 MiB)
  //   left the cache that held it at 100k, and the printer's time grew
  //   faster than the function (docs/performance.md).
  // - Every other name goes to a compact open-addressing table: 8 bytes per
  //   slot (32 bits of the name's hash, the index in claimed_ + 1; 0 =
  //   empty), so the name itself is read only on a full hash match.
  struct Claimed {
    llvm::StringRef name; ///< In alloc_ or static.
    /// The next suffix to try for this base (keeps claiming O(1)
    /// amortized when 200k vars share one hint).
    unsigned nextSuffix;
  };
  static constexpr uint32_t kMaxNumbered = 1u << 24;
  /// Splits `s` into a base and its number when it is a numbered name.
  static bool splitNumbered(llvm::StringRef s, llvm::StringRef &base, uint32_t &number);
  /// The index in claimed_ + 1 of `s`, or 0 when it is free.
  uint32_t find(llvm::StringRef s);
  /// Adds a name known to be free (`kept` outlives the table's use).
  uint32_t addName(llvm::StringRef kept);
  /// addName for a name that is not numbered, whose hash is `hash`.
  uint32_t addHashed(llvm::StringRef kept, uint32_t hash);
  /// The numbered names of `base`; null if there are none and not `create`.
  DenseIdMap<uint32_t> *numberedOf(llvm::StringRef base, bool create);
  static uint32_t hashName(llvm::StringRef s);
  /// The slot holding `s`, or the empty slot where it would go.
  uint64_t *findSlot(llvm::StringRef s, uint32_t hash);
  void growSlots(size_t minSlots);

  /// Holds the names: one bump allocation each instead of a malloc.
  llvm::BumpPtrAllocator alloc_;
  std::vector<Claimed> claimed_;
  std::vector<uint64_t> slots_;
  /// Names in slots_.
  size_t numHashed_ = 0;
  llvm::StringMap<std::unique_ptr<DenseIdMap<uint32_t>>> numbered_;
  /// The base asked for last (a key of numbered_) and its map.
  llvm::StringRef lastBase_;
  DenseIdMap<uint32_t> *lastNumbered_ = nullptr;
  /// Index in claimed_ + 1 by the vars' DenseIds; the ids named since the
  /// last reset, to forget them without freeing the pages.
  DenseIdMap<uint32_t> names_;
  std::vector<uint32_t> named_;
};

/// Writes `s` as a double-quoted Python string literal with escapes.
void printQuoted(llvm::raw_ostream &os, llvm::StringRef s);
/// `R.device_mesh((2, 2), <rangePrefix>Range(0, 4))` or with its device ids.
void printDeviceMesh(llvm::raw_ostream &os, const DeviceMeshNode &mesh,
                     llvm::StringRef rangePrefix);
/// Shortest decimal text that reads back as exactly `v` (`1.0`, `0.1`,
/// `1e-05`); `"inf"`, `"-inf"`, `"nan"` (quoted) for the non-finite values.
void printDouble(llvm::raw_ostream &os, double v);
/// As printDouble for a float32 value: the shortest text whose double,
/// rounded to float32, is `v`.
void printFloat32(llvm::raw_ostream &os, float v);
/// Writes DataType::str() of `dt`.
void printDType(llvm::raw_ostream &os, DataType dt);
/// The TVMScript spelling of a dtype ("float32", "void" for void).
std::string dtypeSpelling(DataType dt);
/// Whether `ext` carries the struct info ExternFuncNode gives itself when
/// given none (then it prints as its quoted symbol where a callee may be).
bool hasDefaultSInfo(const ExternFuncNode &ext);
/// Whether `c` prints its elements (and then, when distributed, its DTensor
/// struct info): false for missing or malformed data.
bool constantPrintsData(const ConstantNode &c);

/// One step of ScriptPrinter::declareBody: a node to visit as the printer
/// would print it.
struct DeclItem {
  enum Kind : uint8_t { Expr, SInfo, Prim, Attr, Name, Blocks, Bindings, FunctionBody };
  Kind kind;
  uint32_t index; ///< Blocks, Bindings: the block or binding to visit.
  const void *node;
};

class ScriptPrinter {
public:
  ScriptPrinter(const IRModule *module, const PrintOptions &opts);

  //--- Module and functions (Printer.cpp) --------------------------------===//
  void printModule(llvm::raw_ostream &os, const IRModule &m);
  /// A top-level Relax function (in a module, or standalone).
  void printTopFunction(llvm::raw_ostream &os, const FunctionNode &fn, llvm::StringRef name,
                        unsigned indent);

  //--- Expressions (PrintExpr.cpp) ---------------------------------------===//
  void printExpr(llvm::raw_ostream &os, const ExprNode *e);
  void printAttrValue(llvm::raw_ostream &os, const AttrValue &v);
  void printAttrDict(llvm::raw_ostream &os, const AttrDict &d);

  //--- Struct info and PrimExprs (PrintStructInfo.cpp) -------------------===//
  void printSInfo(llvm::raw_ostream &os, const StructInfoNode *s);
  void printPrim(llvm::raw_ostream &os, const PrimExprNode *e);
  /// Whether two struct infos are identical (vars by identity): decides
  /// the hidden annotation of call_tir bindings.
  static bool sameSInfo(const StructInfoNode *a, const StructInfoNode *b);

  //--- PrimFuncs (PrintPrimFunc.cpp) -------------------------------------===//
  void printPrimFunc(llvm::raw_ostream &os, const PrimFuncNode &pf, llvm::StringRef name,
                     unsigned indent);

private:
  // Printer.cpp
  void printFunctionBody(llvm::raw_ostream &os, const FunctionNode &fn, unsigned indent);
  void printSignature(llvm::raw_ostream &os, const FunctionNode &fn, llvm::StringRef name);
  void printDecorator(llvm::raw_ostream &os, const FunctionNode &fn, bool topLevel,
                      unsigned indent);
  void printFuncAttrs(llvm::raw_ostream &os, const FunctionNode &fn, llvm::StringRef name,
                      bool topLevel, unsigned indent);
  void printSeqBlocks(llvm::raw_ostream &os, const SeqExprNode &seq, unsigned indent);
  void printBlock(llvm::raw_ostream &os, const BindingBlockNode &block, unsigned indent);
  void printBinding(llvm::raw_ostream &os, const BindingNode &b, unsigned indent);
  void printIf(llvm::raw_ostream &os, const BindingNode &b, const IfNode &ifNode, unsigned indent);
  void printBranch(llvm::raw_ostream &os, const BindingNode &b, const SeqExprNode &branch,
                   unsigned indent);
  void printNestedFunction(llvm::raw_ostream &os, const BindingNode &b, const FunctionNode &fn,
                           unsigned indent);
  void endLine(llvm::raw_ostream &os, const BindingNode *b);
  bool printsBare(const BindingNode &b);
  /// The annotation a binding of `var` to `value` prints with, or null.
  static const StructInfoNode *shownAnnotation(const VarNode *var, const ExprNode *value);
  void collectUses(const FunctionNode &fn);

  // PrintDeclare.cpp
  /// Declares every TIR var and `cls` that printing the body of `fn` would,
  /// in the order printing would meet them, without printing: the preamble
  /// is then known before the body streams out. Names the body's vars too
  /// (sets bodyNamed_) when the preamble holds a TIR var, whose name
  /// depends on what the body named before it.
  void declareBody(const FunctionNode &fn);
  void walkBody(const FunctionNode &fn, bool naming);
  void declareItem(const DeclItem &item);
  /// Declares a binding of the common form in place; false if it is not one
  /// (then nothing was done).
  bool declareSimpleBinding(const BindingNode &b);
  void declareBinding(const BindingNode &b);
  void declareCall(const CallNode &c);
  void declareExpr(const ExprNode *e);
  void declareSInfo(const StructInfoNode *s);
  /// Records `v` as known, in the preamble when it is met outside the
  /// outermost signature first.
  void noteTirVar(const TirVarNode *v);
  /// noteTirVar, then the name of `v`.
  llvm::StringRef declareTirVar(const TirVarNode *v) {
    noteTirVar(v);
    return names_.nameOf(v, v->name);
  }
  void declareCls();

  // PrintExpr.cpp
  void printCall(llvm::raw_ostream &os, const CallNode &c);
  void printOpCall(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info);
  void printCallTIR(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info);
  void printPrintOrAssert(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info);
  void printHintOnDevice(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info);
  void printGenericOp(llvm::raw_ostream &os, const CallNode &c, const OpInfo &info);
  void printCallArg(llvm::raw_ostream &os, const ExprNode *e, bool first);
  void printSInfoArgs(llvm::raw_ostream &os, const CallNode &c, bool first);
  void printConstant(llvm::raw_ostream &os, const ConstantNode &c);
  void printGlobalVar(llvm::raw_ostream &os, const GlobalVarNode &g);

  // PrintStructInfo.cpp
  void printTensorSInfo(llvm::raw_ostream &os, const TensorSInfoNode &t);
  void printFuncSInfo(llvm::raw_ostream &os, const FuncSInfoNode &f);
  void printDim(llvm::raw_ostream &os, const PrimExprNode *e);
  void printTirVar(llvm::raw_ostream &os, const TirVarNode *v);
  void printVDevice(llvm::raw_ostream &os, const VDeviceNode &vd);
  void printDTensorSInfo(llvm::raw_ostream &os, const DTensorSInfoNode &d);
  /// `"mesh[0]"` for a mesh of the module's global infos, else the mesh
  /// written out (`R.device_mesh((2,), R.Range(0, 2))`).
  void printMeshRef(llvm::raw_ostream &os, const DeviceMeshNode *mesh);

  // PrintPrimFunc.cpp
  void printTirDim(llvm::raw_ostream &os, const PrimExprNode *e);
  void printPrimFuncBody(llvm::raw_ostream &os, const PrimFuncNode &pf, unsigned indent);

  //--- State -------------------------------------------------------------===//
  const IRModule *module_;
  PrintOptions opts_;
  NameTable names_;

  /// How a TIR var became known in the current top-level function.
  enum class TirState : uint8_t { Signature, Declared };
  llvm::DenseMap<const TirVarNode *, TirState> tirVars_;
  /// True while printing the outermost signature: new TIR vars there are
  /// defined by it and PrimExprs holding vars print as strings.
  bool inSignature_ = false;
  /// Body-first TIR vars and the `cls = Module` alias, in first-use order:
  /// the preamble of the top-level function (null stands for `cls`).
  llvm::SmallVector<const TirVarNode *, 8> preamble_;
  bool clsDeclared_ = false;
  /// Vars referenced anywhere in the current top-level function; computed
  /// lazily (only a void binding needs it, to print a bare statement).
  llvm::DenseSet<const VarNode *> usedVars_;
  bool usesCollected_ = false;
  const FunctionNode *topFunction_ = nullptr;

  /// declareBody's work list (an explicit stack: nesting depth is the
  /// input's), and the children of the item in hand, in print order.
  std::vector<DeclItem> declStack_;
  llvm::SmallVector<DeclItem, 16> declChildren_;
  /// Struct infos declared lately (a direct-mapped cache): the parser shares
  /// one node among the bindings with the same annotation, and a second
  /// visit of a node can declare nothing new.
  static constexpr size_t kSeenSInfos = 64;
  const StructInfoNode *seenSInfo_[kSeenSInfos] = {};
  static size_t seenSlot(const StructInfoNode *s) {
    return (reinterpret_cast<uintptr_t>(s) / alignof(std::max_align_t)) % kSeenSInfos;
  }
  /// Whether declareBody's walk names vars, and whether it named the body.
  bool declNaming_ = false;
  bool bodyNamed_ = false;
};

} // namespace printer
} // namespace graft

#endif // GRAFT_IR_PRINTIMPL_H
