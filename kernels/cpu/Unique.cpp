//===- kernels/cpu/Unique.cpp - unique: the distinct values or slices -----===//
//
// unique (TVM's relax.unique, numpy's np.unique) over "items": the elements
// of x in row-major order when no axis is given, else the slices of x along
// the axis, compared lexicographically in the row-major order of the other
// axes. Items are loaded once into the workspace as compute values, their
// positions sorted by (value, position), and runs of equal items form the
// groups: the first position of a run is its first occurrence. NaN orders
// above every number and equals every NaN (numpy's equal_nan); -0.0 equals
// +0.0 and the first occurrence's bits are kept.
//
// graft.host.unique_count (x; axis) writes the number of groups into a 0-d
// int64; vm/HostKernels.cpp sizes the outputs from it and calls
// graft.host.unique (x; sorted, return_index, return_inverse,
// return_counts, axis), which writes the values, then int64 index (first
// occurrence of each), inverse (each item's group) and counts, as
// requested. sorted = false orders the groups by first occurrence, as TVM's
// runtime does.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace graft::kernels::cpu {
namespace {

enum UniqueAttr : size_t { kSorted, kReturnIndex, kReturnInverse, kReturnCounts, kAxis };
const llvm::StringRef kUniqueAttrs[] = {"sorted", "return_index", "return_inverse", "return_counts",
                                        "axis"};
const llvm::StringRef kUniqueCountAttrs[] = {"axis"};

/// x as `n` items of `m` elements, which `view` visits in row-major
/// order: x itself when there is no axis, else x with the axis moved first.
struct Items {
  View view;
  int64_t n = 0, m = 1;
  bool byAxis = false;
  int64_t axis = 0;
};

/// The items of input 0; `axisAttr` is the attribute index of the axis.
std::optional<Items> itemsOf(Ctx &ctx, size_t axisAttr) {
  View x = ctx.inView(0);
  Items items;
  if (!ctx.hasAttr(axisAttr)) {
    items.n = x.numel();
    items.view = x;
    return items;
  }
  if (x.ndim() == 0) {
    ctx.fail("axis " + llvm::Twine(ctx.intAttr(axisAttr, "axis")) + " given for a 0-d input");
    return std::nullopt;
  }
  auto axis = ctx.axis(ctx.intAttr(axisAttr, "axis"), x.ndim());
  if (!axis)
    return std::nullopt;
  Dims perm{*axis};
  for (int64_t d = 0; d < x.ndim(); ++d)
    if (d != *axis)
      perm.push_back(d);
  items.view = x.permuted(perm);
  items.n = x.shape[*axis];
  items.m = numelOf(llvm::ArrayRef<int64_t>(items.view.shape).drop_front());
  items.byAxis = true;
  items.axis = *axis;
  return items;
}

/// The compute values (at most 8 bytes each), `arrays` int64 per item plus
/// one (the groups' end) and alignment slack. There are at most
/// max(numel, largest dim) items (an axis of an empty tensor can have
/// items of no elements).
size_t workspaceFor(const DLTensor *x, size_t arrays) {
  if (!x)
    return 0;
  int64_t numel = numelOf(shapeOf(*x)), items = numel;
  for (int d = 0; d < x->ndim; ++d)
    items = std::max(items, x->shape[d]);
  return size_t(numel) * 8 + (size_t(items) * arrays + 1) * 8 + 16;
}
size_t uniqueWorkspace(const KernelArgs &args) {
  return args.inputs.empty() ? 0 : workspaceFor(args.inputs[0], 4);
}
size_t uniqueCountWorkspace(const KernelArgs &args) {
  return args.inputs.empty() ? 0 : workspaceFor(args.inputs[0], 2);
}

/// -1, 0 or 1: a before, equal to or after b; NaN last and equal to NaN.
template <class C> int compareValues(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb)
      return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

/// The items sorted into groups of equal items, in the workspace.
struct Groups {
  int64_t *order = nullptr;  ///< Item positions sorted by (value, position).
  int64_t *starts = nullptr; ///< Each group's first index into `order`, then n.
  int64_t groups = 0;
  int64_t count() const { return groups; }
  int64_t first(int64_t g) const { return order[starts[g]]; }
  int64_t size(int64_t g) const { return starts[g + 1] - starts[g]; }
};

template <class T> Groups groupItems(const Items &items, char *workspace) {
  using C = Compute<T>;
  auto *vals = reinterpret_cast<C *>(alignUp(workspace, 8));
  Groups g;
  g.order =
      reinterpret_cast<int64_t *>(alignUp(reinterpret_cast<char *>(vals + items.n * items.m), 8));
  int64_t e = 0;
  forEach<1>(items.view.shape, {&items.view},
             [&](const std::array<char *, 1> &p) { vals[e++] = Elem<T>::load(p[0]); });
  int64_t m = items.m;
  auto compareItems = [&](int64_t a, int64_t b) {
    for (int64_t j = 0; j < m; ++j)
      if (int c = compareValues(vals[a * m + j], vals[b * m + j]))
        return c;
    return 0;
  };
  for (int64_t i = 0; i < items.n; ++i)
    g.order[i] = i;
  // Ties broken by position make the order total: each run starts at its
  // first occurrence without a stable sort's buffer.
  std::sort(g.order, g.order + items.n, [&](int64_t a, int64_t b) {
    int c = compareItems(a, b);
    return c ? c < 0 : a < b;
  });
  g.starts = g.order + items.n;
  for (int64_t i = 0; i < items.n; ++i)
    if (i == 0 || compareItems(g.order[i - 1], g.order[i]) != 0)
      g.starts[g.groups++] = i;
  g.starts[g.groups] = items.n;
  return g;
}

Groups groupsOf(const Ctx &ctx, const Items &items) {
  return dispatch(ctx.inType(0), [&](auto tag) {
    return groupItems<typename decltype(tag)::type>(items,
                                                    static_cast<char *>(ctx.args.workspace.data));
  });
}

llvm::Error uniqueCountKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.unique_count");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  auto items = itemsOf(ctx, 0);
  if (!items || !ctx.expectSameType(ctx.outType(0), ScalarType::Int64, "output 0") ||
      !ctx.expectOutShape(0, {}) || !ctx.needWorkspace(uniqueCountWorkspace(args)))
    return ctx.error();
  Elem<int64_t>::store(ctx.outView(0).data, groupsOf(ctx, *items).count());
  return llvm::Error::success();
}

/// Writes `v` to element i of the 1-d int64 output `out`.
void storeAt(const View &out, int64_t i, int64_t v) {
  Elem<int64_t>::store(out.data + i * out.strides[0], v);
}

llvm::Error uniqueKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.unique");
  if (!ctx.checkArity(1, -1))
    return ctx.error();
  bool sorted = ctx.boolAttr(kSorted, "sorted", true);
  bool wants[3] = {ctx.boolAttr(kReturnIndex, "return_index", false),
                   ctx.boolAttr(kReturnInverse, "return_inverse", false),
                   ctx.boolAttr(kReturnCounts, "return_counts", false)};
  auto items = itemsOf(ctx, kAxis);
  if (!items)
    return ctx.error();
  size_t numOutputs = 1 + size_t(wants[0]) + size_t(wants[1]) + size_t(wants[2]);
  if (ctx.numOut() != numOutputs)
    return ctx.reject(llvm::Twine("the return flags ask for ") + llvm::Twine(numOutputs) +
                      " outputs, got " + llvm::Twine(ctx.numOut()));
  if (!ctx.needWorkspace(uniqueWorkspace(args)))
    return ctx.error();
  Groups groups = groupsOf(ctx, *items);
  int64_t u = groups.count();

  // The output order of the groups: sorted, or by first occurrence.
  int64_t *rankOf = groups.starts + items->n + 1; // Group -> output position.
  int64_t *byRank = rankOf + items->n;            // Output position -> group.
  for (int64_t g = 0; g < u; ++g)
    byRank[g] = g;
  if (!sorted)
    std::sort(byRank, byRank + u,
              [&](int64_t a, int64_t b) { return groups.first(a) < groups.first(b); });
  for (int64_t r = 0; r < u; ++r)
    rankOf[byRank[r]] = r;

  View x = ctx.inView(0);
  Dims valuesShape{u};
  if (items->byAxis) {
    valuesShape = shapeOf(ctx.in(0));
    valuesShape[items->axis] = u;
  }
  if (!ctx.expectSameType(ctx.outType(0), x.type, "output 0") ||
      !ctx.expectOutShape(0, valuesShape))
    return ctx.error();
  size_t next = 1;
  int64_t lengths[3] = {u, items->n, u};
  View ints[3];
  for (int k = 0; k < 3; ++k) {
    if (!wants[k])
      continue;
    if (!ctx.expectSameType(ctx.outType(next), ScalarType::Int64, "output " + llvm::Twine(next)) ||
        !ctx.expectOutShape(next, {lengths[k]}))
      return ctx.error();
    ints[k] = ctx.outView(next++);
  }

  View values = ctx.outView(0);
  for (int64_t r = 0; r < u; ++r) {
    int64_t g = byRank[r], item = groups.first(g);
    if (items->byAxis)
      copySameShape(x.at(items->axis, item), values.at(items->axis, r));
    else
      std::memcpy(values.data + r * values.strides[0], x.elementAt(item), size_t(x.elemSize()));
    if (wants[0])
      storeAt(ints[0], r, item);
    if (wants[2])
      storeAt(ints[2], r, groups.size(g));
  }
  if (wants[1])
    for (int64_t g = 0; g < u; ++g)
      for (int64_t p = groups.starts[g]; p < groups.starts[g + 1]; ++p)
        storeAt(ints[1], groups.order[p], rankOf[g]);
  return llvm::Error::success();
}

} // namespace

void registerUniqueKernels() {
  static const KernelInfo kernels[] = {
      {"graft.host.unique_count", 1, 1, kUniqueCountAttrs, &uniqueCountKernel,
       &uniqueCountWorkspace},
      {"graft.host.unique", 1, -1, kUniqueAttrs, &uniqueKernel, &uniqueWorkspace},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
