//===- tests/testing/DevicePrecisionTest.cpp - Bounds follow the math -------===//
//
// `graft difftest --device cuda` holds a float output to the bound of the
// narrowest float it was computed in: a float64 output of float32 math
// carries float32's rounding (CUDA's float32 sin is an ulp or so off the
// CPU's, which astype to float64 keeps: 2^29 float64 ulps). Found on the
// H200 with a generated program whose output was
// permute_dims(astype(sin(x0 + x0), "float64")).
//
//===----------------------------------------------------------------------===//

#include "tools/testing/Differential.h"

#include "text/Parser.h"
#include "vm/Value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace graft;
using namespace graft::testing;
using vm::Value;

namespace {

const char *kProgram = R"PY(@I.ir_module
class Module:
    @R.function
    def half_of(z: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float64"):
        h = R.multiply(z, R.const(0.5, "float32"))
        w = R.astype(h, "float64")
        return w

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float64")):
        with R.dataflow():
            d = R.add(x, x)
            s = R.sin(d)
            s64 = R.astype(s, "float64")
            a = R.permute_dims(s64, axes=[1, 0])
            b = R.sin(y)
            x64 = R.astype(x, "float64")
            c = R.add(x64, y)
            t = (a, b)
            R.output(t, c)
        y2 = R.multiply(y, y)
        called = Module.half_of(x)
        return (t, c, y2, called, x)
)PY";

std::map<std::string, unsigned> bitsOf(const char *text) {
  auto file = parseText(text, "precision.py");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return {};
  }
  const IRModule &module = *file->modules.front();
  const ModuleEntry *entry = module.lookup("main");
  const FunctionNode *main = entry ? entry->asFunction() : nullptr;
  if (!main) {
    ADD_FAILURE() << "no main";
    return {};
  }
  return outputFloatBits(module, *main);
}

TEST(DevicePrecision, EachOutputGetsTheNarrowestFloatItDependsOn) {
  std::map<std::string, unsigned> bits = bitsOf(kProgram);
  std::map<std::string, unsigned> want = {
      {"output_0_0", 32}, // astype(sin of float32) to float64
      {"output_0_1", 64}, // float64 math only
      {"output_1", 32},   // float32 input cast up, then float64 add
      {"output_2", 64},   // float64 math outside the dataflow block
      {"output_3", 32},   // a called function's float32 math
      {"output_4", 32},
  };
  EXPECT_EQ(bits, want);
}

Value f64Tensor(double v) {
  auto t = vm::TensorObj::emptyHost({1}, DLDataType{kDLFloat, 64, 1});
  if (!t) {
    ADD_FAILURE() << llvm::toString(t.takeError());
    return Value();
  }
  std::memcpy((*t)->bytes(), &v, 8);
  return Value::object(*t);
}

TEST(DevicePrecision, AFloat64OutputOfFloat32MathIsComparedAtFloat32sBound) {
  // Seed 144's case: the float32 sin of one side an ulp off the other's.
  float cpu = std::sin(-1.0f);
  float dev = std::nextafter(cpu, 0.0f);
  Value a = f64Tensor(dev), b = f64Tensor(cpu);
  FloatBounds bounds{64, 1024};
  EXPECT_EQ(compareDeviceOutputs(a, b, bounds, {{"output", 32}}), "");
  // Computed in float64, the same difference is far past float64's bound.
  std::string diff = compareDeviceOutputs(a, b, bounds, {{"output", 64}});
  EXPECT_NE(diff.find("output[0]: -0.84"), std::string::npos) << diff;
  EXPECT_NE(compareDeviceOutputs(a, b, bounds, {}), "") << "unknown: the dtype's own bound";
  // Float32's bound is still a bound: 65 float32 ulps differ.
  float far = cpu;
  for (int i = 0; i < 65; ++i)
    far = std::nextafter(far, 0.0f);
  // Scaled by 1024 float32 epsilons it would pass; no eps term here.
  EXPECT_NE(compareDeviceOutputs(f64Tensor(far), b, FloatBounds{64, 0}, {{"output", 32}}), "");
}

TEST(DevicePrecision, TupleFieldsFallBackToTheEnclosingOutput) {
  float cpu = std::sin(-1.0f);
  Value a = Value::tuple({f64Tensor(std::nextafter(cpu, 0.0f)), f64Tensor(1.0)});
  Value b = Value::tuple({f64Tensor(cpu), f64Tensor(1.0)});
  FloatBounds bounds{64, 1024};
  EXPECT_EQ(compareDeviceOutputs(a, b, bounds, {{"output", 32}}), "");
  EXPECT_EQ(compareDeviceOutputs(a, b, bounds, {{"output", 64}, {"output_0", 32}}), "");
  std::string diff = compareDeviceOutputs(a, b, bounds, {{"output", 32}, {"output_0", 64}});
  EXPECT_NE(diff.find("output_0[0]"), std::string::npos) << diff;
}

} // namespace
