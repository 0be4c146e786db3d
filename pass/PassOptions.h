//===- pass/PassOptions.h - Typed pass options ------------------*- C++ -*-===//
//
// A pass declares each option once, as a typed member with its help text:
//
//   PassOption<bool> emitErrCtx{this, "emit-err-ctx", "put an ErrorContext...", true};
//
// The member registers itself with its pass; registerPass<P>() reads the
// declarations into the pass's PassOptionSpecs, which the pipeline parser
// checks option names and values against and `graft passes` prints. When a
// pipeline names the pass, the validated text values (PassOptions) are
// parsed into the members; the pass reads them as plain values
// (`if (emitErrCtx)`), never by name.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_PASS_PASSOPTIONS_H
#define GRAFT_PASS_PASSOPTIONS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace graft {

class Pass;

/// One option of a pass as the registry knows it: `name` in kebab case (a
/// TVM pass argument's name in kebab case), with TVM's default.
struct PassOptionSpec {
  enum class Kind : uint8_t { Bool, Int, String, List };
  std::string name;
  Kind kind = Kind::Bool;
  std::string defaultValue; ///< As written in a pipeline ("true", "3", "a,b").
  std::string description;
};

/// What a value of `kind` must look like, for error messages: "true or
/// false", "an integer", ...
llvm::StringRef describeOptionKind(PassOptionSpec::Kind kind);

/// Option values of one pass invocation as text, validated against the
/// pass's specs.
class PassOptions {
public:
  /// The value text of a declared option (its default when not given).
  /// Asking for an undeclared name is a programming error (asserts).
  const std::string &getString(llvm::StringRef name) const;
  bool getBool(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name) const;
  std::vector<std::string> getList(llvm::StringRef name) const;

  /// Fills defaults, then applies `given`. An unknown name or a value of the
  /// wrong kind is an error naming the pass and the option; an unknown name
  /// carries a note listing the options the pass accepts.
  static llvm::Expected<PassOptions>
  build(llvm::StringRef passName, const std::vector<PassOptionSpec> &specs,
        const std::vector<std::pair<std::string, std::string>> &given);

private:
  llvm::StringMap<std::string> values_;
};

/// Parsers shared by validation and by the typed members; false when the
/// text is not a value of the kind.
bool parseBoolOption(llvm::StringRef text, bool &out);
bool parseIntOption(llvm::StringRef text, int64_t &out);
std::vector<std::string> parseListOption(llvm::StringRef text);

/// The part of an option member that does not depend on its type.
class PassOptionBase {
public:
  PassOptionBase(const PassOptionBase &) = delete;
  PassOptionBase &operator=(const PassOptionBase &) = delete;
  virtual ~PassOptionBase() = default;

  const std::string &name() const { return name_; }
  /// The registry's view of the declaration.
  PassOptionSpec spec() const { return {name_, kind_, defaultText(), help_}; }
  /// Sets the value from validated text (PassOptions::build checked it).
  virtual void setFromText(llvm::StringRef text) = 0;

protected:
  PassOptionBase(Pass *owner, llvm::StringRef name, llvm::StringRef help,
                 PassOptionSpec::Kind kind);
  virtual std::string defaultText() const = 0;

private:
  std::string name_, help_;
  PassOptionSpec::Kind kind_;
};

namespace detail {
template <typename T> struct OptionKind;
template <> struct OptionKind<bool> {
  static constexpr PassOptionSpec::Kind kind = PassOptionSpec::Kind::Bool;
  static std::string text(bool v) { return v ? "true" : "false"; }
  static bool parse(llvm::StringRef s) {
    bool b = false;
    parseBoolOption(s, b);
    return b;
  }
};
template <> struct OptionKind<int64_t> {
  static constexpr PassOptionSpec::Kind kind = PassOptionSpec::Kind::Int;
  static std::string text(int64_t v) { return std::to_string(v); }
  static int64_t parse(llvm::StringRef s) {
    int64_t i = 0;
    parseIntOption(s, i);
    return i;
  }
};
template <> struct OptionKind<std::string> {
  static constexpr PassOptionSpec::Kind kind = PassOptionSpec::Kind::String;
  static std::string text(const std::string &v) { return v; }
  static std::string parse(llvm::StringRef s) { return s.str(); }
};
template <> struct OptionKind<std::vector<std::string>> {
  static constexpr PassOptionSpec::Kind kind = PassOptionSpec::Kind::List;
  static std::string text(const std::vector<std::string> &v) {
    std::string out;
    for (const std::string &item : v)
      out += (out.empty() ? "" : ",") + item;
    return out;
  }
  static std::vector<std::string> parse(llvm::StringRef s) { return parseListOption(s); }
};
} // namespace detail

/// A typed option member: bool, int64_t, std::string or
/// std::vector<std::string> (a list, comma-separated in a pipeline).
template <typename T> class PassOption : public PassOptionBase {
  using Traits = detail::OptionKind<T>;

public:
  PassOption(Pass *owner, llvm::StringRef name, llvm::StringRef help, T defaultValue = T())
      : PassOptionBase(owner, name, help, Traits::kind), default_(defaultValue),
        value_(std::move(defaultValue)) {}

  const T &getValue() const { return value_; }
  operator const T &() const { return value_; }
  PassOption &operator=(T value) {
    value_ = std::move(value);
    return *this;
  }

  void setFromText(llvm::StringRef text) override { value_ = Traits::parse(text); }

private:
  std::string defaultText() const override { return Traits::text(default_); }

  T default_;
  T value_;
};

} // namespace graft

#endif // GRAFT_PASS_PASSOPTIONS_H
