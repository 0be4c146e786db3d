//===- vm/KernelCache.h - Compiled kernel images on disk --------*- C++ -*-===//
//
// NVRTC takes a noticeable fraction of a second per fused kernel, so the
// images it makes are kept on disk and reused by every later load of an
// executable with the same kernels on the same architecture
// (docs/cuda.md, "Fused kernels").
//
// The key is a SHA-256 of the full source (the embedded device headers
// included, so a change of any scalar function is a new key), the target
// architecture and the compiler's version. An entry is written to a
// temporary file in the cache directory and renamed into place, so a
// reader never sees half an image and concurrent writers of one key are
// harmless. The cache is an optimization: a directory that cannot be made
// or written leaves kernels compiled on every load, never an error.
//
// Directory: $GRAFT_CACHE_DIR, else $XDG_CACHE_HOME/graft/kernels, else
// ~/.cache/graft/kernels; GRAFT_CACHE_DIR=off turns the cache off.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_VM_KERNELCACHE_H
#define GRAFT_VM_KERNELCACHE_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace graft::vm {

class KernelCache {
public:
  /// The cache in `dir`; an empty dir is no cache (lookups miss, stores
  /// do nothing).
  explicit KernelCache(std::string dir) : dir_(std::move(dir)) {}
  /// The cache the environment names (see above).
  static KernelCache fromEnvironment();

  /// The file name of an entry: a hex SHA-256 of source, architecture and
  /// compiler, then the architecture ("<64 hex digits>-sm_90.cubin").
  static std::string key(llvm::StringRef source, llvm::StringRef arch, llvm::StringRef compiler);

  const std::string &dir() const { return dir_; }
  bool enabled() const { return !dir_.empty(); }

  /// The entry's bytes, or None when it is not there (or unreadable).
  llvm::Optional<std::string> load(llvm::StringRef key) const;
  /// Writes the entry atomically (a temporary file renamed into place);
  /// on failure nothing of it stays behind.
  llvm::Error store(llvm::StringRef key, llvm::StringRef bytes) const;
  /// Removes an entry that turned out unusable.
  void remove(llvm::StringRef key) const;

private:
  std::string path(llvm::StringRef key) const;
  std::string dir_;
};

} // namespace graft::vm

#endif // GRAFT_VM_KERNELCACHE_H
