//===- codegen/InterpretOps.cpp - Op calls in the reference interpreter ---===//
//
// A computational op runs the CPU kernel legalize-ops lowers it to, with the
// inputs and attributes ir/OpKernels.h lists, into host tensors sized from
// the call's struct info. An op whose output size depends on data (bool-mask
// index_tensor, nonzero, unique) runs its count kernel first. The runtime ops a
// high-level program may hold (shape_of, tensor_to_shape, assert_op,
// null_value, to_vdevice) are implemented here directly; the call forms
// (call_tir, call_dps_packed, closures, memory ops) are not supported.
//
//===----------------------------------------------------------------------===//

#include "codegen/InterpreterImpl.h"

#include "codegen/Constants.h"

#include "ir/IndexMap.h"
#include "ir/OpKernels.h"
#include "ir/Printer.h"
#include "ir/ops/OpHandles.h"
#include "kernels/Kernel.h"
#include "vm/HostKernels.h"
#include "vm/Inspect.h"
#include "vm/KernelBridge.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemAlloc.h"

#include <cstring>

using namespace graft;
using namespace graft::codegen;
using namespace graft::codegen::interp;
using vm::TensorObj;
using vm::Value;

namespace {

/// Index in Call.args of the wrapper param `name` (as legalize-ops reads it).
int argIndex(const OpInfo &info, llvm::StringRef name) {
  int index = 0;
  for (const OpParam &p : info.params) {
    if (p.kind == ParamKind::Attr)
      continue;
    if (p.name == name)
      return index;
    ++index;
  }
  return -1;
}

const Value *argOf(const CallNode &call, llvm::ArrayRef<Value> args, llvm::StringRef param) {
  int i = argIndex(*call.opInfo(), param);
  return i >= 0 && static_cast<size_t>(i) < args.size() ? &args[i] : nullptr;
}

/// The kernel's tensor inputs, a tuple argument field by field.
llvm::Error collectInputs(const CallNode &call, const OpKernel &k, llvm::ArrayRef<Value> args,
                          llvm::SmallVectorImpl<DLTensor *> &inputs) {
  for (llvm::StringRef param : k.inputs) {
    const Value *v = argOf(call, args, param);
    if (!v)
      continue;
    llvm::SmallVector<const Value *, 4> parts{v};
    if (const auto *tuple = v->as<vm::TupleObj>()) {
      parts.clear();
      for (const Value &f : tuple->fields)
        parts.push_back(&f);
    }
    for (const Value *part : parts) {
      auto *t = part->as<TensorObj>();
      if (!t)
        return runtimeError("operand '" + param + "' must be a tensor but is " + part->str());
      inputs.push_back(&t->dl);
    }
  }
  return llvm::Error::success();
}

llvm::Expected<kernels::AttrValue> convertAttr(const AttrValue &a, const SymEnv &env) {
  switch (a.kind()) {
  case AttrValue::Kind::None:
    return kernels::AttrValue();
  case AttrValue::Kind::Bool:
    return kernels::AttrValue(a.getBool());
  case AttrValue::Kind::Int:
    return kernels::AttrValue(a.getInt());
  case AttrValue::Kind::Float:
    return kernels::AttrValue(a.getFloat());
  case AttrValue::Kind::String:
    return kernels::AttrValue(a.getString());
  case AttrValue::Kind::DType:
    return kernels::AttrValue(vm::dtypeStr(toDLDataType(a.getDType())));
  case AttrValue::Kind::Prim: {
    llvm::Expected<Scalar> s = evalPrim(a.getPrim().get(), env);
    if (!s)
      return s.takeError();
    return vm::toAttrValue(scalarValue(a.getPrim()->dtype, *s));
  }
  case AttrValue::Kind::Array: {
    std::vector<int64_t> list;
    for (const AttrValue &v : a.getArray()) {
      if (v.kind() != AttrValue::Kind::Int)
        return unsupported("a list attribute of non-integers");
      list.push_back(v.getInt());
    }
    return kernels::AttrValue(std::move(list));
  }
  case AttrValue::Kind::IndexMap: {
    std::vector<int64_t> program;
    std::string why = indexMapProgram(*a.getIndexMap(), program);
    if (!why.empty())
      return unsupported("an index map that " + why);
    return kernels::AttrValue(std::move(program));
  }
  default:
    break;
  }
  return unsupported("an attribute of this kind");
}

/// The kernel attributes in the kernel's order.
llvm::Error collectAttrs(const CallNode &call, const OpKernel &k, llvm::ArrayRef<Value> args,
                         const SymEnv &env, std::vector<kernels::AttrValue> &out) {
  for (const KernelAttr &a : k.attrs) {
    llvm::Expected<kernels::AttrValue> v = [&]() -> llvm::Expected<kernels::AttrValue> {
      switch (a.source) {
      case KernelAttr::Source::OpAttr: {
        const AttrValue *attr = call.attrs ? call.attrs->lookup(a.from) : nullptr;
        return attr ? convertAttr(*attr, env) : kernels::AttrValue();
      }
      case KernelAttr::Source::OpArg: {
        const Value *arg = argOf(call, args, a.from);
        return arg ? vm::toAttrValue(*arg) : kernels::AttrValue();
      }
      case KernelAttr::Source::OutDType: {
        const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(call.sinfo.get());
        if (!t || t->dtype.isVoid())
          return unsupported("an output of unknown dtype");
        return kernels::AttrValue(vm::dtypeStr(toDLDataType(t->dtype)));
      }
      case KernelAttr::Source::Constant:
        return convertAttr(a.value, env);
      }
      return kernels::AttrValue();
    }();
    if (!v)
      return v.takeError();
    out.push_back(std::move(*v));
  }
  return llvm::Error::success();
}

/// A host tensor of the tensor struct info `s`, its dims evaluated.
llvm::Expected<Value> allocate(const StructInfoNode *s, const SymEnv &env) {
  const auto *t = llvm::dyn_cast_or_null<TensorSInfoNode>(s);
  if (!t || t->dtype.isVoid() || !t->shapeValues())
    return unsupported("an output of struct info " + printStructInfo(s) +
                       " (the interpreter needs a known shape and dtype)");
  llvm::SmallVector<int64_t, 4> dims;
  for (const PrimExpr &d : *t->shapeValues()) {
    llvm::Expected<Scalar> v = evalPrim(d.get(), env);
    if (!v)
      return v.takeError();
    if (v->i < 0)
      return runtimeError(
          llvm::formatv("output dim '{0}' is negative ({1})", toString(d.get()), v->i).str());
    dims.push_back(v->i);
  }
  auto tensor = TensorObj::emptyHost(dims, toDLDataType(t->dtype));
  if (!tensor)
    return runtimeError(llvm::toString(tensor.takeError()));
  if ((*tensor)->byteSize())
    std::memset((*tensor)->bytes(), 0, (*tensor)->byteSize());
  return Value::object(*tensor);
}

/// Scratch memory a kernel asks for, freed on scope exit.
struct Scratch {
  kernels::Workspace ws;
  ~Scratch() {
    if (ws.data)
      llvm::deallocate_buffer(ws.data, ws.bytes, 64);
  }
};

llvm::Error runKernel(const kernels::KernelInfo &info, kernels::KernelArgs args) {
  Scratch scratch;
  if (info.workspaceBytes) {
    if (size_t bytes = info.workspaceBytes(args)) {
      scratch.ws = {llvm::allocate_buffer(bytes, 64), bytes};
      args.workspace = scratch.ws;
    }
  }
  if (llvm::Error err = info.fn(args)) // Kernel messages start with the symbol.
    return runtimeError(llvm::toString(std::move(err)));
  return llvm::Error::success();
}

llvm::Expected<Value> callDPS(const CallNode &call, const OpKernel &k, llvm::ArrayRef<Value> args,
                              const SymEnv &env) {
  const kernels::KernelInfo *info = kernels::lookupKernel(k.symbol);
  if (!info)
    return unsupported("kernel '" + k.symbol + "' (not registered)");
  llvm::SmallVector<DLTensor *, 4> inputs;
  if (llvm::Error err = collectInputs(call, k, args, inputs))
    return err;
  std::vector<kernels::AttrValue> attrs;
  if (llvm::Error err = collectAttrs(call, k, args, env, attrs))
    return err;
  llvm::SmallVector<const StructInfoNode *, 4> outSInfo{call.sinfo.get()};
  const auto *tuple = llvm::dyn_cast_or_null<TupleSInfoNode>(call.sinfo.get());
  if (tuple) {
    outSInfo.clear();
    for (const StructInfo &f : tuple->fields)
      outSInfo.push_back(f.get());
  }
  llvm::SmallVector<Value, 4> outputs;
  llvm::SmallVector<DLTensor *, 4> outDL;
  for (const StructInfoNode *s : outSInfo) {
    llvm::Expected<Value> out = allocate(s, env);
    if (!out)
      return out.takeError();
    outDL.push_back(&out->as<TensorObj>()->dl);
    outputs.push_back(std::move(*out));
  }
  if (llvm::Error err = runKernel(*info, kernels::KernelArgs{inputs, outDL, attrs, {}}))
    return err;
  return tuple ? Value::tuple(outputs) : outputs.front();
}

/// An op whose output size depends on data: count on the host, allocate,
/// fill (vm/HostKernels.h sizes the outputs, as in the VM).
llvm::Expected<Value> callHost(const CallNode &call, const OpKernel &k, llvm::ArrayRef<Value> args,
                               const SymEnv &env) {
  const kernels::KernelInfo *fill = kernels::lookupKernel(k.hostSymbol);
  const kernels::KernelInfo *count = kernels::lookupKernel(k.hostSymbol + "_count");
  const vm::HostForm *form = vm::lookupHostForm(k.hostSymbol);
  if (!fill || !count || !form)
    return unsupported("host kernel '" + k.hostSymbol + "' (not registered)");
  llvm::SmallVector<DLTensor *, 4> inputs;
  if (llvm::Error err = collectInputs(call, k, args, inputs))
    return err;
  std::vector<kernels::AttrValue> attrs;
  if (llvm::Error err = collectAttrs(call, k, args, env, attrs))
    return err;
  if (inputs.size() != static_cast<size_t>(fill->numInputs) || count->numInputs < 0 ||
      static_cast<size_t>(count->numInputs) > inputs.size())
    return unsupported(llvm::formatv("{0} with {1} inputs", k.hostSymbol, inputs.size()).str());
  std::vector<kernels::AttrValue> countAttrs;
  for (int i : vm::countAttrIndices(*count, *fill))
    countAttrs.push_back(i < 0 ? kernels::AttrValue() : attrs[size_t(i)]);
  vm::HostCall host{inputs, attrs};
  auto n = TensorObj::emptyHost(form->countShape(host), DLDataType{kDLInt, 64, 1});
  if (!n)
    return runtimeError(llvm::toString(n.takeError()));
  DLTensor *nDL = &(*n)->dl;
  llvm::ArrayRef<DLTensor *> countInputs =
      llvm::ArrayRef<DLTensor *>(inputs).take_back(static_cast<size_t>(count->numInputs));
  if (llvm::Error err = runKernel(*count, kernels::KernelArgs{countInputs, nDL, countAttrs, {}}))
    return err;
  host.counts = reinterpret_cast<const int64_t *>((*n)->bytes());
  llvm::SmallVector<Value, 4> outputs;
  llvm::SmallVector<DLTensor *, 4> outDL;
  for (const vm::HostOutput &o : form->outputs(host)) {
    auto out = TensorObj::emptyHost(o.shape, o.dtype);
    if (!out)
      return runtimeError(llvm::toString(out.takeError()));
    outDL.push_back(&(*out)->dl);
    outputs.push_back(Value::object(*out));
  }
  if (llvm::Error err = runKernel(*fill, kernels::KernelArgs{inputs, outDL, attrs, {}}))
    return err;
  return outputs.size() == 1 ? outputs.front() : Value::tuple(outputs);
}

/// Python-style "{}" formatting of an assert message ("{{" and "}}" escape).
std::string formatMessage(llvm::StringRef fmt, llvm::ArrayRef<Value> values) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if ((fmt[i] == '{' || fmt[i] == '}') && i + 1 < fmt.size() && fmt[i + 1] == fmt[i]) {
      out += fmt[i++];
    } else if (fmt.substr(i).startswith("{}") && next < values.size()) {
      const Value &v = values[next++];
      out += v.as<vm::StringObj>() ? v.as<vm::StringObj>()->value : v.str();
      ++i;
    } else {
      out += fmt[i];
    }
  }
  return out;
}

llvm::Expected<bool> truth(const Value &v) {
  if (v.isBool())
    return v.getBool();
  if (v.isInt())
    return v.getInt() != 0;
  const auto *t = v.as<TensorObj>();
  if (t && t->numElements() == 1 && t->dtype().bits == 8 && t->dtype().code != kDLFloat)
    return *reinterpret_cast<const int8_t *>(t->bytes()) != 0;
  return unsupported("an assert condition " + v.str());
}

/// R.assert_op(cond, format, values...).
llvm::Expected<Value> assertOp(llvm::ArrayRef<Value> args) {
  if (args.empty())
    return runtimeError("assert_op without a condition");
  llvm::Expected<bool> cond = truth(args[0]);
  if (!cond)
    return cond.takeError();
  if (*cond)
    return Value::tuple({});
  const auto *fmt = args.size() > 1 ? args[1].as<vm::StringObj>() : nullptr;
  return runtimeError(fmt ? formatMessage(fmt->value, args.drop_front(2)) : "assertion failed");
}

llvm::Expected<Value> tensorToShape(const Value &v) {
  const auto *t = v.as<TensorObj>();
  if (!t || t->dl.ndim != 1 || t->dtype().code != kDLInt ||
      (t->dtype().bits != 64 && t->dtype().bits != 32))
    return runtimeError("tensor_to_shape needs a 1-d int32 or int64 tensor, got " + v.str());
  llvm::SmallVector<int64_t, 4> dims;
  for (int64_t i = 0; i < t->numElements(); ++i)
    dims.push_back(t->dtype().bits == 64 ? reinterpret_cast<const int64_t *>(t->bytes())[i]
                                         : reinterpret_cast<const int32_t *>(t->bytes())[i]);
  return Value::shape(dims);
}

/// A relax.inspect op whose value inference did not know: the field of the
/// tensor, as vm.builtin.tensor_<field> reads it. None for other ops.
llvm::Optional<llvm::Expected<Value>> inspectField(const CallNode &call,
                                                   llvm::ArrayRef<Value> args) {
  llvm::StringRef name = call.opInfo() ? call.opInfo()->scriptName() : "";
  if (!name.consume_front("inspect."))
    return llvm::None;
  llvm::Optional<vm::TensorField> field = vm::tensorFieldNamed(name);
  const auto *t = args[0].as<TensorObj>();
  if (!field || !t)
    return llvm::Expected<Value>(runtimeError("R.inspect." + name + " needs a tensor"));
  int64_t axis = 0;
  if (args.size() > 1) {
    if (!args[1].isInt())
      return llvm::Expected<Value>(runtimeError("R.inspect." + name + " needs an int axis"));
    axis = args[1].getInt();
  }
  llvm::Expected<int64_t> v = vm::readTensorField(*t, *field, axis);
  if (!v)
    return llvm::Expected<Value>(
        runtimeError("R.inspect." + name + ": " + llvm::toString(v.takeError())));
  return llvm::Expected<Value>(Value::integer(*v));
}

/// The runtime ops a high-level program may hold; None when `call` is not
/// one of them.
llvm::Optional<llvm::Expected<Value>> runtimeOp(const CallNode &call, llvm::ArrayRef<Value> args) {
  if (isCallTo(call, ops::nullValue()))
    return llvm::Expected<Value>(Value());
  if (isCallTo(call, ops::assertOp()))
    return assertOp(args);
  if (args.empty())
    return llvm::None;
  if (isCallTo(call, ops::shapeOf())) {
    const auto *t = args[0].as<TensorObj>();
    if (!t)
      return llvm::Expected<Value>(runtimeError("shape_of needs a tensor, got " + args[0].str()));
    return llvm::Expected<Value>(Value::shape(t->shape()));
  }
  if (isCallTo(call, ops::tensorToShape()))
    return tensorToShape(args[0]);
  // A device move: on one CPU the value itself.
  if (isCallTo(call, ops::toVDevice()))
    return llvm::Expected<Value>(args[0]);
  if (auto v = inspectField(call, args))
    return std::move(*v);
  return llvm::None;
}

} // namespace

llvm::Expected<Value> interp::callOp(const CallNode &call, llvm::ArrayRef<Value> args,
                                     const SymEnv &env) {
  const OpInfo *info = call.opInfo();
  if (!info)
    return unsupported("an unregistered op");
  if (auto v = runtimeOp(call, args))
    return std::move(*v);
  if (isRuntimeOp(*info))
    return unsupported("R." + info->scriptName());
  const OpKernel *k = lookupOpKernel(*info);
  if (!k)
    return unsupported("R." + info->scriptName() + " (no kernel)");
  if (k->forward)
    return llvm::Expected<Value>(args[0]);
  if (readsOnHost(call) || k->symbol.empty()) {
    if (k->hostSymbol.empty())
      return unsupported("R." + info->scriptName() + " reading data on the host");
    return callHost(call, *k, args, env);
  }
  return callDPS(call, *k, args, env);
}
