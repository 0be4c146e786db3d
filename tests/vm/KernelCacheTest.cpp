//===- tests/vm/KernelCacheTest.cpp - The on-disk cache of compiled kernels ---===//

#include "vm/KernelCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstdlib>

using graft::vm::KernelCache;

namespace {

/// A fresh directory removed at the end of the test.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("graft-kernel-cache", path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
};

std::vector<std::string> filesIn(llvm::StringRef dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(llvm::sys::path::filename(it->path()).str());
  std::sort(names.begin(), names.end());
  return names;
}

/// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  llvm::Optional<std::string> old;
  ScopedEnv(const char *n, const char *value) : name(n) {
    if (const char *v = std::getenv(n))
      old = v;
    if (value)
      setenv(n, value, 1);
    else
      unsetenv(n);
  }
  ~ScopedEnv() {
    if (old)
      setenv(name.c_str(), old->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

TEST(KernelCache, KeyIsTheHashOfSourceArchitectureAndCompiler) {
  std::string k = KernelCache::key("src", "sm_90", "nvrtc 13.0");
  ASSERT_EQ(k.size(), 64u + std::string("-sm_90.cubin").size());
  EXPECT_EQ(k.substr(64), "-sm_90.cubin");
  EXPECT_EQ(k.find_first_not_of("0123456789abcdef"), 64u);
  EXPECT_EQ(k, KernelCache::key("src", "sm_90", "nvrtc 13.0"));
  EXPECT_NE(k, KernelCache::key("src ", "sm_90", "nvrtc 13.0"));
  EXPECT_NE(k, KernelCache::key("src", "sm_80", "nvrtc 13.0").substr(0, 64) + "-sm_90.cubin");
  EXPECT_NE(k, KernelCache::key("src", "sm_90", "nvrtc 13.1"));
  // The parts are length-prefixed: moving text from one to the next is a
  // new key.
  EXPECT_NE(KernelCache::key("ab", "c", "d"), KernelCache::key("a", "bc", "d"));
}

TEST(KernelCache, StoreThenLoad) {
  TempDir tmp;
  KernelCache cache(tmp.sub("nested/kernels"));
  std::string key = KernelCache::key("s", "sm_90", "c");
  EXPECT_FALSE(cache.load(key));
  std::string image("\x7f"
                    "ELF\0binary",
                    11);
  ASSERT_FALSE(bool(cache.store(key, image)));
  llvm::Optional<std::string> got = cache.load(key);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, image);
  // Only the entry: the temporary file was renamed into place.
  EXPECT_EQ(filesIn(cache.dir()), std::vector<std::string>{key});
  // A second store of the key replaces it.
  ASSERT_FALSE(bool(cache.store(key, "v2")));
  EXPECT_EQ(*cache.load(key), "v2");
  EXPECT_EQ(filesIn(cache.dir()), std::vector<std::string>{key});
  cache.remove(key);
  EXPECT_FALSE(cache.load(key));
  EXPECT_TRUE(filesIn(cache.dir()).empty());
}

TEST(KernelCache, AFailedStoreLeavesNothingBehind) {
  TempDir tmp;
  // The cache directory's parent is a file: nothing can be created there.
  std::string file = tmp.sub("file");
  {
    int fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(file, fd));
    llvm::sys::fs::closeFile(fd);
  }
  KernelCache cache(file + "/kernels");
  llvm::Error err = cache.store(KernelCache::key("s", "sm_90", "c"), "image");
  ASSERT_TRUE(bool(err));
  std::string msg = llvm::toString(std::move(err));
  EXPECT_NE(msg.find("kernel cache " + file + "/kernels: cannot create the directory"),
            std::string::npos)
      << msg;
  EXPECT_EQ(filesIn(tmp.path), std::vector<std::string>{"file"});
}

TEST(KernelCache, AnEmptyEntryIsAMiss) {
  TempDir tmp;
  KernelCache cache(std::string(tmp.path));
  std::string key = KernelCache::key("s", "sm_90", "c");
  ASSERT_FALSE(bool(cache.store(key, "")));
  EXPECT_FALSE(cache.load(key));
}

TEST(KernelCache, DisabledCacheStoresNothing) {
  KernelCache cache("");
  EXPECT_FALSE(cache.enabled());
  EXPECT_FALSE(bool(cache.store("k", "image")));
  EXPECT_FALSE(cache.load("k"));
}

TEST(KernelCache, DirectoryFromTheEnvironment) {
  {
    ScopedEnv dir("GRAFT_CACHE_DIR", "/tmp/graft-cache-here");
    EXPECT_EQ(KernelCache::fromEnvironment().dir(), "/tmp/graft-cache-here");
  }
  {
    ScopedEnv dir("GRAFT_CACHE_DIR", "off");
    EXPECT_FALSE(KernelCache::fromEnvironment().enabled());
  }
  ScopedEnv dir("GRAFT_CACHE_DIR", nullptr);
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(KernelCache::fromEnvironment().dir(), "/tmp/xdg/graft/kernels");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(KernelCache::fromEnvironment().dir(), "/home/someone/.cache/graft/kernels");
}

} // namespace
