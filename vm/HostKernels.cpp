//===- vm/HostKernels.cpp - graft.host.* calls that return a fresh tensor --===//
//
// legalize-ops lowers an op whose output size depends on data (bool-mask
// index_tensor, nonzero, dynamic_strided_slice) to `R.call_pure_packed("graft.host.<kernel>",
// inputs...)`, which returns its result. The packed function registered here
// under that name runs the `<kernel>_count` kernel, reads the count on the
// host, allocates the output on the first input's device, and runs the
// `<kernel>` fill kernel into it. Being registered as a packed function, it
// takes precedence over the kernel bridge's destination-passing wrapper of
// the fill kernel of the same name.
//
// On a CUDA device the two kernels are the CUDA module's: the count lands
// in a 0-d device tensor that is copied back (a synchronizing read), and
// the fill kernel runs on the VM's stream.
//
//===----------------------------------------------------------------------===//

#include "vm/CudaDevice.h"
#include "vm/PackedFunc.h"
#include "vm/VM.h"

#include "kernels/Kernel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace graft::vm;
using graft::kernels::KernelArgs;
using graft::kernels::KernelInfo;

namespace {

/// One host form: its fill kernel, and the output's shape and dtype for a
/// count. `countsShape`: the count kernel writes the output's shape, one
/// int64 per dim of the first input (dynamic_strided_slice), not a 0-d count.
struct HostForm {
  const char *symbol;
  llvm::SmallVector<int64_t, 4> (*shape)(llvm::ArrayRef<DLTensor *> inputs, const int64_t *count);
  DLDataType (*dtype)(llvm::ArrayRef<DLTensor *> inputs);
  bool countsShape = false;
};

/// `[count] + data.shape[mask.ndim:]` (data, mask).
llvm::SmallVector<int64_t, 4> maskShape(llvm::ArrayRef<DLTensor *> in, const int64_t *count) {
  llvm::SmallVector<int64_t, 4> shape{*count};
  for (int d = in[1]->ndim; d < in[0]->ndim; ++d)
    shape.push_back(in[0]->shape[d]);
  return shape;
}
DLDataType dataDType(llvm::ArrayRef<DLTensor *> in) { return in[0]->dtype; }

/// `[ndim, count]` (x): TVM's nonzero layout.
llvm::SmallVector<int64_t, 4> nonzeroShape(llvm::ArrayRef<DLTensor *> in, const int64_t *count) {
  return {in[0]->ndim, *count};
}

/// The shape the count kernel wrote (dynamic_strided_slice).
llvm::SmallVector<int64_t, 4> writtenShape(llvm::ArrayRef<DLTensor *> in, const int64_t *shape) {
  return llvm::SmallVector<int64_t, 4>(shape, shape + in[0]->ndim);
}
DLDataType int64DType(llvm::ArrayRef<DLTensor *>) { return DLDataType{kDLInt, 64, 1}; }

const HostForm kHostForms[] = {
    {"graft.host.index_tensor_mask", maskShape, dataDType},
    {"graft.host.nonzero", nonzeroShape, int64DType},
    {"graft.host.dynamic_strided_slice", writtenShape, dataDType, /*countsShape=*/true},
};

llvm::SmallVector<int64_t, 1> countShape(const HostForm &form, llvm::ArrayRef<DLTensor *> inputs) {
  if (!form.countsShape)
    return {};
  return {inputs[0]->ndim};
}

llvm::Error hostError(const HostForm &form, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (llvm::Twine(form.symbol) + ": " + message).str());
}

/// The CUDA module's count and fill kernels, through their packed
/// functions (which take their workspace from the VM's allocator).
llvm::Expected<Value> callOnCuda(VirtualMachine &vm, const HostForm &form,
                                 llvm::ArrayRef<Value> args, llvm::ArrayRef<DLTensor *> inputs) {
  auto module = CudaModule::get();
  if (!module)
    return module.takeError();
  std::string countSymbol = std::string(form.symbol) + "_count";
  const GraftCudaKernel *count = module->findKernel(countSymbol);
  auto countFn = cudaKernelPackedFunc(countSymbol);
  auto fillFn = cudaKernelPackedFunc(form.symbol);
  if (!count || !countFn || !fillFn || count->numInputs < 0 ||
      size_t(count->numInputs) > args.size())
    return hostError(form, "has no CUDA implementation yet (docs/cuda.md)");
  auto device = vm.findDevice(inputs[0]->device);
  if (!device)
    return device.takeError();
  const auto &alloc = vm.allocator(*device);
  auto countOut = TensorObj::empty(alloc, countShape(form, inputs), DLDataType{kDLInt, 64, 1});
  if (!countOut)
    return countOut.takeError();
  llvm::ArrayRef<Value> countIn = args.take_back(size_t(count->numInputs));
  llvm::SmallVector<Value, 3> countArgs(countIn.begin(), countIn.end());
  countArgs.push_back(Value::object(*countOut));
  if (auto r = (*countFn)(vm, countArgs); !r)
    return hostError(form, llvm::toString(r.takeError()));
  auto onHost = copyTensorsToHost(Value::object(*countOut));
  if (!onHost)
    return hostError(form, llvm::toString(onHost.takeError()));
  const auto *n = reinterpret_cast<const int64_t *>(onHost->as<TensorObj>()->bytes());
  auto out = TensorObj::empty(alloc, form.shape(inputs, n), form.dtype(inputs));
  if (!out)
    return out.takeError();
  llvm::SmallVector<Value, 3> fillArgs(args.begin(), args.end());
  fillArgs.push_back(Value::object(*out));
  if (auto r = (*fillFn)(vm, fillArgs); !r)
    return hostError(form, llvm::toString(r.takeError()));
  return Value::object(*out);
}

llvm::Expected<Value> callHostForm(VirtualMachine &vm, const void *data,
                                   llvm::ArrayRef<Value> args) {
  const HostForm &form = *static_cast<const HostForm *>(data);
  if (vm.captureOpen()) // The count must be read back before anything is allocated.
    return hostError(form, "host read refused while a CUDA-graph capture is open");
  const KernelInfo *fill = graft::kernels::lookupKernel(form.symbol);
  const KernelInfo *count = graft::kernels::lookupKernel(std::string(form.symbol) + "_count");
  if (!fill || !count)
    return hostError(form, "its kernels are not registered");
  if (args.size() != static_cast<size_t>(fill->numInputs))
    return hostError(form, llvm::formatv("expects {0} tensors but got {1} arguments",
                                         fill->numInputs, args.size()));
  llvm::SmallVector<DLTensor *, 2> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    auto *t = args[i].as<TensorObj>();
    if (!t)
      return hostError(form,
                       llvm::formatv("argument {0} must be a tensor but is {1}", i, args[i].str()));
    inputs.push_back(&t->dl);
  }

  if (inputs[0]->device.device_type == kDLCUDA)
    return callOnCuda(vm, form, args, inputs);

  // The count kernel reads the trailing inputs (the mask, or x itself).
  auto countOut = TensorObj::emptyHost(countShape(form, inputs), DLDataType{kDLInt, 64, 1});
  if (!countOut)
    return countOut.takeError();
  DLTensor *countDL = &(*countOut)->dl;
  llvm::ArrayRef<DLTensor *> countInputs =
      llvm::ArrayRef<DLTensor *>(inputs).take_back(static_cast<size_t>(count->numInputs));
  if (llvm::Error err = count->fn(KernelArgs{countInputs, countDL, {}, {}}))
    return hostError(form, llvm::toString(std::move(err)));
  const auto *n = reinterpret_cast<const int64_t *>((*countOut)->bytes());

  auto device = vm.findDevice(inputs[0]->device);
  if (!device)
    return device.takeError();
  auto out = TensorObj::empty(vm.allocator(*device), form.shape(inputs, n), form.dtype(inputs));
  if (!out)
    return out.takeError();
  DLTensor *outDL = &(*out)->dl;
  if (llvm::Error err = fill->fn(KernelArgs{inputs, outDL, {}, {}}))
    return hostError(form, llvm::toString(std::move(err)));
  return Value::object(*out);
}

} // namespace

void graft::vm::registerHostKernels(PackedRegistry &registry) {
  for (const HostForm &form : kHostForms)
    registry.add(form.symbol, callHostForm, &form);
}
