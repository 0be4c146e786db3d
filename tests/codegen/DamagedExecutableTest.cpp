//===- tests/codegen/DamagedExecutableTest.cpp - Every cut and flip is refused or loads -===//
//
// Executables built from the examples and the loader's seed sources, cut at
// every length and with a byte flipped at every offset (checksum and header
// recomputed, so the damage reaches the section parsers and the verifier):
// each must be refused with a message or load into an executable the VM can
// be created from (or refuse with a message). Never a crash: `graft run`
// maps a refusal to exit 2 (tests/tools/RunCliTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "CodeGenTestUtil.h"

#include "transforms/Passes.h"
#include "vm/Serialize.h"

#include "llvm/Support/Endian.h"

#include <gtest/gtest.h>

using namespace graft;
using namespace graft::codegen::test;

namespace {

/// Every module of `path` (relative to the source tree), built and saved.
std::vector<std::string> builtExecutables(const std::string &path) {
  registerAllPasses();
  std::vector<std::string> out;
  auto file = parseFile(std::string(GRAFT_SOURCE_DIR) + "/" + path);
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return out;
  }
  for (auto &module : file->modules) {
    auto exe = codegen::buildExecutable(*module);
    if (!exe) {
      ADD_FAILURE() << path << ": " << llvm::toString(exe.takeError());
      continue;
    }
    out.push_back(vm::saveToBytes(**exe));
  }
  return out;
}

/// Rewrites the header's payload size and checksum to match `bytes`.
void reseal(std::string &bytes) {
  llvm::support::endian::write64le(&bytes[16], bytes.size() - vm::kExecHeaderBytes);
  llvm::support::endian::write64le(
      &bytes[24], vm::fnv1a64(llvm::StringRef(bytes).drop_front(vm::kExecHeaderBytes)));
}

struct Outcome {
  size_t refused = 0, loaded = 0;
};

/// Loads `bytes`; what loads must dump and get a VM (or a refusal).
void tryLoad(const std::string &bytes, Outcome &outcome, const std::string &what) {
  auto exe = vm::loadFromBytes(bytes);
  if (!exe) {
    std::string msg = llvm::toString(exe.takeError());
    EXPECT_EQ(msg.rfind("invalid executable: ", 0), 0u) << what << ": " << msg;
    ++outcome.refused;
    return;
  }
  ++outcome.loaded;
  (void)(*exe)->asText();
  auto machine = vm::VirtualMachine::create(std::shared_ptr<const vm::Executable>(std::move(*exe)));
  if (!machine) {
    EXPECT_FALSE(llvm::toString(machine.takeError()).empty()) << what;
  }
}

void damageEverywhere(const std::string &bytes, Outcome &outcome) {
  ASSERT_TRUE(bool(vm::loadFromBytes(bytes)));
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::string cut = bytes.substr(0, len);
    if (len >= vm::kExecHeaderBytes)
      reseal(cut);
    tryLoad(cut, outcome, "cut at " + std::to_string(len));
  }
  for (size_t at = vm::kExecHeaderBytes; at < bytes.size(); ++at)
    for (unsigned char mask : {0x01, 0xff}) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ mask);
      reseal(flipped);
      tryLoad(flipped, outcome, "flip at " + std::to_string(at));
    }
  // Without resealing, the checksum catches any flipped payload byte.
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  auto exe = vm::loadFromBytes(flipped);
  ASSERT_FALSE(bool(exe));
  EXPECT_NE(llvm::toString(exe.takeError()).find("checksum mismatch"), std::string::npos);
}

TEST(DamagedExecutable, ExamplesAreRefusedOrLoadAtEveryCutAndFlip) {
  Outcome outcome;
  for (const char *example : {"examples/mlp.py", "examples/dynamic_shape.py"})
    for (const std::string &bytes : builtExecutables(example))
      damageEverywhere(bytes, outcome);
  EXPECT_GT(outcome.refused, 10000u);
}

TEST(DamagedExecutable, EverySectionIsRefusedOrLoadsAtEveryCutAndFlip) {
  Outcome outcome;
  // Constants of every dtype, prim values, a fused kernel, scalar programs,
  // control flow and calls.
  for (const std::string &bytes : builtExecutables("fuzz/inputs/exe_loader/sections.py"))
    damageEverywhere(bytes, outcome);
  EXPECT_GT(outcome.refused, 10000u);
}

} // namespace
