//===- tests/transforms/RegisterPasses.cpp - Every pass, for every test -----===//
//
// The tests of this folder look passes up by name; the registry holds them
// once registerAllPasses() ran. A test program links this object directly,
// so its initializer runs before main.
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

static const bool kPassesRegistered = (graft::registerAllPasses(), true);
