// `warpscope-cli check --backend cuda`: an assignment graded on a GPU, with a goal on measured
// bandwidth (the kernels' CUPTI times in the run as written), in the sandbox. Elsewhere, or where
// the sandbox cannot run, it skips and says why (ctest label "gpu").
#include <gtest/gtest.h>

#include "cli_util.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "warpscope/kernels/devices.h"

namespace {

namespace fs = std::filesystem;
using ws::test::Cli;
using ws::test::Out;
using ws::test::Slurp;

std::string AtSize(std::string text, const std::string& n) {
  const std::string from = "#define N 256";
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  return at == std::string::npos ? text : text.replace(at, from.size(), "#define N " + n);
}

// The coalescing assignment at 2048 x 2048 (16 MiB each way), with a bandwidth goal: at least
// 1.2 times the starting program's. The naive transpose writes 32 sectors for every 4 it needs
// (the emulator's figure, and the GPU's own records), so the staged one moves the same bytes in
// less time: the solution meets the goal and the start, at 1.0 of itself, does not. Both
// bandwidths are below an H200's 4.8 TB/s.
TEST(CheckOnGpu, ABandwidthGoalIsMeasuredAndMetByTheCoalescedTranspose) {
  const ws::DeviceQuery q = ws::QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  const fs::path dir = fs::current_path() / "ws_check_gpu";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path source = WARPSCOPE_SOURCE_DIR;
  std::ofstream(dir / "start.cu") << AtSize(
      Slurp(source / "assets/assignments/transpose-coalesce.cu"), "2048");
  std::ofstream(dir / "solution.cu")
      << AtSize(Slurp(source / "tests/assignments/transpose-coalesce.solution.cu"), "2048");
  std::ofstream(dir / "gpu.toml") << R"(title = "Coalesce the transpose, on a GPU"
program = "start.cu"

[[goal]]
name = "stores coalesced"
figure = "sectors_per_request"
site = "store"
op = "store"
at_most = 4

[[goal]]
name = "faster"
figure = "gpu_bandwidth"
at_least = 1.2
of_start = true

[[goal]]
name = "output right"
figure = "output"
)";
  const Out r = Cli("check --backend cuda --json --timeout 120 " + (dir / "gpu.toml").string() +
                    " " + (dir / "solution.cu").string() + " " + (dir / "start.cu").string());
  if (r.code == 2 && r.out.find("not grading unsandboxed") != std::string::npos)
    GTEST_SKIP() << r.out;
  ASSERT_EQ(r.code, 1) << r.out;  // the start does not meet its own goals
  std::printf("%s\n", r.out.c_str());
  const auto j = nlohmann::json::parse(r.out);
  const auto& solution = j["submissions"][0];
  const auto& start = j["submissions"][1];
  EXPECT_TRUE(solution["met"]) << solution.dump(2);
  EXPECT_EQ(solution["goals"][0]["value"], 4);
  EXPECT_EQ(start["goals"][0]["value"], 32);
  for (const auto* s : {&solution, &start}) {
    const auto& bw = (*s)["goals"][1];
    EXPECT_FALSE(bw["skipped"]) << bw["text"];
    EXPECT_GT(bw["value"].get<double>(), 0.0);
    EXPECT_LT(bw["value"].get<double>(), 4800.0);
    EXPECT_NE(bw["text"].get<std::string>().find("GB/s (measured)"), std::string::npos)
        << bw["text"];
  }
  EXPECT_FALSE(start["goals"][1]["met"]);
  EXPECT_TRUE(start["goals"][2]["met"]);
  fs::remove_all(dir);
}

}  // namespace
