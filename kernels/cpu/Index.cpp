//===- kernels/cpu/Index.cpp - Advanced indexing --------------------------===//
//
// index_tensor and index_put with integer index tensors (broadcast
// together, numpy advanced indexing over the leading dims) or one boolean
// mask over the leading dims, and nonzero. A mask's output size depends on
// the data, so those kernels come as a count kernel (0-d int64 output) and
// a fill kernel under graft.host.*: the caller sizes the output between
// the two.
//
// Both index forms reduce to a sequence of "targets": the leading
// coordinates each index position selects, visited in row-major order of
// the index (or mask) positions. Every kernel validates all indices before
// it writes anything, so an error leaves the output untouched.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

/// Calls fn(slice, flatBase) for each target of `view`'s leading dims:
/// `slice` points at the selected sub-tensor, `flatBase` is its row-major
/// element offset in `view`.
using TargetFn = llvm::function_ref<void(char *, int64_t)>;

/// How a kernel's index inputs select leading dims of a tensor.
struct Selection {
  bool isMask = false;
  int64_t k = 0;                  ///< Leading dims consumed.
  Dims leadShape;                 ///< Broadcast index shape, or {count} for a mask.
  llvm::SmallVector<View, 4> idx; ///< Index views broadcast to leadShape.
  View mask;
  int64_t count = 0; ///< True entries of the mask.

  /// The shape of the selected values: leadShape + the dims after k.
  Dims valueShape(const View &v) const {
    Dims s = leadShape;
    s.append(v.shape.begin() + k, v.shape.end());
    return s;
  }
};

int64_t countTrue(const View &v) {
  Loader<bool> l = loaderFor<bool>(v.type);
  int64_t n = 0;
  forEach<1>(v.shape, {&v}, [&](const std::array<char *, 1> &p) { n += l(p[0]); });
  return n;
}

/// Reads inputs [first, first+num) as the index of `target` and checks
/// them: integers broadcast together (every value in range), or a single
/// bool mask shaped like the leading dims.
std::optional<Selection> planSelection(Ctx &ctx, const View &target, size_t first, size_t num) {
  Selection s;
  if (num == 0) {
    ctx.fail("needs at least one index tensor");
    return std::nullopt;
  }
  if (ctx.inType(first) == ScalarType::Bool) {
    if (num != 1) {
      ctx.fail("takes a boolean mask only as its single index");
      return std::nullopt;
    }
    s.isMask = true;
    s.mask = ctx.inView(first);
    s.k = s.mask.ndim();
    llvm::ArrayRef<int64_t> lead(target.shape);
    if (s.k > target.ndim() || lead.take_front(s.k) != llvm::ArrayRef<int64_t>(s.mask.shape)) {
      ctx.fail("mask shape " + shapeStr(s.mask.shape) + " does not match the leading dims of " +
               shapeStr(target.shape));
      return std::nullopt;
    }
    s.count = countTrue(s.mask);
    s.leadShape = {s.count};
    return s;
  }
  s.k = int64_t(num);
  if (s.k > target.ndim()) {
    ctx.fail(llvm::Twine(num) + " index tensors for a tensor of rank " +
             llvm::Twine(target.ndim()));
    return std::nullopt;
  }
  llvm::SmallVector<Dims, 4> shapes;
  for (size_t i = first; i < first + num; ++i) {
    if (!isIntType(ctx.inType(i))) {
      ctx.fail("index " + llvm::Twine(i - first) + " has dtype " +
               dtypeName(dlTypeOf(ctx.inType(i))) + "; indices are integers or a single bool mask");
      return std::nullopt;
    }
    shapes.push_back(ctx.inView(i).shape);
  }
  auto lead = broadcastShapes(ctx, shapes);
  if (!lead)
    return std::nullopt;
  s.leadShape = *lead;
  for (size_t i = first; i < first + num; ++i) {
    View v = ctx.inView(i);
    // Every value in range, checked once before any write.
    Loader<int64_t> l = loaderFor<int64_t>(v.type);
    int64_t n = target.shape[i - first];
    std::optional<int64_t> bad;
    forEach<1>(v.shape, {&v}, [&](const std::array<char *, 1> &p) {
      int64_t x = l(p[0]);
      if (!bad && (x < -n || x >= n))
        bad = x;
    });
    if (bad) {
      ctx.fail("index " + llvm::Twine(*bad) + " is out of range for dim " + llvm::Twine(i - first) +
               " of size " + llvm::Twine(n));
      return std::nullopt;
    }
    s.idx.push_back(*ctx.broadcast(v, s.leadShape, "index"));
  }
  return s;
}

/// Visits the targets of `sel` in `view` in order (see TargetFn).
void forEachTarget(const Selection &sel, const View &view, TargetFn fn) {
  Dims lead;
  for (int64_t d = 0; d < sel.k; ++d)
    lead.push_back(d);
  View leadView = view.select(lead);
  int64_t restNumel = 1;
  for (int64_t d = sel.k; d < view.ndim(); ++d)
    restNumel *= view.shape[d];
  if (sel.isMask) {
    Loader<bool> l = loaderFor<bool>(sel.mask.type);
    int64_t pos = 0;
    forEach<2>(sel.mask.shape, {&sel.mask, &leadView}, [&](const std::array<char *, 2> &p) {
      if (l(p[0]))
        fn(p[1], pos * restNumel);
      ++pos;
    });
    return;
  }
  Dims rm = contiguousStrides(view.shape, 1); // Row-major element strides.
  llvm::SmallVector<RowMajorCursor, 4> cursors;
  llvm::SmallVector<Loader<int64_t>, 4> loads;
  for (const View &v : sel.idx) {
    cursors.emplace_back(v);
    loads.push_back(loaderFor<int64_t>(v.type));
  }
  for (int64_t i = 0, n = numelOf(sel.leadShape); i < n; ++i) {
    char *p = view.data;
    int64_t flat = 0;
    for (int64_t d = 0; d < sel.k; ++d) {
      int64_t x = loads[d](cursors[d].get());
      if (x < 0)
        x += view.shape[d];
      p += x * view.strides[d];
      flat += x * rm[d];
      cursors[d].next();
    }
    fn(p, flat);
  }
}

/// The sub-tensor view (dims after k) of `v` starting at `data`.
View restView(const View &v, int64_t k, char *data) {
  Dims rest;
  for (int64_t d = k; d < v.ndim(); ++d)
    rest.push_back(d);
  View r = v.select(rest);
  r.data = data;
  return r;
}

/// Rows of a view over (lead dims, rest dims), visited in row-major order
/// of the lead dims.
class RowWalker {
public:
  RowWalker(const View &v, int64_t leadRank)
      : leadView(leadOf(v, leadRank)), cur(leadView), rest(restView(v, leadRank, v.data)) {}
  View next() {
    View r = rest;
    r.data = cur.get();
    cur.next();
    return r;
  }

private:
  static View leadOf(const View &v, int64_t n) {
    Dims lead;
    for (int64_t d = 0; d < n; ++d)
      lead.push_back(d);
    return v.select(lead);
  }
  View leadView;
  RowMajorCursor cur;
  View rest;
};

/// index_tensor with integer indices and the mask fill kernel.
llvm::Error indexTensor(const KernelArgs &args, llvm::StringRef symbol, bool wantMask) {
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(-1, 1, 2))
    return ctx.error();
  View data = ctx.inView(0);
  if (!ctx.expectSameType(ctx.outType(0), data.type, "output 0"))
    return ctx.error();
  auto sel = planSelection(ctx, data, 1, ctx.numIn() - 1);
  if (!sel)
    return ctx.error();
  if (sel->isMask != wantMask)
    return ctx.reject(wantMask ? "takes one bool mask; use graft.index_tensor "
                                 "for integer indices"
                               : "takes integer indices; use "
                                 "graft.host.index_tensor_mask for a bool mask");
  if (!ctx.expectOutShape(0, sel->valueShape(data)))
    return ctx.error();
  RowWalker rows(ctx.outView(0), int64_t(sel->leadShape.size()));
  forEachTarget(*sel, data, [&](char *slice, int64_t) {
    copySameShape(restView(data, sel->k, slice), rows.next());
  });
  return llvm::Error::success();
}

llvm::Error indexTensorKernel(const KernelArgs &args) {
  return indexTensor(args, "graft.index_tensor", false);
}
llvm::Error indexTensorMaskKernel(const KernelArgs &args) {
  return indexTensor(args, "graft.host.index_tensor_mask", true);
}

/// Writes a count into a 0-d int64 output.
bool storeCount(Ctx &ctx, int64_t n) {
  if (!ctx.expectSameType(ctx.outType(0), ScalarType::Int64, "output 0") ||
      !ctx.expectOutShape(0, {}))
    return false;
  Elem<int64_t>::store(ctx.outView(0).data, n);
  return true;
}

llvm::Error maskCountKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.index_tensor_mask_count");
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.inType(0), ScalarType::Bool, "input 0") ||
      !storeCount(ctx, countTrue(ctx.inView(0))))
    return ctx.error();
  return llvm::Error::success();
}

llvm::Error nonzeroCountKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.nonzero_count");
  if (!ctx.checkArity(1, 1) || !storeCount(ctx, countTrue(ctx.inView(0))))
    return ctx.error();
  return llvm::Error::success();
}

/// nonzero: an int64 [ndim, count] output whose column j holds the index
/// of the j-th nonzero element in row-major order (TVM's layout).
llvm::Error nonzeroKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.nonzero");
  if (!ctx.checkArity(1, 1) || !ctx.expectSameType(ctx.outType(0), ScalarType::Int64, "output 0"))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  if (!ctx.expectOutShape(0, {in.ndim(), countTrue(in)}))
    return ctx.error();
  Loader<bool> l = loaderFor<bool>(in.type);
  int64_t j = 0;
  forEachIndex(in.shape, [&](llvm::ArrayRef<int64_t> idx) {
    if (!l(in.ptr(idx)))
      return;
    for (int64_t d = 0; d < in.ndim(); ++d)
      Elem<int64_t>::store(out.ptr({d, j}), idx[d]);
    ++j;
  });
  return llvm::Error::success();
}

/// index_put's scratch: one accumulator and one flag per data element
/// (plus alignment slack), used only when accumulating (duplicates sum in the accumulator type).
size_t indexPutWorkspace(const KernelArgs &args) {
  bool accumulate = !args.attrs.empty() && std::holds_alternative<bool>(args.attrs[0]) &&
                    std::get<bool>(args.attrs[0]);
  if (!accumulate || args.inputs.empty() || !args.inputs[0])
    return 0;
  return size_t(numelOf(shapeOf(*args.inputs[0]))) * 9 + 8;
}

/// Adds values into `out` through per-element accumulators, so repeated
/// targets sum in float for half types and round once, in index order.
template <class T>
void accumulateInto(const Selection &sel, const View &out, const View &vals, char *scratch) {
  using A = Acc<T>;
  int64_t n = out.numel();
  A *acc = reinterpret_cast<A *>(alignUp(scratch, 8));
  auto *touched = reinterpret_cast<uint8_t *>(acc + n);
  std::memset(touched, 0, size_t(n));
  RowWalker rows(vals, int64_t(sel.leadShape.size()));
  forEachTarget(sel, out, [&](char *, int64_t base) {
    View v = rows.next();
    int64_t e = base;
    forEach<1>(v.shape, {&v}, [&](const std::array<char *, 1> &p) {
      A cur = touched[e] ? acc[e] : A(Elem<T>::load(out.elementAt(e)));
      acc[e] = addC(cur, A(Elem<T>::load(p[0])));
      touched[e++] = 1;
    });
  });
  for (int64_t e = 0; e < n; ++e)
    if (touched[e])
      Elem<T>::store(out.elementAt(e), acc[e]);
}

/// index_put(data, indices..., values; accumulate): out is data with the
/// selected elements replaced (last write wins) or incremented by values,
/// which broadcast to the selected shape.
llvm::Error indexPutKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.index_put");
  if (!ctx.checkArity(-1, 1, 3))
    return ctx.error();
  bool accumulate = ctx.boolAttr(0, "accumulate", false);
  View data = ctx.inView(0), out = ctx.outView(0);
  size_t last = ctx.numIn() - 1;
  if (!ctx.ok() || !ctx.expectSameType(ctx.inType(last), data.type, "values") ||
      !ctx.expectSameType(out.type, data.type, "output 0") || !ctx.expectOutShape(0, data.shape))
    return ctx.error();
  auto sel = planSelection(ctx, out, 1, last - 1);
  if (!sel)
    return ctx.error();
  auto vals = ctx.broadcast(ctx.inView(last), sel->valueShape(data), "values");
  if (!vals)
    return ctx.error();
  if (accumulate && !ctx.needWorkspace(indexPutWorkspace(args)))
    return ctx.error();
  copySameShape(data, out);
  if (accumulate) {
    if (data.type == ScalarType::Bool)
      return ctx.reject("cannot accumulate bool");
    dispatch(data.type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      accumulateInto<T>(*sel, out, *vals, static_cast<char *>(args.workspace.data));
    });
    return llvm::Error::success();
  }
  RowWalker rows(*vals, int64_t(sel->leadShape.size()));
  forEachTarget(*sel, out, [&](char *slice, int64_t) {
    copySameShape(rows.next(), restView(out, sel->k, slice));
  });
  return llvm::Error::success();
}

const llvm::StringRef kIndexPutAttrs[] = {"accumulate"};

} // namespace

void registerIndexKernels() {
  static const KernelInfo kernels[] = {
      {"graft.index_tensor", -1, 1, {}, &indexTensorKernel},
      {"graft.host.index_tensor_mask_count", 1, 1, {}, &maskCountKernel},
      {"graft.host.index_tensor_mask", 2, 1, {}, &indexTensorMaskKernel},
      {"graft.index_put", -1, 1, kIndexPutAttrs, &indexPutKernel, &indexPutWorkspace},
      {"graft.host.nonzero_count", 1, 1, {}, &nonzeroCountKernel},
      {"graft.host.nonzero", 1, 1, {}, &nonzeroKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
