//===- tests/vm/ScalarProgramTest.cpp - Generated host PrimFuncs at run time ===//

#include "VMTestUtil.h"

#include "vm/ScalarProgram.h"

using namespace graft::vm;
using namespace graft::vm::test;

namespace {

std::unique_ptr<ScalarProgram> parseOk(llvm::StringRef body) {
  return take(ScalarProgram::parse("f", (kScalarProgramHeader + "\n" + body).str()));
}

std::string parseError(llvm::StringRef body) {
  return errorOf(ScalarProgram::parse("f", (kScalarProgramHeader + "\n" + body).str()));
}

Value runScalars(llvm::StringRef body, llvm::ArrayRef<Value> args) {
  auto p = parseOk(body);
  return p ? take(p->run(args)) : Value();
}

TEST(ScalarProgram, FloorDivisionRoundsDown) {
  const char *prog = "params 2\narg 0\narg 1\nfloordiv\nret int64\n";
  EXPECT_EQ(runScalars(prog, {Value::integer(7), Value::integer(2)}).getInt(), 3);
  EXPECT_EQ(runScalars(prog, {Value::integer(-7), Value::integer(2)}).getInt(), -4);
  EXPECT_EQ(runScalars(prog, {Value::integer(7), Value::integer(-2)}).getInt(), -4);
  const char *mod = "params 2\narg 0\narg 1\nfloormod\nret int64\n";
  EXPECT_EQ(runScalars(mod, {Value::integer(-7), Value::integer(2)}).getInt(), 1);
  EXPECT_EQ(runScalars(mod, {Value::integer(7), Value::integer(-2)}).getInt(), -1);
  // INT64_MIN // -1 wraps instead of trapping.
  EXPECT_EQ(runScalars(prog, {Value::integer(INT64_MIN), Value::integer(-1)}).getInt(), INT64_MIN);
}

TEST(ScalarProgram, DivisionByZeroIsAnError) {
  auto p = parseOk("params 2\narg 0\narg 1\nfloordiv\nret int64\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(errorOf(p->run({Value::integer(5), Value::integer(0)})),
            "f: division by zero (5 // 0)");
}

TEST(ScalarProgram, ComparisonsSelectAndCasts) {
  // select(a < b, a, b) == min(a, b); returned as bool.
  const char *prog = "params 2\narg 0\narg 1\nlt\narg 0\narg 1\nselect\narg 0\narg 1\nmin\neq\n"
                     "ret bool\n";
  Value v = runScalars(prog, {Value::integer(3), Value::integer(-2)});
  ASSERT_TRUE(v.isBool());
  EXPECT_TRUE(v.getBool());
  // 300 as int8 wraps to 44; a float truncates toward zero.
  EXPECT_EQ(runScalars("params 1\narg 0\ncast int8\nret int64\n", {Value::integer(300)}).getInt(),
            44);
  EXPECT_EQ(runScalars("params 1\narg 0\ncast int64\nret int64\n", {Value::real(-2.75)}).getInt(),
            -2);
  Value f = runScalars("params 0\nfloat 0.5\nint 3\nmul\nret float64\n", {});
  ASSERT_TRUE(f.isFloat());
  EXPECT_EQ(f.getFloat(), 1.5);
  EXPECT_FALSE(
      runScalars("params 1\narg 0\nnot\nint 0\nor\nret bool\n", {Value::boolean(true)}).getBool());
}

TEST(ScalarProgram, HeapLoadsAndStores) {
  auto p = parseOk("params heap\nload 0\nint 4\nmul\nstore 1\nload 0\nint 1\nadd\nstore 2\n");
  ASSERT_TRUE(p);
  Value heap = hostTensor<int64_t>({3}, kI64, {5, 0, 0});
  EXPECT_TRUE(take(p->run({heap})).isNone());
  EXPECT_EQ(tensorData<int64_t>(heap), (std::vector<int64_t>{5, 20, 6}));
  Value small = hostTensor<int64_t>({2}, kI64, {5, 0});
  EXPECT_EQ(errorOf(p->run({small})), "f: slot 2 is outside the shape heap of 2 slots");
  EXPECT_NE(errorOf(p->run({f32Tensor({3}, {0, 0, 0})})).find("must be a 1-d int64 host tensor"),
            std::string::npos);
}

TEST(ScalarProgram, ParseErrors) {
  EXPECT_EQ(errorOf(ScalarProgram::parse("f", "params 1\n")),
            "scalar program 'f' line 1: expected 'graft-scalar-program 1'");
  EXPECT_EQ(parseError("params x\n"),
            "scalar program 'f' line 2: expected 'params heap' or 'params N'");
  EXPECT_EQ(parseError("params 1\narg 0\npow\nret int64\n"),
            "scalar program 'f' line 4: unknown instruction 'pow'");
  EXPECT_EQ(parseError("params 1\narg 0\nadd\nret int64\n"),
            "scalar program 'f' instruction 1: needs 2 operands but the stack holds 1");
  EXPECT_EQ(parseError("params 1\narg 1\nret int64\n"),
            "scalar program 'f' instruction 0: argument 1 is out of range");
  EXPECT_EQ(parseError("params 1\nload 0\nret int64\n"),
            "scalar program 'f' instruction 0: load/store need 'params heap'");
  EXPECT_EQ(parseError("params heap\nint 1\n"),
            "scalar program 'f' instruction 1: values are left on the stack");
  EXPECT_EQ(parseError("params 1\narg 0\n"),
            "scalar program 'f' instruction 1: a program of scalar params must end with ret");
  EXPECT_EQ(parseError("params 1\narg 0\ncast int65\nret int64\n"),
            "scalar program 'f' line 4: unknown dtype 'int65'");
  EXPECT_EQ(parseError("params heap\nint 1\nstore -1\n"),
            "scalar program 'f' line 4: bad operand '-1' of store");
}

TEST(ScalarProgram, RunsAsAKernelSourceOfAnExecutable) {
  ExecBuilder b;
  b.beginFunction("main", {"n"});
  b.emitCall("sq_plus_one", {Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  b.addKernelSource(
      "sq_plus_one",
      (kScalarProgramHeader + "\nparams 1\narg 0\narg 0\nmul\nint 1\nadd\nret int64\n").str());
  auto vm = makeVM(finish(b));
  ASSERT_TRUE(vm);
  EXPECT_EQ(take(vm->invoke("main", {Value::integer(6)})).getInt(), 37);
}

TEST(ScalarProgram, BadKernelSourceIsRefusedByTheVerifier) {
  ExecBuilder b;
  b.beginFunction("main", {"n"});
  b.emitCall("bad", {Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  b.addKernelSource("bad", (kScalarProgramHeader + "\nparams 1\nadd\nret int64\n").str());
  EXPECT_EQ(errorOf(b.finish()), "kernel source 'bad': scalar program 'bad' instruction 0: needs 2 "
                                 "operands but the stack holds 0");
}

TEST(Profile, CountsPackedCalls) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  b.emitCall("vm.builtin.copy", {Arg::reg(0)}, 1);
  b.emitCall("vm.builtin.copy", {Arg::reg(1)}, 2);
  b.emitRet(2);
  b.endFunction();
  VMOptions options;
  options.profile = true;
  auto vm = take(VirtualMachine::create(finish(b), options));
  ASSERT_TRUE(vm);
  EXPECT_EQ(take(vm->invoke("main", {Value::integer(3)})).getInt(), 3);
  std::vector<ProfileEntry> entries = vm->profile();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "vm.builtin.copy");
  EXPECT_EQ(entries[0].calls, 2u);
  vm->resetProfile();
  EXPECT_EQ(vm->profile()[0].calls, 0u);
}

} // namespace

TEST(Profile, MeasuresItsOwnCostPerCall) {
  auto exe = [] {
    ExecBuilder b;
    b.beginFunction("main", {"x"});
    b.emitRet(0);
    b.endFunction();
    return finish(b);
  };
  VMOptions options;
  options.profile = true;
  auto vm = take(VirtualMachine::create(exe(), options));
  ASSERT_TRUE(vm);
  // Two clock reads and a trampoline: more than nothing, far less than 10 us.
  EXPECT_GT(vm->profileOverheadPerCall(), 0.0);
  EXPECT_LT(vm->profileOverheadPerCall(), 1e-5);
  EXPECT_GE(vm->profileOverheadInsideCall(), 0.0);
  EXPECT_LE(vm->profileOverheadInsideCall(), vm->profileOverheadPerCall());
  auto plain = take(VirtualMachine::create(exe()));
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->profileOverheadPerCall(), 0.0);
}
