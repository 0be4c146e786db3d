//===- kernels/cpu/Layout.cpp - Data movement kernels ---------------------===//
//
// permute_dims, reshape, flatten, expand_dims, squeeze, broadcast_to,
// concat, split, strided_slice, take, tril and triu. Each builds a strided
// view of the source that matches the destination and copies; none
// converts dtypes.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

/// Checks that every input and output has input 0's dtype.
bool sameTypes(Ctx &ctx) {
  ScalarType t = ctx.inType(0);
  for (size_t i = 1; i < ctx.numIn(); ++i)
    if (!ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return false;
  for (size_t i = 0; i < ctx.numOut(); ++i)
    if (!ctx.expectSameType(ctx.outType(i), t, "output " + llvm::Twine(i)))
      return false;
  return true;
}

llvm::Error permuteDimsKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.permute_dims");
  if (!ctx.checkArity(1, 1) || !sameTypes(ctx))
    return ctx.error();
  View in = ctx.inView(0);
  Dims axes = ctx.intListAttr(0, "axes");
  if (!ctx.hasAttr(0)) // Unset: reverse the dims, as numpy's transpose.
    for (int64_t d = in.ndim() - 1; d >= 0; --d)
      axes.push_back(d);
  if (int64_t(axes.size()) != in.ndim())
    return ctx.reject("axes " + shapeStr(axes) + " do not match rank " + llvm::Twine(in.ndim()));
  auto sorted = normalizeAxes(ctx, axes, in.ndim());
  if (!sorted)
    return ctx.error();
  for (int64_t &a : axes)
    a = a < 0 ? a + in.ndim() : a;
  View src = in.permuted(axes);
  if (!ctx.expectOutShape(0, src.shape))
    return ctx.error();
  copySameShape(src, ctx.outView(0));
  return llvm::Error::success();
}

/// The output shape a shape-only op gives, for checking the output.
using ShapeRule = std::optional<Dims> (*)(Ctx &, const View &);

std::optional<Dims> reshapeRule(Ctx &ctx, const View &in) {
  Dims out = shapeOf(ctx.out(0));
  if (numelOf(out) != in.numel()) {
    ctx.fail("cannot reshape " + shapeStr(in.shape) + " (" + llvm::Twine(in.numel()) +
             " elements) to " + shapeStr(out));
    return std::nullopt;
  }
  return out;
}

std::optional<Dims> flattenRule(Ctx &, const View &in) { return Dims{in.numel()}; }

std::optional<Dims> expandDimsRule(Ctx &ctx, const View &in) {
  Dims axes = ctx.intListAttr(0, "axis");
  int64_t rank = in.ndim() + int64_t(axes.size());
  auto sorted = normalizeAxes(ctx, axes, rank);
  if (!sorted)
    return std::nullopt;
  Dims out;
  for (int64_t d = 0, src = 0; d < rank; ++d)
    out.push_back(llvm::is_contained(*sorted, d) ? 1 : in.shape[src++]);
  return out;
}

/// squeeze: unset axis drops every unit dim; a listed dim that is not 1 is
/// kept, as TVM v0.23 does.
std::optional<Dims> squeezeRule(Ctx &ctx, const View &in) {
  std::optional<Dims> axes = Dims();
  if (ctx.hasAttr(0))
    axes = normalizeAxes(ctx, ctx.intListAttr(0, "axis"), in.ndim());
  if (!axes)
    return std::nullopt;
  Dims out;
  for (int64_t d = 0; d < in.ndim(); ++d) {
    bool listed = !ctx.hasAttr(0) || llvm::is_contained(*axes, d);
    if (!(listed && in.shape[d] == 1))
      out.push_back(in.shape[d]);
  }
  return out;
}

/// Ops that keep the row-major element order and change only the shape.
template <ShapeRule Rule> llvm::Error reshapeLike(const KernelArgs &args, llvm::StringRef symbol) {
  Ctx ctx(args, symbol);
  if (!ctx.checkArity(1, 1) || !sameTypes(ctx))
    return ctx.error();
  View in = ctx.inView(0);
  auto shape = Rule(ctx, in);
  if (!ctx.ok() || !shape || !ctx.expectOutShape(0, *shape))
    return ctx.error();
  copyRowMajor(in, ctx.outView(0));
  return llvm::Error::success();
}

llvm::Error reshapeKernel(const KernelArgs &a) {
  return reshapeLike<reshapeRule>(a, "graft.reshape");
}
llvm::Error flattenKernel(const KernelArgs &a) {
  return reshapeLike<flattenRule>(a, "graft.flatten");
}
llvm::Error expandDimsKernel(const KernelArgs &a) {
  return reshapeLike<expandDimsRule>(a, "graft.expand_dims");
}
llvm::Error squeezeKernel(const KernelArgs &a) {
  return reshapeLike<squeezeRule>(a, "graft.squeeze");
}

llvm::Error broadcastToKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.broadcast_to");
  if (!ctx.checkArity(1, 1) || !sameTypes(ctx))
    return ctx.error();
  View out = ctx.outView(0);
  auto src = ctx.broadcast(ctx.inView(0), out.shape, "input 0");
  if (!src)
    return ctx.error();
  copySameShape(*src, out);
  return llvm::Error::success();
}

/// concat(axis): unset axis concatenates the row-major flattenings.
llvm::Error concatKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.concat");
  if (!ctx.checkArity(-1, 1) || !sameTypes(ctx))
    return ctx.error();
  View out = ctx.outView(0);
  if (!ctx.hasAttr(0)) {
    // Unset axis: concatenate the row-major flattenings.
    int64_t total = 0;
    for (size_t i = 0; i < ctx.numIn(); ++i)
      total += ctx.inView(i).numel();
    if (!ctx.expectOutShape(0, Dims{total}))
      return ctx.error();
    int64_t at = 0;
    for (size_t i = 0; i < ctx.numIn(); ++i) {
      View in = ctx.inView(i);
      copyRowMajor(in, out.sliced(0, at, in.numel(), 1));
      at += in.numel();
    }
    return llvm::Error::success();
  }
  View first = ctx.inView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis"), first.ndim());
  if (!axis)
    return ctx.error();
  Dims shape = first.shape;
  shape[*axis] = 0;
  for (size_t i = 0; i < ctx.numIn(); ++i) {
    View in = ctx.inView(i);
    Dims want = shape;
    want[*axis] = in.ndim() == first.ndim() ? in.shape[*axis] : -1;
    if (llvm::ArrayRef<int64_t>(in.shape) != llvm::ArrayRef<int64_t>(want))
      return ctx.reject("input " + llvm::Twine(i) + " has shape " + shapeStr(in.shape) +
                        ", which does not match input 0 " + shapeStr(first.shape) +
                        " outside axis " + llvm::Twine(*axis));
    shape[*axis] += in.shape[*axis];
  }
  if (!ctx.expectOutShape(0, shape))
    return ctx.error();
  int64_t at = 0;
  for (size_t i = 0; i < ctx.numIn(); ++i) {
    View in = ctx.inView(i);
    copySameShape(in, out.sliced(*axis, at, in.shape[*axis], 1));
    at += in.shape[*axis];
  }
  return llvm::Error::success();
}

/// split(indices_or_sections, axis): an int gives that many equal parts,
/// a list gives split points; part i is [p_i, p_i+1) with numpy's slice
/// rules (negative points count from the end, a reversed pair is empty).
llvm::Error splitKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.split");
  if (!ctx.checkArity(1, -1) || !sameTypes(ctx))
    return ctx.error();
  View in = ctx.inView(0);
  auto axis = ctx.axis(ctx.intAttr(1, "axis", 0), in.ndim());
  if (!axis)
    return ctx.error();
  int64_t len = in.shape[*axis];
  Dims bounds{0};
  const AttrValue *spec = ctx.attr(0);
  if (spec && std::holds_alternative<int64_t>(*spec)) {
    int64_t parts = std::get<int64_t>(*spec);
    if (parts <= 0 || len % parts != 0)
      return ctx.reject("cannot split a dim of " + llvm::Twine(len) + " into " +
                        llvm::Twine(parts) + " equal sections");
    for (int64_t i = 1; i <= parts; ++i)
      bounds.push_back(len / parts * i);
  } else {
    for (int64_t b : ctx.intListAttr(0, "indices_or_sections"))
      bounds.push_back(std::clamp<int64_t>(b < 0 ? b + len : b, 0, len));
    bounds.push_back(len);
  }
  if (!ctx.ok())
    return ctx.error();
  if (bounds.size() - 1 != ctx.numOut())
    return ctx.reject("splits into " + llvm::Twine(bounds.size() - 1) + " parts but has " +
                      llvm::Twine(ctx.numOut()) + " outputs");
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    int64_t partLen = std::max<int64_t>(bounds[i + 1] - bounds[i], 0);
    View part = in.sliced(*axis, bounds[i], partLen, 1);
    if (!ctx.expectOutShape(i, part.shape))
      return ctx.error();
    copySameShape(part, ctx.outView(i));
  }
  return llvm::Error::success();
}

/// strided_slice(axes, begin, end, strides): unset strides are 1.
llvm::Error stridedSliceKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.strided_slice");
  if (!ctx.checkArity(1, 1) || !sameTypes(ctx))
    return ctx.error();
  View v = ctx.inView(0);
  Dims axes = ctx.intListAttr(0, "axes"), begin = ctx.intListAttr(1, "begin"),
       end = ctx.intListAttr(2, "end"), strides = ctx.intListAttr(3, "strides");
  if (strides.empty())
    strides.assign(axes.size(), 1);
  if (!ctx.ok())
    return ctx.error();
  if (begin.size() != axes.size() || end.size() != axes.size() || strides.size() != axes.size())
    return ctx.reject("axes, begin, end and strides must have one entry per "
                      "axis, got " +
                      llvm::Twine(axes.size()) + ", " + llvm::Twine(begin.size()) + ", " +
                      llvm::Twine(end.size()) + ", " + llvm::Twine(strides.size()));
  for (size_t i = 0; i < axes.size(); ++i) {
    auto axis = ctx.axis(axes[i], v.ndim());
    if (!axis)
      return ctx.error();
    if (strides[i] == 0)
      return ctx.reject("stride of axis " + llvm::Twine(axes[i]) + " is 0");
    auto [b, n] = sliceAxis(v.shape[*axis], begin[i], end[i], strides[i]);
    v = v.sliced(*axis, b, n, strides[i]);
  }
  if (!ctx.expectOutShape(0, v.shape))
    return ctx.error();
  copySameShape(v, ctx.outView(0));
  return llvm::Error::success();
}

/// take(axis, mode): "fast" (and unset) requires indices in [-n, n),
/// "wrap" takes them modulo n, "clip" clamps them, "nan" fills a float
/// output with NaN where an index is out of range.
llvm::Error takeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.take");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  View data = ctx.inView(0), idx = ctx.inView(1), out = ctx.outView(0);
  std::string mode = ctx.strAttr(1, "mode", std::string("fast"));
  if (!ctx.ok() || !ctx.expectSameType(ctx.outType(0), data.type, "output 0"))
    return ctx.error();
  if (!isIntType(idx.type))
    return ctx.reject("indices must be integers, got " + dtypeName(dlTypeOf(idx.type)));
  if (mode != "fast" && mode != "wrap" && mode != "clip" && mode != "nan")
    return ctx.reject("unknown mode '" + mode + "'");
  if (mode == "nan" && !isFloatType(data.type))
    return ctx.reject("mode 'nan' needs a floating-point tensor");
  if (!ctx.hasAttr(0)) {
    // Unset axis: index the row-major flattening.
    data.shape = {data.numel()};
    data.strides = {0}; // Unused: elements are found through elementAt.
  }
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 0), data.ndim());
  if (!axis)
    return ctx.error();
  Dims outShape(data.shape.begin(), data.shape.begin() + *axis);
  outShape.append(idx.shape.begin(), idx.shape.end());
  outShape.append(data.shape.begin() + *axis + 1, data.shape.end());
  if (!ctx.expectOutShape(0, outShape))
    return ctx.error();
  int64_t n = data.shape[*axis];
  Loader<int64_t> loadIdx = loaderFor<int64_t>(idx.type);
  // Validate every index before writing anything.
  if (mode == "fast" || (n == 0 && idx.numel() != 0 && mode != "nan")) {
    bool bad = false;
    int64_t badIdx = 0;
    forEach<1>(idx.shape, {&idx}, [&](const std::array<char *, 1> &p) {
      int64_t i = loadIdx(p[0]);
      if (!bad && (i < -n || i >= n || n == 0)) {
        bad = true;
        badIdx = i;
      }
    });
    if (bad)
      return ctx.reject("index " + llvm::Twine(badIdx) + " is out of range for a dim of " +
                        llvm::Twine(n));
  }
  // The output over the index dims; each index selects one slice.
  Dims idxDims, restDims;
  for (int64_t d = 0; d < out.ndim(); ++d)
    (d >= *axis && d < *axis + idx.ndim() ? idxDims : restDims).push_back(d);
  View outIdx = out.select(idxDims), outRest = out.select(restDims);
  View orig = ctx.inView(0);
  bool flat = !ctx.hasAttr(0);
  forEach<2>(idx.shape, {&outIdx, &idx}, [&](const std::array<char *, 2> &p) {
    int64_t i = loadIdx(p[1]);
    bool inRange = i >= -n && i < n;
    if (mode == "wrap")
      i = n ? ((i % n) + n) % n : 0;
    else if (mode == "clip")
      i = std::clamp<int64_t>(i, 0, n - 1);
    else if (i < 0)
      i += n;
    View dst = outRest;
    dst.data = p[0];
    if (mode == "nan" && !inRange) {
      dispatch(data.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        forEach<1>(dst.shape, {&dst}, [](const std::array<char *, 1> &q) {
          Elem<T>::store(q[0], castTo<Compute<T>>(NAN));
        });
      });
      return;
    }
    if (flat) {
      std::memcpy(dst.data, orig.elementAt(i), data.elemSize());
      return;
    }
    copySameShape(data.at(*axis, i), dst);
  });
  return llvm::Error::success();
}

/// tril/triu(k): keeps the elements of the last two dims with j - i <= k
/// (tril) or j - i >= k (triu), zeroes the rest.
template <bool Upper> llvm::Error triKernel(const KernelArgs &args) {
  Ctx ctx(args, Upper ? "graft.triu" : "graft.tril");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  int64_t k = ctx.intAttr(0, "k", 0);
  if (!ctx.ok() || !ctx.expectSameType(out.type, in.type, "output 0"))
    return ctx.error();
  if (in.ndim() < 2)
    return ctx.reject("needs at least 2 dims, got shape " + shapeStr(in.shape));
  if (!ctx.expectOutShape(0, in.shape))
    return ctx.error();
  int64_t r = in.ndim() - 2, c = in.ndim() - 1, size = in.elemSize();
  forEachIndex(in.shape, [&](llvm::ArrayRef<int64_t> idx) {
    int64_t diff = idx[c] - idx[r];
    bool keep = Upper ? diff >= k : diff <= k;
    char *dst = out.ptr(idx);
    if (keep)
      std::memmove(dst, in.ptr(idx), size);
    else
      std::memset(dst, 0, size); // Zero bits are 0 in every dtype.
  });
  return llvm::Error::success();
}

const llvm::StringRef kAxesAttrs[] = {"axes"};
const llvm::StringRef kTriAttrs[] = {"k"};
const llvm::StringRef kAxisAttrs[] = {"axis"};
const llvm::StringRef kSplitAttrs[] = {"indices_or_sections", "axis"};
const llvm::StringRef kSliceAttrs[] = {"axes", "begin", "end", "strides"};
const llvm::StringRef kTakeAttrs[] = {"axis", "mode"};

} // namespace

void registerLayoutKernels() {
  static const KernelInfo kernels[] = {
      {"graft.permute_dims", 1, 1, kAxesAttrs, &permuteDimsKernel},
      {"graft.reshape", 1, 1, {}, &reshapeKernel},
      {"graft.flatten", 1, 1, {}, &flattenKernel},
      {"graft.expand_dims", 1, 1, kAxisAttrs, &expandDimsKernel},
      {"graft.squeeze", 1, 1, kAxisAttrs, &squeezeKernel},
      {"graft.broadcast_to", 1, 1, {}, &broadcastToKernel},
      {"graft.concat", -1, 1, kAxisAttrs, &concatKernel},
      {"graft.split", 1, -1, kSplitAttrs, &splitKernel},
      {"graft.strided_slice", 1, 1, kSliceAttrs, &stridedSliceKernel},
      {"graft.take", 2, 1, kTakeAttrs, &takeKernel},
      {"graft.tril", 1, 1, kTriAttrs, &triKernel<false>},
      {"graft.triu", 1, 1, kTriAttrs, &triKernel<true>},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
