// Which build this is (issue 52): --version, run --json and trace files name the version and the
// git commit; the man page names every command the CLI has.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include "cli_util.h"
#include "nlohmann/json.hpp"
#include "warpscope/trace/build_info.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

// The commit of the source tree the tests run from (the build's, in CI: a clean clone built and
// tested at once); empty without git.
std::string SourceCommit() {
  const std::string cmd = "git -C '" WARPSCOPE_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  char buf[64] = {};
  const std::size_t n = fread(buf, 1, sizeof buf - 1, p);
  pclose(p);
  std::string s(buf, n);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

TEST(Version, TheCliPrintsTheVersionCommitAndBuild) {
  const test::Out r = test::Cli("--version");
  ASSERT_EQ(r.code, 0) << r.out;
  std::smatch m;
  const std::regex line(
      "^warpscope-cli (\\d+\\.\\d+\\.\\d+) \\(commit ([0-9a-f]{12}|unknown)(\\+changes)?, "
      "(Release|Debug|RelWithDebInfo|MinSizeRel|none), (CUDA runner built in|no CUDA runner: the "
      "emulator only)\\)\n$");
  ASSERT_TRUE(std::regex_match(r.out, m, line)) << r.out;
  EXPECT_EQ(m[1].str(), ThisBuild().version);
  EXPECT_EQ(m[2].str() + m[3].str(), ThisBuild().commit);
  if (const std::string head = SourceCommit(); !head.empty()) {
    EXPECT_EQ(m[2].str(), head);
  }
}

TEST(Version, RunJsonAndTraceFilesCarryTheCommit) {
  const test::Out r = test::Cli("run vecadd --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("warpscope").at("version"), ThisBuild().version);
  EXPECT_EQ(j.at("warpscope").at("commit"), ThisBuild().commit);
  const std::filesystem::path trace = std::filesystem::temp_directory_path() /
                                      ("ws-version-" + std::to_string(getpid()) + ".wstrace");
  const test::Out c = test::Cli("capture vecadd -o " + trace.string());
  ASSERT_EQ(c.code, 0) << c.out;
  const Result<TraceContents> file = ReadTraceFile(trace);
  // `show` says which Warpscope wrote the file (and its own build under "warpscope").
  const test::Out shown = test::Cli("show " + trace.string() + " --json");
  std::filesystem::remove(trace);
  ASSERT_EQ(shown.code, 0) << shown.out;
  const nlohmann::json s = nlohmann::json::parse(shown.out);
  EXPECT_EQ(s.at("capture").at("warpscope_commit"), ThisBuild().commit);
  EXPECT_EQ(s.at("capture").at("warpscope_version"), ThisBuild().version);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->header.at("warpscope_version"), ThisBuild().version);
  EXPECT_EQ(file->header.at("warpscope_commit"), ThisBuild().commit);
}

#if defined(WARPSCOPE_APP)
// The app answers --version before it opens a window (no display needed), with the same line.
TEST(Version, TheAppPrintsTheSameLine) {
  FILE* p = popen("env -u DISPLAY -u WAYLAND_DISPLAY '" WARPSCOPE_APP "' --version 2>&1", "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << out;
  SetBuild(ThisBuild());  // VersionLine reads this process's build
  EXPECT_EQ(out, VersionLine("warpscope") + "\n");
}
#endif

// Every command `warpscope-cli --help` lists is in the man page's COMMANDS section.
TEST(Version, TheManPageNamesEveryCommand) {
  const test::Out help = test::Cli("--help");
  const std::string man = test::Slurp(WARPSCOPE_SOURCE_DIR "/assets/packaging/warpscope-cli.1");
  ASSERT_FALSE(man.empty());
  const std::size_t commands = help.out.find("Subcommands:");
  ASSERT_NE(commands, std::string::npos) << help.out;
  std::istringstream lines(help.out.substr(commands));
  std::string l;
  std::getline(lines, l);
  int named = 0;
  while (std::getline(lines, l)) {
    std::smatch m;
    if (!std::regex_match(l, m, std::regex("^  ([a-z][a-z-]*)\\s.*"))) break;
    ++named;
    EXPECT_NE(man.find("\n.B " + m[1].str() + "\n"), std::string::npos)
        << "the man page has no command " << m[1];
  }
  EXPECT_GE(named, 7);  // run capture export show layout lessons devices (and check)
}

}  // namespace
}  // namespace ws
