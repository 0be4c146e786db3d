//===- vm/CudaDevice.cpp - Loading the CUDA module; the CUDA device ----------===//

#include "vm/CudaDevice.h"
#include "vm/CudaCompile.h"
#include "vm/CudaGraph.h"
#include "vm/KernelBridge.h"
#include "vm/VM.h"
#include "vm/Value.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace graft::vm;
using graft::kernels::AttrValue;
using graft::kernels::KernelArgs;

namespace {

llvm::Error noDevice(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "no CUDA device: " + why);
}

llvm::Error cudaError(const GraftCudaError &err) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), err.message);
}

/// Candidate paths of the module, in search order.
std::vector<std::string> modulePaths() {
  std::vector<std::string> paths;
  if (const char *env = std::getenv("GRAFT_CUDA_MODULE"))
    paths.push_back(env);
  llvm::SmallString<256> exe;
  if (!llvm::sys::fs::real_path("/proc/self/exe", exe)) {
    llvm::StringRef dir = llvm::sys::path::parent_path(exe);
    for (llvm::StringRef up : {"", ".."}) {
      llvm::SmallString<256> p(dir);
      llvm::sys::path::append(p, up, "lib", "libgraft_cuda.so");
      paths.push_back(std::string(p));
    }
  }
  paths.push_back("libgraft_cuda.so");
  return paths;
}

struct Loaded {
  CudaModule module;
  std::string error; ///< Why there is no module, or empty.
};

} // namespace

namespace {

/// The module and its API, loaded once; error says why not.
struct LoadedApi {
  const GraftCudaApi *api = nullptr;
  std::string path, error;
};

const LoadedApi &loadedApi() {
  static LoadedApi loaded = [] {
    LoadedApi l;
    std::string tried;
    void *handle = nullptr;
    for (const std::string &p : modulePaths()) {
      bool bare = p.find('/') == std::string::npos;
      if (!bare && !llvm::sys::fs::exists(p))
        continue;
      handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle) {
        l.path = p;
        break;
      }
      const char *why = dlerror();
      tried += "\n  " + p + ": " + (why ? why : "cannot load");
    }
    if (!handle) {
      l.error = "cannot load libgraft_cuda.so (set GRAFT_CUDA_MODULE or LD_LIBRARY_PATH)" + tried;
      return l;
    }
    auto entry = reinterpret_cast<GraftCudaEntryFn>(dlsym(handle, GRAFT_CUDA_ENTRY));
    const GraftCudaApi *api = entry ? entry() : nullptr;
    if (!api) {
      l.error = l.path + " has no " GRAFT_CUDA_ENTRY " entry point";
      return l;
    }
    if (api->abiVersion != GRAFT_CUDA_ABI_VERSION) {
      l.error = llvm::formatv("{0} has ABI version {1}, this graft needs {2}", l.path,
                              api->abiVersion, GRAFT_CUDA_ABI_VERSION);
      return l;
    }
    l.api = api;
    return l;
  }();
  return loaded;
}

} // namespace

llvm::Expected<const GraftCudaApi *> graft::vm::loadCudaModuleApi() {
  const LoadedApi &l = loadedApi();
  if (!l.api)
    return noDevice(l.error);
  return l.api;
}

llvm::Expected<const CudaModule &> CudaModule::get() {
  static Loaded loaded = [] {
    Loaded l;
    const LoadedApi &a = loadedApi();
    if (!a.api) {
      l.error = a.error;
      return l;
    }
    l.module.path_ = a.path;
    const GraftCudaApi *api = a.api;
    GraftCudaError err;
    int count = 0;
    if (api->deviceCount(&count, &err)) {
      l.error = err.message;
      return l;
    }
    if (count == 0) {
      l.error = "the CUDA driver sees no GPU";
      return l;
    }
    l.module.api_ = api;
    return l;
  }();
  if (!loaded.error.empty())
    return noDevice(loaded.error);
  return loaded.module;
}

const GraftCudaKernel *CudaModule::findKernel(llvm::StringRef symbol) const {
  for (size_t i = 0; i < api_->numKernels; ++i)
    if (symbol == api_->kernels[i].symbol)
      return &api_->kernels[i];
  return nullptr;
}

llvm::Expected<std::shared_ptr<Device>> graft::vm::cudaDevice(int id) {
  static std::mutex mutex;
  static std::vector<std::shared_ptr<Device>> devices;
  std::lock_guard<std::mutex> lock(mutex);
  auto module = CudaModule::get();
  if (!module)
    return module.takeError();
  int count = 0;
  GraftCudaError err;
  if (module->api().deviceCount(&count, &err))
    return noDevice(err.message);
  if (id < 0 || id >= count)
    return noDevice(llvm::formatv("device {0} does not exist ({1} GPUs)", id, count));
  if (devices.size() <= size_t(id))
    devices.resize(id + 1);
  if (!devices[id]) {
    void *stream = nullptr;
    if (module->api().init(id, &stream, &err))
      return noDevice(err.message);
    devices[id].reset(new CUDADevice(*module, id, stream));
  }
  return devices[id];
}

llvm::Expected<void *> CUDADevice::allocate(size_t bytes, size_t) {
  void *p = nullptr;
  GraftCudaError err;
  if (module_.api().alloc(id(), bytes, &p, &err))
    return cudaError(err);
  return p;
}

void CUDADevice::free(void *ptr, size_t) { module_.api().free(id(), ptr); }

llvm::Error CUDADevice::copy(void *dst, DLDevice dstDev, const void *src, DLDevice srcDev,
                             size_t bytes) {
  auto onHost = [](DLDevice d) { return d.device_type == kDLCPU || d.device_type == kDLCUDAHost; };
  auto onThis = [&](DLDevice d) { return d.device_type == kDLCUDA && d.device_id == id(); };
  int32_t kind;
  if (onThis(dstDev) && onThis(srcDev))
    kind = GRAFT_CUDA_DEVICE_TO_DEVICE;
  else if (onThis(dstDev) && onHost(srcDev))
    kind = GRAFT_CUDA_HOST_TO_DEVICE;
  else if (onHost(dstDev) && onThis(srcDev))
    kind = GRAFT_CUDA_DEVICE_TO_HOST;
  else
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cuda:%d cannot copy from %s to %s", id(),
                                   deviceStr(srcDev).c_str(), deviceStr(dstDev).c_str());
  GraftCudaError err;
  if (module_.api().copy(id(), dst, src, bytes, kind, stream_, &err))
    return cudaError(err);
  return llvm::Error::success();
}

llvm::Error CUDADevice::synchronize() {
  GraftCudaError err;
  if (module_.api().synchronize(id(), stream_, &err))
    return cudaError(err);
  return llvm::Error::success();
}

llvm::Error CUDADevice::beginCapture() {
  GraftCudaError err;
  if (module_.api().beginCapture(id(), stream_, &err))
    return cudaError(err);
  return llvm::Error::success();
}

llvm::Expected<void *> CUDADevice::endCapture() {
  GraftCudaError err;
  void *graph = nullptr;
  GraftCudaGraphNodes nodes{};
  if (module_.api().endCapture(id(), stream_, &graph, &nodes, &err))
    return cudaError(err);
  lastNodes_ = GraphNodeCounts{nodes.kernels, nodes.copies, nodes.sets, nodes.other};
  return graph;
}

llvm::Error CUDADevice::launchGraph(void *graph) {
  if (failNextLaunch_) {
    failNextLaunch_ = false;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cudaGraphLaunch: failure injected by a test");
  }
  GraftCudaError err;
  if (module_.api().launchGraph(id(), graph, stream_, &err))
    return cudaError(err);
  return llvm::Error::success();
}

void CUDADevice::destroyGraph(void *graph) { module_.api().destroyGraph(graph); }

uint64_t CUDADevice::hostSyncs() const { return module_.api().hostSyncs(); }

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {

/// AttrValues flattened to the C ABI; the strings and lists stay owned by
/// the AttrValues.
std::vector<GraftCudaAttr> flattenAttrs(llvm::ArrayRef<AttrValue> attrs) {
  std::vector<GraftCudaAttr> out(attrs.size());
  for (size_t i = 0; i < attrs.size(); ++i) {
    GraftCudaAttr &a = out[i];
    std::visit(
        [&](const auto &v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, int64_t>) {
            a.kind = GRAFT_CUDA_ATTR_INT;
            a.i = v;
          } else if constexpr (std::is_same_v<V, double>) {
            a.kind = GRAFT_CUDA_ATTR_FLOAT;
            a.f = v;
          } else if constexpr (std::is_same_v<V, bool>) {
            a.kind = GRAFT_CUDA_ATTR_BOOL;
            a.i = v;
          } else if constexpr (std::is_same_v<V, std::string>) {
            a.kind = GRAFT_CUDA_ATTR_STRING;
            a.s = v.c_str();
          } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
            a.kind = GRAFT_CUDA_ATTR_INTS;
            a.ints = v.data();
            a.numInts = int64_t(v.size());
          } else {
            a.kind = GRAFT_CUDA_ATTR_NONE;
          }
        },
        attrs[i]);
  }
  return out;
}

GraftCudaKernelArgs cArgs(const KernelArgs &args, const std::vector<GraftCudaAttr> &attrs,
                          void *stream) {
  GraftCudaKernelArgs c{};
  c.inputs = args.inputs.data();
  c.numInputs = int32_t(args.inputs.size());
  c.outputs = args.outputs.data();
  c.numOutputs = int32_t(args.outputs.size());
  c.attrs = attrs.data();
  c.numAttrs = int32_t(attrs.size());
  c.workspace = args.workspace.data;
  c.workspaceBytes = args.workspace.bytes;
  c.stream = stream;
  return c;
}

llvm::Expected<Value> callCudaKernel(VirtualMachine &vm, const void *data,
                                     llvm::ArrayRef<Value> args) {
  const auto &k = *static_cast<const GraftCudaKernel *>(data);
  auto fail = [&](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel " + llvm::Twine(k.symbol) + ": " + msg);
  };
  size_t nattrs = size_t(k.numAttrs);
  if (args.size() < nattrs)
    return fail(
        llvm::formatv("expects {0} attributes but got {1} arguments in all", nattrs, args.size()));
  size_t rest = args.size() - nattrs;
  bool perInput = k.numInputs < 0 && k.numOutputs < 0; // One output per input (meshgrid).
  size_t in = perInput           ? rest / 2
              : k.numInputs >= 0 ? size_t(k.numInputs)
                                 : rest - std::min<size_t>(rest, size_t(std::max(0, k.numOutputs)));
  size_t out = k.numOutputs >= 0 ? size_t(k.numOutputs) : rest - std::min(rest, in);
  if (in + out != rest)
    return fail(llvm::formatv("expects {0} inputs, {1} attributes and {2} outputs but got {3} "
                              "arguments",
                              in, nattrs, out, args.size()));
  llvm::SmallVector<DLTensor *, 4> inputs, outputs;
  std::vector<AttrValue> attrs;
  for (size_t i = 0; i < args.size(); ++i) {
    bool isAttr = i >= in && i < in + nattrs;
    if (isAttr) {
      auto a = toAttrValue(args[i]);
      if (!a)
        return fail(llvm::formatv("attribute '{0}': {1}", k.attrNames[i - in],
                                  llvm::toString(a.takeError())));
      attrs.push_back(std::move(*a));
      continue;
    }
    auto *t = args[i].as<TensorObj>();
    if (!t)
      return fail(llvm::formatv("argument {0} must be a tensor but is {1}", i, args[i].str()));
    (i < in ? inputs : outputs).push_back(&t->dl);
  }
  // The kernel runs on the device of its first output (else input).
  DLTensor *first = !outputs.empty() ? outputs.front() : !inputs.empty() ? inputs.front() : nullptr;
  DLDevice dev{kDLCUDA, first ? first->device.device_id : 0};
  auto idx = vm.findDevice(dev);
  if (!idx)
    return fail(llvm::toString(idx.takeError()));
  auto *device = llvm::dyn_cast<CUDADevice>(&vm.allocator(*idx)->device());
  if (!device)
    return fail("the VM's device is not a CUDA device");
  KernelArgs kargs{inputs, outputs, attrs, {}};
  std::vector<GraftCudaAttr> cattrs = flattenAttrs(attrs);
  GraftCudaKernelArgs c = cArgs(kargs, cattrs, device->stream());
  size_t wsBytes = k.workspaceBytes ? k.workspaceBytes(&c) : 0;
  auto ws = acquireKernelWorkspace(vm, *idx, wsBytes);
  if (!ws)
    return fail("workspace: " + llvm::toString(ws.takeError()));
  c.workspace = ws->ptr;
  c.workspaceBytes = ws->ptr ? wsBytes : 0;
  GraftCudaError err;
  int rc = k.run(&c, &err);
  releaseKernelWorkspace(vm, *idx, *ws);
  if (rc)
    return fail(err.message);
  if (cudaLaunchBlocking() && !vm.captureOpen())
    if (llvm::Error e = device->synchronize())
      return fail(llvm::toString(std::move(e)));
  return Value();
}

} // namespace

bool graft::vm::cudaLaunchBlocking() {
  static const bool on = [] {
    const char *v = std::getenv("GRAFT_CUDA_LAUNCH_BLOCKING");
    return v && llvm::StringRef(v) != "0";
  }();
  return on;
}

llvm::Optional<PackedFunc> graft::vm::cudaKernelPackedFunc(llvm::StringRef symbol) {
  auto module = CudaModule::get();
  if (!module) {
    llvm::consumeError(module.takeError());
    return llvm::None;
  }
  if (const GraftCudaKernel *k = module->findKernel(symbol))
    return PackedFunc{callCudaKernel, k};
  return llvm::None;
}

size_t graft::vm::cudaKernelWorkspaceBytes(const GraftCudaKernel &kernel, const KernelArgs &args,
                                           void *stream) {
  if (!kernel.workspaceBytes)
    return 0;
  std::vector<GraftCudaAttr> attrs = flattenAttrs(args.attrs);
  GraftCudaKernelArgs c = cArgs(args, attrs, stream);
  return kernel.workspaceBytes(&c);
}

llvm::Error graft::vm::runCudaKernel(const GraftCudaKernel &kernel, const KernelArgs &args,
                                     void *stream) {
  std::vector<GraftCudaAttr> attrs = flattenAttrs(args.attrs);
  GraftCudaKernelArgs c = cArgs(args, attrs, stream);
  GraftCudaError err;
  if (kernel.run(&c, &err))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), err.message);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Staging values between the host and a device
//===----------------------------------------------------------------------===//

namespace {

constexpr int kMaxTupleDepth = 64;

/// `v` with each tensor replaced by move(tensor); tuples rebuilt.
template <class Fn> llvm::Expected<Value> mapTensors(const Value &v, Fn &&move, int depth = 0) {
  if (auto *t = v.as<TensorObj>())
    return move(v, *t);
  auto *tuple = v.as<TupleObj>();
  if (!tuple)
    return v;
  if (depth >= kMaxTupleDepth)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "tuples nested more than %d deep", kMaxTupleDepth);
  llvm::SmallVector<Value, 4> fields;
  for (const Value &f : tuple->fields) {
    auto m = mapTensors(f, move, depth + 1);
    if (!m)
      return m.takeError();
    fields.push_back(std::move(*m));
  }
  return Value::tuple(fields);
}

} // namespace

llvm::Expected<Value> graft::vm::copyTensorsTo(const Value &v,
                                               const std::shared_ptr<CachingAllocator> &alloc) {
  return mapTensors(v, [&](const Value &keep, const TensorObj &t) -> llvm::Expected<Value> {
    DLDevice to = alloc->dlDevice();
    if (t.device().device_type == to.device_type && t.device().device_id == to.device_id)
      return keep;
    if (!t.isCompact())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot copy a strided tensor to %s", deviceStr(to).c_str());
    auto dst = TensorObj::empty(alloc, t.shape(), t.dtype());
    if (!dst)
      return dst.takeError();
    if (llvm::Error err =
            alloc->device().copy((*dst)->bytes(), to, t.bytes(), t.device(), t.byteSize()))
      return err;
    return Value::object(*dst);
  });
}

llvm::Expected<Value> graft::vm::copyTensorsToHost(const Value &v) {
  return mapTensors(v, [&](const Value &keep, const TensorObj &t) -> llvm::Expected<Value> {
    DLDevice from = t.device();
    if (from.device_type == kDLCPU || from.device_type == kDLCUDAHost)
      return keep;
    auto device = cudaDevice(from.device_id);
    if (!device)
      return device.takeError();
    if (!t.isCompact())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot copy a strided tensor from %s",
                                     deviceStr(from).c_str());
    auto dst = TensorObj::emptyHost(t.shape(), t.dtype());
    if (!dst)
      return dst.takeError();
    if (llvm::Error err =
            (*device)->copy((*dst)->bytes(), DLDevice{kDLCPU, 0}, t.bytes(), from, t.byteSize()))
      return err;
    return Value::object(*dst);
  });
}
