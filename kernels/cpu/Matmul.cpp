//===- kernels/cpu/Matmul.cpp - Batched matrix multiplication -------------===//
//
// numpy matmul: 1-D operands gain a unit dim that the result drops, batch
// dims broadcast. Products accumulate in the accumulator type of the inputs
// (float for half types, the dtype otherwise, wrapping for integers) and
// are converted to the output dtype (matmul's out_dtype) once.
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

/// Operand views lifted to matrices over the broadcast batch, arranged so
/// that one forEach over (batch..., n, m) reaches a's row and b's column.
struct MatmulPlan {
  Dims iterShape; ///< batch..., n, m
  View out, aRow, bCol;
  int64_t k = 0, aStep = 0, bStep = 0;
};

std::optional<MatmulPlan> planMatmul(Ctx &ctx) {
  View a = ctx.inView(0), b = ctx.inView(1);
  if (a.ndim() == 0 || b.ndim() == 0) {
    ctx.fail("operands must have at least 1 dim, got shapes " + shapeStr(a.shape) + " and " +
             shapeStr(b.shape));
    return std::nullopt;
  }
  bool aVec = a.ndim() == 1, bVec = b.ndim() == 1;
  // A 1-D a is a row [1, k]; a 1-D b is a column [k, 1].
  if (aVec) {
    a.shape.insert(a.shape.begin(), 1);
    a.strides.insert(a.strides.begin(), 0);
  }
  if (bVec) {
    b.shape.push_back(1);
    b.strides.push_back(0);
  }
  int64_t n = a.shape[a.ndim() - 2], k = a.shape[a.ndim() - 1];
  int64_t kb = b.shape[b.ndim() - 2], m = b.shape[b.ndim() - 1];
  if (k != kb) {
    ctx.fail("contraction dims differ: shapes " + shapeStr(ctx.inView(0).shape) + " and " +
             shapeStr(ctx.inView(1).shape));
    return std::nullopt;
  }
  auto batch = broadcastShapes(
      ctx, {Dims(a.shape.begin(), a.shape.end() - 2), Dims(b.shape.begin(), b.shape.end() - 2)});
  if (!batch)
    return std::nullopt;
  Dims outShape = *batch;
  if (!aVec)
    outShape.push_back(n);
  if (!bVec)
    outShape.push_back(m);
  if (!ctx.expectOutShape(0, outShape))
    return std::nullopt;

  MatmulPlan p;
  p.iterShape = *batch;
  p.iterShape.append({n, m});
  p.k = k;
  p.aStep = a.strides[a.ndim() - 1];
  p.bStep = b.strides[b.ndim() - 2];
  // a over (batch, n, m): its k dim becomes m with stride 0.
  a.strides[a.ndim() - 1] = 0;
  a.shape[a.ndim() - 1] = m;
  // b over (batch, n, m): its k dim becomes n with stride 0.
  b.strides[b.ndim() - 2] = 0;
  b.shape[b.ndim() - 2] = n;
  auto ab = ctx.broadcast(a, p.iterShape, "input 0");
  auto bb = ctx.broadcast(b, p.iterShape, "input 1");
  if (!ab || !bb)
    return std::nullopt;
  p.aRow = *ab;
  p.bCol = *bb;
  // The output gets unit dims back where a 1-D operand dropped one.
  View out = ctx.outView(0);
  if (aVec) {
    out.shape.insert(out.shape.end() - (bVec ? 0 : 1), 1);
    out.strides.insert(out.strides.end() - (bVec ? 0 : 1), 0);
  }
  if (bVec) {
    out.shape.push_back(1);
    out.strides.push_back(0);
  }
  p.out = out;
  return p;
}

llvm::Error matmulKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.matmul");
  if (!ctx.checkArity(2, 1))
    return ctx.error();
  ScalarType t = ctx.inType(0);
  if (!ctx.expectSameType(ctx.inType(1), t, "input 1"))
    return ctx.error();
  if (t == ScalarType::Bool || ctx.outType(0) == ScalarType::Bool)
    return ctx.reject("does not take bool");
  auto plan = planMatmul(ctx);
  if (!plan)
    return ctx.error();
  return dispatch(t, [&](auto tag) -> llvm::Error {
    using T = typename decltype(tag)::type;
    using A = Acc<T>;
    Storer<A> store = storerFor<A>(ctx.outType(0));
    int64_t k = plan->k, sa = plan->aStep, sb = plan->bStep;
    forEach<3>(plan->iterShape, {&plan->out, &plan->aRow, &plan->bCol},
               [&](const std::array<char *, 3> &p) {
                 A acc(0);
                 const char *x = p[1], *y = p[2];
                 for (int64_t i = 0; i < k; ++i, x += sa, y += sb)
                   acc = addC(acc, mulC<A>(Elem<T>::load(x), Elem<T>::load(y)));
                 store(p[0], acc);
               });
    return llvm::Error::success();
  });
}

const llvm::StringRef kMatmulAttrs[] = {"out_dtype"};

} // namespace

void registerMatmulKernels() {
  static const KernelInfo kernels[] = {
      {"graft.matmul", 2, 1, kMatmulAttrs, &matmulKernel},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
