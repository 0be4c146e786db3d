//===- kernels/Registry.cpp - The kernel registry -------------------------===//
//
// Kernels are keyed by (symbol, device). The CPU reference kernels are
// registered lazily on first use rather than by static initializers, which
// a static link drops when no symbol of their object file is referenced.
//
//===----------------------------------------------------------------------===//

#include "kernels/Kernel.h"
#include "kernels/cpu/CpuKernels.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <vector>

namespace graft::kernels {
namespace {

struct Registry {
  /// symbol -> kernels of that symbol, at most one per device.
  llvm::StringMap<llvm::SmallVector<const KernelInfo *, 2>> bySymbol;
  /// Registration order, for listings.
  std::vector<const KernelInfo *> all;
};

/// Function-local static: registration may run from other translation
/// units' static initializers, before any namespace-scope object exists.
Registry &registry() {
  static Registry r;
  return r;
}

void insert(const KernelInfo *info) {
  Registry &r = registry();
  auto &slot = r.bySymbol[info->symbol];
  for (const KernelInfo *&k : slot) {
    if (k->device != info->device)
      continue;
    // A later registration for the same (symbol, device) replaces the
    // earlier one, so a test or a tuned kernel can override a reference one.
    std::replace(r.all.begin(), r.all.end(), k, info);
    k = info;
    return;
  }
  slot.push_back(info);
  r.all.push_back(info);
}

void ensureCpuKernels() {
  static const bool done = [] {
    cpu::registerUnaryKernels();
    cpu::registerBinaryKernels();
    cpu::registerElementwiseKernels();
    cpu::registerCreationKernels();
    cpu::registerReduceKernels();
    cpu::registerMatmulKernels();
    cpu::registerLayoutKernels();
    cpu::registerIndexKernels();
    cpu::registerScatterKernels();
    cpu::registerSortKernels();
    cpu::registerNNKernels();
    cpu::registerAttentionKernels();
    cpu::registerMovementKernels();
    cpu::registerQuantizeKernels();
    cpu::registerTopKKernels();
    cpu::registerEinsumKernels();
    cpu::registerBatchBKernels();
    cpu::registerConvKernels();
    cpu::registerSamplingVisionKernels();
    cpu::registerTrainingKernels();
    cpu::registerUniqueKernels();
    return true;
  }();
  (void)done;
}

} // namespace

void cpu::addKernel(const KernelInfo *info) { insert(info); }

const KernelInfo *lookupKernel(llvm::StringRef symbol, DLDeviceType device) {
  ensureCpuKernels();
  auto it = registry().bySymbol.find(symbol);
  if (it == registry().bySymbol.end())
    return nullptr;
  for (const KernelInfo *k : it->second)
    if (k->device == device)
      return k;
  return nullptr;
}

llvm::ArrayRef<const KernelInfo *> allKernels() {
  ensureCpuKernels();
  return registry().all;
}

void registerKernel(const KernelInfo *info) {
  // CPU kernels go in first so that a user's kernel registered under the
  // same symbol replaces the reference one instead of being replaced by it.
  ensureCpuKernels();
  if (info)
    insert(info);
}

} // namespace graft::kernels
