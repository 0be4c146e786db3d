//===- tests/cuda/ElementwiseTest.cpp - Every row of the op table on CUDA --===//
//
// Each unary and binary op of the elementwise op table, in every dtype,
// against its CPU kernel: a long compact tensor (the vectorized path, with
// a tail), a transposed input and a broadcast (the general path), and a
// bool operand mixed into an arithmetic op; small compact tensors (the
// tiny kernels) bit for bit against the flat kernel. Where the CPU kernel refuses a
// dtype, the CUDA kernel must refuse it too.
//
// Bounds: integer and bool results are exact; float results of the
// correctly rounded operations (+ - * /, sqrt, floor, fmod, ...) are exact;
// the transcendental ones (exp, log, trig, erf, pow and what is built on
// them) are within 8 ulp of the result's dtype plus 8 epsilon of the
// compute type (float for the half types) for results that cancel, such
// as gelu of a negative input: CUDA's libm and glibc each err by a few ulp.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

namespace graft::cuda::test {
namespace {

struct OpRow {
  const char *symbol;
  const char *rule;
  bool binary;
};

const std::vector<OpRow> &opTable() {
  static const std::vector<OpRow> rows = {
#define GRAFT_UNARY_OP(Name, Symbol, Rule, ...) {Symbol, #Rule, false},
#define GRAFT_BINARY_OP(Name, Symbol, Rule, ...) {Symbol, #Rule, true},
#include "kernels/cpu/ElementwiseOps.def"
  };
  return rows;
}

bool boolResult(const OpRow &r) {
  llvm::StringRef rule = r.rule;
  return rule == "Compare" || rule == "Logical" || rule == "Predicate";
}

Bound boundFor(llvm::StringRef symbol, DLDataType t) {
  static const llvm::StringRef exact[] = {
      "graft.negative",     "graft.abs",     "graft.nn.relu",  "graft.floor",    "graft.ceil",
      "graft.round",        "graft.trunc",   "graft.sign",     "graft.square",   "graft.sqrt",
      "graft.rsqrt",        "graft.add",     "graft.subtract", "graft.multiply", "graft.divide",
      "graft.floor_divide", "graft.maximum", "graft.minimum",  "graft.mod",      "graft.floor_mod"};
  if (!isFloat(t) || llvm::is_contained(exact, symbol))
    return {};
  double computeEps = t.bits == 64 ? DBL_EPSILON : FLT_EPSILON;
  return {t.bits == 16 ? 1.0 : 8.0, 8 * computeEps};
}

/// Runs one case on both sides; "" when they agree.
std::string check(const OpRow &row, std::vector<TestTensor *> ins, TestTensor &cpuOut,
                  TestTensor &gpuOut) {
  std::string cpuErr = runKernel(row.symbol, ins, {&cpuOut});
  std::string gpuErr = runCuda(row.symbol, ins, {&gpuOut});
  if (!cpuErr.empty())
    return gpuErr.empty() ? "the CPU refuses (" + cpuErr + ") but CUDA runs" : "";
  if (!gpuErr.empty())
    return "CUDA fails: " + gpuErr;
  return compare(cpuOut, gpuOut, boundFor(row.symbol, cpuOut.dl()->dtype));
}

TEST(CudaElementwise, EveryUnaryOpEveryDType) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(1);
  for (const OpRow &row : opTable()) {
    if (row.binary)
      continue;
    for (DLDataType t : kAllTypes) {
      DLDataType ot = boolResult(row) ? BOOL : t;
      SCOPED_TRACE(std::string(row.symbol) + " " + typeName(t));
      // Compact and long: 16-byte loads and a tail.
      TestTensor x = randomTensor(t, {4099}, rng);
      TestTensor c(ot, {4099}), g(ot, {4099});
      EXPECT_EQ(check(row, {&x}, c, g), "");
      // A transposed input: the general path.
      TestTensor xt = randomTensor(t, {5, 7}, rng, -4, 4, {1, 0});
      TestTensor ct(ot, {5, 7}), gt(ot, {5, 7});
      EXPECT_EQ(check(row, {&xt}, ct, gt), "");
    }
  }
}

TEST(CudaElementwise, EveryBinaryOpEveryDType) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(2);
  for (const OpRow &row : opTable()) {
    if (!row.binary)
      continue;
    for (DLDataType t : kAllTypes) {
      DLDataType ot = boolResult(row) ? BOOL : t;
      SCOPED_TRACE(std::string(row.symbol) + " " + typeName(t));
      TestTensor a = randomTensor(t, {4099}, rng), b = randomTensor(t, {4099}, rng);
      TestTensor c(ot, {4099}), g(ot, {4099});
      EXPECT_EQ(check(row, {&a, &b}, c, g), "");
      // Broadcast [3, 1, 5] with [4, 5] into [3, 4, 5].
      TestTensor a3 = randomTensor(t, {3, 1, 5}, rng), b2 = randomTensor(t, {4, 5}, rng);
      TestTensor cb(ot, {3, 4, 5}), gb(ot, {3, 4, 5});
      EXPECT_EQ(check(row, {&a3, &b2}, cb, gb), "");
      // A bool operand mixed in (Relax's binary rule).
      TestTensor m = randomTensor(BOOL, {4, 5}, rng), x = randomTensor(t, {4, 5}, rng);
      TestTensor cm(ot, {4, 5}), gm(ot, {4, 5});
      EXPECT_EQ(check(row, {&m, &x}, cm, gm), "");
    }
  }
}

/// The bytes of a compact host tensor.
std::string bytesOf(TestTensor &t) {
  const DLTensor &d = *t.dl();
  return std::string(static_cast<const char *>(d.data),
                     size_t(t.numel()) * size_t((d.dtype.bits + 7) / 8));
}

/// Runs `row` on `ins` twice, with the tiny kernels (compact operands of
/// one shape and dtype, at most 4096 elements) and without them
/// (GRAFT_CUDA_TINY=0: the flat kernel); "" when both give the same bytes
/// and the CPU's values.
std::string tinyAgainstFlat(const OpRow &row, std::vector<TestTensor *> ins, DLDataType ot,
                            const std::vector<int64_t> &shape) {
  TestTensor cpu(ot, shape), tiny(ot, shape), flat(ot, shape);
  std::string why = check(row, ins, cpu, tiny);
  if (!why.empty())
    return "tiny: " + why;
  if (!runKernel(row.symbol, ins, {&cpu}).empty())
    return ""; // Both refuse the dtype (check).
  setenv("GRAFT_CUDA_TINY", "0", 1);
  std::string err = runCuda(row.symbol, ins, {&flat});
  unsetenv("GRAFT_CUDA_TINY");
  if (!err.empty())
    return "flat: " + err;
  return bytesOf(tiny) == bytesOf(flat) ? "" : "the tiny and the flat kernel differ";
}

// Small compact operands take the tiny kernels: the same bits as the flat
// kernel for every op and dtype, from one element to the largest tiny size
// (4096, one 16-block grid) and one past it.
TEST(CudaElementwise, TinyKernelsGiveTheFlatKernelsBits) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(3);
  for (const OpRow &row : opTable())
    for (DLDataType t : kAllTypes) {
      DLDataType ot = boolResult(row) ? BOOL : t;
      for (int64_t n : {int64_t(1), int64_t(37), int64_t(256), int64_t(4096), int64_t(4097)}) {
        SCOPED_TRACE(std::string(row.symbol) + " " + typeName(t) + " n=" + std::to_string(n));
        std::vector<int64_t> shape = n == 256 ? std::vector<int64_t>{16, 16} : std::vector{n};
        TestTensor a = randomTensor(t, shape, rng), b = randomTensor(t, shape, rng);
        if (row.binary)
          EXPECT_EQ(tinyAgainstFlat(row, {&a, &b}, ot, shape), "");
        else
          EXPECT_EQ(tinyAgainstFlat(row, {&a}, ot, shape), "");
      }
    }
}

// Small operands that are not compact and of one shape and dtype keep the
// general kernel: the tiny one would read the smaller operand past its
// end, the transposed one in the wrong order and the bool as the other
// dtype, so the CPU's values tell.
TEST(CudaElementwise, SmallBroadcastsKeepTheGeneralKernel) {
  GRAFT_REQUIRE_GPU();
  std::mt19937_64 rng(4);
  for (const char *sym : {"graft.add", "graft.subtract", "graft.maximum", "graft.less"}) {
    const OpRow &row =
        *llvm::find_if(opTable(), [&](const OpRow &r) { return llvm::StringRef(r.symbol) == sym; });
    for (DLDataType t : {F32, F16, BF16, I32}) {
      SCOPED_TRACE(std::string(sym) + " " + typeName(t));
      DLDataType ot = boolResult(row) ? BOOL : t;
      TestTensor col = randomTensor(t, {16, 1}, rng), r = randomTensor(t, {1, 16}, rng);
      TestTensor c(ot, {16, 16}), g(ot, {16, 16});
      EXPECT_EQ(check(row, {&col, &r}, c, g), "");
      TestTensor s = randomTensor(t, {}, rng), m = randomTensor(t, {16, 16}, rng);
      TestTensor cs(ot, {16, 16}), gs(ot, {16, 16});
      EXPECT_EQ(check(row, {&m, &s}, cs, gs), "");
      TestTensor tr = randomTensor(t, {16, 16}, rng, -4, 4, {1, 0});
      TestTensor ct(ot, {16, 16}), gt(ot, {16, 16});
      EXPECT_EQ(check(row, {&tr, &m}, ct, gt), "");
      TestTensor mask = randomTensor(BOOL, {16, 16}, rng);
      TestTensor cm(ot, {16, 16}), gm(ot, {16, 16});
      EXPECT_EQ(check(row, {&mask, &m}, cm, gm), "");
    }
  }
  TestTensor xt = randomTensor(F32, {16, 16}, rng, -4, 4, {1, 0});
  TestTensor ce(F32, {16, 16}), ge(F32, {16, 16});
  const OpRow &negative = *llvm::find_if(
      opTable(), [](const OpRow &r) { return llvm::StringRef(r.symbol) == "graft.negative"; });
  EXPECT_EQ(check(negative, {&xt}, ce, ge), "");
}

TEST(CudaElementwise, IntegerEdgeCases) {
  GRAFT_REQUIRE_GPU();
  // Division by zero, MIN / -1, shifts past the width, negative powers.
  std::vector<int64_t> av = {7, -7, 0, INT32_MIN, INT32_MIN, 5, -1, 3, 1, -2, 100, -100};
  std::vector<int64_t> bv = {0, 2, 0, -1, 1, -3, 40, -1, -5, -3, 33, 31};
  for (const char *sym :
       {"graft.divide", "graft.floor_divide", "graft.mod", "graft.floor_mod", "graft.power",
        "graft.left_shift", "graft.right_shift", "graft.subtract", "graft.multiply"}) {
    SCOPED_TRACE(sym);
    TestTensor a = TestTensor::ints(I32, {12}, av), b = TestTensor::ints(I32, {12}, bv);
    TestTensor c(I32, {12}), g(I32, {12});
    RUN_OK(sym, {&a, &b}, {&c});
    ASSERT_EQ(runCuda(sym, {&a, &b}, {&g}), "");
    EXPECT_EQ(c.intValues(), g.intValues());
  }
}

TEST(CudaElementwise, FloatSpecialValues) {
  GRAFT_REQUIRE_GPU();
  Vals v = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -1e30, 2.5, -2.5, 0.5, 1.5, 65504.0};
  for (DLDataType t : kFloatTypes)
    for (const char *sym : {"graft.round", "graft.sign", "graft.isnan", "graft.isinf",
                            "graft.isfinite", "graft.abs", "graft.nn.relu", "graft.floor"}) {
      SCOPED_TRACE(std::string(sym) + " " + typeName(t));
      bool pred = llvm::StringRef(sym).startswith("graft.is");
      TestTensor x(t, {12}, v), c(pred ? BOOL : t, {12}), g(pred ? BOOL : t, {12});
      RUN_OK(sym, {&x}, {&c});
      ASSERT_EQ(runCuda(sym, {&x}, {&g}), "");
      EXPECT_EQ(compare(c, g), "");
    }
}

TEST(CudaElementwise, ErrorsNameTheKernel) {
  GRAFT_REQUIRE_GPU();
  TestTensor a(F32, {2, 3}), b(F32, {4}), out(F32, {2, 3});
  EXPECT_EQ(runCuda("graft.add", {&a, &b}, {&out}),
            "graft.add: cannot broadcast shapes [2, 3] and [4]");
  TestTensor i(I32, {3}), o(I32, {3});
  EXPECT_EQ(runCuda("graft.exp", {&i}, {&o}), "graft.exp: does not take dtype int32");
  TestTensor big(F32, {2, 3}), small(F32, {3}), wrong(F32, {3});
  EXPECT_EQ(runCuda("graft.add", {&big, &small}, {&wrong}),
            "graft.add: output has shape [3] but the inputs broadcast to [2, 3]");
}

} // namespace
} // namespace graft::cuda::test
