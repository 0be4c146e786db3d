//===- tests/cuda/WgmmaAttentionTest.cpp - the wgmma attention kernel ------===//
//
// AttentionCases.h's flash cases for the Hopper wgmma kernel
// (kernels/cuda/AttentionWgmma.cu, GRAFT_CUDA_ATTENTION=wgmma), each in its
// own test case: ctest runs each case as its own process, so a fault there
// cannot take the CUDA context of any other test with it. The file's name
// sorts last, so where the whole program runs in one process (the GPU
// check) these cases run after every other.
//
// They skip without a device, and where the device cannot load sm_90a code
// (the kernel exists for the H100/H200 only; the default form then never
// takes it).
//
//===----------------------------------------------------------------------===//

#include "AttentionCases.h"

namespace graft::cuda::test {
namespace {

using namespace attention;

/// Empty when the wgmma kernel runs here, else why not.
std::string wgmmaUnavailable() {
  VariantScope scope("wgmma");
  TestTensor q(BF16, {1, 1, 1, 128}), k(BF16, {1, 1, 1, 128}), v(BF16, {1, 1, 1, 128});
  TestTensor o(BF16, {1, 1, 1, 128});
  std::string err = runCuda("graft.nn.attention", {&q, &k, &v}, {&o}, {kNone, kNone, kNone});
  return err.find("cannot load the sm_90a kernel") != std::string::npos ? err : "";
}

#define GRAFT_REQUIRE_WGMMA()                                                                      \
  do {                                                                                             \
    GRAFT_REQUIRE_GPU();                                                                           \
    if (std::string why_ = wgmmaUnavailable(); !why_.empty())                                      \
      GTEST_SKIP() << why_;                                                                        \
  } while (0)

TEST(CudaAttentionWgmma, OneKeyIsItsValueExactly) {
  GRAFT_REQUIRE_WGMMA();
  oneKeyIsItsValueExactly("wgmma");
}

TEST(CudaAttentionWgmma, EveryKeyCountAndMask) {
  GRAFT_REQUIRE_WGMMA();
  everyKeyCountAndMask("wgmma");
}

TEST(CudaAttentionWgmma, ScalesAndManyTiles) {
  GRAFT_REQUIRE_WGMMA();
  scalesAndManyTiles("wgmma");
}

} // namespace
} // namespace graft::cuda::test
