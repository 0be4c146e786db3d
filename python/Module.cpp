//===- python/Module.cpp - The graft Python module (pybind11) ---------------===//
//
// graft._core: the C++ side of the `graft` package (python/graft). It keeps
// to what needs C++: parsing and printing, structural equality, the
// verifier, running a pipeline, building, the VM with DLPack tensors in and
// out, and the pass-test runner. The TVM-shaped API (graft.transform,
// graft.script) is Python, in python/graft (docs/python.md).
//
//===----------------------------------------------------------------------===//

#include "analysis/WellFormed.h"
#include "codegen/Build.h"
#include "ir/Diagnostics.h"
#include "ir/Printer.h"
#include "ir/StructuralEqual.h"
#include "pass/PassManager.h"
#include "pass/PassPlugin.h"
#include "pass/PassTest.h"
#include "pass/Pipeline.h"
#include "text/Parser.h"
#include "transforms/Passes.h"
#include "vm/CudaDevice.h"
#include "vm/Device.h"
#include "vm/Executable.h"
#include "vm/Serialize.h"
#include "vm/VM.h"
#include "vm/Value.h"

#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace graft;

namespace {

/// graft.GraftError: every failure of the library that is not the caller's
/// Python mistake (a parse error, a failed pass, a runtime error).
PyObject *graftError = nullptr;

[[noreturn]] void raise(const std::string &message) {
  PyErr_SetString(graftError, message.c_str());
  throw py::error_already_set();
}

/// The error as graft prints it (located when `sm` holds its buffer).
std::string errorText(llvm::Error err, const llvm::SourceMgr *sm) {
  llvm::Error rest =
      llvm::handleErrors(std::move(err), [](const PassFailure &f) { return toDiagnostic(f); });
  std::string text;
  llvm::raw_string_ostream os(text);
  printError(std::move(rest), sm, os);
  os.flush();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  // The tool's prefix says nothing in an exception; a located error keeps
  // its "FILE:LINE:COL: error:".
  llvm::StringRef body(text);
  if (body.consume_front("graft: error: "))
    return body.str();
  return text;
}

template <typename T> T orRaise(llvm::Expected<T> value, const llvm::SourceMgr *sm = nullptr) {
  if (!value)
    raise(errorText(value.takeError(), sm));
  return std::move(*value);
}

void orRaise(llvm::Error err, const llvm::SourceMgr *sm = nullptr) {
  if (err)
    raise(errorText(std::move(err), sm));
}

/// A module held by Python. Modules are values: passes run on a copy (the
/// nodes are immutable and shared, so a copy is a vector of references).
using ModuleRef = std::shared_ptr<IRModule>;

std::vector<ModuleRef> parseModules(const std::string &text, const std::string &name) {
  std::shared_ptr<llvm::SourceMgr> sm;
  llvm::Expected<ParsedFile> file = parseText(text, name, &sm);
  if (!file)
    raise(errorText(file.takeError(), sm.get()));
  std::vector<ModuleRef> out;
  for (std::unique_ptr<IRModule> &m : file->modules)
    out.push_back(std::move(m));
  return out;
}

std::string mismatchReport(const IRModule &a, const IRModule &b) {
  llvm::Optional<Mismatch> m = firstMismatch(a, b);
  return m ? m->report() : "";
}

std::vector<std::string> violations(const IRModule &module) {
  std::vector<std::string> out;
  for (const Violation &v : verifyModule(module))
    out.push_back(errorText(toError(v, module), module.sources.get()));
  return out;
}

ModuleRef runPipeline(const IRModule &module, const std::string &pipelineText,
                      const std::vector<std::string> &configs, bool verifyEach) {
  Pipeline pipeline = orRaise(parsePipeline(pipelineText));
  PassContext ctx;
  orRaise(configurePassContext(ctx, pipelineText, configs));
  auto out = std::make_shared<IRModule>(module);
  PassManagerOptions options;
  options.verifyEach = verifyEach;
  PassManager pm(options);
  orRaise(pm.run(*out, pipeline, ctx), module.sources.get());
  return out;
}

std::shared_ptr<vm::Executable> build(const IRModule &module, const std::string &target,
                                      const std::vector<std::string> &configs) {
  IRModule copy(module);
  codegen::BuildOptions options;
  options.target = target;
  options.configs = configs;
  std::unique_ptr<vm::Executable> exe =
      orRaise(codegen::buildExecutable(copy, options), module.sources.get());
  return std::shared_ptr<vm::Executable>(std::move(exe));
}

//===----------------------------------------------------------------------===//
// Tensors through DLPack
//===----------------------------------------------------------------------===//

/// A VM tensor handed to Python; numpy takes it with np.from_dlpack, which
/// calls __dlpack__ and __dlpack_device__ (no copy).
struct Tensor {
  vm::Ref<vm::TensorObj> tensor;
};

void deleteUnconsumed(PyObject *capsule) {
  // A consumer renames the capsule to "used_dltensor" and owns the tensor;
  // one nobody took is still ours to free.
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed && managed->deleter)
    managed->deleter(managed);
}

py::object exportTensor(const Tensor &t) {
  DLManagedTensor *managed = t.tensor->toDLPack();
  return py::reinterpret_steal<py::object>(PyCapsule_New(managed, "dltensor", deleteUnconsumed));
}

/// Takes an object exporting __dlpack__ (a C-contiguous numpy array) without
/// copying; the tensor keeps the producer's buffer alive.
vm::Value importTensor(const py::object &obj) {
  py::object capsule = obj.attr("__dlpack__")();
  PyObject *raw = capsule.ptr();
  if (!PyCapsule_IsValid(raw, "dltensor"))
    raise("__dlpack__ did not return an unconsumed DLPack capsule");
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(raw, "dltensor"));
  vm::Ref<vm::TensorObj> tensor = orRaise(vm::TensorObj::fromDLPack(managed));
  PyCapsule_SetName(raw, "used_dltensor");
  if (!tensor->isCompact())
    raise("tensor arguments must be compact (C-contiguous): pass numpy.ascontiguousarray(a)");
  return vm::Value::object(tensor);
}

vm::Value toValue(const py::handle &h) {
  if (py::isinstance<py::bool_>(h))
    return vm::Value::boolean(h.cast<bool>());
  if (py::isinstance<py::int_>(h))
    return vm::Value::integer(h.cast<int64_t>());
  if (py::isinstance<py::float_>(h))
    return vm::Value::real(h.cast<double>());
  if (py::isinstance<py::str>(h))
    return vm::Value::string(h.cast<std::string>());
  if (py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) {
    std::vector<vm::Value> fields;
    for (py::handle f : h)
      fields.push_back(toValue(f));
    return vm::Value::tuple(fields);
  }
  if (py::hasattr(h, "__dlpack__"))
    return importTensor(py::reinterpret_borrow<py::object>(h));
  raise("cannot pass a value of type '" +
        py::str(py::type::of(h).attr("__name__")).cast<std::string>() +
        "' to the VM (numpy arrays, int, float, bool, str and tuples of them)");
}

py::object fromValue(const vm::Value &v) {
  if (v.isNone())
    return py::none();
  if (v.isInt())
    return py::int_(v.getInt());
  if (v.isFloat())
    return py::float_(v.getFloat());
  if (v.isBool())
    return py::bool_(v.getBool());
  if (auto *t = v.as<vm::TensorObj>())
    return py::cast(Tensor{vm::Ref<vm::TensorObj>(t)});
  if (auto *tuple = v.as<vm::TupleObj>()) {
    py::tuple out(tuple->fields.size());
    for (size_t i = 0; i < tuple->fields.size(); ++i)
      out[i] = fromValue(tuple->fields[i]);
    return out;
  }
  if (auto *s = v.as<vm::StringObj>())
    return py::str(s->value);
  if (auto *shape = v.as<vm::ShapeObj>())
    return py::cast(std::vector<int64_t>(shape->dims.begin(), shape->dims.end()));
  return py::str(v.str());
}

class VirtualMachine {
public:
  explicit VirtualMachine(std::shared_ptr<vm::Executable> exe) {
    vm::VMOptions options;
    options.devices.push_back(vm::cpuDevice());
    vm_ = orRaise(vm::VirtualMachine::create(std::move(exe), options));
  }

  py::object call(const std::string &function, const py::args &args) {
    int64_t index = vm_->executable().findFunction(function);
    if (index < 0)
      raise("the executable has no function '" + function + "'");
    std::vector<vm::Value> values;
    for (py::handle a : args)
      values.push_back(toValue(a));
    vm::Value result;
    std::optional<std::string> error;
    {
      // Python threads run while the VM does; nothing Python is touched here.
      py::gil_scoped_release release;
      llvm::Expected<vm::Value> out = vm_->invoke(function, values);
      if (out)
        out = vm::copyTensorsToHost(*out);
      if (out)
        result = std::move(*out);
      else
        error = errorText(out.takeError(), nullptr);
    }
    if (error)
      raise(*error);
    return fromValue(result);
  }

private:
  std::unique_ptr<vm::VirtualMachine> vm_;
};

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "graft's C++ core; use the graft package (docs/python.md)";
  graftError = PyErr_NewException("graft.GraftError", PyExc_RuntimeError, nullptr);
  m.attr("GraftError") = py::handle(graftError);
  registerAllPasses();

  py::class_<IRModule, ModuleRef>(m, "Module")
      .def_property_readonly("name", [](const IRModule &mod) { return mod.name; })
      .def_property_readonly("functions",
                             [](const IRModule &mod) {
                               std::vector<std::string> names;
                               for (const ModuleEntry &e : mod.entries())
                                 names.push_back(e.gvar->name);
                               return names;
                             })
      .def("script", [](const IRModule &mod) { return printModule(mod); })
      .def("__str__", [](const IRModule &mod) { return printModule(mod); })
      .def("structural_hash", [](const IRModule &mod) { return structuralHash(mod); });

  m.def("parse_modules", &parseModules, py::arg("text"), py::arg("name") = "<string>");
  m.def("mismatch", [](const IRModule &a, const IRModule &b) { return mismatchReport(a, b); });
  m.def("structural_equal",
        [](const IRModule &a, const IRModule &b) { return structuralEqual(a, b); });
  m.def("violations", &violations);
  m.def("run_pipeline", &runPipeline, py::arg("module"), py::arg("pipeline"),
        py::arg("configs") = std::vector<std::string>(), py::arg("verify_each") = true);
  m.def("passes", [] {
    std::vector<std::tuple<std::string, std::string, std::vector<std::string>, bool>> out;
    for (const PassInfo *p : allPasses()) {
      std::vector<std::string> options;
      for (const PassOptionSpec &o : p->options)
        options.push_back(o.name);
      out.emplace_back(p->name, p->alias, options, p->testOnly);
    }
    return out;
  });
  m.def("load_pass_plugin",
        [](const std::string &path) { return orRaise(loadPassPlugin(path)).passes; });
  m.def("run_pass_test", [](const std::string &text, const std::string &name) {
    return runPassTestText(text, name);
  });

  py::class_<vm::Executable, std::shared_ptr<vm::Executable>>(m, "Executable")
      .def("save", [](const vm::Executable &exe,
                      const std::string &path) { orRaise(vm::saveToFile(exe, path)); })
      .def_property_readonly("functions", [](const vm::Executable &exe) {
        std::vector<std::string> names;
        for (const vm::FuncInfo &f : exe.functions)
          if (f.kind == vm::FuncKind::VM)
            names.push_back(f.name);
        return names;
      });
  m.def("build", &build, py::arg("module"), py::arg("target") = "cpu",
        py::arg("configs") = std::vector<std::string>());
  m.def("load_executable", [](const std::string &path) {
    return std::shared_ptr<vm::Executable>(orRaise(vm::loadFromFile(path)));
  });

  py::class_<Tensor>(m, "Tensor")
      .def(
          "__dlpack__", [](const Tensor &t, py::object stream) { return exportTensor(t); },
          py::arg("stream") = py::none())
      .def("__dlpack_device__",
           [](const Tensor &t) {
             return py::make_tuple(static_cast<int>(t.tensor->device().device_type),
                                   t.tensor->device().device_id);
           })
      .def_property_readonly("shape", [](const Tensor &t) {
        return std::vector<int64_t>(t.tensor->shape().begin(), t.tensor->shape().end());
      });

  py::class_<VirtualMachine>(m, "VirtualMachine")
      .def(py::init<std::shared_ptr<vm::Executable>>())
      .def("call", &VirtualMachine::call);
}
