//===- tests/ir/CorpusCoverageTest.cpp - the corpus uses every op ----------===//
//
// Parses every tests/text/*.py (tests/text/errors excluded), collects the
// name of every op called anywhere (nested functions and if branches
// included), and checks that every registered op appears at least once, so
// that RoundTripTest exercises each op's parsing, inference and printing.
//
//===----------------------------------------------------------------------===//

#include "ir/Op.h"
#include "ir/Visitor.h"
#include "text/Parser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace graft;

namespace {

std::string corpusDir() { return std::string(GRAFT_SOURCE_DIR) + "/tests/text"; }

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(corpusDir(), ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).endswith(".py"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Collects the full names ("relax.add") of the ops called.
class OpCollector : public ExprVisitor {
public:
  llvm::StringSet<> used;

  void visitCall(const CallNode *call) override {
    if (const auto *op = llvm::dyn_cast<OpNode>(call->op.get()))
      used.insert(op->name());
    ExprVisitor::visitCall(call);
  }
};

/// Ops that text cannot produce, with the reason. Empty: every registered op
/// has a text form.
const std::map<std::string, std::string> &exemptions() {
  static const std::map<std::string, std::string> none;
  return none;
}

llvm::StringSet<> opsUsedByCorpus(std::vector<std::string> &failures) {
  OpCollector collector;
  for (const std::string &path : corpusFiles()) {
    auto parsed = parseFile(path);
    if (!parsed) {
      failures.push_back(path + ": " + llvm::toString(parsed.takeError()));
      continue;
    }
    for (const auto &m : parsed->modules)
      collector.visitModule(*m);
  }
  return std::move(collector.used);
}

} // namespace

TEST(CorpusCoverageTest, CorpusHasManyFiles) {
  // One file per grammar theme and per op family, plus the older files.
  EXPECT_GE(corpusFiles().size(), 20u);
}

TEST(CorpusCoverageTest, EveryRegisteredOpAppearsInTheCorpus) {
  std::vector<std::string> failures;
  llvm::StringSet<> used = opsUsedByCorpus(failures);
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
  std::vector<std::string> missing;
  for (const OpInfo *info : allOps())
    if (!used.count(info->name) && !exemptions().count(info->name))
      missing.push_back(info->name);
  std::string list;
  for (const std::string &m : missing)
    list += " " + m;
  EXPECT_TRUE(missing.empty()) << missing.size() << " ops missing from tests/text:" << list;
  // The registry is what docs/ops.md lists.
  EXPECT_EQ(allOps().size(), 220u);
}

TEST(CorpusCoverageTest, ExemptionsAreRegisteredOps) {
  for (const auto &[name, reason] : exemptions()) {
    EXPECT_NE(lookupOp(name), nullptr) << name;
    EXPECT_FALSE(reason.empty()) << name;
  }
}

TEST(CorpusCoverageTest, CollectorSeesNestedFunctionsAndBranches) {
  auto parsed = parseText(R"(
from tvm.script import relax as R
@R.function
def main(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    @R.function
    def inner(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        z = R.exp(y)
        return z
    if c:
        r = R.negative(x)
    else:
        r = x
    return r
)",
                          "nested.py");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  OpCollector collector;
  collector.visitModule(*parsed->modules[0]);
  EXPECT_TRUE(collector.used.count("relax.exp"));
  EXPECT_TRUE(collector.used.count("relax.negative"));
  EXPECT_FALSE(collector.used.count("relax.add"));
}
