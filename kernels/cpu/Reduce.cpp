//===- kernels/cpu/Reduce.cpp - Reductions and scans ----------------------===//
//
// sum, mean, prod, max, min, variance, std (axis list, keepdims),
// argmax/argmin (one axis or all, keepdims), cumsum, cumprod and
// collapse_sum (a sum into a shape the input broadcasts from). Every
// output element is reduced over its input elements sequentially in
// row-major order, so results never depend on threading or layout.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

enum class Red { Sum, Mean, Prod, Max, Min, ArgMax, ArgMin };

constexpr const char *redSymbol(Red op) {
  constexpr const char *names[] = {"graft.sum", "graft.mean",   "graft.prod",  "graft.max",
                                   "graft.min", "graft.argmax", "graft.argmin"};
  return names[int(op)];
}

/// The split of an input into kept dims (one per output element) and
/// reduced dims (walked for each output element).
struct ReducePlan {
  View outer; ///< Input over the kept dims.
  View inner; ///< Input over the reduced dims; data set per element.
  View out;   ///< Output over the kept dims.
};

/// Plans a reduction of input 0 over `axes` (sorted, normalized) into
/// output 0, checking the output shape against keepdims.
std::optional<ReducePlan> planReduce(Ctx &ctx, const Dims &axes, bool keepdims) {
  View in = ctx.inView(0);
  Dims kept, outShape;
  for (int64_t d = 0; d < in.ndim(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (!reduced)
      kept.push_back(d);
    if (!reduced || keepdims)
      outShape.push_back(reduced ? 1 : in.shape[d]);
  }
  if (!ctx.expectOutShape(0, outShape))
    return std::nullopt;
  View out = ctx.outView(0);
  ReducePlan plan{in.select(kept), in.select(axes), out};
  if (keepdims) {
    Dims outKept;
    for (int64_t d : kept)
      outKept.push_back(d);
    plan.out = out.select(outKept);
  }
  return plan;
}

/// The axes attr: unset means every axis; an empty list reduces none.
std::optional<Dims> reduceAxes(Ctx &ctx, size_t attr, int64_t ndim) {
  if (!ctx.hasAttr(attr)) {
    Dims all;
    for (int64_t d = 0; d < ndim; ++d)
      all.push_back(d);
    return all;
  }
  Dims axes = ctx.intListAttr(attr, "axis");
  if (!ctx.ok())
    return std::nullopt;
  return normalizeAxes(ctx, axes, ndim);
}

/// Reduces one output element's inputs (the `inner` view) for value ops.
template <Red Op, class T> Compute<T> reduceValues(const View &inner) {
  using A = Acc<T>;
  A acc = Op == Red::Prod ? A(1) : A(0);
  bool first = true;
  forEach<1>(inner.shape, {&inner}, [&](const std::array<char *, 1> &p) {
    A x = Elem<T>::load(p[0]);
    if constexpr (Op == Red::Sum || Op == Red::Mean)
      acc = addC(acc, x);
    else if constexpr (Op == Red::Prod)
      acc = mulC(acc, x);
    else if (first || beats<Op == Red::Max>(x, acc))
      acc = x;
    first = false;
  });
  if constexpr (Op == Red::Mean) {
    int64_t n = inner.numel();
    if constexpr (std::is_floating_point_v<A>)
      return acc / A(n);
    else // Truncating integer division, as TVM's mean; an empty mean is 0.
      return n == 0 ? A(0) : A(int64_t(acc) / n);
  }
  return acc;
}

/// The position (row-major over the reduced dims) of the first max/min;
/// the first NaN wins, as numpy's argmax.
template <Red Op, class T> int64_t reduceArg(const View &inner) {
  using C = Compute<T>;
  C best{};
  int64_t bestAt = 0, at = 0;
  forEach<1>(inner.shape, {&inner}, [&](const std::array<char *, 1> &p) {
    C x = Elem<T>::load(p[0]);
    if (at == 0 || beats<Op == Red::ArgMax>(x, best)) {
      best = x;
      bestAt = at;
    }
    ++at;
  });
  return bestAt;
}

template <Red Op> llvm::Error reduceKernel(const KernelArgs &args) {
  Ctx ctx(args, redSymbol(Op));
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  constexpr bool isArg = Op == Red::ArgMax || Op == Red::ArgMin;
  ScalarType t = ctx.inType(0);
  int64_t ndim = ctx.in(0).ndim;
  std::optional<Dims> axes;
  if constexpr (isArg) {
    // argmax/argmin take one axis (or none: all of them).
    axes = Dims();
    if (!ctx.hasAttr(0))
      axes = *reduceAxes(ctx, 0, ndim);
    else if (auto a = ctx.axis(ctx.intAttr(0, "axis"), ndim))
      axes->push_back(*a);
  } else {
    axes = reduceAxes(ctx, 0, ndim);
  }
  bool keepdims = ctx.boolAttr(1, "keepdims", false);
  if (!axes || !ctx.ok())
    return ctx.error();
  ScalarType ot = ctx.outType(0);
  if (isArg && ot != ScalarType::Int64 && ot != ScalarType::Int32)
    return ctx.reject("output 0 must be int32 or int64, got " + dtypeName(dlTypeOf(ot)));
  if (!isArg && !ctx.expectSameType(ot, t, "output 0"))
    return ctx.error();
  bool order = Op == Red::Max || Op == Red::Min || isArg;
  // max/min of bool are any/all, argmax/argmin order false before true (as
  // TVM's, whose reducers start from bool's minimum); sums refuse bool.
  if (t == ScalarType::Bool && !order)
    return ctx.reject("does not take bool");
  auto plan = planReduce(ctx, *axes, keepdims);
  if (!plan)
    return ctx.error();
  if (order && plan->inner.numel() == 0 && plan->outer.numel() != 0)
    return ctx.reject("cannot reduce an empty axis (input shape " + shapeStr(ctx.inView(0).shape) +
                      ")");
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    Storer<int64_t> storeIdx = storerFor<int64_t>(ot);
    View inner = plan->inner;
    forEach<2>(plan->outer.shape, {&plan->out, &plan->outer}, [&](const std::array<char *, 2> &p) {
      inner.data = p[1];
      if constexpr (isArg)
        storeIdx(p[0], reduceArg<Op, T>(inner));
      else
        Elem<T>::store(p[0], reduceValues<Op, T>(inner));
    });
    return llvm::Error::success();
  });
}

/// cumsum/cumprod(axis, exclusive): unset axis scans the row-major
/// flattening into a 1-D output. Sums and products run in the output's
/// accumulator type; an exclusive product starts at 1.
template <bool Prod> llvm::Error scanKernel(const KernelArgs &args) {
  Ctx ctx(args, Prod ? "graft.cumprod" : "graft.cumsum");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  bool exclusive = ctx.boolAttr(1, "exclusive", false);
  View in = ctx.inView(0), out = ctx.outView(0);
  bool flat = !ctx.hasAttr(0);
  std::optional<int64_t> axis = 0;
  if (flat) {
    Dims n{in.numel()};
    if (!ctx.expectOutShape(0, n))
      return ctx.error();
  } else {
    axis = ctx.axis(ctx.intAttr(0, "axis"), in.ndim());
    if (!axis || !ctx.expectOutShape(0, in.shape))
      return ctx.error();
  }
  if (!ctx.ok())
    return ctx.error();
  if (ctx.outType(0) == ScalarType::Bool)
    return ctx.reject("does not produce bool");
  return dispatch(ctx.outType(0), [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using A = Acc<T>;
    Loader<A> load = loaderFor<A>(in.type);
    // Scans n elements; inAt(i)/outAt(i) locate element i of the row.
    auto scan = [&](auto &&inAt, auto &&outAt, int64_t n) {
      A acc(Prod ? 1 : 0);
      auto step = [&](A x) { acc = Prod ? mulC(acc, x) : addC(acc, x); };
      for (int64_t i = 0; i < n; ++i) {
        A x = load(inAt(i));
        if (!exclusive)
          step(x);
        Elem<T>::store(outAt(i), acc);
        if (exclusive)
          step(x);
      }
    };
    if (flat) {
      View orig = ctx.inView(0);
      scan([&](int64_t i) { return orig.elementAt(i); },
           [&](int64_t i) { return out.elementAt(i); }, orig.numel());
      return llvm::Error::success();
    }
    int64_t len = in.shape[*axis];
    int64_t si = in.strides[*axis], so = out.strides[*axis];
    forEachRow<2>({&in, &out}, *axis, [&](const std::array<char *, 2> &p) {
      scan([&](int64_t i) { return p[0] + i * si; }, [&](int64_t i) { return p[1] + i * so; }, len);
    });
    return llvm::Error::success();
  });
}

/// Population variance (divide by n, as TVM's variance) of one output
/// element's inputs, by two passes: the mean, then the squared deviations.
/// Floats accumulate in Acc<T>; integers in double, the result truncated.
template <class T, bool Sqrt> Compute<T> varianceOf(const View &inner) {
  using A = std::conditional_t<kIsFloat<T>, Acc<T>, double>;
  int64_t n = inner.numel();
  A sum(0);
  forEach<1>(inner.shape, {&inner},
             [&](const std::array<char *, 1> &p) { sum += A(Elem<T>::load(p[0])); });
  A mean = sum / A(n), sq(0);
  forEach<1>(inner.shape, {&inner}, [&](const std::array<char *, 1> &p) {
    A d = A(Elem<T>::load(p[0])) - mean;
    sq += d * d;
  });
  A v = sq / A(n); // An empty reduction gives NaN (0 for integers).
  return castTo<Compute<T>>(Sqrt ? std::sqrt(v) : v);
}

/// variance/std(axis, keepdims): attrs as sum; output of x's dtype.
template <bool Sqrt> llvm::Error varianceKernel(const KernelArgs &args) {
  Ctx ctx(args, Sqrt ? "graft.std" : "graft.variance");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  auto axes = reduceAxes(ctx, 0, ctx.in(0).ndim);
  bool keepdims = ctx.boolAttr(1, "keepdims", false);
  if (!axes || !ctx.ok() || !ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (t == ScalarType::Bool)
    return ctx.reject("does not take bool");
  auto plan = planReduce(ctx, *axes, keepdims);
  if (!plan)
    return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsBool<T>) {
      View inner = plan->inner;
      forEach<2>(plan->outer.shape, {&plan->out, &plan->outer},
                 [&](const std::array<char *, 2> &p) {
                   inner.data = p[1];
                   Elem<T>::store(p[0], varianceOf<T, Sqrt>(inner));
                 });
    }
    return llvm::Error::success();
  });
}

/// collapse_sum_like/_to: sums the input into the output's shape, which it
/// broadcasts from (dims aligned from the right): leading input dims and
/// dims where the output has 1 and the input more are summed, as topi's
/// collapse_sum.
template <bool Like> llvm::Error collapseSumKernel(const KernelArgs &args) {
  Ctx ctx(args, Like ? "graft.collapse_sum_like" : "graft.collapse_sum_to");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (t == ScalarType::Bool)
    return ctx.reject("does not take bool");
  View in = ctx.inView(0), out = ctx.outView(0);
  int64_t lead = in.ndim() - out.ndim();
  Dims kept, reduced, outKept;
  for (int64_t d = 0; d < in.ndim(); ++d) {
    int64_t o = d - lead;
    if (o < 0 || (out.shape[o] == 1 && in.shape[d] != 1)) {
      reduced.push_back(d);
      continue;
    }
    if (out.shape[o] != in.shape[d])
      return ctx.reject("cannot collapse shape " + shapeStr(in.shape) + " into " +
                        shapeStr(out.shape));
    kept.push_back(d);
    outKept.push_back(o);
  }
  // Output dims beyond the input's rank (TVM's check skips them) must be 1.
  for (int64_t o = 0; o < -lead; ++o)
    if (out.shape[o] != 1)
      return ctx.reject("cannot collapse shape " + shapeStr(in.shape) + " into " +
                        shapeStr(out.shape));
  View outer = in.select(kept), inner = in.select(reduced), dst = out.select(outKept);
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    forEach<2>(outer.shape, {&dst, &outer}, [&](const std::array<char *, 2> &p) {
      inner.data = p[1];
      Elem<T>::store(p[0], reduceValues<Red::Sum, T>(inner));
    });
    return llvm::Error::success();
  });
}

const llvm::StringRef kReduceAttrs[] = {"axis", "keepdims"};
const llvm::StringRef kCumsumAttrs[] = {"axis", "exclusive"};

template <Red Op> KernelInfo redInfo() {
  return {redSymbol(Op), 1, 1, kReduceAttrs, &reduceKernel<Op>};
}

} // namespace

void registerReduceKernels() {
  static const KernelInfo kernels[] = {
      redInfo<Red::Sum>(),
      redInfo<Red::Mean>(),
      redInfo<Red::Prod>(),
      redInfo<Red::Max>(),
      redInfo<Red::Min>(),
      redInfo<Red::ArgMax>(),
      redInfo<Red::ArgMin>(),
      {"graft.cumsum", 1, 1, kCumsumAttrs, &scanKernel<false>},
      {"graft.cumprod", 1, 1, kCumsumAttrs, &scanKernel<true>},
      {"graft.variance", 1, 1, kReduceAttrs, &varianceKernel<false>},
      {"graft.std", 1, 1, kReduceAttrs, &varianceKernel<true>},
      {"graft.collapse_sum_like", 1, 1, {}, &collapseSumKernel<true>},
      {"graft.collapse_sum_to", 1, 1, {}, &collapseSumKernel<false>},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
