//===- fuzz/SeedExecutables.h - Valid executables to start fuzzing from ---===//
//
// The seeds of the targets that take executables (exe_loader, vm_run): two
// hand-assembled executables (every section and value kind; the smallest
// one) and every module of the `.py` files under the given paths that
// `graft build` can build, built afresh, so the seeds never go stale when
// the format changes. Each target writes them in its own input format.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_FUZZ_SEEDEXECUTABLES_H
#define GRAFT_FUZZ_SEEDEXECUTABLES_H

#include "codegen/Build.h"
#include "text/Parser.h"
#include "transforms/Passes.h"
#include "vm/ExecBuilder.h"
#include "vm/Serialize.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

namespace graft::fuzz {

using namespace graft::vm;

inline std::unique_ptr<Executable> seedWithEverything() {
  ExecBuilder b;
  DLDataType f32{kDLFloat, 32, 1};
  auto t = TensorObj::emptyHost({2, 2}, f32);
  if (!t) {
    llvm::consumeError(t.takeError());
    return nullptr;
  }
  std::memset((*t)->bytes(), 0x3f, (*t)->byteSize());
  ParamInfo shape;
  shape.name = "s";
  shape.kind = ParamKind::Shape;
  shape.ndim = 1;
  shape.dims = {DimInfo::sym("n")};
  b.beginFunction("main", {"x", "s"},
                  {ParamInfo::tensor("x", f32, {DimInfo::sym("n"), DimInfo::fixed(2)}), shape});
  b.emitCall("vm.builtin.read_if_cond", {Arg::imm(1)}, 2);
  b.emitIf(2, 3);
  b.emitCall("vm.builtin.copy", {b.convertConstant(Value::object(*t))}, 3);
  b.emitGoto(2);
  b.emitCall("vm.builtin.copy", {b.convertConstant(Value::shape({1, 2}))}, 3);
  b.emitCall("vm.builtin.make_tuple",
             {Arg::reg(3), b.convertConstant(Value::string("s")),
              b.convertConstant(Value::real(1.5)), b.convertConstant(Value::dataType(f32)),
              b.convertConstant(Value::integer(int64_t(1) << 60)), b.functionArg("helper"),
              Arg::reg(kVMRegister), Arg()},
             4);
  b.emitRet(4);
  b.endFunction();
  b.beginFunction("helper", {"a"});
  b.emitRet(0);
  b.endFunction();
  b.addKernelSource("k", "extern \"C\" __global__ void k() {}\n");
  auto exe = b.finish();
  if (!exe) {
    llvm::consumeError(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}

inline std::unique_ptr<Executable> seedMinimal() {
  ExecBuilder b;
  b.beginFunction("main", {});
  b.emitRet(kVoidRegister);
  b.endFunction();
  auto exe = b.finish();
  if (!exe) {
    llvm::consumeError(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}

inline void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    os << bytes;
}

/// The `.py` files under `path` (or `path` itself).
inline std::vector<std::string> sourceFiles(llvm::StringRef path) {
  std::vector<std::string> files;
  if (!llvm::sys::fs::is_directory(path)) {
    files.push_back(path.str());
    return files;
  }
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).endswith(".py"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Every module of `file` that builds, as executable bytes.
inline std::vector<std::string> buildAll(const std::string &file) {
  std::vector<std::string> out;
  auto parsed = graft::parseFile(file);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return out;
  }
  for (auto &module : parsed->modules) {
    auto exe = graft::codegen::buildExecutable(*module);
    if (!exe) {
      llvm::consumeError(exe.takeError());
      continue;
    }
    out.push_back(saveToBytes(**exe));
  }
  return out;
}

/// The hand-assembled executables, then every one built from `sources`
/// (comma-separated files or folders), as bytes.
inline std::vector<std::string> seedExecutables(llvm::StringRef sources, size_t *built = nullptr) {
  std::vector<std::string> out;
  for (auto *make : {seedWithEverything, seedMinimal})
    if (auto exe = make())
      out.push_back(saveToBytes(*exe));
  if (!sources.empty())
    graft::registerAllPasses();
  llvm::SmallVector<llvm::StringRef, 4> paths;
  sources.split(paths, ',', -1, false);
  size_t fromSources = 0;
  for (llvm::StringRef path : paths)
    for (const std::string &file : sourceFiles(path))
      for (std::string &bytes : buildAll(file)) {
        out.push_back(std::move(bytes));
        ++fromSources;
      }
  if (built)
    *built = fromSources;
  return out;
}

/// `-write_seeds=DIR` and `-seed_sources=P,...` among libFuzzer's arguments.
struct SeedArgs {
  std::string dir, sources;
};
inline SeedArgs seedArgs(int argc, char **argv) {
  SeedArgs a;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("-write_seeds="))
      a.dir = arg.str();
    else if (arg.consume_front("-seed_sources="))
      a.sources = arg.str();
  }
  return a;
}

} // namespace graft::fuzz

#endif // GRAFT_FUZZ_SEEDEXECUTABLES_H
