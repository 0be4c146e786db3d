//===- pass/PassPlugin.h - Passes loaded from shared objects ----*- C++ -*-===//
//
// A pass plugin is a shared object that registers passes with graft's
// registry, as LLVM's `opt --load-pass-plugin` loads one. It exports one C
// entry point (no C++ name mangling, so any compiler finds it):
//
//   extern "C" GRAFT_PLUGIN_EXPORT GraftPassPluginInfo graftGetPassPluginInfo() {
//     return {GRAFT_PASS_PLUGIN_API_VERSION, "my-plugin", "1.0", registerMyPasses};
//   }
//
// where registerMyPasses calls graft::registerPass<MyPass>(...) as the
// passes of transforms/ do. `graft opt|test|passes|build --load-pass-plugin=
// PATH.so` loads it before the pipeline is parsed, so `-p my-pass` works.
//
// The plugin is not linked against graft's libraries: the graft executable
// exports every symbol of its libraries (and LLVM Support's), and the
// dynamic loader binds the plugin's references to them, so there is one
// registry and one copy of each global (docs/packaging.md).
//
// GRAFT_PASS_PLUGIN_API_VERSION changes whenever the C++ interface a plugin
// compiles against (Pass, PassInfo, the registry, the IR classes' layout)
// changes incompatibly; a plugin built for another version is refused.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PASSPLUGIN_H
#define GRAFT_PASS_PASSPLUGIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

#define GRAFT_PASS_PLUGIN_API_VERSION 1
#define GRAFT_PLUGIN_EXPORT __attribute__((visibility("default")))

extern "C" {
/// What a plugin's graftGetPassPluginInfo returns. `apiVersion` stays the
/// first member in every version, so a mismatch is always detectable.
struct GraftPassPluginInfo {
  uint32_t apiVersion;      ///< GRAFT_PASS_PLUGIN_API_VERSION when built.
  const char *name;         ///< For messages: "my-plugin".
  const char *version;      ///< The plugin's own version, free-form.
  void (*registerPasses)(); ///< Registers the plugin's passes and pipelines.
};
}

namespace graft {

/// The entry point's name, as the plugin exports it.
inline constexpr const char *kPassPluginEntryPoint = "graftGetPassPluginInfo";

struct LoadedPassPlugin {
  std::string path;
  std::string name;
  std::string version;
  std::vector<std::string> passes; ///< The names it registered.
};

/// Loads the plugin at `path` and runs its registration. Errors (each message
/// names `path`): no such file, not loadable (the loader's reason), no entry
/// point, an API version other than GRAFT_PASS_PLUGIN_API_VERSION, or a pass
/// name graft already has. The shared object stays loaded for the process.
llvm::Expected<LoadedPassPlugin> loadPassPlugin(llvm::StringRef path);

} // namespace graft

#endif // GRAFT_PASS_PASSPLUGIN_H
