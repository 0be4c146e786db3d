//===- vm/ScalarProgram.cpp - Generated host PrimFuncs as stack programs ---===//

#include "vm/ScalarProgram.h"

#include "kernels/Kernel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace graft::vm;
using Op = ScalarProgram::Op;

bool graft::vm::isScalarProgram(llvm::StringRef text) {
  return text.startswith(kScalarProgramHeader);
}

namespace {

template <typename... Ts> llvm::Error progError(const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

llvm::Optional<Op> binaryOp(llvm::StringRef word) {
  return llvm::StringSwitch<llvm::Optional<Op>>(word)
      .Case("add", Op::Add)
      .Case("sub", Op::Sub)
      .Case("mul", Op::Mul)
      .Case("floordiv", Op::FloorDiv)
      .Case("floormod", Op::FloorMod)
      .Case("min", Op::Min)
      .Case("max", Op::Max)
      .Case("eq", Op::EQ)
      .Case("ne", Op::NE)
      .Case("lt", Op::LT)
      .Case("le", Op::LE)
      .Case("gt", Op::GT)
      .Case("ge", Op::GE)
      .Case("and", Op::And)
      .Case("or", Op::Or)
      .Default(llvm::None);
}

/// How many values an instruction pops and pushes.
std::pair<int, int> stackEffect(Op op) {
  switch (op) {
  case Op::Load:
  case Op::Arg:
  case Op::Int:
  case Op::Float:
    return {0, 1};
  case Op::Not:
  case Op::Cast:
    return {1, 1};
  case Op::Select:
    return {3, 1};
  case Op::Store:
  case Op::Ret:
    return {1, 0};
  default:
    return {2, 1};
  }
}

bool isBoolDType(DLDataType dt) { return normalizeDType(dt).code == graft::kernels::kGraftDLBool; }

/// One operand: an integer (bools are 0/1) or a double.
struct Scalar {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0;

  double asDouble() const { return isFloat ? f : static_cast<double>(i); }
  bool truthy() const { return isFloat ? f != 0 : i != 0; }
  static Scalar integer(int64_t v) { return {false, v, 0}; }
  static Scalar real(double v) { return {true, 0, v}; }
};

int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

int64_t floorDiv(int64_t a, int64_t b) {
  if (b == -1)
    return wrapSub(0, a); // INT64_MIN / -1 wraps instead of trapping.
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t floorMod(int64_t a, int64_t b) {
  if (b == -1)
    return 0;
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

llvm::Expected<Scalar> arith(Op op, Scalar a, Scalar b) {
  if (a.isFloat || b.isFloat) {
    double x = a.asDouble(), y = b.asDouble();
    switch (op) {
    case Op::Add:
      return Scalar::real(x + y);
    case Op::Sub:
      return Scalar::real(x - y);
    case Op::Mul:
      return Scalar::real(x * y);
    case Op::FloorDiv:
      return Scalar::real(std::floor(x / y));
    case Op::FloorMod:
      return Scalar::real(x - std::floor(x / y) * y);
    case Op::Min:
      return Scalar::real(std::fmin(x, y));
    default:
      return Scalar::real(std::fmax(x, y));
    }
  }
  int64_t x = a.i, y = b.i;
  switch (op) {
  case Op::Add:
    return Scalar::integer(wrapAdd(x, y));
  case Op::Sub:
    return Scalar::integer(wrapSub(x, y));
  case Op::Mul:
    return Scalar::integer(wrapMul(x, y));
  case Op::FloorDiv:
  case Op::FloorMod:
    if (y == 0)
      return progError("division by zero ({0} {1} 0)", x, op == Op::FloorDiv ? "//" : "%");
    return Scalar::integer(op == Op::FloorDiv ? floorDiv(x, y) : floorMod(x, y));
  case Op::Min:
    return Scalar::integer(std::min(x, y));
  default:
    return Scalar::integer(std::max(x, y));
  }
}

bool compare(Op op, Scalar a, Scalar b) {
  if (a.isFloat || b.isFloat) {
    double x = a.asDouble(), y = b.asDouble();
    switch (op) {
    case Op::EQ:
      return x == y;
    case Op::NE:
      return x != y;
    case Op::LT:
      return x < y;
    case Op::LE:
      return x <= y;
    case Op::GT:
      return x > y;
    default:
      return x >= y;
    }
  }
  switch (op) {
  case Op::EQ:
    return a.i == b.i;
  case Op::NE:
    return a.i != b.i;
  case Op::LT:
    return a.i < b.i;
  case Op::LE:
    return a.i <= b.i;
  case Op::GT:
    return a.i > b.i;
  default:
    return a.i >= b.i;
  }
}

/// Truncates an integer to `bits` with the signedness of `code`.
int64_t wrapToBits(int64_t v, uint8_t code, uint8_t bits) {
  if (bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (code == kDLInt && (u >> (bits - 1)) & 1)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

Scalar cast(Scalar v, DLDataType dt) {
  if (dt.code == kDLFloat || dt.code == kDLBfloat)
    return Scalar::real(dt.bits == 32 ? static_cast<float>(v.asDouble()) : v.asDouble());
  if (isBoolDType(dt))
    return Scalar::integer(v.truthy());
  if (!v.isFloat)
    return Scalar::integer(wrapToBits(v.i, dt.code, dt.bits));
  double d = std::trunc(v.f);
  // Out-of-range conversions are undefined in C++; saturate instead.
  if (!(d >= -9.2233720368547758e18))
    return Scalar::integer(std::isnan(d) ? 0 : INT64_MIN);
  if (d >= 9.2233720368547758e18)
    return Scalar::integer(INT64_MAX);
  return Scalar::integer(wrapToBits(static_cast<int64_t>(d), dt.code, dt.bits));
}

Value toValue(Scalar v, DLDataType dt) {
  if (isBoolDType(dt))
    return Value::boolean(v.truthy());
  if (dt.code == kDLFloat || dt.code == kDLBfloat)
    return Value::real(v.asDouble());
  return Value::integer(v.isFloat ? cast(v, dt).i : v.i);
}

llvm::Expected<Scalar> fromValue(const Value &v, size_t index) {
  if (v.isInt())
    return Scalar::integer(v.getInt());
  if (v.isBool())
    return Scalar::integer(v.getBool());
  if (v.isFloat())
    return Scalar::real(v.getFloat());
  return progError("argument {0} must be an int, float or bool but is {1}", index, v.str());
}

} // namespace

// Parsing ---------------------------------------------------------------------

namespace {

class Parser {
public:
  Parser(llvm::StringRef name, std::vector<ScalarProgram::Instr> &code)
      : name_(name), code_(code) {}

  llvm::Error error(size_t line, const llvm::Twine &msg) const {
    return progError("scalar program '{0}' line {1}: {2}", name_, line, msg.str());
  }

  /// Parses one instruction line into code_.
  llvm::Error instr(size_t line, llvm::StringRef op, llvm::StringRef operand) {
    ScalarProgram::Instr in{};
    if (auto bin = binaryOp(op)) {
      in.op = *bin;
    } else if (op == "not" || op == "select") {
      in.op = op == "not" ? Op::Not : Op::Select;
    } else if (op == "cast" || op == "ret") {
      in.op = op == "cast" ? Op::Cast : Op::Ret;
      auto dt = parseDType(operand);
      if (!dt) {
        llvm::consumeError(dt.takeError());
        return error(line, "unknown dtype '" + operand + "'");
      }
      in.dtype = *dt;
      return push(in, operand.empty(), line);
    } else if (op == "float") {
      in.op = Op::Float;
      if (operand.empty() || operand.getAsDouble(in.f, /*AllowInexact=*/true))
        return error(line, "bad float '" + operand + "'");
      return push(in, false, line);
    } else if (op == "load" || op == "store" || op == "arg" || op == "int") {
      in.op = op == "load" ? Op::Load : op == "store" ? Op::Store : op == "arg" ? Op::Arg : Op::Int;
      if (operand.getAsInteger(10, in.i) || (in.op != Op::Int && in.i < 0))
        return error(line, "bad operand '" + operand + "' of " + op);
      return push(in, false, line);
    } else {
      return error(line, "unknown instruction '" + op + "'");
    }
    return push(in, !operand.empty(), line);
  }

  llvm::Error push(ScalarProgram::Instr in, bool badOperand, size_t line) {
    if (badOperand)
      return error(line, "unexpected operand");
    code_.push_back(in);
    return llvm::Error::success();
  }

private:
  llvm::StringRef name_;
  std::vector<ScalarProgram::Instr> &code_;
};

} // namespace

llvm::Expected<std::unique_ptr<ScalarProgram>> ScalarProgram::parse(llvm::StringRef name,
                                                                    llvm::StringRef text) {
  auto prog = std::make_unique<ScalarProgram>();
  prog->name_ = name.str();
  Parser parser(name, prog->code_);
  llvm::SmallVector<llvm::StringRef, 32> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.size() < 2 || lines[0].trim() != kScalarProgramHeader)
    return parser.error(1, "expected '" + kScalarProgramHeader + "'");
  auto [kw, params] = lines[1].trim().split(' ');
  if (kw != "params" || (params != "heap" && params.getAsInteger(10, prog->numArgs_)) ||
      prog->numArgs_ < 0 || prog->numArgs_ > 64)
    return parser.error(2, "expected 'params heap' or 'params N'");
  if (params == "heap")
    prog->numArgs_ = -1;
  for (size_t i = 2; i < lines.size(); ++i) {
    auto [op, operand] = lines[i].trim().split(' ');
    if (auto err = parser.instr(i + 1, op, operand.trim()))
      return err;
  }
  if (auto err = prog->check())
    return err;
  return prog;
}

llvm::Error ScalarProgram::check() {
  auto fail = [&](size_t pc, const llvm::Twine &msg) {
    return progError("scalar program '{0}' instruction {1}: {2}", name_, pc, msg.str());
  };
  size_t depth = 0;
  for (size_t pc = 0; pc < code_.size(); ++pc) {
    const Instr &in = code_[pc];
    auto [pops, pushes] = stackEffect(in.op);
    if (depth < static_cast<size_t>(pops))
      return fail(pc, "needs " + llvm::Twine(pops) + " operands but the stack holds " +
                          llvm::Twine(depth));
    bool heapOp = in.op == Op::Load || in.op == Op::Store;
    if (heapOp && !takesHeap())
      return fail(pc, "load/store need 'params heap'");
    if (in.op == Op::Arg && in.i >= numArgs_)
      return fail(pc, "argument " + llvm::Twine(in.i) + " is out of range");
    if (in.op == Op::Ret && (takesHeap() || pc + 1 != code_.size()))
      return fail(pc, "ret must end a program of scalar params");
    if (heapOp)
      maxSlot_ = std::max(maxSlot_, in.i);
    depth = depth - pops + pushes;
    maxStack_ = std::max(maxStack_, depth);
  }
  bool endsWithRet = !code_.empty() && code_.back().op == Op::Ret;
  if (depth != 0 || (!takesHeap() && !endsWithRet))
    return fail(code_.size(), takesHeap() ? "values are left on the stack"
                                          : "a program of scalar params must end with ret");
  return llvm::Error::success();
}

// Running ---------------------------------------------------------------------

/// The shape heap argument: a 1-d int64 host tensor with every slot.
static llvm::Expected<int64_t *> heapData(const ScalarProgram &prog, const Value &v,
                                          int64_t maxSlot) {
  auto *t = v.as<TensorObj>();
  if (!t || t->dl.ndim != 1 || !dtypeEqual(t->dtype(), DLDataType{kDLInt, 64, 1}) ||
      t->device().device_type != kDLCPU || !t->isCompact())
    return progError("{0}: the shape heap must be a 1-d int64 host tensor but is {1}", prog.name(),
                     v.str());
  if (t->shape()[0] <= maxSlot)
    return progError("{0}: slot {1} is outside the shape heap of {2} slots", prog.name(), maxSlot,
                     t->shape()[0]);
  return reinterpret_cast<int64_t *>(t->bytes());
}

llvm::Expected<Value> ScalarProgram::run(llvm::ArrayRef<Value> args) const {
  size_t expected = takesHeap() ? 1 : static_cast<size_t>(numArgs_);
  if (args.size() != expected)
    return progError("{0}: expects {1} arguments but got {2}", name_, expected, args.size());
  int64_t *heap = nullptr;
  llvm::SmallVector<Scalar, 8> params;
  if (takesHeap()) {
    auto h = heapData(*this, args[0], maxSlot_);
    if (!h)
      return h.takeError();
    heap = *h;
  }
  for (size_t i = 0; !takesHeap() && i < args.size(); ++i) {
    auto s = fromValue(args[i], i);
    if (!s)
      return progError("{0}: {1}", name_, llvm::toString(s.takeError()));
    params.push_back(*s);
  }
  llvm::SmallVector<Scalar, 16> stack;
  stack.reserve(maxStack_);
  auto pop = [&] { return stack.pop_back_val(); };
  for (const Instr &in : code_) {
    switch (in.op) {
    case Op::Load:
      stack.push_back(Scalar::integer(heap[in.i]));
      break;
    case Op::Arg:
      stack.push_back(params[in.i]);
      break;
    case Op::Int:
      stack.push_back(Scalar::integer(in.i));
      break;
    case Op::Float:
      stack.push_back(Scalar::real(in.f));
      break;
    case Op::Not:
      stack.push_back(Scalar::integer(!pop().truthy()));
      break;
    case Op::Select: {
      Scalar f = pop(), t = pop(), c = pop();
      stack.push_back(c.truthy() ? t : f);
      break;
    }
    case Op::Cast:
      stack.push_back(cast(pop(), in.dtype));
      break;
    case Op::Store: {
      Scalar v = pop();
      heap[in.i] = v.isFloat ? cast(v, DLDataType{kDLInt, 64, 1}).i : v.i;
      break;
    }
    case Op::Ret:
      return toValue(pop(), in.dtype);
    case Op::And:
    case Op::Or: {
      bool b = pop().truthy(), a = pop().truthy();
      stack.push_back(Scalar::integer(in.op == Op::And ? (a && b) : (a || b)));
      break;
    }
    case Op::EQ:
    case Op::NE:
    case Op::LT:
    case Op::LE:
    case Op::GT:
    case Op::GE: {
      Scalar b = pop(), a = pop();
      stack.push_back(Scalar::integer(compare(in.op, a, b)));
      break;
    }
    default: {
      Scalar b = pop(), a = pop();
      auto r = arith(in.op, a, b);
      if (!r)
        return progError("{0}: {1}", name_, llvm::toString(r.takeError()));
      stack.push_back(*r);
      break;
    }
    }
  }
  return Value();
}

static llvm::Expected<Value> runPacked(VirtualMachine &, const void *data,
                                       llvm::ArrayRef<Value> args) {
  return static_cast<const ScalarProgram *>(data)->run(args);
}

PackedFunc ScalarProgram::packed(const ScalarProgram *program) {
  return PackedFunc{runPacked, program};
}
