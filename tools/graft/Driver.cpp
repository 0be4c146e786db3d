//===- tools/graft/Driver.cpp - Loading, selecting, reporting ---------------===//

#include "Driver.h"

#include "analysis/WellFormed.h"
#include "ir/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace graft;
using namespace graft::driver;

namespace {

DiagnosticCapture *activeCapture = nullptr;

void emit(llvm::Error err, const llvm::SourceMgr *sm) {
  if (activeCapture)
    activeCapture->add(std::move(err), sm);
  else
    printError(std::move(err), sm, llvm::errs());
}

CapturedDiagnostic capture(llvm::SourceMgr::DiagKind kind, llvm::SMLoc loc, std::string message,
                           const llvm::SourceMgr *sm) {
  CapturedDiagnostic d{kind, 0, 0, std::move(message)};
  if (sm && loc.isValid() && sm->FindBufferContainingLoc(loc) != 0)
    std::tie(d.line, d.column) = sm->getLineAndColumn(loc);
  return d;
}

llvm::Expected<LoadedFile> finishLoad(llvm::Expected<ParsedFile> parsed,
                                      std::shared_ptr<llvm::SourceMgr> sm, llvm::StringRef path) {
  if (!parsed) {
    // Parse errors are reported here, where the SourceMgr is still at hand.
    emit(parsed.takeError(), sm.get());
    return llvm::make_error<llvm::StringError>("", llvm::inconvertibleErrorCode());
  }
  return LoadedFile{std::move(*parsed), path.str()};
}

} // namespace

DiagnosticCapture::DiagnosticCapture() : previous_(activeCapture) { activeCapture = this; }
DiagnosticCapture::~DiagnosticCapture() { activeCapture = previous_; }

void DiagnosticCapture::add(llvm::Error err, const llvm::SourceMgr *sm) {
  llvm::handleAllErrors(
      std::move(err),
      [&](const DiagnosticError &diag) {
        diagnostics.push_back(capture(llvm::SourceMgr::DK_Error, diag.loc, diag.message, sm));
        for (const DiagNote &note : diag.notes)
          diagnostics.push_back(capture(llvm::SourceMgr::DK_Note, note.loc, note.message, sm));
      },
      [&](const llvm::ErrorInfoBase &info) {
        diagnostics.push_back({llvm::SourceMgr::DK_Error, 0, 0, info.message()});
      });
}

llvm::Expected<LoadedFile> driver::loadFile(llvm::StringRef path) {
  std::shared_ptr<llvm::SourceMgr> sm;
  llvm::Expected<ParsedFile> parsed = parseFile(path, &sm);
  return finishLoad(std::move(parsed), std::move(sm), path);
}

llvm::Expected<LoadedFile> driver::loadText(llvm::StringRef text, llvm::StringRef bufferName) {
  std::shared_ptr<llvm::SourceMgr> sm;
  llvm::Expected<ParsedFile> parsed = parseText(text, bufferName, &sm);
  return finishLoad(std::move(parsed), std::move(sm), bufferName);
}

void driver::reportError(llvm::Error err, const LoadedFile *file) {
  emit(std::move(err), file ? file->file.sources.get() : nullptr);
}

static std::string moduleNames(const ParsedFile &file) {
  std::string names;
  for (const auto &m : file.modules) {
    if (!names.empty())
      names += ", ";
    names += m->name;
  }
  return names;
}

llvm::Expected<std::vector<IRModule *>> driver::selectModules(const LoadedFile &file,
                                                              llvm::StringRef moduleName) {
  std::vector<IRModule *> out;
  if (moduleName.empty()) {
    for (const auto &m : file.file.modules)
      out.push_back(m.get());
    if (out.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     file.path + " holds no module");
    return out;
  }
  if (IRModule *m = file.file.find(moduleName)) {
    out.push_back(m);
    return out;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 file.path + " holds no module " + moduleName.str() +
                                     " (modules: " + moduleNames(file.file) + ")");
}

llvm::Expected<IRModule *> driver::selectOneModule(const LoadedFile &file,
                                                   llvm::StringRef moduleName) {
  if (moduleName.empty() && file.file.modules.size() > 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), file.path + " holds modules " +
                                                                       moduleNames(file.file) +
                                                                       ": pick one with --module");
  auto modules = selectModules(file, moduleName);
  if (!modules)
    return modules.takeError();
  return modules->front();
}

bool driver::verifyAndReport(const IRModule &module, const LoadedFile &file, bool force,
                             VerifyCache *cache) {
  if (!force && !module.checkWellFormed)
    return true;
  bool ok = true;
  for (const Violation &v : verifyModule(module, VerifyOptions(), cache)) {
    // A function parsed with check_well_formed=False opts out, as in TVM.
    const ModuleEntry *entry = module.lookup(v.function);
    const FunctionNode *fn = entry ? entry->asFunction() : nullptr;
    if (!force && fn && !fn->checkWellFormed)
      continue;
    reportError(toError(v, module), &file);
    ok = false;
  }
  return ok;
}

std::unique_ptr<Input> driver::openInput(llvm::StringRef path, llvm::StringRef moduleName,
                                         bool exactlyOne, const std::optional<std::string> &text) {
  auto file = text ? loadText(*text, path) : loadFile(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return nullptr;
  }
  auto input = std::make_unique<Input>();
  input->file = std::move(*file);
  if (exactlyOne) {
    auto module = selectOneModule(input->file, moduleName);
    if (!module) {
      reportError(module.takeError(), &input->file);
      return nullptr;
    }
    input->modules.push_back(*module);
    return input;
  }
  auto modules = selectModules(input->file, moduleName);
  if (!modules) {
    reportError(modules.takeError(), &input->file);
    return nullptr;
  }
  input->modules = std::move(*modules);
  return input;
}
