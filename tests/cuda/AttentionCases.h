//===- tests/cuda/AttentionCases.h - graft.nn.attention cases for each form -===//
//
// The CUDA kernel against the CPU kernel (double) on random inputs, shared
// by AttentionTest.cpp (the default form, flashKernel and flashSmemQKernel)
// and WgmmaAttentionTest.cpp (the Hopper wgmma kernel, forced): the same
// cases for every form GRAFT_CUDA_ATTENTION selects.
//
// Bounds: bfloat16 2 ulp + 8e-3, float16 2 ulp + 2e-3 (the flash kernels
// round the softmax weights to the input dtype before P V, as flash
// attention does); float32 128 ulp + 1e-5; float64 64 ulp + 1e-13.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTS_CUDA_ATTENTIONCASES_H
#define GRAFT_TESTS_CUDA_ATTENTIONCASES_H

#include "CudaTestUtil.h"

#include <cstdlib>

namespace graft::cuda::test::attention {

using Attrs = std::vector<AttrValue>;
inline const AttrValue kNone = std::monostate();

inline Bound attentionBound(DLDataType t) {
  if (t.code == kDLBfloat)
    return {2, 8e-3};
  if (t.bits == 16)
    return {2, 2e-3};
  if (t.bits == 32)
    return {128, 1e-5};
  return {64, 1e-13};
}

struct Shape {
  int64_t b, s, skv, n, nkv, h;
};

/// Runs one case on both devices and compares; `bias` adds a (1, N, 1, S_kv) bias.
inline void check(DLDataType t, const Shape &c, AttrValue causal, std::mt19937_64 &rng,
                  AttrValue scale = kNone, bool bias = false) {
  SCOPED_TRACE(typeName(t) + " b" + std::to_string(c.b) + " s" + std::to_string(c.s) + " skv" +
               std::to_string(c.skv) + " n" + std::to_string(c.n) + "/" + std::to_string(c.nkv) +
               " h" + std::to_string(c.h) + " mask " +
               (std::holds_alternative<std::string>(causal) ? std::get<std::string>(causal)
                                                            : std::string("none")) +
               (bias ? " bias" : ""));
  TestTensor q = randomTensor(t, {c.b, c.s, c.n, c.h}, rng, -2, 2);
  TestTensor k = randomTensor(t, {c.b, c.skv, c.nkv, c.h}, rng, -2, 2);
  TestTensor v = randomTensor(t, {c.b, c.skv, c.nkv, c.h}, rng, -2, 2);
  TestTensor bt = randomTensor(t, {1, c.n, 1, c.skv}, rng, -3, 3);
  TestTensor co(t, {c.b, c.s, c.n, c.h}), go(t, {c.b, c.s, c.n, c.h});
  Attrs attrs = {scale, causal, kNone};
  std::vector<TestTensor *> in = {&q, &k, &v};
  if (bias)
    in.push_back(&bt);
  RUN_OK("graft.nn.attention", in, {&co}, attrs);
  ASSERT_EQ(runCuda("graft.nn.attention", in, {&go}, attrs), "");
  EXPECT_EQ(compare(co, go, attentionBound(t)), "");
}

inline const std::vector<AttrValue> kMasks = {kNone, std::string("TopLeft"),
                                              std::string("BottomRight")};

/// Sets GRAFT_CUDA_ATTENTION for one scope; unset again after it.
struct VariantScope {
  explicit VariantScope(const char *v) {
    if (*v)
      setenv("GRAFT_CUDA_ATTENTION", v, 1);
    else
      unsetenv("GRAFT_CUDA_ATTENTION");
  }
  ~VariantScope() { unsetenv("GRAFT_CUDA_ATTENTION"); }
};

/// Every key count (a partial last tile of 64 keys, one and two full ones)
/// and mask, head dims 64 and 128, grouped-query heads, in form `variant`.
inline void everyKeyCountAndMask(const char *variant) {
  SCOPED_TRACE(std::string("variant '") + variant + "'");
  VariantScope scope(variant);
  std::mt19937_64 rng(11);
  for (DLDataType t : {BF16, F16})
    for (int64_t h : {64, 128})
      for (int64_t skv : {1, 33, 80, 96})
        for (const AttrValue &mask : kMasks) {
          // Fewer queries than keys, and more queries than one block of
          // 128 (BottomRight then offsets by |S - S_kv| both ways).
          check(t, {2, 33, skv, 4, 4, h}, mask, rng);
          check(t, {1, 130, skv, 2, 1, h}, mask, rng);
        }
}

/// A positive scale folds into each weight's exp2; zero and negative ones
/// take the other form. Several query blocks of several heads and batches
/// (the grid's order differs with a causal mask), and enough key tiles that
/// most leave every row's maximum where it was.
inline void scalesAndManyTiles(const char *variant) {
  SCOPED_TRACE(std::string("variant '") + variant + "'");
  VariantScope scope(variant);
  std::mt19937_64 rng(14);
  for (DLDataType t : {BF16, F16})
    for (int64_t h : {64, 128}) {
      for (double scale : {0.25, 0.0, -0.2})
        check(t, {1, 40, 70, 2, 2, h}, kNone, rng, scale);
      for (const AttrValue &mask : kMasks)
        check(t, {2, 300, 333, 3, 3, h}, mask, rng);
    }
}

/// The weight of a single key is exactly 1: no zero-filled padding key of
/// the 64-key tile may enter the softmax.
inline void oneKeyIsItsValueExactly(const char *variant) {
  VariantScope scope(variant);
  for (DLDataType t : {BF16, F16, F32, F64}) {
    SCOPED_TRACE(typeName(t) + " variant '" + variant + "'");
    std::vector<double> qv(2 * 128, 1.0), kv(128, 0.5), vv(128);
    for (size_t i = 0; i < vv.size(); ++i)
      vv[i] = double(i % 7) - 3;
    TestTensor q(t, {1, 2, 1, 128}, qv), k(t, {1, 1, 1, 128}, kv), v(t, {1, 1, 1, 128}, vv);
    TestTensor o(t, {1, 2, 1, 128});
    ASSERT_EQ(runCuda("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone}), "");
    std::vector<double> want;
    for (int r = 0; r < 2; ++r)
      want.insert(want.end(), vv.begin(), vv.end());
    EXPECT_EQ(o.values(), want);
  }
}

} // namespace graft::cuda::test::attention

#endif // GRAFT_TESTS_CUDA_ATTENTIONCASES_H
