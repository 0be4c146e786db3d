//===- vm/KernelBridge.cpp - Kernels as packed functions -------------------===//

#include "vm/KernelBridge.h"
#include "vm/VM.h"

#include "llvm/Support/FormatVariadic.h"

using namespace graft::vm;
using graft::kernels::AttrValue;
using graft::kernels::KernelArgs;
using graft::kernels::KernelInfo;

template <typename... Ts>
static llvm::Error kernelError(const KernelInfo &k, const char *fmt, Ts &&...vals) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel " + k.symbol.str() + ": " +
                                     llvm::formatv(fmt, std::forward<Ts>(vals)...).str());
}

llvm::Expected<AttrValue> graft::vm::toAttrValue(const Value &v) {
  switch (v.kind()) {
  case ValueKind::None:
    return AttrValue();
  case ValueKind::Int:
    return AttrValue(v.getInt());
  case ValueKind::Float:
    return AttrValue(v.getFloat());
  case ValueKind::Bool:
    return AttrValue(v.getBool());
  case ValueKind::DataType: // R.dtype: kernels take the dtype's name (matmul's out_dtype).
    return AttrValue(dtypeStr(v.getDataType()));
  case ValueKind::String:
    return AttrValue(v.as<StringObj>()->value);
  case ValueKind::Shape: {
    auto &d = v.as<ShapeObj>()->dims;
    return AttrValue(std::vector<int64_t>(d.begin(), d.end()));
  }
  case ValueKind::Tuple: {
    std::vector<int64_t> list;
    for (const Value &f : v.as<TupleObj>()->fields) {
      if (!f.isInt())
        break;
      list.push_back(f.getInt());
    }
    if (list.size() == v.as<TupleObj>()->fields.size())
      return AttrValue(std::move(list));
    break;
  }
  default:
    break;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s cannot be a kernel attribute",
                                 v.str().c_str());
}

namespace {

/// Input and output counts for `nargs` packed arguments.
struct Split {
  size_t inputs, outputs;
};

llvm::Expected<Split> splitArgs(const KernelInfo &k, size_t nargs) {
  size_t nattrs = k.attrNames.size();
  if (nargs < nattrs)
    return kernelError(k, "expects {0} attributes but got {1} arguments in all", nattrs, nargs);
  size_t rest = nargs - nattrs;
  // Variadic inputs and outputs: one output per input (meshgrid).
  if (k.numInputs < 0 && k.numOutputs < 0) {
    if (rest % 2)
      return kernelError(k, "takes one output per input but got {0} tensor arguments", rest);
    return Split{rest / 2, rest / 2};
  }
  size_t in = k.numInputs >= 0 ? size_t(k.numInputs) : rest - std::min<size_t>(rest, k.numOutputs);
  size_t out = k.numOutputs >= 0 ? size_t(k.numOutputs) : rest - std::min(rest, in);
  if (in + out != rest)
    return kernelError(k,
                       "expects {0} inputs, {1} attributes and {2} outputs "
                       "({3} arguments) but got {4}",
                       in, nattrs, out, in + nattrs + out, nargs);
  return Split{in, out};
}

llvm::Error collectTensors(const KernelInfo &k, llvm::ArrayRef<Value> args, size_t first,
                           llvm::StringRef role, llvm::SmallVectorImpl<DLTensor *> &out) {
  for (size_t i = 0; i < out.size(); ++i) {
    auto *t = args[first + i].as<TensorObj>();
    if (!t)
      return kernelError(k,
                         "{0} {1} (argument {2}) must be a tensor but is "
                         "{3}",
                         role, i, first + i, args[first + i].str());
    out[i] = &t->dl;
  }
  return llvm::Error::success();
}

/// Scratch memory from the VM allocator of the kernel's device, returned on
/// destruction.
class ScopedWorkspace {
public:
  ~ScopedWorkspace() {
    if (alloc_)
      alloc_->free(ws.data, ws.bytes);
  }
  llvm::Error acquire(VirtualMachine &vm, const KernelInfo &k, size_t bytes) {
    auto idx = vm.findDevice(DLDevice{k.device, 0});
    if (!idx)
      return idx.takeError();
    auto mem = vm.allocator(*idx)->allocate(bytes);
    if (!mem)
      return mem.takeError();
    alloc_ = vm.allocator(*idx).get();
    ws.data = *mem;
    ws.bytes = bytes;
    return llvm::Error::success();
  }
  graft::kernels::Workspace ws;

private:
  CachingAllocator *alloc_ = nullptr;
};

llvm::Expected<Value> callKernel(VirtualMachine &vm, const void *data, llvm::ArrayRef<Value> args) {
  const KernelInfo &k = *static_cast<const KernelInfo *>(data);
  auto split = splitArgs(k, args.size());
  if (!split)
    return split.takeError();
  size_t nattrs = k.attrNames.size();
  llvm::SmallVector<DLTensor *, 4> inputs(split->inputs), outputs(split->outputs);
  if (auto err = collectTensors(k, args, 0, "input", inputs))
    return err;
  if (auto err = collectTensors(k, args, split->inputs + nattrs, "output", outputs))
    return err;
  llvm::SmallVector<AttrValue, 4> attrs;
  for (size_t i = 0; i < nattrs; ++i) {
    auto a = toAttrValue(args[split->inputs + i]);
    if (!a)
      return kernelError(k, "attribute '{0}': {1}", k.attrNames[i], llvm::toString(a.takeError()));
    attrs.push_back(std::move(*a));
  }
  KernelArgs kargs{inputs, outputs, attrs, {}};
  ScopedWorkspace ws;
  if (k.workspaceBytes) {
    if (size_t bytes = k.workspaceBytes(kargs)) {
      if (auto err = ws.acquire(vm, k, bytes))
        return kernelError(k, "workspace: {0}", llvm::toString(std::move(err)));
      kargs.workspace = ws.ws;
    }
  }
  if (auto err = k.fn(kargs))
    return kernelError(k, "{0}", llvm::toString(std::move(err)));
  return Value();
}

} // namespace

PackedFunc graft::vm::kernelPackedFunc(const KernelInfo *kernel) {
  return PackedFunc{callKernel, kernel};
}
