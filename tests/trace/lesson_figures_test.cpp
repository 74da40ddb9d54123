// Lesson figures through JSON (what trace files keep): the texture-2d cache costs and the
// transfers lesson's zero copy round-trip, older files without them still read, and bad values
// are refused with a message naming them.
#include "warpscope/trace/lesson_figures.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ws {
namespace {

TEST(LessonFiguresJson, TextureCostsRoundTrip) {
  Texture2DFigures f;
  f.pattern = "row-sums";
  f.layout = "morton";
  f.cache_bytes = 8192;
  f.kept_blocks = 1;
  f.costs = {{"row-major", 256, 8192, 0, 8192, 1024}, {"morton", 256, 4096, 3072, 1024, 1024}};
  const Texture2DFigures back = nlohmann::json(f).get<Texture2DFigures>();
  ASSERT_EQ(back.costs.size(), 2u);
  EXPECT_EQ(back.pattern, "row-sums");
  EXPECT_EQ(back.cache_bytes, 8192u);
  const TextureLayoutCost* m = back.CostOf("morton");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->dram_sectors, 1024u);
  EXPECT_DOUBLE_EQ(m->SectorsPerRequest(), 16.0);  // 4096 / 256
  EXPECT_DOUBLE_EQ(m->HitPercent(), 75.0);         // 3072 / 4096
  EXPECT_EQ(back.CostOf("tiled"), nullptr);
  // A trace from before the cache model: the blur, no costs.
  nlohmann::json old = nlohmann::json(f);
  for (const char* k : {"pattern", "cache_bytes", "kept_blocks", "costs"}) old.erase(k);
  const Texture2DFigures before = old.get<Texture2DFigures>();
  EXPECT_EQ(before.pattern, "blur");
  EXPECT_TRUE(before.costs.empty());
}

// What the replay covered, as the layouts view words it: every block of the grid now; a trace
// from before the whole grid was replayed says it was the kept blocks.
TEST(LessonFiguresJson, TheReplayNamesTheBlocksItCovered) {
  Texture2DFigures f;
  f.kept_blocks = 4;
  f.replayed_blocks = 16;
  f.grid_blocks = 16;
  f.blocks_together = 4;
  const Texture2DFigures back = nlohmann::json(f).get<Texture2DFigures>();
  EXPECT_EQ(back.ReplayedWhat(), "every block (16), 4 at a time on a multiprocessor");
  f.replayed_blocks = 12;  // a recording that ran out of room
  EXPECT_EQ(f.ReplayedWhat(), "blocks 12 of 16, 4 at a time on a multiprocessor");
  nlohmann::json old = nlohmann::json(f);
  for (const char* k : {"replayed_blocks", "grid_blocks", "blocks_together"}) old.erase(k);
  EXPECT_EQ(old.get<Texture2DFigures>().ReplayedWhat(), "the kept blocks (4)");
}

TEST(LessonFiguresJson, ZeroCopyRoundTripsAndIsOptional) {
  TransferFigures f;
  f.overlap.memory = "pinned";
  f.zero_copy.passes = 2;
  f.zero_copy.sweep = {{4096, 0.02, 0.01}, {67108864, 2.5, 1.25}};
  f.zero_copy.explicit_ms = 2.5;
  f.zero_copy.mapped_ms = 1.25;
  f.zero_copy.speedup = 2.0;
  const TransferFigures back = nlohmann::json(f).get<TransferFigures>();
  EXPECT_EQ(back.zero_copy.passes, 2);
  ASSERT_EQ(back.zero_copy.sweep.size(), 2u);
  EXPECT_DOUBLE_EQ(back.zero_copy.sweep[1].mapped_ms, 1.25);
  // The pinned and pageable variants write no zero_copy; reading gives passes 0.
  f.zero_copy = {};
  const nlohmann::json j = f;
  EXPECT_FALSE(j.contains("zero_copy"));
  EXPECT_EQ(j.get<TransferFigures>().zero_copy.passes, 0);
}

TEST(LessonFiguresJson, ABadZeroCopyPointIsRefused) {
  TransferFigures f;
  f.zero_copy.passes = 1;
  f.zero_copy.sweep = {{4096, -1.0, 0.5}};
  try {
    (void)nlohmann::json(f).get<TransferFigures>();
    FAIL() << "a negative time was read";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(),
                 "a zero copy point has 4096.000000 bytes, -1.000000 and 0.500000 ms (bytes must "
                 "be positive, times not negative)");
  }
  f.zero_copy.sweep.clear();
  f.zero_copy.passes = 100;
  try {
    (void)nlohmann::json(f).get<TransferFigures>();
    FAIL() << "100 passes were read";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "zero copy passes = 100 is outside 0..64");
  }
}

// Why `j` is not read as multi-gpu figures ("read" if it is).
std::string RefusedMultiGpu(const nlohmann::json& j) {
  try {
    (void)j.get<MultiGpuFigures>();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "read";
}

// A hostile multi-gpu figure is refused by name, before anything could cast or index with it.
TEST(LessonFiguresJson, BadMultiGpuFiguresAreRefused) {
  MultiGpuFigures f;
  f.gpus = 2;
  f.nx = f.ny = 10;
  f.nz = 20;
  f.timeline = {{1, GpuWork::kSend, 1.0, 2.0}};
  f.scaling = {{2, 32, 1.5}};
  const nlohmann::json good = f;
  EXPECT_EQ(good.get<MultiGpuFigures>().timeline.size(), 1u);
  nlohmann::json j = good;
  j["gpus"] = 1e300;
  EXPECT_EQ(RefusedMultiGpu(j), "expected a whole number, got 1e+300");
  j = good;
  j["timeline"][0][0] = 2;  // GPU 2 of 2
  EXPECT_EQ(RefusedMultiGpu(j), "a timeline segment has GPU 2 and kind 1 (allowed: 0..1 and 0..3)");
  j = good;
  j["timeline"][0][2] = 3.0;  // starts after it ends
  EXPECT_EQ(RefusedMultiGpu(j), "a timeline segment runs from 3.000000 to 2.000000 us");
  j = good;
  j["scaling"][0][1] = 0;
  EXPECT_EQ(RefusedMultiGpu(j), "a scaling point has nz = 0 and speedup 1.500000");
  j = good;
  j["nz"] = -4;
  EXPECT_EQ(RefusedMultiGpu(j), "a size of -4 is negative");
}

// A run on real GPUs travels with its figures, and its hostile values are refused by name too.
TEST(LessonFiguresJson, AMultiGpuMeasurementRoundTripsAndBadOnesAreRefused) {
  MultiGpuFigures f;
  f.gpus = 2;
  f.nx = f.ny = 512;
  f.nz = 64;
  MultiGpuMeasurement m;
  m.gpus = 2;
  m.device = "2 x NVIDIA H200";
  m.transport = "peer";
  m.nx = m.ny = 512;
  m.nz = 64;
  m.steps = 10;
  m.step_us = 60.5;
  m.single_us = 110.25;
  m.model_us = 58;
  m.mpoints = 152000;
  m.links = {{"peer", 266.5, 5.1}, {"staged", 24.8, 24.0}};
  m.timeline_steps = 3;
  m.timeline = {{0, GpuWork::kCompute, 0, 50}, {1, GpuWork::kReceive, 30, 45}};
  m.scaling = {{2, 32, "peer", 40, 60, 35}};
  m.matches_one_gpu = true;
  f.measured = m;
  const nlohmann::json good = f;
  const MultiGpuFigures back = good.get<MultiGpuFigures>();
  ASSERT_TRUE(back.measured.has_value());
  EXPECT_EQ(back.measured->device, "2 x NVIDIA H200");
  EXPECT_EQ(back.measured->links.size(), 2u);
  EXPECT_EQ(back.measured->links[1].transport, "staged");
  EXPECT_DOUBLE_EQ(back.measured->links[0].gbps, 266.5);
  EXPECT_EQ(back.measured->timeline[1].kind, GpuWork::kReceive);
  EXPECT_EQ(back.measured->scaling[0].transport, "peer");
  EXPECT_DOUBLE_EQ(back.measured->scaling[0].model_us, 35);
  EXPECT_TRUE(back.measured->matches_one_gpu);
  EXPECT_FALSE(nlohmann::json(MultiGpuFigures{}).contains("measured"));  // a model run has none
  nlohmann::json j = good;
  j["measured"]["timeline"][1][0] = 2;  // GPU 2 of 2
  EXPECT_EQ(RefusedMultiGpu(j), "a timeline segment has GPU 2 and kind 2 (allowed: 0..1 and 0..3)");
  j = good;
  j["measured"]["timeline"][0][3] = 2e12;  // past any step: the view's axis would overflow
  EXPECT_EQ(RefusedMultiGpu(j),
            "a timeline segment runs from 0.000000 to 2000000000000.000000 us, outside 0..1e12");
  j = good;
  j["measured"]["step_us"] = -1;
  EXPECT_EQ(RefusedMultiGpu(j), "step_us = -1.000000 us is outside 0..1e12");
  j = good;
  j["measured"]["gpus"] = 65;
  EXPECT_EQ(RefusedMultiGpu(j), "measured gpus = 65 is outside 1..64");
  j = good;
  j["measured"]["scaling"][0][1] = 0;
  EXPECT_EQ(RefusedMultiGpu(j), "a measured scaling point has 2 GPUs and nz = 0");
  j = good;
  j["measured"]["timeline_steps"] = 100000;
  EXPECT_EQ(RefusedMultiGpu(j), "timeline_steps = 100000 is outside 0..1000");
}

TEST(LessonFiguresJson, ATransferSizeOutOfRangeIsRefused) {
  TransferFigures f;
  f.size_bytes = -1;
  try {
    (void)nlohmann::json(f).get<TransferFigures>();
    FAIL() << "a negative size was read";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "size_bytes = -1.000000 is outside 0..2^48");
  }
}

}  // namespace
}  // namespace ws
