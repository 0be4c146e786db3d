//===- tests/kernels/RegistryTest.cpp - Registry and its documentation ----===//

#include "KernelTestUtil.h"

#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace graft::kernels;
using namespace graft::kernels::test;

namespace {

TEST(Registry, LooksUpByDevice) {
  const KernelInfo *add = lookupKernel("graft.add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->symbol, "graft.add");
  EXPECT_EQ(add->device, kDLCPU);
  EXPECT_EQ(lookupKernel("graft.add", kDLCUDA), nullptr);
  EXPECT_EQ(lookupKernel("graft.no_such_op"), nullptr);
}

TEST(Registry, EverySymbolIsUniqueAndNamespaced) {
  std::set<std::string> seen;
  for (const KernelInfo *k : allKernels()) {
    EXPECT_TRUE(k->symbol.startswith("graft.")) << k->symbol.str();
    EXPECT_TRUE(seen.insert(k->symbol.str()).second) << k->symbol.str();
    EXPECT_NE(k->fn, nullptr);
  }
  EXPECT_GE(seen.size(), 74u);
}

llvm::Error dummy(const KernelArgs &) { return llvm::Error::success(); }

TEST(Registry, LaterRegistrationReplacesSameDevice) {
  static const KernelInfo cuda{"graft.test_only", 1, 1, {}, &dummy, nullptr, kDLCUDA};
  static const KernelInfo cpu1{"graft.test_only", 1, 1, {}, &dummy};
  static const KernelInfo cpu2{"graft.test_only", 2, 1, {}, &dummy};
  registerKernel(&cuda);
  registerKernel(&cpu1);
  registerKernel(&cpu2);
  EXPECT_EQ(lookupKernel("graft.test_only", kDLCUDA), &cuda);
  EXPECT_EQ(lookupKernel("graft.test_only"), &cpu2);
  size_t n = 0;
  for (const KernelInfo *k : allKernels())
    n += k->symbol == "graft.test_only";
  EXPECT_EQ(n, 2u);
}

/// docs/kernels.md must list every kernel with its attrs in order, as the
/// row "| `symbol` | inputs | `a`, `b` | ...": legalize-ops is written
/// against that table.
TEST(Registry, DocumentedInKernelsMd) {
  auto buf = llvm::MemoryBuffer::getFile(GRAFT_SOURCE_DIR "/docs/kernels.md");
  ASSERT_TRUE(bool(buf));
  llvm::StringRef doc = (*buf)->getBuffer();
  doc = doc.drop_front(std::min(doc.find("## Kernel table"), doc.size()));
  for (const KernelInfo *k : allKernels()) {
    if (k->symbol == "graft.test_only")
      continue;
    std::string row = "| `" + k->symbol.str() + "` |";
    size_t at = doc.find(row);
    ASSERT_LT(at, doc.size()) << k->symbol.str();
    llvm::StringRef line = doc.substr(at).split('\n').first;
    llvm::SmallVector<llvm::StringRef, 6> cols;
    line.split(cols, '|');
    ASSERT_GE(cols.size(), 4u) << line.str();
    std::string attrs;
    for (llvm::StringRef a : k->attrNames)
      attrs += (attrs.empty() ? "`" : ", `") + a.str() + "`";
    if (attrs.empty())
      attrs = "-";
    EXPECT_EQ(cols[3].trim().str(), attrs) << k->symbol.str();
  }
}

} // namespace
