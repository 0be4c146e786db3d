//===- tests/transforms/WritingAPassDocTest.cpp - The doc's example compiles -===//
//
// docs/writing-a-pass.md quotes the worked example pass. Every code block
// the doc marks `<!-- from transforms/TestRemovePrint.cpp -->` must appear
// in that file (whitespace aside), so the quoted code is the compiled and
// tested code.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string readFile(const std::string &rel) {
  std::ifstream in(std::string(GRAFT_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Text with every run of whitespace collapsed to one space.
std::string collapse(const std::string &text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  return out;
}

/// The code blocks that follow the marker.
std::vector<std::string> quotedBlocks(const std::string &doc, const std::string &marker) {
  std::vector<std::string> blocks;
  for (size_t at = doc.find(marker); at != std::string::npos; at = doc.find(marker, at + 1)) {
    size_t open = doc.find("```cpp\n", at);
    size_t close = open == std::string::npos ? open : doc.find("\n```", open + 7);
    if (close == std::string::npos)
      break;
    blocks.push_back(doc.substr(open + 7, close - open - 7));
  }
  return blocks;
}

TEST(WritingAPassDoc, QuotedCodeIsTheCompiledExample) {
  std::string doc = readFile("docs/writing-a-pass.md");
  std::string source = collapse(readFile("transforms/TestRemovePrint.cpp"));
  ASSERT_FALSE(source.empty());
  std::vector<std::string> blocks =
      quotedBlocks(doc, "<!-- from transforms/TestRemovePrint.cpp -->");
  EXPECT_EQ(blocks.size(), 3u);
  for (const std::string &block : blocks)
    EXPECT_NE(source.find(collapse(block)), std::string::npos)
        << "docs/writing-a-pass.md quotes code that transforms/TestRemovePrint.cpp lacks:\n"
        << block;
}

} // namespace
