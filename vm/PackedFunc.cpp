//===- vm/PackedFunc.cpp - Registry and name resolution --------------------===//

#include "vm/PackedFunc.h"
#include "vm/CudaDevice.h"
#include "vm/CudaGraph.h"
#include "vm/KernelBridge.h"

using namespace graft::vm;

PackedRegistry &PackedRegistry::global() {
  // Builtins are registered here rather than by static constructors, which
  // a static library would drop when nothing else references their file.
  static PackedRegistry *registry = [] {
    auto *r = new PackedRegistry();
    registerBuiltins(*r);
    registerHostKernels(*r);
    registerCudaGraphBuiltins(*r);
    return r;
  }();
  return *registry;
}

void PackedRegistry::add(llvm::StringRef name, PackedFunc fn) { map_[name] = fn; }

const PackedFunc *PackedRegistry::find(llvm::StringRef name) const {
  auto it = map_.find(name);
  return it == map_.end() ? nullptr : &it->second;
}

std::vector<std::string> PackedRegistry::names() const {
  std::vector<std::string> out;
  for (const auto &entry : map_)
    out.push_back(entry.getKey().str());
  return out;
}

llvm::Expected<PackedFunc> graft::vm::resolvePackedFunc(llvm::StringRef name, DLDeviceType device) {
  if (const PackedFunc *fn = PackedRegistry::global().find(name))
    return *fn;
  if (device == kDLCUDA) {
    // CUDA kernels come from the module (vm/CudaDevice.h); a CPU kernel
    // cannot read device memory, so there is no fallback to one.
    if (auto fn = cudaKernelPackedFunc(name))
      return *fn;
    if (graft::kernels::lookupKernel(name, kDLCPU))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "kernel '%s' has no CUDA implementation yet (docs/cuda.md)",
                                     name.str().c_str());
  }
  const graft::kernels::KernelInfo *k = graft::kernels::lookupKernel(name, device);
  if (!k && device != kDLCPU)
    k = graft::kernels::lookupKernel(name, kDLCPU);
  if (k)
    return kernelPackedFunc(k);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "packed function '%s' is not registered (no builtin and no kernel of "
      "that name)",
      name.str().c_str());
}
