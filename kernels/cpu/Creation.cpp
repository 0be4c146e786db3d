//===- kernels/cpu/Creation.cpp - Creation kernels ------------------------===//
//
// zeros/ones/full and their *_like forms, arange, eye/eye_like,
// hamming_window, and size. The six fill kernels are one template over a
// table row that says where the fill value comes from and whether the shape
// is taken from a template tensor.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cmath>

namespace graft::kernels::cpu {
namespace {

//===----------------------------------------------------------------------===//
// Fill kernels
//===----------------------------------------------------------------------===//

enum class FillValue : uint8_t { Zero, One, Input };

/// One fill kernel. Inputs: the template tensor when `like` (the output
/// takes its shape), then the fill value when `value` is Input (one
/// element of any dtype, converted to the output's dtype).
struct FillOp {
  const char *symbol;
  bool like;
  FillValue value;

  constexpr int numInputs() const { return int(like) + int(value == FillValue::Input); }
};

constexpr FillOp kFillOps[] = {
    {"graft.zeros", false, FillValue::Zero},   {"graft.ones", false, FillValue::One},
    {"graft.full", false, FillValue::Input},   {"graft.zeros_like", true, FillValue::Zero},
    {"graft.ones_like", true, FillValue::One}, {"graft.full_like", true, FillValue::Input},
};
constexpr size_t kNumFillOps = std::size(kFillOps);

template <size_t I> llvm::Error fillKernel(const KernelArgs &args) {
  constexpr FillOp op = kFillOps[I];
  Ctx ctx(args, op.symbol);
  if (!ctx.checkArity(op.numInputs(), 1))
    return ctx.error();
  std::optional<View> value;
  if constexpr (op.value == FillValue::Input) {
    value = ctx.inView(op.numInputs() - 1);
    if (value->numel() != 1)
      return ctx.reject("fill value must hold one element, got shape " + shapeStr(value->shape));
  }
  View out = ctx.outView(0);
  if (op.like && !ctx.expectOutShape(0, ctx.inView(0).shape))
    return ctx.error();
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    C v = value ? loaderFor<C>(value->type)(value->data)
                : castTo<C>(op.value == FillValue::One ? 1 : 0);
    forEach<1>(out.shape, {&out}, [v](const std::array<char *, 1> &p) { Elem<T>::store(p[0], v); });
    return llvm::Error::success();
  });
}

//===----------------------------------------------------------------------===//
// arange, size
//===----------------------------------------------------------------------===//

/// Fills output 0 with value(i) for flat row-major index i.
template <class Fn> llvm::Error fillOutput(Ctx &ctx, Fn &&value) {
  View out = ctx.outView(0);
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    RowMajorCursor cur(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i, cur.next())
      Elem<T>::store(cur.get(), value.template operator()<Compute<T>>(i));
    return llvm::Error::success();
  });
}

/// arange(start, step) into a 1-D output: element i is start + i*step,
/// computed in int64 when both attrs are integers, else in double.
llvm::Error arangeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.arange");
  if (!ctx.checkArity(0, 1))
    return ctx.error();
  if (ctx.out(0).ndim != 1)
    return ctx.reject("output must be 1-D, got shape " + shapeStr(shapeOf(ctx.out(0))));
  bool ints = ctx.hasAttr(0) && ctx.hasAttr(1) && std::holds_alternative<int64_t>(*ctx.attr(0)) &&
              std::holds_alternative<int64_t>(*ctx.attr(1));
  double start = ctx.floatAttr(0, "start", 0.0), step = ctx.floatAttr(1, "step", 1.0);
  if (!ctx.ok())
    return ctx.error();
  int64_t istart = ints ? std::get<int64_t>(*ctx.attr(0)) : 0;
  int64_t istep = ints ? std::get<int64_t>(*ctx.attr(1)) : 0;
  return fillOutput(ctx, [&]<class C>(int64_t i) {
    if (ints)
      return castTo<C>(wrapAdd(istart, wrapMul(istep, i)));
    return castTo<C>(start + double(i) * step);
  });
}

/// size(x): x's element count into a 0-d int64.
llvm::Error sizeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.size");
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Int64, "output 0") ||
      !ctx.expectOutShape(0, {}))
    return ctx.error();
  Elem<int64_t>::store(ctx.outView(0).data, ctx.inView(0).numel());
  return llvm::Error::success();
}

/// eye/eye_like(k): ones where column - row == k in a 2-D output (whose
/// shape is n x m, or eye_like's template's), zeros elsewhere. Takes no
/// input: eye_like's template only gives the output its shape.
llvm::Error eyeKernel(const KernelArgs &args, const char *symbol) {
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(0, 1))
    return ctx.error();
  if (ctx.out(0).ndim != 2)
    return ctx.reject("output must be 2-D, got shape " + shapeStr(shapeOf(ctx.out(0))));
  int64_t k = ctx.intAttr(0, "k", 0);
  if (!ctx.ok())
    return ctx.error();
  int64_t cols = ctx.out(0).shape[1];
  return fillOutput(ctx, [&]<class C>(int64_t i) {
    int64_t row = i / cols, col = i - row * cols;
    return castTo<C>(col - row == k ? 1 : 0);
  });
}
llvm::Error eye(const KernelArgs &args) { return eyeKernel(args, "graft.eye"); }
llvm::Error eyeLike(const KernelArgs &args) { return eyeKernel(args, "graft.eye_like"); }

/// hamming_window(periodic, alpha, beta) into a 1-D float output of N
/// elements: alpha - beta * cos(2 pi i / D), D = N when periodic, else
/// N - 1, and [1] when N is 1 (topi's hamming_window). Computed in double,
/// rounded once to the output's dtype (topi computes in that dtype).
llvm::Error hammingWindowKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.hamming_window");
  if (!ctx.checkArity(0, 1))
    return ctx.error();
  if (ctx.out(0).ndim != 1)
    return ctx.reject("output must be 1-D, got shape " + shapeStr(shapeOf(ctx.out(0))));
  if (!isFloatType(ctx.outType(0)))
    return ctx.reject("takes a float output, got " + dtypeName(ctx.out(0).dtype));
  bool periodic = ctx.boolAttr(0, "periodic");
  double alpha = ctx.floatAttr(1, "alpha"), beta = ctx.floatAttr(2, "beta");
  if (!ctx.ok())
    return ctx.error();
  int64_t n = ctx.out(0).shape[0];
  double denom = double(periodic ? n : n - 1);
  return fillOutput(ctx, [&]<class C>(int64_t i) {
    if (n == 1)
      return castTo<C>(1.0);
    return castTo<C>(alpha - beta * std::cos(2.0 * M_PI * double(i) / denom));
  });
}

const llvm::StringRef kArangeAttrs[] = {"start", "step"};
const llvm::StringRef kEyeAttrs[] = {"k"};
const llvm::StringRef kHammingAttrs[] = {"periodic", "alpha", "beta"};

template <size_t... I> void registerFillKernels(std::index_sequence<I...>) {
  static const KernelInfo kernels[] = {
      {kFillOps[I].symbol, kFillOps[I].numInputs(), 1, {}, &fillKernel<I>}...};
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace

void registerCreationKernels() {
  registerFillKernels(std::make_index_sequence<kNumFillOps>());
  static const KernelInfo kernels[] = {
      {"graft.arange", 0, 1, kArangeAttrs, &arangeKernel},
      {"graft.size", 1, 1, {}, &sizeKernel},
      {"graft.eye", 0, 1, kEyeAttrs, &eye},
      {"graft.eye_like", 0, 1, kEyeAttrs, &eyeLike},
      {"graft.hamming_window", 0, 1, kHammingAttrs, &hammingWindowKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
