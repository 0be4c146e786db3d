//===- vm/PackedFunc.h - Packed functions and their registry --*- C++ -*-===//
//
// A packed function takes the VM and its arguments as Values and returns a
// Value or an error. It is a plain function pointer plus a data pointer (a
// kernel's KernelInfo, for instance), so calling one from the interpreter
// loop is one indirect call with no virtual dispatch or allocation.
//
// Names are resolved to PackedFuncs once, when a VM is created: first the
// registry (builtins under TVM's `vm.builtin.*` names, plus whatever a user
// registers), then the kernel registry of kernels/Kernel.h through the
// kernel bridge (KernelBridge.h).
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_PACKEDFUNC_H
#define GRAFT_VM_PACKEDFUNC_H

#include "vm/Value.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace graft::vm {

class VirtualMachine;

using PackedImpl = llvm::Expected<Value> (*)(VirtualMachine &vm, const void *data,
                                             llvm::ArrayRef<Value> args);

struct PackedFunc {
  PackedImpl impl = nullptr;
  const void *data = nullptr;

  explicit operator bool() const { return impl != nullptr; }
  llvm::Expected<Value> operator()(VirtualMachine &vm, llvm::ArrayRef<Value> args) const {
    return impl(vm, data, args);
  }
};

/// Name -> packed function. Not thread-safe: register before VMs run.
class PackedRegistry {
public:
  /// The process-wide registry, with the builtins already in it.
  static PackedRegistry &global();

  /// Adds or replaces `name`.
  void add(llvm::StringRef name, PackedFunc fn);
  void add(llvm::StringRef name, PackedImpl impl, const void *data = nullptr) {
    add(name, PackedFunc{impl, data});
  }
  /// Null when `name` is not registered.
  const PackedFunc *find(llvm::StringRef name) const;
  std::vector<std::string> names() const;

private:
  llvm::StringMap<PackedFunc> map_;
};

/// Registers the `vm.builtin.*` functions (Builtins.cpp).
void registerBuiltins(PackedRegistry &registry);
/// `graft.host.*`: count, allocate and fill; they return the fresh tensor
/// (vm/HostKernels.cpp).
void registerHostKernels(PackedRegistry &registry);

/// Resolves `name`: the registry first, then a kernel for `device` (or the
/// CPU) through the kernel bridge. Errors name the function.
llvm::Expected<PackedFunc> resolvePackedFunc(llvm::StringRef name, DLDeviceType device = kDLCPU);

} // namespace graft::vm

#endif // GRAFT_VM_PACKEDFUNC_H
