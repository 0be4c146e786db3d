//===- tools/graft/PluginCommand.cpp - --load-pass-plugin -------------------===//

#include "Driver.h"

#include "pass/PassPlugin.h"

#include "llvm/Support/raw_ostream.h"

using namespace graft;

int driver::loadPassPlugins(const std::vector<std::string> &paths) {
  for (const std::string &path : paths) {
    llvm::Expected<LoadedPassPlugin> plugin = loadPassPlugin(path);
    if (!plugin) {
      llvm::errs() << "graft: error: " << llvm::toString(plugin.takeError()) << "\n";
      return kBadInput;
    }
  }
  return kSuccess;
}
