//===- tests/ir/SugaredVsPrintedTest.cpp - two spellings, one IR ------------===//
//
// TVM's tests write modules with sugared arguments (0, "global", "float32",
// string shapes, positional out_sinfo) while its printer writes the explicit
// forms (R.prim_value(0), R.str, R.dtype, every attr, five-arg alloc_tensor).
// Each pair below is the same module in both spellings: they must parse to
// structurally equal IR and print to the same bytes. A few pairs that differ
// in one detail check that the comparison can fail.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "text/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace graft;

namespace {

const char *kHeader = "from tvm.script import ir as I, relax as R, tir as T\n";

std::unique_ptr<IRModule> parseOne(const std::string &body, llvm::StringRef name) {
  auto parsed = parseText(kHeader + body, name);
  if (!parsed) {
    ADD_FAILURE() << name.str() << ": " << llvm::toString(parsed.takeError());
    return nullptr;
  }
  if (parsed->modules.size() != 1) {
    ADD_FAILURE() << name.str() << ": expected one module";
    return nullptr;
  }
  return std::move(parsed->modules[0]);
}

std::string print(const IRModule &m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printModule(os, m);
  return os.str();
}

/// Sugared and printed spellings of one module: equal IR, same printed text.
void expectSame(const std::string &sugared, const std::string &printed) {
  auto a = parseOne(sugared, "sugared.py");
  auto b = parseOne(printed, "printed.py");
  ASSERT_TRUE(a && b);
  auto mismatch = firstMismatch(*a, *b);
  EXPECT_FALSE(mismatch.hasValue()) << (mismatch ? mismatch->report() : std::string());
  EXPECT_TRUE(structuralEqual(*a, *b));
  EXPECT_EQ(print(*a), print(*b));
}

/// Two spellings that must NOT give the same IR.
void expectDifferent(const std::string &lhs, const std::string &rhs) {
  auto a = parseOne(lhs, "lhs.py");
  auto b = parseOne(rhs, "rhs.py");
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(structuralEqual(*a, *b));
}

} // namespace

TEST(SugaredVsPrintedTest, MemoryAllocStorageAndTensor) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    s = R.memory.alloc_storage(R.shape([16]), 0, "global", "float32")
    y = R.memory.alloc_tensor(s, 0, R.shape([4]), "float32")
    return y
)",
             R"(
@R.function
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    s: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
    y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
    return y
)");
}

TEST(SugaredVsPrintedTest, VMAllocStorageAndTensor) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    s = R.vm.alloc_storage(R.shape([16]), 0, "uint8")
    y = R.vm.alloc_tensor(s, 0, R.shape([4]), "float32")
    return y
)",
             R"(
@R.function
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    s: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
    y: R.Tensor((4,), dtype="float32") = R.vm.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
    return y
)");
}

TEST(SugaredVsPrintedTest, BuiltinAllocTensorThreeArgsVersusFour) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float16"):
    y = R.builtin.alloc_tensor(R.shape([2, 3]), "float16", 0)
    return y
)",
             R"(
@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float16"):
    y: R.Tensor((2, 3), dtype="float16") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float16"), R.prim_value(0), R.str("global"))
    return y
)");
}

TEST(SugaredVsPrintedTest, BuiltinAllocTensorThroughEmitWithSInfo) {
  // v0.23's CallTIRRewrite output: the only v0.23-parsable spelling of an
  // alloc call carrying sinfo_args.
  expectSame(R"(
@R.function
def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    y = R.emit_with_sinfo("relax.builtin.alloc_tensor", (R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global")), (R.Tensor((2,), "float32"),))
    return y
)",
             R"(
@R.function
def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
    y: R.Tensor((2,), dtype="float32") = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"), sinfo_args=(R.Tensor((2,), dtype="float32"),))
    return y
)");
}

TEST(SugaredVsPrintedTest, MemoryView) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((6,), "float32"):
    a = R.memory.view(x, [6], "float32", 0)
    b = R.memory.view(x, dtype="int32")
    c = R.memory.view(x, None, None, None)
    return a
)",
             R"(
@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((6,), dtype="float32"):
    a: R.Tensor((6,), dtype="float32") = R.memory.view(x, R.shape([6]), R.dtype("float32"), R.prim_value(0))
    b: R.Tensor((2, 3), dtype="int32") = R.memory.view(x, R.tuple(), R.dtype("int32"), R.tuple())
    c: R.Tensor((2, 3), dtype="float32") = R.memory.view(x, R.tuple(), R.tuple(), R.tuple())
    return a
)");
}

TEST(SugaredVsPrintedTest, StringShapesVersusDeclarations) {
  // TVM tests declare `n = T.int64()` after a string-shaped signature; graft
  // prints no declaration for a plain int64 var the signature defines.
  expectSame(R"(
@R.function
def main(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor(("m",), "float32")) -> R.Tensor(("n", "m"), "float32"):
    n = T.int64()
    m = T.int64()
    z = R.add(x, y)
    w = R.reshape(z, R.shape([n, m]))
    return w
)",
             R"(
@R.function
def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
    z: R.Tensor((n, m), dtype="float32") = R.add(x, y)
    w: R.Tensor((n, m), dtype="float32") = R.reshape(z, R.shape([n, m]))
    return w
)");
}

TEST(SugaredVsPrintedTest, SizeVarDeclarationIsKept) {
  expectSame(R"(
@R.function
def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    n = T.int64(is_size_var=True)
    return x
)",
             R"(
@R.function
def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
    n = T.int64(is_size_var=True)
    return x
)");
  expectDifferent(R"(
@R.function
def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    n = T.int64(is_size_var=True)
    return x
)",
                  R"(
@R.function
def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    return x
)");
}

TEST(SugaredVsPrintedTest, TInt64LiteralsVersusBareInts) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((T.int64(2), T.int64(3)), "float32")) -> R.Tensor((6,), "float32"):
    y = R.reshape(x, (T.int64(6),))
    return y
)",
             R"(
@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((6,), dtype="float32"):
    y: R.Tensor((6,), dtype="float32") = R.reshape(x, R.shape([6]))
    return y
)");
}

TEST(SugaredVsPrintedTest, PrimValueSugar) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
    a = R.tril(x, 1)
    b = R.clip(a, 0, 6)
    c = R.call_pure_packed("f", b, 2, "s", sinfo_args=R.Tensor((4, 4), "float32"))
    return c
)",
             R"(
@R.function
def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
    a: R.Tensor((4, 4), dtype="float32") = R.tril(x, R.prim_value(1))
    b: R.Tensor((4, 4), dtype="float32") = R.clip(a, R.prim_value(0), R.prim_value(6))
    c: R.Tensor((4, 4), dtype="float32") = R.call_pure_packed("f", b, R.prim_value(2), R.str("s"), sinfo_args=(R.Tensor((4, 4), dtype="float32"),))
    return c
)");
}

TEST(SugaredVsPrintedTest, Int32PrimValueIsNotInt64) {
  // graft prints R.prim_value(T.int32(0)) for an int32 value (TVM prints a
  // bare 0, which reads back as int64).
  expectDifferent(R"(
@R.function
def main() -> R.Prim("int32"):
    return R.prim_value(T.int32(0))
)",
                  R"(
@R.function
def main() -> R.Prim("int64"):
    return R.prim_value(0)
)");
  auto m = parseOne(R"(
@R.function
def main() -> R.Prim("int32"):
    p = R.prim_value(T.int32(7))
    return p
)",
                    "int32.py");
  ASSERT_TRUE(m);
  EXPECT_NE(print(*m).find("R.prim_value(T.int32(7))"), std::string::npos) << print(*m);
}

TEST(SugaredVsPrintedTest, DTypeAndStringSugar) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    y = R.call_dps_packed("f", x, R.Tensor((4,), "float32"))
    z = R.hint_on_device(y, R.device(2, 0))
    return z
)",
             R"(
@R.function
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    y = R.call_dps_packed("f", (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
    z: R.Tensor((4,), dtype="float32") = R.hint_on_device(y, R.device(device_type=2, index=0), "global")
    return z
)");
}

TEST(SugaredVsPrintedTest, DeviceSpellings) {
  // TVM's tests write a device as a constructor (tvm.cpu(), tvm.cuda(0),
  // R.opencl(2)), as R.device(type, index) or with a device name; each is
  // the pair of device-type code and index the printer writes.
  expectSame(R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.hint_on_device(x, tvm.cpu())
    b = R.hint_on_device(a, tvm.cuda(0))
    c = R.hint_on_device(b, R.opencl(2), "global.texture")
    d = R.hint_on_device(c, R.device("cuda", 1))
    e = R.hint_on_device(d, R.device(dev_type=1, dev_id=3))
    f = R.hint_on_device(e, tvm.runtime.vulkan(dev_id=1))
    return f
)",
             R"(
@R.function
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    a: R.Tensor((4,), dtype="float32") = R.hint_on_device(x, R.device(device_type=1, index=0), "global")
    b: R.Tensor((4,), dtype="float32") = R.hint_on_device(a, R.device(device_type=2, index=0), "global")
    c: R.Tensor((4,), dtype="float32") = R.hint_on_device(b, R.device(device_type=4, index=2), "global.texture")
    d: R.Tensor((4,), dtype="float32") = R.hint_on_device(c, R.device(device_type=2, index=1), "global")
    e: R.Tensor((4,), dtype="float32") = R.hint_on_device(d, R.device(device_type=1, index=3), "global")
    f: R.Tensor((4,), dtype="float32") = R.hint_on_device(e, R.device(device_type=7, index=1), "global")
    return f
)");
  expectDifferent(R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.hint_on_device(x, tvm.cpu())
    return a
)",
                  R"(
@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.hint_on_device(x, tvm.cuda())
    return a
)");
}

TEST(SugaredVsPrintedTest, ObjectVersusAny) {
  expectSame(R"(
@R.function
def main(x: R.Any, y: R.Tuple(R.Any(), R.Tensor)) -> R.Any:
    z: R.Any = R.call_pure_packed("f", x, sinfo_args=R.Any)
    return z
)",
             R"(
@R.function
def main(x: R.Object, y: R.Tuple(R.Object, R.Tensor)) -> R.Object:
    z: R.Object = R.call_pure_packed("f", x, sinfo_args=(R.Object,))
    return z
)");
  expectDifferent(R"(
@R.function
def main(x: R.Any) -> R.Any:
    return x
)",
                  R"(
@R.function
def main(x: R.Tensor) -> R.Tensor:
    return x
)");
}

TEST(SugaredVsPrintedTest, SInfoArgsVersusTyArgs) {
  expectSame(R"(
@R.function(pure=False)
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.call_packed("f", x, ty_args=R.Tensor((4,), "float32"))
    b = R.call_pure_packed("g", a, ty_args=[R.Tensor((4,), "float32")])
    c = R.call_builtin_with_ctx("h", (b,), ty_args=(R.Tensor((4,), "float32"),))
    return c
)",
             R"(
@R.function(pure=False)
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    a: R.Tensor((4,), dtype="float32") = R.call_packed("f", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
    b: R.Tensor((4,), dtype="float32") = R.call_pure_packed("g", a, sinfo_args=(R.Tensor((4,), dtype="float32"),))
    c: R.Tensor((4,), dtype="float32") = R.call_builtin_with_ctx("h", (b,), sinfo_args=(R.Tensor((4,), dtype="float32"),))
    return c
)");
}

TEST(SugaredVsPrintedTest, CallTIRPositionalAndSingleArg) {
  const char *prim = R"(
    @T.prim_func(private=True)
    def copy(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.evaluate(0)
)";
  expectSame(std::string("@I.ir_module\nclass Module:") + prim + R"(
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.copy, x, R.Tensor((4,), "float32"))
        return y
)",
             std::string("@I.ir_module\nclass Module:") + prim + R"(
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return y
)");
}

TEST(SugaredVsPrintedTest, OpAttrsDefaultsAndShapes) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((3,), "float32"):
    a = R.sum(x, axis=0)
    b = R.reshape(x, (3, -1))
    c = R.permute_dims(b)
    d = R.astype(x, "float16")
    e = R.zeros((2, 3), "int32")
    return a
)",
             R"(
@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
    a: R.Tensor((3,), dtype="float32") = R.sum(x, axis=[0], keepdims=False)
    b: R.Tensor((3, 2), dtype="float32") = R.reshape(x, R.shape([3, 2]))
    c: R.Tensor((2, 3), dtype="float32") = R.permute_dims(b, axes=None)
    d: R.Tensor((2, 3), dtype="float16") = R.astype(x, dtype="float16")
    e: R.Tensor((2, 3), dtype="int32") = R.zeros(R.shape([2, 3]), dtype="int32")
    return a
)");
}

TEST(SugaredVsPrintedTest, StructInfoSpellings) {
  expectSame(R"(
@R.function
def main(a: R.Tensor([2, 3], "float32"), b: R.Tensor("float32", ndim=2), c: R.Tuple([R.Shape, R.Prim("int64")]), d: R.Callable([R.Tensor], R.Tensor)) -> R.Shape(ndim=-1):
    s = R.shape_of(a)
    return s
)",
             R"(
@R.function
def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor(dtype="float32", ndim=2), c: R.Tuple(R.Shape(ndim=-1), R.Prim("int64")), d: R.Callable((R.Tensor,), R.Tensor, True)) -> R.Shape([2, 3]):
    s: R.Shape([2, 3]) = R.shape_of(a)
    return s
)");
}

TEST(SugaredVsPrintedTest, PythonLiteralsBecomeConstants) {
  expectSame(R"(
@R.function
def main() -> R.Tensor((), "bool"):
    a = 1
    b = 2.5
    c = True
    return c
)",
             R"(
@R.function
def main() -> R.Tensor((), dtype="bool"):
    a: R.Tensor((), dtype="int32") = R.const(1, "int32")
    b: R.Tensor((), dtype="float32") = R.const(2.5, "float32")
    c: R.Tensor((), dtype="bool") = R.const(True, "bool")
    return c
)");
}

TEST(SugaredVsPrintedTest, OperatorSugar) {
  expectSame(R"(
@R.function
def main(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    a = x + y * x
    b = -a % y
    return b
)",
             R"(
@R.function
def main(x: R.Tensor((2,), dtype="float32"), y: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
    gv: R.Tensor((2,), dtype="float32") = R.multiply(y, x)
    a: R.Tensor((2,), dtype="float32") = R.add(x, gv)
    gv2: R.Tensor((2,), dtype="float32") = R.negative(a)
    b: R.Tensor((2,), dtype="float32") = R.mod(gv2, y)
    return b
)");
}

TEST(SugaredVsPrintedTest, ConditionalExpressionPicksABranch) {
  expectSame(R"(
@R.function
def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    n = T.int64()
    a = R.exp(x) if True else x
    s = R.shape([n if False else 4])
    return a
)",
             R"(
@R.function
def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
    a: R.Tensor((n,), dtype="float32") = R.exp(x)
    s: R.Shape([4]) = R.shape([4])
    return a
)");
}

TEST(SugaredVsPrintedTest, ToVDeviceResolvesAgainstTheModule) {
  expectSame(R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0)]})

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32", vdevice="cuda:0"):
        y = R.to_vdevice(x, "cuda:0")
        return y
)",
             R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global")]})

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32", vdevice="cuda:0:global"):
        y: R.Tensor((2,), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(x, dst_vdevice="cuda:0")
        return y
)");
}
