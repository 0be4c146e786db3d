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
// dtype, fused kernel programs, scalar programs, parameter tables);
// fuzz/SeedExecutables.h.
//
//===----------------------------------------------------------------------===//

#include "SeedExecutables.h"

#include "llvm/Support/Endian.h"

using namespace graft::vm;
using graft::fuzz::writeFile;

namespace {

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

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  graft::fuzz::SeedArgs args = graft::fuzz::seedArgs(*argc, *argv);
  if (args.dir.empty())
    return 0;
  llvm::sys::fs::create_directories(args.dir);
  size_t built = 0;
  int n = 0;
  for (const std::string &bytes : graft::fuzz::seedExecutables(args.sources, &built))
    writeWithCuts(args.dir, bytes, n);
  llvm::outs() << "wrote " << n << " seeds (" << built << " built from sources) to " << args.dir
               << '\n';
  std::exit(0);
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
