//===- vm/CudaCompile.cpp - Generated CUDA C++ to loaded kernels -------------===//

#include "vm/CudaCompile.h"
#include "vm/CudaDevice.h"

#include "llvm/Support/FormatVariadic.h"

using namespace graft::vm;

namespace {

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// "nvrtc 13.0": the compiler part of a cache key.
llvm::Expected<std::string> compilerVersion(const GraftCudaApi &api) {
  int major = 0, minor = 0;
  GraftCudaError err;
  if (api.rtcVersion(&major, &minor, &err))
    return error(err.message);
  return llvm::formatv("nvrtc {0}.{1}", major, minor).str();
}

/// Loads `image` and looks up `entries`; nothing stays loaded on failure.
llvm::Expected<std::unique_ptr<LoadedCudaImage>> loadImage(const GraftCudaApi &api, int device,
                                                           const std::string &image,
                                                           llvm::StringRef name,
                                                           llvm::ArrayRef<const char *> entries) {
  GraftCudaError err;
  void *library = nullptr;
  if (api.loadImage(device, image.data(), image.size(), &library, &err))
    return error("cannot load the compiled " + name + ": " + err.message);
  auto loaded = std::make_unique<LoadedCudaImage>(api, library);
  for (const char *entry : entries) {
    void *fn = nullptr;
    if (api.getFunction(library, entry, &fn, &err))
      return error("compiled " + name + ": " + err.message);
    loaded->functions.push_back(fn);
  }
  return loaded;
}

} // namespace

std::string graft::vm::cudaArchName(int major, int minor) {
  return llvm::formatv("sm_{0}{1}", major, minor).str();
}

llvm::Expected<std::string> graft::vm::compileCudaSource(const GraftCudaApi &api,
                                                         llvm::StringRef source,
                                                         llvm::StringRef name, int major,
                                                         int minor) {
  void *image = nullptr;
  size_t bytes = 0;
  char *log = nullptr;
  GraftCudaError err;
  std::string src = source.str(), nm = name.str();
  if (api.rtcCompile(src.c_str(), nm.c_str(), major, minor, &image, &bytes, &log, &err)) {
    std::string msg = err.message;
    if (log) {
      msg += "\n" + llvm::StringRef(log).rtrim().str();
      api.freeBuffer(log);
    }
    return error(msg);
  }
  std::string out(static_cast<const char *>(image), bytes);
  api.freeBuffer(image);
  return out;
}

llvm::Expected<std::unique_ptr<LoadedCudaImage>>
graft::vm::loadCudaSource(const GraftCudaApi &api, int device, int major, int minor,
                          llvm::StringRef source, llvm::StringRef name,
                          llvm::ArrayRef<const char *> entries, const KernelCache &cache) {
  auto compiler = compilerVersion(api);
  if (!compiler)
    return compiler.takeError();
  std::string key = KernelCache::key(source, cudaArchName(major, minor), *compiler);
  if (llvm::Optional<std::string> image = cache.load(key)) {
    auto loaded = loadImage(api, device, *image, name, entries);
    if (loaded) {
      (*loaded)->cached = true;
      return loaded;
    }
    // A damaged or foreign entry: drop it and compile afresh.
    llvm::consumeError(loaded.takeError());
    cache.remove(key);
  }
  auto image = compileCudaSource(api, source, name, major, minor);
  if (!image)
    return image.takeError();
  auto loaded = loadImage(api, device, *image, name, entries);
  if (!loaded)
    return loaded.takeError();
  // Only an image that loaded is kept; a cache that cannot be written
  // costs a compile next time, nothing more.
  llvm::consumeError(cache.store(key, *image));
  return loaded;
}
