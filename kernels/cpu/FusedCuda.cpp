//===- kernels/cpu/FusedCuda.cpp - Fused kernel programs as CUDA C++ --------===//
//
// The generated source is the embedded device headers, then, for a program
// of elementwise ops, `body`: one statement per register in program order,
// the inputs as its parameters, the outputs written back; then the flat and
// the strided kernel, both calling body per element. A program with
// injective ops gets the index-map kernels instead (IndexEmitter): the
// CPU evaluator's index spaces as coordinates computed per output element.
// Plain C++: it runs on the host when the executable is loaded, and CI tests
// the text without a GPU.
//
//===----------------------------------------------------------------------===//

#include "kernels/FusedCuda.h"
#include "kernels/cpu/FusedProgram.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <map>

// kFusedCudaPrelude: kernels/cuda/FusedOps.cuh with the headers it
// includes, written by cmake/EmbedSource.cmake.
#include "FusedCudaPrelude.inc"

namespace graft::kernels {

using namespace cpu;

namespace {

/// The storage type of a dtype as the device headers name it.
const char *cudaType(ScalarType t) {
  switch (t) {
  case ScalarType::Bool:
    return "bool";
  case ScalarType::Int8:
    return "int8_t";
  case ScalarType::Int16:
    return "int16_t";
  case ScalarType::Int32:
    return "int32_t";
  case ScalarType::Int64:
    return "int64_t";
  case ScalarType::UInt8:
    return "uint8_t";
  case ScalarType::Float16:
    return "__half";
  case ScalarType::BFloat16:
    return "__nv_bfloat16";
  case ScalarType::Float32:
    return "float";
  case ScalarType::Float64:
    return "double";
  }
  return "void";
}

std::string reg(unsigned r) { return "r" + std::to_string(r); }

/// How a register's value is named where an op reads it.
using NameFn = llvm::function_ref<std::string(unsigned reg)>;

/// Register `o.reg` as the op reads it: converted when its dtype differs.
std::string operand(const FusedProgramView &p, const FusedRegView::Operand &o, NameFn name) {
  ScalarType from = p.regs[o.reg].type;
  if (from == o.type)
    return name(o.reg);
  return std::string("convert<") + cudaType(o.type) + ", " + cudaType(from) + ">(" + name(o.reg) +
         ")";
}

/// A double by its bits: exact, NaN and infinities included.
std::string doubleLiteral(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "__longlong_as_double(" << llvm::format_hex(bits, 18) << "LL)";
  return os.str();
}

/// An immediate's value, exactly, then castTo the register's dtype as the
/// CPU evaluator's parser does.
std::string constantValue(const FusedRegView &c) {
  std::string literal;
  if (c.isFloat) {
    literal = doubleLiteral(c.f);
  } else {
    uint64_t bits;
    std::memcpy(&bits, &c.i, sizeof bits);
    llvm::raw_string_ostream os(literal);
    os << "int64_t(" << llvm::format_hex(bits, 18) << "ULL)";
    os.flush();
  }
  return std::string("roundTo<") + cudaType(c.type) + ">(castTo<Compute<" + cudaType(c.type) +
         ">>(" + literal + "))";
}

/// The value of register `r`: the one switch over the kinds of
/// instruction. Injective ops (index maps) are not generated yet.
std::string regValue(const FusedProgramView &p, const FusedRegView &r, NameFn name = reg) {
  std::string args;
  for (size_t i = 0; i < r.operands.size(); ++i)
    args += (i ? ", " : "") + operand(p, r.operands[i], name);
  const char *out = cudaType(r.type);
  switch (r.kind) {
  case FusedRegView::Const:
    return constantValue(r);
  case FusedRegView::Row:
    // A row computes in the dtype it reads its operands as.
    return std::string("row<ops::") + r.rowName + ", " + cudaType(r.operands[0].type) + ", " + out +
           ">(" + args + ")";
  case FusedRegView::Astype:
    return std::string("convert<") + out + ", " + cudaType(p.regs[r.operands[0].reg].type) + ">(" +
           name(r.operands[0].reg) + ")";
  case FusedRegView::Where:
    return std::string("where<") + out + ">(" + args + ")";
  case FusedRegView::Clip:
    return std::string("clip<") + out + ">(" + args + ", " + doubleLiteral(r.min) + ", " +
           doubleLiteral(r.max) + ")";
  case FusedRegView::Injective: // The index-map kernel's, not a value of its own.
  case FusedRegView::Input:
    break;
  }
  return reg(0);
}

void writeBody(const FusedProgramView &p, llvm::raw_ostream &os) {
  os << "__device__ inline void body(";
  for (size_t j = 0; j < p.outputs.size(); ++j)
    os << (j ? ", " : "") << "Compute<" << cudaType(p.regs[p.outputs[j]].type) << "> &o" << j;
  for (unsigned i = 0; i < p.numInputs; ++i)
    os << ", Compute<" << cudaType(p.regs[i].type) << "> " << reg(i);
  os << ") {\n";
  for (size_t r = p.numInputs; r < p.regs.size(); ++r) {
    os << "  const Compute<" << cudaType(p.regs[r].type) << "> " << reg(unsigned(r)) << " = "
       << regValue(p, p.regs[r]) << ";\n";
  }
  for (size_t j = 0; j < p.outputs.size(); ++j)
    os << "  o" << j << " = " << reg(p.outputs[j]) << ";\n";
  os << "}\n";
}

void writeKernels(const FusedProgramView &p, int vectorWidth, llvm::raw_ostream &os) {
  size_t nout = p.outputs.size(), k = nout + p.numInputs;
  auto out = [&](size_t j) { return cudaType(p.regs[p.outputs[j]].type); };
  auto in = [&](size_t i) { return cudaType(p.regs[i].type); };
  auto data = [&](size_t i) { return "p.data[" + std::to_string(nout + i) + "]"; };
  // body(v0, ..., load(0), ...) after declaring the output values v<j>.
  auto call = [&](const char *indent, auto &&load) {
    std::string text;
    for (size_t j = 0; j < nout; ++j)
      text += std::string(indent) + "Compute<" + out(j) + "> v" + std::to_string(j) + ";\n";
    text += std::string(indent) + "body(";
    for (size_t j = 0; j < nout; ++j)
      text += (j ? ", v" : "v") + std::to_string(j);
    for (size_t i = 0; i < p.numInputs; ++i)
      text += ", " + load(i);
    return text + ");\n";
  };
  os << "constexpr int V = " << vectorWidth << ";\n"
     << "} // namespace\n\n";

  os << "extern \"C\" __global__ void __launch_bounds__(kThreads)\n"
     << kFusedFlatKernel << "(FusedParams<" << k << "> p) {\n"
     << "  const int64_t step = int64_t(gridDim.x) * blockDim.x;\n"
     << "  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;\n"
     << "  const int64_t nv = p.n / V;\n"
     << "  for (int64_t i = first; i < nv; i += step) {\n";
  for (size_t i = 0; i < p.numInputs; ++i)
    os << "    const Vec<" << in(i) << ", V> a" << i << " = reinterpret_cast<const Vec<" << in(i)
       << ", V> *>(" << data(i) << ")[i];\n";
  for (size_t j = 0; j < nout; ++j)
    os << "    Vec<" << out(j) << ", V> w" << j << ";\n";
  os << "#pragma unroll\n"
     << "    for (int k = 0; k < V; ++k) {\n"
     << call("      ", [](size_t i) { return "loadElem(&a" + std::to_string(i) + ".v[k])"; });
  for (size_t j = 0; j < nout; ++j)
    os << "      storeElem(&w" << j << ".v[k], v" << j << ");\n";
  os << "    }\n";
  for (size_t j = 0; j < nout; ++j)
    os << "    reinterpret_cast<Vec<" << out(j) << ", V> *>(p.data[" << j << "])[i] = w" << j
       << ";\n";
  os << "  }\n"
     << "  for (int64_t i = nv * V + first; i < p.n; i += step) {\n"
     << call("    ", [&](size_t i) {
          return std::string("loadElem(reinterpret_cast<const ") + in(i) + " *>(" + data(i) +
                 ") + i)";
        });
  for (size_t j = 0; j < nout; ++j)
    os << "    storeElem(reinterpret_cast<" << out(j) << " *>(p.data[" << j << "]) + i, v" << j
       << ");\n";
  os << "  }\n}\n\n";

  os << "extern \"C\" __global__ void __launch_bounds__(kThreads)\n"
     << kFusedStridedKernel << "(FusedParams<" << k << "> p) {\n"
     << "  const int64_t step = int64_t(gridDim.x) * blockDim.x;\n"
     << "  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += step) "
        "{\n"
     << "    int64_t off[" << k << "];\n"
     << "    offsets(p, i, off);\n"
     << call("    ", [&](size_t i) {
          return std::string("loadElem(reinterpret_cast<const ") + in(i) + " *>(" + data(i) +
                 " + off[" + std::to_string(nout + i) + "]))";
        });
  for (size_t j = 0; j < nout; ++j)
    os << "    storeElem(reinterpret_cast<" << out(j) << " *>(p.data[" << j << "] + off[" << j
       << "]), v" << j << ");\n";
  os << "  }\n}\n";
}

//===----------------------------------------------------------------------===//
// Index-map kernels: programs with injective ops
//===----------------------------------------------------------------------===//

using Map = FusedRegView::Map;

bool hasIndexMaps(const FusedProgramView &p) {
  for (const FusedRegView &r : p.regs)
    if (r.kind == FusedRegView::Injective)
      return true;
  return false;
}

bool isElementwise(const FusedRegView &r) {
  return r.kind == FusedRegView::Row || r.kind == FusedRegView::Astype ||
         r.kind == FusedRegView::Where || r.kind == FusedRegView::Clip;
}

/// Each register's dims as far as the program fixes them (-1: known at run
/// time only): reshape and broadcast_to targets, and what follows from them.
std::vector<llvm::SmallVector<int64_t, 4>> knownDims(const FusedProgramView &p) {
  std::vector<llvm::SmallVector<int64_t, 4>> known(p.regs.size());
  for (size_t id = 0; id < p.regs.size(); ++id) {
    const FusedRegView &r = p.regs[id];
    llvm::SmallVector<int64_t, 4> &k = known[id];
    k.assign(size_t(r.rank), -1);
    if (r.kind == FusedRegView::Input || r.kind == FusedRegView::Const)
      continue;
    if (isElementwise(r)) { // numpy broadcasting of the operands' dims.
      for (int64_t d = 0; d < r.rank; ++d) {
        int64_t extent = 1;
        bool unknown = false;
        for (const FusedRegView::Operand &o : r.operands) {
          int64_t lead = r.rank - p.regs[o.reg].rank;
          if (d < lead)
            continue;
          int64_t od = known[o.reg][size_t(d - lead)];
          if (od < 0)
            unknown = true;
          else if (od != 1)
            extent = od;
        }
        k[size_t(d)] = extent != 1 ? extent : unknown ? -1 : 1;
      }
      continue;
    }
    const llvm::SmallVector<int64_t, 4> &x = known[r.operands[0].reg];
    switch (r.map) {
    case Map::Permute:
      for (size_t i = 0; i < k.size(); ++i)
        k[i] = x[size_t(r.axes[i])];
      break;
    case Map::ExpandDims:
      for (int64_t d = 0, src = 0; d < r.rank; ++d)
        k[size_t(d)] = llvm::is_contained(r.axes, d) ? 1 : x[size_t(src++)];
      break;
    case Map::Squeeze:
      for (int64_t d = 0, o = 0; d < int64_t(x.size()); ++d)
        if (!llvm::is_contained(r.axes, d))
          k[size_t(o++)] = x[size_t(d)];
      break;
    case Map::Reshape:
    case Map::BroadcastTo: {
      int infer = -1;
      int64_t product = 1;
      bool all = true;
      for (size_t i = 0; i < k.size(); ++i) {
        const FusedRegView::Dim &d = r.dims[i];
        if (d.kind == FusedRegView::Dim::Infer)
          infer = int(i);
        else
          k[i] = d.kind == FusedRegView::Dim::Fixed ? d.value : known[d.reg][d.dim];
        if (int(i) != infer && k[i] >= 0 && !__builtin_mul_overflow(product, k[i], &product))
          continue;
        if (int(i) != infer)
          all = false;
      }
      if (infer >= 0 && all) {
        int64_t n = 1;
        for (int64_t d : x)
          if (d < 0 || __builtin_mul_overflow(n, d, &n))
            all = false;
        if (all && product > 0)
          k[size_t(infer)] = n / product;
      }
      break;
    }
    case Map::StridedSlice:
      k.assign(x.begin(), x.end());
      for (size_t i = 0; i < r.axes.size(); ++i) {
        size_t a = size_t(r.axes[i]);
        if (x[a] >= 0)
          k[a] = sliceAxis(x[a], r.begin[i], r.end[i], r.strides[i]).second;
      }
      break;
    case Map::Take: {
      const llvm::SmallVector<int64_t, 4> &ix = known[r.operands[1].reg];
      size_t axis = size_t(r.axes[0]), o = 0;
      for (size_t d = 0; d < axis; ++d)
        k[o++] = x[d];
      for (int64_t d : ix)
        k[o++] = d;
      for (size_t d = axis + 1; d < x.size(); ++d)
        k[o++] = x[d];
      break;
    }
    case Map::Concat: {
      size_t axis = size_t(r.axes[0]);
      k.assign(x.begin(), x.end());
      int64_t sum = 0;
      for (const FusedRegView::Operand &o : r.operands) {
        int64_t e = known[o.reg][axis];
        sum = e < 0 || sum < 0 ? -1 : sum + e;
      }
      k[axis] = sum;
      break;
    }
    case Map::None:
      break;
    }
  }
  return known;
}

/// Where an index-map kernel finds what the program does not fix: the
/// generator and planFusedLaunch build the same one from the program.
struct IndexLayout {
  std::vector<llvm::SmallVector<int64_t, 4>> known;
  /// Per register, per dim: its word, or -1 (fixed, or never read).
  std::vector<llvm::SmallVector<int, 4>> dimWord;
  /// Per operand (the outputs, then the inputs), per dim: its byte stride's
  /// word (0 for a dim of extent 1: a broadcast).
  std::vector<llvm::SmallVector<int, 4>> strideWord;
  /// Per strided_slice register, per axis: the start's word, or -1 when
  /// the program fixes it (startKnown).
  std::vector<llvm::SmallVector<int, 4>> startWord;
  std::vector<llvm::SmallVector<int64_t, 4>> startKnown;
  unsigned words = 0;
};

IndexLayout indexLayout(const FusedProgramView &p) {
  IndexLayout l;
  l.known = knownDims(p);
  size_t nregs = p.regs.size(), nouts = p.outputs.size();
  // The dims the index code reads: the output's, an injective op's and its
  // operands'.
  std::vector<char> read(nregs, 0);
  read[p.outputs[0]] = 1;
  for (const FusedRegView &r : p.regs) {
    if (r.kind != FusedRegView::Injective)
      continue;
    read[size_t(&r - p.regs.data())] = 1;
    for (const FusedRegView::Operand &o : r.operands)
      read[o.reg] = 1;
  }
  l.dimWord.resize(nregs);
  for (size_t id = 0; id < nregs; ++id)
    for (int64_t extent : l.known[id])
      l.dimWord[id].push_back(read[id] && extent < 0 ? int(l.words++) : -1);
  for (size_t k = 0; k < nouts + p.numInputs; ++k) {
    unsigned r = k < nouts ? p.outputs[k] : unsigned(k - nouts);
    l.strideWord.emplace_back();
    for (int64_t d = 0; d < p.regs[r].rank; ++d)
      l.strideWord.back().push_back(int(l.words++));
  }
  l.startWord.resize(nregs);
  l.startKnown.resize(nregs);
  for (size_t id = 0; id < nregs; ++id) {
    const FusedRegView &r = p.regs[id];
    if (r.map != Map::StridedSlice)
      continue;
    for (size_t i = 0; i < r.axes.size(); ++i) {
      int64_t extent = l.known[r.operands[0].reg][size_t(r.axes[i])];
      bool fixed = extent >= 0;
      l.startKnown[id].push_back(fixed ? sliceAxis(extent, r.begin[i], r.end[i], r.strides[i]).first
                                       : 0);
      l.startWord[id].push_back(fixed ? -1 : int(l.words++));
    }
  }
  return l;
}

/// An int64 literal, exact for every value (INT64_MIN has no literal).
std::string int64Literal(int64_t v) {
  if (v > -(int64_t(1) << 31) && v < (int64_t(1) << 31))
    return "int64_t(" + std::to_string(v) + ")";
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "int64_t(" << llvm::format_hex(bits, 18) << "ULL)";
  return os.str();
}

/// Writes one output element's code: each index space's coordinates (type
/// I) as the CPU evaluator maps them, each register's value in each space
/// it is read in, then the stores. Spaces and values are emitted from a
/// work list, as the evaluator plans them; a concat evaluates only the
/// operand its coordinate selects (the others' coordinates are out of
/// range), so each operand's values are emitted inside its branch.
class IndexEmitter {
public:
  IndexEmitter(const FusedProgramView &p, const IndexLayout &l, llvm::raw_ostream &os)
      : p(p), l(l), os(os) {}

  void emit();

private:
  struct Space {
    int64_t rank;
  };

  void line(const llvm::Twine &text) { os.indent(indent) << text << "\n"; }
  std::string word(int w) const { return "p.w[" + std::to_string(w) + "]"; }
  /// Dim j of register r in type I.
  std::string dim(unsigned r, int64_t j) const {
    int64_t k = l.known[r][size_t(j)];
    if (k >= 0)
      return "I(" + std::to_string(k) + ")";
    return "I(" + word(l.dimWord[r][size_t(j)]) + ")";
  }
  std::string coord(int sp, int64_t j) const {
    return "s" + std::to_string(sp) + "_" + std::to_string(j);
  }
  std::string value(unsigned r, int sp) const {
    return "v" + std::to_string(r) + "_" + std::to_string(sp);
  }
  int newSpace(int64_t rank) {
    spaces.push_back({rank});
    return int(spaces.size() - 1);
  }
  /// Byte offset of an operand's element at space sp's coordinates.
  std::string offset(size_t operandIdx, unsigned r, int sp) const {
    int64_t lead = spaces[size_t(sp)].rank - p.regs[r].rank;
    std::string off;
    for (int64_t j = 0; j < p.regs[r].rank; ++j)
      off += (off.empty() ? "" : " + ") + std::string("int64_t(") + coord(sp, j + lead) + ") * " +
             word(l.strideWord[operandIdx][size_t(j)]);
    return off.empty() ? "int64_t(0)" : off;
  }

  int rootSpace();
  int resultSpace(int parent, unsigned g);
  int operandSpace(int result, unsigned g, unsigned k, const std::string &index = "");
  void load(unsigned r, int sp);

  const FusedProgramView &p;
  const IndexLayout &l;
  llvm::raw_ostream &os;
  unsigned indent = 4;
  std::vector<Space> spaces;
  std::map<std::pair<unsigned, int>, std::string> values;
};

int IndexEmitter::rootSpace() {
  unsigned out = p.outputs[0];
  int64_t rank = p.regs[out].rank;
  int sp = newSpace(rank);
  if (rank == 0)
    return sp;
  line("I rest = I(i);");
  for (int64_t j = rank - 1; j > 0; --j) {
    if (l.known[out][size_t(j)] == 1) {
      line("const I " + coord(sp, j) + " = 0;");
      continue;
    }
    line("const I " + coord(sp, j) + " = rest % " + dim(out, j) + ";");
    line("rest /= " + dim(out, j) + ";");
  }
  line("const I " + coord(sp, 0) + " = rest;");
  return sp;
}

/// Register g's result read in space `parent`: broadcast into it.
int IndexEmitter::resultSpace(int parent, unsigned g) {
  const FusedRegView &r = p.regs[g];
  int sp = newSpace(r.rank);
  int64_t lead = spaces[size_t(parent)].rank - r.rank;
  for (int64_t j = 0; j < r.rank; ++j) {
    int64_t k = l.known[g][size_t(j)];
    std::string from = coord(parent, j + lead);
    line("const I " + coord(sp, j) + " = " +
         (k == 1  ? std::string("0")
          : k > 1 ? from
                  : "(" + dim(g, j) + " == 1 ? I(0) : " + from + ")") +
         ";");
  }
  return sp;
}

/// Operand k of injective register g, read where g's result space
/// `result` is: the op's index map. take's data needs `index`, the index
/// value.
int IndexEmitter::operandSpace(int result, unsigned g, unsigned k, const std::string &index) {
  const FusedRegView &r = p.regs[g];
  unsigned x = r.operands[k].reg;
  int64_t xr = p.regs[x].rank;
  int sp = newSpace(xr);
  std::vector<std::string> c(size_t(xr), "I(0)");
  auto from = [&](int64_t j) { return coord(result, j); };
  switch (r.map) {
  case Map::Permute:
    for (int64_t i = 0; i < r.rank; ++i)
      c[size_t(r.axes[size_t(i)])] = from(i);
    break;
  case Map::ExpandDims:
    for (int64_t d = 0, src = 0; d < r.rank; ++d)
      if (!llvm::is_contained(r.axes, d))
        c[size_t(src++)] = from(d);
    break;
  case Map::Squeeze:
    for (int64_t d = 0, o = 0; d < xr; ++d)
      if (!llvm::is_contained(r.axes, d))
        c[size_t(d)] = from(o++);
    break;
  case Map::BroadcastTo:
    for (int64_t d = 0, lead = r.rank - xr; d < xr; ++d) {
      int64_t e = l.known[x][size_t(d)];
      c[size_t(d)] = e == 1  ? "I(0)"
                     : e > 1 ? from(d + lead)
                             : "(" + dim(x, d) + " == 1 ? I(0) : " + from(d + lead) + ")";
    }
    break;
  case Map::StridedSlice:
    for (int64_t d = 0; d < xr; ++d)
      c[size_t(d)] = from(d);
    for (size_t i = 0; i < r.axes.size(); ++i) {
      int64_t a = r.axes[i];
      int w = l.startWord[g][i];
      std::string start = w < 0 ? int64Literal(l.startKnown[g][i]) : word(w);
      // A one-element slice has coordinate 0 there: its step (up to 2^62)
      // multiplies nothing.
      c[size_t(a)] =
          "I(" + start + " + " + int64Literal(r.strides[i]) + " * int64_t(" + from(a) + "))";
    }
    break;
  case Map::Reshape: {
    // The row-major linear index of the result, then its coordinates in
    // the operand's shape.
    std::string lin = "lin" + std::to_string(sp);
    line("I " + lin + " = " + (r.rank ? from(0) : std::string("I(0)")) + ";");
    for (int64_t j = 1; j < r.rank; ++j)
      line(lin + " = " + lin + " * " + dim(g, j) + " + " + from(j) + ";");
    for (int64_t q = xr - 1; q >= 0; --q) {
      int64_t e = l.known[x][size_t(q)];
      std::string name = coord(sp, q) + "r";
      if (e >= 0 && e <= 1)
        continue;
      if (e > 1) {
        line("const I " + name + " = " + lin + " % " + dim(x, q) + ";");
        if (q)
          line(lin + " /= " + dim(x, q) + ";");
      } else {
        line("const I " + name + " = " + dim(x, q) + " > 1 ? " + lin + " % " + dim(x, q) +
             " : I(0);");
        if (q)
          line(lin + " = " + dim(x, q) + " > 1 ? " + lin + " / " + dim(x, q) + " : " + lin + ";");
      }
      c[size_t(q)] = name;
    }
    break;
  }
  case Map::Take: {
    int64_t axis = r.axes[0], idxRank = p.regs[r.operands[1].reg].rank;
    if (k == 1) { // The index values' space.
      for (int64_t j = 0; j < idxRank; ++j)
        c[size_t(j)] = from(axis + j);
      break;
    }
    std::string t = "t" + std::to_string(sp);
    line("int64_t " + t + " = int64_t(" + index + ");");
    line("{");
    indent += 2;
    line("const int64_t len = int64_t(" + dim(x, axis) + ");");
    bool fast = r.mode == FusedRegView::TakeMode::Fast;
    line(std::string("if (len == 0") + (fast ? " || " + t + " < -len || " + t + " >= len" : "") +
         ") {");
    line("  badIndex(p.bad, p.report, i, " + std::to_string(g) + "u, " + t + ");");
    line("  " + t + " = 0;");
    if (fast)
      line("} else if (" + t + " < 0) {\n" + std::string(indent + 2, ' ') + t + " += len;");
    else if (r.mode == FusedRegView::TakeMode::Wrap)
      line("} else {\n" + std::string(indent + 2, ' ') + t + " = ((" + t + " % len) + len) % len;");
    else
      line("} else {\n" + std::string(indent + 2, ' ') + t + " = " + t + " < 0 ? 0 : (" + t +
           " > len - 1 ? len - 1 : " + t + ");");
    line("}");
    indent -= 2;
    line("}");
    for (int64_t d = 0; d < axis; ++d)
      c[size_t(d)] = from(d);
    c[size_t(axis)] = "I(" + t + ")";
    for (int64_t d = axis + 1; d < xr; ++d)
      c[size_t(d)] = from(d - 1 + idxRank);
    break;
  }
  case Map::Concat: {
    int64_t axis = r.axes[0];
    for (int64_t d = 0; d < xr; ++d)
      c[size_t(d)] = from(d);
    std::string off;
    for (unsigned m = 0; m < k; ++m)
      off += " - " + dim(r.operands[m].reg, axis);
    c[size_t(axis)] = from(axis) + off;
    break;
  }
  case Map::None:
    break;
  }
  for (int64_t d = 0; d < xr; ++d)
    line("const I " + coord(sp, d) + " = " + c[size_t(d)] + ";");
  return sp;
}

void IndexEmitter::load(unsigned r, int sp) {
  size_t k = p.outputs.size() + r;
  const char *t = cudaType(p.regs[r].type);
  // Outside the output's own space a clamped coordinate of a failed index
  // may read an empty input.
  line(std::string("const Compute<") + t + "> " + value(r, sp) + " = " +
       (sp == 0 ? "loadAt<" : "loadOrZero<") + t + ">(p.data[" + std::to_string(k) + "], " +
       offset(k, r, sp) + ");");
}

void IndexEmitter::emit() {
  for (size_t r = p.numInputs; r < p.regs.size(); ++r)
    if (p.regs[r].kind == FusedRegView::Const)
      line(std::string("const Compute<") + cudaType(p.regs[r].type) + "> " + reg(unsigned(r)) +
           " = " + constantValue(p.regs[r]) + ";");
  int root = rootSpace();
  struct Item {
    unsigned reg;
    int sp;
    unsigned stage;
    int result = -1, branch = -1; ///< Injective: its result space; concat: the branch's space.
  };
  std::vector<Item> work;
  for (size_t j = p.outputs.size(); j-- > 0;)
    work.push_back({p.outputs[j], root, 0});
  while (!work.empty()) {
    Item it = work.back();
    const FusedRegView &r = p.regs[it.reg];
    auto key = std::make_pair(it.reg, it.sp);
    if (it.stage == 0 && values.count(key)) {
      work.pop_back();
      continue;
    }
    auto finish = [&](std::string name) {
      work.pop_back();
      values[key] = std::move(name);
    };
    auto push = [&](unsigned reg, int sp) { work.push_back({reg, sp, 0}); };
    if (r.kind == FusedRegView::Input) {
      load(it.reg, it.sp);
      finish(value(it.reg, it.sp));
      continue;
    }
    if (r.kind == FusedRegView::Const) {
      finish(reg(it.reg));
      continue;
    }
    if (isElementwise(r)) {
      if (it.stage == 0) {
        work.back().stage = 1;
        for (size_t o = r.operands.size(); o-- > 0;)
          push(r.operands[o].reg, it.sp);
        continue;
      }
      std::string v = regValue(p, r, [&](unsigned o) { return values[{o, it.sp}]; });
      line(std::string("const Compute<") + cudaType(r.type) + "> " + value(it.reg, it.sp) + " = " +
           v + ";");
      finish(value(it.reg, it.sp));
      continue;
    }
    if (it.stage == 0)
      work.back().result = it.result = resultSpace(it.sp, it.reg);
    if (r.map == Map::Concat) {
      size_t branches = r.operands.size();
      int64_t axis = r.axes[0];
      std::string v = value(it.reg, it.sp), c = coord(it.result, axis);
      if (it.stage == 0) {
        line(std::string("Compute<") + cudaType(r.type) + "> " + v + ";");
      } else {
        line(v + " = " + values[{r.operands[it.stage - 1].reg, it.branch}] + ";");
        indent -= 2;
      }
      if (it.stage == branches) {
        line("}");
        finish(v);
        continue;
      }
      // Branch `stage` covers coordinates below the sum of the extents so far.
      std::string end;
      for (unsigned m = 0; m <= it.stage; ++m)
        end += (m ? " + " : "") + dim(r.operands[m].reg, axis);
      std::string open = it.stage + 1 == branches ? "{" : "if (" + c + " < " + end + ") {";
      line(it.stage ? "} else " + open : open);
      indent += 2;
      int b = operandSpace(it.result, it.reg, it.stage);
      work.back().branch = b;
      ++work.back().stage;
      push(r.operands[it.stage].reg, b);
      continue;
    }
    if (r.map == Map::Take) {
      if (it.stage == 0) {
        work.back().stage = 1;
        work.back().branch = operandSpace(it.result, it.reg, 1);
        push(r.operands[1].reg, work.back().branch);
        continue;
      }
      if (it.stage == 1) {
        std::string index = values[{r.operands[1].reg, it.branch}];
        work.back().stage = 2;
        work.back().branch = operandSpace(it.result, it.reg, 0, index);
        push(r.operands[0].reg, work.back().branch);
        continue;
      }
      finish(values[{r.operands[0].reg, it.branch}]);
      continue;
    }
    if (it.stage == 0) {
      work.back().stage = 1;
      work.back().branch = operandSpace(it.result, it.reg, 0);
      push(r.operands[0].reg, work.back().branch);
      continue;
    }
    finish(values[{r.operands[0].reg, it.branch}]);
  }
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    const char *t = cudaType(p.regs[p.outputs[j]].type);
    line(std::string("storeElem(reinterpret_cast<") + t + " *>(p.data[" + std::to_string(j) +
         "] + " + offset(j, p.outputs[j], root) + "), " + values[{p.outputs[j], root}] + ");");
  }
}

size_t indexParamWords(const FusedProgramView &p, const IndexLayout &l) {
  return 3 + p.outputs.size() + p.numInputs + std::max<size_t>(l.words, 1);
}

llvm::Expected<std::string> indexKernels(const FusedProgramView &p) {
  IndexLayout l = indexLayout(p);
  size_t k = p.outputs.size() + p.numInputs;
  if (indexParamWords(p, l) * 8 > kFusedMaxParamBytes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the fused kernel's parameters take %zu bytes; a CUDA kernel "
                                   "takes at most %zu",
                                   indexParamWords(p, l) * 8, kFusedMaxParamBytes);
  std::string body;
  llvm::raw_string_ostream bos(body);
  IndexEmitter(p, l, bos).emit();
  bos.flush();
  std::string params = "IndexParams<" + std::to_string(k) + ", " +
                       std::to_string(std::max<unsigned>(l.words, 1)) + ">";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "} // namespace\n";
  for (const char *kernel : {kFusedIndex32Kernel, kFusedIndex64Kernel}) {
    bool narrow = kernel == kFusedIndex32Kernel;
    os << "\nextern \"C\" __global__ void __launch_bounds__(kThreads)\n"
       << kernel << "(" << params << " p) {\n"
       << "  using I = " << (narrow ? "int32_t" : "int64_t") << ";\n"
       << "  const int64_t step = int64_t(gridDim.x) * blockDim.x;\n"
       << "  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += step) "
          "{\n"
       << body << "  }\n}\n";
  }
  os.flush();
  return text;
}

} // namespace

int fusedVectorWidth(const FusedProgram &program) {
  FusedProgramView p = viewFusedProgram(program);
  int64_t widest = 1;
  for (unsigned o : p.outputs)
    widest = std::max(widest, elemBytes(p.regs[o].type));
  for (unsigned i = 0; i < p.numInputs; ++i)
    widest = std::max(widest, elemBytes(p.regs[i].type));
  return int(16 / widest);
}

llvm::Expected<std::string> fusedProgramCudaSource(const FusedProgram &program) {
  FusedProgramView p = viewFusedProgram(program);
  std::string text = kFusedCudaPrelude;
  llvm::raw_string_ostream os(text);
  os << "\n// ---- the fused program\n"
     << "namespace {\n"
     << "using namespace graft::cuda;\n"
     << "using namespace graft::cuda::fused;\n\n";
  if (hasIndexMaps(p)) {
    llvm::Expected<std::string> kernels = indexKernels(p);
    if (!kernels)
      return kernels.takeError();
    os << *kernels;
  } else {
    writeBody(p, os);
    writeKernels(p, fusedVectorWidth(program), os);
  }
  os.flush();
  return text;
}

std::vector<const char *> fusedKernelEntries(const FusedProgram &program) {
  if (hasIndexMaps(viewFusedProgram(program)))
    return {kFusedIndex32Kernel, kFusedIndex64Kernel};
  return {kFusedFlatKernel, kFusedStridedKernel};
}

namespace {

llvm::Error planError(llvm::StringRef symbol, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), symbol + ": " + msg);
}

/// The checks runFusedProgram's Ctx makes, for tensors on a CUDA device.
llvm::Error checkTensor(llvm::StringRef symbol, const DLTensor *t, const llvm::Twine &what,
                        ScalarType want, int64_t ndim, int deviceId) {
  if (!t)
    return planError(symbol, what + " is null");
  if (t->device.device_type != kDLCUDA || t->device.device_id != deviceId)
    return planError(symbol, what + " is not on cuda:" + llvm::Twine(deviceId));
  std::optional<ScalarType> type = scalarTypeOf(t->dtype);
  if (!type || *type != want)
    return planError(symbol, what + " has dtype " + dtypeName(t->dtype) + ", expected " +
                                 dtypeName(dlTypeOf(want)));
  if (ndim >= 0 && t->ndim != ndim)
    return planError(symbol, what + " has rank " + llvm::Twine(t->ndim) + ", expected " +
                                 llvm::Twine(ndim));
  for (int d = 0; d < t->ndim; ++d)
    if (t->shape[d] < 0)
      return planError(symbol, what + " has a negative dim " + shapeStr(shapeOf(*t)));
  return llvm::Error::success();
}

bool compact(const View &v) { return v.strides == contiguousStrides(v.shape, v.elemSize()); }

/// The grid of a grid-stride loop over `items`: one per thread, the block
/// count capped.
unsigned gridFor(int64_t items) {
  int64_t blocks = (items + kFusedThreads - 1) / kFusedThreads;
  return unsigned(std::clamp<int64_t>(blocks, 1, int64_t(65535) * 32));
}

/// An index-map kernel's launch: the shapes the CPU evaluator computes
/// (with its errors), then IndexParams<K, M>: n, the check's slot and
/// report words (the caller's), the operands' data, the layout's words.
llvm::Expected<FusedLaunch> planIndexLaunch(const FusedProgram &program, const FusedProgramView &p,
                                            const KernelArgs &args, llvm::StringRef symbol) {
  llvm::Expected<std::vector<Dims>> shapes = fusedProgramShapes(program, args, symbol);
  if (!shapes)
    return shapes.takeError();
  IndexLayout l = indexLayout(p);
  size_t nouts = p.outputs.size(), k = nouts + p.numInputs;
  FusedLaunch launch;
  launch.kernel = kFusedIndex64Kernel;
  launch.entry = 1;
  int64_t n = numelOf((*shapes)[p.outputs[0]]);
  if (n == 0)
    return launch;
  std::vector<int64_t> &w = launch.params;
  w.assign(indexParamWords(p, l), 0);
  w[0] = n;
  int64_t *data = &w[3], *words = data + k;
  // int32 coordinates when every register's element count (each dim at
  // least 1: coordinates of broadcast dims) stays below 2^31.
  bool narrow = true;
  for (size_t r = 0; r < p.regs.size(); ++r) {
    int64_t span = 1;
    for (int64_t d : (*shapes)[r])
      if (__builtin_mul_overflow(span, std::max<int64_t>(d, 1), &span) || span > INT32_MAX)
        narrow = false;
    for (size_t j = 0; j < l.dimWord[r].size(); ++j)
      if (l.dimWord[r][j] >= 0)
        words[l.dimWord[r][j]] = (*shapes)[r][j];
    const FusedRegView &g = p.regs[r];
    if (g.map == Map::StridedSlice)
      for (size_t i = 0; i < g.axes.size(); ++i)
        if (l.startWord[r][i] >= 0)
          words[l.startWord[r][i]] = sliceAxis((*shapes)[g.operands[0].reg][size_t(g.axes[i])],
                                               g.begin[i], g.end[i], g.strides[i])
                                         .first;
    if (g.map == Map::Take && (g.mode == FusedRegView::TakeMode::Fast ||
                               (*shapes)[g.operands[0].reg][size_t(g.axes[0])] == 0))
      launch.checksIndices = true;
  }
  for (size_t op = 0; op < k; ++op) {
    View v = Ctx::viewOf(op < nouts ? *args.outputs[op] : *args.inputs[op - nouts]);
    // An empty input is null: only a failed index's clamped coordinate
    // reads it (loadOrZero).
    data[op] = v.numel() == 0 ? 0 : int64_t(reinterpret_cast<uintptr_t>(v.data));
    for (size_t d = 0; d < v.shape.size(); ++d)
      words[l.strideWord[op][d]] = v.shape[d] == 1 ? 0 : v.strides[d];
  }
  if (narrow) {
    launch.kernel = kFusedIndex32Kernel;
    launch.entry = 0;
  }
  launch.grid = gridFor(n);
  return launch;
}

} // namespace

llvm::Expected<FusedLaunch> planFusedLaunch(const FusedProgram &program, const KernelArgs &args,
                                            llvm::StringRef symbol) {
  FusedProgramView p = viewFusedProgram(program);
  size_t nins = p.numInputs, nouts = p.outputs.size(), nops = nins + nouts;
  if (args.inputs.size() != nins || args.outputs.size() != nouts)
    return planError(symbol, "expects " + llvm::Twine(nins) + " inputs and " + llvm::Twine(nouts) +
                                 " outputs, got " + llvm::Twine(args.inputs.size()) + " and " +
                                 llvm::Twine(args.outputs.size()));
  int device = args.outputs[0] ? args.outputs[0]->device.device_id : 0;
  for (size_t j = 0; j < nouts; ++j)
    if (llvm::Error err = checkTensor(symbol, args.outputs[j], "output " + llvm::Twine(j),
                                      p.regs[p.outputs[j]].type, -1, device))
      return err;
  for (size_t i = 0; i < nins; ++i)
    if (llvm::Error err = checkTensor(symbol, args.inputs[i], "input " + llvm::Twine(i),
                                      p.regs[i].type, p.regs[i].rank, device))
      return err;
  if (hasIndexMaps(p))
    return planIndexLaunch(program, p, args, symbol);
  if (nops > kFusedMaxOperands)
    return planError(symbol, "has " + llvm::Twine(nops) + " operands; a CUDA fused kernel takes " +
                                 "at most " + llvm::Twine(kFusedMaxOperands));

  // Operands in parameter order: the outputs, then the inputs broadcast to
  // the outputs' shape.
  Ctx ctx(args, symbol);
  std::vector<View> ops;
  View out0 = Ctx::viewOf(*args.outputs[0]);
  for (size_t j = 0; j < nouts; ++j) {
    ops.push_back(Ctx::viewOf(*args.outputs[j]));
    if (ops.back().shape != out0.shape)
      return planError(symbol, "output " + llvm::Twine(j) + " has shape " +
                                   shapeStr(ops.back().shape) + ", output 0 " +
                                   shapeStr(out0.shape));
  }
  for (size_t i = 0; i < nins; ++i) {
    std::optional<View> v = ctx.broadcast(ctx.inView(i), out0.shape, "input " + llvm::Twine(i));
    if (!v)
      return ctx.error();
    ops.push_back(std::move(*v));
  }
  FusedLaunch launch;
  int64_t n = out0.numel();
  if (n == 0)
    return launch;

  // Flat: every operand compact, unbroadcast and aligned to its vector.
  int v = fusedVectorWidth(program);
  bool flat = true;
  for (size_t k = 0; flat && k < nops; ++k) {
    const View &x = ops[k];
    flat = (k < nouts || Ctx::viewOf(*args.inputs[k - nouts]).shape == out0.shape) && compact(x) &&
           reinterpret_cast<uintptr_t>(x.data) % uintptr_t(x.elemSize() * v) == 0;
  }

  // FusedParams<K>: n, ndim, shape[8], data[K], stride[K][8].
  std::vector<int64_t> &w = launch.params;
  w.assign(2 + kFusedMaxDims + nops + nops * kFusedMaxDims, 0);
  int64_t *shape = &w[2], *data = &w[2 + kFusedMaxDims], *strides = data + nops;
  w[0] = n;
  for (size_t k = 0; k < nops; ++k)
    data[k] = int64_t(reinterpret_cast<uintptr_t>(ops[k].data));
  if (flat) {
    launch.kernel = kFusedFlatKernel;
    launch.entry = 0;
    w[1] = 1;
    shape[0] = n;
  } else {
    // Dims of extent 1 dropped; a dim merged into the one before it where
    // every operand is contiguous across the two.
    size_t ndim = 0;
    for (size_t d = 0; d < out0.shape.size(); ++d) {
      int64_t extent = out0.shape[d];
      if (extent == 1)
        continue;
      bool merge = ndim > 0;
      for (size_t k = 0; merge && k < nops; ++k)
        merge = strides[k * kFusedMaxDims + ndim - 1] == ops[k].strides[d] * extent;
      if (merge) {
        shape[ndim - 1] *= extent;
        for (size_t k = 0; k < nops; ++k)
          strides[k * kFusedMaxDims + ndim - 1] = ops[k].strides[d];
        continue;
      }
      if (ndim == kFusedMaxDims)
        return planError(symbol, "the output " + shapeStr(out0.shape) + " has more than " +
                                     llvm::Twine(kFusedMaxDims) +
                                     " dims that strides cannot merge");
      shape[ndim] = extent;
      for (size_t k = 0; k < nops; ++k)
        strides[k * kFusedMaxDims + ndim] = ops[k].strides[d];
      ++ndim;
    }
    if (ndim == 0) { // A single element.
      shape[0] = 1;
      ndim = 1;
    }
    w[1] = int64_t(ndim);
  }
  launch.grid = gridFor(flat ? n / v + 1 : n);
  return launch;
}

std::string fusedIndexError(const FusedProgram &program, const KernelArgs &args,
                            llvm::StringRef symbol, uint64_t key, int64_t value) {
  FusedProgramView p = viewFusedProgram(program);
  unsigned r = unsigned((key >> 10) & ((1u << 20) - 1));
  std::string where = symbol.str() + ": %" + std::to_string(r) + " (take): index " +
                      std::to_string(value) + " is out of range";
  llvm::Expected<std::vector<Dims>> shapes = fusedProgramShapes(program, args, symbol);
  if (!shapes || r >= p.regs.size() || p.regs[r].map != Map::Take) {
    if (!shapes)
      llvm::consumeError(shapes.takeError());
    return where;
  }
  const FusedRegView &g = p.regs[r];
  return where + " for a dim of " + std::to_string((*shapes)[g.operands[0].reg][size_t(g.axes[0])]);
}

} // namespace graft::kernels
