//===- tools/graft/Commands.cpp - print, verify, diff -----------------------===//

#include "Driver.h"

#include "ir/Printer.h"
#include "ir/StructuralEqual.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;

int driver::runPrint(llvm::StringRef path, llvm::StringRef moduleName) {
  auto file = loadFile(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return kBadInput;
  }
  auto modules = selectModules(*file, moduleName);
  if (!modules) {
    reportError(modules.takeError(), &*file);
    return kBadInput;
  }
  bool wellFormed = true;
  for (IRModule *m : *modules)
    wellFormed &= verifyAndReport(*m, *file, /*force=*/false);
  if (!wellFormed)
    return kNegative;
  for (size_t i = 0; i < modules->size(); ++i) {
    if (i)
      llvm::outs() << "\n\n";
    PrintOptions opts;
    opts.header = i == 0;
    printModule(llvm::outs(), *(*modules)[i], opts);
  }
  return kSuccess;
}

int driver::runVerify(llvm::StringRef path, llvm::StringRef moduleName) {
  auto file = loadFile(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return kBadInput;
  }
  auto modules = selectModules(*file, moduleName);
  if (!modules) {
    reportError(modules.takeError(), &*file);
    return kBadInput;
  }
  bool wellFormed = true;
  for (IRModule *m : *modules)
    wellFormed &= verifyAndReport(*m, *file, /*force=*/true);
  return wellFormed ? kSuccess : kNegative;
}

int driver::runDiff(llvm::StringRef pathA, llvm::StringRef pathB, llvm::StringRef moduleA,
                    llvm::StringRef moduleB) {
  if (pathA == "-" && pathB == "-") {
    llvm::errs() << "graft: error: only one side of diff can read standard input\n";
    return kBadInput;
  }
  auto fileA = loadFile(pathA);
  if (!fileA) {
    llvm::consumeError(fileA.takeError());
    return kBadInput;
  }
  auto fileB = loadFile(pathB);
  if (!fileB) {
    llvm::consumeError(fileB.takeError());
    return kBadInput;
  }
  auto a = selectOneModule(*fileA, moduleA);
  if (!a) {
    reportError(a.takeError(), &*fileA);
    return kBadInput;
  }
  auto b = selectOneModule(*fileB, moduleB);
  if (!b) {
    reportError(b.takeError(), &*fileB);
    return kBadInput;
  }
  bool wellFormed = verifyAndReport(**a, *fileA, false);
  wellFormed &= verifyAndReport(**b, *fileB, false);
  if (!wellFormed)
    return kBadInput;
  llvm::Optional<Mismatch> mismatch = firstMismatch(**a, **b);
  if (!mismatch)
    return kSuccess;
  llvm::outs() << mismatch->report();
  return kNegative;
}
