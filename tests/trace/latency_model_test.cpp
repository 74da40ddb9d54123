// The warp-scheduler model against the slides' arithmetic (G80: one load every 4 instructions,
// 4 cycles per instruction, 200 cycles of latency).
#include "warpscope/trace/latency_model.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

TEST(LatencyModel, SlidesG80NumbersSaturateAtFourteenWarps) {
  LatencyParams p;  // 4 instructions per load, 4 issue cycles, 200 cycles latency
  // Each warp issues 4 x 4 = 16 cycles, then waits 200: a period of 216 cycles.
  for (int n : {1, 8, 13}) {
    p.warps = n;
    auto r = SimulateLatency(p);
    ASSERT_TRUE(r.ok());
    EXPECT_NEAR(r->utilisation, n * 16.0 / 216.0, 1e-9) << n << " warps";
  }
  p.warps = 14;  // 14 x 16 = 224 >= 216
  EXPECT_DOUBLE_EQ(SimulateLatency(p)->utilisation, 1.0);
  EXPECT_EQ(WarpsToSaturate(p), 14);  // the slides' 200 / 16 = 12.5 -> 13 counts the others only
}

TEST(LatencyModel, OtherShapesFollowTheSameArithmetic) {
  LatencyParams p;
  p.instructions_between_loads = 8;  // 32 issue cycles per load: (200 + 32) / 32 = 7.25 -> 8
  EXPECT_EQ(WarpsToSaturate(p), 8);
  p.latency = 0;  // nothing to hide: one warp keeps the scheduler busy
  EXPECT_EQ(WarpsToSaturate(p), 1);
  p = {};
  p.latency = 1000;
  p.issue_cycles = 1;  // 4 issue cycles per load: (1000 + 4) / 4 = 251 > 64 warps
  EXPECT_EQ(WarpsToSaturate(p), 0);
}

// The lesson's curve and search ask for utilisations alone (SteadyUtilisation, no segments
// kept): the same number as the whole simulation's, and a search started past warp counts that
// fall short finds what one from 1 finds.
TEST(LatencyModel, UtilisationAloneIsTheSimulationsAndASearchMayStartLater) {
  for (const int ibl : {1, 4, 7}) {
    for (const int latency : {0, 200, 990}) {
      for (const int issue : {1, 4}) {
        for (const int dependency : {0, 24}) {
          LatencyParams p;
          p.instructions_between_loads = ibl;
          p.latency = latency;
          p.issue_cycles = issue;
          p.dependency_latency = dependency;
          for (int n = 1; n <= 20; n += 3) {
            p.warps = n;
            auto whole = SimulateLatency(p);
            auto alone = SteadyUtilisation(p);
            ASSERT_TRUE(whole.ok() && alone.ok());
            EXPECT_EQ(whole->utilisation, *alone) << ibl << " " << latency << " " << n;
          }
          const int from_one = WarpsToSaturate(p);
          for (const int from : {2, 10, 49}) {
            if (from_one == 0 || from_one >= from) {
              EXPECT_EQ(WarpsToSaturate(p, 64, from), from_one) << ibl << " " << latency;
            }
          }
        }
      }
    }
  }
  EXPECT_FALSE(SteadyUtilisation({0, 4, 200, 4, 8}).ok());
}

TEST(LatencyModel, TwoWarpsLeaveTheSchedulerIdleUntilTheFirstLoadReturns) {
  LatencyParams p;
  p.warps = 2;
  auto r = SimulateLatency(p);
  ASSERT_TRUE(r.ok());
  // Warp 0 issues cycles 0-16 (its load at 12-16), warp 1 16-32; warp 0's data arrives at
  // 16 + 200 = 216: the slots from 32 to 216 are idle.
  const auto idle = std::find_if(r->segments.begin(), r->segments.end(),
                                 [](const WarpSegment& s) { return s.warp < 0; });
  ASSERT_NE(idle, r->segments.end());
  EXPECT_EQ(idle->start, 32);
  EXPECT_EQ(idle->end, 216);
  const auto load = std::find_if(r->segments.begin(), r->segments.end(),
                                 [](const WarpSegment& s) { return s.kind == WarpSegment::kLoad; });
  EXPECT_EQ(load->warp, 0);
  EXPECT_EQ(load->start, 12);
  // 8 loads per warp: the last one returns at 7 x 216 + 216 + 16 = 1744 (warp 1 is 16 later).
  EXPECT_EQ(r->cycles, 8 * 216 + 16);
  EXPECT_EQ(r->busy_cycles, 2 * 8 * 16);
}

TEST(LatencyModel, TheLessonReportsTheModelAndTheSlideAndRefusesBadInput) {
  auto run = RunLesson("latency", "", {{"warps", 13}}, "emu", {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_FALSE(run->has_launch());  // a model: no kernel
  EXPECT_NEAR(run->metrics().at("utilisation").get<double>(), 13 * 16.0 / 216.0, 1e-9);
  EXPECT_EQ(run->metrics().at("warps_to_saturate").get<int>(), 14);
  EXPECT_EQ(run->metrics().at("slide_estimate").get<int>(), 13);
  EXPECT_EQ(run->metrics().at("vary_warps").size(), 48u);
  auto bad = RunLesson("latency", "", {{"warps", 0}}, "emu", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "latency: warps = 0 is outside its range 1..48");
  EXPECT_NE(SimulateLatency({0, 4, 200, 4, 8}).status().message().find("warps = 0 is outside"),
            std::string::npos);
}

// The Optimizing CUDA slides' register dependency: a result can be read ~24 cycles after its
// instruction issues, so a warp of dependent instructions issues 4 cycles in every 24: 24 / 4 = 6
// warps keep the scheduler busy, "at least 192 threads (6 warps) per multiprocessor".
TEST(LatencyModel, ARegisterDependencyNeedsSixWarps) {
  LatencyParams p;
  p.loads = false;
  p.latency = 0;
  p.dependency_latency = 24;
  for (int n : {1, 3, 5, 6, 8}) {
    p.warps = n;
    auto r = SimulateLatency(p);
    ASSERT_TRUE(r.ok()) << r.status().message();
    // n warps issue 4 cycles each per 24-cycle period: n x 4 / 24, up to 100 %.
    EXPECT_NEAR(r->utilisation, std::min(1.0, n * 4 / 24.0), 1e-9) << n << " warps";
    // Every stall is a register wait: no memory wait, no load.
    for (const WarpSegment& s : r->segments) {
      EXPECT_NE(s.kind, WarpSegment::kWaiting);
      EXPECT_NE(s.kind, WarpSegment::kLoad);
    }
  }
  p.warps = 1;
  auto one = SimulateLatency(p);
  ASSERT_TRUE(one.ok());
  // One warp: 32 instructions (8 rounds of 4), one every 24 cycles; the last issues at 31 x 24
  // and ends 4 later. Between two of them a 20-cycle dependency wait.
  EXPECT_EQ(one->cycles, 31 * 24 + 4);
  const auto wait = std::find_if(one->segments.begin(), one->segments.end(),
                                 [](const auto& s) { return s.kind == WarpSegment::kDependency; });
  ASSERT_NE(wait, one->segments.end());
  EXPECT_EQ(wait->start, 4);
  EXPECT_EQ(wait->end, 24);
  EXPECT_EQ(WarpsToSaturate(p), 6);
  // 192 threads: 25 % of compute 1.0/1.1's 768 threads per multiprocessor, 18.75 % of 1.2/1.3's
  // 1,024, as the slide says.
  EXPECT_EQ(WarpsToSaturate(p) * 32, 192);
  EXPECT_DOUBLE_EQ(192.0 / 768, 0.25);
  EXPECT_DOUBLE_EQ(192.0 / 1024, 0.1875);
  // Memory and a dependency together (the G80 load stream, each instruction on the one
  // before): a group issues at 0, 24, 48 and 72 (the load), ends at 76, and its data is back at
  // 276; one warp is busy 16 of every 276 cycles, two warps twice that.
  LatencyParams both;
  both.dependency_latency = 24;
  for (int n : {1, 2}) {
    both.warps = n;
    auto r = SimulateLatency(both);
    ASSERT_TRUE(r.ok());
    EXPECT_NEAR(r->utilisation, n * 16 / 276.0, 1e-9);
  }
}

TEST(LatencyModel, TheRegisterDependencyVariantReportsSixWarps) {
  auto run = RunLesson("latency", "register-dependency", {{"warps", 5}}, "emu", {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_NEAR(run->metrics().at("utilisation").get<double>(), 20.0 / 24.0, 1e-9);
  EXPECT_EQ(run->metrics().at("warps_to_saturate").get<int>(), 6);
  EXPECT_EQ(run->metrics().at("slide_estimate").get<int>(), 6);  // ceil(24 / 4)
  EXPECT_EQ(run->metrics().at("dependency_latency").get<int>(), 24);
  // The scheduler variant is as before: the dependency parameter does nothing there.
  auto memory = RunLesson("latency", "scheduler", {{"dependency_latency", 64}}, "emu", {});
  ASSERT_TRUE(memory.ok());
  EXPECT_EQ(memory->metrics().at("warps_to_saturate").get<int>(), 14);
}

}  // namespace
}  // namespace ws
