//===- tools/graft/RunInputs.cpp - graft run inputs -----------------------===//
//
// Inputs by parameter name from .npy files (a tensor, a 0-d array for an
// R.Prim, a 1-d int64 array for an R.Shape) and, with --random, seeded
// random values for the rest: uniform floats in [-1, 1), small non-negative
// ints, random bools, symbolic dims sized by --dim.
//
//===----------------------------------------------------------------------===//

#include "RunSupport.h"

#include "kernels/cpu/TensorIter.h"
#include "vm/Npy.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace graft;
using namespace graft::driver;
using vm::ParamInfo;
using vm::ParamKind;
using vm::Value;

namespace {

template <typename... Ts> llvm::Error inputError(const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

/// splitmix64: the same stream on every platform for a given seed.
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0; }
  int64_t smallInt() { return static_cast<int64_t>(next() % 8); }
  bool boolean() { return next() & 1; }

private:
  uint64_t state_;
};

/// NAME=VALUE arguments of one option, in a map; duplicates are an error.
llvm::Expected<llvm::StringMap<std::string>>
parsePairs(llvm::ArrayRef<std::string> items, llvm::StringRef option, llvm::StringRef valueName) {
  llvm::StringMap<std::string> out;
  for (llvm::StringRef item : items) {
    auto [name, value] = item.split('=');
    if (!item.contains('=') || name.empty() || value.empty())
      return inputError("--{0} expects NAME={1}, got '{2}'", option, valueName, item);
    if (!out.try_emplace(name, value.str()).second)
      return inputError("--{0} gives '{1}' twice", option, name);
  }
  return out;
}

bool isFloatType(DLDataType dt) { return dt.code == kDLFloat || dt.code == kDLBfloat; }
bool isBool(DLDataType dt) { return dt.code == kernels::kGraftDLBool; }

llvm::Expected<Value> tensorFromNpy(vm::NpyArray &array) {
  auto t = vm::TensorObj::emptyHost(array.shape, array.dtype);
  if (!t)
    return t.takeError();
  if (!array.data.empty())
    std::memcpy((*t)->bytes(), array.data.data(), (*t)->byteSize());
  return Value::object(*t);
}

/// The element at `p` as a Bool, Int or Float value.
Value scalarValue(DLDataType dt, const uint8_t *p) {
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (isBool(dt))
    return Value::boolean(*p != 0);
  if (dt.code == kDLBfloat)
    return Value::real(kernels::cpu::bf16ToFloat(load(uint16_t())));
  if (dt.code == kDLFloat)
    return Value::real(dt.bits == 16   ? kernels::cpu::halfToFloat(load(uint16_t()))
                       : dt.bits == 32 ? load(float())
                                       : load(double()));
  bool s = dt.code == kDLInt;
  switch (dt.bits) {
  case 8:
    return Value::integer(s ? int64_t(load(int8_t())) : int64_t(load(uint8_t())));
  case 16:
    return Value::integer(s ? int64_t(load(int16_t())) : int64_t(load(uint16_t())));
  case 32:
    return Value::integer(s ? int64_t(load(int32_t())) : int64_t(load(uint32_t())));
  default:
    return Value::integer(load(int64_t()));
  }
}

/// An R.Prim or R.Shape parameter from its .npy array.
llvm::Expected<Value> scalarFromNpy(const ParamInfo &p, const vm::NpyArray &a,
                                    llvm::StringRef path) {
  std::string what =
      vm::dtypeStr(a.dtype) + " array of shape [" +
      llvm::join(llvm::map_range(a.shape, [](int64_t d) { return std::to_string(d); }), ", ") + "]";
  if (p.kind == ParamKind::Shape) {
    if (a.shape.size() != 1 || !vm::dtypeEqual(a.dtype, DLDataType{kDLInt, 64, 1}))
      return inputError("parameter '{0}' (a shape) takes a 1-d int64 .npy, but {1} holds a {2}",
                        p.name, path, what);
    llvm::SmallVector<int64_t, 4> dims(a.shape[0]);
    if (!dims.empty())
      std::memcpy(dims.data(), a.data.data(), dims.size() * 8);
    return Value::shape(dims);
  }
  bool fits = a.shape.empty() &&
              ((p.kind == ParamKind::Bool && isBool(a.dtype)) ||
               (p.kind == ParamKind::Float && isFloatType(a.dtype)) ||
               (p.kind == ParamKind::Int && (a.dtype.code == kDLInt || a.dtype.code == kDLUInt)));
  if (!fits)
    return inputError("parameter '{0}' (R.Prim {1}) takes a 0-d {1} .npy, but {2} holds a {3}",
                      p.name, vm::paramKindName(p.kind), path, what);
  return scalarValue(a.dtype, a.data.data());
}

} // namespace

// Random values ---------------------------------------------------------------

namespace {

/// Stores `x` (a draw for a float dtype) or `i` (ints, bools) at `p`.
void storeRandom(DLDataType dt, uint8_t *p, Random &rng) {
  auto store = [&](auto v) { std::memcpy(p, &v, sizeof v); };
  if (isBool(dt))
    return store(uint8_t(rng.boolean()));
  if (dt.code == kDLBfloat)
    return store(kernels::cpu::floatToBf16(float(rng.uniform())));
  if (dt.code == kDLFloat) {
    double x = rng.uniform();
    if (dt.bits == 16)
      return store(kernels::cpu::floatToHalf(float(x)));
    if (dt.bits == 32)
      return store(float(x));
    return store(x);
  }
  int64_t v = rng.smallInt();
  switch (dt.bits) {
  case 8:
    return store(uint8_t(v));
  case 16:
    return store(uint16_t(v));
  case 32:
    return store(uint32_t(v));
  default:
    return store(v);
  }
}

/// The concrete dims of a tensor or shape parameter.
llvm::Expected<llvm::SmallVector<int64_t, 4>>
randomDims(const ParamInfo &p, const llvm::StringMap<std::string> &sizes) {
  if (p.ndim < 0)
    return inputError("parameter '{0}' has no known rank, so --random cannot size it", p.name);
  if (static_cast<int32_t>(p.dims.size()) != p.ndim)
    return inputError("parameter '{0}' has no known shape, so --random cannot size it", p.name);
  llvm::SmallVector<int64_t, 4> dims;
  for (size_t i = 0; i < p.dims.size(); ++i) {
    const vm::DimInfo &d = p.dims[i];
    if (d.kind == vm::DimInfo::Static) {
      dims.push_back(d.value);
      continue;
    }
    if (d.kind == vm::DimInfo::Any)
      return inputError("parameter '{0}' dim {1} has no size --random can give (neither a "
                        "number nor a symbolic var)",
                        p.name, i);
    auto it = sizes.find(d.symbol);
    int64_t size = 0;
    if (it == sizes.end())
      return inputError("parameter '{0}' dim {1}: symbolic dim '{2}' has no size (give --dim "
                        "{2}=SIZE)",
                        p.name, i, d.symbol);
    if (llvm::StringRef(it->second).getAsInteger(10, size) || size < 0)
      return inputError("--dim {0}={1}: the size must be a non-negative integer", d.symbol,
                        it->second);
    dims.push_back(size);
  }
  return dims;
}

llvm::Expected<Value> randomValue(const ParamInfo &p, const llvm::StringMap<std::string> &sizes,
                                  Random &rng) {
  switch (p.kind) {
  case ParamKind::Int:
    return Value::integer(rng.smallInt());
  case ParamKind::Float:
    return Value::real(rng.uniform());
  case ParamKind::Bool:
    return Value::boolean(rng.boolean());
  case ParamKind::Shape: {
    auto dims = randomDims(p, sizes);
    if (!dims)
      return dims.takeError();
    return Value::shape(*dims);
  }
  case ParamKind::Tensor: {
    auto dims = randomDims(p, sizes);
    if (!dims)
      return dims.takeError();
    DLDataType dt = p.dtype.value_or(DLDataType{kDLFloat, 32, 1});
    auto t = vm::TensorObj::emptyHost(*dims, dt);
    if (!t)
      return t.takeError();
    uint8_t *data = reinterpret_cast<uint8_t *>((*t)->bytes());
    uint64_t bytes = vm::dtypeBytes(dt);
    for (int64_t i = 0, n = (*t)->numElements(); i < n; ++i)
      storeRandom(dt, data + i * bytes, rng);
    return Value::object(*t);
  }
  default:
    return inputError("parameter '{0}' is a {1}, which --random cannot make (give --input)", p.name,
                      vm::paramKindName(p.kind));
  }
}

llvm::Expected<Value> npyValue(const ParamInfo &p, llvm::StringRef path) {
  auto array = vm::readNpy(path);
  if (!array)
    return inputError("parameter '{0}': {1}", p.name, llvm::toString(array.takeError()));
  switch (p.kind) {
  case ParamKind::Int:
  case ParamKind::Float:
  case ParamKind::Bool:
  case ParamKind::Shape:
    return scalarFromNpy(p, *array, path);
  case ParamKind::Tensor:
  case ParamKind::Any:
    return tensorFromNpy(*array);
  default:
    return inputError("parameter '{0}' is a {1}, which a .npy file cannot give", p.name,
                      vm::paramKindName(p.kind));
  }
}

} // namespace

llvm::Expected<std::vector<Value>> driver::prepareInputs(const vm::FuncInfo &fn,
                                                         const RunArgs &args) {
  auto files = parsePairs(args.inputs, "input", "PATH.npy");
  if (!files)
    return files.takeError();
  auto sizes = parsePairs(args.dims, "dim", "SIZE");
  if (!sizes)
    return sizes.takeError();
  for (const auto &entry : *files)
    if (llvm::find(fn.paramNames, entry.getKey()) == fn.paramNames.end())
      return inputError("--input {0}: function '{1}' has no parameter '{0}' (parameters: {2})",
                        entry.getKey(), fn.name, llvm::join(fn.paramNames, ", "));
  Random rng(args.seed);
  std::vector<Value> values;
  for (size_t i = 0; i < fn.paramNames.size(); ++i) {
    ParamInfo p = i < fn.params.size() ? fn.params[i] : ParamInfo();
    p.name = fn.paramNames[i];
    auto file = files->find(p.name);
    llvm::Expected<Value> v = file != files->end() ? npyValue(p, file->second)
                              : args.random        ? randomValue(p, *sizes, rng)
                                                   : inputError("missing input for parameter '{0}' "
                                                                       "(give --input {0}=PATH.npy or "
                                                                       "--random)",
                                                                p.name);
    if (!v)
      return v.takeError();
    values.push_back(std::move(*v));
  }
  return values;
}
