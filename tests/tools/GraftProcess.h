//===- tests/tools/GraftProcess.h - Running the graft tool in tests -----------===//
//
// The command-line tests run the built `graft` binary through the shell and
// look at its exit code and output, as a user would.
//
//===----------------------------------------------------------------------===//
#ifndef GRAFT_TESTS_TOOLS_GRAFTPROCESS_H
#define GRAFT_TESTS_TOOLS_GRAFTPROCESS_H

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace graft::test {

struct Result {
  int code;        ///< The exit code; -1 when the process did not exit normally.
  std::string out; ///< stdout and stderr together
};

/// Runs `binary args` through the shell.
inline Result runGraft(const std::string &binary, const std::string &args) {
  std::string cmd = binary + " " + args + " 2>&1";
  Result r{-1, ""};
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

} // namespace graft::test

#endif // GRAFT_TESTS_TOOLS_GRAFTPROCESS_H
