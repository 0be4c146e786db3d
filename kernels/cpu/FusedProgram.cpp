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

#include "kernels/FusedKernel.h"
#include "kernels/cpu/ElementwiseOps.h"
#include "kernels/cpu/TensorIter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace graft::kernels {

using namespace cpu;

namespace {

/// out[i] = f(in0[i], in1[i], ...) over n contiguous elements.
using LoopFn = void (*)(char *out, const char *const *in, int64_t n);

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
GRAFT_VECTOR_CLONES void rowLoop(char *out, const char *const *in, int64_t n) {
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
GRAFT_VECTOR_CLONES void convertLoop(char *out, const char *const *in, int64_t n) {
  GRAFT_OPERANDS(1);
  for (int64_t i = 0; i < n; ++i)
    Elem<To>::store(at<To>(o, i), castTo<Compute<To>>(Elem<From>::load(at<From>(a, i))));
}

template <class T> GRAFT_VECTOR_CLONES void whereLoop(char *out, const char *const *in, int64_t n) {
  GRAFT_OPERANDS(3);
  for (int64_t i = 0; i < n; ++i)
    Elem<T>::store(at<T>(o, i), Elem<bool>::load(a + i) ? Elem<T>::load(at<T>(b, i))
                                                        : Elem<T>::load(at<T>(c, i)));
}

template <class F> LoopFn byType(ScalarType t, F &&f) {
  return dispatch(t, [&](auto tag) -> LoopFn { return f(tag); });
}

LoopFn convertFn(ScalarType from, ScalarType to) {
  return byType(from, [&](auto f) {
    return byType(to, [&](auto t) -> LoopFn {
      return &convertLoop<typename decltype(f)::type, typename decltype(t)::type>;
    });
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
};

struct OpDef {
  const char *name; ///< The op's script name: "add", "nn.relu".
  int arity;
  Family family;
  elementwise::DTypeRule rule = {};        ///< Rows only.
  LoopFn (*loopFor)(ScalarType) = nullptr; ///< Rows only: the loop per compute dtype.
};

template <class Op> constexpr OpDef rowDef() {
  return {elementwise::scriptName(Op::symbol), Op::arity, Family::Row, Op::rule, &rowLoopFor<Op>};
}

// The table's rows, by the names of the op registry, then the two ops
// whose operands no DTypeRule describes.
constexpr OpDef kOps[] = {
#define GRAFT_UNARY_OP(Name, ...) rowDef<elementwise::Name>(),
#define GRAFT_BINARY_OP(Name, ...) rowDef<elementwise::Name>(),
#include "kernels/cpu/ElementwiseOps.def"
    {"astype", 1, Family::Astype},
    {"where", 3, Family::Where},
};

/// Whether kOps starts with exactly the table's rows, in table order.
constexpr bool opsAreTheTable() {
  if (std::size(kOps) != elementwise::kNumRows + 2)
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

class FusedProgram {
public:
  struct Operand {
    unsigned reg;
    /// Converts the register to the op's operand type first; null: as is.
    LoopFn convert = nullptr;
  };
  struct Instr {
    LoopFn fn;
    llvm::SmallVector<Operand, 3> operands;
  };
  struct Input {
    ScalarType type;
    int64_t ndim;
  };

  std::vector<ScalarType> regType;
  /// Inputs are registers 0..inputs.size()-1.
  std::vector<Input> inputs;
  /// Immediates: register -> kFusedTileElems copies of the value.
  std::vector<std::pair<unsigned, std::vector<char>>> constants;
  /// Instr i defines register firstOpReg + i.
  unsigned firstOpReg = 0;
  std::vector<Instr> instrs;
  unsigned output = 0;
  /// Conversion scratch tiles needed at once (the most operands converted
  /// by one instruction).
  unsigned maxConverted = 0;
};

namespace {

class ProgramParser {
public:
  explicit ProgramParser(FusedProgram &p) : p_(p) {}

  llvm::Error parse(llvm::StringRef text) {
    llvm::SmallVector<llvm::StringRef, 0> lines;
    text.split(lines, '\n');
    bool sawHeader = false, sawOutput = false;
    for (size_t i = 0; i < lines.size(); ++i) {
      line_ = i + 1;
      llvm::SmallVector<llvm::StringRef, 8> tok;
      lines[i].split(tok, ' ', -1, /*KeepEmpty=*/false);
      if (tok.empty() || tok[0].startswith("#"))
        continue;
      if (sawOutput)
        return error("nothing may follow the output line");
      if (!sawHeader) {
        if (tok.size() != 2 || tok[0] != "fused" || tok[1] != "1")
          return error("expected the header 'fused 1'");
        sawHeader = true;
        continue;
      }
      llvm::Error err = tok[0] == "input"    ? input(tok)
                        : tok[0] == "const"  ? constant(tok)
                        : tok[0] == "output" ? output(tok, sawOutput)
                                             : op(tok);
      if (err)
        return err;
    }
    line_ = lines.size();
    if (!sawHeader)
      return error("expected the header 'fused 1'");
    if (!sawOutput)
      return error("the program has no output line");
    return llvm::Error::success();
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
    if (!tok.consume_front("%") || tok.getAsInteger(10, n) || n != p_.regType.size())
      return error("expected %" + llvm::Twine(p_.regType.size()) + " (registers are defined in " +
                   "order), got '" + tok + "'");
    return llvm::Error::success();
  }

  llvm::Expected<unsigned> use(llvm::StringRef tok) const {
    unsigned n;
    llvm::StringRef t = tok;
    if (!t.consume_front("%") || t.getAsInteger(10, n))
      return error("expected a register, got '" + tok + "'");
    if (n >= p_.regType.size())
      return error("register %" + llvm::Twine(n) + " is used before it is defined");
    return n;
  }

  /// `input %N DTYPE NDIM`
  llvm::Error input(llvm::ArrayRef<llvm::StringRef> tok) {
    if (!p_.instrs.empty() || !p_.constants.empty() || tok.size() != 4)
      return error("expected 'input %N DTYPE NDIM' before any const or op line");
    if (llvm::Error err = define(tok[1]))
      return err;
    llvm::Expected<ScalarType> t = dtype(tok[2]);
    if (!t)
      return t.takeError();
    int64_t ndim;
    if (tok[3].getAsInteger(10, ndim) || ndim < 0 || ndim > 64)
      return error("expected a rank from 0 to 64, got '" + tok[3] + "'");
    p_.regType.push_back(*t);
    p_.inputs.push_back({*t, ndim});
    p_.firstOpReg = p_.regType.size();
    return llvm::Error::success();
  }

  /// `const %N DTYPE VALUE`: the value as strtod reads it (hex floats are
  /// exact), integers and bool as decimal integers.
  llvm::Error constant(llvm::ArrayRef<llvm::StringRef> tok) {
    if (!p_.instrs.empty() || tok.size() != 4)
      return error("expected 'const %N DTYPE VALUE' before any op line");
    if (llvm::Error err = define(tok[1]))
      return err;
    llvm::Expected<ScalarType> t = dtype(tok[2]);
    if (!t)
      return t.takeError();
    std::vector<char> tile(kFusedTileElems * elemBytes(*t));
    if (llvm::Error err = fill(*t, tok[3], tile.data()))
      return err;
    p_.regType.push_back(*t);
    p_.constants.push_back({unsigned(p_.regType.size() - 1), std::move(tile)});
    p_.firstOpReg = p_.regType.size();
    return llvm::Error::success();
  }

  llvm::Error fill(ScalarType t, llvm::StringRef text, char *tile) const {
    std::string s = text.str();
    char *end = nullptr;
    if (isFloatType(t)) {
      double v = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size())
        return error("expected a number, got '" + text + "'");
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
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t i = 0; i < kFusedTileElems; ++i)
        Elem<T>::store(tile + i * sizeof(T), castTo<Compute<T>>(v));
    });
    return llvm::Error::success();
  }

  /// `output %N`: the last op's register.
  llvm::Error output(llvm::ArrayRef<llvm::StringRef> tok, bool &sawOutput) {
    if (tok.size() != 2)
      return error("expected 'output %N'");
    llvm::Expected<unsigned> r = use(tok[1]);
    if (!r)
      return r.takeError();
    if (p_.instrs.empty() || *r != p_.regType.size() - 1)
      return error("the output must be the register of the last op line");
    p_.output = *r;
    sawOutput = true;
    return llvm::Error::success();
  }

  /// `%N = OP DTYPE %A [%B [%C]]`
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
    if (tok.size() - 4 != size_t(def->arity))
      return error("'" + tok[2] + "' takes " + llvm::Twine(def->arity) + " operands, got " +
                   llvm::Twine(tok.size() - 4));
    llvm::SmallVector<unsigned, 3> regs;
    for (size_t i = 4; i < tok.size(); ++i) {
      llvm::Expected<unsigned> r = use(tok[i]);
      if (!r)
        return r.takeError();
      regs.push_back(*r);
    }
    FusedProgram::Instr instr;
    if (llvm::Error err = resolve(*def, *t, regs, instr))
      return err;
    unsigned converted = 0;
    for (const FusedProgram::Operand &o : instr.operands)
      converted += o.convert != nullptr;
    p_.maxConverted = std::max(p_.maxConverted, converted);
    p_.regType.push_back(*t);
    p_.instrs.push_back(std::move(instr));
    return llvm::Error::success();
  }

  /// Checks the op's dtype rule (the one its own kernel checks) and picks
  /// the loop and the operand conversions.
  llvm::Error resolve(const OpDef &def, ScalarType out, llvm::ArrayRef<unsigned> regs,
                      FusedProgram::Instr &instr) const {
    auto typeOf = [&](unsigned i) { return p_.regType[regs[i]]; };
    // The dtype every operand is converted to (or taken as).
    llvm::SmallVector<ScalarType, 3> want;
    ScalarType compute = out;
    switch (def.family) {
    case Family::Row:
      if (llvm::Error err = rowOperands(def, out, regs, want, compute))
        return err;
      instr.fn = def.loopFor(compute);
      break;
    case Family::Astype:
      instr.fn = convertFn(typeOf(0), out);
      instr.operands.push_back({regs[0], nullptr});
      return llvm::Error::success();
    case Family::Where:
      for (size_t i = 1; i < 3; ++i)
        if (typeOf(i) != out && typeOf(i) != ScalarType::Bool)
          return opError(def, "operand " + llvm::Twine(i) + " has dtype " + name(typeOf(i)) +
                                  ", expected " + name(out));
      want = {ScalarType::Bool, out, out};
      instr.fn = whereFn(out);
      break;
    }
    if (!instr.fn)
      return opError(def, "does not take " + name(compute));
    for (size_t i = 0; i < regs.size(); ++i)
      instr.operands.push_back(
          {regs[i], typeOf(i) == want[i] ? nullptr : convertFn(typeOf(i), want[i])});
    return llvm::Error::success();
  }

  /// A table row's DTypeRule: the dtype the row computes in and the dtype
  /// of each operand (ElementwiseOps.h).
  llvm::Error rowOperands(const OpDef &def, ScalarType out, llvm::ArrayRef<unsigned> regs,
                          llvm::SmallVectorImpl<ScalarType> &want, ScalarType &compute) const {
    using elementwise::DTypeRule;
    auto typeOf = [&](unsigned i) { return p_.regType[regs[i]]; };
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

  FusedProgram &p_;
  size_t line_ = 0;
};

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// The output's index space with every operand's byte strides, dims of
/// extent 1 dropped and dims merged where every operand is contiguous
/// across them, so a dense chain runs as one long row. The arrays are in
/// the caller's workspace: `cap` dims per operand, operand 0 the output.
struct Space {
  int64_t *shape;
  int64_t *strides; ///< [operand * cap + dim].
  size_t cap;
  size_t ndim = 0;

  int64_t &stride(size_t k, size_t d) const { return strides[k * cap + d]; }
};

/// Coalesces in place: on entry stride(k, d) is operand k's byte stride
/// along output dim d; a merged dim is written at an index no greater than
/// the dims still to be read.
void coalesce(llvm::ArrayRef<int64_t> outShape, size_t ops, Space &s) {
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

} // namespace

llvm::Expected<std::shared_ptr<const FusedProgram>> parseFusedProgram(llvm::StringRef text) {
  auto program = std::make_shared<FusedProgram>();
  ProgramParser parser(*program);
  if (llvm::Error err = parser.parse(text))
    return err;
  return std::shared_ptr<const FusedProgram>(std::move(program));
}

bool isFusedProgramOp(llvm::StringRef name) { return findOp(name) != nullptr; }

size_t fusedProgramInputs(const FusedProgram &program) { return program.inputs.size(); }

namespace {

/// One tile per register, plus conversion tiles; 8 bytes per element
/// covers every dtype.
constexpr int64_t kTileBytes = kFusedTileElems * 8;

/// The workspace of one run, carved in this order (every part a multiple
/// of 8 bytes): tiles, register pointers, the coalesced shape, the strides,
/// the odometer index, the operand base pointers.
struct Scratch {
  size_t tileBytes, regBytes, dimBytes, strideBytes, baseBytes;

  Scratch(const FusedProgram &p, size_t outRank) {
    size_t cap = std::max<size_t>(outRank, 1), ops = p.inputs.size() + 1;
    tileBytes = (p.regType.size() + p.maxConverted) * size_t(kTileBytes);
    regBytes = p.regType.size() * sizeof(const char *);
    dimBytes = cap * sizeof(int64_t);
    strideBytes = ops * dimBytes;
    baseBytes = ops * sizeof(char *);
  }
  /// With slack to align the start to a cache line.
  size_t total() const {
    return 64 + tileBytes + regBytes + 2 * dimBytes + strideBytes + baseBytes;
  }
};

} // namespace

size_t fusedProgramWorkspaceBytes(const FusedProgram &p, const KernelArgs &args) {
  size_t rank = args.outputs.empty() || !args.outputs[0] ? 0 : size_t(args.outputs[0]->ndim);
  return Scratch(p, rank).total();
}

llvm::Error runFusedProgram(const FusedProgram &p, const KernelArgs &args, llvm::StringRef symbol) {
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(int(p.inputs.size()), 1))
    return ctx.error();
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    if (!ctx.expectSameType(ctx.inType(i), p.inputs[i].type, "input " + llvm::Twine(i)))
      return ctx.error();
    if (ctx.in(i).ndim != p.inputs[i].ndim)
      return ctx.reject("input " + llvm::Twine(i) + " has rank " + llvm::Twine(ctx.in(i).ndim) +
                        ", expected " + llvm::Twine(p.inputs[i].ndim));
  }
  if (!ctx.expectSameType(ctx.outType(0), p.regType[p.output], "output 0"))
    return ctx.error();
  View out = ctx.outView(0);
  Scratch layout(p, out.shape.size());
  if (!ctx.needWorkspace(layout.total()))
    return ctx.error();
  char *ws = alignUp(static_cast<char *>(args.workspace.data), 64);
  auto carve = [&](size_t bytes) {
    char *part = ws;
    ws += bytes;
    return part;
  };
  char *tiles = carve(layout.tileBytes);
  auto **reg = reinterpret_cast<const char **>(carve(layout.regBytes));
  Space space{reinterpret_cast<int64_t *>(carve(layout.dimBytes)),
              reinterpret_cast<int64_t *>(carve(layout.strideBytes)),
              std::max<size_t>(out.shape.size(), 1)};
  auto *idx = reinterpret_cast<int64_t *>(carve(layout.dimBytes));
  auto **base = reinterpret_cast<char **>(carve(layout.baseBytes));

  // Operand k's strides along the output's dims (0 where it broadcasts).
  size_t nins = p.inputs.size(), nops = nins + 1;
  base[0] = out.data;
  for (size_t d = 0; d < out.shape.size(); ++d)
    space.stride(0, d) = out.strides[d];
  for (size_t i = 0; i < nins; ++i) {
    std::optional<View> v = ctx.broadcast(ctx.inView(i), out.shape, "input " + llvm::Twine(i));
    if (!v)
      return ctx.error();
    base[i + 1] = v->data;
    for (size_t d = 0; d < out.shape.size(); ++d)
      space.stride(i + 1, d) = v->strides[d];
  }
  if (out.numel() == 0)
    return llvm::Error::success();
  coalesce(out.shape, nops, space);

  auto tileOf = [&](size_t r) { return tiles + r * kTileBytes; };
  size_t nregs = p.regType.size();
  std::fill(reg, reg + nregs, nullptr);
  for (const auto &[r, tile] : p.constants)
    reg[r] = tile.data();
  int64_t outSize = out.elemSize();
  bool stream = out.numel() * outSize >= kStreamOutputBytes;

  size_t ndim = space.ndim;
  int64_t inner = space.shape[ndim - 1];
  std::fill(idx, idx + ndim, 0);
  while (true) {
    for (int64_t start = 0; start < inner; start += kFusedTileElems) {
      int64_t n = std::min(kFusedTileElems, inner - start);
      for (size_t i = 0; i < nins; ++i) {
        int64_t stride = space.stride(i + 1, ndim - 1);
        reg[i] =
            gather(base[i + 1] + start * stride, stride, elemBytes(p.inputs[i].type), n, tileOf(i));
      }
      int64_t outStride = space.stride(0, ndim - 1);
      char *outTile = base[0] + start * outStride;
      bool contiguous = outStride == outSize;
      bool direct = contiguous && !stream;
      for (size_t j = 0; j < p.instrs.size(); ++j) {
        const FusedProgram::Instr &ins = p.instrs[j];
        size_t r = p.firstOpReg + j;
        const char *operands[3];
        unsigned conv = 0;
        for (size_t o = 0; o < ins.operands.size(); ++o) {
          const FusedProgram::Operand &op = ins.operands[o];
          operands[o] = reg[op.reg];
          if (op.convert) {
            char *dst = tileOf(nregs + conv++);
            op.convert(dst, &operands[o], n);
            operands[o] = dst;
          }
        }
        char *dst = r == p.output && direct ? outTile : tileOf(r);
        ins.fn(dst, operands, n);
        reg[r] = dst;
      }
      if (contiguous && stream)
        streamTile(outTile, reg[p.output], size_t(n * outSize));
      else if (!direct)
        for (int64_t i = 0; i < n; ++i)
          std::memcpy(outTile + i * outStride, reg[p.output] + i * outSize, outSize);
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

} // namespace graft::kernels
