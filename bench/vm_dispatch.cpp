//===- bench/vm_dispatch.cpp - VM dispatch cost ----------------------------===//
//
// The speed bars of docs/performance.md for the VM: under 50 ns per dispatched
// no-op instruction, under 1 us per call of a 10-instruction function.
// Each benchmark reports `per_instr`, `per_call` or `per_tuple` (seconds,
// SI-prefixed) next to the time of one iteration.
//
//===----------------------------------------------------------------------===//

#include "vm/ExecBuilder.h"
#include "vm/VM.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace graft::vm;

namespace {

constexpr int kBody = 1000;

std::unique_ptr<VirtualMachine> build(ExecBuilder &b) {
  auto exe = b.finish();
  auto vm = exe ? VirtualMachine::create(std::move(*exe)) : exe.takeError();
  if (!vm) {
    llvm::errs() << llvm::toString(vm.takeError()) << '\n';
    std::abort(); // a broken benchmark program is a bug in this file
  }
  return std::move(*vm);
}

void run(benchmark::State &state, VirtualMachine &vm, llvm::StringRef fn,
         llvm::ArrayRef<Value> args, double perIteration, const char *unit) {
  for (auto _ : state) {
    auto r = vm.invoke(fn, args);
    if (!r) {
      state.SkipWithError(llvm::toString(r.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(*r);
  }
  // Seconds per unit; printed with an SI prefix ("13.6n" is 13.6 ns).
  state.counters[unit] = benchmark::Counter(
      perIteration, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// 1000 `goto +1` then ret: the bare dispatch loop.
void BM_NoOpGoto(benchmark::State &state) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  for (int i = 0; i < kBody; ++i)
    b.emitGoto(1);
  b.emitRet(0);
  b.endFunction();
  auto vm = build(b);
  run(state, *vm, "main", {Value::integer(1)}, kBody + 1, "per_instr");
}
BENCHMARK(BM_NoOpGoto);

/// 1000 calls of vm.builtin.null_value into %void: dispatch plus a packed
/// call that does nothing.
void BM_NoOpCall(benchmark::State &state) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  for (int i = 0; i < kBody; ++i)
    b.emitCall("vm.builtin.null_value", {}, kVoidRegister);
  b.emitRet(0);
  b.endFunction();
  auto vm = build(b);
  run(state, *vm, "main", {Value::integer(1)}, kBody + 1, "per_instr");
}
BENCHMARK(BM_NoOpCall);

/// f(x): nine copies then ret (10 instructions).
void emitTenInstrFunction(ExecBuilder &b) {
  b.beginFunction("f10", {"x"});
  for (int i = 0; i < 9; ++i)
    b.emitCall("vm.builtin.copy", {Arg::reg(i)}, i + 1);
  b.emitRet(9);
  b.endFunction();
}

/// The 10-instruction function called from the host through invoke().
void BM_Call10FromHost(benchmark::State &state) {
  ExecBuilder b;
  emitTenInstrFunction(b);
  auto vm = build(b);
  run(state, *vm, "f10", {Value::integer(1)}, 1, "per_call");
}
BENCHMARK(BM_Call10FromHost);

/// The 10-instruction function called 100 times from bytecode.
void BM_Call10FromBytecode(benchmark::State &state) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  Arg f10 = b.functionArg("f10");
  for (int i = 0; i < 100; ++i)
    b.emitCall(f10.value(), {Arg::reg(0)}, 1);
  b.emitRet(1);
  b.endFunction();
  emitTenInstrFunction(b);
  auto vm = build(b);
  run(state, *vm, "main", {Value::integer(1)}, 100, "per_call");
}
BENCHMARK(BM_Call10FromBytecode);

/// 100 × (make_tuple of 4 fields, tuple_getitem): tuple building.
void BM_TupleBuild(benchmark::State &state) {
  ExecBuilder b;
  b.beginFunction("main", {"x"});
  for (int i = 0; i < 100; ++i) {
    b.emitCall("vm.builtin.make_tuple", {Arg::reg(0), Arg::imm(i), Arg::reg(0), Arg::imm(2)}, 1);
    b.emitCall("vm.builtin.tuple_getitem", {Arg::reg(1), Arg::imm(1)}, 2);
  }
  b.emitRet(2);
  b.endFunction();
  auto vm = build(b);
  run(state, *vm, "main", {Value::integer(1)}, 100, "per_tuple");
}
BENCHMARK(BM_TupleBuild);

} // namespace

BENCHMARK_MAIN();
