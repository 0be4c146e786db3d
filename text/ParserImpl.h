//===- text/ParserImpl.h - The TVMScript parser's internals -----*- C++ -*-===//
//
// Private to text/Parser.cpp and text/Parse*.cpp. The parser works in two
// steps per statement: tokens -> a small syntax tree (Ast, pooled and reset
// per statement), then the tree is evaluated in context (an op parameter
// kind, an attribute kind, struct info, a symbolic expression), because the
// same text (`0`, `"float32"`, `[1, 2]`) means different IR by position.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TEXT_PARSERIMPL_H
#define GRAFT_TEXT_PARSERIMPL_H

#include "ir/BlockBuilder.h"
#include "ir/Diagnostics.h"
#include "ir/Expr.h"
#include "ir/IndexMap.h"
#include "ir/Module.h"
#include "ir/Op.h"
#include "text/Lexer.h"
#include "text/Parser.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace graft {
namespace parse {

enum class AK : uint8_t {
  Name, ///< `x` or a dotted path `R.nn.conv2d` (text holds the path).
  Int,
  Float,
  Str,
  True,
  False,
  None,
  Attr,    ///< base.attr where base is not a plain name; kids[0] = base.
  Call,    ///< kids[0] = callee, then args; Keyword kids for kwargs.
  Keyword, ///< text = name, kids[0] = value.
  Tuple,
  List,
  Dict,      ///< kids alternate key, value.
  Subscript, ///< kids[0] = base, kids[1] = index.
  BinOp,     ///< op = operator token; kids[0], kids[1].
  Unary,     ///< op = '-', '+', '~' or Name ('not'); kids[0].
  BoolOp,    ///< text = "and"/"or".
  Lambda,    ///< kids: the parameter Names, then the body.
  Slice,     ///< `a:b` in a subscript (TIR regions); kids: begin, end (None if absent).
};

struct Ast {
  AK kind = AK::Name;
  Tok op = Tok::Eof;
  uint32_t tok = 0;   ///< The token that locates it.
  uint32_t first = 0; ///< Children: kids_[first, first + count).
  uint32_t count = 0;
  llvm::StringRef text;
};

/// What a name is bound to.
struct Sym {
  enum Kind : uint8_t { RelaxVar, Tir, ModuleAlias };
  Kind kind = RelaxVar;
  Ref<Node> node; ///< VarNode or TirVarNode; null for ModuleAlias.
};

/// How symbolic names in struct info are treated.
struct SInfoCtx {
  bool allowStrings = false; ///< Function signature: "n", "2 * n".
  bool autoDefine = false;   ///< Parameters: unknown names become new vars.
  /// A bare integer literal's type: int64 in Relax, int32 in TIR buffer
  /// shapes (as TVM parses and prints them).
  DataType intLiteral = DataType::int64();
  /// Generated PrimFunc bodies only: resolves a subscript (`H[T.int64(k)]`,
  /// a heap load); without it a subscript is not a symbolic expression.
  llvm::function_ref<llvm::Expected<PrimExpr>(uint32_t)> subscript = nullptr;
};

/// A call's syntax split for evaluation: its callee's name and its
/// positional and keyword argument nodes (callArgs).
struct CallParts {
  uint32_t call = 0;
  llvm::StringRef name;
  llvm::SmallVector<uint32_t, 4> pos, kw;
};

/// A parsed @T.prim_func and the name it is declared under.
struct NamedPrimFunc {
  std::string name;
  PrimFunc func;
};

/// The leading declarations of a PrimFunc body: T.func_attr entries and
/// symbolic vars with the tokens of a one-var declaration of each.
struct PrimDecls {
  AttrDict attrs;
  std::vector<std::pair<TirVar, std::vector<std::string>>> vars;
};

/// Which syntax node fills each parameter of an op call (VarArgs: several;
/// inline storage, this runs once per binding) and its struct info
/// arguments (sinfo_args, out_sinfo).
struct OpArgMatch {
  llvm::SmallVector<llvm::SmallVector<uint32_t, 1>, 8> filled;
  llvm::SmallVector<bool, 8> given;
  std::vector<StructInfo> sargs;
};

/// An op call's evaluated arguments and attributes.
struct OpOperands {
  std::vector<Expr> args;
  AttrDict attrs;
  bool anyAttr = false;
};

/// `@name` or `@name(...)`: its `@` token, name and syntax tree.
struct Decorator {
  size_t tok = 0;
  llvm::StringRef name;
  uint32_t ast = 0;
};

/// A dataflow block before it is parsed: its assignment target tokens in
/// order, its R.output statement and the names R.output lists.
struct DataflowScan {
  std::vector<uint32_t> targets;
  size_t outputStmt = 0;
  llvm::SmallVector<std::pair<llvm::StringRef, size_t>, 8> outputs;
};

class Parser {
public:
  Parser(llvm::StringRef buffer, std::vector<Token> tokens)
      : buf_(buffer), toks_(std::move(tokens)) {}

  llvm::Error parseFile(std::vector<std::unique_ptr<IRModule>> &modules);

  //===--- Tokens ---------------------------------------------------------===//
  const Token &tok(size_t i) const { return toks_[std::min(i, toks_.size() - 1)]; }
  const Token &cur() const { return tok(pos_); }
  Tok kind() const { return cur().kind; }
  Tok peekKind(size_t n) const { return tok(pos_ + n).kind; }
  llvm::StringRef text(size_t i) const {
    const Token &t = tok(i);
    return buf_.substr(t.offset, t.length);
  }
  llvm::StringRef curText() const { return text(pos_); }
  llvm::SMLoc locOf(size_t i) const {
    return llvm::SMLoc::getFromPointer(buf_.data() + std::min<size_t>(tok(i).offset, buf_.size()));
  }
  llvm::SMLoc loc() const { return locOf(pos_); }
  bool isName(llvm::StringRef s) const { return kind() == Tok::Name && curText() == s; }
  bool consume(Tok k) {
    if (kind() != k)
      return false;
    ++pos_;
    return true;
  }
  llvm::Error expect(Tok k, llvm::StringRef what);
  llvm::Error error(size_t tokIdx, const llvm::Twine &msg) const {
    return diagError(locOf(tokIdx), msg);
  }
  llvm::Error errorHere(const llvm::Twine &msg) const { return error(pos_, msg); }
  /// Skips one logical statement and its indented block, if any.
  void skipStatement();
  /// The position of the token after the block starting at the Indent at `i`.
  size_t skipBlockFrom(size_t i) const;

  //===--- Syntax trees (ParseExpr.cpp) -----------------------------------===//
  void resetAst() {
    ast_.clear();
    kids_.clear();
  }
  llvm::Expected<uint32_t> parseExpr();
  llvm::Expected<uint32_t> parseExprList(); ///< `a, b` without brackets -> Tuple.
  const Ast &node(uint32_t i) const { return ast_[i]; }
  uint32_t kid(uint32_t n, uint32_t i) const { return kids_[ast_[n].first + i]; }
  llvm::SMLoc astLoc(uint32_t n) const { return locOf(ast_[n].tok); }
  llvm::Error astError(uint32_t n, const llvm::Twine &msg) const {
    return diagError(astLoc(n), msg);
  }
  /// String value of a Str node (escapes decoded).
  llvm::StringRef strValue(uint32_t n);
  llvm::Expected<int64_t> intValue(uint32_t n);
  llvm::Expected<double> floatValue(uint32_t n);
  /// An Int literal, possibly negated.
  bool isIntLit(uint32_t n) const;
  bool isNumLit(uint32_t n) const;
  /// Splits a call's children into positional and keyword arguments.
  void callArgs(uint32_t call, llvm::SmallVectorImpl<uint32_t> &pos,
                llvm::SmallVectorImpl<uint32_t> &kw) const;

  //===--- Evaluation (ParseExpr.cpp, ParseCall.cpp) ----------------------===//
  enum class Cls : uint8_t { Relax, Prim, PyNum, PyBool, Other };
  Cls classify(uint32_t n) const;
  llvm::Expected<Expr> toExpr(uint32_t n);
  /// A call at the top of a binding: `annotated` allows unknown ops and gives
  /// a fresh call its struct info.
  llvm::Expected<Expr> toCall(uint32_t n, StructInfo annotation);
  llvm::Expected<Expr> opCall(uint32_t n, const OpInfo *info, llvm::StringRef name,
                              StructInfo annotation);
  llvm::Expected<Expr> unknownOpCall(uint32_t n, llvm::StringRef name, StructInfo annotation);
  /// Whether `name` is one of the R.* builtins that builtinCall evaluates.
  static bool isBuiltinCall(llvm::StringRef name);
  llvm::Expected<Expr> builtinCall(uint32_t n, llvm::StringRef name, StructInfo annotation);
  llvm::Expected<uint32_t> soleArg(const CallParts &c, llvm::StringRef what);
  /// R.str, R.ExternFunc, R.dtype.
  llvm::Expected<Expr> stringBuiltin(const CallParts &c);
  /// R.ExternFunc("symbol"), with R.Callable struct info or not.
  llvm::Expected<Expr> externFuncCall(const CallParts &c);
  llvm::Expected<Expr> packedCall(const CallParts &c, StructInfo annotation);
  llvm::Expected<Expr> emitWithSInfoCall(const CallParts &c, StructInfo annotation);
  llvm::Expected<OpArgMatch> matchOpArgs(uint32_t n, const OpInfo *info, llvm::StringRef name);
  /// R.hint_on_device's device argument, `R.device(type, index)` or
  /// `tvm.cpu()`, `R.cuda(1)`, ...: fills the device_type and index attrs.
  llvm::Error hintOnDeviceArgs(const OpInfo *info, CallParts &c, OpArgMatch &m);
  /// `A.dtype.bits`, `A.ndim`, ... of a Relax var A: the relax.inspect
  /// call; None when the name is not such a field.
  llvm::Optional<Expr> tensorField(uint32_t n);
  /// `A.shape[i]` / `A.strides[i]`: tensor_shape_i / tensor_stride_i.
  llvm::Optional<llvm::Expected<Expr>> tensorAxisField(uint32_t n);
  /// A synthesized integer literal located at `at` (text must outlive the parser).
  uint32_t syntheticInt(uint32_t at, llvm::StringRef text);
  llvm::Error positionalOutSInfo(const OpInfo *info, CallParts &c, OpArgMatch &m);
  llvm::Error keywordOpArgs(const OpInfo *info, const CallParts &c, OpArgMatch &m);
  llvm::Expected<OpOperands> convertOpArgs(uint32_t n, const OpInfo *info, llvm::StringRef name,
                                           const OpArgMatch &m);
  /// One given argument of a non-attribute parameter; None when it is left out.
  llvm::Expected<llvm::Optional<Expr>> opArgExpr(uint32_t a, const OpParam &p, bool calleeSlot,
                                                 TextForm form);
  llvm::Expected<Expr> constant(uint32_t n);
  llvm::Expected<Expr> convertParam(uint32_t n, ParamKind kind);
  llvm::Expected<AttrValue> toAttr(uint32_t n, AttrKind kind, bool wrapScalar);
  llvm::Expected<AttrValue> toAnyAttr(uint32_t n);
  llvm::Expected<AttrValue> attrArray(uint32_t n);
  llvm::Expected<AttrValue> attrDict(uint32_t n);
  /// A symbolic expression or struct info as an attribute value.
  llvm::Expected<AttrValue> exprAttr(uint32_t n);
  llvm::Expected<AttrValue> intListAttr(uint32_t list, bool wrapScalar);
  llvm::Expected<AttrValue> dtypeAttr(uint32_t n);
  llvm::Expected<AttrValue> indexMapAttr(uint32_t n);
  llvm::Expected<IndexMap> lambdaIndexMap(uint32_t n, DataType indexDType);
  /// A parameter's default as an argument; None when the argument is left out.
  llvm::Expected<llvm::Optional<Expr>> defaultParam(const OpParam &p);
  llvm::Expected<std::vector<StructInfo>> sinfoList(uint32_t n);
  llvm::Expected<Expr> relaxBinary(uint32_t n);
  Expr externFunc(llvm::StringRef sym);

  //===--- Struct info and prims (ParseSInfo.cpp) -------------------------===//
  llvm::Expected<StructInfo> toSInfo(uint32_t n, const SInfoCtx &ctx);
  llvm::Expected<PrimExpr> toPrim(uint32_t n, const SInfoCtx &ctx);
  llvm::Expected<PrimExpr> primString(uint32_t n, const SInfoCtx &ctx);
  llvm::Expected<std::vector<PrimExpr>> primList(uint32_t n, const SInfoCtx &ctx);
  VDevice resolveVDevice(llvm::StringRef spec) const;
  llvm::Expected<PrimExpr> primName(llvm::StringRef name, llvm::SMLoc loc, const SInfoCtx &ctx);
  llvm::Expected<PrimExpr> primUnary(uint32_t n, const SInfoCtx &ctx);
  llvm::Expected<PrimExpr> primBinOp(uint32_t n, const SInfoCtx &ctx);
  llvm::Expected<PrimExpr> primCall(uint32_t n, const SInfoCtx &ctx);
  /// `T.int64(v)`, `T.float32(v)`: a literal of that type or a cast.
  llvm::Expected<PrimExpr> primTyped(DataType dt, uint32_t v, const SInfoCtx &ctx);
  /// T.Not, T.if_then_else / T.Select, T.Cast.
  llvm::Expected<PrimExpr> primIntrinsic(const CallParts &c, const SInfoCtx &ctx);
  /// A bare struct info name: `R.Tensor`, `R.Object`, ...
  llvm::Expected<StructInfo> bareSInfo(uint32_t n);
  llvm::Expected<StructInfo> tensorSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  llvm::Expected<StructInfo> tensorShapeSInfo(uint32_t shape, DataType dt, VDevice vd,
                                              const SInfoCtx &ctx);
  llvm::Expected<StructInfo> shapeSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  llvm::Expected<StructInfo> dtensorSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  /// `R.device_mesh((2, 2), I.Range(0, 4))` (or with a list of device ids).
  llvm::Expected<DeviceMesh> parseDeviceMesh(uint32_t call);
  /// A DTensor's or a distribution attr's mesh: `"mesh[0]"` (a mesh of the
  /// module's global infos) or a mesh written out.
  llvm::Expected<DeviceMesh> meshArg(uint32_t n);
  llvm::Expected<Placement> placementArg(uint32_t n, const DeviceMeshNode &mesh, int ndim);
  llvm::Expected<StructInfo> primSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  llvm::Expected<StructInfo> tupleSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  llvm::Expected<StructInfo> callableSInfoCall(const CallParts &c, const SInfoCtx &ctx);
  /// R.Callable's params: None when absent or None (an opaque signature).
  llvm::Expected<llvm::Optional<std::vector<StructInfo>>> callableParams(int64_t paramsN,
                                                                         const SInfoCtx &ctx);
  /// The value node of keyword `key`, or -1.
  int64_t kwArg(const CallParts &c, llvm::StringRef key) const;
  llvm::Error checkKeywords(const CallParts &c,
                            std::initializer_list<llvm::StringRef> allowed) const;
  /// A dtype argument; void when `node` is -1 (absent).
  llvm::Expected<DataType> dtypeArg(int64_t node);
  /// An ndim argument in [-1, 1024]; -1 when `node` is -1 (absent).
  llvm::Expected<int> ndimArg(int64_t node);

  //===--- Names ----------------------------------------------------------===//
  const Sym *lookup(llvm::StringRef name) const;
  void define(llvm::StringRef name, Sym sym);
  void pushScope() { scopeMarks_.push_back(undo_.size()); }
  void popScope();

  //===--- Statements (Parser.cpp) ----------------------------------------===//
  struct FuncDecl {
    std::string name;
    bool pure = true, isPrivate = false, checkWF = true;
    size_t defTok = 0;
  };
  llvm::Error parseModuleClass(IRModule &mod, bool checkWF);
  llvm::Expected<Decorator> parseDecorator();
  /// One or more decorators; the last one names the item.
  llvm::Expected<Decorator> parseDecorators();
  llvm::Error parseClassHeader(IRModule &mod, bool checkWF);
  /// A module's items in source order: the global var and the function (or
  /// extern) bound to it, filled by the passes of parseModuleClass.
  using ModuleEntries = std::vector<std::pair<GlobalVar, Ref<Node>>>;
  llvm::Error parseModuleStatements(IRModule &mod, const std::vector<size_t> &items,
                                    ModuleEntries &entries);
  llvm::Error declareModuleFunctions(IRModule &mod, const std::vector<size_t> &items,
                                     ModuleEntries &entries);
  /// What one `@R.function def` is parsed for: a module function's
  /// declaration (its signature only, the body skipped), its definition, or
  /// a function local to another one's body.
  enum class FunctionRole { Declare, Define, Local };
  struct ParsedFunction {
    GlobalVar gvar; ///< Declare, Define: the module's name for it.
    Function fn;    ///< Define, Local.
    Var selfVar;    ///< Local: the var it is bound to (visible in its body).
  };
  /// `declared` is the GlobalVar a Define gives its struct info to (null:
  /// a fresh one).
  llvm::Expected<ParsedFunction> parseRelaxFunction(uint32_t decoAst, FunctionRole role,
                                                    GlobalVar declared = {});
  /// The body of a Relax function after its Indent, with its own BlockBuilder.
  llvm::Expected<Function> parseFunctionBody(const std::vector<Var> &params, StructInfo retAnn,
                                             const FuncDecl &decl, bool topLevel);
  struct Signature {
    std::vector<Var> params;
    StructInfo ret;       ///< Null without `-> annotation`.
    size_t bodyStart = 0; ///< The body's Indent token.
  };
  llvm::Expected<Signature> parseSignature();
  llvm::Error prescanSymVars(size_t bodyIndent);
  /// An if/else branch's last binding: the value the branch yields, which
  /// parseIf binds itself.
  struct BranchResult {
    std::string name;
    Expr value;
    llvm::SMLoc loc;
    /// Set when the branch ends with `x = R.match_cast(value, sinfo)`: the
    /// branch's result is then a match cast, as TVM's parser makes it.
    StructInfo matchCast;
  };
  /// The statements of one body (a function's, a branch's) as they are
  /// parsed: its closed binding blocks and the open one, and what the
  /// statements declared besides bindings.
  struct BodyState {
    explicit BodyState(bool funcBody) : funcBody(funcBody) {}
    bool funcBody;
    std::vector<BindingBlock> blocks;
    std::optional<BlockBuilder::BlockScope> open;
    Attrs attrs;                        ///< From R.func_attr.
    Expr ret;                           ///< Set by `return`.
    std::optional<BranchResult> result; ///< A branch's last binding.
    /// Closes the open block (if any) into `blocks` and opens a new one.
    void startBlock(BlockBuilder &bb, bool isDataflow) {
      closeBlock();
      open.emplace(bb, isDataflow);
    }
    void closeBlock() {
      if (open)
        blocks.push_back(open->finish());
      open.reset();
    }
  };
  struct FunctionBody {
    std::vector<BindingBlock> blocks;
    Expr ret;
    Attrs attrs;
  };
  /// A function body after its Indent, through its Dedent.
  llvm::Expected<FunctionBody> parseBody();
  llvm::Error parseStatement(BodyState &body, bool isLast);
  llvm::Error parseDataflow(BodyState &body);
  /// Pre-scans the dataflow block whose Indent is at `indent`.
  DataflowScan scanDataflow(size_t indent);
  /// Puts the name token of each output's last assignment in outputNameToks_.
  void markOutputTargets(const DataflowScan &scan);
  llvm::Error parseIf(size_t stmtTok);
  /// A binding statement; the last one of a branch (`isLastInBranch`)
  /// becomes `body.result` instead of a binding.
  llvm::Error parseBinding(BodyState &body, bool isLastInBranch);
  /// `n = T.int64()` / `T.int32(is_size_var=...)` without positional arguments.
  bool isSymVarDecl(uint32_t rhs, llvm::StringRef callee) const;
  bool isSymConstDecl(uint32_t rhs, llvm::StringRef callee) const;
  /// A string literal without escapes (a name, a dtype), read without caching.
  llvm::StringRef plainString(uint32_t n) const;
  /// The declaring calls when `rhs` declares `count` symbolic vars: one
  /// `T.int64()` or a tuple of `count` of them (`m, n = T.int64(), T.int64()`).
  /// `constants`: a `T.int64(16)` among several targets binds the constant.
  std::optional<llvm::SmallVector<uint32_t, 2>> symVarDecls(uint32_t rhs, size_t count,
                                                            bool constants = false) const;
  /// The var a `T.int64()` / `T.int32(is_size_var=True)` call declares.
  TirVar symVarOf(llvm::StringRef name, uint32_t call) const;
  llvm::Error defineSymVar(llvm::StringRef name, uint32_t rhs, llvm::StringRef callee);
  /// `cls = Module`: the right-hand side names the module being parsed.
  bool isModuleAlias(uint32_t rhs) const;
  /// A branch that ends with a dataflow block: its value (the block's last
  /// output, rebound as `name<suffix>` unless a leaf) and the name; None
  /// when the last block is not a dataflow block ending with an output.
  llvm::Optional<std::pair<Expr, std::string>>
  dataflowBranchValue(std::vector<BindingBlock> &blocks, llvm::StringRef suffix);
  /// `x = R.match_cast(value, sinfo)`; the last one of a branch
  /// (`branchEnd` set) becomes that branch's result.
  llvm::Error parseMatchCast(std::pair<llvm::StringRef, size_t> target, uint32_t rhs,
                             llvm::SMLoc bindLoc, BodyState *branchEnd);
  /// A Python number or bool bound as a value: R.const of int32, float32 or bool.
  llvm::Expected<Expr> pythonConstant(uint32_t rhs);
  /// Assignment targets: names and their tokens.
  using BindTargets = llvm::SmallVector<std::pair<llvm::StringRef, size_t>, 2>;
  llvm::Error emitTargets(const BindTargets &targets, Expr value, llvm::SMLoc bindLoc);
  llvm::Error emitNamed(llvm::StringRef name, Expr value, llvm::SMLoc loc, size_t nameTok);
  llvm::Error parseFuncAttr(uint32_t call, Attrs &attrs);
  llvm::Error parseLocalFunction();
  llvm::Expected<NamedPrimFunc> parsePrimFunc(uint32_t decoAst);
  llvm::Error primDecoratorArgs(uint32_t decoAst, PrimFuncNode &f);
  /// `(params) -> ret:` up to and including the body's Indent.
  llvm::Error parsePrimSignature(PrimFuncNode &f, const SInfoCtx &sctx);
  llvm::Expected<PrimParam> parsePrimParam(const SInfoCtx &sctx);
  /// A buffer's shape: a list of dims, or one dim.
  llvm::Expected<std::vector<PrimExpr>> bufferDims(uint32_t shape, const SInfoCtx &sctx);
  llvm::Error primBufferParam(uint32_t ty, PrimParam &p, const SInfoCtx &sctx);
  llvm::Expected<PrimDecls> parsePrimDecls(PrimFuncNode &f, const SInfoCtx &sctx);
  TirVar primVarDecl(llvm::StringRef target, const CallParts &c);
  llvm::Error primMatchBuffer(PrimFuncNode &f, llvm::StringRef target, const CallParts &c,
                              const SInfoCtx &sctx);
  /// The rest of a PrimFunc body as a TIR statement tree (ParseTir.cpp):
  /// false, with nothing consumed, when the tree does not model it.
  llvm::Expected<bool> parseStructuredPrimBody(PrimFuncNode &f, const PrimDecls &decls);
  /// The rest of a PrimFunc body as canonical tokens (bodyTokens).
  llvm::Error collectPrimBody(PrimFuncNode &f, const PrimDecls &decls);
  /// Python's block layout at the current token of a PrimFunc body kept as tokens.
  llvm::Error checkPrimBlockLayout() const;
  /// Whether the statement starting at Name token `name` is `name[...] = `.
  bool isSubscriptStore(size_t name) const;
  /// The body of a generated PrimFunc (shape_func, compute_symbolic_expr)
  /// exactly as printed; false with nothing consumed otherwise.
  bool parseGeneratedPrimBody(PrimFuncNode &f);
  llvm::Error parseModuleItemStmt(IRModule &mod);
  llvm::Error parseGlobalInfos(IRModule &mod, uint32_t call);

  llvm::StringRef buf_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  unsigned depth_ = 0; ///< Expression and block nesting.

  std::vector<Ast> ast_;
  std::vector<uint32_t> kids_;
  std::deque<std::string> strings_; ///< Stable storage for decoded strings.

  /// Entries come from a bump allocator: every binding defines a name, and
  /// a malloc per entry showed in profiles of 200k-binding functions.
  llvm::StringMap<llvm::SmallVector<Sym, 1>, llvm::BumpPtrAllocator> syms_;
  std::vector<llvm::StringMapEntry<llvm::SmallVector<Sym, 1>> *> undo_;
  std::vector<size_t> scopeMarks_;
  /// Counts the changes of the symbol table that can change what a name
  /// already resolved means: rebinding a name, leaving a scope, a new module.
  uint64_t symEpoch_ = 0;

  /// Binding annotations by their source text, for symEpoch_ == memoEpoch_.
  /// A function repeats a few annotations (`R.Tensor((n, 16), dtype=...)`)
  /// on every binding; struct info is immutable, so one node serves them
  /// all and a 200k-binding function saves about a million allocations.
  llvm::StringMap<StructInfo> annotationMemo_;
  uint64_t memoEpoch_ = 0;
  llvm::Expected<StructInfo> annotationSInfo(uint32_t ast, size_t firstTok, size_t endTok);

  IRModule *mod_ = nullptr;
  std::string modName_;
  llvm::StringMap<GlobalVar> gvars_;
  /// Every function name of the module being parsed (PrimFunc bodies may
  /// call one declared after them).
  llvm::StringSet<> funcNames_;
  BlockBuilder *bb_ = nullptr;
  bool inDataflow_ = false;
  /// Name tokens of dataflow bindings whose var is an output (plain Var).
  llvm::DenseSet<uint32_t> outputNameToks_;
  unsigned funcDepth_ = 0;
};

} // namespace parse
} // namespace graft

#endif // GRAFT_TEXT_PARSERIMPL_H
