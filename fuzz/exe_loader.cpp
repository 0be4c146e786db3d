//===- fuzz/exe_loader.cpp - libFuzzer target for the executable loader ---===//
//
// Loads arbitrary bytes as a VM executable with the checksum check off (so
// that mutations reach the section parsers and the verifier) and once with
// it on. A file that loads is dumped, saved and loaded again, which must
// succeed and give the same bytes; anything else is a loader bug.
//
// Seeds: `graft-fuzz-exe_loader -write_seeds=DIR [-seed_sources=P,...]`
// writes valid executables and truncations of them (with a consistent
// header) into DIR and exits. With -seed_sources, every module of every `.py`
// file under the comma-separated paths that `graft build` can build is a
// seed too (so the corpus covers what codegen writes: constants of every
// dtype, fused kernel programs, scalar programs, parameter tables), built
// afresh so the seeds never go stale when the format changes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Build.h"
#include "text/Parser.h"
#include "transforms/Passes.h"
#include "vm/ExecBuilder.h"
#include "vm/Serialize.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace graft::vm;

namespace {

std::unique_ptr<Executable> seedWithEverything() {
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

std::unique_ptr<Executable> seedMinimal() {
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

void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    os << bytes;
}

/// `bytes`, then truncations of it whose header matches the cut.
void writeWithCuts(const std::string &dir, const std::string &bytes, int &n) {
  writeFile(dir + "/valid-" + std::to_string(n++), bytes);
  size_t step = std::max<size_t>(13, bytes.size() / 16);
  for (size_t len = kExecHeaderBytes; len < bytes.size(); len += step) {
    std::string cut = bytes.substr(0, len);
    llvm::support::endian::write64le(&cut[16], len - kExecHeaderBytes);
    llvm::support::endian::write64le(&cut[24],
                                     fnv1a64(llvm::StringRef(cut).drop_front(kExecHeaderBytes)));
    writeFile(dir + "/cut-" + std::to_string(n++), cut);
  }
}

/// The `.py` files under `path` (or `path` itself).
std::vector<std::string> sourceFiles(llvm::StringRef path) {
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
std::vector<std::string> buildAll(const std::string &file) {
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

void writeSeeds(const std::string &dir, llvm::StringRef sources) {
  llvm::sys::fs::create_directories(dir);
  int n = 0;
  for (auto *make : {seedWithEverything, seedMinimal})
    if (auto exe = make())
      writeWithCuts(dir, saveToBytes(*exe), n);
  if (!sources.empty())
    graft::registerAllPasses();
  llvm::SmallVector<llvm::StringRef, 4> paths;
  sources.split(paths, ',', -1, false);
  int built = 0;
  for (llvm::StringRef path : paths)
    for (const std::string &file : sourceFiles(path))
      for (const std::string &bytes : buildAll(file)) {
        writeWithCuts(dir, bytes, n);
        ++built;
      }
  llvm::outs() << "wrote " << n << " seeds (" << built << " built from sources) to " << dir << '\n';
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  std::string seedDir, sources;
  for (int i = 1; i < *argc; ++i) {
    llvm::StringRef arg((*argv)[i]);
    if (arg.consume_front("-write_seeds="))
      seedDir = arg.str();
    else if (arg.consume_front("-seed_sources="))
      sources = arg.str();
  }
  if (!seedDir.empty()) {
    writeSeeds(seedDir, sources);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  LoadOptions noChecksum;
  noChecksum.verifyChecksum = false;
  auto exe = loadFromBytes(bytes, noChecksum);
  if (!exe) {
    std::string msg = llvm::toString(exe.takeError());
    if (msg.empty())
      __builtin_trap(); // every rejection must say why
    llvm::consumeError(loadFromBytes(bytes).takeError());
    return 0;
  }
  llvm::raw_null_ostream null;
  (*exe)->dump(null);
  // What loads must save and load again to the same bytes.
  std::string again = saveToBytes(**exe);
  auto reloaded = loadFromBytes(again);
  if (!reloaded || saveToBytes(**reloaded) != again)
    __builtin_trap();
  return 0;
}
