//===- tests/codegen/CodeGenTestUtil.h - Build and run modules in tests -*- C++ -*-===//
#ifndef GRAFT_TESTS_CODEGEN_CODEGENTESTUTIL_H
#define GRAFT_TESTS_CODEGEN_CODEGENTESTUTIL_H

#include "codegen/Build.h"
#include "tests/vm/VMTestUtil.h"
#include "text/Parser.h"

namespace graft::codegen::test {

using namespace graft::vm::test;
using vm::Value;

inline const char *kHeader = "from tvm.script import ir as I, relax as R, tir as T\n\n";

/// Parses `text` (one module) and keeps the parse alive.
struct Parsed {
  ParsedFile file;
  IRModule &module() { return *file.modules.front(); }
};

inline std::unique_ptr<Parsed> parse(const std::string &text) {
  auto file = parseText(std::string(kHeader) + text, "test.py");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return nullptr;
  }
  auto p = std::make_unique<Parsed>();
  p->file = std::move(*file);
  return p;
}

/// Builds `text` with the build-cpu pipeline.
inline std::shared_ptr<const vm::Executable> build(const std::string &text) {
  auto p = parse(text);
  if (!p)
    return nullptr;
  auto exe = buildExecutable(p->module());
  if (!exe) {
    ADD_FAILURE() << llvm::toString(exe.takeError());
    return nullptr;
  }
  return std::shared_ptr<const vm::Executable>(std::move(*exe));
}

/// The build error of `text` (or "<success>").
inline std::string buildError(const std::string &text) {
  auto p = parse(text);
  if (!p)
    return "<parse error>";
  return errorOf(buildExecutable(p->module()));
}

/// Runs `fn` of `exe` on `args`.
inline llvm::Expected<Value> run(std::shared_ptr<const vm::Executable> exe,
                                 llvm::ArrayRef<Value> args, llvm::StringRef fn = "main") {
  auto vm = vm::VirtualMachine::create(std::move(exe));
  if (!vm)
    return vm.takeError();
  return (*vm)->invoke(fn, args);
}

inline const Value &field(const Value &tuple, size_t i) {
  static const Value none;
  auto *t = tuple.as<vm::TupleObj>();
  if (!t || i >= t->fields.size()) {
    ADD_FAILURE() << "no field " << i << " in " << tuple.str();
    return none;
  }
  return t->fields[i];
}

} // namespace graft::codegen::test

#endif // GRAFT_TESTS_CODEGEN_CODEGENTESTUTIL_H
