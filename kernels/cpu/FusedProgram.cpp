//===- kernels/cpu/FusedProgram.cpp - Parse and run fused kernel programs ---===//
//
// Parsing resolves each op line to a loop over one tile of contiguous
// elements (a function pointer chosen for the op and its dtypes), so
// running a tile is a handful of indirect calls, each a tight loop the
// compiler vectorizes. The op set is the elementwise op table
// (ElementwiseOps.def: each row's name, arity, dtype rule and scalar
// function, as its own kernel has them) plus astype and where. Operands of
// another dtype than the op computes in
// (bool operands of arithmetic, comparisons and where; any operand of a
// logical op) are converted first, exactly as the op's own kernel loads
// them.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/FusedProgram.h"
#include "kernels/FusedKernel.h"
#include "kernels/cpu/ElementwiseOps.h"
#include "kernels/cpu/TensorIter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdlib>
#include <map>
#include <tuple>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace graft::kernels {

using namespace cpu;

namespace {

/// out[i] = f(in0[i], in1[i], ...) over n contiguous elements.
/// `attrs`: the instruction's scalar attributes (clip's bounds), else null.
using LoopFn = void (*)(char *out, const char *const *in, int64_t n, const double *attrs);

// Each loop is compiled twice, for AVX2 and for the baseline, and the loader
// picks the one the CPU runs (the loops are where a fused kernel spends its
// time; AVX2 halves the instructions per element).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GRAFT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GRAFT_VECTOR_CLONES
#endif

// Every loop copies its operand pointers into __restrict locals first: a store through a
// char pointer may alias the operand array, which would keep the compiler from vectorizing.
#define GRAFT_OPERANDS(N)                                                                          \
  char *__restrict o = out;                                                                        \
  const char *__restrict a = in[0];                                                                \
  const char *__restrict b = N > 1 ? in[1] : nullptr;                                              \
  const char *__restrict c = N > 2 ? in[2] : nullptr;                                              \
  (void)b;                                                                                         \
  (void)c;

//===----------------------------------------------------------------------===//
// Tile loops
//===----------------------------------------------------------------------===//

template <class T> const char *at(const char *p, int64_t i) { return p + i * sizeof(T); }
template <class T> char *at(char *p, int64_t i) { return p + i * sizeof(T); }

/// A row of ElementwiseOps.def computing in T: operands already in T, the
/// result in T or, for the bool-result rules, bool. The same load, apply
/// and store as the row's own kernel (UnaryOps.cpp, BinaryOps.cpp).
template <class Op, class T>
GRAFT_VECTOR_CLONES void rowLoop(char *out, const char *const *in, int64_t n, const double *) {
  GRAFT_OPERANDS(Op::arity);
  using C = Compute<T>;
  using Out = std::conditional_t<elementwise::hasBoolResult(Op::rule), bool, T>;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (Op::arity == 1)
      Elem<Out>::store(at<Out>(o, i), Compute<Out>(Op::apply(C(Elem<T>::load(at<T>(a, i))))));
    else
      Elem<Out>::store(at<Out>(o, i), Compute<Out>(Op::apply(C(Elem<T>::load(at<T>(a, i))),
                                                             C(Elem<T>::load(at<T>(b, i))))));
  }
}

/// astype and operand conversion: the kernels' loadConvert + store.
template <class From, class To>
GRAFT_VECTOR_CLONES void convertLoop(char *out, const char *const *in, int64_t n, const double *) {
  GRAFT_OPERANDS(1);
  for (int64_t i = 0; i < n; ++i)
    Elem<To>::store(at<To>(o, i), castTo<Compute<To>>(Elem<From>::load(at<From>(a, i))));
}

template <class T>
GRAFT_VECTOR_CLONES void whereLoop(char *out, const char *const *in, int64_t n, const double *) {
  GRAFT_OPERANDS(3);
  for (int64_t i = 0; i < n; ++i)
    Elem<T>::store(at<T>(o, i), Elem<bool>::load(a + i) ? Elem<T>::load(at<T>(b, i))
                                                        : Elem<T>::load(at<T>(c, i)));
}

template <class F> LoopFn byType(ScalarType t, F &&f) {
  return dispatch(t, [&](auto tag) -> LoopFn { return f(tag); });
}

/// clip(min, max) as its kernel computes it: bounds converted to the
/// compute type (truncating for integers), NaN stays NaN.
template <class T>
GRAFT_VECTOR_CLONES void clipLoop(char *out, const char *const *in, int64_t n,
                                  const double *attrs) {
  GRAFT_OPERANDS(1);
  using C = Compute<T>;
  C l = castTo<C>(attrs[0]), h = castTo<C>(attrs[1]);
  for (int64_t i = 0; i < n; ++i) {
    C x = Elem<T>::load(at<T>(a, i));
    Elem<T>::store(at<T>(o, i), x < l ? l : (x > h ? h : x));
  }
}

LoopFn convertFn(ScalarType from, ScalarType to) {
  return byType(from, [&](auto f) {
    return byType(to, [&](auto t) -> LoopFn {
      return &convertLoop<typename decltype(f)::type, typename decltype(t)::type>;
    });
  });
}

LoopFn clipFn(ScalarType t) {
  return byType(t, [](auto tag) -> LoopFn {
    using T = typename decltype(tag)::type;
    if constexpr (kIsBool<T>)
      return nullptr; // The kernel takes numeric tensors only.
    else
      return &clipLoop<T>;
  });
}

LoopFn whereFn(ScalarType t) {
  return byType(t, [](auto tag) -> LoopFn { return &whereLoop<typename decltype(tag)::type>; });
}

/// Row Op's loop computing in `t`; null where the row's rule refuses t.
template <class Op> LoopFn rowLoopFor(ScalarType t) {
  return byType(t, [](auto tag) -> LoopFn {
    using T = typename decltype(tag)::type;
    if constexpr (elementwise::accepts(Op::rule, elementwise::kClassOf<T>))
      return &rowLoop<Op, T>;
    else
      return nullptr;
  });
}

#undef GRAFT_OPERANDS

//===----------------------------------------------------------------------===//
// The op set: every row of ElementwiseOps.def, then astype and where
//===----------------------------------------------------------------------===//

enum class Family : uint8_t {
  Row,    ///< A row of ElementwiseOps.def; its DTypeRule gives the checks.
  Astype, ///< Any dtype to any.
  Where,  ///< Out t; cond bool, x and y t (or bool).
  Clip,   ///< Numeric t; attributes min and max.
  // Injective ops: the result reads its operands at other indices.
  Permute,
  Reshape,
  ExpandDims,
  Squeeze,
  BroadcastTo,
  StridedSlice,
  Take,
  Concat, ///< Any number (at least 1) of operands.
};

struct OpDef {
  const char *name; ///< The op's script name: "add", "nn.relu".
  int arity;
  Family family;
  elementwise::DTypeRule rule = {};        ///< Rows only.
  const char *rowName = nullptr;           ///< Rows only: the row's Name in the table.
  LoopFn (*loopFor)(ScalarType) = nullptr; ///< Rows only: the loop per compute dtype.
};

template <class Op> constexpr OpDef rowDef(const char *rowName) {
  return {elementwise::scriptName(Op::symbol),
          Op::arity,
          Family::Row,
          Op::rule,
          rowName,
          &rowLoopFor<Op>};
}

// The table's rows, by the names of the op registry, then the ops whose
// operands no DTypeRule describes: astype, where, clip and the injective ops.
constexpr OpDef kOps[] = {
#define GRAFT_UNARY_OP(Name, ...) rowDef<elementwise::Name>(#Name),
#define GRAFT_BINARY_OP(Name, ...) rowDef<elementwise::Name>(#Name),
#include "kernels/cpu/ElementwiseOps.def"
    {"astype", 1, Family::Astype},
    {"where", 3, Family::Where},
    {"clip", 1, Family::Clip},
    {"permute_dims", 1, Family::Permute},
    {"reshape", 1, Family::Reshape},
    {"expand_dims", 1, Family::ExpandDims},
    {"squeeze", 1, Family::Squeeze},
    {"broadcast_to", 1, Family::BroadcastTo},
    {"strided_slice", 1, Family::StridedSlice},
    {"take", 2, Family::Take},
    {"concat", -1, Family::Concat},
};

/// Whether kOps starts with exactly the table's rows, in table order.
constexpr bool opsAreTheTable() {
  if (std::size(kOps) != elementwise::kNumRows + 11)
    return false;
  for (size_t i = 0; i < elementwise::kNumRows; ++i) {
    const elementwise::RowInfo &row = elementwise::kRows[i];
    if (kOps[i].family != Family::Row || kOps[i].arity != row.arity || kOps[i].rule != row.rule ||
        !elementwise::detail::sameString(kOps[i].name, elementwise::scriptName(row.symbol)))
      return false;
  }
  return true;
}
static_assert(opsAreTheTable(), "every row of ElementwiseOps.def is a fused program op");

const OpDef *findOp(llvm::StringRef name) {
  for (const OpDef &op : kOps)
    if (name == op.name)
      return &op;
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

namespace {

/// A dim of a reshape or broadcast_to target: a number, the one dim a
/// reshape infers from the element count (`?`), or a dim of an earlier
/// register's shape (`%R.K`).
struct DimSpec {
  enum Kind : uint8_t { Fixed, Infer, Ref } kind = Fixed;
  int64_t value = 0;
  unsigned reg = 0, dim = 0;
};

enum class TakeMode : uint8_t { Fast, Wrap, Clip };

} // namespace

class FusedProgram {
public:
  struct Operand {
    unsigned reg;
    /// Converts the register to the op's operand type first; null: as is.
    LoopFn convert = nullptr;
    /// The dtype the op reads the operand as (elementwise instructions).
    ScalarType type = ScalarType::Bool;
  };
  /// One register: an input, an immediate or an instruction.
  struct Reg {
    enum Kind : uint8_t { Input, Const, Instr } kind = Instr;
    ScalarType type = ScalarType::Float32;
    int64_t rank = 0;
    unsigned shapeAt = 0; ///< Where its shape starts in a run's shape array.
    const OpDef *def = nullptr;
    llvm::SmallVector<Operand, 3> operands;
    LoopFn fn = nullptr;      ///< Elementwise instructions.
    double attrs[2] = {0, 0}; ///< clip's min and max.
    /// permute_dims, expand_dims, squeeze, strided_slice: the axes; take
    /// and concat: the axis.
    llvm::SmallVector<int64_t, 4> axes;
    llvm::SmallVector<int64_t, 4> begin, end, strides; ///< strided_slice.
    llvm::SmallVector<DimSpec, 4> dims;                ///< reshape, broadcast_to.
    TakeMode mode = TakeMode::Fast;
    std::vector<char> tile; ///< Const: kFusedTileElems copies of the value.
    /// Const: the value as written (a double for float dtypes, else i).
    bool constIsFloat = false;
    double constF = 0;
    int64_t constI = 0;

    bool isElementwise() const {
      return kind == Instr && (def->family == Family::Row || def->family == Family::Astype ||
                               def->family == Family::Where || def->family == Family::Clip);
    }
  };

  /// An index space values are evaluated in, as a map from the output's
  /// index (docs/fusion.md, "The CPU evaluator"): the output's own (Root);
  /// an injective instruction's result broadcast into its reader's space
  /// (Result); or the index space of operand k of that instruction
  /// (Operand, whose parent is the Result space).
  struct Space {
    enum Kind : uint8_t { Root, Result, Operand } kind;
    int parent;
    unsigned reg, k;
    int64_t rank;
    int idxNode;          ///< take's data space: the node of the index values.
    unsigned rowAt = 0;   ///< Its first row in a run's affine maps (max(rank, 1) rows).
    unsigned coordAt = 0; ///< Its first coordinate row in a run's coordinate tiles.
  };
  /// A tile the run computes: an input read in a space, an immediate, an
  /// elementwise instruction or a concat's selection. Injective
  /// instructions other than concat produce no tile of their own: their
  /// value is their operand's tile in the operand's space.
  struct Node {
    enum Kind : uint8_t { Load, Const, Op, Select } kind;
    unsigned reg;
    int space;
    llvm::SmallVector<int, 3> operands; ///< Op: operand nodes; Select: branch nodes.
    int output = -1; ///< An Op node that is output `output`: written in place when it can be.
  };
  /// The run order: a space's coordinates, then the nodes that read them.
  struct Step {
    bool isSpace;
    unsigned id;
  };

  std::vector<Reg> regs;
  unsigned numInputs = 0;
  std::vector<unsigned> outputs;
  unsigned shapeDims = 0;
  /// Conversion scratch tiles needed at once (the most operands converted
  /// by one instruction).
  unsigned maxConverted = 0;
  /// Whether an instruction is injective (else every space is the Root).
  bool hasInjective = false;
  /// take or concat: the run always computes coordinates per element.
  bool needsCoords = false;

  std::vector<Space> spaces;
  std::vector<Node> nodes;
  std::vector<Step> steps;
  std::vector<int> outputNodes;
  std::vector<int> loadNodes; ///< The Load nodes, in node order.
  unsigned loads = 0;
  unsigned spaceRanks = 0; ///< Coordinate rows of all spaces.
  unsigned spaceRows = 0;  ///< Affine map rows of all spaces.
};

namespace {

using Reg = FusedProgram::Reg;

/// Spaces one register may be evaluated in: the bound on a program's
/// expansion. fuse-elementwise keeps its groups within it (the same
/// constant, transforms/FuseElementwise.cpp).
constexpr unsigned kMaxSpacesPerReg = 16;

class ProgramParser {
public:
  explicit ProgramParser(FusedProgram &p) : p_(p) {}

  llvm::Error parse(llvm::StringRef text) {
    llvm::SmallVector<llvm::StringRef, 0> lines;
    text.split(lines, '\n');
    bool sawHeader = false;
    for (size_t i = 0; i < lines.size(); ++i) {
      line_ = i + 1;
      llvm::SmallVector<llvm::StringRef, 8> tok;
      lines[i].split(tok, ' ', -1, /*KeepEmpty=*/false);
      if (tok.empty() || tok[0].startswith("#"))
        continue;
      if (!sawHeader) {
        if (tok.size() != 2 || tok[0] != "fused" || tok[1] != "2")
          return error("expected the header 'fused 2'");
        sawHeader = true;
        continue;
      }
      if (!p_.outputs.empty() && tok[0] != "output")
        return error("only output lines may follow an output line");
      llvm::Error err = tok[0] == "input"    ? input(tok)
                        : tok[0] == "const"  ? constant(tok)
                        : tok[0] == "output" ? output(tok)
                                             : op(tok);
      if (err)
        return err;
    }
    line_ = lines.size();
    if (!sawHeader)
      return error("expected the header 'fused 2'");
    if (p_.outputs.empty())
      return error("the program has no output line");
    return plan();
  }

private:
  llvm::Error error(const llvm::Twine &msg) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "fused kernel program, line " + llvm::Twine(line_) + ": " + msg);
  }

  llvm::Expected<ScalarType> dtype(llvm::StringRef name) const {
    for (int t = 0; t <= int(ScalarType::Float64); ++t)
      if (name == dtypeName(dlTypeOf(ScalarType(t))))
        return ScalarType(t);
    return error("unknown dtype '" + name + "'");
  }

  /// `%N` defining the next register.
  llvm::Error define(llvm::StringRef tok) const {
    unsigned n;
    if (!tok.consume_front("%") || tok.getAsInteger(10, n) || n != p_.regs.size())
      return error("expected %" + llvm::Twine(p_.regs.size()) + " (registers are defined in " +
                   "order), got '" + tok + "'");
    return llvm::Error::success();
  }

  llvm::Expected<unsigned> use(llvm::StringRef tok) const {
    unsigned n;
    llvm::StringRef t = tok;
    if (!t.consume_front("%") || t.getAsInteger(10, n))
      return error("expected a register, got '" + tok + "'");
    if (n >= p_.regs.size())
      return error("register %" + llvm::Twine(n) + " is used before it is defined");
    return n;
  }

  void addReg(Reg r) {
    r.shapeAt = p_.shapeDims;
    p_.shapeDims += unsigned(r.rank);
    p_.regs.push_back(std::move(r));
  }

  /// `input %N DTYPE NDIM`
  llvm::Error input(llvm::ArrayRef<llvm::StringRef> tok) {
    if (p_.regs.size() != p_.numInputs || tok.size() != 4)
      return error("expected 'input %N DTYPE NDIM' before any const or op line");
    if (llvm::Error err = define(tok[1]))
      return err;
    llvm::Expected<ScalarType> t = dtype(tok[2]);
    if (!t)
      return t.takeError();
    int64_t ndim;
    if (tok[3].getAsInteger(10, ndim) || ndim < 0 || ndim > 64)
      return error("expected a rank from 0 to 64, got '" + tok[3] + "'");
    Reg r;
    r.kind = Reg::Input;
    r.type = *t;
    r.rank = ndim;
    addReg(std::move(r));
    ++p_.numInputs;
    return llvm::Error::success();
  }

  /// `const %N DTYPE VALUE`: the value as strtod reads it (hex floats are
  /// exact), integers and bool as decimal integers.
  llvm::Error constant(llvm::ArrayRef<llvm::StringRef> tok) {
    if (firstInstr_ || tok.size() != 4)
      return error("expected 'const %N DTYPE VALUE' before any op line");
    if (llvm::Error err = define(tok[1]))
      return err;
    llvm::Expected<ScalarType> t = dtype(tok[2]);
    if (!t)
      return t.takeError();
    Reg r;
    r.kind = Reg::Const;
    r.type = *t;
    r.tile.resize(kFusedTileElems * elemBytes(*t));
    if (llvm::Error err = fill(*t, tok[3], r))
      return err;
    addReg(std::move(r));
    return llvm::Error::success();
  }

  llvm::Error fill(ScalarType t, llvm::StringRef text, Reg &r) const {
    char *tile = r.tile.data();
    std::string s = text.str();
    char *end = nullptr;
    if (isFloatType(t)) {
      double v = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size())
        return error("expected a number, got '" + text + "'");
      r.constIsFloat = true;
      r.constF = v;
      dispatch(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t i = 0; i < kFusedTileElems; ++i)
          Elem<T>::store(tile + i * sizeof(T), castTo<Compute<T>>(v));
      });
      return llvm::Error::success();
    }
    int64_t v;
    if (text.getAsInteger(10, v))
      return error("expected an integer, got '" + text + "'");
    if (t == ScalarType::Bool && v != 0 && v != 1)
      return error("a bool constant is 0 or 1, got '" + text + "'");
    r.constI = v;
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t i = 0; i < kFusedTileElems; ++i)
        Elem<T>::store(tile + i * sizeof(T), castTo<Compute<T>>(v));
    });
    return llvm::Error::success();
  }

  /// `output %N`: an instruction's register; all outputs have one rank.
  llvm::Error output(llvm::ArrayRef<llvm::StringRef> tok) {
    if (tok.size() != 2)
      return error("expected 'output %N'");
    llvm::Expected<unsigned> r = use(tok[1]);
    if (!r)
      return r.takeError();
    if (p_.regs[*r].kind != Reg::Instr)
      return error("an output must be the register of an op line");
    if (llvm::is_contained(p_.outputs, *r))
      return error("register %" + llvm::Twine(*r) + " is output twice");
    if (!p_.outputs.empty() && p_.regs[*r].rank != p_.regs[p_.outputs[0]].rank)
      return error("outputs have one rank: %" + llvm::Twine(*r) + " has rank " +
                   llvm::Twine(p_.regs[*r].rank) + ", the first output " +
                   llvm::Twine(p_.regs[p_.outputs[0]].rank));
    p_.outputs.push_back(*r);
    return llvm::Error::success();
  }

  /// `%N = OP DTYPE %A [%B ...] [KEY=VALUE ...]`
  llvm::Error op(llvm::ArrayRef<llvm::StringRef> tok) {
    if (tok.size() < 5 || tok[1] != "=")
      return error("expected '%N = OP DTYPE OPERANDS...', got '" + tok[0] + "'");
    if (llvm::Error err = define(tok[0]))
      return err;
    const OpDef *def = findOp(tok[2]);
    if (!def)
      return error("unknown op '" + tok[2] + "'");
    llvm::Expected<ScalarType> t = dtype(tok[3]);
    if (!t)
      return t.takeError();
    llvm::SmallVector<unsigned, 3> regs;
    size_t i = 4;
    for (; i < tok.size() && tok[i].startswith("%"); ++i) {
      llvm::Expected<unsigned> r = use(tok[i]);
      if (!r)
        return r.takeError();
      regs.push_back(*r);
    }
    if (def->arity >= 0 ? regs.size() != size_t(def->arity) : regs.empty())
      return error("'" + tok[2] + "' takes " +
                   (def->arity >= 0 ? llvm::Twine(def->arity) : llvm::Twine("at least 1")) +
                   " operands, got " + llvm::Twine(regs.size()));
    attrs_.clear();
    for (; i < tok.size(); ++i) {
      auto [key, value] = tok[i].split('=');
      if (key.empty() || key.size() == tok[i].size())
        return error("expected an operand or KEY=VALUE, got '" + tok[i] + "'");
      if (!attrs_.try_emplace(key, value).second)
        return error("attribute '" + key + "' is given twice");
    }
    Reg r;
    r.def = def;
    r.type = *t;
    if (llvm::Error err = resolve(*def, *t, regs, r))
      return err;
    for (const auto &a : attrs_)
      if (!used_.count(a.getKey()))
        return opError(*def, "has no attribute '" + a.getKey() + "'");
    used_.clear();
    unsigned converted = 0;
    for (const FusedProgram::Operand &o : r.operands)
      converted += o.convert != nullptr;
    p_.maxConverted = std::max(p_.maxConverted, converted);
    firstInstr_ = true;
    addReg(std::move(r));
    return llvm::Error::success();
  }

  //===--- Attributes -----------------------------------------------------===//

  llvm::Expected<llvm::StringRef> attr(const OpDef &def, llvm::StringRef key) {
    auto it = attrs_.find(key);
    if (it == attrs_.end())
      return opError(def, "needs the attribute '" + key + "'");
    used_.insert(key);
    return it->second;
  }

  llvm::Expected<llvm::SmallVector<int64_t, 4>> intList(const OpDef &def, llvm::StringRef key) {
    llvm::Expected<llvm::StringRef> text = attr(def, key);
    if (!text)
      return text.takeError();
    llvm::SmallVector<int64_t, 4> out;
    llvm::SmallVector<llvm::StringRef, 4> parts;
    if (!text->empty())
      text->split(parts, ',');
    for (llvm::StringRef part : parts) {
      int64_t v;
      if (part.getAsInteger(10, v))
        return opError(def, "attribute '" + key + "': expected integers, got '" + *text + "'");
      out.push_back(v);
    }
    if (out.size() > 64)
      return opError(def, "attribute '" + key + "' has more than 64 entries");
    return out;
  }

  llvm::Expected<int64_t> intAttr(const OpDef &def, llvm::StringRef key) {
    auto list = intList(def, key);
    if (!list)
      return list.takeError();
    if (list->size() != 1)
      return opError(def, "attribute '" + key + "': expected one integer");
    return (*list)[0];
  }

  llvm::Expected<double> floatAttr(const OpDef &def, llvm::StringRef key) {
    llvm::Expected<llvm::StringRef> text = attr(def, key);
    if (!text)
      return text.takeError();
    std::string s = text->str();
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
      return opError(def, "attribute '" + key + "': expected a number, got '" + *text + "'");
    return v;
  }

  /// Sorted, distinct axes in [0, rank).
  llvm::Error checkAxes(const OpDef &def, llvm::ArrayRef<int64_t> axes, int64_t rank) const {
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i] < 0 || axes[i] >= rank || (i && axes[i] <= axes[i - 1]))
        return opError(def, "axes must be increasing and in [0, " + llvm::Twine(rank) + ")");
    return llvm::Error::success();
  }

  /// `shape=D,D,...`: D an integer, `?` (reshape only, at most once) or
  /// `%R.K`.
  llvm::Error shapeAttr(const OpDef &def, bool allowInfer, Reg &r) {
    llvm::Expected<llvm::StringRef> text = attr(def, "shape");
    if (!text)
      return text.takeError();
    llvm::SmallVector<llvm::StringRef, 4> parts;
    if (!text->empty())
      text->split(parts, ',');
    if (parts.size() > 64)
      return opError(def, "a shape has at most 64 dims");
    bool inferred = false;
    for (llvm::StringRef part : parts) {
      DimSpec d;
      if (part == "?") {
        if (!allowInfer || inferred)
          return opError(def,
                         allowInfer ? "infers at most one dim ('?')" : "cannot infer a dim ('?')");
        inferred = true;
        d.kind = DimSpec::Infer;
      } else if (part.startswith("%")) {
        auto [regText, dimText] = part.split('.');
        llvm::Expected<unsigned> reg = use(regText);
        if (!reg)
          return reg.takeError();
        if (dimText.getAsInteger(10, d.dim) || d.dim >= p_.regs[*reg].rank)
          return opError(def, "'" + part + "' names no dim of %" + llvm::Twine(*reg));
        d.kind = DimSpec::Ref;
        d.reg = *reg;
      } else if (part.getAsInteger(10, d.value) || d.value < 0) {
        return opError(def, "expected dims (N, ? or %R.K), got '" + part + "'");
      }
      r.dims.push_back(d);
    }
    r.rank = int64_t(r.dims.size());
    return llvm::Error::success();
  }

  //===--- Dtype and attribute rules ------------------------------------===//

  /// Checks the op's dtype rule (the one its own kernel checks), its
  /// attributes, and picks the loop and the operand conversions.
  llvm::Error resolve(const OpDef &def, ScalarType out, llvm::ArrayRef<unsigned> regs, Reg &r) {
    auto typeOf = [&](unsigned i) { return p_.regs[regs[i]].type; };
    auto rankOf = [&](unsigned i) { return p_.regs[regs[i]].rank; };
    for (unsigned reg : regs)
      r.operands.push_back({reg, nullptr, p_.regs[reg].type});
    r.rank = 0;
    for (size_t i = 0; i < regs.size(); ++i)
      r.rank = std::max(r.rank, rankOf(i));
    if (def.family >= Family::Permute) {
      p_.hasInjective = true;
      // Injective ops move elements: the result has the data operand's dtype.
      if (typeOf(0) != out)
        return opError(def, "keeps its operand's dtype: " + name(typeOf(0)) + ", not " + name(out));
      return injective(def, regs, r);
    }
    // The dtype every operand is converted to (or taken as).
    llvm::SmallVector<ScalarType, 3> want;
    ScalarType compute = out;
    switch (def.family) {
    case Family::Row:
      if (llvm::Error err = rowOperands(def, out, regs, want, compute))
        return err;
      r.fn = def.loopFor(compute);
      break;
    case Family::Astype:
      r.fn = convertFn(typeOf(0), out);
      return llvm::Error::success();
    case Family::Where:
      for (size_t i = 1; i < 3; ++i)
        if (typeOf(i) != out && typeOf(i) != ScalarType::Bool)
          return opError(def, "operand " + llvm::Twine(i) + " has dtype " + name(typeOf(i)) +
                                  ", expected " + name(out));
      want = {ScalarType::Bool, out, out};
      r.fn = whereFn(out);
      break;
    case Family::Clip: {
      if (typeOf(0) != out)
        return opError(def, "keeps its operand's dtype: " + name(typeOf(0)) + ", not " + name(out));
      llvm::Expected<double> lo = floatAttr(def, "min"), hi = floatAttr(def, "max");
      if (!lo)
        return lo.takeError();
      if (!hi)
        return hi.takeError();
      r.attrs[0] = *lo;
      r.attrs[1] = *hi;
      want = {out};
      r.fn = clipFn(out);
      break;
    }
    default:
      llvm_unreachable("injective ops are handled above");
    }
    if (!r.fn)
      return opError(def, "does not take " + name(compute));
    for (size_t i = 0; i < regs.size(); ++i) {
      r.operands[i].convert = typeOf(i) == want[i] ? nullptr : convertFn(typeOf(i), want[i]);
      r.operands[i].type = want[i];
    }
    return llvm::Error::success();
  }

  /// The attributes of an injective op and its result's rank.
  llvm::Error injective(const OpDef &def, llvm::ArrayRef<unsigned> regs, Reg &r) {
    int64_t rank = p_.regs[regs[0]].rank;
    switch (def.family) {
    case Family::Permute: {
      auto axes = intList(def, "axes");
      if (!axes)
        return axes.takeError();
      llvm::SmallVector<int64_t, 4> sorted(*axes);
      llvm::sort(sorted);
      for (int64_t i = 0; i < int64_t(sorted.size()); ++i)
        if (sorted[i] != i || int64_t(sorted.size()) != rank)
          return opError(def, "axes must be a permutation of the " + llvm::Twine(rank) + " dims");
      r.axes = *axes;
      r.rank = rank;
      return llvm::Error::success();
    }
    case Family::Reshape:
      return shapeAttr(def, /*allowInfer=*/true, r);
    case Family::BroadcastTo:
      if (llvm::Error err = shapeAttr(def, /*allowInfer=*/false, r))
        return err;
      if (r.rank < rank)
        return opError(def, "cannot broadcast rank " + llvm::Twine(rank) + " to rank " +
                                llvm::Twine(r.rank));
      return llvm::Error::success();
    case Family::ExpandDims:
    case Family::Squeeze: {
      auto axes = intList(def, "axes");
      if (!axes)
        return axes.takeError();
      bool expand = def.family == Family::ExpandDims;
      r.rank = expand ? rank + int64_t(axes->size()) : rank - int64_t(axes->size());
      if (llvm::Error err = checkAxes(def, *axes, expand ? r.rank : rank))
        return err;
      r.axes = *axes;
      return llvm::Error::success();
    }
    case Family::StridedSlice: {
      auto axes = intList(def, "axes"), begin = intList(def, "begin"), end = intList(def, "end"),
           strides = intList(def, "strides");
      for (auto *l : {&axes, &begin, &end, &strides})
        if (!*l)
          return l->takeError();
      size_t n = axes->size();
      if (begin->size() != n || end->size() != n || strides->size() != n)
        return opError(def, "axes, begin, end and strides must have one entry per axis");
      llvm::SmallVector<int64_t, 4> sorted(*axes);
      llvm::sort(sorted);
      if (llvm::Error err = checkAxes(def, sorted, rank))
        return err;
      if (llvm::is_contained(*strides, 0))
        return opError(def, "a stride is 0");
      for (int64_t st : *strides)
        if (st < -(int64_t(1) << 62) || st > (int64_t(1) << 62))
          return opError(def, "a stride is out of range");
      r.axes = *axes;
      r.begin = *begin;
      r.end = *end;
      r.strides = *strides;
      r.rank = rank;
      return llvm::Error::success();
    }
    case Family::Take: {
      ScalarType idx = p_.regs[regs[1]].type;
      if (!isIntType(idx))
        return opError(def, "indices must be integers, got " + name(idx));
      auto axis = intAttr(def, "axis");
      if (!axis)
        return axis.takeError();
      if (*axis < 0 || *axis >= rank)
        return opError(def, "axis must be in [0, " + llvm::Twine(rank) + ")");
      llvm::Expected<llvm::StringRef> mode = attr(def, "mode");
      if (!mode)
        return mode.takeError();
      if (*mode == "fast")
        r.mode = TakeMode::Fast;
      else if (*mode == "wrap")
        r.mode = TakeMode::Wrap;
      else if (*mode == "clip")
        r.mode = TakeMode::Clip;
      else
        return opError(def, "mode must be fast, wrap or clip, got '" + *mode + "'");
      r.axes = {*axis};
      r.rank = rank - 1 + p_.regs[regs[1]].rank;
      p_.needsCoords = true;
      return llvm::Error::success();
    }
    case Family::Concat: {
      for (unsigned reg : regs)
        if (p_.regs[reg].type != p_.regs[regs[0]].type || p_.regs[reg].rank != rank)
          return opError(def, "operands must have one dtype and rank");
      auto axis = intAttr(def, "axis");
      if (!axis)
        return axis.takeError();
      if (*axis < 0 || *axis >= rank)
        return opError(def, "axis must be in [0, " + llvm::Twine(rank) + ")");
      r.axes = {*axis};
      r.rank = rank;
      p_.needsCoords = true;
      return llvm::Error::success();
    }
    default:
      llvm_unreachable("not an injective family");
    }
  }

  /// A table row's DTypeRule: the dtype the row computes in and the dtype
  /// of each operand (ElementwiseOps.h).
  llvm::Error rowOperands(const OpDef &def, ScalarType out, llvm::ArrayRef<unsigned> regs,
                          llvm::SmallVectorImpl<ScalarType> &want, ScalarType &compute) const {
    using elementwise::DTypeRule;
    auto typeOf = [&](unsigned i) { return p_.regs[regs[i]].type; };
    if (elementwise::hasBoolResult(def.rule) && out != ScalarType::Bool)
      return opError(def, "gives bool, not " + name(out));
    switch (def.rule) {
    case DTypeRule::Compare: {
      ScalarType a = typeOf(0), b = typeOf(1);
      if (a != b && a != ScalarType::Bool && b != ScalarType::Bool)
        return opError(def, "operand dtypes " + name(a) + " and " + name(b) + " differ");
      compute = a == ScalarType::Bool ? b : a;
      break;
    }
    case DTypeRule::Logical:
      compute = ScalarType::Bool;
      break;
    case DTypeRule::Predicate:
      compute = typeOf(0);
      break;
    default: // The same-dtype rules compute in the output's dtype.
      if (def.arity == 1 && typeOf(0) != out)
        return opError(def, "keeps its operand's dtype: " + name(typeOf(0)) + ", not " + name(out));
      if (!elementwise::accepts(def.rule, elementwise::classOf(out)))
        return opError(def, "does not take " + name(out));
      for (size_t i = 0; i < regs.size(); ++i)
        if (typeOf(i) != out && typeOf(i) != ScalarType::Bool)
          return opError(def, "operand " + llvm::Twine(i) + " has dtype " + name(typeOf(i)) +
                                  ", expected " + name(out));
      break;
    }
    want.assign(regs.size(), compute);
    return llvm::Error::success();
  }

  static std::string name(ScalarType t) { return dtypeName(dlTypeOf(t)); }

  llvm::Error opError(const OpDef &def, const llvm::Twine &why) const {
    return error("'" + llvm::Twine(def.name) + "' " + why);
  }

  //===--- The plan -------------------------------------------------------===//

  using Space = FusedProgram::Space;
  using Node = FusedProgram::Node;

  int space(Space::Kind kind, int parent, unsigned reg, unsigned k, int idxNode) {
    auto key = std::make_tuple(int(kind), parent, reg, k);
    auto [it, fresh] = spaceIds_.try_emplace(key, int(p_.spaces.size()));
    if (!fresh)
      return it->second;
    int64_t rank = kind == Space::Root     ? p_.regs[p_.outputs[0]].rank
                   : kind == Space::Result ? p_.regs[reg].rank
                                           : p_.regs[p_.regs[reg].operands[k].reg].rank;
    p_.spaces.push_back({kind, parent, reg, k, rank, idxNode, p_.spaceRows, p_.spaceRanks});
    p_.spaceRanks += unsigned(rank);
    p_.spaceRows += unsigned(std::max<int64_t>(rank, 1));
    p_.steps.push_back({true, unsigned(it->second)});
    return it->second;
  }

  int newNode(Node::Kind kind, unsigned reg, int sp, llvm::SmallVector<int, 3> operands = {}) {
    p_.nodes.push_back({kind, reg, sp, std::move(operands)});
    int id = int(p_.nodes.size() - 1);
    if (kind != Node::Const)
      p_.steps.push_back({false, unsigned(id)});
    if (kind == Node::Load) {
      ++p_.loads;
      p_.loadNodes.push_back(id);
    }
    return id;
  }

  /// Expands the outputs, evaluated in the Root space, into nodes: an
  /// elementwise instruction's operands in its own space, an injective
  /// one's in the spaces its index map gives. A work list, not recursion:
  /// a node's operands are finished before it is.
  llvm::Error plan() {
    int root = space(Space::Root, -1, 0, 0, -1);
    struct Item {
      unsigned reg;
      int sp;
      int stage;
    };
    std::vector<Item> work;
    std::vector<unsigned> spacesOf(p_.regs.size(), 0);
    for (unsigned out : p_.outputs)
      work.push_back({out, root, 0});
    auto key = [](unsigned reg, int sp) { return (uint64_t(reg) << 32) | uint32_t(sp); };
    while (!work.empty()) {
      Item it = work.back();
      uint64_t k = key(it.reg, it.sp);
      if (it.stage == 0 && nodeOf_.count(k)) {
        work.pop_back();
        continue;
      }
      const Reg &r = p_.regs[it.reg];
      auto finish = [&](int node) -> llvm::Error {
        work.pop_back();
        nodeOf_[k] = node;
        if (++spacesOf[it.reg] > kMaxSpacesPerReg)
          return error("register %" + llvm::Twine(it.reg) + " is read in more than " +
                       llvm::Twine(kMaxSpacesPerReg) + " index spaces");
        return llvm::Error::success();
      };
      auto operandNode = [&](unsigned reg, int sp) { return nodeOf_.find(key(reg, sp))->second; };
      if (r.kind == Reg::Input || r.kind == Reg::Const) {
        if (llvm::Error err = finish(newNode(r.kind == Reg::Input ? Node::Load : Node::Const,
                                             it.reg, r.kind == Reg::Input ? it.sp : -1)))
          return err;
        continue;
      }
      if (r.isElementwise()) {
        if (it.stage == 0) {
          work.back().stage = 1;
          for (const FusedProgram::Operand &o : r.operands)
            work.push_back({o.reg, it.sp, 0});
          continue;
        }
        llvm::SmallVector<int, 3> ops;
        for (const FusedProgram::Operand &o : r.operands)
          ops.push_back(operandNode(o.reg, it.sp));
        if (llvm::Error err = finish(newNode(Node::Op, it.reg, it.sp, std::move(ops))))
          return err;
        continue;
      }
      int result = space(Space::Result, it.sp, it.reg, 0, -1);
      Family family = r.def->family;
      if (family == Family::Concat) {
        if (it.stage == 0) {
          work.back().stage = 1;
          for (unsigned i = 0; i < r.operands.size(); ++i)
            work.push_back({r.operands[i].reg, space(Space::Operand, result, it.reg, i, -1), 0});
          continue;
        }
        llvm::SmallVector<int, 3> branches;
        for (unsigned i = 0; i < r.operands.size(); ++i)
          branches.push_back(
              operandNode(r.operands[i].reg, space(Space::Operand, result, it.reg, i, -1)));
        if (llvm::Error err = finish(newNode(Node::Select, it.reg, result, std::move(branches))))
          return err;
        continue;
      }
      if (family == Family::Take) {
        int idxSpace = space(Space::Operand, result, it.reg, 1, -1);
        unsigned idxReg = r.operands[1].reg;
        if (it.stage == 0) {
          work.back().stage = 1;
          work.push_back({idxReg, idxSpace, 0});
          continue;
        }
        int dataSpace = space(Space::Operand, result, it.reg, 0, operandNode(idxReg, idxSpace));
        if (it.stage == 1) {
          work.back().stage = 2;
          work.push_back({r.operands[0].reg, dataSpace, 0});
          continue;
        }
        if (llvm::Error err = finish(operandNode(r.operands[0].reg, dataSpace)))
          return err;
        continue;
      }
      int sp = space(Space::Operand, result, it.reg, 0, -1);
      if (it.stage == 0) {
        work.back().stage = 1;
        work.push_back({r.operands[0].reg, sp, 0});
        continue;
      }
      if (llvm::Error err = finish(operandNode(r.operands[0].reg, sp)))
        return err;
    }
    for (unsigned i = 0; i < p_.outputs.size(); ++i) {
      int node = nodeOf_.find(key(p_.outputs[i], root))->second;
      p_.outputNodes.push_back(node);
      if (p_.nodes[node].kind == Node::Op && p_.nodes[node].output < 0)
        p_.nodes[node].output = int(i);
    }
    return llvm::Error::success();
  }

  FusedProgram &p_;
  size_t line_ = 0;
  bool firstInstr_ = false;
  llvm::StringMap<llvm::StringRef> attrs_;
  llvm::StringSet<> used_;
  std::map<std::tuple<int, int, unsigned, unsigned>, int> spaceIds_;
  llvm::DenseMap<uint64_t, int> nodeOf_;
};

} // namespace

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

namespace {

using Space = FusedProgram::Space;
using Node = FusedProgram::Node;

/// The output's index space with every operand's byte strides, dims of
/// extent 1 dropped and dims merged where every operand is contiguous
/// across them, so a dense chain runs as one long row. The arrays are in
/// the caller's workspace: `cap` dims per operand, the outputs first.
struct IterSpace {
  int64_t *shape;
  int64_t *strides; ///< [operand * cap + dim].
  size_t cap;
  size_t ndim = 0;

  int64_t &stride(size_t k, size_t d) const { return strides[k * cap + d]; }
};

/// Coalesces in place: on entry stride(k, d) is operand k's byte stride
/// along output dim d; a merged dim is written at an index no greater than
/// the dims still to be read.
void coalesce(llvm::ArrayRef<int64_t> outShape, size_t ops, IterSpace &s) {
  for (size_t d = 0; d < outShape.size(); ++d) {
    if (outShape[d] == 1)
      continue;
    bool merge = s.ndim > 0;
    for (size_t k = 0; merge && k < ops; ++k)
      merge = s.stride(k, s.ndim - 1) == s.stride(k, d) * outShape[d];
    if (merge) {
      s.shape[s.ndim - 1] *= outShape[d];
      for (size_t k = 0; k < ops; ++k)
        s.stride(k, s.ndim - 1) = s.stride(k, d);
      continue;
    }
    s.shape[s.ndim] = outShape[d];
    for (size_t k = 0; k < ops; ++k)
      s.stride(k, s.ndim) = s.stride(k, d);
    ++s.ndim;
  }
  if (s.ndim == 0) { // A single element.
    s.shape[0] = 1;
    for (size_t k = 0; k < ops; ++k)
      s.stride(k, 0) = 0;
    s.ndim = 1;
  }
}

/// Reads `n` elements of `size` bytes at `stride` into `dst`; returns where
/// the tile is (the source itself when it is contiguous).
const char *gather(const char *src, int64_t stride, int64_t size, int64_t n, char *dst) {
  if (stride == size)
    return src;
  if (stride == 0) {
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * size, src, size);
    return dst;
  }
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(dst + i * size, src + i * stride, size);
  return dst;
}

/// dst[i] = src[off[i]] for elements of `size` bytes.
template <class T> void gatherAt(const char *src, const int64_t *off, int64_t n, char *dst) {
  auto *d = reinterpret_cast<T *>(dst);
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(d + i, src + off[i], sizeof(T));
}
void gatherOffsets(const char *src, const int64_t *off, int64_t size, int64_t n, char *dst) {
  switch (size) {
  case 1:
    return gatherAt<uint8_t>(src, off, n, dst);
  case 2:
    return gatherAt<uint16_t>(src, off, n, dst);
  case 4:
    return gatherAt<uint32_t>(src, off, n, dst);
  default:
    return gatherAt<uint64_t>(src, off, n, dst);
  }
}

/// Outputs at least this large are written with non-temporal stores: they
/// do not fit in the caches anyway, and streaming them skips reading each
/// output line before writing it, a third of a dense binary chain's traffic.
constexpr int64_t kStreamOutputBytes = int64_t(16) << 20;

/// Copies a finished tile to the output, bypassing the caches.
void streamTile(char *dst, const char *src, size_t bytes) {
#if defined(__SSE2__)
  size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
  if (head > bytes)
    head = bytes;
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 16 <= bytes; i += 16)
    _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
  std::memcpy(dst + i, src + i, bytes - i);
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// One tile per node and per operand conversion; 8 bytes per element
/// covers every dtype.
constexpr int64_t kTileBytes = kFusedTileElems * 8;

/// The workspace of one run, carved in this order (every part a multiple
/// of 8 bytes): tiles, node pointers, register shapes, affine maps, the
/// coalesced shape, the strides, the odometer index, the operand base
/// pointers, then (programs with injective ops) coordinate row pointers,
/// per-node flags and coordinate rows.
struct Scratch {
  size_t tileBytes, nodeBytes, shapeBytes, affineBytes, dimBytes, strideBytes, baseBytes,
      rowPtrBytes, flagBytes, rowBytes;

  Scratch(const FusedProgram &p, size_t outRank) {
    size_t cap = std::max<size_t>(outRank, 1), ops = p.outputs.size() + p.loads;
    tileBytes = (p.nodes.size() + p.maxConverted) * size_t(kTileBytes);
    nodeBytes = p.nodes.size() * sizeof(const char *);
    shapeBytes = p.shapeDims * sizeof(int64_t);
    // The maps, then one flag per space (whether it is a linear index).
    affineBytes =
        p.hasInjective ? (p.spaceRows * (outRank + 1) + p.spaces.size()) * sizeof(int64_t) : 0;
    dimBytes = cap * sizeof(int64_t);
    strideBytes = ops * dimBytes;
    baseBytes = ops * sizeof(char *);
    rowPtrBytes = p.hasInjective ? p.spaceRanks * sizeof(int64_t *) : 0;
    // One flag per node: a load read in place.
    flagBytes = p.hasInjective ? (p.nodes.size() + 7) / 8 * 8 : 0;
    // Every space's own rows, a row of zeros and a row of offsets.
    rowBytes = p.hasInjective ? (p.spaceRanks + 2) * size_t(kTileBytes) : 0;
  }
  /// With slack to align the start to a cache line.
  size_t total() const {
    return 64 + tileBytes + nodeBytes + shapeBytes + affineBytes + 2 * dimBytes + strideBytes +
           baseBytes + rowPtrBytes + flagBytes + rowBytes;
  }
};

/// Whether a tensor is row-major and dense (dims of extent 1 aside).
bool isCompact(const View &v) {
  int64_t want = v.elemSize();
  for (int64_t d = v.ndim() - 1; d >= 0; --d) {
    if (v.shape[d] != 1 && v.strides[d] != want)
      return false;
    want *= v.shape[d];
  }
  return true;
}

/// One run of a program: the workspace carved, the shapes of this call.
class Run {
public:
  Run(const FusedProgram &p, Ctx &ctx) : p(p), ctx(ctx) {}

  llvm::Error run();
  /// computeShapes and the outputs' checks alone, into `out`.
  llvm::Error shapesOnly(std::vector<Dims> &out);

private:
  llvm::MutableArrayRef<int64_t> shapeOf(unsigned r) const {
    return {shapes + p.regs[r].shapeAt, size_t(p.regs[r].rank)};
  }
  llvm::ArrayRef<int64_t> spaceShape(const Space &s) const {
    if (s.kind == Space::Root)
      return shapeOf(p.outputs[0]);
    if (s.kind == Space::Result)
      return shapeOf(s.reg);
    return shapeOf(p.regs[s.reg].operands[s.k].reg);
  }
  bool computeShapes();
  bool checkOutputShapes();
  bool fail(unsigned r, const llvm::Twine &why) {
    return ctx.fail("%" + llvm::Twine(r) + " (" + p.regs[r].def->name + "): " + why);
  }

  int64_t *row(const Space &s, int64_t j) const { return affine + (s.rowAt + j) * cols; }
  bool buildAffine();
  bool affineLoad(const Node &n, int64_t *strides, char *&base) const;
  llvm::Error runAffine(const View &out0);
  llvm::Error runCoords(const View &out0);
  llvm::Error computeSpace(const Space &s, int64_t n);
  void loadAt(const Node &n, int64_t cnt, char *dst);
  void select(const Node &n, int64_t cnt, char *dst);
  void runOp(const Node &n, unsigned id, int64_t cnt, char *dst);

  char *tileOf(size_t i) const { return tiles + i * kTileBytes; }

  const FusedProgram &p;
  Ctx &ctx;
  char *tiles = nullptr;
  const char **nodePtr = nullptr;
  int64_t *shapes = nullptr;
  int64_t *affine = nullptr;
  size_t cols = 0; ///< Affine map columns: one per output dim, then the offset.
  IterSpace space{};
  int64_t *idx = nullptr;
  char **base = nullptr;
  const int64_t **rowPtr = nullptr;
  char *inPlace = nullptr; ///< Per node: a load the coordinate walk reads in place.
  int64_t *rows = nullptr;
  int64_t *zeros = nullptr, *offs = nullptr;
  int64_t *linear_ = nullptr; ///< Per space: 1 when its map is a linear index.
};

bool Run::checkOutputShapes() {
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    llvm::ArrayRef<int64_t> want = shapeOf(p.outputs[o]);
    if (!ctx.expectOutShape(o, want))
      return false;
    if (want != shapeOf(p.outputs[0]))
      return ctx.fail("output " + llvm::Twine(o) + " has shape " + shapeStr(want) + ", output 0 " +
                      shapeStr(shapeOf(p.outputs[0])) +
                      ": the outputs of a fused kernel share one shape");
  }
  return true;
}

llvm::Error Run::shapesOnly(std::vector<Dims> &out) {
  std::vector<int64_t> buf(p.shapeDims);
  shapes = buf.data();
  if (!computeShapes() || !checkOutputShapes())
    return ctx.error();
  out.clear();
  for (unsigned r = 0; r < p.regs.size(); ++r)
    out.emplace_back(shapeOf(r).begin(), shapeOf(r).end());
  return llvm::Error::success();
}

bool Run::computeShapes() {
  for (unsigned r = 0; r < p.regs.size(); ++r) {
    const Reg &g = p.regs[r];
    llvm::MutableArrayRef<int64_t> s = shapeOf(r);
    if (g.kind == Reg::Input) {
      for (size_t d = 0; d < s.size(); ++d)
        s[d] = ctx.in(r).shape[d];
      continue;
    }
    if (g.kind == Reg::Const)
      continue;
    llvm::ArrayRef<int64_t> x = shapeOf(g.operands[0].reg);
    switch (g.def->family) {
    case Family::Permute:
      for (size_t i = 0; i < s.size(); ++i)
        s[i] = x[g.axes[i]];
      break;
    case Family::Reshape:
    case Family::BroadcastTo: {
      int64_t known = 1;
      int infer = -1;
      for (size_t i = 0; i < s.size(); ++i) {
        const DimSpec &d = g.dims[i];
        if (d.kind == DimSpec::Infer) {
          infer = int(i);
          continue;
        }
        s[i] = d.kind == DimSpec::Fixed ? d.value : shapeOf(d.reg)[d.dim];
        if (__builtin_mul_overflow(known, s[i], &known))
          return fail(r, "the shape " + shapeStr(s.take_front(i + 1)) + "... is too large");
      }
      if (g.def->family == Family::BroadcastTo) {
        size_t lead = s.size() - x.size();
        for (size_t d = 0; d < x.size(); ++d)
          if (x[d] != 1 && x[d] != s[lead + d])
            return fail(r, "cannot broadcast " + shapeStr(x) + " to " + shapeStr(s));
        break;
      }
      int64_t n = numelOf(x);
      if (infer >= 0)
        s[infer] = known ? n / known : 0;
      if (numelOf(s) != n)
        return fail(r, "cannot reshape " + shapeStr(x) + " (" + llvm::Twine(n) + " elements) to " +
                           shapeStr(s));
      break;
    }
    case Family::ExpandDims:
      for (int64_t d = 0, src = 0; d < g.rank; ++d)
        s[d] = llvm::is_contained(g.axes, d) ? 1 : x[src++];
      break;
    case Family::Squeeze:
      for (int64_t d = 0, o = 0; d < int64_t(x.size()); ++d) {
        if (!llvm::is_contained(g.axes, d))
          s[o++] = x[d];
        else if (x[d] != 1)
          return fail(r, "dim " + llvm::Twine(d) + " of " + shapeStr(x) + " is not 1");
      }
      break;
    case Family::StridedSlice:
      std::copy(x.begin(), x.end(), s.begin());
      for (size_t i = 0; i < g.axes.size(); ++i)
        s[g.axes[i]] = sliceAxis(x[g.axes[i]], g.begin[i], g.end[i], g.strides[i]).second;
      break;
    case Family::Take: {
      llvm::ArrayRef<int64_t> ix = shapeOf(g.operands[1].reg);
      int64_t axis = g.axes[0], o = 0;
      for (int64_t d = 0; d < axis; ++d)
        s[o++] = x[d];
      for (int64_t d : ix)
        s[o++] = d;
      for (size_t d = size_t(axis) + 1; d < x.size(); ++d)
        s[o++] = x[d];
      break;
    }
    case Family::Concat: {
      int64_t axis = g.axes[0];
      std::copy(x.begin(), x.end(), s.begin());
      s[axis] = 0;
      for (const FusedProgram::Operand &o : g.operands) {
        llvm::ArrayRef<int64_t> y = shapeOf(o.reg);
        for (size_t d = 0; d < y.size(); ++d)
          if (int64_t(d) != axis && y[d] != x[d])
            return fail(r, "operand shapes " + shapeStr(x) + " and " + shapeStr(y) +
                               " differ outside axis " + llvm::Twine(axis));
        s[axis] += y[axis];
      }
      break;
    }
    default: { // Elementwise: numpy broadcasting.
      std::fill(s.begin(), s.end(), 1);
      for (const FusedProgram::Operand &o : g.operands) {
        llvm::ArrayRef<int64_t> y = shapeOf(o.reg);
        size_t lead = s.size() - y.size();
        for (size_t d = 0; d < y.size(); ++d) {
          int64_t &t = s[lead + d];
          if (t == 1)
            t = y[d];
          else if (y[d] != 1 && y[d] != t)
            return fail(
                r,
                (o.reg < p.numInputs ? "input " + llvm::Twine(o.reg) : "%" + llvm::Twine(o.reg)) +
                    " of shape " + shapeStr(y) + " does not broadcast to " + shapeStr(s));
        }
      }
      break;
    }
    }
    // Every coordinate and offset computed from these shapes fits in int64.
    int64_t span = 1;
    for (int64_t d : s)
      if (__builtin_mul_overflow(span, std::max<int64_t>(d, 1), &span))
        return fail(r, "the shape " + shapeStr(s) + " is too large");
  }
  return true;
}

/// Every space as an affine map of the output's index: row j gives
/// coordinate j as a combination of the output's coordinates plus an
/// offset. A reshape's operand space is affine only as a row-major linear
/// index (one row), which a load can use only for a compact input of the
/// operand's shape. False: some space or load has no affine form.
bool Run::buildAffine() {
  size_t outRank = cols - 1;
  for (const Space &s : p.spaces) {
    size_t id = size_t(&s - p.spaces.data());
    std::fill(row(s, 0), row(s, 0) + std::max<int64_t>(s.rank, 1) * cols, 0);
    auto copy = [&](int64_t to, const Space &from, int64_t j) {
      std::copy(row(from, j), row(from, j) + cols, row(s, to));
    };
    if (s.kind == Space::Root) {
      // A dim of extent 1 has coordinate 0: no coefficient, so a slice's
      // step never multiplies one (an index map then scales only
      // coordinates that range, and stays within the extents it maps to).
      llvm::ArrayRef<int64_t> out = shapeOf(p.outputs[0]);
      for (size_t j = 0; j < outRank; ++j)
        row(s, int64_t(j))[j] = out[j] != 1;
      continue;
    }
    const Space &parent = p.spaces[s.parent];
    if (linear_[s.parent])
      return false;
    if (s.kind == Space::Result) {
      llvm::ArrayRef<int64_t> shape = shapeOf(s.reg);
      int64_t lead = parent.rank - s.rank;
      for (int64_t j = 0; j < s.rank; ++j)
        if (shape[j] != 1)
          copy(j, parent, j + lead);
      continue;
    }
    const Reg &g = p.regs[s.reg];
    llvm::ArrayRef<int64_t> x = spaceShape(s);
    switch (g.def->family) {
    case Family::Permute:
      for (int64_t i = 0; i < parent.rank; ++i)
        copy(g.axes[i], parent, i);
      break;
    case Family::ExpandDims:
      for (int64_t d = 0, src = 0; d < parent.rank; ++d)
        if (!llvm::is_contained(g.axes, d))
          copy(src++, parent, d);
      break;
    case Family::Squeeze:
      for (int64_t d = 0, o = 0; d < s.rank; ++d)
        if (!llvm::is_contained(g.axes, d))
          copy(d, parent, o++);
      break;
    case Family::BroadcastTo:
      for (int64_t d = 0, lead = parent.rank - s.rank; d < s.rank; ++d)
        if (x[d] != 1)
          copy(d, parent, d + lead);
      break;
    case Family::StridedSlice:
      for (int64_t d = 0; d < s.rank; ++d)
        copy(d, parent, d);
      for (size_t i = 0; i < g.axes.size(); ++i) {
        int64_t a = g.axes[i], step = g.strides[i];
        auto [start, len] = sliceAxis(x[a], g.begin[i], g.end[i], step);
        int64_t *r = row(s, a);
        // One element never steps (its step may be up to 2^62, and the
        // byte strides multiply it again); a longer slice fits in the axis,
        // so its step is below the extent and the products fit.
        if (len <= 1) {
          std::fill(r, r + cols, 0);
          r[outRank] = start;
          continue;
        }
        for (size_t c = 0; c < cols; ++c)
          r[c] *= step;
        r[outRank] += start;
      }
      break;
    case Family::Reshape: {
      // The row-major linear index of the reshape's result.
      llvm::ArrayRef<int64_t> rs = shapeOf(s.reg);
      int64_t *lin = offs; // Scratch for one row.
      std::fill(lin, lin + cols, 0);
      int64_t cs = 1;
      for (int64_t j = parent.rank - 1; j >= 0; --j) {
        for (size_t c = 0; c < cols; ++c)
          lin[c] += cs * row(parent, j)[c];
        cs *= std::max<int64_t>(rs[j], 1);
      }
      int64_t nonUnit = 0, at = 0;
      for (int64_t d = 0; d < s.rank; ++d)
        if (x[d] != 1) {
          ++nonUnit;
          at = d;
        }
      if (nonUnit <= 1) { // One coordinate: the linear index itself.
        if (s.rank > 0)
          std::copy(lin, lin + cols, row(s, at));
      } else {
        std::copy(lin, lin + cols, row(s, 0));
        linear_[id] = 1;
      }
      break;
    }
    default:
      return false; // take and concat select per element.
    }
  }
  return true;
}

/// A load's byte strides along the output's dims and its first element.
bool Run::affineLoad(const Node &n, int64_t *strides, char *&start) const {
  const Space &s = p.spaces[n.space];
  View in = ctx.inView(n.reg);
  size_t outRank = cols - 1;
  start = in.data;
  std::fill(strides, strides + outRank, 0);
  if (linear_[size_t(n.space)]) {
    if (llvm::ArrayRef<int64_t>(in.shape) != spaceShape(s) || !isCompact(in))
      return false;
    const int64_t *lin = row(s, 0);
    for (size_t d = 0; d < outRank; ++d)
      strides[d] = lin[d] * in.elemSize();
    start += lin[outRank] * in.elemSize();
    return true;
  }
  int64_t lead = s.rank - in.ndim();
  for (int64_t j = 0; j < in.ndim(); ++j) {
    if (in.shape[j] == 1)
      continue;
    const int64_t *r = row(s, j + lead);
    for (size_t d = 0; d < outRank; ++d)
      strides[d] += r[d] * in.strides[j];
    start += r[outRank] * in.strides[j];
  }
  return true;
}

void Run::runOp(const Node &n, unsigned id, int64_t cnt, char *dst) {
  const Reg &g = p.regs[n.reg];
  const char *operands[3];
  unsigned conv = 0;
  for (size_t o = 0; o < g.operands.size(); ++o) {
    operands[o] = nodePtr[n.operands[o]];
    if (g.operands[o].convert) {
      char *c = tileOf(p.nodes.size() + conv++);
      g.operands[o].convert(c, &operands[o], cnt, nullptr);
      operands[o] = c;
    }
  }
  g.fn(dst, operands, cnt, g.attrs);
  nodePtr[id] = dst;
}

/// The tiled walk over the coalesced output when every load is a strided
/// view: the elementwise case, and permute_dims, expand_dims, squeeze,
/// broadcast_to, strided_slice and reshapes of compact inputs.
llvm::Error Run::runAffine(const View &out0) {
  size_t nouts = p.outputs.size(), nops = nouts + p.loads;
  const std::vector<int> &loadNodes = p.loadNodes;
  for (size_t i = 0; i < nouts; ++i) {
    View o = ctx.outView(i);
    base[i] = o.data;
    for (size_t d = 0; d < out0.shape.size(); ++d)
      space.stride(i, d) = o.strides[d];
  }
  for (size_t l = 0; l < loadNodes.size(); ++l) {
    const Node &n = p.nodes[loadNodes[l]];
    size_t k = nouts + l;
    if (p.hasInjective) {
      if (!affineLoad(n, &space.stride(k, 0), base[k]))
        return runCoords(out0);
    } else { // Every load is an input broadcast to the output.
      std::optional<View> v =
          ctx.broadcast(ctx.inView(n.reg), out0.shape, "input " + llvm::Twine(n.reg));
      if (!v)
        return ctx.error();
      base[k] = v->data;
      for (size_t d = 0; d < out0.shape.size(); ++d)
        space.stride(k, d) = v->strides[d];
    }
  }
  coalesce(out0.shape, nops, space);

  int64_t outSize = out0.elemSize();
  bool stream = out0.numel() * outSize >= kStreamOutputBytes;
  size_t ndim = space.ndim;
  int64_t inner = space.shape[ndim - 1];
  char *outTile[8];
  bool direct[8];
  std::fill(idx, idx + ndim, 0);
  while (true) {
    for (int64_t start = 0; start < inner; start += kFusedTileElems) {
      int64_t n = std::min(kFusedTileElems, inner - start);
      for (size_t l = 0; l < loadNodes.size(); ++l) {
        int64_t stride = space.stride(nouts + l, ndim - 1);
        const Node &node = p.nodes[loadNodes[l]];
        nodePtr[loadNodes[l]] = gather(base[nouts + l] + start * stride, stride,
                                       elemBytes(p.regs[node.reg].type), n, tileOf(loadNodes[l]));
      }
      for (size_t o = 0; o < nouts && o < 8; ++o) {
        int64_t outStride = space.stride(o, ndim - 1);
        outTile[o] = base[o] + start * outStride;
        direct[o] = outStride == elemBytes(p.regs[p.outputs[o]].type) && !stream;
      }
      for (const FusedProgram::Step &step : p.steps) {
        if (step.isSpace)
          continue;
        const Node &node = p.nodes[step.id];
        if (node.kind != Node::Op)
          continue;
        bool here = node.output >= 0 && node.output < 8 && direct[node.output];
        runOp(node, step.id, n, here ? outTile[node.output] : tileOf(step.id));
      }
      for (size_t o = 0; o < nouts; ++o) {
        int64_t size = elemBytes(p.regs[p.outputs[o]].type);
        int64_t outStride = space.stride(o, ndim - 1);
        char *dst = base[o] + start * outStride;
        const char *src = nodePtr[p.outputNodes[o]];
        if (src == dst)
          continue;
        if (outStride == size && stream)
          streamTile(dst, src, size_t(n * size));
        else if (outStride == size)
          std::memcpy(dst, src, size_t(n * size));
        else
          for (int64_t i = 0; i < n; ++i)
            std::memcpy(dst + i * outStride, src + i * size, size);
      }
    }
    // Odometer over the outer dims.
    int64_t d = int64_t(ndim) - 2;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < nops; ++k)
        base[k] += space.stride(k, d);
      if (++idx[d] < space.shape[d])
        break;
      for (size_t k = 0; k < nops; ++k)
        base[k] -= space.stride(k, d) * space.shape[d];
      idx[d] = 0;
    }
    if (d < 0)
      break;
  }
#if defined(__SSE2__)
  if (stream)
    _mm_sfence(); // Streamed stores are visible to the next kernel.
#endif
  return llvm::Error::success();
}

/// The coordinates of space `s` for the `n` elements of this tile, from
/// its parent's (and, for take's data, the index values).
llvm::Error Run::computeSpace(const Space &s, int64_t n) {
  const int64_t **rowsOf = rowPtr + s.coordAt;
  int64_t *own = rows + int64_t(s.coordAt) * kFusedTileElems;
  auto ownRow = [&](int64_t j) { return own + j * kFusedTileElems; };
  if (s.kind == Space::Root)
    return llvm::Error::success(); // Filled by the walk.
  const Space &parent = p.spaces[s.parent];
  const int64_t **from = rowPtr + parent.coordAt;
  if (s.kind == Space::Result) {
    llvm::ArrayRef<int64_t> shape = shapeOf(s.reg);
    int64_t lead = parent.rank - s.rank;
    for (int64_t j = 0; j < s.rank; ++j)
      rowsOf[j] = shape[j] == 1 ? zeros : from[j + lead];
    return llvm::Error::success();
  }
  const Reg &g = p.regs[s.reg];
  llvm::ArrayRef<int64_t> x = spaceShape(s);
  switch (g.def->family) {
  case Family::Permute:
    for (int64_t i = 0; i < parent.rank; ++i)
      rowsOf[g.axes[i]] = from[i];
    break;
  case Family::ExpandDims:
    for (int64_t d = 0, src = 0; d < parent.rank; ++d)
      if (!llvm::is_contained(g.axes, d))
        rowsOf[src++] = from[d];
    break;
  case Family::Squeeze:
    for (int64_t d = 0, o = 0; d < s.rank; ++d)
      rowsOf[d] = llvm::is_contained(g.axes, d) ? zeros : from[o++];
    break;
  case Family::BroadcastTo:
    for (int64_t d = 0, lead = parent.rank - s.rank; d < s.rank; ++d)
      rowsOf[d] = x[d] == 1 ? zeros : from[d + lead];
    break;
  case Family::StridedSlice:
    for (int64_t d = 0; d < s.rank; ++d)
      rowsOf[d] = from[d];
    for (size_t i = 0; i < g.axes.size(); ++i) {
      int64_t a = g.axes[i], step = g.strides[i];
      auto [start, len] = sliceAxis(x[a], g.begin[i], g.end[i], step);
      const int64_t *c = from[a];
      int64_t *o = ownRow(a);
      if (len <= 1) // As above: one element never steps.
        step = 0;
      for (int64_t e = 0; e < n; ++e)
        o[e] = start + step * c[e];
      rowsOf[a] = o;
    }
    break;
  case Family::Reshape: {
    llvm::ArrayRef<int64_t> rs = shapeOf(s.reg);
    std::fill(offs, offs + n, 0);
    int64_t cs = 1;
    for (int64_t j = parent.rank - 1; j >= 0; --j) {
      const int64_t *c = from[j];
      for (int64_t e = 0; e < n; ++e)
        offs[e] += cs * c[e];
      cs *= std::max<int64_t>(rs[j], 1);
    }
    for (int64_t q = s.rank - 1; q >= 0; --q) {
      int64_t ext = x[q];
      if (ext <= 1) {
        rowsOf[q] = zeros;
        continue;
      }
      int64_t *o = ownRow(q);
      for (int64_t e = 0; e < n; ++e) {
        o[e] = offs[e] % ext;
        offs[e] /= ext;
      }
      rowsOf[q] = o;
    }
    break;
  }
  case Family::Take: {
    int64_t axis = g.axes[0];
    int64_t idxRank = p.regs[g.operands[1].reg].rank;
    if (s.k == 1) { // The index values' space.
      for (int64_t j = 0; j < idxRank; ++j)
        rowsOf[j] = from[axis + j];
      break;
    }
    int64_t len = x[axis];
    int64_t *o = ownRow(axis);
    const char *values = nodePtr[s.idxNode];
    int64_t bad = 0;
    bool ok = dispatch(p.regs[g.operands[1].reg].type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t e = 0; e < n; ++e) {
        int64_t v = int64_t(Elem<T>::load(values + e * sizeof(T)));
        if (len == 0 || (g.mode == TakeMode::Fast && (v < -len || v >= len))) {
          bad = v;
          return false;
        }
        if (g.mode == TakeMode::Wrap)
          v = ((v % len) + len) % len;
        else if (g.mode == TakeMode::Clip)
          v = std::clamp<int64_t>(v, 0, len - 1);
        else if (v < 0)
          v += len;
        o[e] = v;
      }
      return true;
    });
    if (!ok) {
      fail(s.reg,
           "index " + llvm::Twine(bad) + " is out of range for a dim of " + llvm::Twine(len));
      return ctx.error();
    }
    for (int64_t d = 0; d < axis; ++d)
      rowsOf[d] = from[d];
    rowsOf[axis] = o;
    for (int64_t d = axis + 1; d < s.rank; ++d)
      rowsOf[d] = from[d - 1 + idxRank];
    break;
  }
  case Family::Concat: {
    int64_t axis = g.axes[0], off = 0;
    for (unsigned m = 0; m < s.k; ++m)
      off += shapeOf(g.operands[m].reg)[axis];
    int64_t hi = std::max<int64_t>(x[axis] - 1, 0);
    for (int64_t d = 0; d < s.rank; ++d)
      rowsOf[d] = from[d];
    const int64_t *c = from[axis];
    int64_t *o = ownRow(axis);
    for (int64_t e = 0; e < n; ++e)
      o[e] = std::clamp<int64_t>(c[e] - off, 0, hi);
    rowsOf[axis] = o;
    break;
  }
  default:
    llvm_unreachable("elementwise ops make no space");
  }
  return llvm::Error::success();
}

/// Reads an input at the coordinates of its space (broadcast into it).
void Run::loadAt(const Node &n, int64_t cnt, char *dst) {
  View in = ctx.inView(n.reg);
  const Space &s = p.spaces[n.space];
  if (in.numel() == 0) { // Only a concat branch never selected reads it.
    std::memset(dst, 0, size_t(cnt * in.elemSize()));
    nodePtr[&n - p.nodes.data()] = dst;
    return;
  }
  const int64_t **rowsOf = rowPtr + s.coordAt;
  std::fill(offs, offs + cnt, 0);
  int64_t lead = s.rank - in.ndim();
  for (int64_t j = 0; j < in.ndim(); ++j) {
    if (in.shape[j] == 1)
      continue;
    const int64_t *c = rowsOf[j + lead];
    int64_t stride = in.strides[j];
    for (int64_t e = 0; e < cnt; ++e)
      offs[e] += c[e] * stride;
  }
  gatherOffsets(in.data, offs, in.elemSize(), cnt, dst);
  nodePtr[&n - p.nodes.data()] = dst;
}

/// concat: each element from the branch its coordinate along the axis
/// falls in.
void Run::select(const Node &n, int64_t cnt, char *dst) {
  const Reg &g = p.regs[n.reg];
  int64_t axis = g.axes[0];
  const int64_t *c = rowPtr[p.spaces[n.space].coordAt + axis];
  int64_t size = elemBytes(g.type);
  size_t branches = n.operands.size();
  for (int64_t e = 0; e < cnt; ++e) {
    int64_t v = c[e], off = 0;
    size_t k = 0;
    for (; k + 1 < branches; ++k) {
      int64_t len = shapeOf(g.operands[k].reg)[axis];
      if (v < off + len)
        break;
      off += len;
    }
    std::memcpy(dst + e * size, nodePtr[n.operands[k]] + e * size, size_t(size));
  }
  nodePtr[&n - p.nodes.data()] = dst;
}

/// The walk when some space has no affine form (take, concat, a reshape
/// of a broadcast or strided operand): the output in row-major tiles,
/// every space's coordinates computed per element.
llvm::Error Run::runCoords(const View &out0) {
  size_t outRank = out0.shape.size(), nouts = p.outputs.size();
  const Space &root = p.spaces[0];
  int64_t *rootRows = rows + int64_t(root.coordAt) * kFusedTileElems;
  for (size_t d = 0; d < outRank; ++d)
    rowPtr[root.coordAt + d] = rootRows + d * kFusedTileElems;
  std::fill(zeros, zeros + kFusedTileElems, 0);
  bool compact[8];
  for (size_t o = 0; o < nouts && o < 8; ++o)
    compact[o] = isCompact(ctx.outView(o));
  for (int id : p.loadNodes) {
    const Node &node = p.nodes[id];
    View in = ctx.inView(node.reg);
    inPlace[id] = node.space == 0 && in.shape == out0.shape && isCompact(in);
  }
  int64_t total = out0.numel(), size0 = out0.elemSize();
  bool stream = total * size0 >= kStreamOutputBytes;
  for (int64_t start = 0; start < total; start += kFusedTileElems) {
    int64_t n = std::min(kFusedTileElems, total - start);
    // The output coordinates of elements start .. start + n.
    for (int64_t d = int64_t(outRank) - 1, rest = start; d >= 0; --d) {
      idx[d] = rest % out0.shape[d];
      rest /= out0.shape[d];
    }
    for (int64_t e = 0; e < n; ++e) {
      for (size_t d = 0; d < outRank; ++d)
        rootRows[d * kFusedTileElems + e] = idx[d];
      for (int64_t d = int64_t(outRank) - 1; d >= 0 && ++idx[d] == out0.shape[d]; --d)
        idx[d] = 0;
    }
    for (const FusedProgram::Step &step : p.steps) {
      if (step.isSpace) {
        if (llvm::Error err = computeSpace(p.spaces[step.id], n))
          return err;
        continue;
      }
      const Node &node = p.nodes[step.id];
      if (node.kind == Node::Load && inPlace[step.id]) {
        // An input of the output's shape, compact, read in the output's space: the tile
        // is its elements start .. start + n.
        View in = ctx.inView(node.reg);
        nodePtr[step.id] = in.data + start * in.elemSize();
      } else if (node.kind == Node::Load) {
        loadAt(node, n, tileOf(step.id));
      } else if (node.kind == Node::Select) {
        select(node, n, tileOf(step.id));
      } else {
        int o = node.output;
        bool here = o >= 0 && o < 8 && compact[o] && !stream;
        char *dst = here ? static_cast<char *>(ctx.out(size_t(o)).data) +
                               start * elemBytes(p.regs[node.reg].type)
                         : tileOf(step.id);
        runOp(node, step.id, n, dst);
      }
    }
    for (size_t o = 0; o < nouts; ++o) {
      View out = ctx.outView(o);
      int64_t size = out.elemSize();
      const char *src = nodePtr[p.outputNodes[o]];
      if (o < 8 && compact[o]) {
        char *dst = out.data + start * size;
        if (src == dst)
          continue;
        if (stream)
          streamTile(dst, src, size_t(n * size));
        else
          std::memcpy(dst, src, size_t(n * size));
        continue;
      }
      for (int64_t e = 0; e < n; ++e) {
        char *dst = out.data;
        for (size_t d = 0; d < outRank; ++d)
          dst += rootRows[d * kFusedTileElems + e] * out.strides[d];
        std::memcpy(dst, src + e * size, size_t(size));
      }
    }
  }
#if defined(__SSE2__)
  if (stream)
    _mm_sfence();
#endif
  return llvm::Error::success();
}

llvm::Error Run::run() {
  size_t nins = p.numInputs;
  if (!ctx.checkArity(int(nins), int(p.outputs.size())))
    return ctx.error();
  for (size_t i = 0; i < nins; ++i) {
    if (!ctx.expectSameType(ctx.inType(i), p.regs[i].type, "input " + llvm::Twine(i)))
      return ctx.error();
    if (ctx.in(i).ndim != p.regs[i].rank)
      return ctx.reject("input " + llvm::Twine(i) + " has rank " + llvm::Twine(ctx.in(i).ndim) +
                        ", expected " + llvm::Twine(p.regs[i].rank));
  }
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    if (!ctx.expectSameType(ctx.outType(o), p.regs[p.outputs[o]].type, "output " + llvm::Twine(o)))
      return ctx.error();
    if (ctx.out(o).ndim != p.regs[p.outputs[o]].rank)
      return ctx.reject("output " + llvm::Twine(o) + " has rank " + llvm::Twine(ctx.out(o).ndim) +
                        ", expected " + llvm::Twine(p.regs[p.outputs[o]].rank));
  }
  View out0 = ctx.outView(0);
  Scratch layout(p, out0.shape.size());
  if (!ctx.needWorkspace(layout.total()))
    return ctx.error();
  char *ws = alignUp(static_cast<char *>(ctx.args.workspace.data), 64);
  auto carve = [&](size_t bytes) {
    char *part = ws;
    ws += bytes;
    return part;
  };
  tiles = carve(layout.tileBytes);
  nodePtr = reinterpret_cast<const char **>(carve(layout.nodeBytes));
  shapes = reinterpret_cast<int64_t *>(carve(layout.shapeBytes));
  affine = reinterpret_cast<int64_t *>(carve(layout.affineBytes));
  cols = out0.shape.size() + 1;
  linear_ = affine + size_t(p.spaceRows) * cols;
  space = {reinterpret_cast<int64_t *>(carve(layout.dimBytes)),
           reinterpret_cast<int64_t *>(carve(layout.strideBytes)),
           std::max<size_t>(out0.shape.size(), 1)};
  idx = reinterpret_cast<int64_t *>(carve(layout.dimBytes));
  base = reinterpret_cast<char **>(carve(layout.baseBytes));
  rowPtr = reinterpret_cast<const int64_t **>(carve(layout.rowPtrBytes));
  inPlace = carve(layout.flagBytes);
  rows = reinterpret_cast<int64_t *>(carve(layout.rowBytes));
  zeros = rows + int64_t(p.spaceRanks) * kFusedTileElems;
  offs = zeros + kFusedTileElems;

  if (!computeShapes() || !checkOutputShapes())
    return ctx.error();
  if (out0.numel() == 0)
    return llvm::Error::success();
  for (const auto &node : p.nodes)
    if (node.kind == Node::Const)
      nodePtr[&node - p.nodes.data()] = p.regs[node.reg].tile.data();
  if (!p.hasInjective)
    return runAffine(out0);
  std::fill(linear_, linear_ + p.spaces.size(), 0);
  if (!p.needsCoords && buildAffine())
    return runAffine(out0);
  return runCoords(out0);
}

} // namespace

llvm::Expected<std::shared_ptr<const FusedProgram>> parseFusedProgram(llvm::StringRef text) {
  auto program = std::make_shared<FusedProgram>();
  ProgramParser parser(*program);
  if (llvm::Error err = parser.parse(text))
    return err;
  return std::shared_ptr<const FusedProgram>(std::move(program));
}

bool isFusedProgramOp(llvm::StringRef name) { return findOp(name) != nullptr; }

size_t fusedProgramInputs(const FusedProgram &program) { return program.numInputs; }

size_t fusedProgramOutputs(const FusedProgram &program) { return program.outputs.size(); }

namespace {

FusedRegView::Map mapOf(Family f) {
  using Map = FusedRegView::Map;
  switch (f) {
  case Family::Permute:
    return Map::Permute;
  case Family::Reshape:
    return Map::Reshape;
  case Family::ExpandDims:
    return Map::ExpandDims;
  case Family::Squeeze:
    return Map::Squeeze;
  case Family::BroadcastTo:
    return Map::BroadcastTo;
  case Family::StridedSlice:
    return Map::StridedSlice;
  case Family::Take:
    return Map::Take;
  case Family::Concat:
    return Map::Concat;
  default:
    return Map::None;
  }
}

static_assert(int(DimSpec::Fixed) == int(FusedRegView::Dim::Fixed) &&
              int(DimSpec::Infer) == int(FusedRegView::Dim::Infer) &&
              int(DimSpec::Ref) == int(FusedRegView::Dim::Ref));
static_assert(int(TakeMode::Fast) == int(FusedRegView::TakeMode::Fast) &&
              int(TakeMode::Wrap) == int(FusedRegView::TakeMode::Wrap) &&
              int(TakeMode::Clip) == int(FusedRegView::TakeMode::Clip));

} // namespace

llvm::Expected<std::vector<Dims>> fusedProgramShapes(const FusedProgram &p, const KernelArgs &args,
                                                     llvm::StringRef symbol) {
  Ctx ctx(args, symbol);
  std::vector<Dims> out;
  if (llvm::Error err = Run(p, ctx).shapesOnly(out))
    return err;
  return out;
}

FusedProgramView viewFusedProgram(const FusedProgram &p) {
  FusedProgramView v;
  v.numInputs = p.numInputs;
  v.outputs = p.outputs;
  for (const FusedProgram::Reg &r : p.regs) {
    FusedRegView &out = v.regs.emplace_back();
    out.type = r.type;
    out.rank = r.rank;
    if (r.kind == FusedProgram::Reg::Input) {
      out.kind = FusedRegView::Input;
      continue;
    }
    if (r.kind == FusedProgram::Reg::Const) {
      out.kind = FusedRegView::Const;
      out.isFloat = r.constIsFloat;
      out.f = r.constF;
      out.i = r.constI;
      continue;
    }
    out.op = r.def->name;
    out.rowName = r.def->rowName;
    switch (r.def->family) {
    case Family::Row:
      out.kind = FusedRegView::Row;
      break;
    case Family::Astype:
      out.kind = FusedRegView::Astype;
      break;
    case Family::Where:
      out.kind = FusedRegView::Where;
      break;
    case Family::Clip:
      out.kind = FusedRegView::Clip;
      out.min = r.attrs[0];
      out.max = r.attrs[1];
      break;
    default:
      out.kind = FusedRegView::Injective;
      out.map = mapOf(r.def->family);
      out.axes = r.axes;
      out.begin = r.begin;
      out.end = r.end;
      out.strides = r.strides;
      for (const DimSpec &d : r.dims)
        out.dims.push_back({FusedRegView::Dim::Kind(d.kind), d.value, d.reg, d.dim});
      out.mode = FusedRegView::TakeMode(r.mode);
      break;
    }
    for (const FusedProgram::Operand &o : r.operands)
      out.operands.push_back({o.reg, o.type});
  }
  return v;
}

size_t fusedProgramWorkspaceBytes(const FusedProgram &p, const KernelArgs &args) {
  size_t rank = args.outputs.empty() || !args.outputs[0] ? 0 : size_t(args.outputs[0]->ndim);
  return Scratch(p, rank).total();
}

llvm::Error runFusedProgram(const FusedProgram &p, const KernelArgs &args, llvm::StringRef symbol) {
  Ctx ctx(args, symbol);
  return Run(p, ctx).run();
}

} // namespace graft::kernels
