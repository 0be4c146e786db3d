//===- kernels/cpu/FusedCuda.cpp - Fused kernel programs as CUDA C++ --------===//
//
// The generated source is the embedded device headers, then `body`: one
// statement per register in program order, the inputs as its parameters,
// the output register returned; then the flat and the strided kernel, both
// calling body per element. Plain C++: it runs on the host when the
// executable is loaded, and CI tests the text without a GPU.
//
//===----------------------------------------------------------------------===//

#include "kernels/FusedCuda.h"
#include "kernels/cpu/FusedProgram.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

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

/// Register `o.reg` as the op reads it: converted when its dtype differs.
std::string operand(const FusedProgramView &p, const FusedRegView::Operand &o) {
  ScalarType from = p.regs[o.reg].type;
  if (from == o.type)
    return reg(o.reg);
  return std::string("convert<") + cudaType(o.type) + ", " + cudaType(from) + ">(" + reg(o.reg) +
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
llvm::Expected<std::string> regValue(const FusedProgramView &p, const FusedRegView &r) {
  std::string args;
  for (size_t i = 0; i < r.operands.size(); ++i)
    args += (i ? ", " : "") + operand(p, r.operands[i]);
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
           reg(r.operands[0].reg) + ")";
  case FusedRegView::Where:
    return std::string("where<") + out + ">(" + args + ")";
  case FusedRegView::Clip:
    return std::string("clip<") + out + ">(" + args + ", " + doubleLiteral(r.min) + ", " +
           doubleLiteral(r.max) + ")";
  case FusedRegView::Injective:
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the CUDA code generator does not take '%s' yet "
                                   "(docs/cuda.md, \"Fused kernels\")",
                                   r.op);
  case FusedRegView::Input:
    break;
  }
  return reg(0);
}

llvm::Error writeBody(const FusedProgramView &p, llvm::raw_ostream &os) {
  os << "__device__ inline void body(";
  for (size_t j = 0; j < p.outputs.size(); ++j)
    os << (j ? ", " : "") << "Compute<" << cudaType(p.regs[p.outputs[j]].type) << "> &o" << j;
  for (unsigned i = 0; i < p.numInputs; ++i)
    os << ", Compute<" << cudaType(p.regs[i].type) << "> " << reg(i);
  os << ") {\n";
  for (size_t r = p.numInputs; r < p.regs.size(); ++r) {
    llvm::Expected<std::string> value = regValue(p, p.regs[r]);
    if (!value)
      return value.takeError();
    os << "  const Compute<" << cudaType(p.regs[r].type) << "> " << reg(unsigned(r)) << " = "
       << *value << ";\n";
  }
  for (size_t j = 0; j < p.outputs.size(); ++j)
    os << "  o" << j << " = " << reg(p.outputs[j]) << ";\n";
  os << "}\n";
  return llvm::Error::success();
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
  if (llvm::Error err = writeBody(p, os))
    return err;
  writeKernels(p, fusedVectorWidth(program), os);
  os.flush();
  return text;
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

} // namespace

llvm::Expected<FusedLaunch> planFusedLaunch(const FusedProgram &program, const KernelArgs &args,
                                            llvm::StringRef symbol) {
  FusedProgramView p = viewFusedProgram(program);
  size_t nins = p.numInputs, nouts = p.outputs.size(), nops = nins + nouts;
  if (args.inputs.size() != nins || args.outputs.size() != nouts)
    return planError(symbol, "expects " + llvm::Twine(nins) + " inputs and " + llvm::Twine(nouts) +
                                 " outputs, got " + llvm::Twine(args.inputs.size()) + " and " +
                                 llvm::Twine(args.outputs.size()));
  if (nops > kFusedMaxOperands)
    return planError(symbol, "has " + llvm::Twine(nops) + " operands; a CUDA fused kernel takes " +
                                 "at most " + llvm::Twine(kFusedMaxOperands));
  int device = args.outputs[0] ? args.outputs[0]->device.device_id : 0;
  for (size_t j = 0; j < nouts; ++j)
    if (llvm::Error err = checkTensor(symbol, args.outputs[j], "output " + llvm::Twine(j),
                                      p.regs[p.outputs[j]].type, -1, device))
      return err;
  for (size_t i = 0; i < nins; ++i)
    if (llvm::Error err = checkTensor(symbol, args.inputs[i], "input " + llvm::Twine(i),
                                      p.regs[i].type, p.regs[i].rank, device))
      return err;

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
  // A grid-stride loop: one item per thread, the block count capped.
  int64_t items = flat ? n / v + 1 : n;
  int64_t blocks = (items + kFusedThreads - 1) / kFusedThreads;
  launch.grid = unsigned(std::clamp<int64_t>(blocks, 1, int64_t(65535) * 32));
  return launch;
}

} // namespace graft::kernels
