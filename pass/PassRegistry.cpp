//===- pass/PassRegistry.cpp - Pass and pipeline registry -----------------===//
//
// A plain registry: the passes of transforms/ are added by
// registerAllPasses() (transforms/Passes.h), which tools and tests call
// once, as MLIR tools call mlir::registerAllPasses().
//
//===----------------------------------------------------------------------===//

#include "pass/Pass.h"

#include "llvm/ADT/STLExtras.h"

#include <deque>

using namespace graft;

namespace {
struct Registry {
  // Deques keep element addresses stable across registration.
  std::deque<PassInfo> passes;
  std::deque<PipelineInfo> pipelines;
  llvm::StringMap<const PassInfo *> passByName;
  llvm::StringMap<const PipelineInfo *> pipelineByName;
};

Registry &registry() {
  static Registry registry;
  return registry;
}
} // namespace

void graft::registerPass(PassInfo info) {
  Registry &r = registry();
  r.passes.push_back(std::move(info));
  const PassInfo *p = &r.passes.back();
  r.passByName[p->name] = p;
  if (!p->alias.empty())
    r.passByName[p->alias] = p;
}

void graft::registerPipeline(PipelineInfo info) {
  Registry &r = registry();
  r.pipelines.push_back(std::move(info));
  r.pipelineByName[r.pipelines.back().name] = &r.pipelines.back();
}

const PassInfo *graft::lookupPass(llvm::StringRef name) {
  return registry().passByName.lookup(name);
}

const PipelineInfo *graft::lookupPipeline(llvm::StringRef name) {
  return registry().pipelineByName.lookup(name);
}

std::vector<const PassInfo *> graft::allPasses() {
  std::vector<const PassInfo *> out;
  for (const PassInfo &p : registry().passes)
    out.push_back(&p);
  llvm::sort(out, [](const PassInfo *a, const PassInfo *b) { return a->name < b->name; });
  return out;
}

std::vector<const PipelineInfo *> graft::allPipelines() {
  std::vector<const PipelineInfo *> out;
  for (const PipelineInfo &p : registry().pipelines)
    out.push_back(&p);
  return out;
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

bool PassContext::configBool(llvm::StringRef key, bool defaultValue) const {
  auto it = config.find(key.str());
  if (it == config.end())
    return defaultValue;
  // Python spellings (True/False) are accepted too.
  bool b = defaultValue;
  parseBoolOption(llvm::StringRef(it->second).lower(), b);
  return b;
}

void PassContext::addStat(llvm::StringRef pass, llvm::StringRef name, int64_t n) {
  stats_[(pass + "." + name).str()] += n;
}
