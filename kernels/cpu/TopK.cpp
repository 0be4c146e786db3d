//===- kernels/cpu/TopK.cpp - topk ----------------------------------------===//
//
// TOPI's topk along one axis: the k largest (or smallest) elements in that
// order, and/or their indices. k < 1 or k past the axis takes the whole
// axis. Ties keep input order (the lower index first) in both directions
// and NaN counts as the largest value, as graft.sort does. `ret_type` says
// which outputs there are: "both" (values, indices), "values" or "indices".
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <algorithm>

namespace graft::kernels::cpu {
namespace {

int64_t axisLength(const KernelArgs &args) {
  if (args.inputs.empty() || !args.inputs[0])
    return -1;
  const DLTensor &t = *args.inputs[0];
  int64_t axis = -1;
  if (args.attrs.size() > 1 && std::holds_alternative<int64_t>(args.attrs[1]))
    axis = std::get<int64_t>(args.attrs[1]);
  if (t.ndim == 0)
    return 1;
  if (axis < 0)
    axis += t.ndim;
  if (axis < 0 || axis >= t.ndim)
    return -1;
  return t.shape[axis];
}

/// Scratch: one row's values (as compute values) and its permutation.
size_t topkWorkspace(const KernelArgs &args) {
  int64_t n = axisLength(args);
  return n < 0 ? 0 : size_t(n) * 16 + 16;
}

/// "a before b": larger first when `largest`, NaN counting as the largest.
template <class C> bool before(C a, C b, bool largest) {
  if constexpr (std::is_floating_point_v<C>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb)
      return largest ? na && !nb : nb && !na;
  }
  return largest ? b < a : a < b;
}

llvm::Error topkKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.topk");
  if (!ctx.checkArity(1, -1))
    return ctx.error();
  View in = ctx.inView(0);
  if (in.ndim() == 0) {
    in.shape = {1};
    in.strides = {0};
  }
  int64_t k = ctx.intAttr(0, "k", 1);
  auto axis = ctx.axis(ctx.intAttr(1, "axis", -1), in.ndim());
  std::string retType = ctx.strAttr(2, "ret_type", std::string("both"));
  bool largest = ctx.boolAttr(3, "largest", true);
  if (!axis || !ctx.ok())
    return ctx.error();
  bool values = retType == "both" || retType == "values";
  bool indices = retType == "both" || retType == "indices";
  if (!values && !indices)
    return ctx.reject("unknown ret_type '" + retType + "'");
  size_t want = size_t(values) + size_t(indices);
  if (ctx.numOut() != want)
    return ctx.reject("ret_type '" + retType + "' has " + llvm::Twine(want) + " outputs, got " +
                      llvm::Twine(ctx.numOut()));
  int64_t n = in.shape[*axis];
  if (k < 1 || k > n)
    k = n;
  Dims shape = shapeOf(ctx.in(0));
  if (!shape.empty())
    shape[*axis] = k;
  for (size_t i = 0; i < want; ++i)
    if (!ctx.expectOutShape(i, shape))
      return ctx.error();
  if (values && !ctx.expectSameType(ctx.outType(0), in.type, "output 0"))
    return ctx.error();
  size_t idxOut = values && indices ? 1 : 0;
  if (indices && ctx.outType(idxOut) == ScalarType::Bool)
    return ctx.reject("the indices' dtype must not be bool");
  if (!ctx.needWorkspace(topkWorkspace(args)))
    return ctx.error();
  // Outputs over the input's shape (only the first k of the axis written).
  View vOut = ctx.outView(0), iOut = ctx.outView(idxOut);
  for (View *o : {&vOut, &iOut}) {
    if (o->ndim() == 0) {
      o->shape = {1};
      o->strides = {0};
    }
    o->shape[*axis] = n;
  }
  int64_t si = in.strides[*axis], sv = vOut.strides[*axis], sx = iOut.strides[*axis];
  char *ws = alignUp(static_cast<char *>(args.workspace.data), 8);
  Storer<int64_t> storeIdx = storerFor<int64_t>(ctx.outType(idxOut));
  dispatch(in.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    auto *vals = reinterpret_cast<C *>(ws);
    auto *perm = reinterpret_cast<int64_t *>(ws + n * 8);
    forEachRow<3>({&in, &vOut, &iOut}, *axis, [&](const std::array<char *, 3> &p) {
      for (int64_t i = 0; i < n; ++i) {
        vals[i] = Elem<T>::load(p[0] + i * si);
        perm[i] = i;
      }
      // Position breaks ties, so the partial sort gives the stable order.
      std::partial_sort(perm, perm + k, perm + n, [&](int64_t a, int64_t b) {
        if (before(vals[a], vals[b], largest))
          return true;
        return !before(vals[b], vals[a], largest) && a < b;
      });
      for (int64_t i = 0; i < k; ++i) {
        if (values)
          Elem<T>::store(p[1] + i * sv, vals[perm[i]]);
        if (indices)
          storeIdx(p[2] + i * sx, perm[i]);
      }
    });
  });
  return llvm::Error::success();
}

const llvm::StringRef kTopkAttrs[] = {"k", "axis", "ret_type", "largest"};

} // namespace

void registerTopKKernels() {
  static const KernelInfo kernels[] = {
      {"graft.topk", 1, -1, kTopkAttrs, &topkKernel, &topkWorkspace},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
