//===- tests/vm/ExecutableTest.cpp - Builder, file format, loader ----------===//

#include "VMTestUtil.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"

using namespace graft::vm;
using namespace graft::vm::test;

namespace {

/// main(x) { %1 = copy(x); %2 = make_tuple(%1, c, i3); ret %2 } plus
/// every kind of constant, a parameter table and a kernel source.
std::unique_ptr<Executable> smallExecutable() {
  ExecBuilder b;
  std::vector<ParamInfo> params = {
      ParamInfo::tensor("x", kF32, {DimInfo::sym("n"), DimInfo::fixed(2), DimInfo::any()})};
  b.beginFunction("main", {"x"}, params);
  b.emitCall("vm.builtin.copy", {Arg::reg(0)}, 10);
  Arg c = b.convertConstant(f32Tensor({2}, {1.5f, -2}));
  b.emitCall("vm.builtin.make_tuple",
             {Arg::reg(10), c, b.convertConstant(Value::integer(3)),
              b.convertConstant(Value::shape({4, 5})), b.convertConstant(Value::string("s")),
              b.convertConstant(Value::dataType(kBool)), b.convertConstant(Value::real(0.25)),
              b.convertConstant(Value::integer(int64_t(1) << 60))},
             11);
  b.emitRet(11);
  b.endFunction();
  b.addKernelSource("fused_add", "__global__ void fused_add() {}\n");
  return take(b.finish());
}

void fixChecksum(std::string &bytes) {
  uint64_t sum = fnv1a64(llvm::StringRef(bytes).drop_front(kExecHeaderBytes));
  llvm::support::endian::write64le(&bytes[24], sum);
}

std::string loadError(llvm::StringRef bytes, LoadOptions opts = {}) {
  return errorOf(loadFromBytes(bytes, opts));
}

} // namespace

TEST(ExecBuilder, FormalizesRegistersDensely) {
  auto exe = smallExecutable();
  const FuncInfo &main = exe->functions[exe->findFunction("main")];
  EXPECT_EQ(main.registerFileSize, 3);
  EXPECT_EQ(exe->instr(0).dst(), 1);
  EXPECT_EQ(exe->instr(1).arg(0).value(), 1);
  EXPECT_EQ(exe->instr(2).result(), 2);
}

TEST(ExecBuilder, ConstantsAreDeduplicatedAndSmallIntsImmediate) {
  ExecBuilder b;
  EXPECT_EQ(b.convertConstant(Value::integer(5)).kind(), ArgKind::Immediate);
  int64_t a = b.addConstant(f32Tensor({2}, {1, 2}));
  int64_t c = b.addConstant(f32Tensor({2}, {1, 2}));
  int64_t d = b.addConstant(f32Tensor({2}, {1, 3}));
  EXPECT_EQ(a, c);
  EXPECT_NE(a, d);
  EXPECT_EQ(b.convertConstant(Value::integer(int64_t(1) << 60)).kind(), ArgKind::ConstIdx);
}

TEST(ExecBuilder, FunctionTableIsInOrderOfFirstMention) {
  ExecBuilder b;
  b.beginFunction("main", {});
  b.emitCall("helper", {}, 0); // not yet declared: packed
  b.emitCall(b.functionArg("g").value(), {}, 1);
  b.emitRet(1);
  b.endFunction();
  b.beginFunction("g", {});
  b.emitCall("vm.builtin.null_value", {}, 0);
  b.emitRet(0);
  b.endFunction();
  auto exe = take(b.finish());
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->functions[0].name, "main");
  EXPECT_EQ(exe->functions[1].name, "helper");
  EXPECT_EQ(exe->functions[1].kind, FuncKind::Packed);
  EXPECT_EQ(exe->functions[2].name, "g");
  EXPECT_EQ(exe->functions[3].name, "vm.builtin.null_value");
}

TEST(ExecBuilder, RejectsReadBeforeWrite) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  b.emitCall("vm.builtin.copy", {Arg::reg(7)}, 8);
  b.emitRet(8);
  b.endFunction();
  EXPECT_EQ(errorOf(b.finish()), "function 'main' instruction 0: register %7 is read before it is "
                                 "written");
}

TEST(ExecBuilder, RejectsUndefinedAndDuplicateFunctions) {
  {
    ExecBuilder b;
    b.beginFunction("main", {});
    b.emitCall(b.functionArg("missing").value(), {}, 0);
    b.emitRet(0);
    b.endFunction();
    EXPECT_EQ(errorOf(b.finish()), "VM function 'missing' is declared but never defined");
  }
  {
    ExecBuilder b;
    b.beginFunction("main", {});
    b.emitRet(kVoidRegister);
    b.endFunction();
    b.beginFunction("main", {});
    EXPECT_EQ(errorOf(b.finish()), "function 'main' is defined twice");
  }
  {
    ExecBuilder b;
    b.declareFunction("f", FuncKind::Packed);
    b.declareFunction("f", FuncKind::VM);
    EXPECT_EQ(errorOf(b.finish()), "function 'f' is declared with two different kinds");
  }
}

TEST(ExecBuilder, RejectsBadIndicesAndJumps) {
  auto build = [](auto emit) {
    ExecBuilder b;
    b.beginFunction("main", {"x"});
    emit(b);
    b.endFunction();
    return errorOf(b.finish());
  };
  EXPECT_EQ(build([](ExecBuilder &b) {
              b.emitCall("vm.builtin.copy", {Arg::constIdx(3)}, 1);
              b.emitRet(1);
            }),
            "function 'main' instruction 0: constant index 3 is out of range "
            "(0 constants)");
  EXPECT_EQ(build([](ExecBuilder &b) {
              b.emitCall("vm.builtin.copy", {Arg::funcIdx(9)}, 1);
              b.emitRet(1);
            }),
            "function 'main' instruction 0: function index 9 is out of range "
            "(2 functions)");
  EXPECT_EQ(build([](ExecBuilder &b) {
              b.emitGoto(0);
              b.emitRet(0);
            }),
            "function 'main' instruction 0: goto offset is 0");
  EXPECT_EQ(build([](ExecBuilder &b) {
              b.emitIf(0, 1);
              b.emitRet(0);
            }),
            "function 'main' instruction 0: if false offset 1 must be > 1");
  EXPECT_EQ(build([](ExecBuilder &b) {
              b.emitIf(0, 5);
              b.emitRet(0);
            }),
            "function 'main' instruction 0: jump target 5 is outside the "
            "function [0, 2)");
  EXPECT_EQ(build([](ExecBuilder &b) { b.emitCall("vm.builtin.copy", {Arg::reg(0)}, 1); }),
            "function 'main' instruction 0: jump target 1 is outside the "
            "function [0, 1)");
}

TEST(Serialize, RoundTripKeepsEverything) {
  auto exe = smallExecutable();
  std::string bytes = saveToBytes(*exe);
  auto loaded = take(loadFromBytes(bytes));
  ASSERT_TRUE(loaded);
  EXPECT_EQ(saveToBytes(*loaded), bytes);
  EXPECT_EQ(loaded->asText(), exe->asText());
  ASSERT_EQ(loaded->constants.size(), exe->constants.size());
  for (size_t i = 0; i < exe->constants.size(); ++i)
    EXPECT_TRUE(structurallyEqual(loaded->constants[i], exe->constants[i])) << i;
  const ParamInfo &p = loaded->functions[0].params.at(0);
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.dims[0].symbol, "n");
  EXPECT_EQ(p.dims[1].value, 2);
  EXPECT_EQ(loaded->kernelSources.at(0).name, "fused_add");
}

TEST(Serialize, EveryDTypeRoundTrips) {
  ExecBuilder b;
  std::vector<Arg> args;
  for (const char *name : {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                           "uint64", "float16", "bfloat16", "float32", "float64"}) {
    DLDataType dt = take(parseDType(name));
    auto t = take(TensorObj::emptyHost({3}, dt));
    for (uint64_t i = 0; i < t->byteSize(); ++i)
      t->bytes()[i] = static_cast<char>(i * 7 + dt.bits);
    args.push_back(b.convertConstant(Value::object(t)));
  }
  b.beginFunction("main", {});
  b.emitCall("vm.builtin.make_tuple", args, 0);
  b.emitRet(0);
  b.endFunction();
  auto exe = take(b.finish());
  auto loaded = take(loadFromBytes(saveToBytes(*exe)));
  ASSERT_EQ(loaded->constants.size(), 13u);
  for (size_t i = 0; i < 13; ++i)
    EXPECT_TRUE(structurallyEqual(loaded->constants[i], exe->constants[i]))
        << exe->constants[i].str();
}

TEST(Serialize, FileRoundTrip) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("graft-vm", "gexe", path));
  auto exe = smallExecutable();
  ASSERT_FALSE(bool(saveToFile(*exe, path)));
  auto loaded = take(loadFromFile(path));
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->asText(), exe->asText());
  llvm::sys::fs::remove(path);
  EXPECT_EQ(
      errorOf(loadFromFile("/nonexistent/x.gexe")).rfind("cannot read '/nonexistent/x.gexe'", 0),
      0u);
}

TEST(Loader, RejectsBadMagic) {
  std::string bytes = saveToBytes(*smallExecutable());
  bytes[0] = 'X';
  EXPECT_EQ(loadError(bytes), "invalid executable: bad magic (not a graft VM executable)");
}

TEST(Loader, RejectsWrongVersion) {
  std::string bytes = saveToBytes(*smallExecutable());
  // Version 1 carried fused kernel programs of format 1 (docs/fusion.md).
  llvm::support::endian::write32le(&bytes[8], 1);
  EXPECT_EQ(loadError(bytes), "invalid executable: unsupported version 1 "
                              "(this build reads version 2)");
}

TEST(Loader, RejectsBadChecksum) {
  std::string bytes = saveToBytes(*smallExecutable());
  bytes[bytes.size() - 3] ^= 0x40;
  EXPECT_EQ(loadError(bytes).rfind("invalid executable: checksum mismatch "
                                   "(stored ",
                                   0),
            0u)
      << loadError(bytes);
  EXPECT_NE(loadError(bytes).find("the file is damaged"), std::string::npos);
}

TEST(Loader, RejectsEveryTruncation) {
  std::string bytes = saveToBytes(*smallExecutable());
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string msg = loadError(llvm::StringRef(bytes).take_front(len));
    ASSERT_EQ(msg.rfind("invalid executable: ", 0), 0u) << len << ": " << msg;
    if (len < kExecHeaderBytes)
      EXPECT_NE(msg.find("shorter than the 32-byte header"), std::string::npos);
    else
      EXPECT_NE(msg.find("(truncated file)"), std::string::npos) << msg;
  }
}

/// Truncation with the header patched to match: the section parsers must
/// each report the cut themselves.
TEST(Loader, RejectsEveryTruncationBehindAConsistentHeader) {
  std::string bytes = saveToBytes(*smallExecutable());
  for (size_t len = kExecHeaderBytes; len < bytes.size(); ++len) {
    std::string cut = bytes.substr(0, len);
    llvm::support::endian::write64le(&cut[16], len - kExecHeaderBytes);
    fixChecksum(cut);
    std::string msg = loadError(cut);
    ASSERT_EQ(msg.rfind("invalid executable: ", 0), 0u) << len << ": " << msg;
  }
}

namespace {

/// An executable assembled by hand, bypassing the builder's checks.
std::string rawExecutable(std::vector<ExecWord> code, int64_t registers = 2,
                          size_t numConstants = 0) {
  Executable exe;
  FuncInfo fn;
  fn.kind = FuncKind::VM;
  fn.name = "main";
  fn.numArgs = 1;
  fn.paramNames = {"x"};
  fn.registerFileSize = registers;
  exe.functions.push_back(fn);
  FuncInfo copy;
  copy.name = "vm.builtin.copy";
  exe.functions.push_back(copy);
  for (size_t i = 0; i < numConstants; ++i)
    exe.constants.push_back(Value::integer(1 << 20));
  exe.instrData = std::move(code);
  if (auto err = exe.decodeOffsets())
    llvm::consumeError(std::move(err));
  exe.functions[0].endInstr = exe.numInstructions();
  return saveToBytes(exe);
}

} // namespace

TEST(Loader, RejectsOutOfRangeIndices) {
  auto C = static_cast<ExecWord>(Opcode::Call);
  auto R = static_cast<ExecWord>(Opcode::Ret);
  EXPECT_EQ(loadError(rawExecutable({C, 1, 1, 1, Arg::constIdx(4).word(), R, 1}, 2, 1)),
            "invalid executable: function 'main' instruction 0: constant "
            "index 4 is out of range (1 constants)");
  EXPECT_EQ(loadError(rawExecutable({C, 1, 7, 1, Arg::reg(0).word(), R, 1})),
            "invalid executable: function 'main' instruction 0: callee index "
            "7 is out of range (2 functions)");
  EXPECT_EQ(loadError(rawExecutable({C, 5, 1, 1, Arg::reg(0).word(), R, 5})),
            "invalid executable: function 'main' instruction 0: destination "
            "register 5 is out of range (register file of 2)");
  EXPECT_EQ(loadError(rawExecutable({C, 1, 1, 1, Arg::reg(-3).word(), R, 1})),
            "invalid executable: function 'main' instruction 0: argument "
            "register -3 is out of range (register file of 2)");
  EXPECT_EQ(loadError(rawExecutable({R, 1})),
            "invalid executable: function 'main' instruction 0: register %1 "
            "is read before it is written");
  EXPECT_EQ(loadError(rawExecutable({C, 1, 1, 1, Arg(ArgKind(9), 0).word(), R, 1})),
            "invalid executable: function 'main' instruction 0: unknown "
            "argument kind 9");
  EXPECT_EQ(loadError(rawExecutable({3, -4, R, 0})),
            "invalid executable: function 'main' instruction 0: jump target -4 "
            "is outside the function [0, 2)");
  EXPECT_EQ(loadError(rawExecutable({R, 0}, 1000)),
            "invalid executable: function 'main': register file size 1000 is "
            "out of range");
  EXPECT_EQ(loadError(rawExecutable({9, 0})),
            "invalid executable: bytecode word 0: unknown opcode 9");
  EXPECT_EQ(loadError(rawExecutable({C, 1, 1, 100, 0})),
            "invalid executable: bytecode word 0: call has 100 arguments but "
            "only 1 words remain");
}

TEST(Loader, RejectsHostileCounts) {
  std::string bytes = saveToBytes(*smallExecutable());
  // The function count sits right after the first section header.
  size_t at = kExecHeaderBytes + 12;
  llvm::support::endian::write64le(&bytes[at], uint64_t(1) << 61);
  fixChecksum(bytes);
  std::string msg = loadError(bytes);
  EXPECT_NE(msg.find("section 'functions' at file offset 52: function count "
                     "2305843009213693952 is more than the "),
            std::string::npos)
      << msg;
}

TEST(Loader, RejectsTrailingBytesAndUnknownFlags) {
  std::string bytes = saveToBytes(*smallExecutable());
  std::string extra = bytes + "xx";
  llvm::support::endian::write64le(&extra[16], extra.size() - kExecHeaderBytes);
  fixChecksum(extra);
  EXPECT_EQ(loadError(extra), "invalid executable: 2 unexpected bytes after the last section");
  // Bit 0 is the CUDA target; any other bit is unknown.
  llvm::support::endian::write32le(&bytes[12], 3);
  EXPECT_EQ(loadError(bytes), "invalid executable: unknown header flags 0x2");
}

TEST(Loader, TargetRoundTrips) {
  auto exe = smallExecutable();
  EXPECT_EQ(take(loadFromBytes(saveToBytes(*exe)))->target, Target::CPU);
  exe->target = Target::CUDA;
  std::string bytes = saveToBytes(*exe);
  EXPECT_EQ(llvm::support::endian::read32le(&bytes[12]), kHeaderFlagCUDA);
  auto back = loadFromBytes(bytes);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ((*back)->target, Target::CUDA);
  EXPECT_NE((*back)->asText().find("; target: cuda\n"), std::string::npos);
}

TEST(Executable, DumpIsReadable) {
  std::string text = smallExecutable()->asText();
  EXPECT_NE(text.find("function @0 main(x) registers=3 instructions=[0, 3)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("param x: tensor float32 [n, 2, ?] cpu:0"), std::string::npos) << text;
  EXPECT_NE(text.find("call vm.builtin.copy in: %0 dst: %1"), std::string::npos) << text;
  EXPECT_NE(text.find("call vm.builtin.make_tuple in: %1, c[0], i3, c[1]"), std::string::npos)
      << text;
  EXPECT_NE(text.find("ret %2"), std::string::npos);
  EXPECT_NE(text.find("c[0] = tensor<float32[2], cpu:0>"), std::string::npos);
  EXPECT_NE(text.find("kernel source fused_add"), std::string::npos);
}

TEST(Loader, RejectsUnknownDeviceType) {
  ExecBuilder b;
  b.beginFunction("main", {"x"}, {ParamInfo::tensor("x", kF32, {}, DLDevice{kDLCUDA, 7})});
  b.emitRet(0);
  b.endFunction();
  std::string bytes = saveToBytes(*take(b.finish()));
  // flags, dtype float32, device type 2, device id 7.
  const char pattern[] = "\x03\x02\x20\x01\x00\x02\x00\x00\x00\x07";
  size_t at = bytes.find(std::string(pattern, sizeof pattern - 1));
  ASSERT_NE(at, std::string::npos);
  bytes[at + 5] = 99;
  fixChecksum(bytes);
  std::string msg = loadError(bytes);
  EXPECT_NE(msg.find("parameter 'x' has unknown device type 99"), std::string::npos) << msg;
  bytes[at + 5] = 2;
  bytes[at] = 0x13;
  fixChecksum(bytes);
  msg = loadError(bytes);
  EXPECT_NE(msg.find("parameter 'x' has unknown flags 0x13"), std::string::npos) << msg;
}

// Fuzzer finding: a parameter with a huge ndim and no dims loaded, and
// dumping it printed ndim '?'s (a hang for ndim 2^31 - 1).
TEST(Loader, RejectsAHugeParameterRank) {
  ParamInfo p;
  p.name = "x";
  p.kind = ParamKind::Tensor;
  p.ndim = 65;
  ExecBuilder b;
  b.beginFunction("main", {"x"}, {p});
  b.emitRet(0);
  b.endFunction();
  EXPECT_EQ(errorOf(b.finish()), "function 'main' parameter 'x': ndim 65 is more than 64");
  p.ndim = 64;
  ExecBuilder ok;
  ok.beginFunction("main", {"x"}, {p});
  ok.emitRet(0);
  ok.endFunction();
  auto exe = take(ok.finish());
  ASSERT_TRUE(exe);
  std::string bytes = saveToBytes(*exe);
  // The rank is the i32 right after the name, kind and flag bytes.
  const char record[] = "x\x01\x00\x40\x00\x00\x00";
  size_t at = bytes.find(std::string(record, sizeof record - 1));
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] = '\xff';
  bytes[at + 4] = '\xff';
  bytes[at + 5] = '\xff';
  bytes[at + 6] = '\x7f';
  fixChecksum(bytes);
  std::string msg = loadError(bytes);
  EXPECT_NE(msg.find("parameter 'x': ndim 2147483647 is more than 64"), std::string::npos) << msg;
}
