//===- tests/text/ParseErrorTest.cpp - One malformed input per parse error -===//
//
// Every tests/text/errors/*.py starts with `# ERROR: <substring>`; parsing
// it must fail with a located diagnostic whose message contains it.
//
//===----------------------------------------------------------------------===//

#include "ir/Diagnostics.h"
#include "text/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace graft;

namespace {

std::vector<std::string> errorFiles() {
  std::vector<std::string> out;
  std::error_code ec;
  std::string dir = std::string(GRAFT_SOURCE_DIR) + "/tests/text/errors";
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".py")
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParseErrorTest, EveryErrorFileFailsWithItsMessage) {
  std::vector<std::string> files = errorFiles();
  ASSERT_GE(files.size(), 10u);
  for (const std::string &path : files) {
    SCOPED_TRACE(path);
    auto buf = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buf));
    llvm::StringRef text = (*buf)->getBuffer();
    llvm::StringRef first = text.split('\n').first;
    ASSERT_TRUE(first.consume_front("# ERROR: ")) << "missing # ERROR: line";
    std::shared_ptr<llvm::SourceMgr> sm;
    auto parsed = parseText(text, path, &sm);
    ASSERT_FALSE(bool(parsed)) << "parsed without error";
    std::string out;
    llvm::raw_string_ostream os(out);
    printError(parsed.takeError(), sm.get(), os);
    os.flush();
    EXPECT_NE(out.find(first.trim().str()), std::string::npos) << out;
    EXPECT_NE(out.find(": error: "), std::string::npos) << out;
    EXPECT_NE(out.find("^"), std::string::npos) << "no caret: " << out;
  }
}

} // namespace
