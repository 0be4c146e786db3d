//===- kernels/cpu/Einsum.cpp - einsum ------------------------------------===//
//
// A general contraction over any number of operands: for every output index
// and every assignment of the labels that are summed away, the product of
// the operands' elements, accumulated in the accumulator type (float for
// half types, the dtype otherwise, wrapping for integers) and converted
// once. Subscripts are numpy's without an ellipsis: "ij,jk->ik", or no
// "->" for the labels used once, in alphabetical order. A label repeated
// within one operand takes its diagonal ("ii->i").
//
//===----------------------------------------------------------------------===//

#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/TensorIter.h"

namespace graft::kernels::cpu {
namespace {

constexpr int kLabels = 52; // a-z, A-Z

int labelOf(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  if (c >= 'A' && c <= 'Z')
    return 26 + (c - 'A');
  return -1;
}

/// Scratch: per operand, a byte stride per label (summed over a repeated
/// label), its data pointer and its current element pointer.
size_t einsumWorkspace(const KernelArgs &args) {
  return args.inputs.size() * (kLabels + 2) * sizeof(int64_t) + 16;
}

/// The parsed subscripts: each label's extent, the output's labels and the
/// summed labels, and each operand's byte stride per label.
struct EinsumPlan {
  std::array<int64_t, kLabels> extent;
  std::array<int8_t, kLabels> role; ///< 0 unused, 1 output, 2 summed.
  std::array<int8_t, kLabels> outLabels;
  std::array<int8_t, kLabels> sumLabels;
  int numOut = 0, numSum = 0;
};

bool parseEinsum(Ctx &ctx, llvm::StringRef s, EinsumPlan &p, int64_t *strides) {
  p.extent.fill(-1);
  p.role.fill(0);
  std::array<int, kLabels> uses{};
  size_t arrow = s.find("->");
  llvm::StringRef lhs = s.substr(0, arrow);
  if (s.contains("."))
    return ctx.fail("subscripts with an ellipsis are not supported: \"" + s + "\"");
  size_t operand = 0;
  int64_t dim = 0;
  auto endOperand = [&]() {
    if (operand < ctx.numIn() && dim != ctx.inView(operand).ndim())
      return ctx.fail("operand " + llvm::Twine(operand) + " has rank " +
                      llvm::Twine(ctx.inView(operand).ndim()) + " but its subscript has " +
                      llvm::Twine(dim) + " labels");
    ++operand;
    dim = 0;
    return true;
  };
  for (char c : lhs) {
    if (c == ' ')
      continue;
    if (c == ',') {
      if (!endOperand())
        return false;
      continue;
    }
    int l = labelOf(c);
    if (l < 0)
      return ctx.fail(llvm::Twine("invalid subscript character '") + llvm::Twine(c) + "'");
    if (operand >= ctx.numIn())
      return ctx.fail("has more subscripts than its " + llvm::Twine(ctx.numIn()) + " operands");
    View v = ctx.inView(operand);
    if (dim >= v.ndim())
      return ctx.fail("operand " + llvm::Twine(operand) + " has rank " + llvm::Twine(v.ndim()) +
                      " but its subscript has more labels");
    if (p.extent[l] >= 0 && p.extent[l] != v.shape[dim])
      return ctx.fail(llvm::Twine("label '") + llvm::Twine(c) + "' has extents " +
                      llvm::Twine(p.extent[l]) + " and " + llvm::Twine(v.shape[dim]));
    p.extent[l] = v.shape[dim];
    strides[operand * kLabels + l] += v.strides[dim];
    ++uses[l];
    ++dim;
  }
  if (!endOperand())
    return false;
  if (operand != ctx.numIn())
    return ctx.fail("has " + llvm::Twine(operand) + " subscripts for " + llvm::Twine(ctx.numIn()) +
                    " operands");
  if (arrow != llvm::StringRef::npos) {
    for (char c : s.substr(arrow + 2)) {
      if (c == ' ')
        continue;
      int l = labelOf(c);
      if (l < 0 || p.extent[l] < 0)
        return ctx.fail(llvm::Twine("output label '") + llvm::Twine(c) + "' is not an input label");
      if (p.role[l])
        return ctx.fail(llvm::Twine("output label '") + llvm::Twine(c) + "' repeats");
      p.role[l] = 1;
      p.outLabels[p.numOut++] = int8_t(l);
    }
  } else {
    // Implicit output: the labels used once, by character code (uppercase
    // first), as numpy and relax's inference order them.
    for (int pass = 0; pass < 2; ++pass)
      for (int l = pass ? 0 : 26; l < (pass ? 26 : kLabels); ++l)
        if (uses[l] == 1) {
          p.role[l] = 1;
          p.outLabels[p.numOut++] = int8_t(l);
        }
  }
  for (int l = 0; l < kLabels; ++l)
    if (p.extent[l] >= 0 && !p.role[l]) {
      p.role[l] = 2;
      p.sumLabels[p.numSum++] = int8_t(l);
    }
  return true;
}

llvm::Error einsumKernel(const KernelArgs &args) {
  Ctx ctx(args, "graft.einsum");
  if (!ctx.checkArity(-1, 1))
    return ctx.error();
  const AttrValue *a = ctx.attr(0);
  const std::string *subscripts = a ? std::get_if<std::string>(a) : nullptr;
  if (!subscripts)
    return ctx.reject("attr 'subscripts' must be a string");
  ScalarType t = ctx.inType(0);
  for (size_t i = 1; i < ctx.numIn(); ++i)
    if (!ctx.expectSameType(ctx.inType(i), t, "input " + llvm::Twine(i)))
      return ctx.error();
  if (!ctx.expectSameType(ctx.outType(0), t, "output 0"))
    return ctx.error();
  if (t == ScalarType::Bool)
    return ctx.reject("does not take bool");
  if (!ctx.needWorkspace(einsumWorkspace(args)))
    return ctx.error();
  size_t n = ctx.numIn();
  auto *strides = reinterpret_cast<int64_t *>(alignUp(static_cast<char *>(args.workspace.data), 8));
  auto **ptrs = reinterpret_cast<const char **>(strides + n * kLabels);
  const char **bases = ptrs + n;
  std::fill(strides, strides + n * kLabels, 0);
  for (size_t k = 0; k < n; ++k)
    bases[k] = static_cast<const char *>(ctx.in(k).data) + ctx.in(k).byte_offset;
  EinsumPlan p;
  if (!parseEinsum(ctx, *subscripts, p, strides))
    return ctx.error();
  Dims outShape;
  for (int i = 0; i < p.numOut; ++i)
    outShape.push_back(p.extent[p.outLabels[i]]);
  if (!ctx.expectOutShape(0, outShape))
    return ctx.error();
  View out = ctx.outView(0);
  Dims sumShape;
  for (int i = 0; i < p.numSum; ++i)
    sumShape.push_back(p.extent[p.sumLabels[i]]);
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = Acc<T>;
    forEachIndex(outShape, [&](llvm::ArrayRef<int64_t> oi) {
      for (size_t k = 0; k < n; ++k) {
        const char *q = bases[k];
        for (int i = 0; i < p.numOut; ++i)
          q += oi[i] * strides[k * kLabels + p.outLabels[i]];
        ptrs[k] = q;
      }
      A acc(0);
      forEachIndex(sumShape, [&](llvm::ArrayRef<int64_t> si) {
        A prod(1);
        for (size_t k = 0; k < n; ++k) {
          const char *q = ptrs[k];
          for (int i = 0; i < p.numSum; ++i)
            q += si[i] * strides[k * kLabels + p.sumLabels[i]];
          prod = k ? mulC<A>(prod, Elem<T>::load(q)) : A(Elem<T>::load(q));
        }
        acc = addC(acc, prod);
      });
      Elem<T>::store(out.ptr(oi), acc);
    });
  });
  return llvm::Error::success();
}

const llvm::StringRef kEinsumAttrs[] = {"subscripts"};

} // namespace

void registerEinsumKernels() {
  static const KernelInfo kernels[] = {
      {"graft.einsum", -1, 1, kEinsumAttrs, &einsumKernel, &einsumWorkspace},
  };
  for (const KernelInfo &k : kernels)
    addKernel(&k);
}

} // namespace graft::kernels::cpu
