// A plugin needing a function graft does not have: refused at load time.
#include "pass/PassPlugin.h"

extern "C" void graftNoSuchFunction();

static void registerNothing() { graftNoSuchFunction(); }

extern "C" GRAFT_PLUGIN_EXPORT GraftPassPluginInfo graftGetPassPluginInfo() {
  return {GRAFT_PASS_PLUGIN_API_VERSION, "missing-symbol", "0", registerNothing};
}
