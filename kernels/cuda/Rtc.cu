//===- kernels/cuda/Rtc.cu - NVRTC compilation and loading of generated kernels ---===//
//
// The module's half of the fused kernels (docs/cuda.md, "Fused kernels"):
// compiling generated CUDA C++ with NVRTC, loading the image through the
// runtime's library API and launching its kernels. Only this module links
// libnvrtc; the VM decides what to compile and keeps the on-disk cache.
//
//===----------------------------------------------------------------------===//

#include "kernels/cuda/Common.cuh"

#include <nvrtc.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace graft::cuda {
namespace {

int rtcFail(GraftCudaError *err, const std::string &msg) {
  std::snprintf(err->message, sizeof err->message, "%s", msg.c_str());
  return 1;
}

/// Reports a failed runtime call, and takes its error off the thread's
/// last-error slot: the runtime keeps the error of any failed call there
/// until cudaGetLastError reads it, and every kernel launch checks with
/// cudaGetLastError (Ctx::checkLaunch). A load that failed here (a damaged
/// cached image, an entry the image lacks) was otherwise reported again as
/// the launch error of the next, unrelated kernel. A sticky error (the
/// context is lost) stays: every later call returns it anyway.
int cudaFail(GraftCudaError *err, const char *call, cudaError_t e) {
  (void)cudaGetLastError();
  std::snprintf(err->message, sizeof err->message, "%s: %s (%s)", call, cudaGetErrorName(e),
                cudaGetErrorString(e));
  return 1;
}

/// A malloc'd copy the caller frees with freeBuffer.
char *copyOut(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p)
    std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

/// The architecture option: the GPU's own (a cubin) when NVRTC knows it,
/// else PTX of the newest architecture it knows below it, which the driver
/// compiles on load.
bool archOption(int major, int minor, std::string &option, bool &cubin) {
  int arch = major * 10 + minor, count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0)
    return false;
  std::vector<int> archs(static_cast<size_t>(count));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return false;
  int best = 0;
  for (int a : archs) {
    if (a == arch) {
      option = "--gpu-architecture=sm_" + std::to_string(arch);
      cubin = true;
      return true;
    }
    if (a < arch && a > best)
      best = a;
  }
  if (!best)
    return false;
  option = "--gpu-architecture=compute_" + std::to_string(best);
  cubin = false;
  return true;
}

int rtcCompile(const char *source, const char *name, int major, int minor, void **image,
               size_t *imageBytes, char **log, GraftCudaError *err) {
  *image = nullptr;
  *imageBytes = 0;
  *log = nullptr;
  std::string arch;
  bool cubin = false;
  if (!archOption(major, minor, arch, cubin))
    return rtcFail(err, "NVRTC supports no architecture up to sm_" + std::to_string(major) +
                            std::to_string(minor));
  nvrtcProgram prog = nullptr;
  nvrtcResult r = nvrtcCreateProgram(&prog, source, name, 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    return rtcFail(err, std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(r));
  // -default-device: the embedded headers' unannotated constexpr helpers
  // are device functions here. --fmad=false: a fused chain rounds after
  // every op as the unfused kernels do; contracting one op's multiply with
  // the next op's add would skip a rounding the CPU evaluator makes.
  const char *opts[] = {arch.c_str(), "-std=c++17", "-default-device", "--fmad=false"};
  r = nvrtcCompileProgram(prog, int(std::size(opts)), opts);
  size_t logSize = 0;
  if (nvrtcGetProgramLogSize(prog, &logSize) == NVRTC_SUCCESS && logSize > 1) {
    std::string text(logSize, '\0');
    if (nvrtcGetProgramLog(prog, text.data()) == NVRTC_SUCCESS) {
      text.resize(std::strlen(text.c_str()));
      if (r != NVRTC_SUCCESS)
        *log = copyOut(text);
    }
  }
  if (r != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return rtcFail(err, std::string("NVRTC could not compile ") + name + " for " +
                            arch.substr(arch.find('=') + 1) + ": " + nvrtcGetErrorString(r));
  }
  size_t bytes = 0;
  r = cubin ? nvrtcGetCUBINSize(prog, &bytes) : nvrtcGetPTXSize(prog, &bytes);
  void *out = r == NVRTC_SUCCESS ? std::malloc(bytes) : nullptr;
  if (out)
    r = cubin ? nvrtcGetCUBIN(prog, static_cast<char *>(out))
              : nvrtcGetPTX(prog, static_cast<char *>(out));
  nvrtcDestroyProgram(&prog);
  if (!out || r != NVRTC_SUCCESS) {
    std::free(out);
    return rtcFail(err, std::string("NVRTC: cannot read the image of ") + name + ": " +
                            nvrtcGetErrorString(r));
  }
  *image = out;
  *imageBytes = bytes;
  return 0;
}

int rtcVersion(int *major, int *minor, GraftCudaError *err) {
  nvrtcResult r = nvrtcVersion(major, minor);
  if (r != NVRTC_SUCCESS)
    return rtcFail(err, std::string("nvrtcVersion: ") + nvrtcGetErrorString(r));
  return 0;
}

void freeBuffer(void *buffer) { std::free(buffer); }

int loadImage(int device, const void *image, size_t, void **library, GraftCudaError *err) {
  *library = nullptr;
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess)
    return cudaFail(err, "cudaSetDevice", e);
  cudaLibrary_t lib = nullptr;
  e = cudaLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e != cudaSuccess)
    return cudaFail(err, "cudaLibraryLoadData", e);
  *library = lib;
  return 0;
}

void unloadImage(void *library) {
  // Nothing to report from a destructor; but the failure must not linger
  // as the next launch's error (cudaFail).
  if (library && cudaLibraryUnload(static_cast<cudaLibrary_t>(library)) != cudaSuccess)
    (void)cudaGetLastError();
}

int getFunction(void *library, const char *name, void **function, GraftCudaError *err) {
  cudaKernel_t k = nullptr;
  cudaError_t e = cudaLibraryGetKernel(&k, static_cast<cudaLibrary_t>(library), name);
  if (e != cudaSuccess)
    return cudaFail(err, (std::string("cudaLibraryGetKernel(") + name + ")").c_str(), e);
  *function = reinterpret_cast<void *>(k);
  return 0;
}

int launch(void *function, unsigned grid, unsigned block, void *params, void *stream,
           GraftCudaError *err) {
  void *args[] = {params};
  cudaError_t e = cudaLaunchKernel(static_cast<const void *>(function), dim3(grid), dim3(block),
                                   args, 0, static_cast<cudaStream_t>(stream));
  if (e != cudaSuccess)
    return cudaFail(err, "cudaLaunchKernel", e);
  return 0;
}

} // namespace

void addRtcApi(GraftCudaApi &api) {
  api.rtcCompile = rtcCompile;
  api.rtcVersion = rtcVersion;
  api.freeBuffer = freeBuffer;
  api.loadImage = loadImage;
  api.unloadImage = unloadImage;
  api.getFunction = getFunction;
  api.launch = launch;
}

} // namespace graft::cuda
