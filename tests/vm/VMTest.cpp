//===- tests/vm/VMTest.cpp - Interpreter, kernel bridge, end to end --------===//

#include "VMTestUtil.h"
#include "vm/KernelBridge.h"

#include "llvm/Support/FileSystem.h"

using namespace graft::vm;
using namespace graft::vm::test;
using graft::kernels::KernelArgs;
using graft::kernels::KernelInfo;

namespace {

int workspaceSeen = 0;

/// out = a + alpha * b over float32; asks for 16 bytes of workspace.
llvm::Error axpy(const KernelArgs &args) {
  if (args.workspace.bytes < 16 || !args.workspace.data)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "needs 16 bytes of workspace");
  ++workspaceSeen;
  double alpha = std::get<double>(args.attrs[0]);
  const DLTensor *a = args.inputs[0], *b = args.inputs[1];
  DLTensor *out = args.outputs[0];
  int64_t n = 1;
  for (int i = 0; i < a->ndim; ++i)
    n *= a->shape[i];
  if (b->ndim != a->ndim || out->ndim != a->ndim)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "rank mismatch");
  auto *pa = static_cast<const float *>(a->data);
  auto *pb = static_cast<const float *>(b->data);
  auto *po = static_cast<float *>(out->data);
  for (int64_t i = 0; i < n; ++i)
    po[i] = pa[i] + static_cast<float>(alpha) * pb[i];
  return llvm::Error::success();
}

size_t axpyWorkspace(const KernelArgs &) { return 16; }

const llvm::StringRef kAxpyAttrs[] = {"alpha"};
const KernelInfo kAxpy{"test.vm.axpy", 2, 1, kAxpyAttrs, axpy, axpyWorkspace};

/// Sum of variadic inputs into one output (numInputs = -1).
llvm::Error sumAll(const KernelArgs &args) {
  auto *po = static_cast<float *>(args.outputs[0]->data);
  po[0] = 0;
  for (const DLTensor *t : args.inputs)
    po[0] += static_cast<const float *>(t->data)[0];
  return llvm::Error::success();
}
const KernelInfo kSumAll{"test.vm.sum_all", -1, 1, {}, sumAll};

struct RegisterTestKernels {
  RegisterTestKernels() {
    graft::kernels::registerKernel(&kAxpy);
    graft::kernels::registerKernel(&kSumAll);
  }
};

void registerTestKernels() { static RegisterTestKernels once; }

Value f32Shape(std::initializer_list<int64_t> dims) { return Value::shape(dims); }

/// The end-to-end program of the "done" criterion.
///
/// addInto(a, out, b) { axpy(a, b, 1.0, out); ret out }
/// main(x, flag) {
///   s = alloc_storage(%vm, shape[32], 0, f32, "global")
///   t1 = alloc_tensor(s, 0, shape[4], f32); t2 = alloc_tensor(s, 16, ...)
///   axpy(x, ones, 1.0, t1)                      ; t1 = x + 1
///   if read_if_cond(flag):
///     clo = make_closure(f[addInto], tens)      ; binds b = 10s
///     r = invoke_closure(%vm, clo, t1, t2)      ; t2 = t1 + 10
///   else:
///     axpy(t1, t1, 1.0, t2); r = copy(t2)       ; t2 = 2 * t1
///   ret (t1, r, shape_of(r), 7)
/// }
std::unique_ptr<Executable> endToEndProgram() {
  registerTestKernels();
  ExecBuilder b;
  std::vector<ParamInfo> params = {ParamInfo::tensor("x", kF32, {DimInfo::fixed(4)}), ParamInfo()};
  params[1].name = "flag";
  params[1].kind = ParamKind::Bool;
  b.beginFunction("main", {"x", "flag"}, params);
  Arg f32 = b.convertConstant(Value::dataType(kF32));
  Arg shape4 = b.convertConstant(f32Shape({4}));
  Arg one = b.convertConstant(Value::real(1.0));
  b.emitCall("vm.builtin.alloc_storage",
             {Arg::reg(kVMRegister), b.convertConstant(f32Shape({32})), Arg::imm(0), f32,
              b.convertConstant(Value::string("global"))},
             2);
  b.emitCall("vm.builtin.alloc_tensor", {Arg::reg(2), Arg::imm(0), shape4, f32}, 3);
  b.emitCall("vm.builtin.alloc_tensor", {Arg::reg(2), Arg::imm(16), shape4, f32}, 4);
  b.emitCall("test.vm.axpy",
             {Arg::reg(0), b.convertConstant(f32Tensor({4}, {1, 1, 1, 1})), one, Arg::reg(3)});
  b.emitCall("vm.builtin.read_if_cond", {Arg::reg(1)}, 5);
  b.emitIf(5, 4);
  b.emitCall("vm.builtin.make_closure",
             {b.functionArg("addInto"), b.convertConstant(f32Tensor({4}, {10, 10, 10, 10}))}, 6);
  b.emitCall("vm.builtin.invoke_closure",
             {Arg::reg(kVMRegister), Arg::reg(6), Arg::reg(3), Arg::reg(4)}, 7);
  b.emitGoto(3);
  b.emitCall("test.vm.axpy", {Arg::reg(3), Arg::reg(3), one, Arg::reg(4)});
  b.emitCall("vm.builtin.copy", {Arg::reg(4)}, 7);
  b.emitCall("vm.builtin.shape_of", {Arg::reg(7)}, 8);
  b.emitCall("vm.builtin.make_tuple", {Arg::reg(3), Arg::reg(7), Arg::reg(8), Arg::imm(7)}, 9);
  b.emitRet(9);
  b.endFunction();

  b.beginFunction("addInto", {"a", "out", "b"});
  b.emitCall("test.vm.axpy", {Arg::reg(0), Arg::reg(2), one, Arg::reg(1)});
  b.emitRet(1);
  b.endFunction();
  return take(b.finish());
}

/// Runs main(x, flag) and flattens the result for comparison.
std::vector<float> runEndToEnd(std::shared_ptr<const Executable> exe, bool flag) {
  auto vm = makeVM(std::move(exe));
  if (!vm)
    return {};
  Value x = f32Tensor({4}, {1, 2, 3, 4});
  Value out = take(vm->invoke("main", {x, Value::boolean(flag)}));
  auto *tup = out.as<TupleObj>();
  if (!tup) {
    ADD_FAILURE() << "not a tuple: " << out.str();
    return {};
  }
  EXPECT_EQ(tup->fields.size(), 4u);
  EXPECT_EQ(tup->fields[2].str(), "shape[4]");
  EXPECT_EQ(tup->fields[3].getInt(), 7);
  std::vector<float> all = tensorData<float>(tup->fields[0]);
  for (float v : tensorData<float>(tup->fields[1]))
    all.push_back(v);
  return all;
}

} // namespace

TEST(EndToEnd, RunsSavesLoadsAndRunsAgain) {
  std::shared_ptr<const Executable> exe = endToEndProgram();
  ASSERT_TRUE(exe);
  std::vector<float> trueBranch = {2, 3, 4, 5, 12, 13, 14, 15};
  std::vector<float> falseBranch = {2, 3, 4, 5, 4, 6, 8, 10};
  EXPECT_EQ(runEndToEnd(exe, true), trueBranch);
  EXPECT_EQ(runEndToEnd(exe, false), falseBranch);

  std::shared_ptr<const Executable> fromBytes = take(loadFromBytes(saveToBytes(*exe)));
  ASSERT_TRUE(fromBytes);
  EXPECT_EQ(runEndToEnd(fromBytes, true), trueBranch);
  EXPECT_EQ(runEndToEnd(fromBytes, false), falseBranch);

  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("graft-e2e", "gexe", path));
  ASSERT_FALSE(bool(saveToFile(*exe, path)));
  std::shared_ptr<const Executable> fromFile = take(loadFromFile(path));
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(fromFile);
  EXPECT_EQ(runEndToEnd(fromFile, true), trueBranch);
  EXPECT_GT(workspaceSeen, 0);
}

TEST(EndToEnd, StorageIsReusedAcrossCalls) {
  std::shared_ptr<const Executable> exe = endToEndProgram();
  auto vm = makeVM(exe);
  Value x = f32Tensor({4}, {1, 2, 3, 4});
  for (int i = 0; i < 3; ++i) {
    Value out = take(vm->invoke("main", {x, Value::boolean(true)}));
    ASSERT_TRUE(out.as<TupleObj>());
  }
  // Each call's storage went back to the cache when its result died.
  EXPECT_EQ(vm->allocator(0)->stats().deviceAllocs, 2u); // storage + workspace
  EXPECT_EQ(vm->allocator(0)->stats().currentBytes, 0u);
}

// Interpreter ------------------------------------------------------------------

TEST(Interpreter, GotoAndIfFollowOffsets) {
  // f(c) { if c: r = 1 else r = 2; ret r } using copy of immediates.
  ExecBuilder b;
  b.beginFunction("f", {"c"});
  b.emitIf(0, 3);
  b.emitCall("vm.builtin.copy", {Arg::imm(1)}, 1);
  b.emitGoto(2);
  b.emitCall("vm.builtin.copy", {Arg::imm(2)}, 1);
  b.emitRet(1);
  b.endFunction();
  auto vm = makeVM(finish(b));
  EXPECT_EQ(take(vm->invoke("f", {Value::integer(5)})).getInt(), 1);
  EXPECT_EQ(take(vm->invoke("f", {Value::boolean(false)})).getInt(), 2);
  EXPECT_EQ(errorOf(vm->invoke("f", {Value::string("no")})),
            "in function 'f' at instruction 0 (if): if condition must be an "
            "int or bool but is \"no\"");
}

TEST(Interpreter, CallsBetweenVMFunctionsAndRecursionLimit) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  b.emitCall(b.functionArg("id").value(), {Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  b.beginFunction("id", {"y"});
  b.emitRet(0);
  b.endFunction();
  b.beginFunction("loop", {});
  b.emitCall(b.functionArg("loop").value(), {}, 0);
  b.emitRet(0);
  b.endFunction();
  auto vm = makeVM(finish(b));
  EXPECT_EQ(take(vm->invoke("main", {Value::integer(42)})).getInt(), 42);
  std::string msg = errorOf(vm->invoke("loop", {}));
  EXPECT_EQ(msg.rfind("(496 outer frames omitted) in function 'loop' at "
                      "instruction 3 (call loop): ",
                      0),
            0u)
      << msg.substr(0, 300);
  EXPECT_NE(msg.find("call depth limit 512 exceeded calling function 'loop'"), std::string::npos);
  // The VM is usable after the failure.
  EXPECT_EQ(take(vm->invoke("main", {Value::integer(1)})).getInt(), 1);
}

TEST(Interpreter, InstructionBudgetStopsALoop) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  b.emitCall(b.functionArg("spin").value(), {}, kVoidRegister);
  b.emitRet(0);
  b.endFunction();
  b.beginFunction("spin", {});
  b.emitCall("vm.builtin.copy", {Arg::imm(1)}, kVoidRegister);
  b.emitGoto(-1); // back to the copy, for ever
  b.emitRet(kVoidRegister);
  b.endFunction();
  b.beginFunction("three", {"x"});
  b.emitCall("vm.builtin.copy", {Arg::reg(0)}, 1);
  b.emitCall("vm.builtin.copy", {Arg::reg(1)}, 0);
  b.emitRet(0);
  b.endFunction();
  std::shared_ptr<const Executable> exe = finish(b);
  VMOptions options;
  options.maxInstructions = 1000;
  auto vm = take(VirtualMachine::create(exe, options));
  EXPECT_EQ(errorOf(vm->invoke("main", {Value::integer(1)})),
            "in function 'main' at instruction 0 (call spin): in function 'spin' at instruction "
            "3: the budget of 1000 instructions per call is spent (VMOptions::maxInstructions)");
  // Each call from outside gets the whole budget again.
  options.maxInstructions = 3;
  vm = take(VirtualMachine::create(exe, options));
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(take(vm->invoke("three", {Value::integer(i)})).getInt(), i);
  options.maxInstructions = 2;
  vm = take(VirtualMachine::create(exe, options));
  EXPECT_EQ(errorOf(vm->invoke("three", {Value::integer(1)})),
            "in function 'three' at instruction 7: the budget of 2 instructions per call is spent "
            "(VMOptions::maxInstructions)");
}

TEST(Interpreter, MemoryLimitRefusesAnAllocation) {
  VMOptions options;
  options.maxMemoryBytes = 4096;
  ExecBuilder b;
  b.beginFunction("f", {"n"});
  b.emitCall("vm.builtin.alloc_shape_heap", {Arg::reg(kVMRegister), Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  auto vm = take(VirtualMachine::create(finish(b), options));
  // 512 int64 slots fit exactly; 513 do not, nor does an absurd size.
  EXPECT_EQ(take(vm->invoke("f", {Value::integer(512)})).as<TensorObj>()->numElements(), 512);
  EXPECT_EQ(errorOf(vm->invoke("f", {Value::integer(513)})),
            "in function 'f' at instruction 0 (call vm.builtin.alloc_shape_heap): "
            "vm.builtin.alloc_shape_heap: allocation of 4104 bytes on cpu:0 refused: 0 of the "
            "limit of 4096 bytes are in use (VMOptions::maxMemoryBytes)");
  std::string huge = errorOf(vm->invoke("f", {Value::integer(int64_t(1) << 40)}));
  EXPECT_NE(huge.find("refused: 0 of the limit of 4096 bytes"), std::string::npos) << huge;
  EXPECT_EQ(vm->allocator(0)->stats().currentBytes, 0u);
}

TEST(Interpreter, ErrorsNameFunctionAndInstruction) {
  ExecBuilder b;
  b.beginFunction("main", {});
  b.emitCall(b.functionArg("inner").value(), {}, 0);
  b.emitRet(0);
  b.endFunction();
  b.beginFunction("inner", {});
  b.emitCall("vm.builtin.copy", {Arg::imm(1)}, 0);
  b.emitCall("vm.builtin.assert",
             {Arg::imm(0), b.convertConstant(Value::string("x={} y={}")), Arg::imm(3),
              b.convertConstant(Value::string("s"))},
             kVoidRegister);
  b.emitRet(0);
  b.endFunction();
  auto vm = makeVM(finish(b));
  EXPECT_EQ(errorOf(vm->invoke("main", {})),
            "in function 'main' at instruction 0 (call inner): in function "
            "'inner' at instruction 3 (call vm.builtin.assert): "
            "vm.builtin.assert: x=3 y=s");
}

TEST(Interpreter, SpecialRegisters) {
  ExecBuilder b;
  b.beginFunction("f", {});
  b.emitCall("vm.builtin.copy", {Arg::reg(kVMRegister)}, 0);
  b.emitCall("vm.builtin.copy", {Arg()}, 1); // void register reads None
  b.emitCall("vm.builtin.make_tuple", {Arg::reg(0), Arg::reg(1)}, 2);
  b.emitRet(2);
  b.endFunction();
  auto vm = makeVM(finish(b));
  Value v = take(vm->invoke("f", {}));
  EXPECT_EQ(v.str(), "(opaque<graft.vm>, none)");
  EXPECT_EQ(VirtualMachine::fromHandle(v.as<TupleObj>()->fields[0]), vm.get());
}

TEST(Interpreter, KillReleasesTheRegister) {
  // alloc a tensor, kill it (null_value into its register), return none.
  ExecBuilder b;
  b.beginFunction("f", {});
  b.emitCall(
      "vm.builtin.alloc_storage",
      {Arg::reg(kVMRegister), Arg::imm(256), Arg::imm(0), b.convertConstant(Value::dataType(kF32))},
      0);
  b.emitCall("vm.builtin.null_value", {}, 0);
  b.emitCall(
      "vm.builtin.alloc_storage",
      {Arg::reg(kVMRegister), Arg::imm(256), Arg::imm(0), b.convertConstant(Value::dataType(kF32))},
      1);
  b.emitRet(1);
  b.endFunction();
  auto vm = makeVM(finish(b));
  Value s = take(vm->invoke("f", {}));
  // The second allocation reused the killed block.
  EXPECT_EQ(vm->allocator(0)->stats().deviceAllocs, 1u);
  EXPECT_EQ(vm->allocator(0)->stats().cacheHits, 1u);
  EXPECT_EQ(vm->allocator(0)->stats().peakBytes, 256u);
}

TEST(Interpreter, UnknownPackedFunctionFailsAtCreate) {
  ExecBuilder b;
  b.beginFunction("f", {});
  b.emitCall("no.such.function", {}, 0);
  b.emitRet(0);
  b.endFunction();
  EXPECT_EQ(errorOf(VirtualMachine::create(finish(b))),
            "packed function 'no.such.function' is not registered (no builtin "
            "and no kernel of that name)");
}

TEST(Interpreter, UserRegisteredPackedFunction) {
  PackedRegistry::global().add(
      "test.vm.twice",
      [](VirtualMachine &, const void *, llvm::ArrayRef<Value> args) -> llvm::Expected<Value> {
        return Value::integer(2 * args[0].getInt());
      });
  EXPECT_EQ(take(callThroughProgram("test.vm.twice", {Value::integer(21)})).getInt(), 42);
}

// Input checks -----------------------------------------------------------------

namespace {

std::unique_ptr<VirtualMachine> checkedVM() {
  ExecBuilder b;
  std::vector<ParamInfo> params = {
      ParamInfo::tensor("x", kF32, {DimInfo::sym("n"), DimInfo::fixed(3)}),
      ParamInfo::tensor("y", kF32, {DimInfo::sym("n")}), ParamInfo()};
  params[2].name = "s";
  params[2].kind = ParamKind::Shape;
  params[2].ndim = 2;
  params[2].dims = {DimInfo::any(), DimInfo::sym("n")};
  b.beginFunction("main", {"x", "y", "s"}, params);
  b.emitRet(0);
  b.endFunction();
  return makeVM(finish(b));
}

Value zeros(std::initializer_list<int64_t> shape, DLDataType dt = kF32) {
  return Value::object(take(TensorObj::emptyHost(shape, dt)));
}

} // namespace

TEST(InputCheck, AcceptsConsistentInputs) {
  auto vm = checkedVM();
  EXPECT_TRUE(bool(vm->invoke("main", {zeros({2, 3}), zeros({2}), Value::shape({9, 2})})));
}

TEST(InputCheck, MessagesNameParameterDimAndSizes) {
  auto vm = checkedVM();
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 3}), zeros({5}), Value::shape({9, 2})})),
            "function 'main' parameter 'y' dim 0: symbolic dim 'n' is 5 here "
            "but 2 in parameter 'x' dim 0");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 4}), zeros({2}), Value::shape({9, 2})})),
            "function 'main' parameter 'x' dim 1: expected size 3 but got 4");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 3}, kI32), zeros({2}), Value::shape({9, 2})})),
            "function 'main' parameter 'x': expected dtype float32 but got "
            "int32");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2}), zeros({2}), Value::shape({9, 2})})),
            "function 'main' parameter 'x': expected 2 dims but got 1");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 3}), zeros({2}), Value::shape({9, 7})})),
            "function 'main' parameter 's' dim 1: symbolic dim 'n' is 7 here "
            "but 2 in parameter 'x' dim 0");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 3}), Value::integer(1), Value::shape({9, 2})})),
            "function 'main' parameter 'y': expected tensor but got 1");
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({2, 3})})),
            "function 'main' expects 3 arguments but got 1");
  EXPECT_EQ(errorOf(vm->invoke("nope", {})), "no function named 'nope' in the executable");
}

TEST(InputCheck, DeviceMismatch) {
  ExecBuilder b;
  b.beginFunction("main", {"x"}, {ParamInfo::tensor("x", kF32, {}, DLDevice{kDLCUDA, 0})});
  b.emitRet(0);
  b.endFunction();
  auto vm = makeVM(finish(b));
  EXPECT_EQ(errorOf(vm->invoke("main", {zeros({})})),
            "function 'main' parameter 'x': expected device cuda:0 but got "
            "cpu:0");
}

// Kernel bridge ----------------------------------------------------------------

TEST(KernelBridge, PassesInputsAttrsOutputsAndWorkspace) {
  registerTestKernels();
  Value out = zeros({2});
  ASSERT_TRUE(bool(callThroughProgram(
      "test.vm.axpy", {f32Tensor({2}, {1, 2}), f32Tensor({2}, {3, 4}), Value::real(0.5), out})));
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{2.5f, 4}));
}

TEST(KernelBridge, VariadicInputs) {
  registerTestKernels();
  Value out = zeros({1});
  ASSERT_TRUE(bool(callThroughProgram(
      "test.vm.sum_all", {f32Tensor({1}, {1}), f32Tensor({1}, {2}), f32Tensor({1}, {4}), out})));
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{7}));
}

TEST(KernelBridge, ArgumentErrors) {
  registerTestKernels();
  EXPECT_EQ(errorOf(callThroughProgram("test.vm.axpy", {zeros({2}), zeros({2}), Value::real(1)})),
            "in function 'f' at instruction 0 (call test.vm.axpy): kernel "
            "test.vm.axpy: expects 2 inputs, 1 attributes and 1 outputs (4 "
            "arguments) but got 3");
  EXPECT_EQ(errorOf(callThroughProgram(
                "test.vm.axpy", {zeros({2}), Value::integer(1), Value::real(1), zeros({2})})),
            "in function 'f' at instruction 0 (call test.vm.axpy): kernel "
            "test.vm.axpy: input 1 (argument 1) must be a tensor but is 1");
  EXPECT_EQ(
      errorOf(callThroughProgram("test.vm.axpy", {zeros({2}), zeros({2}), zeros({1}), zeros({2})})),
      "in function 'f' at instruction 0 (call test.vm.axpy): kernel "
      "test.vm.axpy: attribute 'alpha': tensor<float32[1], cpu:0> cannot "
      "be a kernel attribute");
  EXPECT_EQ(errorOf(callThroughProgram("test.vm.axpy",
                                       {zeros({2}), zeros({2, 1}), Value::real(1), zeros({2})})),
            "in function 'f' at instruction 0 (call test.vm.axpy): kernel "
            "test.vm.axpy: rank mismatch");
}

TEST(KernelBridge, AttrConversion) {
  using graft::kernels::AttrValue;
  EXPECT_EQ(take(toAttrValue(Value::integer(3))), AttrValue(int64_t(3)));
  EXPECT_EQ(take(toAttrValue(Value::boolean(true))), AttrValue(true));
  EXPECT_EQ(take(toAttrValue(Value::string("mean"))), AttrValue(std::string("mean")));
  EXPECT_EQ(take(toAttrValue(Value::shape({1, 2}))), AttrValue(std::vector<int64_t>{1, 2}));
  EXPECT_EQ(take(toAttrValue(Value::tuple({Value::integer(4)}))),
            AttrValue(std::vector<int64_t>{4}));
  EXPECT_EQ(take(toAttrValue(Value())), AttrValue());
  EXPECT_EQ(take(toAttrValue(Value::dataType(DLDataType{kDLFloat, 16, 1}))),
            AttrValue(std::string("float16")));
}

namespace {

TEST(HostKernels, MaskIndexReturnsAFreshTensor) {
  Value data = f32Tensor({3, 2}, {1, 2, 3, 4, 5, 6});
  Value mask = hostTensor<uint8_t>({3}, kBool, {1, 0, 1});
  Value out = take(callThroughProgram("graft.host.index_tensor_mask", {data, mask}));
  ASSERT_NE(out.as<TensorObj>(), nullptr);
  EXPECT_EQ(out.as<TensorObj>()->shape(), (llvm::ArrayRef<int64_t>{2, 2}));
  EXPECT_EQ(tensorData<float>(out), (std::vector<float>{1, 2, 5, 6}));
}

TEST(HostKernels, NonzeroHasTVMLayout) {
  Value x = f32Tensor({2, 2}, {0, 7, 8, 0});
  Value out = take(callThroughProgram("graft.host.nonzero", {x}));
  ASSERT_NE(out.as<TensorObj>(), nullptr);
  EXPECT_EQ(out.as<TensorObj>()->shape(), (llvm::ArrayRef<int64_t>{2, 2}));
  EXPECT_EQ(tensorData<int64_t>(out), (std::vector<int64_t>{0, 1, 1, 0}));
}

TEST(HostKernels, UniqueTakesAttributesAndReturnsATuple) {
  Value x = f32Tensor({2, 3}, {3, 1, 3, 2, 1, 2});
  // sorted=False, return_index, no inverse, return_counts, no axis.
  Value out = take(
      callThroughProgram("graft.host.unique", {x, Value::integer(0), Value::integer(1),
                                               Value::integer(0), Value::boolean(true), Value()}));
  auto *tuple = out.as<TupleObj>();
  ASSERT_NE(tuple, nullptr);
  ASSERT_EQ(tuple->fields.size(), 3u);
  EXPECT_EQ(tensorData<float>(tuple->fields[0]), (std::vector<float>{3, 1, 2}));
  EXPECT_EQ(tensorData<int64_t>(tuple->fields[1]), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(tensorData<int64_t>(tuple->fields[2]), (std::vector<int64_t>{2, 2, 2}));
  // No flag: the values alone, a tensor; along axis 1 (columns 0 and 2 equal).
  Value cols = take(callThroughProgram("graft.host.unique",
                                       {x, Value::integer(1), Value::integer(0), Value::integer(0),
                                        Value::integer(0), Value::integer(1)}));
  ASSERT_NE(cols.as<TensorObj>(), nullptr);
  EXPECT_EQ(cols.as<TensorObj>()->shape(), (llvm::ArrayRef<int64_t>{2, 2}));
  EXPECT_EQ(tensorData<float>(cols), (std::vector<float>{1, 3, 1, 2}));
}

TEST(HostKernels, UniqueArgumentErrors) {
  Value x = f32Tensor({2}, {1, 2});
  EXPECT_EQ(errorOf(callThroughProgram("graft.host.unique", {x})),
            "in function 'f' at instruction 0 (call graft.host.unique): graft.host.unique: "
            "expects 1 tensors and 5 attributes but got 1 arguments");
  EXPECT_EQ(
      errorOf(callThroughProgram("graft.host.unique", {x, x, Value::integer(0), Value::integer(0),
                                                       Value::integer(0), Value()})),
      "in function 'f' at instruction 0 (call graft.host.unique): graft.host.unique: "
      "attribute 'sorted': tensor<float32[2], cpu:0> cannot be a kernel attribute");
  EXPECT_EQ(errorOf(callThroughProgram("graft.host.unique",
                                       {x, Value::integer(1), Value::integer(0), Value::integer(0),
                                        Value::integer(0), Value::integer(3)})),
            "in function 'f' at instruction 0 (call graft.host.unique): graft.host.unique: kernel "
            "graft.host.unique_count: graft.host.unique_count: axis 3 is out of range for rank 1");
}

TEST(HostKernels, ArgumentErrors) {
  EXPECT_EQ(errorOf(callThroughProgram("graft.host.nonzero", {Value::integer(1)})),
            "in function 'f' at instruction 0 (call graft.host.nonzero): graft.host.nonzero: "
            "argument 0 must be a tensor but is 1");
  EXPECT_EQ(errorOf(callThroughProgram("graft.host.index_tensor_mask", {zeros({2})})),
            "in function 'f' at instruction 0 (call graft.host.index_tensor_mask): "
            "graft.host.index_tensor_mask: expects 2 tensors but got 1 arguments");
}

TEST(HostKernels, RefusedDuringCapture) {
  ExecBuilder b;
  b.beginFunction("f", {"x"});
  b.emitCall("graft.host.nonzero", {Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  auto vm = makeVM(finish(b));
  vm->allocator(0)->setCaptureOpen(true);
  EXPECT_EQ(errorOf(vm->invoke("f", {zeros({2})})),
            "in function 'f' at instruction 0 (call graft.host.nonzero): graft.host.nonzero: "
            "host read refused while a CUDA-graph capture is open");
  vm->allocator(0)->setCaptureOpen(false);
}

} // namespace
