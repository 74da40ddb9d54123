#include "gui_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ws::test {
namespace {

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

bool HaveXvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

RunResult RunApp(const std::vector<std::string>& args, bool with_display,
                 const std::vector<std::string>& env) {
  TempDir io("run");
  std::string cmd = "env";
  if (!with_display) cmd += " -u DISPLAY -u WAYLAND_DISPLAY";
  for (const auto& e : env) cmd += " " + Quote(e);
  cmd += " timeout 120";
  // Under xvfb-run the app's own exit status is kept in a file: xvfb-run exits 5 instead when its
  // clean-up of its temporary folder fails, which happened in parallel test runs.
  const std::string status_file = (io / "status").string();
  if (with_display) {
    cmd += " xvfb-run -a -s '-screen 0 2048x1536x24 -nolisten tcp'";
    cmd += " sh -c " + Quote("\"$0\" \"$@\"; echo $? > " + Quote(status_file));
  }
  cmd += " " + Quote(WARPSCOPE_APP);
  for (const auto& a : args) cmd += " " + Quote(a);
  cmd += " >" + Quote((io / "out").string()) + " 2>" + Quote((io / "err").string());
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (with_display) {
    const std::string app_status = Slurp(status_file);
    if (!app_status.empty()) r.exit_code = std::stoi(app_status);
  }
  r.out = Slurp(io / "out");
  r.err = Slurp(io / "err");
  return r;
}

TempDir::TempDir(const std::string& tag) {
  std::string tmpl =
      (std::filesystem::temp_directory_path() / ("ws_gui_" + tag + "_XXXXXX")).string();
  char* made = ::mkdtemp(tmpl.data());
  path_ = made != nullptr ? std::filesystem::path(made) : std::filesystem::path();
}

TempDir::~TempDir() {
  std::error_code ec;
  if (path_.empty()) return;
  if (::testing::Test::HasFailure()) {  // kept to look at: what the failing run wrote
    std::fprintf(stderr, "kept %s\n", path_.c_str());
    return;
  }
  std::filesystem::remove_all(path_, ec);
}

}  // namespace ws::test
