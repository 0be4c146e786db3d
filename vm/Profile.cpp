//===- vm/Profile.cpp - Per-packed-function call timing ---------------------===//
//
// With VMOptions::profile, every packed function of the executable is wrapped
// once, when the VM is created, by a trampoline that counts its calls and
// their wall time, so the interpreter loop itself pays nothing when the
// profiler is off.
//
//===----------------------------------------------------------------------===//

#include "vm/VM.h"

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
