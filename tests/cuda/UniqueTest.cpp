//===- tests/cuda/UniqueTest.cpp - graft.host.unique{,_count} on CUDA ------===//
//
// The CUDA count and fill kernels against the CPU's, every dtype, with and
// without an axis, sorted and in first-occurrence order, every return
// flag: all results are exact (values are copied bits, the rest int64).
// Then R.unique through graft run --device cuda (the host form's count
// read back from the device, tuple outputs) against graft run on the CPU.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"
#include "tests/tools/GraftProcess.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace graft::cuda::test {
namespace {

using Attrs = std::vector<AttrValue>;

/// sorted, return_index, return_inverse, return_counts, axis.
Attrs uniqueAttrs(bool sorted, std::optional<int64_t> axis) {
  return {sorted, true, true, true, axis ? AttrValue(*axis) : AttrValue()};
}

/// Runs both count kernels, then both fill kernels with every flag set.
void expectUniqueMatches(TestTensor &x, std::optional<int64_t> axis) {
  TestTensor cc(I64, {}), gc(I64, {});
  Attrs countAttrs{axis ? AttrValue(*axis) : AttrValue()};
  expectCudaMatchesCpu("graft.host.unique_count", {&x}, {&cc}, {&gc}, countAttrs);
  int64_t u = cc.intValues()[0];
  std::vector<int64_t> shape{u};
  int64_t items = 1;
  for (int64_t d : x.shape)
    items *= d;
  if (axis) {
    shape = x.shape;
    int64_t a = *axis < 0 ? *axis + int64_t(x.shape.size()) : *axis;
    shape[size_t(a)] = u;
    items = x.shape[size_t(a)];
  }
  DLDataType t = x.dl()->dtype;
  for (bool sorted : {true, false}) {
    SCOPED_TRACE(sorted ? "sorted" : "first occurrence");
    TestTensor cv(t, shape), gv(t, shape), ci(I64, {u}), gi(I64, {u}), cn(I64, {items}),
        gn(I64, {items}), cs(I64, {u}), gs(I64, {u});
    expectCudaMatchesCpu("graft.host.unique", {&x}, {&cv, &ci, &cn, &cs}, {&gv, &gi, &gn, &gs},
                         uniqueAttrs(sorted, axis));
  }
}

TEST(CudaUnique, EveryDTypeFlattenedAndAlongAnAxis) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(41);
  for (DLDataType t : kAllTypes) {
    SCOPED_TRACE(typeName(t));
    // Few distinct values, so groups repeat; floats rounded to halves.
    std::vector<double> v = randomTensor(t, {37, 5}, rng, -3, 3).values();
    if (isFloat(t))
      for (double &e : v)
        e = std::round(e * 2) / 2;
    TestTensor x(t, {37, 5}, v);
    expectUniqueMatches(x, std::nullopt);
    // Rows of bools or small ints repeat; columns are long and distinct.
    TestTensor rows = randomTensor(t, {300, 3}, rng, 0, 1);
    expectUniqueMatches(rows, 0);
    expectUniqueMatches(rows, -1);
  }
}

TEST(CudaUnique, NaNZerosStridesAndEmpty) {
  GRAFT_REQUIRE_GPU();
  // NaNs form one group, -0.0 equals +0.0; a transposed input is read in
  // its logical order.
  TestTensor f(F32, {3, 4}, {NAN, 1, -0.0, 2, 0.0, NAN, 1, 2, -1, NAN, 0.0, -0.0}, {1, 0});
  expectUniqueMatches(f, std::nullopt);
  expectUniqueMatches(f, 1);
  // A large flattened input: the radix sort's multi-pass path.
  std::mt19937_64 rng(42);
  TestTensor big = randomTensor(I32, {1 << 18}, rng, -5000, 5000);
  expectUniqueMatches(big, std::nullopt);
  TestTensor wide = randomTensor(I16, {20000, 2}, rng, 0, 40);
  expectUniqueMatches(wide, 0);
  // Empty: no groups; along an axis of empty slices, one.
  TestTensor e(F64, {0, 3});
  TestTensor cc(I64, {}), gc(I64, {});
  expectCudaMatchesCpu("graft.host.unique_count", {&e}, {&cc}, {&gc}, {AttrValue()});
  EXPECT_EQ(gc.intValues(), (std::vector<int64_t>{0}));
  TestTensor z(BF16, {4, 0});
  expectUniqueMatches(z, 0);
  // 0-d.
  TestTensor s = TestTensor::ints(I8, {}, {-7});
  expectUniqueMatches(s, std::nullopt);
}

TEST(CudaUnique, Errors) {
  GRAFT_REQUIRE_GPU();
  TestTensor x(F32, {2, 2}, {1, 2, 2, 1}), v(F32, {2}), n(I64, {});
  EXPECT_EQ(runCuda("graft.host.unique", {&x}, {&v}, {true, true, false, false, AttrValue()}),
            "graft.host.unique: the return flags ask for 2 outputs, got 1");
  EXPECT_EQ(runCuda("graft.host.unique_count", {&x}, {&n}, {int64_t(2)}),
            "graft.host.unique_count: axis 2 is out of range for rank 2");
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const char *kUniqueModule = R"(from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((64, 8), "float32")):
        y = R.floor(R.multiply(x, R.const(2.0, "float32")))
        a = R.unique(y, sorted=False, return_index=True, return_inverse=True, return_counts=True)
        z = R.greater(x, R.const(0.0, "float32"))
        b = R.unique(z, axis=0, return_inverse=True, return_counts=True)
        c = R.unique(R.astype(y, "int8"), axis=-1)
        d = R.unique(y)
        return (a, b, c, d)
)";

TEST(CudaUnique, GraftRunMatchesTheCpu) {
  GRAFT_REQUIRE_GPU();
  const char *binary = std::getenv("GRAFT_BINARY");
  std::string tool = binary ? binary : GRAFT_BINARY;
  std::string dir = ::testing::TempDir() + "graft_CudaUnique_run";
  std::string src = dir + ".py";
  std::ofstream(src) << kUniqueModule;
  const char *outputs[] = {"output_0_0", "output_0_1", "output_0_2", "output_0_3", "output_1_0",
                           "output_1_1", "output_1_2", "output_2",   "output_3"};
  for (const char *device : {"cpu", "cuda"}) {
    std::string exe = dir + "_" + device + ".gexe", out = dir + "_" + device;
    auto b = graft::test::runGraft(tool, std::string("build --target ") + device + " " + src +
                                             " -o " + exe);
    ASSERT_EQ(b.code, 0) << b.out;
    ASSERT_EQ(std::system(("mkdir -p " + out).c_str()), 0);
    auto r = graft::test::runGraft(tool, "run " + exe + " --device " + device +
                                             " --random --seed 3 --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
  }
  for (const char *name : outputs) {
    std::string cpu = readFile(dir + "_cpu/" + name + ".npy");
    EXPECT_FALSE(cpu.empty()) << name;
    EXPECT_EQ(readFile(dir + "_cuda/" + name + ".npy"), cpu) << name;
  }
}

} // namespace
} // namespace graft::cuda::test
