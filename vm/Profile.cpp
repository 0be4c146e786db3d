//===- vm/Profile.cpp - Per-packed-function call timing ---------------------===//
//
// With VMOptions::profile, every packed function of the executable is wrapped
// once, when the VM is created, by a trampoline that counts its calls and
// their wall time, so the interpreter loop itself pays nothing when the
// profiler is off.
//
//===----------------------------------------------------------------------===//

#include "vm/VM.h"

#include <algorithm>
#include <chrono>

using namespace graft::vm;

static llvm::Expected<Value> profiledCall(VirtualMachine &vm, const void *data,
                                          llvm::ArrayRef<Value> args) {
  // The VM owns the entry and runs one call at a time.
  auto *p = const_cast<ProfiledCallee *>(static_cast<const ProfiledCallee *>(data));
  auto start = std::chrono::steady_clock::now();
  auto result = p->inner(vm, args);
  p->entry.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++p->entry.calls;
  return result;
}

static llvm::Expected<Value> noOp(VirtualMachine &, const void *, llvm::ArrayRef<Value>) {
  return Value();
}

/// The medians, over batches, of what timing one call adds to it (the
/// trampoline and its two clock reads around a packed function that does
/// nothing, less a direct call of that function), and of the part of that
/// cost that falls inside the window the profiler records for the call.
void VirtualMachine::calibrateProfiler() {
  constexpr int kCalls = 512, kBatches = 15;
  ProfiledCallee probe;
  probe.inner = PackedFunc{noOp, nullptr};
  PackedFunc timed{profiledCall, &probe};
  std::vector<double> added, inside;
  for (int b = 0; b < kBatches; ++b) {
    PackedFunc direct = probe.inner;
    // Hides the callee from the optimizer, so that the baseline is a call.
    asm volatile("" : "+r"(direct.impl));
    probe.entry.seconds = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      llvm::cantFail(direct(*this, {}));
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      llvm::cantFail(timed(*this, {}));
    auto t2 = std::chrono::steady_clock::now();
    double direct1 = std::chrono::duration<double>(t1 - t0).count() / kCalls;
    added.push_back(std::chrono::duration<double>(t2 - t1).count() / kCalls - direct1);
    inside.push_back(probe.entry.seconds / kCalls - direct1);
  }
  std::sort(added.begin(), added.end());
  std::sort(inside.begin(), inside.end());
  profileOverhead_ = std::max(0.0, added[kBatches / 2]);
  profileOverheadInside_ = std::clamp(inside[kBatches / 2], 0.0, profileOverhead_);
}

PackedFunc VirtualMachine::profiledFunc(llvm::StringRef name, PackedFunc inner) {
  profiled_.push_back(std::make_unique<ProfiledCallee>());
  profiled_.back()->inner = inner;
  profiled_.back()->entry.name = name.str();
  return PackedFunc{profiledCall, profiled_.back().get()};
}

std::vector<ProfileEntry> VirtualMachine::profile() const {
  std::vector<ProfileEntry> out;
  for (const auto &p : profiled_)
    out.push_back(p->entry);
  return out;
}

void VirtualMachine::resetProfile() {
  for (auto &p : profiled_)
    p->entry = ProfileEntry{p->entry.name, 0, 0};
}
