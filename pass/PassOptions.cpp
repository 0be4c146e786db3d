//===- pass/PassOptions.cpp - Typed pass options --------------------------===//

#include "pass/PassOptions.h"

#include "pass/Pass.h"

#include "ir/Diagnostics.h"

#include <cassert>

using namespace graft;

bool graft::parseBoolOption(llvm::StringRef v, bool &out) {
  if (v == "true" || v == "1") {
    out = true;
    return true;
  }
  if (v == "false" || v == "0") {
    out = false;
    return true;
  }
  return false;
}

bool graft::parseIntOption(llvm::StringRef text, int64_t &out) {
  return !text.getAsInteger(10, out);
}

std::vector<std::string> graft::parseListOption(llvm::StringRef text) {
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts)
    out.push_back(p.trim().str());
  return out;
}

llvm::StringRef graft::describeOptionKind(PassOptionSpec::Kind kind) {
  switch (kind) {
  case PassOptionSpec::Kind::Bool:
    return "true or false";
  case PassOptionSpec::Kind::Int:
    return "an integer";
  case PassOptionSpec::Kind::String:
    return "a string";
  case PassOptionSpec::Kind::List:
    return "a comma-separated list";
  }
  return "";
}

const std::string &PassOptions::getString(llvm::StringRef name) const {
  auto it = values_.find(name);
  assert(it != values_.end() && "the pass declares no option of this name");
  static const std::string empty;
  return it == values_.end() ? empty : it->second;
}

bool PassOptions::getBool(llvm::StringRef name) const {
  bool b = false;
  parseBoolOption(getString(name), b);
  return b;
}

int64_t PassOptions::getInt(llvm::StringRef name) const {
  int64_t v = 0;
  parseIntOption(getString(name), v);
  return v;
}

std::vector<std::string> PassOptions::getList(llvm::StringRef name) const {
  return parseListOption(getString(name));
}

/// The note of an unknown-option error: what the pass accepts instead.
static std::string acceptedOptions(llvm::StringRef passName,
                                   const std::vector<PassOptionSpec> &specs) {
  if (specs.empty())
    return "pass '" + passName.str() + "' takes no options";
  std::string names;
  for (const PassOptionSpec &s : specs)
    names += (names.empty() ? "" : ", ") + s.name + " (" + describeOptionKind(s.kind).str() + ")";
  return "pass '" + passName.str() + "' accepts: " + names;
}

llvm::Expected<PassOptions>
PassOptions::build(llvm::StringRef passName, const std::vector<PassOptionSpec> &specs,
                   const std::vector<std::pair<std::string, std::string>> &given) {
  PassOptions opts;
  for (const PassOptionSpec &s : specs)
    opts.values_[s.name] = s.defaultValue;
  for (const auto &[key, value] : given) {
    const PassOptionSpec *spec = nullptr;
    for (const PassOptionSpec &s : specs)
      if (s.name == key)
        spec = &s;
    if (!spec)
      return diagError(llvm::SMLoc(), "pass '" + passName.str() + "' has no option '" + key + "'",
                       {{llvm::SMLoc(), acceptedOptions(passName, specs)}});
    bool b;
    int64_t i;
    bool ok = spec->kind == PassOptionSpec::Kind::Bool  ? parseBoolOption(value, b)
              : spec->kind == PassOptionSpec::Kind::Int ? parseIntOption(value, i)
                                                        : true;
    if (!ok)
      return diagError(llvm::SMLoc(), "option '" + key + "' of pass '" + passName.str() +
                                          "' expects " + describeOptionKind(spec->kind) +
                                          ", got '" + value + "'");
    opts.values_[key] = value;
  }
  return opts;
}

PassOptionBase::PassOptionBase(Pass *owner, llvm::StringRef name, llvm::StringRef help,
                               PassOptionSpec::Kind kind)
    : name_(name.str()), help_(help.str()), kind_(kind) {
  owner->options_.push_back(this);
}
