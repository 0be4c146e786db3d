//===- tools/testing/ProgramGenerator.cpp - Random well-formed programs ----------===//
//
// A module is a few helper functions and `main`. Each function keeps a pool
// of the tensors in scope (name, dtype, dims) and writes bindings that take
// their operands from it: unary and binary elementwise ops with
// broadcasting, comparisons and `where`, casts, reductions, cumulative sums,
// matmul, softmax, norms, sorts, layout changes (permute, concat, split,
// slices, take, reshape, layout_transform), masked copies (index_tensor + index_put),
// scatters, match_casts to fresh symbolic vars, tuples and their items,
// calls of helpers, `if`/`else` on a prim or a tensor condition, and, in an
// impure `main`, asserts that hold; `main` may also return shape and prim
// values computed from symbolic vars. Runs of pure bindings go in dataflow
// blocks whose non-output vars leave the pool at the block's end. A dim is
// "equal" to another only when it is the same integer or the same var, which
// is what struct-info inference can prove.
//
//===----------------------------------------------------------------------===//

#include "tools/testing/ProgramGenerator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

using namespace graft::testing;

namespace {

/// splitmix64: the same stream everywhere for a seed.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }
  bool percent(unsigned p) { return below(100) < p; }
  template <typename T> const T &pick(const std::vector<T> &v) { return v[below(v.size())]; }

private:
  uint64_t state_;
};

struct TensorType {
  std::string dtype;
  std::vector<std::string> dims;
  bool operator==(const TensorType &o) const { return dtype == o.dtype && dims == o.dims; }
};

struct Value {
  std::string name;
  TensorType type;
};

struct TupleValue {
  std::string name;
  std::vector<TensorType> fields;
};

struct Helper {
  std::string name;
  std::vector<TensorType> params; ///< Symbolic dims named by the helper.
  TensorType ret;                 ///< In the params' vars.
};

bool isInt(llvm::StringRef dim) {
  return !dim.empty() && llvm::all_of(dim, [](char c) { return c >= '0' && c <= '9'; });
}
bool isFloat(llvm::StringRef dt) { return dt.startswith("float"); }
bool isIntType(llvm::StringRef dt) { return dt.startswith("int"); }

/// `R.Tensor((n, 4), "float32")`; `quote` writes vars as strings (a
/// signature defines them).
std::string annotation(const TensorType &t, bool quote) {
  std::string s = "R.Tensor((";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (i)
      s += ", ";
    s += quote && !isInt(t.dims[i]) ? "\"" + t.dims[i] + "\"" : t.dims[i];
  }
  if (t.dims.size() == 1)
    s += ",";
  return s + "), \"" + t.dtype + "\")";
}

const std::vector<std::string> kNumericUnary = {"negative", "abs",   "nn.relu", "floor", "ceil",
                                                "round",    "trunc", "sign",    "square"};
const std::vector<std::string> kFloatUnary = {
    "exp",   "log",  "sqrt",    "rsqrt",        "tanh",    "sigmoid", "sin",   "cos",
    "tan",   "asin", "acos",    "atan",         "sinh",    "cosh",    "asinh", "acosh",
    "atanh", "erf",  "nn.gelu", "nn.gelu_tanh", "nn.silu", "nn.selu"};
const std::vector<std::string> kIntOrBoolUnary = {"bitwise_not"};
const std::vector<std::string> kPredicates = {"isnan", "isinf", "isfinite"};
const std::vector<std::string> kArithmetic = {"add",     "subtract", "multiply",     "maximum",
                                              "minimum", "divide",   "floor_divide", "power"};
const std::vector<std::string> kNumericBinary = {"mod", "floor_mod"};
const std::vector<std::string> kIntOrBoolBinary = {"bitwise_and", "bitwise_or", "bitwise_xor"};
const std::vector<std::string> kIntBinary = {"left_shift", "right_shift"};
const std::vector<std::string> kCompare = {"equal",      "not_equal", "less",
                                           "less_equal", "greater",   "greater_equal"};
const std::vector<std::string> kLogical = {"logical_and", "logical_or", "logical_xor"};
const std::vector<std::string> kDTypes = {"float32", "float32", "float64",
                                          "int32",   "int64",   "bool"};

/// One function being written.
class FunctionWriter {
public:
  FunctionWriter(Rng &rng, const std::vector<Helper> &helpers, bool isMain,
                 const GeneratorOptions &options)
      : rng_(rng), helpers_(helpers), isMain_(isMain), options_(options) {}

  /// The signature's params; the writer's pool starts with them.
  void addParam(const std::string &name, const TensorType &t) {
    params_.push_back(name + ": " + annotation(t, true));
    pool_.push_back({name, t});
    for (const std::string &d : t.dims)
      if (!isInt(d) && !llvm::is_contained(syms_, d))
        syms_.push_back(d);
  }
  void addBoolParam(const std::string &name) {
    params_.push_back(name + ": R.Prim(\"bool\")");
    boolParams_.push_back(name);
  }

  /// About `size` bindings in blocks, then the return of 1-3 values.
  std::string write(const std::string &name, unsigned size, const Helper *self);

private:
  std::string fresh(const char *prefix) { return prefix + std::to_string(counter_++); }
  void line(const std::string &text) { lines_.push_back(std::string(indent_, ' ') + text); }
  void bind(const std::string &var, const std::string &value, const TensorType &t) {
    line(var + " = " + value);
    pool_.push_back({var, t});
  }

  void dataflowBlock(unsigned n);
  void plainBlock(unsigned n);
  bool statement(bool dataflow);
  bool anyStatement(bool dataflow);
  bool pureStatement();
  bool usesExcludedOp(size_t firstLine) const;

  // Statement kinds; each returns false when the pool has no operands for it.
  bool unary();
  bool binary();
  bool compareOrWhere();
  bool cast();
  bool reduce();
  bool cumulative();
  bool matmul();
  bool softmax();
  bool layout();
  bool layoutTransform(const Value &x);
  bool matchCast();
  bool maskedCopy();
  bool tuple();
  bool tupleItem();
  bool sortOrTriangle();
  bool like();
  bool concatOrSplit();
  bool takeOrSlice();
  bool norm();
  bool scatter();
  bool reshape();
  bool shapeOrPrim();
  bool callHelper();
  bool ifElse();
  bool assertion();

  std::optional<Value> pickWhere(const std::function<bool(const Value &)> &pred);
  std::optional<Value> pickResult(const TensorType &type);
  std::string constantLike(const std::string &dtype);

  Rng &rng_;
  const std::vector<Helper> &helpers_;
  bool isMain_;
  const GeneratorOptions &options_;
  std::vector<std::string> params_, boolParams_, syms_, lines_;
  std::vector<Value> pool_;
  std::vector<TupleValue> tuples_;
  /// Shape and prim values main may return: name and return annotation.
  std::vector<std::pair<std::string, std::string>> extras_;
  unsigned counter_ = 0;
  unsigned indent_ = 8;
  unsigned ifDepth_ = 0;
  bool inDataflow_ = false;
  bool impure_ = false;
};

/// A copy (binding grows the pool) of a random value that satisfies `pred`.
std::optional<Value> FunctionWriter::pickWhere(const std::function<bool(const Value &)> &pred) {
  std::vector<size_t> fits;
  for (size_t i = 0; i < pool_.size(); ++i)
    if (pred(pool_[i]))
      fits.push_back(i);
  if (fits.empty())
    return std::nullopt;
  return pool_[fits[rng_.below(fits.size())]];
}

/// A value of `type` to return or to yield from a branch: mostly the latest
/// one, so the computation before it is not all dead.
std::optional<Value> FunctionWriter::pickResult(const TensorType &type) {
  if (rng_.percent(30))
    return pickWhere([&](const Value &c) { return c.type == type; });
  for (size_t i = pool_.size(); i-- > 0;)
    if (pool_[i].type == type)
      return pool_[i];
  return std::nullopt;
}

std::string FunctionWriter::constantLike(const std::string &dtype) {
  if (isFloat(dtype)) {
    static const char *const values[] = {"0.5", "-1.25", "2.0", "0.0", "3.5"};
    return std::string("R.const(") + values[rng_.below(5)] + ", \"" + dtype + "\")";
  }
  return "R.const(" + std::to_string(rng_.below(5) + 1) + ", \"" + dtype + "\")";
}

bool FunctionWriter::unary() {
  std::optional<Value> x = pickWhere([](const Value &) { return true; });
  if (!x)
    return false;
  const std::string &dt = x->type.dtype;
  std::vector<std::string> ops;
  if (dt != "bool")
    ops = kNumericUnary;
  if (isFloat(dt)) {
    ops.insert(ops.end(), kFloatUnary.begin(), kFloatUnary.end());
    ops.insert(ops.end(), kPredicates.begin(), kPredicates.end());
  } else {
    ops.insert(ops.end(), kIntOrBoolUnary.begin(), kIntOrBoolUnary.end());
  }
  if (dt == "bool")
    ops.push_back("logical_not");
  std::string op = rng_.pick(ops);
  TensorType t = x->type;
  if (llvm::is_contained(kPredicates, op))
    t.dtype = "bool";
  bind(fresh("v"), "R." + op + "(" + x->name + ")", t);
  return true;
}

/// Broadcast of two dim lists, or false when a pair is neither equal nor 1.
bool broadcast(const std::vector<std::string> &a, const std::vector<std::string> &b,
               std::vector<std::string> &out) {
  size_t n = std::max(a.size(), b.size());
  out.assign(n, "1");
  for (size_t i = 0; i < n; ++i) {
    std::string da = i < n - a.size() ? "1" : a[i - (n - a.size())];
    std::string db = i < n - b.size() ? "1" : b[i - (n - b.size())];
    if (da == db || db == "1")
      out[i] = da;
    else if (da == "1")
      out[i] = db;
    else
      return false;
  }
  return true;
}

bool FunctionWriter::binary() {
  std::optional<Value> x = pickWhere([](const Value &) { return true; });
  if (!x)
    return false;
  const std::string dt = x->type.dtype;
  std::vector<std::string> ops;
  if (dt == "bool") {
    ops = kLogical;
    ops.insert(ops.end(), kIntOrBoolBinary.begin(), kIntOrBoolBinary.end());
  } else {
    ops = kArithmetic;
    ops.insert(ops.end(), kNumericBinary.begin(), kNumericBinary.end());
    if (isFloat(dt))
      ops.push_back("log_add_exp");
    if (isIntType(dt)) {
      ops.insert(ops.end(), kIntOrBoolBinary.begin(), kIntOrBoolBinary.end());
      ops.insert(ops.end(), kIntBinary.begin(), kIntBinary.end());
    }
  }
  std::string op = rng_.pick(ops);
  std::vector<std::string> dims;
  std::optional<Value> y = pickWhere([&](const Value &v) {
    return v.type.dtype == dt && broadcast(x->type.dims, v.type.dims, dims);
  });
  std::string rhs;
  if (y && !rng_.percent(20)) {
    broadcast(x->type.dims, y->type.dims, dims);
    rhs = y->name;
  } else if (dt != "bool") {
    dims = x->type.dims;
    rhs = constantLike(dt);
  } else {
    return false;
  }
  std::string lhs = x->name;
  if (rng_.percent(30))
    std::swap(lhs, rhs);
  bind(fresh("v"), "R." + op + "(" + lhs + ", " + rhs + ")", TensorType{dt, dims});
  return true;
}

bool FunctionWriter::compareOrWhere() {
  std::optional<Value> x = pickWhere([](const Value &v) { return v.type.dtype != "bool"; });
  if (!x)
    return false;
  std::vector<std::string> dims;
  std::optional<Value> y = pickWhere([&](const Value &v) {
    return v.type.dtype == x->type.dtype && broadcast(x->type.dims, v.type.dims, dims);
  });
  std::string rhs = y ? y->name : constantLike(x->type.dtype);
  if (y)
    broadcast(x->type.dims, y->type.dims, dims);
  else
    dims = x->type.dims;
  std::string cond = fresh("c");
  bind(cond, "R." + rng_.pick(kCompare) + "(" + x->name + ", " + rhs + ")",
       TensorType{"bool", dims});
  if (!y || rng_.percent(40))
    return true;
  // where(cond, a, b) broadcasts all three.
  std::string a = x->name, b = y->name;
  if (rng_.percent(50))
    std::swap(a, b);
  bind(fresh("v"), "R.where(" + cond + ", " + a + ", " + b + ")", TensorType{x->type.dtype, dims});
  return true;
}

bool FunctionWriter::cast() {
  std::optional<Value> x = pickWhere([](const Value &) { return true; });
  if (!x)
    return false;
  std::string to = rng_.pick(kDTypes);
  TensorType t = x->type;
  t.dtype = to;
  bind(fresh("v"), "R.astype(" + x->name + ", \"" + to + "\")", t);
  return true;
}

bool FunctionWriter::reduce() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && v.type.dtype != "bool"; });
  if (!x)
    return false;
  size_t axis = rng_.below(x->type.dims.size());
  bool keep = rng_.percent(30);
  TensorType t = x->type;
  if (keep)
    t.dims[axis] = "1";
  else
    t.dims.erase(t.dims.begin() + axis);
  std::vector<std::string> ops = {"sum", "max", "min", "prod", "argmax", "argmin"};
  if (isFloat(x->type.dtype)) {
    ops.push_back("mean");
    ops.push_back("variance");
  }
  std::string op = rng_.pick(ops);
  std::string ax = std::to_string(axis);
  if (op == "argmax" || op == "argmin") {
    t.dtype = "int64";
  } else {
    ax = "[" + ax + "]";
  }
  bind(fresh("v"),
       "R." + op + "(" + x->name + ", axis=" + ax + ", keepdims=" + (keep ? "True" : "False") + ")",
       t);
  return true;
}

bool FunctionWriter::cumulative() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && v.type.dtype != "bool"; });
  if (!x)
    return false;
  size_t axis = rng_.below(x->type.dims.size());
  std::string op = rng_.percent(70) ? "cumsum" : "cumprod";
  bind(fresh("v"),
       "R." + op + "(" + x->name + ", axis=" + std::to_string(axis) +
           (rng_.percent(30) ? ", exclusive=True" : "") + ")",
       x->type);
  return true;
}

bool FunctionWriter::matmul() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return v.type.dims.size() == 2 && isFloat(v.type.dtype); });
  if (!x)
    return false;
  std::optional<Value> y = pickWhere([&](const Value &v) {
    return v.type.dims.size() == 2 && v.type.dtype == x->type.dtype &&
           v.type.dims[0] == x->type.dims[1];
  });
  std::string rhs;
  TensorType t{x->type.dtype, {x->type.dims[0], ""}};
  if (y) {
    rhs = y->name;
    t.dims[1] = y->type.dims[1];
  } else {
    // x @ x^T: (a, b) x (b, a).
    rhs = fresh("v");
    bind(rhs, "R.permute_dims(" + x->name + ", axes=[1, 0])",
         TensorType{x->type.dtype, {x->type.dims[1], x->type.dims[0]}});
    t.dims[1] = x->type.dims[0];
  }
  bind(fresh("v"), "R.matmul(" + x->name + ", " + rhs + ")", t);
  return true;
}

bool FunctionWriter::softmax() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && isFloat(v.type.dtype); });
  if (!x)
    return false;
  std::string op = rng_.percent(70) ? "nn.softmax" : "nn.log_softmax";
  bind(fresh("v"), "R." + op + "(" + x->name + ", axis=-1)", x->type);
  return true;
}

/// R.layout_transform: a split of a constant last dim by 2, 3 or 4 (padded
/// when the factor does not divide it; a float tensor may get a pad_value)
/// or a reversal of the dims, written as a lambda over i0, i1, ... (names no
/// Relax var of the generator takes). The output's dims are
/// what inference gives: a dim d below the factor f maps to (1, d), since
/// `i % f` then stays below d.
bool FunctionWriter::layoutTransform(const Value &x) {
  TensorType t = x.type;
  size_t rank = t.dims.size();
  std::string params, indices;
  for (size_t i = 0; i < rank; ++i)
    params += (i ? ", i" : "i") + std::to_string(i);
  const std::string &last = t.dims.back();
  bool constant = !last.empty() && llvm::all_of(last, [](char c) { return c >= '0' && c <= '9'; });
  std::string pad;
  if (constant && (rank < 2 || rng_.percent(60))) {
    int64_t d = std::stoll(last), f = int64_t(2 + rng_.below(3));
    std::string a = "i" + std::to_string(rank - 1);
    for (size_t i = 0; i + 1 < rank; ++i)
      indices += "i" + std::to_string(i) + ", ";
    indices += a + " // " + std::to_string(f) + ", " + a + " % " + std::to_string(f);
    t.dims.back() = d < f ? "1" : std::to_string((d + f - 1) / f);
    t.dims.push_back(std::to_string(d < f ? d : f));
    if (isFloat(t.dtype) && d % f != 0 && rng_.percent(50))
      pad = ", pad_value=0.5";
  } else if (rank >= 2) {
    for (size_t i = rank; i-- > 0;)
      indices += "i" + std::to_string(i) + (i ? ", " : "");
    std::reverse(t.dims.begin(), t.dims.end());
  } else {
    return false;
  }
  bind(fresh("v"),
       "R.layout_transform(" + x.name + ", index_map=lambda " + params + ": (" + indices +
           (rank == 1 && indices.find(',') == std::string::npos ? ",)" : ")") + pad + ")",
       t);
  return true;
}

bool FunctionWriter::layout() {
  std::optional<Value> x = pickWhere([](const Value &v) { return v.type.dims.size() <= 3; });
  if (!x)
    return false;
  TensorType t = x->type;
  size_t rank = t.dims.size();
  unsigned kind = static_cast<unsigned>(rng_.below(4));
  if (kind == 3 && rank >= 1)
    return layoutTransform(*x);
  if (kind == 0 && rank >= 2) {
    std::reverse(t.dims.begin(), t.dims.end());
    std::string axes;
    for (size_t i = rank; i-- > 0;)
      axes += std::to_string(i) + (i ? ", " : "");
    bind(fresh("v"), "R.permute_dims(" + x->name + ", axes=[" + axes + "])", t);
    return true;
  }
  auto one = std::find(t.dims.begin(), t.dims.end(), "1");
  if (kind == 1 && one != t.dims.end()) {
    size_t axis = one - t.dims.begin();
    t.dims.erase(one);
    bind(fresh("v"), "R.squeeze(" + x->name + ", axis=[" + std::to_string(axis) + "])", t);
    return true;
  }
  size_t axis = rng_.below(rank + 1);
  t.dims.insert(t.dims.begin() + axis, "1");
  bind(fresh("v"), "R.expand_dims(" + x->name + ", axis=[" + std::to_string(axis) + "])", t);
  return true;
}

bool FunctionWriter::matchCast() {
  std::optional<Value> x = pickWhere([](const Value &v) { return !v.type.dims.empty(); });
  if (!x)
    return false;
  TensorType t = x->type;
  for (std::string &d : t.dims) {
    if (!rng_.percent(50))
      continue;
    d = fresh("k");
    syms_.push_back(d);
  }
  bind(fresh("v"), "R.match_cast(" + x->name + ", " + annotation(t, false) + ")", t);
  return true;
}

bool FunctionWriter::maskedCopy() {
  std::optional<Value> out =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && v.type.dtype != "bool"; });
  if (!out)
    return false;
  std::optional<Value> src = pickWhere([&](const Value &v) { return v.type == out->type; });
  std::optional<Value> mask = pickWhere(
      [&](const Value &v) { return v.type.dtype == "bool" && v.type.dims == out->type.dims; });
  std::string maskName = mask ? mask->name : "";
  if (!mask) {
    maskName = fresh("c");
    line(maskName + " = R.greater(" + src->name + ", " + constantLike(src->type.dtype) + ")");
  }
  std::string picked = fresh("v");
  line(picked + " = R.index_tensor(" + src->name + ", (" + maskName + ",))");
  bind(fresh("v"),
       "R.index_put(" + out->name + ", (" + maskName + ",), " + picked +
           ", accumulate=" + (rng_.percent(80) ? "False" : "True") + ")",
       out->type);
  return true;
}

bool FunctionWriter::tuple() {
  size_t n = 1 + rng_.below(3);
  TupleValue tv{fresh("t"), {}};
  std::string text = "(";
  for (size_t i = 0; i < n; ++i) {
    std::optional<Value> v = pickWhere([](const Value &) { return true; });
    if (!v)
      return false;
    text += v->name + (n == 1 || i + 1 < n ? ", " : "");
    tv.fields.push_back(v->type);
  }
  if (n == 1)
    text.resize(text.size() - 1);
  line(tv.name + " = " + text + ")");
  tuples_.push_back(tv);
  return true;
}

bool FunctionWriter::tupleItem() {
  if (tuples_.empty())
    return false;
  const TupleValue &t = rng_.pick(tuples_);
  size_t i = rng_.below(t.fields.size());
  bind(fresh("v"), t.name + "[" + std::to_string(i) + "]", t.fields[i]);
  return true;
}

bool FunctionWriter::sortOrTriangle() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && v.type.dtype != "bool"; });
  if (!x)
    return false;
  size_t axis = rng_.below(x->type.dims.size());
  std::string desc = rng_.percent(50) ? "True" : "False";
  switch (rng_.below(3)) {
  case 0:
    bind(fresh("v"),
         "R.sort(" + x->name + ", axis=" + std::to_string(axis) + ", descending=" + desc + ")",
         x->type);
    return true;
  case 1: {
    TensorType t = x->type;
    t.dtype = rng_.percent(50) ? "int64" : "int32";
    bind(fresh("v"),
         "R.argsort(" + x->name + ", axis=" + std::to_string(axis) + ", descending=" + desc +
             ", dtype=\"" + t.dtype + "\")",
         t);
    return true;
  }
  default:
    if (x->type.dims.size() < 2)
      return false;
    bind(fresh("v"),
         std::string(rng_.percent(50) ? "R.tril(" : "R.triu(") + x->name + ", " +
             std::to_string(static_cast<int>(rng_.below(3)) - 1) + ")",
         x->type);
    return true;
  }
}

bool FunctionWriter::like() {
  std::optional<Value> x = pickWhere([](const Value &) { return true; });
  if (!x)
    return false;
  unsigned kind = static_cast<unsigned>(rng_.below(3));
  if (kind == 2 && x->type.dtype != "bool") {
    bind(fresh("v"), "R.full_like(" + x->name + ", " + constantLike(x->type.dtype) + ")", x->type);
    return true;
  }
  bind(fresh("v"), std::string(kind ? "R.ones_like(" : "R.zeros_like(") + x->name + ")", x->type);
  return true;
}

bool FunctionWriter::concatOrSplit() {
  std::optional<Value> x = pickWhere([](const Value &v) {
    return llvm::any_of(v.type.dims, [](const std::string &d) { return isInt(d); });
  });
  if (!x)
    return false;
  std::vector<size_t> intAxes;
  for (size_t i = 0; i < x->type.dims.size(); ++i)
    if (isInt(x->type.dims[i]))
      intAxes.push_back(i);
  size_t axis = rng_.pick(intAxes);
  int64_t d = std::stoll(x->type.dims[axis]);
  if (rng_.percent(50)) {
    // concat with a value equal in every other dim.
    std::optional<Value> y = pickWhere([&](const Value &v) {
      if (v.type.dtype != x->type.dtype || v.type.dims.size() != x->type.dims.size() ||
          !isInt(v.type.dims[axis]))
        return false;
      for (size_t i = 0; i < v.type.dims.size(); ++i)
        if (i != axis && v.type.dims[i] != x->type.dims[i])
          return false;
      return true;
    });
    TensorType t = x->type;
    t.dims[axis] = std::to_string(d + std::stoll(y->type.dims[axis]));
    bind(fresh("v"),
         "R.concat((" + x->name + ", " + y->name + "), axis=" + std::to_string(axis) + ")", t);
    return true;
  }
  // split into `sections` equal parts (a divisor of the dim).
  int64_t sections = d % 2 == 0 && rng_.percent(50) ? 2 : (rng_.percent(50) ? d : 1);
  TensorType part = x->type;
  part.dims[axis] = std::to_string(d / sections);
  TupleValue tv{fresh("t"), std::vector<TensorType>(static_cast<size_t>(sections), part)};
  line(tv.name + " = R.split(" + x->name + ", " + std::to_string(sections) +
       ", axis=" + std::to_string(axis) + ")");
  tuples_.push_back(tv);
  bind(fresh("v"), tv.name + "[" + std::to_string(rng_.below(sections)) + "]", part);
  return true;
}

bool FunctionWriter::takeOrSlice() {
  std::optional<Value> x = pickWhere([](const Value &v) { return !v.type.dims.empty(); });
  if (!x)
    return false;
  size_t axis = rng_.below(x->type.dims.size());
  if (rng_.percent(50)) {
    std::optional<Value> idx = pickWhere([](const Value &v) {
      return (v.type.dtype == "int64" || v.type.dtype == "int32") && v.type.dims.size() <= 2;
    });
    if (!idx)
      return false;
    TensorType t = x->type;
    t.dims.erase(t.dims.begin() + axis);
    t.dims.insert(t.dims.begin() + axis, idx->type.dims.begin(), idx->type.dims.end());
    bind(fresh("v"),
         "R.take(" + x->name + ", " + idx->name + ", axis=" + std::to_string(axis) + ", mode=\"" +
             (rng_.percent(50) ? "clip" : "wrap") + "\")",
         t);
    return true;
  }
  if (!isInt(x->type.dims[axis]))
    return false;
  int64_t d = std::stoll(x->type.dims[axis]);
  int64_t begin = static_cast<int64_t>(rng_.below(static_cast<size_t>(d)));
  int64_t end = begin + 1 + static_cast<int64_t>(rng_.below(static_cast<size_t>(d - begin)));
  TensorType t = x->type;
  t.dims[axis] = std::to_string(end - begin);
  bind(fresh("v"),
       "R.strided_slice(" + x->name + ", axes=[" + std::to_string(axis) + "], begin=[" +
           std::to_string(begin) + "], end=[" + std::to_string(end) + "])",
       t);
  return true;
}

/// layer_norm / rms_norm over the last axis, the scale and shift reduced
/// from the input itself.
bool FunctionWriter::norm() {
  std::optional<Value> x =
      pickWhere([](const Value &v) { return !v.type.dims.empty() && isFloat(v.type.dtype); });
  if (!x)
    return false;
  size_t rank = x->type.dims.size();
  std::string weight = x->name;
  if (rank > 1) {
    std::string axes;
    for (size_t i = 0; i + 1 < rank; ++i)
      axes += (i ? ", " : "") + std::to_string(i);
    weight = fresh("v");
    bind(weight, "R.mean(" + x->name + ", axis=[" + axes + "], keepdims=False)",
         TensorType{x->type.dtype, {x->type.dims.back()}});
  }
  if (rng_.percent(50)) {
    bind(fresh("v"), "R.nn.rms_norm(" + x->name + ", " + weight + ", axes=[-1])", x->type);
    return true;
  }
  bind(fresh("v"), "R.nn.layer_norm(" + x->name + ", " + weight + ", " + weight + ", axes=[-1])",
       x->type);
  return true;
}

/// scatter_elements with in-range indices (floor_mod by the axis length).
bool FunctionWriter::scatter() {
  std::optional<Value> data = pickWhere([](const Value &v) {
    return !v.type.dims.empty() && v.type.dtype != "bool" &&
           llvm::any_of(v.type.dims, [](const std::string &d) { return isInt(d); });
  });
  if (!data)
    return false;
  std::vector<size_t> intAxes;
  for (size_t i = 0; i < data->type.dims.size(); ++i)
    if (isInt(data->type.dims[i]))
      intAxes.push_back(i);
  size_t axis = rng_.pick(intAxes);
  std::optional<Value> src =
      pickWhere([&](const Value &v) { return v.type.dims == data->type.dims; });
  std::string cast = fresh("v");
  bind(cast, "R.astype(" + src->name + ", \"int64\")", TensorType{"int64", data->type.dims});
  std::string idx = fresh("v");
  bind(idx, "R.floor_mod(" + cast + ", R.const(" + data->type.dims[axis] + ", \"int64\"))",
       TensorType{"int64", data->type.dims});
  static const std::vector<std::string> reductions = {"update", "add", "mul", "mean", "max", "min"};
  bind(fresh("v"),
       "R.scatter_elements(" + data->name + ", " + idx + ", " + data->name +
           ", axis=" + std::to_string(axis) + ", reduction=\"" + rng_.pick(reductions) + "\")",
       data->type);
  return true;
}

/// reshape (to a factorization of the element count) or flatten, static
/// dims only.
bool FunctionWriter::reshape() {
  std::optional<Value> x = pickWhere([](const Value &v) {
    return llvm::all_of(v.type.dims, [](const std::string &d) { return isInt(d); });
  });
  if (!x)
    return false;
  int64_t count = 1;
  for (const std::string &d : x->type.dims)
    count *= std::stoll(d);
  TensorType t{x->type.dtype, {}};
  if (rng_.percent(30)) {
    t.dims = {std::to_string(count)};
    bind(fresh("v"), "R.flatten(" + x->name + ")", t);
    return true;
  }
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= count; ++d)
    if (count % d == 0)
      divisors.push_back(d);
  int64_t first = divisors[rng_.below(divisors.size())];
  t.dims = {std::to_string(first), std::to_string(count / first)};
  if (rng_.percent(30))
    t.dims.insert(t.dims.begin(), "1");
  std::string shape;
  for (size_t i = 0; i < t.dims.size(); ++i)
    shape += (i ? ", " : "") + t.dims[i];
  bind(fresh("v"), "R.reshape(" + x->name + ", R.shape([" + shape + "]))", t);
  return true;
}

/// A shape (shape_of, or a shape of symbolic expressions) or a prim value
/// computed from symbolic vars; main may return them.
bool FunctionWriter::shapeOrPrim() {
  if (!isMain_ || ifDepth_ > 0 || inDataflow_) // main returns it: it must stay in scope.
    return false;
  std::string name = fresh("s");
  if (rng_.percent(40)) {
    std::optional<Value> x = pickWhere([](const Value &) { return true; });
    line(name + " = R.shape_of(" + x->name + ")");
    extras_.push_back({name, "R.Shape(ndim=" + std::to_string(x->type.dims.size()) + ")"});
    return true;
  }
  if (syms_.empty())
    return false;
  const std::string &a = rng_.pick(syms_);
  const std::string &b = rng_.pick(syms_);
  std::string expr = a + " * " + std::to_string(rng_.below(3) + 1) + " + " + b;
  if (rng_.percent(50)) {
    line(name + " = R.prim_value(" + expr + ")");
    extras_.push_back({name, "R.Prim(\"int64\")"});
  } else {
    line(name + " = R.shape([" + expr + ", " + a + "])");
    extras_.push_back({name, "R.Shape(ndim=2)"});
  }
  return true;
}

/// A call of a helper whose params the pool can fill: a symbolic param dim
/// takes the argument's dim, an integer one needs the same integer.
bool FunctionWriter::callHelper() {
  if (helpers_.empty())
    return false;
  const Helper &h = rng_.pick(helpers_);
  std::vector<std::pair<std::string, std::string>> binding; // helper var -> our dim
  std::string args;
  for (const TensorType &p : h.params) {
    // Whether `v` fits `p` given the dims bound so far; extends `out`.
    auto fits = [&](const Value &v, std::vector<std::pair<std::string, std::string>> &out) {
      if (v.type.dtype != p.dtype || v.type.dims.size() != p.dims.size())
        return false;
      out = binding;
      for (size_t i = 0; i < p.dims.size(); ++i) {
        if (isInt(p.dims[i])) {
          if (v.type.dims[i] != p.dims[i])
            return false;
          continue;
        }
        auto it = llvm::find_if(out, [&](const auto &b) { return b.first == p.dims[i]; });
        if (it == out.end())
          out.push_back({p.dims[i], v.type.dims[i]});
        else if (it->second != v.type.dims[i])
          return false;
      }
      return true;
    };
    std::vector<std::pair<std::string, std::string>> scratch;
    std::optional<Value> a = pickWhere([&](const Value &v) { return fits(v, scratch); });
    if (!a)
      return false;
    fits(*a, binding);
    args += (args.empty() ? "" : ", ") + a->name;
  }
  TensorType ret = h.ret;
  for (std::string &d : ret.dims)
    for (auto &[var, dim] : binding)
      if (d == var) {
        d = dim;
        break;
      }
  bind(fresh("v"), "Module." + h.name + "(" + args + ")", ret);
  return true;
}

bool FunctionWriter::ifElse() {
  if (ifDepth_ >= 2 || pool_.empty())
    return false;
  const Value &target = rng_.pick(pool_);
  TensorType type = target.type;
  std::string cond;
  unsigned kind = static_cast<unsigned>(rng_.below(3));
  if (kind == 0 && !boolParams_.empty()) {
    cond = rng_.pick(boolParams_);
  } else if (kind == 1 && !syms_.empty()) {
    cond = "R.prim_value(" + rng_.pick(syms_) + " > " + std::to_string(rng_.below(4)) + ")";
  } else {
    if (!options_.tensorConditions)
      return false;
    std::optional<Value> x = pickWhere([](const Value &v) { return v.type.dtype != "bool"; });
    if (!x)
      return false;
    cond = fresh("c");
    std::string total = fresh("v");
    line(total + " = R.sum(" + x->name + ")");
    line(cond + " = R.greater(" + total + ", " + constantLike(x->type.dtype) + ")");
  }
  std::string result = fresh("r");
  std::vector<Value> saved = pool_;
  std::vector<TupleValue> savedTuples = tuples_;
  ++ifDepth_;
  line("if " + cond + ":");
  for (int branch = 0; branch < 2; ++branch) {
    if (branch)
      line("else:");
    indent_ += 4;
    unsigned n = static_cast<unsigned>(rng_.below(4));
    for (unsigned i = 0; i < n; ++i)
      for (int attempt = 0; attempt < 8 && !statement(false); ++attempt) {
      }
    std::optional<Value> v = pickResult(type);
    line(result + " = " + v->name);
    indent_ -= 4;
    pool_ = saved;
    tuples_ = savedTuples;
  }
  --ifDepth_;
  pool_.push_back({result, type});
  return true;
}

bool FunctionWriter::assertion() {
  if (!isMain_ || syms_.empty())
    return false;
  impure_ = true;
  const std::string &s = rng_.pick(syms_);
  line(fresh("ok") + " = R.assert_op(R.prim_value(" + s + " >= 1), format=\"" + s +
       " must be positive\")");
  return true;
}

/// A binding allowed in a dataflow block (pure, no `if`).
bool FunctionWriter::pureStatement() {
  switch (rng_.below(20)) {
  case 0:
  case 1:
    return unary();
  case 2:
  case 3:
  case 4:
    return binary();
  case 5:
    return compareOrWhere();
  case 6:
    return cast();
  case 7:
    return reduce();
  case 8:
    return cumulative();
  case 9:
    return matmul();
  case 10:
    return softmax();
  case 11:
    return layout();
  case 12:
    return ifDepth_ == 0 && matchCast();
  case 13:
    return maskedCopy();
  case 14:
    return rng_.percent(50) ? tuple() : tupleItem();
  case 15:
  case 16:
    return callHelper();
  default:
    break;
  }
  switch (rng_.below(8)) {
  case 0:
    return sortOrTriangle();
  case 1:
    return like();
  case 2:
    return concatOrSplit();
  case 3:
    return takeOrSlice();
  case 4:
    return norm();
  case 5:
    return scatter();
  case 6:
    return reshape();
  default:
    return shapeOrPrim();
  }
}

bool FunctionWriter::anyStatement(bool dataflow) {
  if (!dataflow && rng_.percent(12))
    return rng_.percent(70) ? ifElse() : assertion();
  return pureStatement();
}

/// Whether a line from `firstLine` on calls an excluded op (`R.<op>(`).
bool FunctionWriter::usesExcludedOp(size_t firstLine) const {
  for (size_t i = firstLine; i < lines_.size(); ++i) {
    llvm::StringRef rest = lines_[i];
    for (size_t at = rest.find("R."); at != llvm::StringRef::npos; at = rest.find("R.")) {
      rest = rest.drop_front(at + 2);
      llvm::StringRef op = rest.take_while([](char c) { return c != '(' && c != ' '; });
      if (rest.drop_front(op.size()).startswith("(") &&
          llvm::is_contained(options_.excludedOps, op))
        return true;
    }
  }
  return false;
}

/// One statement; one that uses an excluded op is taken back (every piece
/// of the writer's state it changed), and the caller draws another.
bool FunctionWriter::statement(bool dataflow) {
  if (options_.excludedOps.empty())
    return anyStatement(dataflow);
  size_t firstLine = lines_.size();
  std::vector<Value> pool = pool_;
  std::vector<TupleValue> tuples = tuples_;
  std::vector<std::string> syms = syms_;
  auto extras = extras_;
  bool impure = impure_;
  if (!anyStatement(dataflow))
    return false;
  if (!usesExcludedOp(firstLine))
    return true;
  lines_.resize(firstLine);
  pool_ = std::move(pool);
  tuples_ = std::move(tuples);
  syms_ = std::move(syms);
  extras_ = std::move(extras);
  impure_ = impure;
  return false;
}

void FunctionWriter::dataflowBlock(unsigned n) {
  size_t first = pool_.size();
  size_t firstTuple = tuples_.size();
  line("with R.dataflow():");
  indent_ += 4;
  inDataflow_ = true;
  for (unsigned i = 0; i < n; ++i)
    for (int attempt = 0; attempt < 8 && !statement(true); ++attempt) {
    }
  if (pool_.size() == first) { // A block needs a binding and an output.
    const Value &v = rng_.pick(pool_);
    std::string op = v.type.dtype == "bool" ? "R.logical_or(" : "R.add(";
    bind(fresh("v"), op + v.name + ", " + v.name + ")", v.type);
  }
  // Outputs: the last binding and a random half of the others.
  std::vector<Value> kept(pool_.begin(), pool_.begin() + first);
  std::string outputs;
  for (size_t i = first; i < pool_.size(); ++i) {
    if (i + 1 < pool_.size() && !rng_.percent(50))
      continue;
    kept.push_back(pool_[i]);
    outputs += (outputs.empty() ? "" : ", ") + pool_[i].name;
  }
  line("R.output(" + outputs + ")");
  indent_ -= 4;
  inDataflow_ = false;
  pool_ = kept;
  tuples_.resize(firstTuple); // Tuples made in the block were dataflow vars.
}

void FunctionWriter::plainBlock(unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    for (int attempt = 0; attempt < 8 && !statement(false); ++attempt) {
    }
}

std::string FunctionWriter::write(const std::string &name, unsigned size, const Helper *self) {
  unsigned left = size;
  while (left > 0) {
    unsigned n = 1 + static_cast<unsigned>(rng_.below(std::min(left, 6u)));
    if (rng_.percent(50))
      dataflowBlock(n);
    else
      plainBlock(n);
    left -= n;
  }
  std::string ret;
  std::string retAnnotation;
  if (self) {
    // A helper returns a value of its declared type: the pool always has one
    // (the first param's, unchanged, at worst).
    std::optional<Value> v = pickResult(self->ret);
    ret = v->name;
    retAnnotation = annotation(self->ret, true);
  } else {
    size_t n = 1 + rng_.below(3);
    std::vector<const Value *> outs;
    // Mostly the latest values, so that most of the body reaches the output.
    for (size_t i = 0; i < n; ++i) {
      size_t recent = std::min<size_t>(pool_.size(), 3);
      outs.push_back(rng_.percent(75) ? &pool_[pool_.size() - 1 - rng_.below(recent)]
                                      : &rng_.pick(pool_));
    }
    // main's return is erased to ranks: every shape check is inside.
    auto erased = [](const TensorType &t) {
      return "R.Tensor(dtype=\"" + t.dtype + "\", ndim=" + std::to_string(t.dims.size()) + ")";
    };
    std::vector<std::pair<std::string, std::string>> fields;
    for (const Value *v : outs)
      fields.push_back({v->name, erased(v->type)});
    if (!extras_.empty() && rng_.percent(70))
      fields.push_back(rng_.pick(extras_));
    if (fields.size() == 1) {
      ret = fields[0].first;
      retAnnotation = fields[0].second;
    } else {
      ret = "(";
      retAnnotation = "R.Tuple(";
      for (size_t i = 0; i < fields.size(); ++i) {
        ret += fields[i].first + (i + 1 < fields.size() ? ", " : ")");
        retAnnotation += fields[i].second + (i + 1 < fields.size() ? ", " : ")");
      }
    }
  }
  std::string out = std::string("    @R.function") + (impure_ ? "(pure=False)" : "") + "\n";
  out += "    def " + name + "(";
  for (size_t i = 0; i < params_.size(); ++i)
    out += (i ? ", " : "") + params_[i];
  out += ") -> " + retAnnotation + ":\n";
  for (const std::string &d : syms_)
    out += "        " + d + " = T.int64()\n";
  for (const std::string &l : lines_)
    out += l + "\n";
  out += "        return " + ret + "\n";
  return out;
}

/// A random tensor type over `dims` (integers and the function's vars).
TensorType randomType(Rng &rng, const std::vector<std::string> &dimChoices) {
  TensorType t;
  t.dtype = rng.pick(kDTypes);
  size_t rank = rng.below(4);
  if (rank == 0 && rng.percent(50))
    rank = 1;
  for (size_t i = 0; i < rank; ++i)
    t.dims.push_back(rng.pick(dimChoices));
  return t;
}

/// A helper's view of a type `main` has: some dims become the helper's own
/// symbolic vars, so calls bind them.
TensorType generalize(Rng &rng, TensorType t, unsigned &nextVar) {
  for (std::string &d : t.dims)
    if (rng.percent(40))
      d = "p" + std::to_string(nextVar++);
  return t;
}

} // namespace

std::string graft::testing::generateProgram(uint64_t seed, const GeneratorOptions &options) {
  Rng rng(seed);
  std::string text = "# Generated by `graft gen --seed " + std::to_string(seed) + " --size " +
                     std::to_string(options.size) + "`.\n";
  text += "from tvm.script import ir as I, relax as R, tir as T\n\n\n@I.ir_module\nclass "
          "Module:\n";
  std::vector<TensorType> mainParams;
  size_t numMainParams = 1 + rng.below(3);
  for (size_t p = 0; p < numMainParams; ++p)
    mainParams.push_back(randomType(rng, {"1", "2", "3", "4", "n", "m"}));
  std::vector<Helper> helpers;
  size_t numHelpers = rng.below(options.maxHelpers + 1);
  for (size_t h = 0; h < numHelpers; ++h) {
    Helper helper{"f" + std::to_string(h), {}, {}};
    size_t numParams = 1 + rng.below(2);
    unsigned nextVar = 0;
    for (size_t p = 0; p < numParams; ++p)
      helper.params.push_back(rng.percent(80) ? generalize(rng, rng.pick(mainParams), nextVar)
                                              : randomType(rng, {"1", "2", "3", "q"}));
    helper.ret = helper.params[rng.below(numParams)];
    FunctionWriter w(rng, helpers, false, options);
    for (size_t p = 0; p < numParams; ++p)
      w.addParam("a" + std::to_string(p), helper.params[p]);
    text += w.write(helper.name, std::max(2u, options.size / 3), &helper) + "\n";
    helpers.push_back(helper);
  }
  FunctionWriter main(rng, helpers, true, options);
  for (size_t p = 0; p < numMainParams; ++p)
    main.addParam("x" + std::to_string(p), mainParams[p]);
  if (rng.percent(40))
    main.addBoolParam("flag");
  text += main.write("main", options.size, nullptr);
  return text;
}
