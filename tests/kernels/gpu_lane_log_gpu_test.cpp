// The lane log on the GPU (ws_cuda_lane_log.h): a small lesson launch recorded by each lane alone
// gives the figures and the records the event roads give the same launch (ctest label "gpu";
// each test skips and says why where there is no GPU).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <tuple>

#include "core/child_run.h"
#include "require_gpu.h"
#include "site_stats_expect.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

// Every access of every block: (block, thread, site, iteration) -> (offset, epoch).
std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint16_t, std::uint32_t>,
         std::pair<std::uint32_t, std::uint32_t>>
Accesses(const LaunchTrace& t) {
  std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint16_t, std::uint32_t>,
           std::pair<std::uint32_t, std::uint32_t>>
      m;
  for (const BlockRecords& b : t.blocks)
    for (const AccessRecord& a : b.accesses)
      m[{b.block, a.thread, a.site, a.iteration}] = {a.offset, a.epoch};
  return m;
}

TEST(GpuLaneLog, ASmallLessonLaunchGivesTheFiguresAndRecordsOfEveryEventWritten) {
  REQUIRE_GPU();
  // Loops and barriers (the matmuls), a padded tile, divergent lanes (the divergent reduction,
  // divergence by thread), warp meetings (the shuffle reduction) and a race; a block of 40
  // threads (its second warp 8 lanes); the tiled matmul at 128² and at tile 32, 1,024-thread
  // blocks; and the tiled-2x2 matmul at
  // 256², whose lanes write 276 rows (16 tiles of 4 loads, 4 stores, the inner loop's pattern of
  // 5 rows and 2 barriers of 2 rows, then 4 stores): past the first try's 256, recorded again
  // with 276.
  // The loops whose accesses are affine in their counter write their patterns (the matmuls' inner
  // loops, the chunked vector add's, the bank-stride fill's, the row sums' over a row, whose
  // lanes past the image's height returned first): the figures are the same as every access's
  // event, and each access's offset and epoch.
  const std::vector<std::tuple<std::string, std::string, Params>> cases = {
      {"matmul", "tiled", {}},
      {"matmul", "naive", {}},
      {"matmul", "tiled-2x2", {}},
      {"matmul", "tiled-2x2", {{"width", 256}}},
      {"vecadd", "chunked", {}},
      {"bank-stride", "stride", {}},
      {"texture-2d", "global", {{"pattern", 2}, {"height", 100}}},
      {"transpose", "padded", {}},
      {"reduce", "divergent", {}},
      {"reduce", "shuffle", {}},
      {"divergence", "by-thread", {}},
      {"races", "block-transpose", {}},
      {"barrier", "uneven", {{"threads", 40}}},
      {"matmul", "tiled", {{"width", 128}}},
      {"matmul", "tiled", {{"tile", 32}}}};
  for (const auto& [lesson, variant, params] : cases) {
    SCOPED_TRACE(lesson + " / " + variant);
    RunOptions events, all;
    events.gpu_lane_log = false;
    events.gpu_tally = false;  // every event written
    events.keep_all_blocks = all.keep_all_blocks = true;
    auto a = RunLesson(lesson, variant, params, "cuda", all);
    auto b = RunLesson(lesson, variant, params, "cuda", events);
    ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.status().message() : a.status().message());
    EXPECT_GT(a->timing.lane_rows, 0u);  // the lane log recorded it
    EXPECT_EQ(b->timing.lane_rows, 0u);
    const bool patterned = lesson == "matmul" || lesson == "vecadd" || lesson == "bank-stride" ||
                           lesson == "texture-2d";
    EXPECT_EQ(a->timing.lane_pattern_rows > 0, patterned) << a->timing.lane_pattern_rows;
    const LaunchTrace &x = a->main_launch(), &y = b->main_launch();
    ASSERT_EQ(x.sites.size(), y.sites.size());
    for (std::size_t i = 0; i < x.sites.size(); ++i) {
      SCOPED_TRACE("line " + std::to_string(x.sites[i].line));
      EXPECT_EQ(x.sites[i].file, y.sites[i].file);
      test_support::ExpectSameSiteStats(x.stats.sites[i], y.stats.sites[i]);
    }
    EXPECT_EQ(x.stats.access_records, y.stats.access_records);
    EXPECT_EQ(x.stats.barrier_records, y.stats.barrier_records);
    EXPECT_EQ(x.stats.divergent_warps, y.stats.divergent_warps);
    EXPECT_EQ(x.thread_active, y.thread_active);
    ASSERT_EQ(x.barrier_sites.size(), y.barrier_sites.size());
    for (std::size_t i = 0; i < x.barrier_sites.size(); ++i)
      EXPECT_EQ(x.stats.barriers[i].instances, y.stats.barriers[i].instances);
    EXPECT_EQ(x.hazards.groups.size(), y.hazards.groups.size());
    ASSERT_EQ(x.blocks.size(), y.blocks.size());
    EXPECT_EQ(x.blocks.size(), x.grid.count());
    EXPECT_TRUE(Accesses(x) == Accesses(y));  // every access: its offset and its epoch
  }
}

TEST(GpuLaneLog, TheWideBuildRecordsWhereItsBlocksFitInNoMoreWaves) {
  REQUIRE_GPU();
  if (const char* v = std::getenv("WS_GPU_LANE_WIDE"); v != nullptr && std::string(v) == "0")
    GTEST_SKIP() << "WS_GPU_LANE_WIDE=0: the wide build is never taken";
  // With the build's default caps (none for the wide unit, 64 for the other; scripts/gpu-build.sh)
  // and an H100 or H200 (16 blocks in one wave either way): since the inner product loops write
  // their patterns (lesson_patterns.cpp) rather than a row at each access, uncapped ptxas gives
  // the tiled matmul 62 registers at tile 16 and 64 at tile 32 (a 1,024-thread block exactly an
  // SM's 65,536) and the naive one 32, so all three take the wide build (LaneBuildFor; ptxas -v,
  // nvcc 13.0, sm_90, on this tree). Before the patterns tile 16 took 182 and tile 32 255, which
  // left no room for 1,024 threads: the capped build recorded it (an H100, forty-third session, was
  // the first to run it so).
  auto t16 = RunLesson("matmul", "tiled", {}, "cuda", RunOptions{});
  auto t32 = RunLesson("matmul", "tiled", {{"tile", 32}}, "cuda", RunOptions{});
  auto naive = RunLesson("matmul", "naive", {}, "cuda", RunOptions{});
  ASSERT_TRUE(t16.ok()) << t16.status().message();
  ASSERT_TRUE(t32.ok()) << t32.status().message();
  ASSERT_TRUE(naive.ok()) << naive.status().message();
  EXPECT_GT(t16->timing.lane_rows, 0u);
  EXPECT_TRUE(t16->timing.lane_wide);
  EXPECT_GT(t32->timing.lane_rows, 0u);
  EXPECT_TRUE(t32->timing.lane_wide);
  EXPECT_GT(naive->timing.lane_rows, 0u);
  EXPECT_TRUE(naive->timing.lane_wide);
  EXPECT_TRUE(t16->check.ok) << t16->check.message;
  EXPECT_TRUE(t32->check.ok) << t32->check.message;
}

TEST(GpuLaneLog, TheCopysLanesWriteTwoRowsEachAndALargerLaunchGoesTheEventRoads) {
  REQUIRE_GPU();
  // stride-copy at its defaults: 64 blocks of 256 threads, a load and a store each: 2 x 16,384
  // lanes' rows, each a whole warp's: 2 x 512 warp rows of 4 bytes a lane and a 16-byte head.
  auto r = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->timing.lane_rows, 2u * 64 * 256);
  EXPECT_EQ(r->timing.record_bytes, 2u * 512 * (32 * 4 + 16));
  EXPECT_EQ(r->timing.records, 2u * 64 * 256);
  EXPECT_EQ(r->main_launch().uncovered_blocks, 0u);
  EXPECT_TRUE(r->check.ok) << r->check.message;
  // 4,096 blocks: 1M threads, past the lane log's 65,536.
  auto big = RunLesson("stride-copy", "", {{"stride", 1}, {"blocks", 4096}}, "cuda", RunOptions{});
  ASSERT_TRUE(big.ok()) << big.status().message();
  EXPECT_EQ(big->timing.lane_rows, 0u);
  EXPECT_EQ(big->main_launch().stats.access_records, 2u << 20);
}

TEST(GpuLaneLog, EveryLessonAtItsDefaultsIsRecordedByTheLaneLogWithItsFilesNamed) {
  REQUIRE_GPU();
  // The lessons' GPU pass as the capture bench times it (bench/gpu_capture_bench.sh ... defaults):
  // each records by the lane log, which notes only each kernel's own file (LaneEntry) and goes the
  // event roads where a record names another (LaneLogUnnamedFile). All 23 took the lane log on an
  // H200 with that note (docs/GPU.md, twenty-seventh session, call 2: every lane_rows above 0).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"offset-copy", "copy"},       {"stride-copy", "copy"},
      {"bank-stride", "stride"},     {"transpose", "naive"},
      {"transpose", "coalesced"},    {"transpose", "padded"},
      {"swizzle", "as-written"},     {"vecadd", "chunked"},
      {"picture", "picture"},        {"races", "block-transpose-fixed"},
      {"divergence", "by-thread"},   {"constant", "broadcast"},
      {"atomics", "histogram"},      {"reverse", "static"},
      {"matmul", "naive"},           {"matmul", "tiled"},
      {"matmul", "tiled-2x2"},       {"texture-2d", "global"},
      {"local-memory", "registers"}, {"reduce", "divergent"},
      {"reduce", "strided"},         {"reduce", "sequential"},
      {"reduce", "shuffle"}};
  for (const auto& [lesson, variant] : cases) {
    SCOPED_TRACE(lesson + " / " + variant);
    auto r = RunLesson(lesson, variant, {}, "cuda", RunOptions{});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_GT(r->timing.lane_rows, 0u);
    for (const SiteInfo& site : r->main_launch().sites) EXPECT_FALSE(site.file.empty());
  }
}

}  // namespace
}  // namespace ws
