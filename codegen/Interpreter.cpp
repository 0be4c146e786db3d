//===- codegen/Interpreter.cpp - The reference interpreter -----------------===//
//
// One work list of frames; each frame a stack of cursors over SeqExprs (the
// function body, then the branches of the `if`s being evaluated). A binding
// whose value needs a nested evaluation (an `if` branch, a call of a module
// function) pushes a cursor or a frame and is completed when that one
// finishes, so neither nesting nor call depth uses the C++ stack.
//
//===----------------------------------------------------------------------===//

#include "codegen/InterpreterImpl.h"

#include "codegen/Constants.h"

#include "ir/Printer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace graft;
using namespace graft::codegen;
using namespace graft::codegen::interp;
using vm::Value;

char InterpretError::ID = 0;

//===----------------------------------------------------------------------===//
// Symbolic expressions.
//===----------------------------------------------------------------------===//

namespace {

/// Two's-complement wrap-around to the dtype's width (as TIR's integers).
int64_t wrapInt(DataType dt, uint64_t v) {
  if (dt.isBool())
    return v != 0;
  if (dt.bits >= 64 || dt.bits == 0)
    return static_cast<int64_t>(v);
  uint64_t mask = (uint64_t(1) << dt.bits) - 1;
  v &= mask;
  if (dt.isInt() && (v >> (dt.bits - 1)))
    v |= ~mask;
  return static_cast<int64_t>(v);
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

llvm::Expected<Scalar> applyFloat(PrimOp op, double a, double b) {
  switch (op) {
  case PrimOp::Add:
    return Scalar::real(a + b);
  case PrimOp::Sub:
    return Scalar::real(a - b);
  case PrimOp::Mul:
    return Scalar::real(a * b);
  case PrimOp::FloorDiv:
    return Scalar::real(std::floor(a / b));
  case PrimOp::FloorMod:
    return Scalar::real(a - std::floor(a / b) * b);
  case PrimOp::Min:
    return Scalar::real(std::min(a, b));
  case PrimOp::Max:
    return Scalar::real(std::max(a, b));
  default:
    break;
  }
  return runtimeError("float operands of a logical operator");
}

llvm::Expected<Scalar> applyBinary(const PrimBinaryNode &n, Scalar a, Scalar b) {
  auto flag = [](bool v) { return Scalar::integer(v); };
  switch (n.op) {
  case PrimOp::EQ:
    return flag(a == b);
  case PrimOp::NE:
    return flag(!(a == b));
  case PrimOp::LT:
    return flag(a.isFloat || b.isFloat ? a.asDouble() < b.asDouble() : a.i < b.i);
  case PrimOp::LE:
    return flag(a.isFloat || b.isFloat ? a.asDouble() <= b.asDouble() : a.i <= b.i);
  case PrimOp::GT:
    return flag(a.isFloat || b.isFloat ? a.asDouble() > b.asDouble() : a.i > b.i);
  case PrimOp::GE:
    return flag(a.isFloat || b.isFloat ? a.asDouble() >= b.asDouble() : a.i >= b.i);
  case PrimOp::And:
    return flag(a.i && b.i);
  case PrimOp::Or:
    return flag(a.i || b.i);
  default:
    break;
  }
  if (a.isFloat || b.isFloat || n.dtype.isFloat())
    return applyFloat(n.op, a.asDouble(), b.asDouble());
  uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
  switch (n.op) {
  case PrimOp::Add:
    return Scalar::integer(wrapInt(n.dtype, x + y));
  case PrimOp::Sub:
    return Scalar::integer(wrapInt(n.dtype, x - y));
  case PrimOp::Mul:
    return Scalar::integer(wrapInt(n.dtype, x * y));
  case PrimOp::FloorDiv:
  case PrimOp::FloorMod: {
    if (b.i == 0)
      return runtimeError("division by zero in '" + toString(&n) + "'");
    if (a.i == INT64_MIN && b.i == -1)
      return Scalar::integer(n.op == PrimOp::FloorDiv ? INT64_MIN : 0);
    int64_t q = floorDiv(a.i, b.i);
    return Scalar::integer(n.op == PrimOp::FloorDiv ? q : a.i - q * b.i);
  }
  case PrimOp::Min:
    return Scalar::integer(std::min(a.i, b.i));
  case PrimOp::Max:
    return Scalar::integer(std::max(a.i, b.i));
  default:
    break;
  }
  return runtimeError("unknown operator in '" + toString(&n) + "'");
}

Scalar castScalar(DataType dt, Scalar s) {
  if (dt.isFloat())
    return Scalar::real(dt.bits == 32 ? static_cast<float>(s.asDouble()) : s.asDouble());
  if (dt.isBool())
    return Scalar::integer(s.isFloat ? s.f != 0 : s.i != 0);
  if (!s.isFloat)
    return Scalar::integer(wrapInt(dt, static_cast<uint64_t>(s.i)));
  if (!std::isfinite(s.f) || std::fabs(s.f) >= 9.2e18)
    return Scalar::integer(0);
  return Scalar::integer(wrapInt(dt, static_cast<uint64_t>(static_cast<int64_t>(s.f))));
}

llvm::SmallVector<const PrimExprNode *, 3> children(const PrimExprNode *e) {
  if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e))
    return {b->a.get(), b->b.get()};
  if (const auto *n = llvm::dyn_cast<PrimNotNode>(e))
    return {n->a.get()};
  if (const auto *c = llvm::dyn_cast<PrimCastNode>(e))
    return {c->value.get()};
  if (const auto *s = llvm::dyn_cast<PrimSelectNode>(e))
    return {s->cond.get(), s->trueValue.get(), s->falseValue.get()};
  return {};
}

/// `e` once its children's values are the last entries of `values`.
llvm::Expected<Scalar> combine(const PrimExprNode *e, llvm::ArrayRef<Scalar> in,
                               const SymEnv &env) {
  if (const auto *i = llvm::dyn_cast<IntImmNode>(e))
    return Scalar::integer(i->value);
  if (const auto *f = llvm::dyn_cast<FloatImmNode>(e))
    return Scalar::real(f->value);
  if (const auto *v = llvm::dyn_cast<TirVarNode>(e)) {
    auto it = env.find(v);
    if (it == env.end())
      return runtimeError("symbolic var '" + v->name + "' has no value");
    return it->second;
  }
  if (const auto *b = llvm::dyn_cast<PrimBinaryNode>(e))
    return applyBinary(*b, in[0], in[1]);
  if (llvm::isa<PrimNotNode>(e))
    return Scalar::integer(in[0].isFloat ? in[0].f == 0 : in[0].i == 0);
  if (const auto *c = llvm::dyn_cast<PrimCastNode>(e))
    return castScalar(c->dtype, in[0]);
  if (llvm::isa<PrimSelectNode>(e))
    return (in[0].isFloat ? in[0].f != 0 : in[0].i != 0) ? in[1] : in[2];
  return runtimeError("unknown symbolic expression");
}

} // namespace

llvm::Expected<Scalar> interp::evalPrim(const PrimExprNode *root, const SymEnv &env) {
  struct Item {
    const PrimExprNode *e;
    bool expanded;
  };
  llvm::SmallVector<Item, 16> work{{root, false}};
  llvm::SmallVector<Scalar, 16> values;
  while (!work.empty()) {
    Item item = work.pop_back_val();
    auto kids = children(item.e);
    if (!item.expanded && !kids.empty()) {
      work.push_back({item.e, true});
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        work.push_back({*it, false});
      continue;
    }
    llvm::ArrayRef<Scalar> in = llvm::ArrayRef<Scalar>(values).take_back(kids.size());
    llvm::Expected<Scalar> v = combine(item.e, in, env);
    if (!v)
      return v.takeError();
    values.resize(values.size() - kids.size());
    values.push_back(*v);
  }
  return values.back();
}

Value interp::scalarValue(DataType dt, Scalar s) {
  if (dt.isBool())
    return Value::boolean(s.isFloat ? s.f != 0 : s.i != 0);
  if (dt.isFloat())
    return Value::real(s.asDouble());
  return Value::integer(s.isFloat ? static_cast<int64_t>(s.f) : s.i);
}

//===----------------------------------------------------------------------===//
// Matching values against struct info.
//===----------------------------------------------------------------------===//

namespace {

using Vars = llvm::DenseMap<const VarNode *, Value>;

/// One symbolic position of a struct info and the value found there.
struct SymFact {
  const PrimExprNode *expr;
  Scalar actual;
};

/// What a match walk needs: where the error goes and what it is called.
struct MatchContext {
  InterpretError::Kind kind;
  std::string what; ///< "parameter 'x' of function 'main'", ...
  const Vars &vars;
};

llvm::Error mismatch(const MatchContext &cx, const llvm::Twine &why) {
  return error(cx.kind, cx.what + ": " + why);
}

Scalar scalarOf(const Value &v) {
  if (v.isFloat())
    return Scalar::real(v.getFloat());
  return Scalar::integer(v.isBool() ? v.getBool() : v.getInt());
}

llvm::Error matchDims(const MatchContext &cx, const std::vector<PrimExpr> &dims,
                      llvm::ArrayRef<int64_t> actual, llvm::StringRef kind,
                      llvm::SmallVectorImpl<SymFact> &facts) {
  if (dims.size() != actual.size())
    return mismatch(cx, llvm::formatv("expected a {0} of rank {1} but got rank {2}", kind,
                                      dims.size(), actual.size()));
  for (size_t i = 0; i < dims.size(); ++i)
    facts.push_back({dims[i].get(), Scalar::integer(actual[i])});
  return llvm::Error::success();
}

llvm::Error matchTensor(const MatchContext &cx, const TensorSInfoNode &s, const vm::TensorObj &t,
                        llvm::SmallVectorImpl<SymFact> &facts) {
  if (!s.dtype.isVoid() && vm::dtypeStr(toDLDataType(s.dtype)) != vm::dtypeStr(t.dtype()))
    return mismatch(cx, "expected dtype " + s.dtype.str() + " but got " + vm::dtypeStr(t.dtype()));
  if (s.ndim >= 0 && s.ndim != t.dl.ndim)
    return mismatch(
        cx, llvm::formatv("expected a tensor of rank {0} but got rank {1}", s.ndim, t.dl.ndim));
  if (const std::vector<PrimExpr> *dims = s.shapeValues())
    return matchDims(cx, *dims, t.shape(), "tensor", facts);
  if (const auto *shapeVar = llvm::dyn_cast_or_null<VarNode>(s.shape.get())) {
    auto it = cx.vars.find(shapeVar);
    const auto *shape = it == cx.vars.end() ? nullptr : it->second.as<vm::ShapeObj>();
    if (!shape)
      return unsupported("a tensor annotation whose shape var has no value");
    if (llvm::ArrayRef<int64_t>(shape->dims) != t.shape())
      return mismatch(cx, "the tensor's shape differs from '" + shapeVar->name + "'");
  }
  return llvm::Error::success();
}

bool primKindFits(DataType dt, const Value &v) {
  if (dt.isVoid())
    return v.isInt() || v.isFloat() || v.isBool();
  if (dt.isBool())
    return v.isBool() || v.isInt();
  if (dt.isFloat())
    return v.isFloat();
  return v.isInt();
}

/// Checks the parts of `v` that need no symbolic var and collects the
/// symbolic positions (work list over tuple nesting).
llvm::Error collectFacts(const MatchContext &cx, const StructInfoNode *root, const Value &rootValue,
                         llvm::SmallVectorImpl<SymFact> &facts) {
  llvm::SmallVector<std::pair<const StructInfoNode *, Value>, 8> work{{root, rootValue}};
  while (!work.empty()) {
    auto [s, v] = work.pop_back_val();
    if (!s || llvm::isa<ObjectSInfoNode>(s) || llvm::isa<FuncSInfoNode>(s))
      continue;
    if (const auto *t = llvm::dyn_cast<TensorSInfoNode>(s)) {
      const auto *tensor = v.as<vm::TensorObj>();
      if (!tensor)
        return mismatch(cx, "expected a tensor but got " + v.str());
      if (llvm::Error err = matchTensor(cx, *t, *tensor, facts))
        return err;
    } else if (const auto *sh = llvm::dyn_cast<ShapeSInfoNode>(s)) {
      const auto *shape = v.as<vm::ShapeObj>();
      if (!shape)
        return mismatch(cx, "expected a shape but got " + v.str());
      if (sh->values) {
        if (llvm::Error err = matchDims(cx, *sh->values, shape->dims, "shape", facts))
          return err;
      } else if (sh->ndim >= 0 && static_cast<size_t>(sh->ndim) != shape->dims.size()) {
        return mismatch(cx, llvm::formatv("expected a shape of rank {0} but got rank {1}", sh->ndim,
                                          shape->dims.size()));
      }
    } else if (const auto *p = llvm::dyn_cast<PrimSInfoNode>(s)) {
      if (!primKindFits(p->dtype, v))
        return mismatch(cx, "expected R.Prim(\"" + p->dtype.str() + "\") but got " + v.str());
      if (p->value)
        facts.push_back({p->value.get(), scalarOf(v)});
    } else if (const auto *tup = llvm::dyn_cast<TupleSInfoNode>(s)) {
      const auto *tuple = v.as<vm::TupleObj>();
      if (!tuple)
        return mismatch(cx, "expected a tuple but got " + v.str());
      if (tuple->fields.size() != tup->fields.size())
        return mismatch(cx, llvm::formatv("expected a tuple of {0} fields but got {1}",
                                          tup->fields.size(), tuple->fields.size()));
      for (size_t i = tup->fields.size(); i-- > 0;)
        work.push_back({tup->fields[i].get(), tuple->fields[i]});
    }
  }
  return llvm::Error::success();
}

/// Matches `v` against `s`: binds the bare symbolic vars `s` meets first
/// (in order), then checks that every symbolic position has its value.
llvm::Error matchSInfo(const MatchContext &cx, const StructInfoNode *s, const Value &v,
                       SymEnv &env) {
  llvm::SmallVector<SymFact, 8> facts;
  if (llvm::Error err = collectFacts(cx, s, v, facts))
    return err;
  for (const SymFact &f : facts)
    if (const auto *var = llvm::dyn_cast<TirVarNode>(f.expr))
      env.try_emplace(var, f.actual);
  for (const SymFact &f : facts) {
    llvm::Expected<Scalar> expected = evalPrim(f.expr, env);
    if (!expected)
      return expected.takeError();
    if (!(*expected == f.actual)) {
      std::string got = f.actual.isFloat ? std::to_string(f.actual.f) : std::to_string(f.actual.i);
      std::string want =
          expected->isFloat ? std::to_string(expected->f) : std::to_string(expected->i);
      return mismatch(cx, "'" + toString(f.expr) + "' is " + want + " but the value has " + got);
    }
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Frames.
//===----------------------------------------------------------------------===//

/// A position in a SeqExpr; `owner` is the `if` binding that receives the
/// SeqExpr's value (null for a function body).
struct Cursor {
  const SeqExprNode *seq;
  const BindingNode *owner = nullptr;
  size_t block = 0, binding = 0;
};

struct Frame {
  const FunctionNode *fn = nullptr;
  std::string name;
  Vars vars;
  SymEnv syms;
  llvm::SmallVector<Cursor, 4> cursors;
  /// In the caller: the binding that receives this frame's result.
  const BindingNode *returnTo = nullptr;
};

/// Deep enough for any program the generator writes; a runaway recursion
/// stops with an error instead of exhausting memory.
constexpr size_t kMaxFrames = 100000;

class Machine {
public:
  explicit Machine(const IRModule &module) : module_(module) {}

  llvm::Expected<Value> run(llvm::StringRef function, llvm::ArrayRef<Value> args);

private:
  llvm::Error enter(const FunctionNode &fn, llvm::StringRef name, llvm::ArrayRef<Value> args,
                    const BindingNode *returnTo, InterpretError::Kind argErrorKind);
  llvm::Error step(Frame &frame);
  llvm::Error startBinding(Frame &frame, const BindingNode &b);
  llvm::Error finishBinding(Frame &frame, const BindingNode &b, Value v);
  llvm::Error finishSeq(Frame &frame);
  llvm::Expected<Value> evalAtom(const Frame &frame, const ExprNode *e);
  llvm::Expected<Value> evalExpr(const Frame &frame, const ExprNode *e);
  llvm::Expected<std::vector<Value>> evalArgs(const Frame &frame, const CallNode &call);
  llvm::Expected<bool> condition(const Frame &frame, const IfNode &ifNode);
  std::string where(const Frame &frame, const BindingNode &b) const {
    return "binding '" + b.var->name + "' of function '" + frame.name + "'";
  }

  const IRModule &module_;
  std::vector<Frame> frames_;
  Value result_;
};

llvm::Error Machine::enter(const FunctionNode &fn, llvm::StringRef name, llvm::ArrayRef<Value> args,
                           const BindingNode *returnTo, InterpretError::Kind argErrorKind) {
  if (frames_.size() >= kMaxFrames)
    return runtimeError(llvm::formatv("call depth exceeds {0} frames", kMaxFrames).str());
  if (args.size() != fn.params.size())
    return error(argErrorKind, llvm::formatv("function '{0}' expects {1} arguments but got {2}",
                                             name, fn.params.size(), args.size()));
  Frame frame;
  frame.fn = &fn;
  frame.name = name.str();
  frame.returnTo = returnTo;
  for (size_t i = 0; i < args.size(); ++i) {
    MatchContext cx{argErrorKind,
                    "parameter '" + fn.params[i]->name + "' of function '" + frame.name + "'",
                    frame.vars};
    if (llvm::Error err = matchSInfo(cx, fn.params[i]->sinfo.get(), args[i], frame.syms))
      return err;
    frame.vars[fn.params[i].get()] = args[i];
  }
  frame.cursors.push_back(Cursor{fn.body.get()});
  frames_.push_back(std::move(frame));
  return llvm::Error::success();
}

llvm::Expected<Value> Machine::run(llvm::StringRef function, llvm::ArrayRef<Value> args) {
  const ModuleEntry *entry = module_.lookup(function);
  const FunctionNode *fn = entry ? entry->asFunction() : nullptr;
  if (!fn)
    return error(InterpretError::Kind::BadInput,
                 "no Relax function '" + function + "' in module " + module_.name);
  if (llvm::Error err = enter(*fn, function, args, nullptr, InterpretError::Kind::BadInput))
    return err;
  while (!frames_.empty())
    if (llvm::Error err = step(frames_.back()))
      return err;
  return result_;
}

/// Runs the next binding of the innermost cursor, or finishes its SeqExpr.
llvm::Error Machine::step(Frame &frame) {
  Cursor &c = frame.cursors.back();
  while (c.block < c.seq->blocks.size() && c.binding >= c.seq->blocks[c.block]->bindings.size()) {
    ++c.block;
    c.binding = 0;
  }
  if (c.block == c.seq->blocks.size())
    return finishSeq(frame);
  const BindingNode &b = *c.seq->blocks[c.block]->bindings[c.binding++];
  return startBinding(frame, b);
}

llvm::Error Machine::startBinding(Frame &frame, const BindingNode &b) {
  const ExprNode *value = b.value.get();
  if (const auto *ifNode = llvm::dyn_cast<IfNode>(value)) {
    llvm::Expected<bool> cond = condition(frame, *ifNode);
    if (!cond)
      return cond.takeError();
    frame.cursors.push_back(
        Cursor{*cond ? ifNode->thenBranch.get() : ifNode->elseBranch.get(), &b});
    return llvm::Error::success();
  }
  if (const auto *seq = llvm::dyn_cast<SeqExprNode>(value)) {
    frame.cursors.push_back(Cursor{seq, &b});
    return llvm::Error::success();
  }
  const auto *call = llvm::dyn_cast<CallNode>(value);
  if (!call) {
    llvm::Expected<Value> v = evalExpr(frame, value);
    if (!v)
      return v.takeError();
    return finishBinding(frame, b, std::move(*v));
  }
  llvm::Expected<std::vector<Value>> args = evalArgs(frame, *call);
  if (!args)
    return args.takeError();
  if (const auto *gv = llvm::dyn_cast<GlobalVarNode>(call->op.get())) {
    const ModuleEntry *entry = module_.lookup(gv->name);
    const FunctionNode *callee = entry ? entry->asFunction() : nullptr;
    if (!callee)
      return unsupported("calling '" + gv->name + "' (not a Relax function) in " + where(frame, b));
    // `frame` may move when frames_ grows; nothing reads it after this.
    return enter(*callee, gv->name, *args, &b, InterpretError::Kind::Runtime);
  }
  if (!llvm::isa<OpNode>(call->op.get()))
    return unsupported("a call of " + printExpr(call->op.get()) + " in " + where(frame, b));
  llvm::Expected<Value> v = callOp(*call, *args, frame.syms);
  if (!v) {
    return llvm::handleErrors(v.takeError(), [&](const InterpretError &e) {
      return error(e.kind(), where(frame, b) + ": " + e.text());
    });
  }
  return finishBinding(frame, b, std::move(*v));
}

llvm::Error Machine::finishBinding(Frame &frame, const BindingNode &b, Value v) {
  if (const auto *mc = llvm::dyn_cast<MatchCastNode>(&b)) {
    MatchContext cx{InterpretError::Kind::Runtime, "match_cast in " + where(frame, b), frame.vars};
    if (llvm::Error err = matchSInfo(cx, mc->castSInfo.get(), v, frame.syms))
      return err;
  }
  frame.vars[b.var.get()] = std::move(v);
  return llvm::Error::success();
}

/// The SeqExpr of the innermost cursor is done: its value goes to the `if`
/// binding that opened it, or returns from the function.
llvm::Error Machine::finishSeq(Frame &frame) {
  Cursor done = frame.cursors.pop_back_val();
  llvm::Expected<Value> v = evalExpr(frame, done.seq->body.get());
  if (!v)
    return v.takeError();
  if (done.owner)
    return finishBinding(frame, *done.owner, std::move(*v));
  MatchContext cx{InterpretError::Kind::Runtime,
                  "the return value of function '" + frame.name + "'", frame.vars};
  if (llvm::Error err = matchSInfo(cx, frame.fn->retSInfo.get(), *v, frame.syms))
    return err;
  const BindingNode *returnTo = frame.returnTo;
  frames_.pop_back(); // `frame` is gone from here on.
  if (frames_.empty()) {
    result_ = std::move(*v);
    return llvm::Error::success();
  }
  return finishBinding(frames_.back(), *returnTo, std::move(*v));
}

llvm::Expected<bool> Machine::condition(const Frame &frame, const IfNode &ifNode) {
  llvm::Expected<Value> v = evalExpr(frame, ifNode.cond.get());
  if (!v)
    return v.takeError();
  if (v->isBool())
    return v->getBool();
  if (v->isInt())
    return v->getInt() != 0;
  const auto *t = v->as<vm::TensorObj>();
  if (!t || t->numElements() != 1)
    return runtimeError("an if condition must be a bool or a one-element tensor, got " + v->str());
  const DLDataType dt = t->dtype();
  if (dt.code == kernels::kGraftDLBool || (dt.code != kDLFloat && dt.bits == 8))
    return *reinterpret_cast<const int8_t *>(t->bytes()) != 0;
  if (dt.code == kDLInt && dt.bits == 32)
    return *reinterpret_cast<const int32_t *>(t->bytes()) != 0;
  if (dt.code == kDLInt && dt.bits == 64)
    return *reinterpret_cast<const int64_t *>(t->bytes()) != 0;
  return unsupported("an if condition of dtype " + vm::dtypeStr(dt));
}

llvm::Expected<std::vector<Value>> Machine::evalArgs(const Frame &frame, const CallNode &call) {
  std::vector<Value> out;
  out.reserve(call.args.size());
  for (const Expr &arg : call.args) {
    llvm::Expected<Value> v = evalExpr(frame, arg.get());
    if (!v)
      return v.takeError();
    out.push_back(std::move(*v));
  }
  return out;
}

llvm::Expected<Value> Machine::evalAtom(const Frame &frame, const ExprNode *e) {
  if (const auto *var = llvm::dyn_cast<VarNode>(e)) {
    auto it = frame.vars.find(var);
    if (it == frame.vars.end())
      return runtimeError("var '" + var->name + "' has no value in function '" + frame.name + "'");
    return it->second;
  }
  if (const auto *c = llvm::dyn_cast<ConstantNode>(e))
    return tensorConstant(*c);
  if (const auto *p = llvm::dyn_cast<PrimValueNode>(e)) {
    llvm::Expected<Scalar> s = evalPrim(p->value.get(), frame.syms);
    if (!s)
      return s.takeError();
    return scalarValue(p->value->dtype, *s);
  }
  if (const auto *shape = llvm::dyn_cast<ShapeExprNode>(e)) {
    llvm::SmallVector<int64_t, 4> dims;
    for (const PrimExpr &d : shape->values) {
      llvm::Expected<Scalar> s = evalPrim(d.get(), frame.syms);
      if (!s)
        return s.takeError();
      dims.push_back(s->i);
    }
    return Value::shape(dims);
  }
  if (const auto *s = llvm::dyn_cast<StringImmNode>(e))
    return stringConstant(*s);
  if (const auto *d = llvm::dyn_cast<DataTypeImmNode>(e))
    return dataTypeConstant(*d);
  return unsupported("a value of kind " + printExpr(e));
}

/// Tuple literals and item chains on an explicit stack; the rest as atoms.
llvm::Expected<Value> Machine::evalExpr(const Frame &frame, const ExprNode *root) {
  struct Item {
    const ExprNode *e;
    bool expanded;
  };
  llvm::SmallVector<Item, 8> work{{root, false}};
  llvm::SmallVector<Value, 8> values;
  while (!work.empty()) {
    Item item = work.pop_back_val();
    if (const auto *tuple = llvm::dyn_cast<TupleNode>(item.e)) {
      if (!item.expanded) {
        work.push_back({item.e, true});
        for (auto it = tuple->fields.rbegin(); it != tuple->fields.rend(); ++it)
          work.push_back({it->get(), false});
        continue;
      }
      size_t n = tuple->fields.size();
      Value v = Value::tuple(llvm::ArrayRef<Value>(values).take_back(n));
      values.resize(values.size() - n);
      values.push_back(std::move(v));
      continue;
    }
    if (const auto *get = llvm::dyn_cast<TupleGetItemNode>(item.e)) {
      if (!item.expanded) {
        work.push_back({item.e, true});
        work.push_back({get->tuple.get(), false});
        continue;
      }
      Value t = values.pop_back_val();
      const auto *tuple = t.as<vm::TupleObj>();
      if (!tuple || get->index < 0 || static_cast<size_t>(get->index) >= tuple->fields.size())
        return runtimeError(llvm::formatv("item {0} of {1}", get->index, t.str()).str());
      values.push_back(tuple->fields[get->index]);
      continue;
    }
    llvm::Expected<Value> v = evalAtom(frame, item.e);
    if (!v)
      return v.takeError();
    values.push_back(std::move(*v));
  }
  return values.back();
}

} // namespace

llvm::Expected<Value> codegen::interpret(const IRModule &module, llvm::StringRef function,
                                         llvm::ArrayRef<Value> args) {
  Machine machine(module);
  return machine.run(function, args);
}
