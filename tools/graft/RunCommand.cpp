//===- tools/graft/RunCommand.cpp - graft run -----------------------------===//
//
// Runs one function of an executable (or of a source file built in memory).
// Exit codes: 2 for anything wrong before bytecode runs (an unreadable or
// damaged executable, a missing or ill-fitting input: the VM's parameter
// table check), 1 for an error while the program runs (a failing
// vm.builtin.assert, a kernel error), printed with the VM call stack.
//
//===----------------------------------------------------------------------===//

#include "RunSupport.h"

#include "vm/Serialize.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace graft;
using namespace graft::driver;

namespace {

int fail(const llvm::Twine &message, int code = kBadInput) {
  llvm::errs() << "graft run: error: " << message << "\n";
  return code;
}

/// An executable file (by its magic), else source built for the CPU.
std::unique_ptr<vm::Executable> loadOrBuild(const RunArgs &args, int &exitCode) {
  exitCode = kBadInput;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(args.file);
  if (!buffer) {
    fail("cannot read " + args.file + ": " + buffer.getError().message());
    return nullptr;
  }
  if ((*buffer)->getBuffer().startswith("GRAFTEXE")) {
    auto exe = vm::loadFromBytes((*buffer)->getBuffer());
    if (!exe) {
      fail(args.file + ": " + llvm::toString(exe.takeError()));
      return nullptr;
    }
    return std::move(*exe);
  }
  OptArgs build;
  build.file = args.file;
  llvm::TimerGroup timers("graft", "graft execution timing");
  return buildFromSource(build, args.device, timers, exitCode);
}

/// A runtime failure: the root message, then the VM frames innermost first.
int reportRuntimeError(llvm::Error err) {
  llvm::raw_ostream &os = llvm::errs();
  llvm::Error rest = llvm::handleErrors(std::move(err), [&](const vm::VMError &e) {
    os << "graft run: error: " << e.rootMessage() << "\nVM call stack (innermost first):\n";
    for (const vm::VMError::Frame &f : e.frames())
      os << "  in function '" << f.function << "' at instruction " << f.instr << " (" << f.what
         << ")\n";
    if (e.frames().size() == vm::VMError::kMaxFrames)
      os << "  ... (outer frames omitted)\n";
  });
  if (rest)
    os << "graft run: error: " << llvm::toString(std::move(rest)) << "\n";
  return kNegative;
}

/// --repeat: one warm-up call, then `n` timed calls.
llvm::Expected<vm::Value> runRepeated(vm::VirtualMachine &vm, int64_t fn,
                                      llvm::ArrayRef<vm::Value> inputs, unsigned n) {
  auto result = vm.callFunction(fn, inputs);
  if (!result || n == 0)
    return result;
  vm.resetProfile();
  std::vector<double> times;
  for (unsigned i = 0; i < n; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto again = vm.callFunction(fn, inputs);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!again)
      return again.takeError();
  }
  std::sort(times.begin(), times.end());
  double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  llvm::outs() << llvm::formatv("{0} runs after one warm-up: min {1:F2} us, median {2:F2} us per "
                                "call\n",
                                n, times.front() * 1e6, median * 1e6);
  return result;
}

} // namespace

int driver::runRun(const RunArgs &args) {
  if (args.device != "cpu")
    return fail("device '" + args.device + "' is not available (this build runs on: cpu)");
  int exitCode = kSuccess;
  std::shared_ptr<vm::Executable> exe = loadOrBuild(args, exitCode);
  if (!exe)
    return exitCode;
  if (args.dump) {
    exe->dump(llvm::outs());
    printKernelTable(*exe, llvm::outs());
    return kSuccess;
  }
  int64_t fnIdx = exe->findFunction(args.function);
  if (fnIdx < 0 || exe->functions[fnIdx].kind != vm::FuncKind::VM)
    return fail("no function '" + args.function + "' in " + args.file);
  const vm::FuncInfo &fn = exe->functions[fnIdx];
  vm::VMOptions options;
  options.profile = args.profile;
  auto vm = vm::VirtualMachine::create(exe, options);
  if (!vm)
    return reportRuntimeError(vm.takeError());
  auto inputs = prepareInputs(fn, args);
  if (!inputs)
    return fail(llvm::toString(inputs.takeError()));
  if (llvm::Error err = (*vm)->checkInputs(fn, *inputs))
    return fail(llvm::toString(std::move(err)));
  auto result = runRepeated(**vm, fnIdx, *inputs, args.repeat);
  if (!result)
    return reportRuntimeError(result.takeError());
  if (args.profile)
    printProfile((*vm)->profile(), std::max(1u, args.repeat), llvm::outs());
  if (args.outDir.empty()) {
    printOutputs(*result, llvm::outs());
    return kSuccess;
  }
  if (llvm::Error err = writeOutputs(*result, args.outDir))
    return fail(llvm::toString(std::move(err)));
  return kSuccess;
}
