//===- vm/VM.h - The bytecode interpreter ----------------------*- C++ -*-===//
//
// A register machine over an Executable (TVM `src/runtime/relax_vm/`). Each call pushes a
// frame of `registerFileSize` Values (frames are recycled, so a warm VM does
// not allocate per call); arguments land in registers 0..n-1; Call builds
// its packed arguments in a per-frame buffer and calls a function resolved
// when the VM was created (no name lookup, no virtual call in the loop).
//
// Errors never abort: a failing packed call, a bad condition or a wrong
// input comes back as an llvm::Error that names the VM function and the
// instruction index, for every VM frame on the way out.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_VM_H
#define GRAFT_VM_VM_H

#include "vm/Device.h"
#include "vm/Executable.h"
#include "vm/FusedKernels.h"
#include "vm/PackedFunc.h"
#include "vm/ScalarProgram.h"

#include <functional>
#include <memory>
#include <vector>

namespace graft::vm {

struct VMOptions {
  /// Devices in index order; the CPU is appended as the host (last device)
  /// when missing, as TVM's Python front end does. Empty: just the CPU.
  std::vector<std::shared_ptr<Device>> devices;
  /// Nested VM calls deeper than this fail instead of exhausting the stack.
  unsigned maxCallDepth = 512;
  /// Bytecode instructions one call from outside the VM (invoke,
  /// callFunction, invokeClosure at depth 0) may execute, the functions it
  /// calls included; the instruction past the budget fails the call. 0: no
  /// limit. An executable that passes loading may still loop (a backward
  /// Goto) or call functions exponentially often within the depth limit; a
  /// caller running untrusted executables bounds their work with this.
  uint64_t maxInstructions = 0;
  /// Bytes each device's allocator may have handed out at once (size
  /// classes, docs/runtime.md); an allocation past it fails with an error
  /// instead of exhausting memory. 0: no limit.
  uint64_t maxMemoryBytes = 0;
  /// Time every packed-function call (kernels and builtins), as TVM's VM
  /// profiler does; read the figures with VirtualMachine::profile().
  bool profile = false;
  /// Where info-level messages go (a region that falls back from CUDA
  /// graphs); null: standard error, as "info: <message>".
  std::function<void(const std::string &)> infoLog;
};

/// Kernel workspace inside a CUDA-graph capture (vm/CudaGraph.cpp). The
/// caching allocator serves nothing while a capture is open, so the eager
/// run of a region measures what its kernels ask for, and the capture then
/// serves the same requests in order from one block made for the graph
/// before the capture opened.
struct GraphWorkspace {
  static constexpr size_t kAlign = 256;
  bool measuring = false;
  size_t measured = 0;
  char *base = nullptr;
  size_t size = 0;
  size_t used = 0;
};

/// Calls and wall time of one packed function (VMOptions::profile).
struct ProfileEntry {
  std::string name;
  uint64_t calls = 0;
  double seconds = 0;
};

/// A packed function wrapped by the profiler (vm/Profile.cpp).
struct ProfiledCallee {
  PackedFunc inner;
  ProfileEntry entry;
};

/// A failure inside bytecode: the root message plus one frame per VM
/// function on the way out (innermost first, at most kMaxFrames kept).
class VMError : public llvm::ErrorInfo<VMError> {
public:
  static char ID;
  static constexpr size_t kMaxFrames = 16;
  struct Frame {
    std::string function;
    int64_t instr;
    std::string what; ///< "call <callee>" or "if".
  };

  explicit VMError(std::string message) : message_(std::move(message)) {}
  void addFrame(Frame f);
  llvm::ArrayRef<Frame> frames() const { return frames_; }
  const std::string &rootMessage() const { return message_; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  std::string message_;
  std::vector<Frame> frames_;
  size_t omitted_ = 0;
};

/// Per-VM state a builtin family keeps (e.g. the CUDA-graph cache of
/// TVM `src/runtime/relax_vm/cuda/cuda_graph_builtin.cc`), created on first use and destroyed with
/// the VM.
class VMExtension {
public:
  virtual ~VMExtension() = default;
};

class VirtualMachine {
public:
  static llvm::Expected<std::unique_ptr<VirtualMachine>>
  create(std::shared_ptr<const Executable> exe, VMOptions options = {});
  ~VirtualMachine();

  /// Checks `args` against the function's parameter table, then runs it.
  llvm::Expected<Value> invoke(llvm::StringRef function, llvm::ArrayRef<Value> args);
  llvm::Expected<Value> invoke(int64_t funcIdx, llvm::ArrayRef<Value> args);
  /// Calls a closure value (bound arguments go last) without input checks.
  llvm::Expected<Value> invokeClosure(const Value &closure, llvm::ArrayRef<Value> args);
  /// Calls function `funcIdx` (VM or packed) without input checks.
  llvm::Expected<Value> callFunction(int64_t funcIdx, llvm::ArrayRef<Value> args);

  /// The parameter-table check invoke() runs: arity, kinds, dtypes,
  /// devices, ranks, static dims, one value per symbolic dim.
  llvm::Error checkInputs(const FuncInfo &fn, llvm::ArrayRef<Value> args) const;

  const Executable &executable() const { return *exe_; }

  /// One entry per packed function of the executable (empty unless
  /// VMOptions::profile), in function-table order.
  std::vector<ProfileEntry> profile() const;
  void resetProfile();
  /// VMOptions::profile: what timing one packed call adds to the time
  /// around it (measured when the VM is created), so that a caller can take
  /// the profiler's own cost off the time outside kernels; and the part of
  /// it that lands inside the call's recorded time (the rest, around the
  /// recorded window, is outside the callee even when it is a kernel).
  double profileOverheadPerCall() const { return profileOverhead_; }
  double profileOverheadInsideCall() const { return profileOverheadInside_; }

  size_t numDevices() const { return allocators_.size(); }
  /// Device index as bytecode passes it: -1 is the host (last device).
  llvm::Expected<size_t> deviceIndex(int64_t index) const;
  /// The device whose DLDevice is `dev`, or an error.
  llvm::Expected<size_t> findDevice(DLDevice dev) const;
  const std::shared_ptr<CachingAllocator> &allocator(size_t index) const {
    return allocators_[index];
  }
  const std::shared_ptr<CachingAllocator> &hostAllocator() const { return allocators_.back(); }
  /// True while any allocator has a CUDA-graph capture open; host reads
  /// refuse to run then.
  bool captureOpen() const;

  GraphWorkspace &graphWorkspace() { return graphWorkspace_; }
  /// An info-level message (VMOptions::infoLog).
  void logInfo(const std::string &message) const;

  /// The value of the %vm register, and its inverse (null if `v` is not a
  /// VM handle).
  const Value &handle() const { return handle_; }
  static VirtualMachine *fromHandle(const Value &v);

  template <typename T> T &extension() {
    static const char key = 0;
    for (auto &e : extensions_)
      if (e.first == &key)
        return static_cast<T &>(*e.second);
    extensions_.emplace_back(&key, std::make_unique<T>());
    return static_cast<T &>(*extensions_.back().second);
  }

private:
  struct Frame;
  struct Callee {
    PackedFunc packed; ///< Null for a VM function.
  };

  VirtualMachine() = default;
  llvm::Error init(std::shared_ptr<const Executable> exe, VMOptions options);
  llvm::Expected<PackedFunc> resolveCallee(const FuncInfo &fn, DLDeviceType device);
  PackedFunc profiledFunc(llvm::StringRef name, PackedFunc inner);
  void calibrateProfiler();
  llvm::Expected<Value> runBytecode(int64_t funcIdx, llvm::ArrayRef<Value> args);
  llvm::Expected<Value> runLoop(const FuncInfo &fn, Frame &frame);
  llvm::Error execCall(const FuncInfo &fn, Frame &frame, int64_t pc, const ExecWord *call);
  const Value &loadArg(const Frame &frame, Arg a, Value &scratch) const;
  llvm::Error instrError(const FuncInfo &fn, int64_t pc, llvm::Error inner) const;
  Frame &pushFrame(int64_t registers);
  void popFrame();

  std::shared_ptr<const Executable> exe_;
  std::vector<std::shared_ptr<Device>> devices_;
  std::vector<std::shared_ptr<CachingAllocator>> allocators_;
  std::vector<Callee> callees_;
  std::vector<Value> constants_;  ///< On devices[0].
  std::vector<Value> funcValues_; ///< f[i] arguments: closures with no capture.
  std::vector<std::unique_ptr<Frame>> frames_;
  size_t depth_ = 0;
  unsigned maxDepth_ = 512;
  /// VMOptions::maxInstructions (UINT64_MAX for none) and what is left of it
  /// in the current outside call.
  uint64_t maxInstructions_ = UINT64_MAX;
  uint64_t instructionsLeft_ = UINT64_MAX;
  Value handle_;
  std::vector<std::pair<const void *, std::unique_ptr<VMExtension>>> extensions_;
  /// The executable's fused kernels (vm/FusedKernels.h).
  FusedKernels fused_;
  /// Programs of the executable's scalar-program kernel sources.
  std::vector<std::unique_ptr<ScalarProgram>> programs_;
  /// VMOptions::profile: one timed wrapper per packed function.
  std::vector<std::unique_ptr<ProfiledCallee>> profiled_;
  double profileOverhead_ = 0;
  double profileOverheadInside_ = 0;
  GraphWorkspace graphWorkspace_;
  std::function<void(const std::string &)> infoLog_;
};

} // namespace graft::vm

#endif // GRAFT_VM_VM_H
