// A plugin built for an API version graft does not load.
#include "pass/PassPlugin.h"

static void registerNothing() {}

extern "C" GRAFT_PLUGIN_EXPORT GraftPassPluginInfo graftGetPassPluginInfo() {
  return {GRAFT_PASS_PLUGIN_API_VERSION + 998, "wrong-version", "0", registerNothing};
}
