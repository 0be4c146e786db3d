//===- kernels/cpu/Movement.cpp - repeat, tile, flip, stack, meshgrid, one_hot, ... -===//
//
// Data movement without dtype conversion, as TOPI's repeat, tile, flip,
// stack, meshgrid and dynamic_strided_slice, and relax.layout_transform;
// one_hot writes one of two values by comparing indices. dynamic_strided_slice's output shape
// depends on the values of begin/end/strides, so it runs as a host form (docs/kernels.md,
// "Data-dependent kernels"): `graft.host.dynamic_strided_slice_count` writes the output's shape,
// the caller allocates, the fill kernel copies.
//
//===----------------------------------------------------------------------===//

#include "kernels/IndexMapPlan.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

#include <cstring>

namespace graft::kernels::cpu {
namespace {

bool sameType(Ctx &ctx) { return ctx.expectSameType(ctx.outType(0), ctx.inType(0), "output 0"); }

/// repeat(repeats, axis): each element `repeats` times in a row along
/// `axis`; unset axis repeats the row-major flattening into a 1-D output.
llvm::Error repeatKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.repeat");
  if (!ctx.checkArity(1, 1) || !sameType(ctx))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  int64_t r = ctx.intAttr(0, "repeats");
  if (!ctx.ok())
    return ctx.error();
  if (r < 0)
    return ctx.reject("repeats must not be negative, got " + llvm::Twine(r));
  int64_t size = in.elemSize();
  if (!ctx.hasAttr(1)) {
    if (!ctx.expectOutShape(0, Dims{in.numel() * r}))
      return ctx.error();
    if (r == 0 || in.numel() == 0)
      return llvm::Error::success();
    RowMajorCursor src(in);
    int64_t so = out.strides[0];
    char *dst = out.data;
    for (int64_t i = 0, n = in.numel(); i < n; ++i, src.next())
      for (int64_t j = 0; j < r; ++j, dst += so)
        std::memcpy(dst, src.get(), size);
    return llvm::Error::success();
  }
  auto axis = ctx.axis(ctx.intAttr(1, "axis"), in.ndim());
  if (!axis)
    return ctx.error();
  Dims shape = in.shape;
  shape[*axis] *= r;
  if (!ctx.expectOutShape(0, shape))
    return ctx.error();
  // Output index i along the axis reads input index i / r.
  View outSplit = out;
  outSplit.shape[*axis] = in.shape[*axis];
  outSplit.strides[*axis] = out.strides[*axis] * r;
  for (int64_t j = 0; j < r; ++j) {
    View dst = outSplit;
    dst.data += j * out.strides[*axis];
    copySameShape(in, dst);
  }
  return llvm::Error::success();
}

/// tile(repeats): numpy's tile; the shorter of the rank and `repeats` is
/// padded with leading 1s.
llvm::Error tileKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.tile");
  if (!ctx.checkArity(1, 1) || !sameType(ctx))
    return ctx.error();
  View in = ctx.inView(0), out = ctx.outView(0);
  Dims reps = ctx.intListAttr(0, "repeats");
  if (!ctx.ok())
    return ctx.error();
  for (int64_t r : reps)
    if (r < 0)
      return ctx.reject("repeats " + shapeStr(reps) + " must not be negative");
  int64_t rank = std::max<int64_t>(in.ndim(), int64_t(reps.size()));
  while (in.ndim() < rank) {
    in.shape.insert(in.shape.begin(), 1);
    in.strides.insert(in.strides.begin(), 0);
  }
  while (int64_t(reps.size()) < rank)
    reps.insert(reps.begin(), 1);
  Dims shape = in.shape;
  for (int64_t d = 0; d < rank; ++d)
    shape[d] *= reps[d];
  if (!ctx.expectOutShape(0, shape))
    return ctx.error();
  int64_t size = in.elemSize();
  Dims src(rank, 0);
  forEachIndex(shape, [&](llvm::ArrayRef<int64_t> idx) {
    for (int64_t d = 0; d < rank; ++d)
      src[d] = idx[d] % in.shape[d];
    std::memcpy(out.ptr(idx), in.ptr(src), size);
  });
  return llvm::Error::success();
}

/// flip(axis): reverses one axis.
llvm::Error flipKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.flip");
  if (!ctx.checkArity(1, 1) || !sameType(ctx))
    return ctx.error();
  View in = ctx.inView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis"), in.ndim());
  if (!axis || !ctx.expectOutShape(0, in.shape))
    return ctx.error();
  int64_t n = in.shape[*axis];
  copySameShape(in.sliced(*axis, n - 1, n, -1), ctx.outView(0));
  return llvm::Error::success();
}

/// Scratch of layout_transform: one mark per output element.
size_t layoutTransformWorkspace(const KernelArgs &args) {
  if (args.outputs.size() != 1 || !args.outputs[0])
    return 0;
  const DLTensor &t = *args.outputs[0];
  int64_t n = 1;
  for (int d = 0; d < t.ndim; ++d)
    n *= t.shape[d];
  return size_t(n);
}

/// The pad value in the output's dtype: the attribute's int, float or bool,
/// else 0 (TVM's legalization pads with 0 when pad_value is unset).
void storePad(Ctx &ctx, char *p) {
  const AttrValue *v = ctx.hasAttr(1) ? ctx.attr(1) : nullptr;
  ScalarType t = ctx.outType(0);
  if (v && std::holds_alternative<double>(*v))
    storerFor<double>(t)(p, std::get<double>(*v));
  else if (v && std::holds_alternative<bool>(*v))
    storerFor<int64_t>(t)(p, std::get<bool>(*v) ? 1 : 0);
  else
    storerFor<int64_t>(t)(p, v && std::holds_alternative<int64_t>(*v) ? std::get<int64_t>(*v) : 0);
}

/// layout_transform(index_map, pad_value): the element at input index x
/// goes to output index index_map(x); output elements no input maps to get
/// pad_value. The map runs forward, input by input (a scatter), and a mark
/// per output element records what was written: the forward map is what the
/// IR holds (its inverse exists only where the map is a bijection onto the
/// output box, and finding it takes TVM's iterator-map analysis), the
/// unmarked elements are exactly the padding, and a second write to one
/// element shows a map that is not injective, which TVM refuses as well.
llvm::Error layoutTransformKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.layout_transform");
  if (!ctx.checkArity(1, 1) || !sameType(ctx))
    return ctx.error();
  Dims program = ctx.intListAttr(0, "index_map");
  if (!ctx.ok())
    return ctx.error();
  if (ctx.hasAttr(1) && std::holds_alternative<std::string>(*ctx.attr(1)))
    return ctx.reject("pad_value must be a number");
  indexmap::IndexMapPlan plan;
  std::string why = indexmap::decodePlan(program.data(), program.size(), plan);
  if (!why.empty())
    return ctx.reject(why);
  View in = ctx.inView(0), out = ctx.outView(0);
  if (plan.numIn != in.ndim() || plan.numOut != out.ndim())
    return ctx.reject("the index map takes " + llvm::Twine(plan.numIn) + " indices to " +
                      llvm::Twine(plan.numOut) + ", but the input has rank " +
                      llvm::Twine(in.ndim()) + " and the output rank " + llvm::Twine(out.ndim()));
  if (!ctx.needWorkspace(layoutTransformWorkspace(args)))
    return ctx.error();
  auto *marks = static_cast<uint8_t *>(args.workspace.data);
  int64_t total = out.numel();
  if (total)
    std::memset(marks, 0, size_t(total));
  int64_t size = in.elemSize();
  int64_t src[indexmap::kMaxRank] = {}, dst[indexmap::kMaxRank] = {};
  bool ok = true;
  forEachIndex(in.shape, [&](llvm::ArrayRef<int64_t> idx) {
    if (!ok)
      return;
    std::copy(idx.begin(), idx.end(), src);
    indexmap::applyPlan(plan, src, dst);
    int64_t flat = 0;
    for (int64_t d = 0; d < out.ndim(); ++d) {
      if (dst[d] < 0 || dst[d] >= out.shape[d]) {
        ok = ctx.fail("the index map sends input index " + shapeStr(idx) + " to " +
                      shapeStr(llvm::ArrayRef<int64_t>(dst, out.ndim())) +
                      ", outside the output shape " + shapeStr(out.shape));
        return;
      }
      flat = flat * out.shape[d] + dst[d];
    }
    if (marks[flat]) {
      ok = ctx.fail("the index map sends two input indices to output index " +
                    shapeStr(llvm::ArrayRef<int64_t>(dst, out.ndim())) + " (the second is " +
                    shapeStr(idx) + "); it must be injective");
      return;
    }
    marks[flat] = 1;
    std::memcpy(out.ptr(llvm::ArrayRef<int64_t>(dst, out.ndim())), in.ptr(idx), size);
  });
  if (!ok)
    return ctx.error();
  alignas(8) char pad[8];
  storePad(ctx, pad);
  RowMajorCursor cursor(out);
  for (int64_t i = 0; i < total; ++i, cursor.next())
    if (!marks[i])
      std::memcpy(cursor.get(), pad, size);
  return llvm::Error::success();
}

/// dynamic_strided_slice's view of the data: begin/end/strides are 1-D
/// integer tensors of one length (at most the rank); the dims they do not
/// cover are kept whole, as TOPI does.
std::optional<View> dynamicSlice(Ctx &ctx) {
  View v = ctx.inView(0);
  const char *names[] = {"begin", "end", "strides"};
  int64_t len = -1;
  for (size_t i = 1; i < 4; ++i) {
    View p = ctx.inView(i);
    if (!isIntType(p.type)) {
      ctx.fail(llvm::Twine(names[i - 1]) + " must be integers, got " + dtypeName(dlTypeOf(p.type)));
      return std::nullopt;
    }
    if (p.ndim() != 1 || (len >= 0 && p.shape[0] != len) || p.shape[0] > v.ndim()) {
      ctx.fail("begin, end and strides must be 1-D of one length up to the rank " +
               llvm::Twine(v.ndim()) + ", got " + llvm::Twine(names[i - 1]) + " of shape " +
               shapeStr(p.shape));
      return std::nullopt;
    }
    len = p.shape[0];
  }
  View b = ctx.inView(1), e = ctx.inView(2), s = ctx.inView(3);
  Loader<int64_t> lb = loaderFor<int64_t>(b.type), le = loaderFor<int64_t>(e.type),
                  ls = loaderFor<int64_t>(s.type);
  for (int64_t d = 0; d < len; ++d) {
    int64_t step = ls(s.data + d * s.strides[0]);
    if (step == 0) {
      ctx.fail("stride of axis " + llvm::Twine(d) + " is 0");
      return std::nullopt;
    }
    auto [start, n] =
        sliceAxis(v.shape[d], lb(b.data + d * b.strides[0]), le(e.data + d * e.strides[0]), step);
    v = v.sliced(d, start, n, step);
  }
  return v;
}

llvm::Error dynamicSliceShapeKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.dynamic_strided_slice_count");
  if (!ctx.checkArity(4, 1))
    return ctx.error();
  auto v = dynamicSlice(ctx);
  if (!v)
    return ctx.error();
  View out = ctx.outView(0);
  if (out.type != ScalarType::Int64)
    return ctx.reject("output 0 must be int64, got " + dtypeName(dlTypeOf(out.type)));
  if (!ctx.expectOutShape(0, Dims{v->ndim()}))
    return ctx.error();
  for (int64_t d = 0; d < v->ndim(); ++d)
    Elem<int64_t>::store(out.data + d * out.strides[0], v->shape[d]);
  return llvm::Error::success();
}

llvm::Error dynamicSliceKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.host.dynamic_strided_slice");
  if (!ctx.checkArity(4, 1) || !sameType(ctx))
    return ctx.error();
  auto v = dynamicSlice(ctx);
  if (!v || !ctx.expectOutShape(0, v->shape))
    return ctx.error();
  copySameShape(*v, ctx.outView(0));
  return llvm::Error::success();
}

const llvm::StringRef kRepeatAttrs[] = {"repeats", "axis"};
const llvm::StringRef kTileAttrs[] = {"repeats"};
const llvm::StringRef kFlipAttrs[] = {"axis"};
const llvm::StringRef kLayoutTransformAttrs[] = {"index_map", "pad_value"};

} // namespace

namespace {

/// stack(axis): input i becomes index i of a new `axis` of the output.
llvm::Error stackKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.stack");
  if (!ctx.checkArity(-1, 1))
    return ctx.error();
  View first = ctx.inView(0), out = ctx.outView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 0), first.ndim() + 1);
  if (!axis)
    return ctx.error();
  Dims shape = first.shape;
  shape.insert(shape.begin() + *axis, int64_t(ctx.numIn()));
  if (!ctx.expectOutShape(0, shape))
    return ctx.error();
  for (size_t i = 0; i < ctx.numIn(); ++i) {
    View in = ctx.inView(i);
    if (!ctx.expectSameType(in.type, out.type, "input " + llvm::Twine(i)))
      return ctx.error();
    if (llvm::ArrayRef<int64_t>(in.shape) != llvm::ArrayRef<int64_t>(first.shape))
      return ctx.reject("input " + llvm::Twine(i) + " has shape " + shapeStr(in.shape) +
                        ", input 0 " + shapeStr(first.shape));
  }
  for (size_t i = 0; i < ctx.numIn(); ++i)
    copySameShape(ctx.inView(i), out.at(*axis, int64_t(i)));
  return llvm::Error::success();
}

/// meshgrid(indexing): output i repeats 1-D input i along its grid dim: dim
/// i, except that "xy" swaps the first two (a 0-d input has length 1).
llvm::Error meshgridKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.meshgrid");
  if (!ctx.checkArity(-1, -1))
    return ctx.error();
  std::string indexing = ctx.strAttr(0, "indexing", std::string("ij"));
  if (!ctx.ok())
    return ctx.error();
  if (indexing != "ij" && indexing != "xy")
    return ctx.reject("indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"");
  size_t n = ctx.numIn();
  if (ctx.numOut() != n)
    return ctx.reject("takes one output per input, got " + llvm::Twine(ctx.numOut()) +
                      " outputs for " + llvm::Twine(n) + " inputs");
  bool swap = indexing == "xy" && n >= 2;
  auto gridDim = [swap](size_t i) { return swap && i < 2 ? 1 - i : i; };
  Dims shape(n);
  for (size_t i = 0; i < n; ++i) {
    View in = ctx.inView(i);
    if (in.ndim() > 1)
      return ctx.reject("input " + llvm::Twine(i) + " must be 1-D, got shape " +
                        shapeStr(in.shape));
    shape[gridDim(i)] = in.ndim() == 0 ? 1 : in.shape[0];
  }
  for (size_t i = 0; i < n; ++i) {
    View in = ctx.inView(i), out = ctx.outView(i);
    if (!ctx.expectSameType(out.type, in.type, "output " + llvm::Twine(i)) ||
        !ctx.expectOutShape(i, shape))
      return ctx.error();
    View grid = in;
    grid.shape = shape;
    grid.strides.assign(n, 0);
    grid.strides[gridDim(i)] = in.ndim() == 0 ? 0 : in.strides[0];
    copySameShape(grid, out);
  }
  return llvm::Error::success();
}

/// A number attr (int, float or bool) as compute type C; 0 when unset.
template <class C> C numberAttr(const Ctx &ctx, size_t i) {
  const AttrValue *a = ctx.attr(i);
  if (!a)
    return C(0);
  if (auto *v = std::get_if<double>(a))
    return castTo<C>(*v);
  if (auto *v = std::get_if<bool>(a))
    return castTo<C>(*v);
  if (auto *v = std::get_if<int64_t>(a))
    return castTo<C>(*v);
  return C(0);
}

/// one_hot(on_value, off_value, depth, axis): on_value where the new
/// `axis` index equals the index (as topi, a negative or too-large index
/// matches nothing), off_value elsewhere.
llvm::Error oneHotKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.one_hot");
  if (!ctx.checkArity(1, 1))
    return ctx.error();
  View idx = ctx.inView(0), out = ctx.outView(0);
  if (!isIntType(idx.type))
    return ctx.reject("takes integer indices, got " + dtypeName(ctx.in(0).dtype));
  int64_t depth = ctx.intAttr(2, "depth");
  auto axis = ctx.axis(ctx.intAttr(3, "axis", -1), idx.ndim() + 1);
  if (!axis)
    return ctx.error();
  Dims shape = idx.shape;
  shape.insert(shape.begin() + *axis, depth);
  if (!ctx.expectOutShape(0, shape))
    return ctx.error();
  Loader<int64_t> loadIndex = loaderFor<int64_t>(idx.type);
  return dispatch(out.type, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using C = Compute<T>;
    C on = numberAttr<C>(ctx, 0), off = numberAttr<C>(ctx, 1);
    for (int64_t c = 0; c < depth; ++c) {
      View slice = out.at(*axis, c);
      forEach<2>(idx.shape, {&slice, &idx}, [&](const std::array<char *, 2> &p) {
        Elem<T>::store(p[0], loadIndex(p[1]) == c ? on : off);
      });
    }
    return llvm::Error::success();
  });
}

const llvm::StringRef kStackAttrs[] = {"axis"};
const llvm::StringRef kMeshgridAttrs[] = {"indexing"};
const llvm::StringRef kOneHotAttrs[] = {"on_value", "off_value", "depth", "axis"};

} // namespace

void registerMovementKernels() {
  static const KernelInfo kernels[] = {
      {"graft.repeat", 1, 1, kRepeatAttrs, &repeatKernel},
      {"graft.tile", 1, 1, kTileAttrs, &tileKernel},
      {"graft.flip", 1, 1, kFlipAttrs, &flipKernel},
      {"graft.layout_transform", 1, 1, kLayoutTransformAttrs, &layoutTransformKernel,
       &layoutTransformWorkspace},
      {"graft.host.dynamic_strided_slice", 4, 1, {}, &dynamicSliceKernel},
      {"graft.host.dynamic_strided_slice_count", 4, 1, {}, &dynamicSliceShapeKernel},
      {"graft.stack", -1, 1, kStackAttrs, &stackKernel},
      {"graft.meshgrid", -1, -1, kMeshgridAttrs, &meshgridKernel},
      {"graft.one_hot", 1, 1, kOneHotAttrs, &oneHotKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
