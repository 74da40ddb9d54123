// Running warpscope-cli as a user does, for the CLI tests: its exit status and what it printed
// (stdout and stderr together).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ws::test {

struct Out {
  int code = -1;
  std::string out;
};

// `env`: assignments put before the command ("PATH=/x:$PATH").
inline Out Cli(const std::string& args, const std::string& env = "") {
  const std::string cmd =
      (env.empty() ? "" : env + " ") + std::string(WARPSCOPE_CLI) + " " + args + " 2>&1";
  Out r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A file's whole text ("" when it cannot be read).
inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// How many times `what` occurs in `text` (overlapping occurrences too).
inline std::size_t CountOf(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace ws::test
