//===- text/ParsePrimFunc.cpp - @T.prim_func declarations -------------------===//
//
// graft does not model TIR: a PrimFunc keeps its signature, the leading
// T.func_attr / T.match_buffer (and symbolic var) statements, and the rest
// of its body as canonical tokens with "<NEWLINE>", "<INDENT>", "<DEDENT>"
// layout markers, which ir/PrintPrimFunc.cpp re-indents (docs/text-format.md).
// Exception: the bodies of the PrimFuncs graft generates, a shape_func's
// `H[T.int64(slot)] = expr` stores and compute_symbolic_expr's
// `T.ret(expr)`, become PrimExprs (heapStores, computed) that compare
// structurally and that the VM evaluates.
//
//===----------------------------------------------------------------------===//

#include "text/ParserImpl.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace graft;
using namespace graft::parse;

namespace {

/// `T.float32` -> float32; `T.handle` -> Handle; None when not a T type.
llvm::Optional<DataType> tirType(llvm::StringRef name) {
  if (!name.consume_front("T."))
    return llvm::None;
  if (name == "handle")
    return DataType(DataType::Handle, 64);
  return DataType::parse(name);
}

/// `H` of a shape_func: one 1-D int64 buffer, no return value.
bool isHeapSignature(const PrimFuncNode &f) {
  return f.retType.isVoid() && f.params.size() == 1 &&
         f.params[0].kind == PrimParam::Kind::Buffer && f.params[0].shape.size() == 1 &&
         f.params[0].dtype == DataType::int64();
}

/// compute_symbolic_expr: scalar params and a scalar result.
bool isScalarSignature(const PrimFuncNode &f) {
  if (f.retType.isVoid() || f.retType.isHandle())
    return false;
  for (const PrimParam &p : f.params)
    if (p.kind != PrimParam::Kind::Scalar || p.dtype.isHandle())
      return false;
  return true;
}

} // namespace

bool Parser::parseGeneratedPrimBody(PrimFuncNode &f) {
  bool heapForm = isHeapSignature(f);
  if (!heapForm && !isScalarSignature(f))
    return false;
  size_t start = pos_;
  if (kind() == Tok::String && peekKind(1) == Tok::Newline)
    pos_ += 2; // A docstring: TVM's parser drops it.
  auto fail = [&](llvm::Error err) {
    llvm::consumeError(std::move(err));
    pos_ = start;
    f.heapStores.clear();
    f.heapLoads.clear();
    f.computed = nullptr;
    return false;
  };
  auto mismatch = [] {
    return llvm::make_error<llvm::StringError>("", llvm::inconvertibleErrorCode());
  };

  // `H[T.int64(k)]`: one var per slot read, in first-use order.
  llvm::StringRef heap = heapForm ? llvm::StringRef(f.params[0].name) : llvm::StringRef();
  SInfoCtx ctx{false, false, DataType::int32()};
  auto slotOf = [&](uint32_t n) -> llvm::Expected<int64_t> {
    if (node(n).kind != AK::Subscript || node(kid(n, 0)).kind != AK::Name ||
        node(kid(n, 0)).text != heap)
      return mismatch();
    llvm::Expected<PrimExpr> index = toPrim(kid(n, 1), ctx);
    if (!index)
      return index.takeError();
    const auto *imm = llvm::dyn_cast<IntImmNode>(index->get());
    if (!imm || imm->dtype != DataType::int64() || imm->value < 0)
      return mismatch();
    return imm->value;
  };
  auto load = [&](uint32_t n) -> llvm::Expected<PrimExpr> {
    llvm::Expected<int64_t> slot = slotOf(n);
    if (!slot)
      return slot.takeError();
    for (const auto &l : f.heapLoads)
      if (l.first == *slot)
        return PrimExpr(l.second);
    TirVar v = make<TirVarNode>("h" + std::to_string(*slot), DataType::int64());
    f.heapLoads.emplace_back(*slot, v);
    return PrimExpr(v);
  };
  if (heapForm) {
    ctx.subscript = load;
  } else {
    for (const PrimParam &p : f.params) {
      Sym s;
      s.kind = Sym::Tir;
      s.node = make<TirVarNode>(p.name, p.dtype);
      define(p.name, s);
    }
  }

  while (kind() != Tok::Dedent) {
    resetAst();
    llvm::Expected<uint32_t> lhs = parseExpr();
    if (!lhs)
      return fail(lhs.takeError());
    int64_t slot = -1;
    if (heapForm) {
      llvm::Expected<int64_t> s = slotOf(*lhs);
      if (!s)
        return fail(s.takeError());
      slot = *s;
      if (!consume(Tok::Assign))
        return fail(mismatch());
    } else {
      const Ast &call = node(*lhs);
      if (call.kind != AK::Call || node(kid(*lhs, 0)).text != "T.ret" || call.count != 2 ||
          f.computed)
        return fail(mismatch());
    }
    uint32_t valueAst = heapForm ? 0 : kid(*lhs, 1);
    if (heapForm) {
      llvm::Expected<uint32_t> rhs = parseExpr();
      if (!rhs)
        return fail(rhs.takeError());
      valueAst = *rhs;
    }
    llvm::Expected<PrimExpr> value = toPrim(valueAst, ctx);
    if (!value)
      return fail(value.takeError());
    if (!consume(Tok::Newline))
      return fail(mismatch());
    if (heapForm)
      f.heapStores.emplace_back(slot, std::move(*value));
    else
      f.computed = std::move(*value);
  }
  if (heapForm ? f.heapStores.empty() : !f.computed)
    return fail(mismatch());

  ++pos_; // The body's Dedent.
  f.isPure = !heapForm;
  return true;
}

llvm::Expected<NamedPrimFunc> Parser::parsePrimFunc(uint32_t decoAst) {
  auto pf = draft<PrimFuncNode>();
  PrimFuncNode &f = *pf;
  if (auto err = primDecoratorArgs(decoAst, f))
    return err;
  if (!isName("def"))
    return errorHere("expected 'def' after @T.prim_func");
  f.loc = loc();
  ++pos_;
  if (kind() != Tok::Name)
    return errorHere("expected a function name");
  std::string name = curText().str();
  ++pos_;
  pushScope();
  struct ScopeGuard {
    Parser &p;
    ~ScopeGuard() { p.popScope(); }
  } guard{*this};
  SInfoCtx sctx{false, true, DataType::int32()};

  if (auto err = parsePrimSignature(f, sctx))
    return err;
  auto decls = parsePrimDecls(f, sctx);
  if (!decls)
    return decls.takeError();
  if (!f.isPrivate) {
    bool has = false;
    for (const auto &kv : decls->attrs)
      has |= kv.first == "global_symbol";
    if (!has)
      decls->attrs.emplace_back("global_symbol", AttrValue::string(name));
  }
  if (!decls->attrs.empty())
    f.attrs = make<AttrsNode>(std::move(decls->attrs));

  if (decls->vars.empty() && parseGeneratedPrimBody(f))
    return NamedPrimFunc{std::move(name), pf.publish()};
  llvm::Expected<bool> structured = parseStructuredPrimBody(f, *decls);
  if (!structured)
    return structured.takeError();
  if (*structured)
    return NamedPrimFunc{std::move(name), pf.publish()};
  if (auto err = collectPrimBody(f, *decls))
    return err;
  return NamedPrimFunc{std::move(name), pf.publish()};
}

llvm::Error Parser::primDecoratorArgs(uint32_t decoAst, PrimFuncNode &f) {
  if (node(decoAst).kind != AK::Call)
    return llvm::Error::success();
  llvm::SmallVector<uint32_t, 2> pos, kw;
  callArgs(decoAst, pos, kw);
  if (!pos.empty())
    return astError(pos[0], "@T.prim_func takes only keyword arguments");
  for (uint32_t k : kw) {
    AK vk = node(kid(k, 0)).kind;
    if (vk != AK::True && vk != AK::False)
      return astError(kid(k, 0), "expected True or False");
    if (node(k).text == "private")
      f.isPrivate = vk == AK::True;
    else if (node(k).text == "check_well_formed")
      f.checkWellFormed = vk == AK::True;
    else
      return astError(k, "unexpected decorator argument '" + node(k).text + "'");
  }
  return llvm::Error::success();
}

llvm::Error Parser::parsePrimSignature(PrimFuncNode &f, const SInfoCtx &sctx) {
  if (auto err = expect(Tok::LParen, "'('"))
    return err;
  while (!consume(Tok::RParen)) {
    auto p = parsePrimParam(sctx);
    if (!p)
      return p.takeError();
    f.params.push_back(std::move(*p));
    if (consume(Tok::RParen))
      break;
    if (auto err = expect(Tok::Comma, "',' or ')'"))
      return err;
  }
  if (consume(Tok::Arrow)) {
    resetAst();
    auto r = parseExpr();
    if (!r)
      return r.takeError();
    const Ast &ra = node(*r);
    if (ra.kind == AK::Name) {
      auto dt = tirType(ra.text);
      if (!dt)
        return astError(*r, "unsupported PrimFunc return type");
      f.retType = *dt;
    } else if (ra.kind != AK::None) {
      return astError(*r, "unsupported PrimFunc return type");
    }
  }
  if (auto err = expect(Tok::Colon, "':'"))
    return err;
  if (auto err = expect(Tok::Newline, "newline"))
    return err;
  return expect(Tok::Indent, "an indented function body");
}

llvm::Expected<PrimParam> Parser::parsePrimParam(const SInfoCtx &sctx) {
  if (kind() != Tok::Name)
    return errorHere("expected a parameter name");
  PrimParam p;
  p.name = curText().str();
  ++pos_;
  if (auto err = expect(Tok::Colon, "':' and a parameter type"))
    return err;
  resetAst();
  auto ty = parseExpr();
  if (!ty)
    return ty.takeError();
  const Ast &t = node(*ty);
  llvm::StringRef tn = t.kind == AK::Name   ? t.text
                       : t.kind == AK::Call ? node(kid(*ty, 0)).text
                                            : llvm::StringRef();
  if (tn == "T.Buffer") {
    if (auto err = primBufferParam(*ty, p, sctx))
      return err;
  } else if (tn == "T.handle" || (t.kind == AK::Call && tn == "T.handle")) {
    p.kind = PrimParam::Kind::Handle;
    p.dtype = DataType(DataType::Handle, 64);
  } else if (auto dt = tirType(tn)) {
    p.kind = PrimParam::Kind::Scalar;
    p.dtype = *dt;
  } else {
    return astError(*ty, "unsupported PrimFunc parameter type");
  }
  return p;
}

llvm::Expected<std::vector<PrimExpr>> Parser::bufferDims(uint32_t shape, const SInfoCtx &sctx) {
  // A buffer shape is a list of dims or, as TIR's buffer builder takes it,
  // one dim (`T.Buffer(T.int64(4), "int64")`, `T.match_buffer(h, n)`).
  if (node(shape).kind == AK::Tuple || node(shape).kind == AK::List)
    return primList(shape, sctx);
  auto d = toPrim(shape, sctx);
  if (!d)
    return d.takeError();
  return std::vector<PrimExpr>{*d};
}

llvm::Error Parser::primBufferParam(uint32_t ty, PrimParam &p, const SInfoCtx &sctx) {
  llvm::SmallVector<uint32_t, 4> pos, kw;
  callArgs(ty, pos, kw);
  int64_t shapeN = pos.empty() ? int64_t(-1) : int64_t(pos[0]);
  int64_t dtN = pos.size() > 1 ? int64_t(pos[1]) : int64_t(-1);
  for (uint32_t k : kw) {
    if (node(k).text == "shape")
      shapeN = kid(k, 0);
    else if (node(k).text == "dtype")
      dtN = kid(k, 0);
  }
  if (shapeN < 0)
    return astError(ty, "T.Buffer needs a shape");
  p.kind = PrimParam::Kind::Buffer;
  auto dims = bufferDims(static_cast<uint32_t>(shapeN), sctx);
  if (!dims)
    return dims.takeError();
  p.shape = std::move(*dims);
  p.dtype = DataType::float32();
  if (dtN >= 0) {
    auto dt = dtypeArg(dtN);
    if (!dt)
      return dt.takeError();
    p.dtype = *dt;
  }
  return llvm::Error::success();
}

llvm::Expected<PrimDecls> Parser::parsePrimDecls(PrimFuncNode &f, const SInfoCtx &sctx) {
  // A `n = T.int64()` that no buffer shape uses declares a var for the body
  // only: collectPrimBody gives its tokens back to the body.
  PrimDecls decls;
  for (;;) {
    size_t stmt = pos_;
    resetAst();
    llvm::SmallVector<llvm::StringRef, 2> targets;
    while (kind() == Tok::Name && (peekKind(1) == Tok::Comma || peekKind(1) == Tok::Assign)) {
      targets.push_back(curText());
      pos_ += 2;
      if (tok(pos_ - 1).kind == Tok::Assign)
        break;
    }
    bool assign = !targets.empty() && tok(pos_ - 1).kind == Tok::Assign;
    llvm::StringRef target = assign ? targets[0] : llvm::StringRef();
    if (!(kind() == Tok::Name && curText() == "T") || (!targets.empty() && !assign)) {
      pos_ = stmt;
      break;
    }
    auto e = targets.size() > 1 ? parseExprList() : parseExpr();
    if (!e || kind() != Tok::Newline) {
      if (!e)
        llvm::consumeError(e.takeError());
      pos_ = stmt;
      break;
    }
    if (targets.size() > 1) {
      // `m, n = T.int64(), T.int64()`: each var is kept as its own
      // declaration, so an unused one goes back to the body as one line.
      auto calls = symVarDecls(*e, targets.size());
      // Only T.int64()/T.int32() declarations are kept as tokens.
      if (calls && llvm::any_of(*calls, [&](uint32_t c) {
            llvm::StringRef callee = node(kid(c, 0)).text;
            return callee != "T.int64" && callee != "T.int32";
          }))
        calls.reset();
      if (!calls) {
        pos_ = stmt;
        break;
      }
      for (size_t k = 0; k < targets.size(); ++k) {
        TirVar v = symVarOf(targets[k], (*calls)[k]);
        define(targets[k], Sym{Sym::Tir, v});
        std::vector<std::string> declToks{targets[k].str(),
                                          "=",
                                          "T",
                                          ".",
                                          v->dtype == DataType::int64() ? "int64" : "int32",
                                          "("};
        if (v->isSizeVar)
          declToks.insert(declToks.end(), {"is_size_var", "=", "True"});
        declToks.push_back(")");
        decls.vars.push_back({v, std::move(declToks)});
      }
      if (auto err = expect(Tok::Newline, "newline"))
        return err;
      continue;
    }
    if (node(*e).kind != AK::Call) {
      pos_ = stmt;
      break;
    }
    CallParts c{*e, node(kid(*e, 0)).text, {}, {}};
    callArgs(*e, c.pos, c.kw);
    if (!assign && c.name == "T.func_attr" && c.pos.size() == 1 &&
        node(c.pos[0]).kind == AK::Dict) {
      auto d = toAnyAttr(c.pos[0]);
      if (!d)
        return d.takeError();
      for (const auto &[k, v] : d->getDict())
        decls.attrs.emplace_back(k, v);
    } else if (assign && (c.name == "T.int64" || c.name == "T.int32") && c.pos.empty()) {
      std::vector<std::string> declToks;
      for (size_t i = stmt; i < pos_; ++i)
        declToks.push_back(text(i).str());
      decls.vars.push_back({primVarDecl(target, c), std::move(declToks)});
    } else if (assign && c.name == "T.match_buffer" && c.pos.size() >= 2 &&
               node(c.pos[0]).kind == AK::Name) {
      if (auto err = primMatchBuffer(f, target, c, sctx))
        return err;
    } else {
      pos_ = stmt;
      break;
    }
    if (auto err = expect(Tok::Newline, "newline"))
      return err;
  }
  return decls;
}

TirVar Parser::primVarDecl(llvm::StringRef target, const CallParts &c) {
  bool sizeVar = false;
  for (uint32_t k : c.kw)
    if (node(k).text == "is_size_var")
      sizeVar = node(kid(k, 0)).kind == AK::True;
  TirVar v = make<TirVarNode>(target.str(),
                              c.name == "T.int64" ? DataType::int64() : DataType::int32(), sizeVar);
  Sym s;
  s.kind = Sym::Tir;
  s.node = v;
  define(target, s);
  return v;
}

llvm::Error Parser::primMatchBuffer(PrimFuncNode &f, llvm::StringRef target, const CallParts &c,
                                    const SInfoCtx &sctx) {
  const auto &pos = c.pos;
  PrimParam *param = nullptr;
  for (PrimParam &p : f.params)
    if (p.kind == PrimParam::Kind::Handle && p.name == node(pos[0]).text)
      param = &p;
  if (!param)
    return astError(pos[0],
                    "T.match_buffer: '" + node(pos[0]).text + "' is not a handle parameter");
  auto dims = bufferDims(pos[1], sctx);
  if (!dims)
    return dims.takeError();
  int64_t dtN = pos.size() > 2 ? int64_t(pos[2]) : int64_t(-1);
  for (uint32_t k : c.kw)
    if (node(k).text == "dtype")
      dtN = kid(k, 0);
  DataType dt = DataType::float32();
  if (dtN >= 0) {
    auto v = dtypeArg(dtN);
    if (!v)
      return v.takeError();
    dt = *v;
  }
  param->kind = PrimParam::Kind::Buffer;
  param->name = target.str();
  param->shape = std::move(*dims);
  param->dtype = dt;
  return llvm::Error::success();
}

llvm::Error Parser::collectPrimBody(PrimFuncNode &f, const PrimDecls &decls) {
  // The rest of the body as canonical tokens; purity from stores into
  // parameter buffers.
  llvm::StringSet<> buffers;
  llvm::DenseSet<const TirVarNode *> shapeVars;
  for (const PrimParam &p : f.params) {
    if (p.kind != PrimParam::Kind::Buffer)
      continue;
    buffers.insert(p.name);
    for (const PrimExpr &d : p.shape)
      forEachTirVar(d.get(), [&](const TirVarNode *v) { shapeVars.insert(v); });
  }
  for (const auto &decl : decls.vars) {
    if (shapeVars.count(decl.first.get()))
      continue;
    f.bodyTokens.insert(f.bodyTokens.end(), decl.second.begin(), decl.second.end());
    f.bodyTokens.push_back("<NEWLINE>");
  }
  int depth = 1;
  bool stmtStart = true;
  while (kind() != Tok::Eof) {
    Tok k = kind();
    // The body is kept as tokens, not parsed, so Python's block rules are
    // checked here: text that breaks them would print as text that neither
    // graft nor TVM reads back.
    if (llvm::Error err = checkPrimBlockLayout())
      return err;
    if (k == Tok::Dedent && --depth == 0) {
      ++pos_;
      break;
    }
    if (k == Tok::Indent)
      ++depth;
    if (k == Tok::Newline || k == Tok::Indent || k == Tok::Dedent) {
      f.bodyTokens.push_back(k == Tok::Newline  ? "<NEWLINE>"
                             : k == Tok::Indent ? "<INDENT>"
                                                : "<DEDENT>");
      stmtStart = true;
      ++pos_;
      continue;
    }
    if (stmtStart && k == Tok::Name && peekKind(1) == Tok::LBracket && f.isPure &&
        buffers.count(curText()) && isSubscriptStore(pos_))
      f.isPure = false;
    stmtStart = false;
    f.bodyTokens.push_back(curText().str());
    ++pos_;
  }
  return llvm::Error::success();
}

llvm::Error Parser::checkPrimBlockLayout() const {
  // Python's rule: a block opens (an Indent) exactly after a line that ends
  // with ':' (a compound statement's header).
  bool afterHeader =
      pos_ >= 2 && toks_[pos_ - 1].kind == Tok::Newline && toks_[pos_ - 2].kind == Tok::Colon;
  if (kind() == Tok::Indent && !afterHeader)
    return errorHere("unexpected indent");
  if (kind() != Tok::Indent && afterHeader)
    return errorHere("expected an indented block");
  return llvm::Error::success();
}

bool Parser::isSubscriptStore(size_t name) const {
  size_t j = name + 1;
  int br = 0;
  for (; j < toks_.size(); ++j) {
    Tok tk = toks_[j].kind;
    if (tk == Tok::LBracket)
      ++br;
    else if (tk == Tok::RBracket && --br == 0)
      break;
    else if (tk == Tok::Newline || tk == Tok::Eof)
      break;
  }
  return tok(j).kind == Tok::RBracket && tok(j + 1).kind == Tok::Assign;
}
