//===- pass/Pipeline.cpp - Parsing and printing pass pipelines ------------===//

#include "pass/Pipeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace graft;

namespace {

llvm::Error pipelineError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

/// Splits at commas outside braces.
llvm::Expected<llvm::SmallVector<llvm::StringRef, 16>> splitTopLevel(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 16> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{') {
      if (++depth > 1)
        return pipelineError("nested '{' in pipeline '" + text + "'");
    } else if (c == '}') {
      if (--depth < 0)
        return pipelineError("unbalanced '}' in pipeline '" + text + "'");
    } else if (c == ',' && depth == 0) {
      items.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth != 0)
    return pipelineError("unbalanced '{' in pipeline '" + text + "'");
  items.push_back(text.substr(start).trim());
  return items;
}

/// `k=v,k2=a,b` -> pairs; a segment without '=' continues the previous list.
llvm::Expected<std::vector<std::pair<std::string, std::string>>>
parseOptions(llvm::StringRef passName, llvm::StringRef body) {
  std::vector<std::pair<std::string, std::string>> out;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  body.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    auto [key, value] = part.split('=');
    if (part.contains('=')) {
      out.emplace_back(key.trim().str(), value.trim().str());
      continue;
    }
    if (out.empty())
      return pipelineError("option '" + part + "' of pass '" + passName +
                           "' needs a value (name=value)");
    out.back().second += "," + part.str();
  }
  return out;
}

llvm::Error appendItem(llvm::StringRef item, Pipeline &pipeline, unsigned depth) {
  if (item.empty())
    return pipelineError("empty pass name in pipeline");
  llvm::StringRef name = item, body;
  size_t brace = item.find('{');
  if (brace != llvm::StringRef::npos) {
    if (!item.endswith("}"))
      return pipelineError("text after '}' in '" + item + "'");
    name = item.substr(0, brace).trim();
    body = item.slice(brace + 1, item.size() - 1);
  }
  if (const PipelineInfo *named = lookupPipeline(name)) {
    if (!body.empty())
      return pipelineError("pipeline '" + name + "' takes no options");
    if (depth > 8)
      return pipelineError("pipeline '" + name + "' expands into itself");
    auto items = splitTopLevel(named->text);
    if (!items)
      return items.takeError();
    for (llvm::StringRef sub : *items)
      if (llvm::Error err = appendItem(sub, pipeline, depth + 1))
        return err;
    return llvm::Error::success();
  }
  const PassInfo *info = lookupPass(name);
  if (!info)
    return pipelineError("unknown pass '" + name + "' (see 'graft passes --all')");
  auto options = parseOptions(info->name, body);
  if (!options)
    return options.takeError();
  auto values = PassOptions::build(info->name, info->options, *options);
  if (!values)
    return values.takeError();
  pipeline.passes.push_back({info, std::move(*options), std::move(*values)});
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Pipeline> graft::parsePipeline(llvm::StringRef text) {
  Pipeline pipeline;
  if (text.trim().empty())
    return pipeline;
  auto items = splitTopLevel(text);
  if (!items)
    return items.takeError();
  for (llvm::StringRef item : *items)
    if (llvm::Error err = appendItem(item, pipeline, 0))
      return err;
  return pipeline;
}

std::string graft::invocationStr(const PassInvocation &inv) {
  std::string s = inv.info->name;
  if (inv.options.empty())
    return s;
  s += "{";
  for (size_t i = 0; i < inv.options.size(); ++i) {
    if (i)
      s += ",";
    s += inv.options[i].first + "=" + inv.options[i].second;
  }
  return s + "}";
}

std::string Pipeline::str() const {
  std::string s;
  for (const PassInvocation &inv : passes) {
    if (!s.empty())
      s += ",";
    s += invocationStr(inv);
  }
  return s;
}

bool Pipeline::contains(llvm::StringRef passName) const {
  return llvm::any_of(passes,
                      [&](const PassInvocation &inv) { return inv.info->name == passName; });
}
