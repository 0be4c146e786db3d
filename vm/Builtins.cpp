//===- vm/Builtins.cpp - vm.builtin.* packed functions ---------------------===//
//
// The runtime builtins under TVM's names and argument conventions
// (TVM `src/runtime/relax_vm/`). Each gets its own name as the PackedFunc data pointer so
// that every error starts with the builtin's name.
//
//===----------------------------------------------------------------------===//

#include "vm/CudaDevice.h"
#include "vm/Inspect.h"
#include "vm/PackedFunc.h"
#include "vm/VM.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace graft::vm;
using llvm::ArrayRef;
using llvm::Expected;

namespace {

/// Typed access to a builtin's arguments with messages naming the builtin.
class ArgReader {
public:
  ArgReader(const void *name, ArrayRef<Value> args)
      : name_(static_cast<const char *>(name)), args_(args) {}

  size_t size() const { return args_.size(); }
  const Value &operator[](size_t i) const { return args_[i]; }

  llvm::Error error(const llvm::Twine &msg) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), name_ + llvm::Twine(": ") + msg);
  }
  llvm::Error arity(size_t lo, size_t hi) const {
    if (args_.size() >= lo && args_.size() <= hi)
      return llvm::Error::success();
    if (lo == hi)
      return error(llvm::formatv("expects {0} arguments but got {1}", lo, args_.size()));
    return error(llvm::formatv("expects {0} to {1} arguments but got {2}", lo,
                               hi == SIZE_MAX ? std::string("any") : std::to_string(hi),
                               args_.size()));
  }

  llvm::Error typeError(size_t i, llvm::StringRef expected) const {
    return error(llvm::formatv("argument {0} must be {1} but is {2}", i, expected, args_[i].str()));
  }

  Expected<int64_t> getInt(size_t i) const {
    const Value &v = args_[i];
    if (v.isInt())
      return v.getInt();
    if (v.isBool())
      return int64_t(v.getBool());
    return typeError(i, "an int");
  }
  template <typename T> Expected<T *> get(size_t i, llvm::StringRef what) const {
    if (T *p = args_[i].as<T>())
      return p;
    return typeError(i, what);
  }
  Expected<DLDataType> getDType(size_t i) const {
    if (args_[i].isDataType())
      return args_[i].getDataType();
    return typeError(i, "a dtype");
  }
  /// The error-context string TVM passes last (empty when absent or None).
  std::string errCtx(size_t i) const {
    if (i >= args_.size())
      return "";
    if (auto *s = args_[i].as<StringObj>())
      return s->value.empty() ? "" : s->value + " ";
    return "";
  }
  Expected<VirtualMachine *> ctx(size_t i) const {
    if (VirtualMachine *vm = VirtualMachine::fromHandle(args_[i]))
      return vm;
    return typeError(i, "the VM context (%vm)");
  }

private:
  const char *name_;
  ArrayRef<Value> args_;
};

#define GRAFT_TRY(var, expr)                                                                       \
  auto var##OrErr = (expr);                                                                        \
  if (!var##OrErr)                                                                                 \
    return var##OrErr.takeError();                                                                 \
  auto var = *var##OrErr

#define GRAFT_CHECK(expr)                                                                          \
  if (llvm::Error err_ = (expr))                                                                   \
  return err_

using Impl = Expected<Value> (*)(VirtualMachine &, const void *, ArrayRef<Value>);

// Memory -----------------------------------------------------------------------

/// Bytes from a one-dim Shape (TVM) or a plain int.
Expected<uint64_t> getBytes(const ArgReader &r, size_t i) {
  if (auto *s = r[i].as<ShapeObj>()) {
    if (s->dims.size() == 1 && s->dims[0] >= 0)
      return static_cast<uint64_t>(s->dims[0]);
  } else if (r[i].isInt() && r[i].getInt() >= 0) {
    return static_cast<uint64_t>(r[i].getInt());
  }
  return r.typeError(i, "a byte size (a one-dim shape or int)");
}

llvm::Error checkScope(const ArgReader &r, size_t i) {
  if (i >= r.size() || r[i].isNone())
    return llvm::Error::success();
  auto *s = r[i].as<StringObj>();
  if (!s)
    return r.typeError(i, "a memory scope string");
  if (s->value != "global" && !s->value.empty())
    return r.error("memory scope '" + s->value + "' is not supported");
  return llvm::Error::success();
}

Expected<Value> allocStorage(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(4, 5));
  GRAFT_TRY(vm, r.ctx(0));
  GRAFT_TRY(bytes, getBytes(r, 1));
  GRAFT_TRY(devIdx, r.getInt(2));
  GRAFT_CHECK(r.getDType(3).takeError());
  GRAFT_CHECK(checkScope(r, 4));
  auto dev = vm->deviceIndex(devIdx);
  if (!dev)
    return r.error(llvm::toString(dev.takeError()));
  const auto &alloc = vm->allocator(*dev);
  auto mem = alloc->allocate(bytes);
  if (!mem)
    return r.error(llvm::toString(mem.takeError()));
  return Value::object(makeRef<StorageObj>(alloc, *mem, bytes, alloc->dlDevice()));
}

Expected<Value> allocTensor(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(4, 5));
  GRAFT_TRY(storage, r.get<StorageObj>(0, "a storage"));
  GRAFT_TRY(offset, r.getInt(1));
  GRAFT_TRY(shape, r.get<ShapeObj>(2, "a shape"));
  GRAFT_TRY(dtype, r.getDType(3));
  GRAFT_CHECK(checkScope(r, 4));
  if (offset < 0)
    return r.error(llvm::formatv("negative offset {0}", offset));
  auto t = TensorObj::view(Ref<StorageObj>(storage), offset, shape->dims, dtype);
  if (!t)
    return r.error(llvm::toString(t.takeError()));
  return Value::object(*t);
}

Expected<Value> allocShapeHeap(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, 2));
  GRAFT_TRY(vm, r.ctx(0));
  GRAFT_TRY(size, r.getInt(1));
  if (size < 0)
    return r.error(llvm::formatv("negative heap size {0}", size));
  // A capture function makes its heap while a CUDA-graph capture is open,
  // when the caching allocators serve nothing: the heap is host memory no
  // graph sees, so it comes from outside them then.
  auto t = vm->captureOpen()
               ? TensorObj::emptyHost({size}, DLDataType{kDLInt, 64, 1})
               : TensorObj::empty(vm->hostAllocator(), {size}, DLDataType{kDLInt, 64, 1});
  if (!t)
    return r.error(llvm::toString(t.takeError()));
  std::memset((*t)->bytes(), 0, (*t)->byteSize());
  return Value::object(*t);
}

/// A copy of `t` on VM device `dstIdx`. The copy runs on the non-host side
/// (a CUDA device copies to and from the host).
Expected<Value> copyTensorTo(VirtualMachine &vm, const TensorObj &t, size_t dstIdx) {
  if (!t.isCompact())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot copy a strided tensor");
  const auto &alloc = vm.allocator(dstIdx);
  auto dst = TensorObj::empty(alloc, t.shape(), t.dtype());
  if (!dst)
    return dst.takeError();
  Device *dev = &alloc->device();
  if (t.device().device_type != kDLCPU) {
    auto srcIdx = vm.findDevice(t.device());
    if (!srcIdx)
      return srcIdx.takeError();
    dev = &vm.allocator(*srcIdx)->device();
  }
  if (auto err = dev->copy((*dst)->bytes(), alloc->dlDevice(), t.bytes(), t.device(), t.byteSize()))
    return err;
  return Value::object(*dst);
}

Expected<Value> toDevice(VirtualMachine &vm, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 3));
  GRAFT_TRY(t, r.get<TensorObj>(0, "a tensor"));
  GRAFT_TRY(type, r.getInt(1));
  GRAFT_TRY(id, r.getInt(2));
  DLDevice want{static_cast<DLDeviceType>(type), static_cast<int32_t>(id)};
  auto idx = vm.findDevice(want);
  if (!idx)
    return r.error(llvm::toString(idx.takeError()));
  auto out = copyTensorTo(vm, *t, *idx);
  if (!out)
    return r.error(llvm::toString(out.takeError()));
  return out;
}

// Values and tuples ------------------------------------------------------------

Expected<Value> nullValue(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  GRAFT_CHECK(ArgReader(name, args).arity(0, 0));
  return Value();
}

Expected<Value> copyValue(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  GRAFT_CHECK(ArgReader(name, args).arity(1, 1));
  return args[0];
}

Expected<Value> makeTuple(VirtualMachine &, const void *, ArrayRef<Value> args) {
  return Value::tuple(args);
}

Expected<Value> tupleGetItem(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, 2));
  GRAFT_TRY(tuple, r.get<TupleObj>(0, "a tuple"));
  GRAFT_TRY(i, r.getInt(1));
  if (i < 0 || i >= static_cast<int64_t>(tuple->fields.size()))
    return r.error(llvm::formatv("index {0} is out of range for a tuple of "
                                 "{1} fields",
                                 i, tuple->fields.size()));
  return tuple->fields[i];
}

/// Reads element 0 of a one-element integer or bool tensor on the host (a
/// device tensor's element is copied back first). Refused while a CUDA-graph
/// capture is open: the graph would keep the value of the capture call and
/// cannot record the copy, so the region runs without a graph instead.
Expected<int64_t> readScalar(VirtualMachine &vm, const ArgReader &r, const TensorObj &t) {
  if (t.numElements() != 1)
    return r.error(llvm::formatv("expected a scalar tensor but got {0} "
                                 "elements",
                                 t.numElements()));
  if (vm.captureOpen())
    return r.error("host read refused while a CUDA-graph capture is open");
  DLDataType dt = t.dtype();
  const char *p = t.bytes();
  char copied[8] = {};
  if (t.device().device_type != kDLCPU && t.device().device_type != kDLCUDAHost) {
    // A synchronizing read of the one element through the VM's device.
    auto idx = vm.findDevice(t.device());
    if (!idx)
      return r.error("reading a " + deviceStr(t.device()) +
                     " tensor on the host: " + llvm::toString(idx.takeError()));
    size_t bytes = std::min<size_t>(sizeof copied, (dt.bits * dt.lanes + 7) / 8);
    if (llvm::Error err =
            vm.allocator(*idx)->device().copy(copied, DLDevice{kDLCPU, 0}, p, t.device(), bytes))
      return r.error("reading a " + deviceStr(t.device()) +
                     " tensor: " + llvm::toString(std::move(err)));
    p = copied;
  }
  auto load = [&](auto tag) -> int64_t {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<int64_t>(v);
  };
  bool isInt = dt.code == kDLInt || dt.code == kDLUInt || dt.code == graft::kernels::kGraftDLBool;
  if (isInt && dt.bits == 8)
    return dt.code == kDLInt ? load(int8_t()) : load(uint8_t());
  if (isInt && dt.bits == 16)
    return dt.code == kDLInt ? load(int16_t()) : load(uint16_t());
  if (isInt && dt.bits == 32)
    return dt.code == kDLInt ? load(int32_t()) : load(uint32_t());
  if (isInt && dt.bits == 64)
    return load(int64_t());
  return r.error("expected an int, uint or bool tensor but got " + dtypeStr(dt));
}

Expected<Value> readIfCond(VirtualMachine &vm, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(1, 1));
  if (args[0].isBool() || args[0].isInt())
    return Value::boolean(args[0].isBool() ? args[0].getBool() : args[0].getInt() != 0);
  GRAFT_TRY(t, r.get<TensorObj>(0, "a bool, an int or a scalar tensor"));
  GRAFT_TRY(v, readScalar(vm, r, *t));
  return Value::boolean(v != 0);
}

// Shapes -----------------------------------------------------------------------

enum MatchCode : int64_t {
  kAssertEqualToImm = 0,
  kStoreToHeap = 1,
  kNoOp = 2,
  kAssertEqualToLoad = 3,
};

/// The heap slot `slot` of `heap` (an int64 host tensor), or an error.
Expected<int64_t *> heapSlot(const ArgReader &r, const Value &heap, int64_t slot) {
  auto *t = heap.as<TensorObj>();
  if (!t || !dtypeEqual(t->dtype(), DLDataType{kDLInt, 64, 1}) || t->shape().size() != 1)
    return r.error("the shape heap must be a one-dim int64 tensor but is " + heap.str());
  if (slot < 0 || slot >= t->shape()[0])
    return r.error(
        llvm::formatv("heap slot {0} is out of range (heap of {1})", slot, t->shape()[0]));
  return reinterpret_cast<int64_t *>(t->bytes()) + slot;
}

llvm::Error matchOne(const ArgReader &r, const Value &heap, int64_t code, int64_t v, int64_t got,
                     const llvm::Twine &where, const std::string &err) {
  switch (code) {
  case kAssertEqualToImm:
    if (got != v)
      return r.error(llvm::formatv("{0}match_cast error: {1} is {2} but must "
                                   "be {3}",
                                   err, where.str(), got, v));
    return llvm::Error::success();
  case kStoreToHeap: {
    GRAFT_TRY(slot, heapSlot(r, heap, v));
    *slot = got;
    return llvm::Error::success();
  }
  case kNoOp:
    return llvm::Error::success();
  case kAssertEqualToLoad: {
    GRAFT_TRY(slot, heapSlot(r, heap, v));
    if (*slot != got)
      return r.error(llvm::formatv("{0}match_cast error: {1} is {2} but must "
                                   "be {3} (heap slot {4})",
                                   err, where.str(), got, *slot, v));
    return llvm::Error::success();
  }
  }
  return r.error(llvm::formatv("unknown match code {0}", code));
}

Expected<Value> matchShape(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, SIZE_MAX));
  GRAFT_TRY(n, r.getInt(2));
  if (n < 0 || args.size() != static_cast<size_t>(3 + 2 * n + 1))
    return r.error(llvm::formatv("expects 3 + 2 * ndim + 1 arguments for ndim "
                                 "{0} but got {1}",
                                 n, args.size()));
  std::string err = r.errCtx(args.size() - 1);
  ArrayRef<int64_t> dims;
  if (auto *t = args[0].as<TensorObj>())
    dims = t->shape();
  else if (auto *s = args[0].as<ShapeObj>())
    dims = s->dims;
  else
    return r.typeError(0, "a tensor or a shape");
  if (static_cast<int64_t>(dims.size()) != n)
    return r.error(llvm::formatv("{0}match_cast error: shape size mismatch, "
                                 "expected {1} dims but got {2}",
                                 err, n, dims.size()));
  for (int64_t i = 0; i < n; ++i) {
    GRAFT_TRY(code, r.getInt(3 + 2 * i));
    GRAFT_TRY(v, r.getInt(4 + 2 * i));
    GRAFT_CHECK(matchOne(r, args[1], code, v, dims[i], "shape[" + llvm::Twine(i) + "]", err));
  }
  return Value();
}

Expected<Value> matchPrimValue(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(5, 5));
  GRAFT_TRY(got, r.getInt(0));
  GRAFT_TRY(code, r.getInt(2));
  GRAFT_TRY(v, r.getInt(3));
  GRAFT_CHECK(matchOne(r, args[1], code, v, got, "prim value", r.errCtx(4)));
  return Value();
}

/// make_shape / make_prim_value codes.
enum MakeCode : int64_t { kUseImm = 0, kLoadShape = 1 };

Expected<int64_t> makeOne(const ArgReader &r, const Value &heap, int64_t code, int64_t v) {
  if (code == kUseImm)
    return v;
  if (code != kLoadShape)
    return r.error(llvm::formatv("unknown make_shape code {0}", code));
  GRAFT_TRY(slot, heapSlot(r, heap, v));
  return *slot;
}

Expected<Value> makeShape(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, SIZE_MAX));
  GRAFT_TRY(n, r.getInt(1));
  if (n < 0 || args.size() != static_cast<size_t>(2 + 2 * n))
    return r.error(llvm::formatv("expects 2 + 2 * ndim arguments for ndim {0} "
                                 "but got {1}",
                                 n, args.size()));
  llvm::SmallVector<int64_t, 4> dims;
  for (int64_t i = 0; i < n; ++i) {
    GRAFT_TRY(code, r.getInt(2 + 2 * i));
    GRAFT_TRY(v, r.getInt(3 + 2 * i));
    GRAFT_TRY(dim, makeOne(r, args[0], code, v));
    dims.push_back(dim);
  }
  return Value::shape(dims);
}

Expected<Value> makePrimValue(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 3));
  GRAFT_TRY(code, r.getInt(1));
  GRAFT_TRY(v, r.getInt(2));
  GRAFT_TRY(out, makeOne(r, args[0], code, v));
  return Value::integer(out);
}

Expected<Value> shapeOf(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(1, 1));
  GRAFT_TRY(t, r.get<TensorObj>(0, "a tensor"));
  return Value::shape(t->shape());
}

Expected<Value> tensorToShape(VirtualMachine &vm, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(1, 1));
  GRAFT_TRY(t, r.get<TensorObj>(0, "a tensor"));
  DLDataType dt = t->dtype();
  if (t->shape().size() != 1 || dt.code != kDLInt || (dt.bits != 32 && dt.bits != 64) ||
      !t->isCompact())
    return r.error("expected a compact one-dim int32 or int64 tensor but got " + args[0].str());
  if (t->device().device_type != kDLCPU)
    return r.error("reading a " + deviceStr(t->device()) +
                   " tensor on the host is not supported yet");
  if (vm.captureOpen())
    return r.error("host read refused while a CUDA-graph capture is open");
  llvm::SmallVector<int64_t, 4> dims;
  for (int64_t i = 0; i < t->shape()[0]; ++i) {
    int64_t v;
    if (dt.bits == 64) {
      std::memcpy(&v, t->bytes() + 8 * i, 8);
    } else {
      int32_t v32;
      std::memcpy(&v32, t->bytes() + 4 * i, 4);
      v = v32;
    }
    dims.push_back(v);
  }
  return Value::shape(dims);
}

Expected<Value> reshape(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, 2));
  GRAFT_TRY(t, r.get<TensorObj>(0, "a tensor"));
  GRAFT_TRY(shape, r.get<ShapeObj>(1, "a shape"));
  auto view = TensorObj::reshapeView(Ref<TensorObj>(t), shape->dims);
  if (!view)
    return r.error(llvm::toString(view.takeError()));
  return Value::object(*view);
}

// Checks -----------------------------------------------------------------------

Expected<Value> checkTensorInfo(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 4));
  std::string err = r.errCtx(args.size() - 1);
  auto *t = args[0].as<TensorObj>();
  if (!t)
    return r.error(err + "TypeError: expect a Tensor but got " + args[0].str());
  GRAFT_TRY(ndim, r.getInt(1));
  if (ndim != -1 && ndim != static_cast<int64_t>(t->shape().size()))
    return r.error(llvm::formatv("{0}ValueError: expect Tensor with ndim {1} "
                                 "but got {2}",
                                 err, ndim, t->shape().size()));
  if (args.size() == 4 && !args[2].isNone()) {
    GRAFT_TRY(dt, r.getDType(2));
    // R.dtype("void") (handle, 0 bits): a tensor of unknown dtype, as in
    // TVM's CheckTensorInfo; vm-shape-lower passes it for R.Tensor(ndim=k).
    bool isVoid = dt.code == kDLOpaqueHandle && dt.bits == 0;
    if (!isVoid && !dtypeEqual(dt, t->dtype()))
      return r.error(err + "ValueError: expect Tensor with dtype " + dtypeStr(dt) + " but got " +
                     dtypeStr(t->dtype()));
  }
  return Value();
}

Expected<Value> checkShapeInfo(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 3));
  std::string err = r.errCtx(2);
  auto *s = args[0].as<ShapeObj>();
  if (!s)
    return r.error(err + "TypeError: expect a Shape but got " + args[0].str());
  GRAFT_TRY(ndim, r.getInt(1));
  if (ndim != -1 && ndim != static_cast<int64_t>(s->dims.size()))
    return r.error(llvm::formatv("{0}ValueError: expect Shape with ndim {1} "
                                 "but got {2}",
                                 err, ndim, s->dims.size()));
  return Value();
}

Expected<Value> checkPrimValueInfo(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 3));
  std::string err = r.errCtx(2);
  const Value &v = args[0];
  if (args[1].isNone())
    return Value();
  GRAFT_TRY(dt, r.getDType(1));
  dt = normalizeDType(dt);
  bool ok = false;
  if (dt.code == graft::kernels::kGraftDLBool)
    ok = v.isBool();
  else if (dt.code == kDLInt || dt.code == kDLUInt)
    ok = v.isInt();
  else if (dt.code == kDLFloat || dt.code == kDLBfloat)
    ok = v.isFloat();
  else if (dt.code == kDLOpaqueHandle)
    ok = v.kind() == ValueKind::Opaque;
  if (!ok)
    return r.error(err + "TypeError: expect a prim value of dtype " + dtypeStr(dt) + " but got " +
                   v.str());
  return Value();
}

Expected<Value> checkTupleInfo(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(3, 3));
  std::string err = r.errCtx(2);
  auto *t = args[0].as<TupleObj>();
  if (!t)
    return r.error(err + "TypeError: expect a Tuple but got " + args[0].str());
  GRAFT_TRY(n, r.getInt(1));
  if (n != static_cast<int64_t>(t->fields.size()))
    return r.error(llvm::formatv("{0}ValueError: expect a Tuple with {1} "
                                 "elements but got {2}",
                                 err, n, t->fields.size()));
  return Value();
}

Expected<Value> checkFuncInfo(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, 2));
  if (!args[0].as<ClosureObj>())
    return r.error(r.errCtx(1) + "TypeError: expect a Function but got " + args[0].str());
  return Value();
}

// Closures and calls -----------------------------------------------------------

Expected<Value> makeClosure(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(1, SIZE_MAX));
  GRAFT_TRY(clo, r.get<ClosureObj>(0, "a closure"));
  // Binding again puts the new values before the ones already bound, so
  // the call order is (args..., new..., old...).
  llvm::SmallVector<Value, 4> captured(args.begin() + 1, args.end());
  captured.append(clo->captured.begin(), clo->captured.end());
  return Value::object(makeRef<ClosureObj>(clo->funcIndex, captured));
}

Expected<Value> invokeClosure(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, SIZE_MAX));
  GRAFT_TRY(vm, r.ctx(0));
  return vm->invokeClosure(args[1], args.drop_front(2));
}

Expected<Value> callTirDyn(VirtualMachine &vm, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, SIZE_MAX));
  GRAFT_TRY(shape, r.get<ShapeObj>(args.size() - 1, "a shape"));
  llvm::SmallVector<Value, 8> callArgs(args.begin() + 1, args.end() - 1);
  for (int64_t d : shape->dims)
    callArgs.push_back(Value::integer(d));
  return vm.invokeClosure(args[0], callArgs);
}

/// Python-style "{}" formatting of `vm.builtin.assert` ("{{", "}}" escape).
std::string formatAssert(llvm::StringRef fmt, ArrayRef<Value> values) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if ((fmt[i] == '{' || fmt[i] == '}') && i + 1 < fmt.size() && fmt[i + 1] == fmt[i]) {
      out += fmt[i++];
    } else if (fmt.substr(i).startswith("{}") && next < values.size()) {
      const Value &v = values[next++];
      out += v.as<StringObj>() ? v.as<StringObj>()->value : v.str();
      ++i;
    } else {
      out += fmt[i];
    }
  }
  return out;
}

Expected<Value> assertBuiltin(VirtualMachine &vm, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(2, SIZE_MAX));
  bool cond;
  if (auto *t = args[0].as<TensorObj>()) {
    GRAFT_TRY(v, readScalar(vm, r, *t));
    cond = v != 0;
  } else {
    GRAFT_TRY(v, r.getInt(0));
    cond = v != 0;
  }
  if (cond)
    return Value();
  GRAFT_TRY(fmt, r.get<StringObj>(1, "a format string"));
  return r.error(formatAssert(fmt->value, args.drop_front(2)));
}

/// TVM's relax.run.print: the formatted line on standard output.
Expected<Value> printBuiltin(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  GRAFT_CHECK(r.arity(1, SIZE_MAX));
  GRAFT_TRY(fmt, r.get<StringObj>(0, "a format string"));
  llvm::outs() << formatAssert(fmt->value, args.drop_front(1)) << '\n';
  llvm::outs().flush();
  return Value();
}

/// vm.builtin.tensor_<field>(tensor[, axis]): a DLTensor field (TVM's
/// relax.inspect.* ops, which TVM legalizes to PrimFuncs reading the same).
Expected<Value> tensorField(VirtualMachine &, const void *name, ArrayRef<Value> args) {
  ArgReader r(name, args);
  llvm::StringRef builtin(static_cast<const char *>(name));
  llvm::Optional<TensorField> field = tensorFieldNamed(builtin.drop_front(strlen("vm.builtin.")));
  if (!field)
    return r.error("is not a tensor field");
  bool takesAxis = *field == TensorField::ShapeI || *field == TensorField::StrideI;
  GRAFT_CHECK(r.arity(takesAxis ? 2 : 1, takesAxis ? 2 : 1));
  GRAFT_TRY(t, r.get<TensorObj>(0, "a tensor"));
  int64_t axis = 0;
  if (takesAxis) {
    GRAFT_TRY(a, r.getInt(1));
    axis = a;
  }
  Expected<int64_t> v = readTensorField(*t, *field, axis);
  if (!v)
    return r.error(llvm::toString(v.takeError()));
  return Value::integer(*v);
}

struct Builtin {
  const char *name;
  Impl impl;
};

const Builtin kBuiltins[] = {
    {"vm.builtin.alloc_storage", allocStorage},
    {"vm.builtin.alloc_tensor", allocTensor},
    {"vm.builtin.alloc_shape_heap", allocShapeHeap},
    {"vm.builtin.null_value", nullValue},
    {"vm.builtin.copy", copyValue},
    {"vm.builtin.make_tuple", makeTuple},
    {"vm.builtin.tuple_getitem", tupleGetItem},
    {"vm.builtin.read_if_cond", readIfCond},
    {"vm.builtin.match_shape", matchShape},
    {"vm.builtin.match_prim_value", matchPrimValue},
    {"vm.builtin.make_shape", makeShape},
    {"vm.builtin.make_prim_value", makePrimValue},
    {"vm.builtin.check_tensor_info", checkTensorInfo},
    {"vm.builtin.check_shape_info", checkShapeInfo},
    {"vm.builtin.check_prim_value_info", checkPrimValueInfo},
    {"vm.builtin.check_tuple_info", checkTupleInfo},
    {"vm.builtin.check_func_info", checkFuncInfo},
    {"vm.builtin.call_tir_dyn", callTirDyn},
    {"vm.builtin.make_closure", makeClosure},
    {"vm.builtin.invoke_closure", invokeClosure},
    {"vm.builtin.reshape", reshape},
    {"vm.builtin.shape_of", shapeOf},
    {"vm.builtin.tensor_to_shape", tensorToShape},
    {"vm.builtin.to_device", toDevice},
    {"vm.builtin.assert", assertBuiltin},
    {"vm.builtin.print", printBuiltin},
    {"vm.builtin.tensor_dtype_code", tensorField},
    {"vm.builtin.tensor_dtype_bits", tensorField},
    {"vm.builtin.tensor_dtype_lanes", tensorField},
    {"vm.builtin.tensor_ndim", tensorField},
    {"vm.builtin.tensor_shape_i", tensorField},
    {"vm.builtin.tensor_stride_i", tensorField},
    {"vm.builtin.tensor_byte_offset", tensorField},
    {"vm.builtin.tensor_elem_offset", tensorField},
};

} // namespace

void graft::vm::registerBuiltins(PackedRegistry &registry) {
  for (const Builtin &b : kBuiltins)
    registry.add(b.name, b.impl, b.name);
}
