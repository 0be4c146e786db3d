//===- tests/kernels/CudaPrologueTest.cpp - Every CUDA kernel awaits upstream -===//
//
// A captured graph makes the edge between two of the CUDA module's kernels
// programmatic (kernels/cuda/Module.cu): the downstream kernel starts while
// the upstream one runs, and only its first statement, awaitUpstream(),
// keeps it from reading what the upstream kernel has not written yet. A
// kernel without it would race only inside a graph, so this checks the
// sources on every machine, GPU or not.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

/// The first statement of each __global__ function in `text` (after the
/// body's opening brace), with the function's line.
std::vector<std::pair<unsigned, std::string>> firstStatements(llvm::StringRef text) {
  std::vector<std::pair<unsigned, std::string>> out;
  size_t at = 0;
  while ((at = text.find("__global__", at)) != llvm::StringRef::npos) {
    unsigned line = unsigned(text.take_front(at).count('\n')) + 1;
    size_t brace = text.find('{', at);
    if (brace == llvm::StringRef::npos)
      break;
    llvm::StringRef body = text.drop_front(brace + 1).ltrim();
    out.emplace_back(line, body.take_until([](char c) { return c == ';'; }).str());
    at = brace;
  }
  return out;
}

TEST(CudaPrologue, EveryKernelAwaitsUpstreamFirst) {
  std::string dir = GRAFT_SOURCE_DIR "/kernels/cuda";
  std::error_code ec;
  unsigned kernels = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path();
    llvm::StringRef ext = llvm::sys::path::extension(path);
    if (ext != ".cu" && ext != ".cuh")
      continue;
    auto buf = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buf)) << path.str();
    llvm::StringRef text = (*buf)->getBuffer();
    for (const auto &[line, first] : firstStatements(text)) {
      ++kernels;
      EXPECT_EQ(first, "awaitUpstream()") << path.str() << ":" << line;
    }
  }
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_GE(kernels, 40u) << "the module's kernels were not found in " << dir;
}

} // namespace
