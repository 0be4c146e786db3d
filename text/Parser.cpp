//===- text/Parser.cpp - TVMScript Relax text to IR -------------------------===//
//
// Files, modules (the three-pass walk of TVM `python/tvm/script/parser/core/`), Relax functions
// and their statements. Expressions live in ParseExpr.cpp/ParseCall.cpp,
// struct info in ParseSInfo.cpp, PrimFuncs in ParsePrimFunc.cpp.
//
//===----------------------------------------------------------------------===//

#include "text/Parser.h"

#include "ir/StructInfoAnalysis.h"
#include "ir/Visitor.h"
#include "text/ParserImpl.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace graft;
using namespace graft::parse;

IRModule *ParsedFile::find(llvm::StringRef name) const {
  for (const auto &m : modules)
    if (m->name == name)
      return m.get();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Names and token skipping
//===----------------------------------------------------------------------===//

const Sym *Parser::lookup(llvm::StringRef name) const {
  auto it = syms_.find(name);
  if (it == syms_.end() || it->second.empty())
    return nullptr;
  return &it->second.back();
}

void Parser::define(llvm::StringRef name, Sym sym) {
  auto &entry = *syms_.try_emplace(name).first;
  // A fresh name cannot change a resolution that succeeded; a shadowing one can.
  if (!entry.second.empty())
    ++symEpoch_;
  entry.second.push_back(std::move(sym));
  undo_.push_back(&entry);
}

void Parser::popScope() {
  size_t mark = scopeMarks_.empty() ? 0 : scopeMarks_.back();
  if (!scopeMarks_.empty())
    scopeMarks_.pop_back();
  if (undo_.size() > mark)
    ++symEpoch_;
  while (undo_.size() > mark) {
    undo_.back()->second.pop_back();
    undo_.pop_back();
  }
}

size_t Parser::skipBlockFrom(size_t i) const {
  int depth = 0;
  for (; i < toks_.size(); ++i) {
    Tok k = toks_[i].kind;
    if (k == Tok::Indent)
      ++depth;
    else if (k == Tok::Dedent && --depth == 0)
      return i + 1;
    else if (k == Tok::Eof)
      return i;
  }
  return toks_.size() - 1;
}

void Parser::skipStatement() {
  while (kind() != Tok::Newline && kind() != Tok::Eof && kind() != Tok::Dedent &&
         kind() != Tok::Indent)
    ++pos_;
  consume(Tok::Newline);
  if (kind() == Tok::Indent)
    pos_ = skipBlockFrom(pos_);
}

namespace {

Sym relaxSym(const Var &v) {
  Sym s;
  s.kind = Sym::RelaxVar;
  s.node = v;
  return s;
}

Sym tirSym(const PrimExpr &v) {
  Sym s;
  s.kind = Sym::Tir;
  s.node = v;
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Decorators
//===----------------------------------------------------------------------===//

llvm::Expected<Decorator> Parser::parseDecorator() {
  Decorator d;
  d.tok = pos_;
  if (auto err = expect(Tok::At, "'@'"))
    return err;
  auto e = parseExpr();
  if (!e)
    return e.takeError();
  d.ast = *e;
  const Ast &a = node(*e);
  if (a.kind == AK::Name)
    d.name = a.text;
  else if (a.kind == AK::Call && node(kid(*e, 0)).kind == AK::Name)
    d.name = node(kid(*e, 0)).text;
  else
    return error(d.tok, "unsupported decorator");
  if (auto err = expect(Tok::Newline, "newline after decorator"))
    return err;
  return d;
}

llvm::Expected<Decorator> Parser::parseDecorators() {
  auto d = parseDecorator();
  while (d && kind() == Tok::At)
    d = parseDecorator();
  return d;
}

namespace {

/// Reads `name=True/False` from a decorator call.
struct DecoFlags {
  bool pure = true, isPrivate = false, checkWF = true;
};

} // namespace

static llvm::Error readDecoFlags(Parser &p, uint32_t deco, DecoFlags &f) {
  const Ast &a = p.node(deco);
  if (a.kind != AK::Call)
    return llvm::Error::success();
  llvm::SmallVector<uint32_t, 4> pos, kw;
  p.callArgs(deco, pos, kw);
  if (!pos.empty())
    return p.astError(pos[0], "decorator takes only keyword arguments");
  for (uint32_t k : kw) {
    uint32_t v = p.kid(k, 0);
    AK vk = p.node(v).kind;
    if (vk != AK::True && vk != AK::False)
      return p.astError(v, "expected True or False");
    bool b = vk == AK::True;
    llvm::StringRef n = p.node(k).text;
    if (n == "pure")
      f.pure = b;
    else if (n == "private")
      f.isPrivate = b;
    else if (n == "check_well_formed")
      f.checkWF = b;
    else
      return p.astError(k, "unexpected decorator argument '" + n + "'");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Files and modules
//===----------------------------------------------------------------------===//

llvm::Error Parser::parseFile(std::vector<std::unique_ptr<IRModule>> &modules) {
  while (kind() != Tok::Eof) {
    resetAst();
    if (consume(Tok::Newline))
      continue;
    if (isName("from") || isName("import")) {
      skipStatement();
      continue;
    }
    if (kind() == Tok::Indent)
      return errorHere("unexpected indent");
    if (kind() != Tok::At)
      return errorHere("expected a module class, @R.function or @T.prim_func at file level");
    auto deco = parseDecorator();
    if (!deco)
      return deco.takeError();
    size_t decoTok = deco->tok;
    llvm::StringRef decoName = deco->name;
    uint32_t decoAst = deco->ast;
    auto mod = std::make_unique<IRModule>();
    mod->loc = locOf(decoTok);
    mod_ = mod.get();
    ++symEpoch_; // Annotations may name the module's vdevices.
    gvars_.clear();
    if (decoName == "I.ir_module" || decoName == "tvm.script.ir_module") {
      DecoFlags f;
      if (auto err = readDecoFlags(*this, decoAst, f))
        return err;
      if (auto err = parseModuleClass(*mod, f.checkWF))
        return err;
    } else if (decoName == "R.function") {
      modName_ = "Module";
      auto fn = parseRelaxFunction(decoAst, FunctionRole::Define);
      if (!fn)
        return fn.takeError();
      // A standalone function belongs to no module, so its Python name is
      // only a Python variable (as in TVM): its global_symbol names it.
      llvm::StringRef symbol = fn->fn->globalSymbol();
      if (!symbol.empty() && symbol != fn->gvar->name)
        fn->gvar = make<GlobalVarNode>(symbol.str(), fn->gvar->sinfo);
      mod->add(fn->gvar, fn->fn);
    } else if (decoName == "T.prim_func") {
      modName_ = "Module";
      auto pf = parsePrimFunc(decoAst);
      if (!pf)
        return pf.takeError();
      mod->add(make<GlobalVarNode>(pf->name, pf->func->relaxSInfo()), pf->func);
    } else {
      return error(decoTok, "unsupported decorator '@" + decoName + "'");
    }
    modules.push_back(std::move(mod));
  }
  return llvm::Error::success();
}

llvm::Error Parser::parseModuleClass(IRModule &mod, bool checkWF) {
  if (auto err = parseClassHeader(mod, checkWF))
    return err;
  // Item starts; decorated items start at their first decorator.
  std::vector<size_t> items;
  while (kind() != Tok::Dedent && kind() != Tok::Eof) {
    items.push_back(pos_);
    while (kind() == Tok::At)
      skipStatement();
    skipStatement();
  }
  size_t end = pos_;
  pushScope();
  define(mod.name, Sym{Sym::ModuleAlias, nullptr});

  ModuleEntries entries(items.size());
  if (auto err = parseModuleStatements(mod, items, entries))
    return err;
  if (auto err = declareModuleFunctions(mod, items, entries))
    return err;
  // Pass 3: define the Relax functions.
  for (size_t i = 0; i < items.size(); ++i) {
    if (!entries[i].first || entries[i].second)
      continue;
    pos_ = items[i];
    resetAst();
    auto deco = parseDecorators();
    if (!deco)
      return deco.takeError();
    auto fn = parseRelaxFunction(deco->ast, FunctionRole::Define, entries[i].first);
    if (!fn)
      return fn.takeError();
    entries[i].second = fn->fn;
  }
  for (auto &[gv, fn] : entries)
    if (gv && fn)
      mod.add(gv, fn);
  popScope();
  pos_ = end;
  return expect(Tok::Dedent, "end of class body");
}

llvm::Error Parser::parseClassHeader(IRModule &mod, bool checkWF) {
  if (!isName("class"))
    return errorHere("expected 'class' after a module decorator");
  ++pos_;
  if (kind() != Tok::Name)
    return errorHere("expected the module name");
  mod.name = curText().str();
  mod.checkWellFormed = checkWF;
  modName_ = mod.name;
  ++pos_;
  if (consume(Tok::LParen)) {
    while (kind() != Tok::RParen && kind() != Tok::Newline && kind() != Tok::Eof)
      ++pos_;
    if (auto err = expect(Tok::RParen, "')'"))
      return err;
  }
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  return expect(Tok::Indent, "an indented class body");
}

llvm::Error Parser::parseModuleStatements(IRModule &mod, const std::vector<size_t> &items,
                                          ModuleEntries &entries) {
  // Pass 1: module attrs, global infos, extern functions.
  for (size_t i = 0; i < items.size(); ++i) {
    pos_ = items[i];
    if (kind() == Tok::At || isName("def"))
      continue;
    if (isName("pass")) {
      continue;
    }
    resetAst();
    if (kind() == Tok::Name && peekKind(1) == Tok::Assign) {
      llvm::StringRef name = curText();
      size_t nameTok = pos_;
      pos_ += 2;
      auto e = parseExpr();
      if (!e)
        return e.takeError();
      const Ast &a = node(*e);
      if (a.kind != AK::Call || node(kid(*e, 0)).text != "R.ExternFunc" || a.count != 2 ||
          node(kid(*e, 1)).kind != AK::Str)
        return error(nameTok, "only `name = R.ExternFunc(\"symbol\")` may be assigned in a "
                              "module class");
      Expr ext = externFunc(strValue(kid(*e, 1)));
      GlobalVar gv = makeAt<GlobalVarNode>(locOf(nameTok), name.str(), ext->sinfo);
      gvars_[name] = gv;
      entries[i] = {gv, Ref<Node>(ext.get())};
      continue;
    }
    if (auto err = parseModuleItemStmt(mod))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error Parser::declareModuleFunctions(IRModule &mod, const std::vector<size_t> &items,
                                           ModuleEntries &entries) {
  // Pass 2: declare every function (PrimFuncs are parsed whole). A PrimFunc
  // body may call a function defined after it: the names come first.
  funcNames_.clear();
  for (size_t item : items) {
    if (tok(item).kind != Tok::At)
      continue;
    size_t j = item;
    while (j < toks_.size() && !(tok(j).kind == Tok::Name && text(j) == "def"))
      ++j;
    if (tok(j + 1).kind == Tok::Name)
      funcNames_.insert(text(j + 1));
  }
  for (size_t i = 0; i < items.size(); ++i) {
    pos_ = items[i];
    if (kind() != Tok::At)
      continue;
    resetAst();
    auto deco = parseDecorators();
    if (!deco)
      return deco.takeError();
    if (deco->name == "T.prim_func") {
      auto pf = parsePrimFunc(deco->ast);
      if (!pf)
        return pf.takeError();
      GlobalVar gv = make<GlobalVarNode>(pf->name, pf->func->relaxSInfo());
      gvars_[pf->name] = gv;
      entries[i] = {gv, Ref<Node>(pf->func.get())};
    } else if (deco->name == "R.function") {
      auto decl = parseRelaxFunction(deco->ast, FunctionRole::Declare);
      if (!decl)
        return decl.takeError();
      GlobalVar gv = decl->gvar;
      if (gvars_.count(gv->name))
        return error(deco->tok, "duplicate function '" + gv->name + "' in module");
      gvars_[gv->name] = gv;
      entries[i] = {gv, nullptr};
    } else {
      return error(deco->tok, "unsupported decorator '@" + deco->name + "' in a module");
    }
  }
  return llvm::Error::success();
}

llvm::Error Parser::parseGlobalInfos(IRModule &mod, uint32_t call) {
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(call, pos, kw);
  ++symEpoch_; // Annotations may name the vdevices defined here.
  if (pos.size() != 1 || node(pos[0]).kind != AK::Dict)
    return astError(call, "I.module_global_infos expects a dictionary");
  uint32_t dict = pos[0];
  for (uint32_t i = 0; i + 1 < node(dict).count; i += 2) {
    uint32_t k = kid(dict, i), v = kid(dict, i + 1);
    if (node(k).kind != AK::Str)
      return astError(k, "global info keys must be strings");
    if (node(v).kind != AK::List && node(v).kind != AK::Tuple)
      return astError(v, "global infos must be a list");
    std::vector<Ref<Node>> infos;
    for (uint32_t j = 0; j < node(v).count; ++j) {
      uint32_t item = kid(v, j);
      if (node(item).kind == AK::Call && node(kid(item, 0)).text == "I.dummy_global_info" &&
          node(item).count == 1) {
        infos.push_back(Ref<Node>()); // The dummy info: a null entry.
        continue;
      }
      if (node(item).kind == AK::Call && (node(kid(item, 0)).text == "R.device_mesh" ||
                                          node(kid(item, 0)).text == "R.dist.device_mesh")) {
        auto mesh = parseDeviceMesh(item);
        if (!mesh)
          return mesh.takeError();
        infos.push_back(Ref<Node>(mesh->get()));
        continue;
      }
      if (node(item).kind != AK::Call || node(kid(item, 0)).text != "I.vdevice")
        return astError(item, "unsupported global info (only I.vdevice, R.device_mesh and "
                              "I.dummy_global_info are supported)");
      llvm::SmallVector<uint32_t, 3> ipos, ikw;
      callArgs(item, ipos, ikw);
      int64_t target = -1, id = -1, scope = -1;
      if (ipos.size() > 0)
        target = ipos[0];
      if (ipos.size() > 1)
        id = ipos[1];
      if (ipos.size() > 2)
        scope = ipos[2];
      for (uint32_t x : ikw) {
        llvm::StringRef n = node(x).text;
        if (n == "target")
          target = kid(x, 0);
        else if (n == "vdevice_id")
          id = kid(x, 0);
        else if (n == "memory_scope")
          scope = kid(x, 0);
        else
          return astError(x, "I.vdevice got an unexpected keyword argument '" + n + "'");
      }
      std::string kindName;
      AttrDict config;
      if (target >= 0 && node(target).kind == AK::Str) {
        kindName = strValue(target).split(' ').first.str();
      } else if (target >= 0 && node(target).kind == AK::Dict) {
        auto d = toAnyAttr(static_cast<uint32_t>(target));
        if (!d)
          return d.takeError();
        config = d->getDict();
        for (auto &[key, val] : config)
          if (key == "kind" && val.kind() == AttrValue::Kind::String)
            kindName = val.getString();
      } else {
        return astError(item, "I.vdevice needs a target");
      }
      int64_t vid = 0;
      if (id >= 0) {
        auto iv = intValue(static_cast<uint32_t>(id));
        if (!iv)
          return iv.takeError();
        vid = *iv;
      }
      std::string memScope = "global";
      if (scope >= 0) {
        if (node(scope).kind != AK::Str)
          return astError(static_cast<uint32_t>(scope), "memory scope must be a string");
        memScope = strValue(static_cast<uint32_t>(scope)).str();
      }
      infos.push_back(make<VDeviceNode>(kindName, std::move(config), vid, memScope));
    }
    mod.globalInfos.emplace_back(strValue(k).str(), std::move(infos));
  }
  return llvm::Error::success();
}

llvm::Error Parser::parseModuleItemStmt(IRModule &mod) {
  auto e = parseExpr();
  if (!e)
    return e.takeError();
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  const Ast &a = node(*e);
  llvm::StringRef callee = a.kind == AK::Call ? node(kid(*e, 0)).text : llvm::StringRef();
  if (callee == "I.module_attrs") {
    llvm::SmallVector<uint32_t, 2> pos, kw;
    callArgs(*e, pos, kw);
    if (pos.size() != 1 || node(pos[0]).kind != AK::Dict)
      return astError(*e, "I.module_attrs expects a dictionary");
    auto d = toAnyAttr(pos[0]);
    if (!d)
      return d.takeError();
    mod.attrs = d->getDict().empty() ? Attrs() : make<AttrsNode>(d->getDict());
    return llvm::Error::success();
  }
  if (callee == "I.module_global_infos")
    return parseGlobalInfos(mod, *e);
  // A docstring: Python evaluates and drops it.
  if (a.kind == AK::Str)
    return llvm::Error::success();
  return astError(*e, "unsupported statement in a module class");
}

//===----------------------------------------------------------------------===//
// Relax functions
//===----------------------------------------------------------------------===//

llvm::Error Parser::prescanSymVars(size_t indentTok) {
  // `n = T.int64()` and `m, n = T.int64(), T.int64()` anywhere in the body
  // declare names the signature may use.
  size_t save = pos_;
  size_t i = indentTok + 1;
  while (i < toks_.size() && toks_[i].kind != Tok::Dedent && toks_[i].kind != Tok::Eof) {
    pos_ = i;
    llvm::SmallVector<llvm::StringRef, 2> names;
    while (kind() == Tok::Name && (peekKind(1) == Tok::Comma || peekKind(1) == Tok::Assign)) {
      names.push_back(curText());
      pos_ += 2;
      if (tok(pos_ - 1).kind == Tok::Assign)
        break;
    }
    if (!names.empty() && tok(pos_ - 1).kind == Tok::Assign && isName("T")) {
      auto e = parseExprList();
      if (!e)
        llvm::consumeError(e.takeError());
      else if (auto decls = symVarDecls(*e, names.size(), /*constants=*/true))
        for (size_t k = 0; k < names.size(); ++k)
          if (auto err = defineSymVar(names[k], (*decls)[k], node(kid((*decls)[k], 0)).text))
            llvm::consumeError(std::move(err));
    }
    pos_ = i;
    skipStatement();
    i = pos_;
  }
  pos_ = save;
  return llvm::Error::success();
}

std::optional<llvm::SmallVector<uint32_t, 2>> Parser::symVarDecls(uint32_t rhs, size_t count,
                                                                  bool constants) const {
  // One call per target: `T.int64()` for one name, a tuple of them for several.
  llvm::SmallVector<uint32_t, 2> calls;
  if (count == 1)
    calls.push_back(rhs);
  else if (node(rhs).kind == AK::Tuple && node(rhs).count == count)
    for (uint32_t k = 0; k < count; ++k)
      calls.push_back(kid(rhs, k));
  else
    return std::nullopt;
  for (uint32_t c : calls) {
    if (node(c).kind != AK::Call || node(kid(c, 0)).kind != AK::Name)
      return std::nullopt;
    llvm::StringRef callee = node(kid(c, 0)).text;
    // `C = T.int64(16)` alone stays a Relax binding (a PrimValue);
    // T.IntImm/T.FloatImm, or a constant among declarations, binds the name.
    bool constDecl = constants && isSymConstDecl(c, callee) &&
                     (count > 1 || callee == "T.IntImm" || callee == "T.FloatImm");
    if (!isSymVarDecl(c, callee) && !constDecl)
      return std::nullopt;
  }
  return calls;
}

TirVar Parser::symVarOf(llvm::StringRef name, uint32_t call) const {
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(call, pos, kw);
  bool sizeVar = false;
  for (uint32_t k : kw)
    if (node(k).text == "is_size_var")
      sizeVar = node(kid(k, 0)).kind == AK::True;
  llvm::StringRef callee = node(kid(call, 0)).text;
  // T.Var("name", "dtype"): the var's name is the string.
  if (callee == "T.Var" && pos.size() == 2)
    return make<TirVarNode>(plainString(pos[0]).str(),
                            DataType::parse(plainString(pos[1])).getValueOr(DataType::int64()));
  DataType dt = DataType::parse(callee.drop_front(2)).getValueOr(DataType::int64());
  return make<TirVarNode>(name.str(), dt, sizeVar);
}

llvm::Expected<Parser::Signature> Parser::parseSignature() {
  if (auto err = expect(Tok::LParen, "'('"))
    return err;
  Signature sig;
  std::vector<Var> &params = sig.params;
  SInfoCtx pctx{true, true};
  while (!consume(Tok::RParen)) {
    if (kind() != Tok::Name)
      return errorHere("expected a parameter name");
    llvm::StringRef name = curText();
    llvm::SMLoc ploc = loc();
    ++pos_;
    if (kind() != Tok::Colon)
      return errorHere("parameter '" + name + "' needs a struct info annotation");
    ++pos_;
    auto ann = parseExpr();
    if (!ann)
      return ann.takeError();
    auto s = toSInfo(*ann, pctx);
    if (!s)
      return s.takeError();
    Var v = make<VarNode>(name.str(), *s, ploc);
    params.push_back(v);
    if (consume(Tok::RParen))
      break;
    if (auto err = expect(Tok::Comma, "',' or ')'"))
      return err;
  }
  for (const Var &v : params)
    define(v->name, relaxSym(v));
  if (consume(Tok::Arrow)) {
    auto ann = parseExpr();
    if (!ann)
      return ann.takeError();
    auto s = toSInfo(*ann, SInfoCtx{true, false});
    if (!s)
      return s.takeError();
    sig.ret = *s;
  }
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  if (kind() != Tok::Indent)
    return errorHere("expected an indented function body");
  sig.bodyStart = pos_;
  return sig;
}

namespace {
/// Whether `fn` reads `var` anywhere (a local function calling itself).
bool readsVar(const FunctionNode &fn, const VarNode *var) {
  struct Finder : ExprVisitor {
    const VarNode *target;
    bool found = false;
    void visitVarUse(const VarNode *v) override { found |= v == target; }
  } finder;
  finder.target = var;
  finder.visitExpr(&fn);
  return finder.found;
}
} // namespace

llvm::Expected<Parser::ParsedFunction>
Parser::parseRelaxFunction(uint32_t decoAst, FunctionRole role, GlobalVar declared) {
  DecoFlags flags;
  if (auto err = readDecoFlags(*this, decoAst, flags))
    return err;
  if (!isName("def"))
    return errorHere("expected 'def' after @R.function");
  size_t defTok = pos_++;
  if (kind() != Tok::Name)
    return errorHere("expected a function name");
  std::string name = curText().str();
  ++pos_;
  if (++funcDepth_ > kMaxNestingDepth / 4)
    return error(defTok, "nesting too deep");
  struct DepthRestore {
    unsigned &d;
    ~DepthRestore() { --d; }
  } restoreDepth{funcDepth_};

  // Find the body to pre-declare its symbolic vars (TVM `python/tvm/script/parser/relax/`).
  size_t sigEnd = pos_;
  while (sigEnd < toks_.size() && toks_[sigEnd].kind != Tok::Newline &&
         toks_[sigEnd].kind != Tok::Eof)
    ++sigEnd;
  pushScope();
  struct ScopeGuard {
    Parser &p;
    ~ScopeGuard() { p.popScope(); }
  } scopeGuard{*this};
  if (tok(sigEnd + 1).kind == Tok::Indent)
    if (auto err = prescanSymVars(sigEnd + 1))
      return err;
  auto sig = parseSignature();
  if (!sig)
    return sig.takeError();
  std::vector<StructInfo> paramSInfo;
  for (const Var &v : sig->params)
    paramSInfo.push_back(v->sinfo);
  StructInfo declSInfo =
      make<FuncSInfoNode>(paramSInfo, sig->ret ? sig->ret : objectSInfo(), flags.pure);
  ParsedFunction out;
  if (role == FunctionRole::Declare) {
    out.gvar = makeAt<GlobalVarNode>(locOf(defTok), name, declSInfo);
    pos_ = skipBlockFrom(sig->bodyStart);
    return out;
  }
  if (role == FunctionRole::Local) {
    out.selfVar = make<VarNode>(name, declSInfo, locOf(defTok));
    define(name, relaxSym(out.selfVar));
  }
  ++pos_; // Indent.
  auto fn = parseFunctionBody(sig->params, sig->ret,
                              FuncDecl{name, flags.pure, flags.isPrivate, flags.checkWF, defTok},
                              role != FunctionRole::Local);
  if (!fn)
    return fn.takeError();
  out.fn = *fn;
  if (role == FunctionRole::Define) {
    out.gvar = declared;
    if (!out.gvar)
      out.gvar = make<GlobalVarNode>(name, (*fn)->sinfo);
    else
      updateDeclaredSInfo(*out.gvar, (*fn)->sinfo);
  }
  return out;
}

llvm::Expected<Function> Parser::parseFunctionBody(const std::vector<Var> &params,
                                                   StructInfo retAnn, const FuncDecl &decl,
                                                   bool topLevel) {
  // Each function has its own builder; parser state of an enclosing
  // function is saved around it.
  BlockBuilder bb(nullptr);
  BlockBuilder *savedBB = bb_;
  bool savedDF = inDataflow_;
  bb_ = &bb;
  inDataflow_ = false;
  struct StateRestore {
    Parser &p;
    BlockBuilder *bb;
    bool df;
    ~StateRestore() {
      p.bb_ = bb;
      p.inDataflow_ = df;
    }
  } stateRestore{*this, savedBB, savedDF};

  BlockBuilder::FunctionScope scope(bb, params);
  auto body = parseBody();
  if (!body)
    return body.takeError();
  auto seq = bb.finalizeSeqExpr(std::move(body->blocks), body->ret);
  if (!seq)
    return seq.takeError();
  Attrs attrs = body->attrs;
  StructInfo ret = BlockBuilder::functionRetSInfo(retAnn.get(), (*seq)->sinfo.get(), params);
  if (topLevel && !decl.isPrivate && !(attrs && attrs->lookup("global_symbol")))
    attrs = withAttr(attrs.get(), "global_symbol", AttrValue::string(decl.name));
  auto fn =
      make<FunctionNode>(params, *seq, ret, decl.pure, attrs, locOf(decl.defTok), decl.checkWF);
  return Function(fn);
}

llvm::Error Parser::parseFuncAttr(uint32_t call, Attrs &attrs) {
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(call, pos, kw);
  if (pos.size() != 1 || !kw.empty() || node(pos[0]).kind != AK::Dict)
    return astError(call, "R.func_attr expects one dictionary");
  auto d = toAnyAttr(pos[0]);
  if (!d)
    return d.takeError();
  for (const auto &[k, v] : d->getDict())
    attrs = withAttr(attrs.get(), k, v);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {

/// Whether the statement at `p.pos_` is the last one of its block.
bool isLastStatement(Parser &p) {
  size_t save = p.pos_;
  p.skipStatement();
  bool last = p.kind() == Tok::Dedent || p.kind() == Tok::Eof;
  p.pos_ = save;
  return last;
}

} // namespace

llvm::Expected<Parser::FunctionBody> Parser::parseBody() {
  BodyState body(/*funcBody=*/true);
  body.startBlock(*bb_, /*isDataflow=*/false);
  while (kind() != Tok::Dedent && kind() != Tok::Eof) {
    if (body.ret)
      return errorHere("return must be the last statement of a function");
    if (auto err = parseStatement(body, /*isLast=*/false))
      return err;
  }
  body.closeBlock();
  if (!body.ret)
    return errorHere("a function body must end with a return statement");
  if (auto err = expect(Tok::Dedent, "end of block"))
    return err;
  return FunctionBody{std::move(body.blocks), body.ret, body.attrs};
}

llvm::Error Parser::parseStatement(BodyState &body, bool isLast) {
  resetAst();
  size_t start = pos_;
  if (kind() == Tok::Indent)
    return errorHere("unexpected indent");
  if (kind() == Tok::At) {
    auto deco = parseDecorator();
    if (!deco)
      return deco.takeError();
    size_t decoTok = deco->tok;
    llvm::StringRef decoName = deco->name;
    uint32_t decoAst = deco->ast;
    if (decoName == "T.prim_func")
      return error(decoTok, "inline @T.prim_func is not supported inside a Relax function");
    if (decoName != "R.function")
      return error(decoTok, "unsupported decorator '@" + decoName + "' inside a function");
    llvm::SMLoc defLoc = loc();
    auto local = parseRelaxFunction(decoAst, FunctionRole::Local);
    if (!local)
      return local.takeError();
    Var fv = local->selfVar;
    const Function &fn = local->fn;
    // The var declared from the signature (so a recursive body can call it)
    // stays only when the body does call it; otherwise, as in TVM, the var
    // takes the function's final struct info (the return rule may have
    // refined the annotated return).
    if (!structInfoIdentical(fv->sinfo.get(), fn->sinfo.get()) && !readsVar(*fn, fv.get()))
      fv = make<VarNode>(fv->name, fn->sinfo, fv->loc);
    define(fv->name, relaxSym(fv));
    return bb_->emitBinding(make<VarBindingNode>(fv, fn, defLoc));
  }
  if (isName("with"))
    return parseDataflow(body);
  if (isName("if")) {
    if (inDataflow_)
      return errorHere("if/else is not allowed inside a dataflow block");
    return parseIf(start);
  }
  if (isName("return")) {
    if (!body.funcBody)
      return errorHere("return is only allowed at the end of a function body");
    if (inDataflow_)
      return errorHere("return is not allowed inside a dataflow block");
    ++pos_;
    auto e = parseExprList();
    if (!e)
      return e.takeError();
    if (auto err = expect(Tok::Newline, "newline"))
      return err;
    auto v = toExpr(*e);
    if (!v)
      return v.takeError();
    body.ret = *v;
    return llvm::Error::success();
  }
  if (isName("pass")) {
    ++pos_;
    return expect(Tok::Newline, "newline");
  }
  if (isName("def") || isName("class") || isName("for") || isName("while"))
    return errorHere("unsupported statement '" + curText() + "'");
  if (kind() == Tok::Name &&
      (peekKind(1) == Tok::Assign || peekKind(1) == Tok::Colon || peekKind(1) == Tok::Comma))
    return parseBinding(body, isLast);

  // An expression statement.
  auto e = parseExpr();
  if (!e)
    return e.takeError();
  if (kind() == Tok::Assign)
    return errorHere("cannot assign to this expression");
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  const Ast &a = node(*e);
  llvm::StringRef callee = a.kind == AK::Call ? node(kid(*e, 0)).text : llvm::StringRef();
  if (callee == "R.func_attr")
    return parseFuncAttr(*e, body.attrs);
  if (callee == "R.output")
    return astError(*e, "R.output is only allowed at the end of a dataflow block");
  auto v = a.kind == AK::Call ? toCall(*e, nullptr) : toExpr(*e);
  if (!v)
    return v.takeError();
  auto norm = bb_->normalize(*v);
  if (!norm)
    return norm.takeError();
  if (!isVoidSInfo((*norm)->sinfo.get()))
    return astError(*e, "an expression statement must have void struct info R.Tuple(); bind "
                        "its value to a name");
  llvm::SMLoc l = astLoc(*e);
  if (isLast && !inDataflow_) {
    // A branch may end with one (TVM binds it to `_`, then `__then`).
    body.result = BranchResult{"_", *norm, l, StructInfo()};
    return llvm::Error::success();
  }
  Var var = inDataflow_ ? Var(make<DataflowVarNode>("_", (*norm)->sinfo, l))
                        : make<VarNode>("_", (*norm)->sinfo, l);
  bb_->freshName(inDataflow_ ? "lv" : "gv");
  return bb_->emitBinding(make<VarBindingNode>(var, *norm, l));
}

llvm::Error Parser::emitNamed(llvm::StringRef name, Expr value, llvm::SMLoc loc, size_t nameTok) {
  auto norm = bb_->normalize(std::move(value));
  if (!norm)
    return norm.takeError();
  bool df = inDataflow_ && !outputNameToks_.count(static_cast<uint32_t>(nameTok));
  Var v = df ? Var(make<DataflowVarNode>(name.str(), (*norm)->sinfo, loc))
             : make<VarNode>(name.str(), (*norm)->sinfo, loc);
  bb_->freshName(inDataflow_ ? "lv" : "gv");
  if (auto err = bb_->emitBinding(make<VarBindingNode>(v, *norm, loc)))
    return err;
  define(name, relaxSym(v));
  return llvm::Error::success();
}

llvm::Expected<StructInfo> Parser::annotationSInfo(uint32_t ast, size_t firstTok, size_t endTok) {
  if (memoEpoch_ != symEpoch_) {
    annotationMemo_.clear();
    memoEpoch_ = symEpoch_;
  }
  const Token &last = tok(endTok - 1);
  llvm::StringRef text =
      buf_.slice(tok(firstTok).offset, static_cast<size_t>(last.offset) + last.length);
  auto it = annotationMemo_.find(text);
  if (it != annotationMemo_.end())
    return it->second;
  auto s = toSInfo(ast, SInfoCtx{});
  if (s)
    annotationMemo_.try_emplace(text, *s);
  return s;
}

llvm::Error Parser::parseBinding(BodyState &body, bool isLastInBranch) {
  BindTargets targets;
  targets.push_back({curText(), pos_});
  ++pos_;
  while (consume(Tok::Comma)) {
    if (kind() != Tok::Name)
      return errorHere("expected a name in the assignment target");
    targets.push_back({curText(), pos_});
    ++pos_;
  }
  llvm::SMLoc bindLoc = locOf(targets[0].second);
  int64_t annAst = -1;
  size_t annFirst = 0, annEnd = 0;
  if (consume(Tok::Colon)) {
    annFirst = pos_;
    auto a = parseExpr();
    if (!a)
      return a.takeError();
    annAst = *a;
    annEnd = pos_;
  }
  if (auto err = expect(Tok::Assign, "'='"))
    return err;
  auto rhsOr = parseExprList();
  if (!rhsOr)
    return rhsOr.takeError();
  uint32_t rhs = *rhsOr;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  StructInfo ann;
  if (annAst >= 0) {
    auto s = annotationSInfo(static_cast<uint32_t>(annAst), annFirst, annEnd);
    if (!s)
      return s.takeError();
    ann = *s;
  }
  llvm::StringRef name = targets[0].first;
  const Ast &r = node(rhs);
  llvm::StringRef callee = r.kind == AK::Call && node(kid(rhs, 0)).kind == AK::Name
                               ? node(kid(rhs, 0)).text
                               : llvm::StringRef();
  if (auto decls = symVarDecls(rhs, targets.size(), /*constants=*/true)) {
    for (size_t k = 0; k < targets.size(); ++k)
      if (auto err = defineSymVar(targets[k].first, (*decls)[k], node(kid((*decls)[k], 0)).text))
        return err;
    return llvm::Error::success();
  }
  // cls = Module: an alias, no binding.
  if (targets.size() == 1 && isModuleAlias(rhs)) {
    define(name, Sym{Sym::ModuleAlias, nullptr});
    return llvm::Error::success();
  }
  if (callee == "R.match_cast")
    return parseMatchCast(targets[0], rhs, bindLoc, isLastInBranch ? &body : nullptr);
  Cls cls = classify(rhs);
  Expr value;
  if ((cls == Cls::PyNum || cls == Cls::PyBool) &&
      (isNumLit(rhs) || r.kind == AK::True || r.kind == AK::False)) {
    auto c = pythonConstant(rhs);
    if (!c)
      return c.takeError();
    value = *c;
  } else if (cls == Cls::Prim && targets.size() == 1 && r.kind != AK::Call) {
    auto p = toPrim(rhs, SInfoCtx{});
    if (!p)
      return p.takeError();
    define(name, tirSym(*p));
    return llvm::Error::success();
  } else {
    auto v = r.kind == AK::Call ? toCall(rhs, ann) : toExpr(rhs);
    if (!v)
      return v.takeError();
    value = *v;
  }
  if (isLastInBranch) {
    if (targets.size() != 1)
      return astError(rhs, "an if/else branch must end with a binding to one name");
    body.result = BranchResult{name.str(), value, bindLoc, StructInfo()};
    return llvm::Error::success();
  }
  return emitTargets(targets, value, bindLoc);
}

llvm::StringRef Parser::plainString(uint32_t n) const {
  // Names and dtypes hold no escapes: the literal less its quotes.
  llvm::StringRef t = text(node(n).tok);
  return t.size() >= 2 ? t.drop_front().drop_back() : t;
}

bool Parser::isSymVarDecl(uint32_t rhs, llvm::StringRef callee) const {
  // n = T.int64() / T.int32(is_size_var=True) / T.float16() / T.Var("n", "int64").
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(rhs, pos, kw);
  if (callee == "T.Var")
    return pos.size() == 2 && kw.empty() && node(pos[0]).kind == AK::Str &&
           node(pos[1]).kind == AK::Str && DataType::parse(plainString(pos[1])).hasValue();
  if (!callee.startswith("T.") || !pos.empty())
    return false;
  auto dt = DataType::parse(callee.drop_front(2));
  return dt && dt->lanes == 1 && !dt->isVoid();
}

bool Parser::isSymConstDecl(uint32_t rhs, llvm::StringRef callee) const {
  // C = T.int64(16) or T.IntImm("int64", 16) in a declaration list: the
  // name stands for the constant (Python binds it to the IntImm).
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(rhs, pos, kw);
  if (!kw.empty())
    return false;
  if (callee == "T.IntImm" || callee == "T.FloatImm")
    return pos.size() == 2 && node(pos[0]).kind == AK::Str && isNumLit(pos[1]);
  return callee.startswith("T.") && pos.size() == 1 && isNumLit(pos[0]) &&
         DataType::parse(callee.drop_front(2)).hasValue();
}

llvm::Error Parser::defineSymVar(llvm::StringRef name, uint32_t rhs, llvm::StringRef callee) {
  if (isSymConstDecl(rhs, callee)) {
    auto c = toPrim(rhs, SInfoCtx{});
    if (!c)
      return c.takeError();
    define(name, tirSym(*c));
    return llvm::Error::success();
  }
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(rhs, pos, kw);
  for (uint32_t k : kw)
    if (node(k).text != "is_size_var")
      return astError(k, callee + " got an unexpected keyword argument");
  TirVar v = symVarOf(name, rhs);
  if (const Sym *s = lookup(name))
    if (s->kind == Sym::Tir)
      if (const auto *tv = llvm::dyn_cast<TirVarNode>(s->node.get()))
        if (tv->dtype == v->dtype && tv->isSizeVar == v->isSizeVar && tv->name == v->name)
          return llvm::Error::success();
  define(name, tirSym(PrimExpr(v)));
  return llvm::Error::success();
}

bool Parser::isModuleAlias(uint32_t rhs) const {
  const Ast &r = node(rhs);
  if (r.kind != AK::Name)
    return false;
  const Sym *s = lookup(r.text);
  return (s && s->kind == Sym::ModuleAlias) || (!s && r.text == modName_);
}

llvm::Error Parser::parseMatchCast(std::pair<llvm::StringRef, size_t> target, uint32_t rhs,
                                   llvm::SMLoc bindLoc, BodyState *branchEnd) {
  llvm::StringRef name = target.first;
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(rhs, pos, kw);
  if (pos.size() != 2 || !kw.empty())
    return astError(rhs, "R.match_cast expects (value, struct_info)");
  auto v = toExpr(pos[0]);
  if (!v)
    return v.takeError();
  auto s = toSInfo(pos[1], SInfoCtx{});
  if (!s)
    return s.takeError();
  auto nv = bb_->normalizeArgument(*v);
  if (!nv)
    return nv.takeError();
  if (branchEnd) {
    branchEnd->result = BranchResult{name.str(), *nv, bindLoc, *s};
    return llvm::Error::success();
  }
  bool df = inDataflow_ && !outputNameToks_.count(static_cast<uint32_t>(target.second));
  Var var = df ? Var(make<DataflowVarNode>(name.str(), *s, bindLoc))
               : make<VarNode>(name.str(), *s, bindLoc);
  bb_->freshName(inDataflow_ ? "lv" : "gv");
  if (auto err = bb_->emitBinding(make<MatchCastNode>(var, *nv, *s, bindLoc)))
    return err;
  define(name, relaxSym(var));
  return llvm::Error::success();
}

llvm::Expected<Expr> Parser::pythonConstant(uint32_t rhs) {
  // A Python number becomes R.const: int32, float32 or bool.
  const Ast &r = node(rhs);
  auto data = std::make_shared<TensorData>();
  if (r.kind == AK::True || r.kind == AK::False) {
    data->dtype = DataType::boolType();
    data->bytes.push_back(r.kind == AK::True);
  } else if (isIntLit(rhs)) {
    auto iv = intValue(rhs);
    if (!iv)
      return iv.takeError();
    data->dtype = DataType::int32();
    int32_t x = static_cast<int32_t>(*iv);
    data->bytes.resize(4);
    std::memcpy(data->bytes.data(), &x, 4);
  } else {
    auto fv = floatValue(rhs);
    if (!fv)
      return fv.takeError();
    data->dtype = DataType::float32();
    float x = static_cast<float>(*fv);
    data->bytes.resize(4);
    std::memcpy(data->bytes.data(), &x, 4);
  }
  return Expr(make<ConstantNode>(std::shared_ptr<const TensorData>(std::move(data))));
}

llvm::Error Parser::emitTargets(const BindTargets &targets, Expr value, llvm::SMLoc bindLoc) {
  if (targets.size() == 1)
    return emitNamed(targets[0].first, value, bindLoc, targets[0].second);
  // a, b = value: bind the tuple, then each item.
  auto norm = bb_->normalize(value);
  if (!norm)
    return norm.takeError();
  auto tv = bb_->emit(*norm, "", bindLoc);
  if (!tv)
    return tv.takeError();
  for (size_t i = 0; i < targets.size(); ++i)
    if (auto err = emitNamed(targets[i].first, make<TupleGetItemNode>(*tv, static_cast<int>(i)),
                             locOf(targets[i].second), targets[i].second))
      return err;
  return llvm::Error::success();
}

llvm::Error Parser::parseDataflow(BodyState &body) {
  size_t withTok = pos_++;
  auto e = parseExpr();
  if (!e)
    return e.takeError();
  if (node(*e).kind != AK::Call || node(kid(*e, 0)).text != "R.dataflow" || node(*e).count != 1)
    return error(withTok, "only `with R.dataflow():` is supported");
  if (inDataflow_)
    return error(withTok, "dataflow blocks cannot be nested");
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  if (kind() != Tok::Indent)
    return errorHere("expected an indented dataflow block");
  size_t indent = pos_;

  DataflowScan scan = scanDataflow(indent);
  pos_ = indent + 1;
  if (!scan.outputStmt)
    return error(withTok, "a dataflow block must end with R.output(...)");
  llvm::DenseSet<uint32_t> savedOutputs = std::move(outputNameToks_);
  outputNameToks_.clear();
  markOutputTargets(scan);
  size_t outputStmt = scan.outputStmt;
  const auto &outputs = scan.outputs;

  body.startBlock(*bb_, /*isDataflow=*/true);
  inDataflow_ = true;
  pushScope();
  // The statements bind into the dataflow block just opened; a nested
  // `with` is refused before it could open another.
  BodyState inner(/*funcBody=*/false);
  while (pos_ < outputStmt) {
    if (kind() == Tok::Dedent || kind() == Tok::Eof)
      break;
    size_t stmt = pos_;
    if (auto err = parseStatement(inner, /*isLast=*/false))
      return err;
    if (inner.attrs)
      return error(stmt, "R.func_attr is not allowed inside a dataflow block");
  }
  // R.output(names)
  resetAst();
  auto out = parseExpr();
  if (!out)
    return out.takeError();
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  if (kind() != Tok::Dedent)
    return errorHere("R.output must be the last statement of a dataflow block");
  ++pos_;
  std::vector<std::pair<std::string, Sym>> visible;
  for (auto &[name, t] : outputs) {
    const Sym *s = lookup(name);
    if (!s || s->kind != Sym::RelaxVar)
      return error(t, "R.output: '" + name + "' is not a Relax variable");
    visible.push_back({name.str(), *s});
  }
  popScope();
  for (auto &[name, s] : visible)
    define(name, s);
  outputNameToks_ = std::move(savedOutputs);
  inDataflow_ = false;
  body.startBlock(*bb_, /*isDataflow=*/false);
  return llvm::Error::success();
}

DataflowScan Parser::scanDataflow(size_t indent) {
  // The assignment targets in order, and the R.output names. Only the
  // outputs need their last assignment: a map of every name would cost a
  // hash insertion per binding.
  DataflowScan scan;
  size_t i = indent + 1;
  while (i < toks_.size() && toks_[i].kind != Tok::Dedent && toks_[i].kind != Tok::Eof) {
    pos_ = i;
    if (kind() == Tok::Name && curText() == "R" && peekKind(1) == Tok::Dot &&
        text(pos_ + 2) == "output" && peekKind(3) == Tok::LParen) {
      scan.outputStmt = i;
      scan.outputs.clear();
      size_t j = pos_ + 4;
      while (tok(j).kind == Tok::Name) {
        scan.outputs.push_back({text(j), j});
        ++j;
        if (tok(j).kind == Tok::Comma)
          ++j;
      }
    } else if (kind() == Tok::Name) {
      size_t j = pos_;
      while (tok(j).kind == Tok::Name &&
             (tok(j + 1).kind == Tok::Comma || tok(j + 1).kind == Tok::Assign ||
              tok(j + 1).kind == Tok::Colon)) {
        scan.targets.push_back(static_cast<uint32_t>(j));
        if (tok(j + 1).kind != Tok::Comma)
          break;
        j += 2;
      }
    }
    skipStatement();
    i = pos_;
  }
  return scan;
}

void Parser::markOutputTargets(const DataflowScan &scan) {
  // Outputs still looking for their last assignment. A name bound only in a
  // nested block is reported at R.output itself.
  llvm::StringMap<bool> pending;
  for (auto &[name, t] : scan.outputs)
    pending.try_emplace(name, true);
  size_t unresolved = pending.size();
  for (auto it = scan.targets.rbegin(); it != scan.targets.rend() && unresolved > 0; ++it) {
    auto p = pending.find(text(*it));
    if (p != pending.end() && p->second) {
      p->second = false;
      outputNameToks_.insert(*it);
      --unresolved;
    }
  }
}

llvm::Optional<std::pair<Expr, std::string>>
Parser::dataflowBranchValue(std::vector<BindingBlock> &blocks, llvm::StringRef suffix) {
  // As TVM's parser: the last binding of the last (dataflow) block, an
  // output, becomes `name<suffix>` (or, a leaf value, the value itself).
  while (!blocks.empty() && blocks.back()->bindings.empty())
    blocks.pop_back();
  if (blocks.empty() || !blocks.back()->isDataflow)
    return llvm::None;
  const BindingBlockNode &block = *blocks.back();
  const BindingNode &last = *block.bindings.back();
  if (llvm::isa<DataflowVarNode>(last.var.get()))
    return llvm::None;
  std::string name = last.var->name;
  std::vector<Binding> bindings(block.bindings.begin(), block.bindings.end() - 1);
  Expr value = last.value;
  if (const auto *cast = llvm::dyn_cast<MatchCastNode>(&last)) {
    Var v = make<VarNode>(name + suffix.str(), cast->castSInfo, last.loc);
    bindings.push_back(make<MatchCastNode>(v, value, cast->castSInfo, last.loc));
    value = v;
  } else if (!isLeafOrTuple(value.get())) {
    Var v = make<VarNode>(name + suffix.str(), value->sinfo, last.loc);
    bindings.push_back(make<VarBindingNode>(v, value, last.loc));
    value = v;
  }
  blocks.back() = make<BindingBlockNode>(std::move(bindings), /*isDataflow=*/true, block.loc);
  return std::make_pair(value, name);
}

llvm::Error Parser::parseIf(size_t stmtTok) {
  ++pos_;
  auto c = parseExpr();
  if (!c)
    return c.takeError();
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  auto condE = toExpr(*c);
  if (!condE)
    return condE.takeError();
  auto cond = bb_->normalizeArgument(*condE);
  if (!cond)
    return cond.takeError();
  if (++depth_ > kMaxNestingDepth)
    return error(stmtTok, "nesting too deep");
  struct DepthRestore {
    unsigned &d;
    ~DepthRestore() { --d; }
  } restore{depth_};

  struct ParsedBranch {
    std::string name;
    SeqExpr seq;
    llvm::SMLoc loc;
  };
  auto branch = [&](llvm::StringRef suffix) -> llvm::Expected<ParsedBranch> {
    if (kind() != Tok::Indent)
      return errorHere("expected an indented block");
    ++pos_;
    BlockBuilder::InnerScope innerScope(*bb_);
    pushScope();
    BodyState body(/*funcBody=*/false);
    body.startBlock(*bb_, /*isDataflow=*/false);
    bool sawLast = false;
    while (kind() != Tok::Dedent && kind() != Tok::Eof) {
      bool isLast = isLastStatement(*this);
      if (auto err = parseStatement(body, isLast))
        return err;
      sawLast |= isLast;
    }
    if (sawLast && !body.result) {
      // The branch ends with a dataflow block: its last output is the value.
      body.closeBlock();
      if (llvm::Optional<std::pair<Expr, std::string>> out =
              dataflowBranchValue(body.blocks, suffix)) {
        auto seq = bb_->finalizeSeqExpr(std::move(body.blocks), out->first);
        if (!seq)
          return seq.takeError();
        popScope();
        if (auto err = expect(Tok::Dedent, "end of block"))
          return err;
        return ParsedBranch{out->second, *seq, seq->get()->loc};
      }
    }
    if (!sawLast || !body.result || !body.result->value)
      return errorHere("an if/else branch must end with a binding");
    const BranchResult &last = *body.result;
    auto norm = bb_->normalize(last.value);
    if (!norm)
      return norm.takeError();
    Expr value = *norm;
    // The branch yields a leaf or a tuple: anything else gets a var, and a
    // closing match cast stays a match cast (of the renamed var), as in TVM.
    if (last.matchCast) {
      Var v = make<VarNode>(last.name + suffix.str(), last.matchCast, last.loc);
      bb_->freshName("gv");
      if (auto err = bb_->emitBinding(make<MatchCastNode>(v, value, last.matchCast, last.loc)))
        return err;
      value = v;
    } else if (!isLeafOrTuple(value.get())) {
      Var v = make<VarNode>(last.name + suffix.str(), value->sinfo, last.loc);
      bb_->freshName("gv");
      if (auto err = bb_->emitBinding(make<VarBindingNode>(v, value, last.loc)))
        return err;
      value = v;
    }
    body.closeBlock();
    auto seq = bb_->finalizeSeqExpr(std::move(body.blocks), value);
    if (!seq)
      return seq.takeError();
    popScope();
    if (auto err = expect(Tok::Dedent, "end of block"))
      return err;
    return ParsedBranch{last.name, *seq, last.loc};
  };
  auto thenBranch = branch("_then");
  if (!thenBranch)
    return thenBranch.takeError();
  if (!isName("else"))
    return errorHere("an if statement needs an else branch");
  ++pos_;
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  auto elseBranch = branch("_else");
  if (!elseBranch)
    return elseBranch.takeError();
  if (thenBranch->name != elseBranch->name)
    return diagError(elseBranch->loc, "both branches of an if must end with a binding to the "
                                      "same name ('" +
                                          thenBranch->name + "' and '" + elseBranch->name + "')");
  auto ifNode = makeAt<IfNode>(locOf(stmtTok), *cond, thenBranch->seq, elseBranch->seq);
  return emitNamed(thenBranch->name, ifNode, locOf(stmtTok), SIZE_MAX);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

namespace {
/// Parses `buffer`, which becomes the file's source buffer (locations of
/// diagnostics and nodes point into it).
llvm::Expected<ParsedFile> parseBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                       std::shared_ptr<llvm::SourceMgr> *smOut) {
  auto sm = std::make_shared<llvm::SourceMgr>();
  sm->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (smOut)
    *smOut = sm;
  llvm::StringRef buf = sm->getMemoryBuffer(sm->getMainFileID())->getBuffer();
  auto lexed = lex(buf);
  if (!lexed)
    return lexed.takeError();
  ParsedFile file;
  file.pipeline = std::move(lexed->directives.pipeline);
  file.configs = std::move(lexed->directives.configs);
  file.expectError = std::move(lexed->directives.expectError);
  file.sources = sm;
  Parser parser(buf, std::move(lexed->tokens));
  if (auto err = parser.parseFile(file.modules))
    return err;
  for (auto &m : file.modules)
    m->sources = sm;
  return file;
}
} // namespace

llvm::Expected<ParsedFile> graft::parseText(llvm::StringRef text, llvm::StringRef bufferName,
                                            std::shared_ptr<llvm::SourceMgr> *smOut) {
  return parseBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), smOut);
}

llvm::Expected<ParsedFile> graft::parseFile(llvm::StringRef path,
                                            std::shared_ptr<llvm::SourceMgr> *smOut) {
  auto buf = path == "-" ? llvm::MemoryBuffer::getSTDIN() : llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return llvm::createStringError(buf.getError(),
                                   "cannot read '" + path + "': " + buf.getError().message());
  if (path == "-") // Keep "-" as the name diagnostics show.
    return parseText((*buf)->getBuffer(), path, smOut);
  // The file's own buffer (mapped for large files) is used as is: copying a
  // large input would cost a page fault per 4 KiB.
  return parseBuffer(std::move(*buf), smOut);
}
