// warpscope-cli export --chrome-trace: the file it writes (Chrome Trace Event Format JSON), from a
// lesson run and from a trace file, and its one-line errors with exit status 2.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

using ws::test::Cli;
using ws::test::Out;

// A fresh folder for one test's files, removed after it.
class CliExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ws_cli_export_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static nlohmann::json Read(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
  }
  fs::path dir_;
};

TEST_F(CliExport, BarrierLessonToChromeTrace) {
  // 64 threads, skew 10: thread t arrives at 1 + 10 t, all leave at 631. Warp 0 (first lane
  // thread 0) waits from 1 to 631: 630 units; warp 1 (thread 32) from 321: 310.
  const std::string out = Path("barrier.json");
  const Out r = Cli("export --chrome-trace " + out + " barrier --set threads=64 --set skew=10");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote " + out), std::string::npos) << r.out;
  const nlohmann::json j = Read(out);
  EXPECT_EQ(j["displayTimeUnit"], "ns");
  EXPECT_EQ(j["otherData"]["time_unit"], "logical");
  EXPECT_EQ(j["otherData"]["lesson"], "barrier");
  std::vector<std::pair<long long, long long>> waits;  // (ts, dur)
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "X" && e.value("cat", "") == "barrier") waits.push_back({e["ts"], e["dur"]});
  }
  std::sort(waits.begin(), waits.end());
  const std::vector<std::pair<long long, long long>> want = {{1, 630}, {321, 310}};
  EXPECT_EQ(waits, want);
}

TEST_F(CliExport, ScalabilityHasABoxPerBlock) {
  // The default grid: 12 blocks on 2 SMs.
  const std::string out = Path("sms.json");
  const Out r = Cli("export scalability --chrome-trace " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  int blocks = 0;
  const nlohmann::json j = Read(out);
  for (const auto& e : j["traceEvents"]) blocks += e["ph"] == "X" && e.value("cat", "") == "block";
  EXPECT_EQ(blocks, 12);
}

TEST_F(CliExport, FromATraceFileTheSameEvents) {
  // A capture replays without running: its export has the same events as the run's own.
  const std::string trace = Path("barrier.wstrace"), a = Path("a.json"), b = Path("b.json");
  ASSERT_EQ(Cli("capture barrier --set threads=64 -o " + trace + " --json").code, 0);
  ASSERT_EQ(Cli("export --chrome-trace " + a + " barrier --set threads=64").code, 0);
  const Out r = Cli("export --chrome-trace " + b + " --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Read(a)["traceEvents"], Read(b)["traceEvents"]);
}

TEST_F(CliExport, BadInputIsOneLineAndStatus2) {
  const std::string out = Path("x.json");
  struct Case {
    std::string args, names;  // the message must name this
  } cases[] = {
      {"export --chrome-trace " + out + " no-such-lesson", "no-such-lesson"},
      {"export --chrome-trace " + out + " barrier --set threads=99999", "threads"},
      {"export --chrome-trace " + out + " barrier --set skew=abc", "abc"},
      {"export --chrome-trace " + out + " vecadd", "nothing to export"},
      {"export --chrome-trace " + out, "--trace"},
      {"export --chrome-trace " + out + " --trace " + Path("missing.wstrace"), "missing.wstrace"},
      {"export --chrome-trace " + Path("no/such/dir/x.json") + " barrier", "no/such/dir/x.json"},
      {"export barrier", "--chrome-trace"},
      {"export --chrome-trace " + out + " barrier --trace " + Path("t.wstrace"), "--trace"},
  };
  for (const Case& c : cases) {
    const Out r = Cli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.names), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("warpscope-cli: ", 0), 0u) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  EXPECT_FALSE(fs::exists(out)) << "nothing written on bad input";
}

}  // namespace
