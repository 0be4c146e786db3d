//===- kernels/cpu/Sort.cpp - sort, argsort and bucketize -----------------===//
//
// Stable sorts along one axis, in the caller's workspace (no allocation). NaN orders above every
// number, as in numpy and PyTorch: last when ascending, first when descending. Equal elements keep
// their input order in both directions. bucketize searches a sorted 1-D tensor.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <algorithm>

namespace graft::kernels::cpu {
namespace {

/// Scratch: one row's values (as compute values) and its permutation.
size_t sortWorkspace(const KernelArgs &args) {
  if (args.inputs.empty() || !args.inputs[0])
    return 0;
  const DLTensor &t = *args.inputs[0];
  int64_t axis = -1;
  if (!args.attrs.empty() && std::holds_alternative<int64_t>(args.attrs[0]))
    axis = std::get<int64_t>(args.attrs[0]);
  if (t.ndim == 0)
    return 16;
  if (axis < 0)
    axis += t.ndim;
  if (axis < 0 || axis >= t.ndim)
    return 0; // The kernel reports the bad axis.
  return size_t(t.shape[axis]) * 16 + 16;
}

/// "a before b" in the requested direction, NaN counting as the largest.
template <class C> bool before(C a, C b, bool descending) {
  if constexpr (std::is_floating_point_v<C>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb)
      return descending ? na && !nb : nb && !na;
  }
  return descending ? b < a : a < b;
}

template <bool Arg> llvm::Error sortKernel(const KernelArgs &args) {
  Ctx ctx(args, Arg ? "graft.argsort" : "graft.sort");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  if (in.ndim() == 0) { // A scalar is its own sorted row.
    in.shape = out.shape = {1};
    in.strides = out.strides = {0};
  }
  auto axis = ctx.axis(ctx.intAttr(0, "axis", -1), in.ndim());
  bool descending = ctx.boolAttr(1, "descending", false);
  if (!axis || !ctx.ok() || !ctx.expectOutShape(0, shapeOf(ctx.in(0))))
    return ctx.error();
  ScalarType ot = ctx.outType(0);
  if (Arg && ot != ScalarType::Int32 && ot != ScalarType::Int64)
    return ctx.reject("output 0 must be int32 or int64, got " + dtypeName(dlTypeOf(ot)));
  if (!Arg && !ctx.expectSameType(ot, in.type, "output 0"))
    return ctx.error();
  if (!ctx.needWorkspace(sortWorkspace(args)))
    return ctx.error();
  int64_t n = in.shape[*axis], si = in.strides[*axis], so = out.strides[*axis];
  char *ws = alignUp(static_cast<char *>(args.workspace.data), 8);
  dispatch(in.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    auto *vals = reinterpret_cast<C *>(ws);
    auto *perm = reinterpret_cast<int64_t *>(ws + n * 8);
    Storer<int64_t> storeIdx = storerFor<int64_t>(ot);
    forEachRow<2>({&in, &out}, *axis, [&](const std::array<char *, 2> &p) {
      for (int64_t i = 0; i < n; ++i) {
        vals[i] = Elem<T>::load(p[0] + i * si);
        perm[i] = i;
      }
      // Ties broken by position make the order total, so an in-place sort
      // gives the stable result; std::stable_sort would allocate a buffer.
      std::sort(perm, perm + n, [&](int64_t a, int64_t b) {
        if (before(vals[a], vals[b], descending))
          return true;
        return !before(vals[b], vals[a], descending) && a < b;
      });
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (Arg)
          storeIdx(p[1] + i * so, perm[i]);
        else
          Elem<T>::store(p[1] + i * so, vals[perm[i]]);
      }
    });
  });
  return llvm::Error::success();
}

/// The bucket of `v` among `n` sorted boundaries: how many are below it
/// (right: at or below it), by bisection, as topi's searchsorted. A NaN
/// value is below nothing and lands in bucket 0.
template <class V> int64_t bucketOf(V v, const View &bounds, Loader<V> load, bool right) {
  int64_t lo = 0, hi = bounds.shape[0];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    V b = load(bounds.data + mid * bounds.strides[0]);
    if (right ? b <= v : b < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// bucketize(right): for each input element, its bucket among the sorted
/// 1-D boundaries (torch.bucketize), as int32 or int64. Integer operands
/// compare as int64, others as double.
llvm::Error bucketizeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.bucketize");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  bool right = ctx.boolAttr(0, "right", false);
  View x = ctx.inView(0), bounds = ctx.inView(1), out = ctx.outView(0);
  if (!ctx.ok() || !ctx.expectOutShape(0, x.shape))
    return ctx.error();
  if (bounds.ndim() != 1)
    return ctx.reject("takes 1-D boundaries, got shape " + shapeStr(bounds.shape));
  ScalarType ot = ctx.outType(0);
  if (ot != ScalarType::Int32 && ot != ScalarType::Int64)
    return ctx.reject("output 0 must be int32 or int64, got " + dtypeName(ctx.out(0).dtype));
  Storer<int64_t> store = storerFor<int64_t>(ot);
  auto run = [&](auto zero) {
    using V = decltype(zero);
    Loader<V> lx = loaderFor<V>(x.type), lb = loaderFor<V>(bounds.type);
    forEach<2>(out.shape, {&out, &x}, [&](const std::array<char *, 2> &p) {
      store(p[0], bucketOf<V>(lx(p[1]), bounds, lb, right));
    });
  };
  if (isFloatType(x.type) || isFloatType(bounds.type))
    run(0.0);
  else
    run(int64_t(0));
  return llvm::Error::success();
}

const llvm::StringRef kSortAttrs[] = {"axis", "descending"};
const llvm::StringRef kBucketizeAttrs[] = {"right"};

} // namespace

void registerSortKernels() {
  static const KernelInfo kernels[] = {
      {"graft.sort", 1, 1, kSortAttrs, &sortKernel<false>, &sortWorkspace},
      {"graft.argsort", 1, 1, kSortAttrs, &sortKernel<true>, &sortWorkspace},
      {"graft.bucketize", 2, 1, kBucketizeAttrs, &bucketizeKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
