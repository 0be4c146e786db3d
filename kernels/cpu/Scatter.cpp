//===- kernels/cpu/Scatter.cpp - scatter_elements / scatter_reduce --------===//
//
// scatter_elements(data, indices, updates; axis, reduction, include_self)
// with ATen's scatter_reduce semantics (see
// ATen's scatter_reduce):
//   - updates are applied in row-major order of `indices`, so "update" is
//     last-write-wins and every reduction is deterministic;
//   - include_self=false reduces a named element over the updates only;
//     elements no index names keep data's value;
//   - sum/mean accumulate half types in float; prod rounds to the dtype at
//     every step; amax/amin let NaN win;
//   - mean counts in the tensor's dtype (so counts wrap or round as ATen's
//     do), a zero count becomes one, integers divide with floor.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

enum class Reduction { Update, Add, Mul, Mean, Max, Min };

std::optional<Reduction> parseReduction(llvm::StringRef s) {
  if (s == "update" || s == "none")
    return Reduction::Update;
  if (s == "add" || s == "sum")
    return Reduction::Add;
  if (s == "mul" || s == "prod")
    return Reduction::Mul;
  if (s == "mean")
    return Reduction::Mean;
  if (s == "max" || s == "amax")
    return Reduction::Max;
  if (s == "min" || s == "amin")
    return Reduction::Min;
  return std::nullopt;
}

/// Scratch per output element: an accumulator, a count and a flag.
size_t scatterWorkspace(const KernelArgs &args) {
  if (args.inputs.empty() || !args.inputs[0])
    return 0;
  return size_t(numelOf(shapeOf(*args.inputs[0]))) * 17 + 16;
}

struct ScatterPlan {
  View idx, upd, out;
  int64_t axis = 0;
  Reduction op = Reduction::Update;
  bool includeSelf = true;
};

template <class T> Acc<T> combine(Reduction op, Acc<T> acc, Acc<T> v) {
  switch (op) {
  case Reduction::Update:
    return v;
  case Reduction::Add:
  case Reduction::Mean:
    return addC(acc, v);
  case Reduction::Mul:
    return roundTo<T>(mulC(acc, v));
  case Reduction::Max:
    return beats<true>(v, acc) ? v : acc;
  case Reduction::Min:
    return beats<false>(v, acc) ? v : acc;
  }
  return v;
}

/// The stored value of a touched element once every update is in.
template <class T> Compute<T> finalize(Reduction op, Acc<T> acc, Compute<T> n) {
  using C = Compute<T>;
  if (op != Reduction::Mean)
    return C(acc);
  C sum = roundTo<T>(C(acc));
  if (n == C(0))
    n = C(1);
  if constexpr (std::is_same_v<C, bool>)
    return sum; // Rejected before: mean does not take bool.
  else if constexpr (std::is_floating_point_v<C>)
    return sum / n;
  else
    return intFloorDiv(sum, n);
}

template <class T> void scatter(const ScatterPlan &p, char *scratch) {
  using A = Acc<T>;
  using C = Compute<T>;
  int64_t n = p.out.numel();
  A *acc = reinterpret_cast<A *>(alignUp(scratch, 8));
  C *count = reinterpret_cast<C *>(acc + n);
  auto *touched = reinterpret_cast<uint8_t *>(count + n);
  std::memset(touched, 0, size_t(n));
  Dims rm = contiguousStrides(p.out.shape, 1);
  Loader<int64_t> loadIdx = loaderFor<int64_t>(p.idx.type);
  int64_t len = p.out.shape[p.axis];
  forEachIndex(p.idx.shape, [&](llvm::ArrayRef<int64_t> at) {
    int64_t k = loadIdx(p.idx.ptr(at));
    if (k < 0)
      k += len;
    int64_t flat = 0;
    for (size_t d = 0; d < at.size(); ++d)
      flat += (int64_t(d) == p.axis ? k : at[d]) * rm[d];
    A v = Elem<T>::load(p.upd.ptr(at));
    if (!touched[flat]) {
      touched[flat] = 1;
      bool self = p.includeSelf && p.op != Reduction::Update;
      count[flat] = C(self ? 1 : 0);
      acc[flat] = self ? combine<T>(p.op, A(Elem<T>::load(p.out.elementAt(flat))), v) : v;
    } else {
      acc[flat] = combine<T>(p.op, acc[flat], v);
    }
    count[flat] = roundTo<T>(addC(count[flat], C(1)));
  });
  for (int64_t e = 0; e < n; ++e)
    if (touched[e])
      Elem<T>::store(p.out.elementAt(e), finalize<T>(p.op, acc[e], count[e]));
}

/// Checks shapes, dtypes and every index (before anything is written).
std::optional<ScatterPlan> planScatter(Ctx &ctx) {
  ScatterPlan p;
  View data = ctx.inView(0);
  p.idx = ctx.inView(1);
  p.upd = ctx.inView(2);
  p.out = ctx.outView(0);
  auto axis = ctx.axis(ctx.intAttr(0, "axis", 0), data.ndim());
  std::string red = ctx.strAttr(1, "reduction", std::string("update"));
  p.includeSelf = ctx.boolAttr(2, "include_self", true);
  if (!axis || !ctx.ok())
    return std::nullopt;
  p.axis = *axis;
  auto op = parseReduction(red);
  if (!op) {
    ctx.fail("unknown reduction '" + red + "'");
    return std::nullopt;
  }
  p.op = *op;
  if (!ctx.expectSameType(p.upd.type, data.type, "updates") ||
      !ctx.expectSameType(p.out.type, data.type, "output 0") || !ctx.expectOutShape(0, data.shape))
    return std::nullopt;
  if (!isIntType(p.idx.type)) {
    ctx.fail("indices must be integers, got " + dtypeName(dlTypeOf(p.idx.type)));
    return std::nullopt;
  }
  if (data.type == ScalarType::Bool && p.op != Reduction::Update && p.op != Reduction::Add) {
    ctx.fail("reduction '" + red + "' does not take bool");
    return std::nullopt;
  }
  bool shapesOk = p.idx.ndim() == data.ndim() && p.upd.ndim() == data.ndim();
  for (int64_t d = 0; shapesOk && d < data.ndim(); ++d)
    shapesOk = p.idx.shape[d] <= p.upd.shape[d] && (d == p.axis || p.idx.shape[d] <= data.shape[d]);
  if (!shapesOk) {
    ctx.fail("indices " + shapeStr(p.idx.shape) + " must have the rank of data " +
             shapeStr(data.shape) + " and updates " + shapeStr(p.upd.shape) +
             " and fit in both outside the axis");
    return std::nullopt;
  }
  Loader<int64_t> l = loaderFor<int64_t>(p.idx.type);
  int64_t len = data.shape[p.axis];
  std::optional<int64_t> bad;
  forEach<1>(p.idx.shape, {&p.idx}, [&](const std::array<char *, 1> &q) {
    int64_t k = l(q[0]);
    if (!bad && (k < -len || k >= len))
      bad = k;
  });
  if (bad) {
    ctx.fail("index " + llvm::Twine(*bad) + " is out of range for axis " + llvm::Twine(p.axis) +
             " of size " + llvm::Twine(len));
    return std::nullopt;
  }
  return p;
}

llvm::Error scatterElementsKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.scatter_elements");
  if (!ctx.checkArity(3, 1))
    return ctx.error();
  auto plan = planScatter(ctx);
  if (!plan || !ctx.needWorkspace(scatterWorkspace(args)))
    return ctx.error();
  copySameShape(ctx.inView(0), plan->out);
  dispatch(ctx.inType(0), [&](auto tag) {
    scatter<typename decltype(tag)::type>(*plan, static_cast<char *>(args.workspace.data));
  });
  return llvm::Error::success();
}

const llvm::StringRef kScatterAttrs[] = {"axis", "reduction", "include_self"};

} // namespace

void registerScatterKernels() {
  static const KernelInfo kernels[] = {
      {"graft.scatter_elements", 3, 1, kScatterAttrs, &scatterElementsKernel, &scatterWorkspace},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
