// The seeds' exercises as lesson presets (LessonInfo::presets): every one names a real variant,
// parameters in range and a thread order the emulator knows, and its run shows the answer worked
// out by hand (written next to each figure).
#include <gtest/gtest.h>

#include <ostream>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

LessonRun RunExercise(const std::string& lesson, const std::string& name) {
  const LessonInfo* info = FindLesson(lesson);
  EXPECT_NE(info, nullptr) << lesson;
  const Preset* p = info != nullptr ? info->FindPreset(name) : nullptr;
  EXPECT_NE(p, nullptr) << lesson << " " << name;
  if (p == nullptr) return {};
  RunOptions o;
  if (!p->schedule.empty()) o.schedule = *ParseSchedule(p->schedule);
  auto r = RunLesson(lesson, p->variant, p->params, "emu", o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

TEST(Exercises, EveryPresetIsARunWithItsAnsweringFigures) {
  int n = 0;
  for (const LessonInfo& l : Lessons()) {
    for (const Preset& p : l.presets) {
      ++n;
      SCOPED_TRACE(l.id + " " + p.name);
      EXPECT_FALSE(p.question.empty());
      EXPECT_FALSE(p.answer.empty());
      EXPECT_TRUE(p.variant.empty() || l.FindVariant(p.variant) != nullptr);
      for (const auto& [name, value] : p.params) {
        const ParamSpec* spec = l.FindParam(name);
        ASSERT_NE(spec, nullptr) << name;
        EXPECT_TRUE(CheckParam(*spec, value).ok()) << name << " = " << value;
      }
      if (!p.schedule.empty()) {
        EXPECT_TRUE(ParseSchedule(p.schedule).ok()) << p.schedule;
      }
      const LessonRun r = RunExercise(l.id, p.name);
      for (const std::string& key : p.answer_figures) EXPECT_TRUE(r.metrics().contains(key)) << key;
    }
  }
  // picture 4.4, 4.5; barrier 4.6; occupancy 4.7 a-f, 4.9; races 4.8, 4.10 a, 4.10 b;
  // texture-2d's rotate, row sums, blur.
  EXPECT_EQ(n, 16);
}

// 4.4 and 4.5: 400 x 900 pixels in 32 x 32 blocks (compute 3.0: 1,024 threads a block):
// ceil(400 / 32) = 13, ceil(900 / 32) = 29; 416 x 928 = 386,048 threads, 360,000 pixels.
TEST(Exercises, KirkHwu4_4And4_5) {
  const LessonRun r = RunExercise("picture", "4.5");
  EXPECT_EQ(r.metrics().at("grid"), (nlohmann::json{13, 29}));
  EXPECT_EQ(r.metrics().at("active_threads").get<long long>(), 360000);
  EXPECT_EQ(r.metrics().at("idle_threads").get<long long>(), 386048 - 360000);
}

// 4.6: every thread leaves at 3.0 us; 8 x 3.0 = 24 us in all, the sections 19.9 us, the waits
// 4.1 us: 4.1 / 24 = 17.08 %. The longest wait is the 1.9 us thread's: 1.1 us = 11 units.
TEST(Exercises, KirkHwu4_6) {
  const LessonRun r = RunExercise("barrier", "4.6");
  EXPECT_NEAR(r.metrics().at("wait_percent").get<double>(), 100 * 4.1 / 24, 1e-9);
  EXPECT_EQ(r.metrics().at("max_wait").get<int>(), 11);
  EXPECT_EQ(r.metrics().at("max_skew").get<int>(), 30 - 19);
  // The uneven variant: thread t works t x skew, so the waits, (T - 1 - t) x skew, sum to the
  // same T (T - 1) / 2 x skew as the work: half of the threads' time, whatever the skew.
  for (long long skew : {1, 10, 37}) {
    auto u = RunLesson("barrier", "uneven", {{"threads", 32}, {"skew", skew}}, "emu", {});
    ASSERT_TRUE(u.ok());
    EXPECT_NEAR(u->metrics().at("wait_percent").get<double>(), 50.0, 1e-9) << skew;
  }
}

// 4.7 by hand from the limits (compute 1.0: 24 warps and 8 blocks per SM; 1.2: 32 warps, 8
// blocks; 3.0: 64 warps, 16 blocks): blocks resident and what binds.
TEST(Exercises, KirkHwu4_7And4_9) {
  const auto blocks = [](const char* name) {
    const LessonRun r = RunExercise("occupancy", name);
    return std::make_pair(r.metrics().at("active_blocks").get<int>(),
                          r.metrics().at("limiter").get<std::string>());
  };
  EXPECT_EQ(blocks("4.7 a"), std::make_pair(6, std::string("warps")));  // 24 / 4 warps
  EXPECT_EQ(blocks("4.7 b").first, 8);                                  // 32 warps: exactly
  EXPECT_EQ(blocks("4.7 c").first, 16);                                 // 64 / 4
  EXPECT_EQ(blocks("4.7 d"), std::make_pair(8, std::string("blocks")));
  EXPECT_EQ(blocks("4.7 e"), std::make_pair(8, std::string("blocks")));
  EXPECT_EQ(blocks("4.7 f").first, 16);
  // 4.9: a 32 x 32 block is 1,024 threads, over compute 1.0's 512 a block: none runs.
  EXPECT_EQ(blocks("4.9"), std::make_pair(0, std::string("threads_per_block")));
}

// 4.8 and 4.10 with the races lesson's hand counts (races_lesson_test.cpp).
TEST(Exercises, KirkHwu4_8And4_10) {
  const LessonRun ex48 = RunExercise("races", "4.8");       // random:1
  EXPECT_EQ(ex48.metrics().at("hazards").get<int>(), 128);  // 32 slots x 4 blocks
  EXPECT_EQ(ex48.metrics().at("same_warp").get<int>(), 128);
  EXPECT_EQ(ex48.metrics().at("wrong").get<int>(), 52);           // as the answer says
  const LessonRun a = RunExercise("races", "4.10 a");             // BLOCK_WIDTH 8, lockstep
  EXPECT_EQ(a.metrics().at("hazards").get<int>(), 4 * (64 - 8));  // 4 blocks x (W^2 - W)
  EXPECT_EQ(a.metrics().at("same_warp").get<int>(), 96);
  EXPECT_EQ(a.metrics().at("wrong").get<int>(), 64);
  const LessonRun b = RunExercise("races", "4.10 b");
  EXPECT_EQ(b.metrics().at("hazards").get<int>(), 0);
  EXPECT_TRUE(b.check.ok) << b.check.message;
}

// texture-2d's three questions: every block's reads replayed through the 8 KB cache model under
// each layout (requests, lookups, hits, DRAM sectors, compulsory sectors). Blocks of 16 x 16 run
// 4 at a time (1,024 threads) on a multiprocessor with an empty cache: a 4 x 4 grid is 4 groups,
// one row of blocks each.
struct Cost {
  std::uint64_t requests, sectors, hits, dram, compulsory;
  friend bool operator==(const Cost&, const Cost&) = default;
};
std::ostream& operator<<(std::ostream& o, const Cost& c) {
  return o << c.requests << " requests, " << c.sectors << " sectors, " << c.hits << " hits, "
           << c.dram << " DRAM, " << c.compulsory << " compulsory";
}
Cost CostOf(const LessonRun& r, const std::string& layout) {
  for (const auto& c : r.metrics().at("costs")) {
    if (c.at("layout") == layout)
      return {c.at("requests"), c.at("sectors"), c.at("hits"), c.at("dram_sectors"),
              c.at("compulsory")};
  }
  ADD_FAILURE() << "no cost for " << layout;
  return {};
}

// rotate, 64 x 64 in 16 x 16 blocks, 16 blocks: each reads a 16 x 16 patch of the input, 32
// sectors (256 px x 4 B / 32 B), so 16 x 32 = 512 from DRAM under every layout. 8 warps a block,
// one request each: 128. Row-major: 16 sectors a request (16 rows), 128 lookups a block of which
// 96 hit (a group's 4 patches are 64 half-lines: the 64 lines of 8 KB, nothing leaves).
// Morton / tiles: 4 x 2 pixels a sector, 8 a request, 64 a block of which 32 hit.
TEST(Exercises, TextureRotateHalvesTheSectors) {
  const LessonRun r = RunExercise("texture-2d", "rotate");
  EXPECT_EQ(CostOf(r, "row-major"), (Cost{128, 128 * 16, 16 * 96, 512, 512}));
  EXPECT_EQ(CostOf(r, "morton"), (Cost{128, 128 * 8, 16 * 32, 512, 512}));
  EXPECT_EQ(CostOf(r, "tiled"), (Cost{128, 128 * 8, 16 * 32, 512, 512}));
  EXPECT_DOUBLE_EQ(r.metrics().at("read_sectors_per_request").get<double>(), 8.0);  // Morton
}

// row sums, 64 x 128: one block of 256 threads, 4 warps of 64 steps = 256 requests. Row-major:
// 32 sectors a request in 32 lines; 4 x 32 lines = 16 KB live > 8 KB, so LRU never hits.
// Morton: 16 sectors in 8 lines a request, 32 lines live, fits: the 64 x 128 x 4 / 32 = 1,024
// compulsory sectors, the rest hit. At 16 KB row-major's 128 lines fit: 1 miss in 8.
TEST(Exercises, TextureRowSumsThrashRowMajor) {
  const LessonRun r = RunExercise("texture-2d", "row sums");
  EXPECT_EQ(CostOf(r, "row-major"), (Cost{256, 256 * 32, 0, 256 * 32, 1024}));
  EXPECT_EQ(CostOf(r, "morton"), (Cost{256, 256 * 16, 256 * 16 - 1024, 1024, 1024}));
  EXPECT_EQ(CostOf(r, "tiled"), (Cost{256, 256 * 16, 256 * 16 - 1024, 1024, 1024}));
  EXPECT_EQ(r.metrics().at("dram_sectors").get<std::uint64_t>(), 1024u);  // the run's Morton
  auto big = RunLesson("texture-2d", "global", {{"pattern", 2}, {"height", 128}, {"cache_kb", 16}},
                       "emu", {});
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(CostOf(*big, "row-major"), (Cost{256, 256 * 32, 256 * 32 - 1024, 1024, 1024}));
  EXPECT_DOUBLE_EQ(big->metrics().at("cache_hit_percent").get<double>(), 87.5);
}

// blur, 64 x 64 in 16 x 16 blocks, 16 blocks in 4 groups, one row of blocks (by) each. Warp w
// of a block reads rows 16 by + 2w + dy and + 1 + dy (clamped at 0 and 63), columns 16 bx + dx ..
// + 15. Row-major, 8 pixels a sector: rows summed over w and dy are 47 in the top and bottom
// rows of blocks (w = 0, dy = -1 and w = 7, dy = +1 are one row) and 48 in the two between;
// sectors a row summed over dx are 2 + 2 + 3 = 7 (bx 0), 3 + 2 + 3 = 8 (bx 1, 2), 3 + 2 + 2 = 7
// (bx 3), 30 a row of blocks: (2 x 47 + 2 x 48) x 30 = 5,700. Morton, 4 x 2 a sector: sector
// rows over dy 2 + 1 + 2 = 5, or 4 for the clamped warp, 39 or 40 a block; sector columns over
// dx 13, 14, 14, 13 = 54: (2 x 39 + 2 x 40) x 54 = 8,532. DRAM, each group's once (all fit 8
// KB): row-major rows 0..16, 15..32, 31..48, 47..63 = 17 + 18 + 18 + 17 rows of 8 sectors =
// 560; Morton sector rows 0..8, 7..16, 15..24, 23..31 = 9 + 10 + 10 + 9 of 16 sectors = 608.
TEST(Exercises, TextureBlurFavoursRowMajor) {
  const LessonRun r = RunExercise("texture-2d", "blur");
  const Cost row = CostOf(r, "row-major"), morton = CostOf(r, "morton");
  EXPECT_EQ(row.requests, 16u * 8 * 9);
  EXPECT_EQ(row.sectors, (2u * 47 + 2 * 48) * 30);
  EXPECT_EQ(morton.sectors, (2u * 39 + 2 * 40) * 54);
  EXPECT_EQ(row.dram, 560u);
  EXPECT_EQ(row.compulsory, 560u);
  EXPECT_EQ(morton.dram, 608u);
  EXPECT_EQ(r.metrics().at("replayed_blocks").get<int>(), 16);
  EXPECT_EQ(r.metrics().at("blocks_together").get<int>(), 4);
}

}  // namespace
}  // namespace ws
