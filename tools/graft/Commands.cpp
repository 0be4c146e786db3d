//===- tools/graft/Commands.cpp - print, verify, diff -----------------------===//

#include "Driver.h"

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;

int driver::runPrint(llvm::StringRef path, llvm::StringRef moduleName) {
  std::unique_ptr<Input> input = openInput(path, moduleName, /*exactlyOne=*/false);
  if (!input)
    return kBadInput;
  bool wellFormed = true;
  for (IRModule *m : input->modules)
    wellFormed &= verifyAndReport(*m, input->file, /*force=*/false);
  if (!wellFormed)
    return kNegative;
  for (size_t i = 0; i < input->modules.size(); ++i) {
    if (i)
      llvm::outs() << "\n\n";
    PrintOptions opts;
    opts.header = i == 0;
    printModule(llvm::outs(), *input->modules[i], opts);
  }
  return kSuccess;
}

int driver::runVerify(llvm::StringRef path, llvm::StringRef moduleName) {
  std::unique_ptr<Input> input = openInput(path, moduleName, /*exactlyOne=*/false);
  if (!input)
    return kBadInput;
  bool wellFormed = true;
  for (IRModule *m : input->modules)
    wellFormed &= verifyAndReport(*m, input->file, /*force=*/true);
  return wellFormed ? kSuccess : kNegative;
}

int driver::runDiff(llvm::StringRef pathA, llvm::StringRef pathB, llvm::StringRef moduleA,
                    llvm::StringRef moduleB) {
  if (pathA == "-" && pathB == "-") {
    llvm::errs() << "graft: error: only one side of diff can read standard input\n";
    return kBadInput;
  }
  std::unique_ptr<Input> a = openInput(pathA, moduleA, /*exactlyOne=*/true);
  if (!a)
    return kBadInput;
  std::unique_ptr<Input> b = openInput(pathB, moduleB, /*exactlyOne=*/true);
  if (!b)
    return kBadInput;
  IRModule &ma = *a->modules.front(), &mb = *b->modules.front();
  // Ill-formed input is bad input for diff: its answer would mean nothing.
  bool wellFormed = verifyAndReport(ma, a->file, false);
  wellFormed &= verifyAndReport(mb, b->file, false);
  if (!wellFormed)
    return kBadInput;
  llvm::Optional<Mismatch> mismatch = firstMismatch(ma, mb);
  if (!mismatch)
    return kSuccess;
  llvm::outs() << mismatch->report();
  return kNegative;
}
