//===- vm/HostKernels.cpp - graft.host.* calls that return fresh tensors ---===//
//
// legalize-ops lowers an op whose output size depends on data (bool-mask
// index_tensor, nonzero, dynamic_strided_slice, unique) to
// `R.call_pure_packed("graft.host.<kernel>", inputs..., attrs...)`, which
// returns its result. The packed function registered here under that name
// runs the `<kernel>_count` kernel, reads what it wrote on the host, sizes
// the outputs from it, allocates them on the first input's device and runs
// the `<kernel>` fill kernel into them. One output is returned as the
// tensor, several as a tuple (unique's values, index, inverse, counts).
// Being registered as a packed function, the form takes precedence over
// the kernel bridge's destination-passing wrapper of the fill kernel of the
// same name.
//
// Both kernels are called through the packed functions of the input's
// device (the kernel bridge on the CPU, the CUDA module's on a CUDA
// device), so their attributes are converted and their workspaces
// allocated as for any kernel call. The count kernel takes the trailing
// inputs it declares and, by name, the fill kernel's attributes it lists.
// On a CUDA device the count lands in device memory and is copied back (a
// synchronizing read); the fill kernel runs on the VM's stream.
//
//===----------------------------------------------------------------------===//

#include "vm/HostKernels.h"
#include "vm/CudaDevice.h"
#include "vm/KernelBridge.h"
#include "vm/PackedFunc.h"
#include "vm/VM.h"

#include "kernels/Kernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace graft::vm;
using graft::kernels::AttrValue;
using graft::kernels::KernelInfo;

namespace {

constexpr DLDataType kInt64{kDLInt, 64, 1};

/// `[count] + data.shape[mask.ndim:]` of data's dtype (data, mask).
HostOutputs maskOutputs(const HostCall &c) {
  HostOutput out{{c.counts[0]}, c.inputs[0]->dtype};
  for (int d = c.inputs[1]->ndim; d < c.inputs[0]->ndim; ++d)
    out.shape.push_back(c.inputs[0]->shape[d]);
  return {out};
}

/// `[ndim, count]` int64 (x): TVM's nonzero layout.
HostOutputs nonzeroOutputs(const HostCall &c) {
  return {HostOutput{{c.inputs[0]->ndim, c.counts[0]}, kInt64}};
}

/// The shape the count kernel wrote, one value per dim of x.
HostOutputs writtenShapeOutputs(const HostCall &c) {
  return {HostOutput{{c.counts, c.counts + c.inputs[0]->ndim}, c.inputs[0]->dtype}};
}
int64_t inputRank(const HostCall &c) { return c.inputs[0]->ndim; }

/// A flag attribute: an int (TVM's wrapper makes Python bools int64) or a
/// bool; anything else counts as unset, for the kernel to report.
bool flagAttr(const AttrValue &v) {
  if (const auto *i = std::get_if<int64_t>(&v))
    return *i != 0;
  if (const auto *b = std::get_if<bool>(&v))
    return *b;
  return false;
}

/// unique (x; sorted, return_index, return_inverse, return_counts, axis)
/// with `count` unique values or slices: the values (1-d without an axis,
/// x's shape with the axis resized along it), then int64 index, inverse
/// and counts as requested. The fill kernel checks the attributes.
HostOutputs uniqueOutputs(const HostCall &c) {
  const DLTensor &x = *c.inputs[0];
  int64_t count = c.counts[0];
  const auto *axis = c.attrs.size() > 4 ? std::get_if<int64_t>(&c.attrs[4]) : nullptr;
  HostOutputs out;
  int64_t numel = 1;
  for (int d = 0; d < x.ndim; ++d)
    numel *= x.shape[d];
  int64_t inverseLength = numel;
  if (axis && x.ndim > 0) {
    int64_t a = *axis < 0 ? *axis + x.ndim : *axis;
    a = std::clamp<int64_t>(a, 0, x.ndim - 1); // A bad axis fails in the count kernel first.
    HostOutput values{{x.shape, x.shape + x.ndim}, x.dtype};
    values.shape[a] = count;
    out.push_back(std::move(values));
    inverseLength = x.shape[a];
  } else {
    out.push_back(HostOutput{{count}, x.dtype});
  }
  for (size_t flag = 1; flag <= 3 && flag < c.attrs.size(); ++flag)
    if (flagAttr(c.attrs[flag]))
      out.push_back(HostOutput{{flag == 2 ? inverseLength : count}, kInt64});
  return out;
}

const HostForm kHostForms[] = {
    {"graft.host.index_tensor_mask", maskOutputs},
    {"graft.host.nonzero", nonzeroOutputs},
    {"graft.host.dynamic_strided_slice", writtenShapeOutputs, inputRank},
    {"graft.host.unique", uniqueOutputs},
};

llvm::Error hostError(const HostForm &form, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (llvm::Twine(form.symbol) + ": " + message).str());
}

/// The count and fill kernels of a form as packed functions of a device.
struct DeviceKernels {
  PackedFunc count, fill;
};

llvm::Expected<DeviceKernels> kernelsOn(const HostForm &form, const KernelInfo &count,
                                        const KernelInfo &fill, DLDeviceType device) {
  if (device != kDLCUDA)
    return DeviceKernels{kernelPackedFunc(&count), kernelPackedFunc(&fill)};
  auto module = CudaModule::get();
  if (!module)
    return module.takeError();
  auto countFn = cudaKernelPackedFunc(count.symbol);
  auto fillFn = cudaKernelPackedFunc(fill.symbol);
  if (!countFn || !fillFn)
    return hostError(form, "has no CUDA implementation yet (docs/cuda.md)");
  return DeviceKernels{*countFn, *fillFn};
}

/// The count kernel's packed arguments: the trailing inputs it takes, the
/// fill kernel's attributes it names, then `out`.
llvm::Expected<llvm::SmallVector<Value, 4>> countArgs(const HostForm &form, const KernelInfo &count,
                                                      const KernelInfo &fill,
                                                      llvm::ArrayRef<Value> args, Value out) {
  size_t numInputs = size_t(fill.numInputs);
  if (count.numInputs < 0 || size_t(count.numInputs) > numInputs)
    return hostError(form, "its count kernel takes a variadic or larger input list");
  llvm::ArrayRef<Value> inputs = args.take_front(numInputs).take_back(size_t(count.numInputs));
  llvm::SmallVector<Value, 4> result(inputs.begin(), inputs.end());
  for (int i : countAttrIndices(count, fill)) {
    if (i < 0)
      return hostError(form, "its count kernel takes an attribute the fill kernel does not");
    result.push_back(args[numInputs + size_t(i)]);
  }
  result.push_back(std::move(out));
  return result;
}

llvm::Expected<Value> callHostForm(VirtualMachine &vm, const void *data,
                                   llvm::ArrayRef<Value> args) {
  const HostForm &form = *static_cast<const HostForm *>(data);
  if (vm.captureOpen()) // The count must be read back before anything is allocated.
    return hostError(form, "host read refused while a CUDA-graph capture is open");
  const KernelInfo *fill = graft::kernels::lookupKernel(form.symbol);
  const KernelInfo *count = graft::kernels::lookupKernel(std::string(form.symbol) + "_count");
  if (!fill || !count || fill->numInputs < 0)
    return hostError(form, "its kernels are not registered");
  size_t numInputs = size_t(fill->numInputs), numAttrs = fill->attrNames.size();
  if (args.size() != numInputs + numAttrs)
    return hostError(form,
                     llvm::formatv("expects {0} tensors{1} but got {2} arguments", numInputs,
                                   numAttrs ? llvm::formatv(" and {0} attributes", numAttrs).str()
                                            : std::string(),
                                   args.size()));
  llvm::SmallVector<DLTensor *, 4> inputs;
  for (size_t i = 0; i < numInputs; ++i) {
    auto *t = args[i].as<TensorObj>();
    if (!t)
      return hostError(form,
                       llvm::formatv("argument {0} must be a tensor but is {1}", i, args[i].str()));
    inputs.push_back(&t->dl);
  }
  llvm::SmallVector<AttrValue, 4> attrs;
  for (size_t i = 0; i < numAttrs; ++i) {
    auto a = toAttrValue(args[numInputs + i]);
    if (!a)
      return hostError(form,
                       "attribute '" + fill->attrNames[i] + "': " + llvm::toString(a.takeError()));
    attrs.push_back(std::move(*a));
  }

  DLDevice dev = inputs[0]->device;
  auto kernels = kernelsOn(form, *count, *fill, DLDeviceType(dev.device_type));
  if (!kernels)
    return kernels.takeError();
  auto device = vm.findDevice(dev);
  if (!device)
    return device.takeError();
  const auto &alloc = vm.allocator(*device);

  HostCall call{inputs, attrs};
  auto countOut = TensorObj::empty(alloc, form.countShape(call), kInt64);
  if (!countOut)
    return countOut.takeError();
  auto cargs = countArgs(form, *count, *fill, args, Value::object(*countOut));
  if (!cargs)
    return cargs.takeError();
  if (auto r = kernels->count(vm, *cargs); !r)
    return hostError(form, llvm::toString(r.takeError()));
  Value counted = Value::object(*countOut);
  if (dev.device_type == kDLCUDA) {
    auto onHost = copyTensorsToHost(counted);
    if (!onHost)
      return hostError(form, llvm::toString(onHost.takeError()));
    counted = std::move(*onHost);
  }
  call.counts = reinterpret_cast<const int64_t *>(counted.as<TensorObj>()->bytes());

  llvm::SmallVector<Value, 4> results;
  for (HostOutput &spec : form.outputs(call)) {
    auto out = TensorObj::empty(alloc, spec.shape, spec.dtype);
    if (!out)
      return out.takeError();
    results.push_back(Value::object(*out));
  }
  llvm::SmallVector<Value, 8> fillArgs(args.begin(), args.end());
  fillArgs.append(results.begin(), results.end());
  if (auto r = kernels->fill(vm, fillArgs); !r)
    return hostError(form, llvm::toString(r.takeError()));
  if (results.size() == 1)
    return results[0];
  return Value::tuple(results);
}

} // namespace

const HostForm *graft::vm::lookupHostForm(llvm::StringRef symbol) {
  for (const HostForm &form : kHostForms)
    if (symbol == form.symbol)
      return &form;
  return nullptr;
}

llvm::SmallVector<int, 2> graft::vm::countAttrIndices(const KernelInfo &count,
                                                      const KernelInfo &fill) {
  llvm::SmallVector<int, 2> indices;
  for (llvm::StringRef name : count.attrNames) {
    const auto *it = llvm::find(fill.attrNames, name);
    indices.push_back(it == fill.attrNames.end() ? -1 : int(it - fill.attrNames.begin()));
  }
  return indices;
}

void graft::vm::registerHostKernels(PackedRegistry &registry) {
  for (const HostForm &form : kHostForms)
    registry.add(form.symbol, callHostForm, &form);
}
