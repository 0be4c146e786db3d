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

#include "vm/CudaDevice.h"
#include "vm/CudaGraph.h"
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
    if (!args.moduleName.empty()) {
      fail("--module picks a module of a source file, but " + args.file + " is an executable");
      return nullptr;
    }
    auto exe = vm::loadFromBytes((*buffer)->getBuffer());
    if (!exe) {
      fail(args.file + ": " + llvm::toString(exe.takeError()));
      return nullptr;
    }
    return std::move(*exe);
  }
  OptArgs build;
  build.file = args.file;
  build.moduleName = args.moduleName;
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

/// Where the profiled time so far went: graft's kernels (graft.*: library,
/// fused and host kernels) and the number of timed calls of everything else
/// (builtins and scalar programs, which count as VM overhead).
struct ProfileSplit {
  double kernelSeconds = 0;
  uint64_t kernelCalls = 0;
  uint64_t otherCalls = 0;
};

ProfileSplit profileSplit(const vm::VirtualMachine &vm) {
  ProfileSplit split;
  for (const vm::ProfileEntry &e : vm.profile()) {
    if (llvm::StringRef(e.name).startswith("graft.")) {
      split.kernelSeconds += e.seconds;
      split.kernelCalls += e.calls;
    } else
      split.otherCalls += e.calls;
  }
  return split;
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Wall time of each timed call and, with --profile, the part of it spent
/// outside kernels: as measured, and less the profiler's own cost that
/// falls outside kernels.
struct CallTimes {
  std::vector<double> wall;
  std::vector<double> outside;
  std::vector<double> outsideLessProfiler;
  /// Waits of the host for the device inside each call (warm-up included),
  /// not counting the wait that completes the call.
  std::vector<uint64_t> hostSyncs;
};

/// One call; on a device that runs asynchronously (CUDA) it is complete on
/// return.
llvm::Expected<vm::Value> callAndWait(vm::VirtualMachine &vm, int64_t fn,
                                      llvm::ArrayRef<vm::Value> inputs,
                                      std::vector<uint64_t> &hostSyncs) {
  vm::Device &dev = vm.allocator(0)->device();
  uint64_t before = dev.hostSyncs();
  auto result = vm.callFunction(fn, inputs);
  hostSyncs.push_back(dev.hostSyncs() - before);
  if (result)
    if (llvm::Error err = vm.allocator(0)->device().synchronize())
      return err;
  return result;
}

llvm::Expected<vm::Value> timedCall(vm::VirtualMachine &vm, int64_t fn,
                                    llvm::ArrayRef<vm::Value> inputs, bool profile,
                                    CallTimes &times) {
  ProfileSplit before = profile ? profileSplit(vm) : ProfileSplit();
  auto start = std::chrono::steady_clock::now();
  auto result = callAndWait(vm, fn, inputs, times.hostSyncs);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  times.wall.push_back(wall);
  if (profile) {
    ProfileSplit after = profileSplit(vm);
    double outside = wall - (after.kernelSeconds - before.kernelSeconds);
    times.outside.push_back(outside);
    // A builtin's whole timing cost is outside kernels; of a kernel's, the
    // part around its recorded window.
    double profiler = double(after.otherCalls - before.otherCalls) * vm.profileOverheadPerCall() +
                      double(after.kernelCalls - before.kernelCalls) *
                          (vm.profileOverheadPerCall() - vm.profileOverheadInsideCall());
    times.outsideLessProfiler.push_back(outside - profiler);
  }
  return result;
}

/// One call; with --repeat N, one warm-up call and then N timed calls (the
/// profile counts the timed calls only).
llvm::Expected<vm::Value> runRepeated(vm::VirtualMachine &vm, int64_t fn,
                                      llvm::ArrayRef<vm::Value> inputs, unsigned n, bool profile,
                                      CallTimes &times) {
  if (n == 0)
    return timedCall(vm, fn, inputs, profile, times);
  auto result = callAndWait(vm, fn, inputs, times.hostSyncs);
  if (!result)
    return result;
  vm.resetProfile();
  for (unsigned i = 0; i < n; ++i) {
    auto again = timedCall(vm, fn, inputs, profile, times);
    if (!again)
      return again.takeError();
  }
  llvm::outs() << llvm::formatv("{0} runs after one warm-up: min {1:F2} us, median {2:F2} us per "
                                "call\n",
                                n, *std::min_element(times.wall.begin(), times.wall.end()) * 1e6,
                                median(times.wall) * 1e6);
  return result;
}

/// The device --device names: the CPU, or CUDA device 0 (loads the CUDA
/// module; "no CUDA device: ..." where there is none).
/// --profile: what each CUDA-graph region did, and the host's waits for
/// the device per call.
void printGraphProfile(vm::VirtualMachine &vm, const CallTimes &times, llvm::raw_ostream &os) {
  for (const vm::CudaGraphRegionReport &r : vm::cudaGraphReport(vm)) {
    os << llvm::formatv("cuda graph region {0} ({1}): {2}: {3} eager, {4} captured, {5} replayed",
                        r.index, r.function, vm::cudaGraphStateName(r.state), r.eagerRuns,
                        r.captures, r.replays);
    if (!r.reason.empty() && r.state != vm::CudaGraphRegionReport::State::Captured)
      os << " (" << r.reason << ")";
    if (r.nodes.total())
      os << llvm::formatv("; {0} graph nodes: {1} kernels, {2} copies, {3} sets, {4} other",
                          r.nodes.total(), r.nodes.kernels, r.nodes.copies, r.nodes.sets,
                          r.nodes.other);
    os << "\n";
  }
  if (times.hostSyncs.empty())
    return;
  uint64_t later = 0;
  for (size_t i = 1; i < times.hostSyncs.size(); ++i)
    later = std::max(later, times.hostSyncs[i]);
  os << llvm::formatv("host synchronizations per call: {0} in the first call", times.hostSyncs[0]);
  if (times.hostSyncs.size() > 1)
    os << llvm::formatv(", at most {0} in each of the {1} later calls", later,
                        times.hostSyncs.size() - 1);
  os << "\n";
}

llvm::Expected<std::shared_ptr<vm::Device>> runDevice(llvm::StringRef name) {
  if (name == "cuda")
    return vm::cudaDevice(0);
  return vm::cpuDevice();
}

} // namespace

int driver::runRun(const RunArgs &args) {
  if (args.device != "cpu" && args.device != "cuda")
    return fail("unknown device '" + args.device + "' (devices: cpu, cuda)");
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
  llvm::StringRef built = vm::targetName(exe->target);
  if (built != args.device)
    return fail(args.file + " was built for target '" + built + "' and cannot run on device '" +
                args.device + "' (build it with --target " + args.device + ")");
  auto device = runDevice(args.device);
  if (!device)
    return fail(llvm::toString(device.takeError()));
  vm::VMOptions options;
  options.profile = args.profile;
  options.maxInstructions = args.maxInstructions;
  options.maxMemoryBytes = args.maxMemoryBytes;
  options.devices.push_back(*device);
  // What fails here is the executable itself (say, a packed function no
  // kernel, builtin or kernel source provides): bad input, exit 2.
  auto vm = vm::VirtualMachine::create(exe, options);
  if (!vm)
    return fail(args.file + ": cannot load the executable: " + llvm::toString(vm.takeError()));
  auto inputs = prepareInputs(fn, args);
  if (!inputs)
    return fail(llvm::toString(inputs.takeError()));
  // Host inputs go to the device (through pinned staging on CUDA).
  for (vm::Value &v : *inputs) {
    auto placed = vm::copyTensorsTo(v, (*vm)->allocator(0));
    if (!placed)
      return fail(llvm::toString(placed.takeError()));
    v = std::move(*placed);
  }
  if (llvm::Error err = (*vm)->checkInputs(fn, *inputs))
    return fail(llvm::toString(std::move(err)));
  CallTimes times;
  auto result = runRepeated(**vm, fnIdx, *inputs, args.repeat, args.profile, times);
  if (!result)
    return reportRuntimeError(result.takeError());
  if (args.profile) {
    printProfile((*vm)->profile(), std::max(1u, args.repeat), llvm::outs());
    llvm::outs() << llvm::formatv(
        "time outside kernels: median {0:F2} us per call (builtins, scalar programs and the "
        "interpreter), {1:F2} us as timed (with the profiler's {2:F0} ns per timed call); median "
        "call {3:F2} us\n",
        median(times.outsideLessProfiler) * 1e6, median(times.outside) * 1e6,
        (*vm)->profileOverheadPerCall() * 1e9, median(times.wall) * 1e6);
    printGraphProfile(**vm, times, llvm::outs());
  }
  auto onHost = vm::copyTensorsToHost(*result);
  if (!onHost)
    return reportRuntimeError(onHost.takeError());
  if (args.outDir.empty()) {
    printOutputs(*onHost, llvm::outs());
    return kSuccess;
  }
  if (llvm::Error err = writeOutputs(*onHost, args.outDir))
    return fail(llvm::toString(std::move(err)));
  return kSuccess;
}
