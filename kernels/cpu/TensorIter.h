//===- kernels/cpu/TensorIter.h - Shared machinery of the CPU kernels -----===//
//
// Everything the CPU reference kernels share: the dtype table and dispatch,
// float16/bfloat16 conversion, well-defined casts between element types,
// strided N-d views over DLTensors with broadcasting, and the argument and
// attribute checks that turn bad input into an llvm::Error.
//
// Views keep byte strides so that one iteration routine serves every dtype
// and every layout: a DLTensor's strides and byte_offset, broadcast dims
// (stride 0), permutations and slices all become plain stride arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_KERNELS_CPU_TENSORITER_H
#define GRAFT_KERNELS_CPU_TENSORITER_H

#include "kernels/ElementwiseScalar.h"
#include "kernels/Kernel.h"
#include "kernels/SliceAxis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

namespace graft::kernels::cpu {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// The element types the CPU kernels take.
enum class ScalarType {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Float16,
  BFloat16,
  Float32,
  Float64
};

/// Storage-only wrappers: half types are computed in float.
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    // Subnormal or zero: mant * 2^-24 is exact in float.
    float f = float(mant) * 0x1p-24f;
    return sign ? -f : f;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

/// Round-to-nearest-even, as every framework converts.
inline uint16_t floatToHalf(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u)
    return sign | 0x7e00; // NaN stays a (quiet) NaN.
  if (ax >= 0x477ff000u)
    return sign | 0x7c00; // At or past 65520 rounds to infinity.
  if (ax < 0x38800000u) {
    // Below the smallest normal half: adding 0.5 makes the float's unit in
    // the last place 2^-24, the half subnormal step, so the FPU rounds.
    float r = std::bit_cast<float>(ax) + 0.5f;
    return sign | uint16_t(std::bit_cast<uint32_t>(r) - 0x3f000000u);
  }
  // Rebias the exponent (127 -> 15) and round the 13 dropped bits to even.
  uint32_t odd = (ax >> 13) & 1;
  return sign | uint16_t((ax + 0xc8000fffu + odd) >> 13);
}

inline float bf16ToFloat(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

inline uint16_t floatToBf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40); // Keep NaN a NaN after truncation.
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

/// Elem<T>: how a storage type T loads to and stores from its compute type.
/// memcpy keeps unaligned strided access well defined.
template <class T> struct Elem {
  using C = T;
  static C load(const char *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(char *p, C v) { std::memcpy(p, &v, sizeof v); }
};
template <> struct Elem<bool> {
  using C = bool;
  static C load(const char *p) { return *reinterpret_cast<const uint8_t *>(p) != 0; }
  static void store(char *p, C v) { *reinterpret_cast<uint8_t *>(p) = v ? 1 : 0; }
};
template <> struct Elem<Half> {
  using C = float;
  static C load(const char *p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return halfToFloat(b);
  }
  static void store(char *p, C v) {
    uint16_t b = floatToHalf(v);
    std::memcpy(p, &b, 2);
  }
};
template <> struct Elem<BFloat16> {
  using C = float;
  static C load(const char *p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bf16ToFloat(b);
  }
  static void store(char *p, C v) {
    uint16_t b = floatToBf16(v);
    std::memcpy(p, &b, 2);
  }
};

template <class T> using Compute = typename Elem<T>::C;
template <class T> inline constexpr bool kIsFloat = std::is_floating_point_v<Compute<T>>;
template <class T> inline constexpr bool kIsBool = std::is_same_v<T, bool>;
template <class T> inline constexpr bool kIsInt = std::is_integral_v<T> && !kIsBool<T>;
/// Half types round after every operation; these say so at compile time.
template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/// The accumulator of sums and products: float for half types (as ATen's
/// opmath type), the compute type otherwise.
template <class T> using Acc = Compute<T>;

/// Rounds a compute value to what storing it as T would keep (only half
/// types lose anything).
template <class T> inline Compute<T> roundTo(Compute<T> v) {
  if constexpr (kIsHalf<T>) {
    char buf[2];
    Elem<T>::store(buf, v);
    return Elem<T>::load(buf);
  } else {
    return v;
  }
}

/// A conversion with defined results for every input (C++ leaves NaN and
/// out-of-range float-to-integer casts undefined): NaN becomes 0, other
/// floats truncate toward zero, saturate to the int64 range and then wrap
/// to the target width, as numpy and PyTorch do on x86 for in-range values
/// (300.0 -> int8 gives 44).
template <class To, class From> inline To castTo(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else if constexpr (std::is_floating_point_v<From>) {
    if (std::isnan(v))
      return To(0);
    if (v >= From(9223372036854775807.0))
      return static_cast<To>(std::numeric_limits<int64_t>::max());
    if (v <= From(-9223372036854775808.0))
      return static_cast<To>(std::numeric_limits<int64_t>::min());
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v); // Integer narrowing wraps (C++20).
  }
}

// Wrapping integer arithmetic and division defined everywhere, shared with
// the CUDA kernels (kernels/ElementwiseScalar.h).
using scalar::addC;
using scalar::intDiv;
using scalar::intFloorDiv;
using scalar::mulC;
using scalar::wrapAdd;
using scalar::wrapMul;
using scalar::wrapSub;

/// Whether x replaces the current best in a max (or min): NaN beats
/// everything and nothing beats NaN, so NaN propagates as in numpy.
template <bool Max, class C> bool beats(C x, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(best))
      return false;
    if (std::isnan(x))
      return true;
  }
  return Max ? best < x : x < best;
}

/// Rounds a pointer up to `align` bytes (workspace carving).
inline char *alignUp(char *p, size_t align) {
  auto v = reinterpret_cast<uintptr_t>(p);
  return reinterpret_cast<char *>((v + align - 1) / align * align);
}

/// Loads an element of storage type From as the compute type C.
template <class From, class C> C loadConvert(const char *p) {
  return castTo<C>(Elem<From>::load(p));
}
template <class C> using Loader = C (*)(const char *);

/// Stores a compute value of type C as storage type To.
template <class To, class C> void storeConvert(char *p, C v) {
  Elem<To>::store(p, castTo<Compute<To>>(v));
}
template <class C> using Storer = void (*)(char *, C);

template <class T> struct TypeTag { using type = T; };

/// Calls f(TypeTag<T>{}) with the storage type of `t`.
template <class F> decltype(auto) dispatch(ScalarType t, F &&f) {
  switch (t) {
  case ScalarType::Bool:
    return f(TypeTag<bool>{});
  case ScalarType::Int8:
    return f(TypeTag<int8_t>{});
  case ScalarType::Int16:
    return f(TypeTag<int16_t>{});
  case ScalarType::Int32:
    return f(TypeTag<int32_t>{});
  case ScalarType::Int64:
    return f(TypeTag<int64_t>{});
  case ScalarType::UInt8:
    return f(TypeTag<uint8_t>{});
  case ScalarType::Float16:
    return f(TypeTag<Half>{});
  case ScalarType::BFloat16:
    return f(TypeTag<BFloat16>{});
  case ScalarType::Float32:
    return f(TypeTag<float>{});
  case ScalarType::Float64:
    return f(TypeTag<double>{});
  }
  llvm_unreachable("covered switch");
}

/// A loader that reads elements of type `from` as compute type C.
template <class C> Loader<C> loaderFor(ScalarType from) {
  return dispatch(
      from, [](auto tag) -> Loader<C> { return &loadConvert<typename decltype(tag)::type, C>; });
}

/// A storer that writes compute type C as elements of type `to`.
template <class C> Storer<C> storerFor(ScalarType to) {
  return dispatch(
      to, [](auto tag) -> Storer<C> { return &storeConvert<typename decltype(tag)::type, C>; });
}

std::optional<ScalarType> scalarTypeOf(DLDataType t);
DLDataType dlTypeOf(ScalarType t);
std::string dtypeName(DLDataType t);
int64_t elemBytes(ScalarType t);
inline bool isFloatType(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}
inline bool isIntType(ScalarType t) { return t != ScalarType::Bool && !isFloatType(t); }

//===----------------------------------------------------------------------===//
// Views and iteration
//===----------------------------------------------------------------------===//

using Dims = llvm::SmallVector<int64_t, 6>;

/// A strided N-d window onto memory; strides are in bytes.
struct View {
  char *data = nullptr;
  ScalarType type = ScalarType::Float32;
  Dims shape;
  Dims strides;

  int64_t ndim() const { return int64_t(shape.size()); }
  int64_t numel() const;
  int64_t elemSize() const { return elemBytes(type); }
  /// Reorders dims: result dim i is this view's dim perm[i].
  View permuted(llvm::ArrayRef<int64_t> perm) const;
  /// Moves `axis` to the end, keeping the other dims in order.
  View axisLast(int64_t axis) const;
  /// Restricts `axis` to [begin, begin + len*step) with step `step`.
  View sliced(int64_t axis, int64_t begin, int64_t len, int64_t step) const;
  /// Drops dim `axis`, positioned at index `at`.
  View at(int64_t axis, int64_t index) const;
  /// Keeps only the dims listed (in that order).
  View select(llvm::ArrayRef<int64_t> dims) const;
  /// The element at a full index.
  char *ptr(llvm::ArrayRef<int64_t> idx) const;
  /// The element at a row-major flat index.
  char *elementAt(int64_t flat) const;
};

std::string shapeStr(llvm::ArrayRef<int64_t> shape);
Dims shapeOf(const DLTensor &t);
int64_t numelOf(llvm::ArrayRef<int64_t> shape);
/// Row-major byte strides of a dense tensor.
Dims contiguousStrides(llvm::ArrayRef<int64_t> shape, int64_t elemSize);

/// Calls fn(ptrs) for every index of `shape` in row-major order, where
/// ptrs[k] points at that index in views[k] (whose strides are aligned to
/// `shape`). Nothing runs for an empty shape; a 0-d shape runs once.
template <size_t N, class Fn>
void forEach(llvm::ArrayRef<int64_t> shape, const std::array<const View *, N> &views, Fn &&fn) {
  size_t ndim = shape.size();
  for (int64_t d : shape)
    if (d == 0)
      return;
  std::array<char *, N> p;
  for (size_t k = 0; k < N; ++k)
    p[k] = views[k]->data;
  if (ndim == 0) {
    fn(p);
    return;
  }
  Dims idx(ndim, 0);
  int64_t inner = shape[ndim - 1];
  std::array<int64_t, N> step;
  for (size_t k = 0; k < N; ++k)
    step[k] = views[k]->strides[ndim - 1];
  while (true) {
    std::array<char *, N> q = p;
    for (int64_t i = 0; i < inner; ++i) {
      fn(q);
      for (size_t k = 0; k < N; ++k)
        q[k] += step[k];
    }
    // Odometer over the outer dims.
    int64_t d = int64_t(ndim) - 2;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k)
        p[k] += views[k]->strides[d];
      if (++idx[d] < shape[d])
        break;
      for (size_t k = 0; k < N; ++k)
        p[k] -= views[k]->strides[d] * shape[d];
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Calls fn(ptrs) once per row along `axis` of views that share a shape;
/// ptrs[k] is the row's first element in views[k]. The row's length and
/// strides are views[k]->shape[axis] and views[k]->strides[axis].
template <size_t N, class Fn>
void forEachRow(const std::array<const View *, N> &views, int64_t axis, Fn &&fn) {
  if (views[0]->shape[axis] == 0)
    return;
  std::array<View, N> outer;
  std::array<const View *, N> ptrs;
  for (size_t k = 0; k < N; ++k) {
    outer[k] = views[k]->at(axis, 0);
    ptrs[k] = &outer[k];
  }
  forEach<N>(outer[0].shape, ptrs, fn);
}

/// Calls fn(index) for every index of `shape` in row-major order.
template <class Fn> void forEachIndex(llvm::ArrayRef<int64_t> shape, Fn &&fn) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  Dims idx(shape.size(), 0);
  while (true) {
    fn(llvm::ArrayRef<int64_t>(idx));
    int64_t d = int64_t(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Walks one view in row-major order; used where two views have different
/// shapes but the same element count (reshape).
class RowMajorCursor {
public:
  explicit RowMajorCursor(const View &v) : v(v), idx(v.shape.size(), 0), p(v.data) {}
  char *get() const { return p; }
  void next();

private:
  const View &v;
  Dims idx;
  char *p;
};

/// Copies `src` into `dst` element by element in row-major order; both have
/// the same element type and count (shapes may differ).
void copyRowMajor(const View &src, const View &dst);

/// Copies `src` into `dst` of the same shape and type.
void copySameShape(const View &src, const View &dst);

//===----------------------------------------------------------------------===//
// Argument checking
//===----------------------------------------------------------------------===//

/// Per-call context: validates arguments and collects the first error, so
/// kernels read attrs and tensors without an Expected at every step.
class Ctx {
public:
  Ctx(const KernelArgs &args, llvm::StringRef symbol) : args(args), symbol(symbol) {}

  /// Checks the tensor counts (-1: any count of at least `minVariadic`),
  /// non-null tensors on the CPU with supported dtypes.
  bool checkArity(int numInputs, int numOutputs, int minVariadic = 1);

  bool ok() const { return err.empty(); }
  /// Records a failure (the first one wins) and returns false.
  bool fail(const llvm::Twine &msg);
  llvm::Error error() const;
  /// fail(msg), then the error.
  llvm::Error reject(const llvm::Twine &msg) {
    fail(msg);
    return error();
  }
  /// ok() ? success : error().
  llvm::Error finish() const;

  const DLTensor &in(size_t i) const { return *args.inputs[i]; }
  const DLTensor &out(size_t i) const { return *args.outputs[i]; }
  size_t numIn() const { return args.inputs.size(); }
  size_t numOut() const { return args.outputs.size(); }
  ScalarType inType(size_t i) const { return *scalarTypeOf(in(i).dtype); }
  ScalarType outType(size_t i) const { return *scalarTypeOf(out(i).dtype); }
  View inView(size_t i) const { return viewOf(in(i)); }
  View outView(size_t i) const { return viewOf(out(i)); }
  static View viewOf(const DLTensor &t);

  /// `v` broadcast (numpy rules) to `shape`; fails naming `what`.
  std::optional<View> broadcast(const View &v, llvm::ArrayRef<int64_t> shape,
                                const llvm::Twine &what);
  /// Output i must have exactly `shape`.
  bool expectOutShape(size_t i, llvm::ArrayRef<int64_t> shape);
  bool expectSameType(ScalarType got, ScalarType want, const llvm::Twine &what);
  /// Normalizes a possibly negative axis into [0, ndim).
  std::optional<int64_t> axis(int64_t a, int64_t ndim);

  // Attributes; a missing or unset attr takes `dflt` when given.
  int64_t intAttr(size_t i, llvm::StringRef name, std::optional<int64_t> dflt = std::nullopt);
  double floatAttr(size_t i, llvm::StringRef name, std::optional<double> dflt = std::nullopt);
  bool boolAttr(size_t i, llvm::StringRef name, std::optional<bool> dflt = std::nullopt);
  std::string strAttr(size_t i, llvm::StringRef name,
                      std::optional<std::string> dflt = std::nullopt);
  /// An int list; a single int reads as a one-element list.
  Dims intListAttr(size_t i, llvm::StringRef name);
  /// Whether attr i is present and set.
  bool hasAttr(size_t i) const;
  const AttrValue *attr(size_t i) const;

  /// Fails unless the caller's workspace holds `bytes`.
  bool needWorkspace(size_t bytes);

  const KernelArgs &args;
  llvm::StringRef symbol;

private:
  bool checkTensor(const DLTensor *t, llvm::StringRef role, size_t i);
  std::string err;
};

/// The numpy broadcast of `shapes`; fails naming them all.
std::optional<Dims> broadcastShapes(Ctx &ctx, llvm::ArrayRef<Dims> shapes);

/// strided_slice's kernel and the fused program evaluator share it with
/// the CUDA kernels.
using graft::kernels::sliceAxis;

/// Sorted, normalized axes; fails on an out-of-range or repeated axis.
std::optional<Dims> normalizeAxes(Ctx &ctx, const Dims &axes, int64_t ndim);

} // namespace graft::kernels::cpu

#endif // GRAFT_KERNELS_CPU_TENSORITER_H
