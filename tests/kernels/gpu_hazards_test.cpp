// Issue 51, item 3: hazards over the whole grid on a GPU. A pass before the recording one checks
// every block on the device (ws_cuda_hazards.h); the recording pass keeps the blocks it flagged
// and the host counts their pairs, so the counts are the emulator's. Elsewhere these skip and
// say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "require_gpu.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {
namespace gpu_hazards {

std::uint64_t SameWarp(const HazardReport& h) {
  std::uint64_t n = 0;
  for (const HazardGroup& g : h.groups) n += g.same_warp;
  return n;
}

LessonRun RunRaces(const std::string& variant, const Params& p, const std::string& backend,
                   RunOptions o = {}) {
  auto r = RunLesson("races", variant, p, backend, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : LessonRun{};
}

// Exercise 4.10 at BLOCK_WIDTH 8 in 4 x 4 tiles: 16 blocks of 64 threads. Each thread off the
// diagonal reads the slot its mirror wrote: 64 - 8 = 56 RAW pairs a block, 896 in all. Warp 0
// holds rows 0-3 and warp 1 rows 4-7, so a pair is inside one warp when both rows are in one
// half: 2 x (16 - 4) = 24 a block, 384 in all.
TEST(GpuHazards, BlockTransposeIsCheckedInEveryBlockAsOnTheEmulator) {
  REQUIRE_GPU();
  const Params p = {{"block_width", 8}, {"tiles", 4}};
  const LessonRun emu = RunRaces("block-transpose", p, "emu");
  // At the CLI's defaults a launch this small is recorded by the lane log: every block's records
  // come back and the host pairs them all, with no check on the device.
  const LessonRun lane = RunRaces("block-transpose", p, "cuda");
  ASSERT_FALSE(lane.launches.empty());
  const HazardReport& l = lane.main_launch().hazards;
  EXPECT_GT(lane.timing.lane_rows, 0u);
  EXPECT_FALSE(l.device_scanned);
  EXPECT_TRUE(l.whole_grid) << l.Checked();
  EXPECT_EQ(l.Total(), 896u);
  EXPECT_EQ(SameWarp(l), 384u);
  EXPECT_NE(l.Checked().find("every block of 16"), std::string::npos) << l.Checked();
  // The kept blocks' records stay, and each race's example pair's blocks (block 0's here).
  EXPECT_EQ(lane.main_launch().blocks.size(), 4u);
  // The event roads: the device's check flags the 16 blocks, whose records are kept and paired.
  RunOptions events;
  events.gpu_lane_log = false;
  const LessonRun gpu = RunRaces("block-transpose", p, "cuda", events);
  ASSERT_FALSE(gpu.launches.empty());
  const HazardReport& h = gpu.main_launch().hazards;
  EXPECT_TRUE(h.device_scanned);
  EXPECT_TRUE(h.whole_grid) << h.Checked();
  EXPECT_EQ(h.racing_blocks, 16u);
  EXPECT_EQ(h.Total(), 896u);
  EXPECT_EQ(SameWarp(h), 384u);
  EXPECT_EQ(h.Total(), emu.main_launch().hazards.Total());
  EXPECT_EQ(SameWarp(h), SameWarp(emu.main_launch().hazards));
  EXPECT_NE(h.Checked().find("every block of 16"), std::string::npos) << h.Checked();
  // Without either only the 4 kept blocks are paired: 4 x 56.
  RunOptions kept = events;
  kept.gpu_hazard_scan = false;
  const LessonRun four = RunRaces("block-transpose", p, "cuda", kept);
  ASSERT_FALSE(four.launches.empty());
  EXPECT_FALSE(four.main_launch().hazards.whole_grid);
  EXPECT_EQ(four.main_launch().hazards.Total(), 224u);
}

// Every racy variant of the lesson, and the fixed one, at a grid of more blocks than are kept:
// the GPU's pairs are the emulator's, over every block, in shared and in global memory.
TEST(GpuHazards, EveryRacyVariantCountsTheEmulatorsPairs) {
  REQUIRE_GPU();
  const std::vector<std::pair<std::string, Params>> cases = {
      {"block-transpose-fixed", {{"block_width", 8}, {"tiles", 4}}},
      {"transpose-no-sync", {{"width", 128}}},  // 16 blocks of 32 x 32
      {"warp-exchange", {{"blocks", 16}}},
      {"reverse-no-sync", {{"threads", 256}}},
      {"histogram-no-atomic", {{"threads", 256}}}};
  for (const auto& [variant, p] : cases) {
    SCOPED_TRACE(variant);
    const LessonRun emu = RunRaces(variant, p, "emu");
    RunOptions events;  // the device's check (the lane log's launches are checked on the host)
    events.gpu_lane_log = false;
    const LessonRun gpu = RunRaces(variant, p, "cuda", events);
    const LessonRun lane = RunRaces(variant, p, "cuda");
    if (emu.launches.empty() || gpu.launches.empty() || lane.launches.empty()) continue;
    const HazardReport &e = emu.main_launch().hazards, &g = gpu.main_launch().hazards;
    const HazardReport& l = lane.main_launch().hazards;
    EXPECT_TRUE(l.whole_grid) << l.Checked();
    EXPECT_EQ(l.Total(), e.Total());
    EXPECT_EQ(SameWarp(l), SameWarp(e));
    EXPECT_TRUE(g.whole_grid) << g.Checked();
    EXPECT_EQ(g.Total(), e.Total());
    EXPECT_EQ(SameWarp(g), SameWarp(e));
    if (variant == "block-transpose-fixed") {
      EXPECT_EQ(g.racing_blocks, 0u);
    }
    // The check as it was before its shared shadow moved into each block's shared memory and
    // read-only buffers went without one (WS_GPU_HAZARD_FAST=0) flags the same blocks.
    setenv("WS_GPU_HAZARD_FAST", "0", 1);
    const LessonRun old = RunRaces(variant, p, "cuda", events);
    unsetenv("WS_GPU_HAZARD_FAST");
    if (old.launches.empty()) continue;
    EXPECT_EQ(old.main_launch().hazards.racing_blocks, g.racing_blocks);
    EXPECT_EQ(old.main_launch().hazards.Total(), g.Total());
    // The check above ran the hazard check's lean build (32 registers) where more blocks fit an
    // SM and it keeps at most 16 bytes of local memory (RunHazardLean). ptxas -v, nvcc 13, sm_90,
    // and 64K registers an SM: transpose-no-sync's 1,024-thread blocks 1 an SM at the hazard
    // unit's 38 registers, 2 at 32 (16 bytes); reverse-no-sync's and histogram-no-atomic's 256
    // 6 against 8 (8 and 16 bytes); warp-exchange's blocks of one warp 32 an SM either way (the
    // most an SM holds); block-transpose-fixed keeps 24 bytes at 32.
    const bool lean = variant == "transpose-no-sync" || variant == "reverse-no-sync" ||
                      variant == "histogram-no-atomic";
    EXPECT_EQ(gpu.timing.hazard_lean, lean);
    // The hazard unit's own build (WS_GPU_HAZARD_LEAN=0) flags the same blocks.
    setenv("WS_GPU_HAZARD_LEAN", "0", 1);
    const LessonRun own = RunRaces(variant, p, "cuda", events);
    unsetenv("WS_GPU_HAZARD_LEAN");
    if (own.launches.empty()) continue;
    EXPECT_FALSE(own.timing.hazard_lean);
    EXPECT_EQ(own.main_launch().hazards.racing_blocks, g.racing_blocks);
    EXPECT_EQ(own.main_launch().hazards.Total(), g.Total());
  }
}

// A clean kernel with a shared tile, in many more blocks than the SMs hold at once: each block's
// shadow in shared memory finds the words its SM's earlier blocks left there and reads them as
// fresh (their tag is another block's), so no block is flagged.
TEST(GpuHazards, TheSharedShadowLeftByEarlierBlocksFlagsNone) {
  REQUIRE_GPU();
  auto r = RunLesson("transpose", "coalesced", {{"width", 2048}, {"height", 2048}}, "cuda",
                     RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  EXPECT_EQ(t.grid.count(), 4096u);  // 2048 / 32 squared
  EXPECT_TRUE(t.hazards.device_scanned);
  EXPECT_TRUE(t.hazards.whole_grid) << t.hazards.Checked();
  EXPECT_EQ(t.hazards.racing_blocks, 0u);
  EXPECT_EQ(t.hazards.Total(), 0u);
  EXPECT_EQ(t.blocks.size(), 4u);
}

// The tiled matmul has no race: every block is checked on the device (the event roads), none is
// flagged, and only the four kept blocks' records come back; by the lane log the host checks
// every block, with no pass on the device, and keeps the same four.
TEST(GpuHazards, ACleanKernelIsCheckedEverywhereAndKeepsOnlyItsKeptBlocks) {
  REQUIRE_GPU();
  auto lane = RunLesson("matmul", "tiled", {}, "cuda", RunOptions{});
  ASSERT_TRUE(lane.ok()) << lane.status().message();
  EXPECT_TRUE(lane->main_launch().hazards.whole_grid) << lane->main_launch().hazards.Checked();
  EXPECT_EQ(lane->main_launch().hazards.Total(), 0u);
  EXPECT_EQ(lane->main_launch().blocks.size(), 4u);
  EXPECT_EQ(lane->timing.hazard_ms, 0.0);
  RunOptions events;
  events.gpu_lane_log = false;
  auto r = RunLesson("matmul", "tiled", {}, "cuda", events);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  EXPECT_GT(t.grid.count(), 4u);
  EXPECT_TRUE(t.hazards.device_scanned);
  EXPECT_TRUE(t.hazards.whole_grid) << t.hazards.Checked();
  EXPECT_EQ(t.hazards.racing_blocks, 0u);
  EXPECT_EQ(t.hazards.Total(), 0u);
  EXPECT_EQ(t.blocks.size(), 4u);
  EXPECT_GT(r->timing.hazard_ms, 0.0);
}

}  // namespace gpu_hazards
}  // namespace
}  // namespace ws
