//===- pass/PassPlugin.cpp - Loading pass plugins -------------------------===//

#include "pass/PassPlugin.h"
#include "pass/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"

#include <dlfcn.h>

using namespace graft;

namespace {

llvm::Error pluginError(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "pass plugin '" + path + "': " + why);
}

/// Every pass name, alias and pipeline name registered so far.
llvm::StringSet<> registeredNames() {
  llvm::StringSet<> names;
  for (const PassInfo *p : allPasses()) {
    names.insert(p->name);
    if (!p->alias.empty())
      names.insert(p->alias);
  }
  for (const PipelineInfo *p : allPipelines())
    names.insert(p->name);
  return names;
}

} // namespace

llvm::Expected<LoadedPassPlugin> graft::loadPassPlugin(llvm::StringRef path) {
  if (!llvm::sys::fs::exists(path))
    return pluginError(path, "no such file");
  // RTLD_NOW: a symbol the plugin needs and graft lacks is an error here,
  // not a crash at its first call. The handle is never closed: the passes
  // registered stay in use until the process ends.
  void *library = dlopen(path.str().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return pluginError(path, llvm::Twine("cannot load it: ") + dlerror());
  using EntryPoint = GraftPassPluginInfo (*)();
  auto entry = reinterpret_cast<EntryPoint>(dlsym(library, kPassPluginEntryPoint));
  if (!entry)
    return pluginError(path, llvm::Twine("not a graft pass plugin: it exports no '") +
                                 kPassPluginEntryPoint + "' (see docs/packaging.md)");
  GraftPassPluginInfo info = entry();
  if (info.apiVersion != GRAFT_PASS_PLUGIN_API_VERSION)
    return pluginError(path, "built for plugin API version " + llvm::Twine(info.apiVersion) +
                                 ", this graft loads version " +
                                 llvm::Twine(GRAFT_PASS_PLUGIN_API_VERSION) +
                                 ": rebuild it against this graft");
  if (!info.registerPasses)
    return pluginError(path, "its plugin info has no registration callback");

  LoadedPassPlugin plugin{
      path.str(), info.name ? info.name : "", info.version ? info.version : "", {}};
  llvm::StringSet<> before = registeredNames();
  std::vector<const PassInfo *> passesBefore = allPasses();
  size_t pipelinesBefore = allPipelines().size();
  info.registerPasses();
  // registerPass lets a later entry take a name over: a plugin reusing one
  // would silently replace a pass of graft or of another plugin.
  for (const PassInfo *p : allPasses()) {
    if (llvm::is_contained(passesBefore, p))
      continue;
    for (llvm::StringRef name : {llvm::StringRef(p->name), llvm::StringRef(p->alias)})
      if (!name.empty() && before.contains(name))
        return pluginError(path, "registers pass '" + name + "', a name graft already has");
    plugin.passes.push_back(p->name);
  }
  std::vector<const PipelineInfo *> pipelines = allPipelines();
  for (size_t i = pipelinesBefore; i < pipelines.size(); ++i)
    if (before.contains(pipelines[i]->name))
      return pluginError(path, "registers pipeline '" + pipelines[i]->name +
                                   "', a name graft already has");
  return plugin;
}
