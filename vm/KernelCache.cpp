//===- vm/KernelCache.cpp - Compiled kernel images on disk ------------------===//

#include "vm/KernelCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace graft::vm;

KernelCache KernelCache::fromEnvironment() {
  if (const char *dir = std::getenv("GRAFT_CACHE_DIR"); dir && *dir)
    return KernelCache(llvm::StringRef(dir) == "off" ? "" : dir);
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    path = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    return KernelCache("");
  llvm::sys::path::append(path, "graft", "kernels");
  return KernelCache(std::string(path));
}

std::string KernelCache::key(llvm::StringRef source, llvm::StringRef arch,
                             llvm::StringRef compiler) {
  llvm::SHA256 sha;
  // Lengths first, so no two (source, arch, compiler) give one input.
  sha.update(std::to_string(source.size()) + ":" + std::to_string(arch.size()) + ":" +
             std::to_string(compiler.size()) + ":");
  sha.update(source);
  sha.update(arch);
  sha.update(compiler);
  return llvm::toHex(sha.final(), /*LowerCase=*/true) + "-" + arch.str() + ".cubin";
}

std::string KernelCache::path(llvm::StringRef key) const {
  llvm::SmallString<256> p(dir_);
  llvm::sys::path::append(p, key);
  return std::string(p);
}

llvm::Optional<std::string> KernelCache::load(llvm::StringRef key) const {
  if (!enabled())
    return llvm::None;
  auto buf = llvm::MemoryBuffer::getFile(path(key), /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf || (*buf)->getBufferSize() == 0)
    return llvm::None;
  return (*buf)->getBuffer().str();
}

llvm::Error KernelCache::store(llvm::StringRef key, llvm::StringRef bytes) const {
  if (!enabled())
    return llvm::Error::success();
  auto fail = [&](const llvm::Twine &what, std::error_code ec) {
    return llvm::createStringError(ec, "kernel cache %s: %s: %s", dir_.c_str(), what.str().c_str(),
                                   ec.message().c_str());
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(dir_))
    return fail("cannot create the directory", ec);
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path(key) + ".tmp-%%%%%%%%", fd, tmp))
    return fail("cannot create a temporary file", ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return fail("cannot write " + tmp, ec);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path(key))) {
    llvm::sys::fs::remove(tmp);
    return fail("cannot rename " + tmp, ec);
  }
  return llvm::Error::success();
}

void KernelCache::remove(llvm::StringRef key) const {
  if (enabled())
    llvm::sys::fs::remove(path(key));
}
