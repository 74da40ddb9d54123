// Helpers for the GUI tests: start the real app (under xvfb-run, with Mesa's software OpenGL) in
// a fresh config folder, and collect its exit code and output.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ws::test {

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs `warpscope ARGS...` under `xvfb-run` (when `with_display`), or with DISPLAY unset.
// `env` is prepended as VAR=value assignments. Killed after 120 s so a hang fails the test.
RunResult RunApp(const std::vector<std::string>& args, bool with_display = true,
                 const std::vector<std::string>& env = {});

bool HaveXvfb();

// Skips a GUI test on a machine without xvfb-run, saying so.
#define REQUIRE_XVFB() \
  if (!::ws::test::HaveXvfb()) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)"

// A fresh folder under the temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace ws::test
