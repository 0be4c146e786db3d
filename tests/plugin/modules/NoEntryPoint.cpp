// A shared object that is not a graft pass plugin: no graftGetPassPluginInfo.
extern "C" __attribute__((visibility("default"))) int notAPlugin() { return 0; }
