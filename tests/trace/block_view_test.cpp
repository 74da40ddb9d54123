// The views' data: one block's requests and barriers, the grid layout, words per bank, and the
// transaction segments the coalescing view draws. Expected numbers are worked out by hand.
#include "warpscope/trace/block_view.h"
#include "warpscope/viz/grid_layout.h"

#include <gtest/gtest.h>

#include <random>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

std::vector<LaneAccess> Warp(std::uint64_t base, std::uint64_t stride_bytes, int lanes = 32) {
  std::vector<LaneAccess> v;
  for (int l = 0; l < lanes; ++l)
    v.push_back(
        {static_cast<std::uint8_t>(l), 4, base + static_cast<std::uint64_t>(l) * stride_bytes});
  return v;
}

TEST(Segments, SectorsAndLinesOfAnOffsetWarp) {
  // 32 floats from byte 4: bytes 4..131 touch sectors 0-4 (5 of them) and lines 0-1.
  const auto v = Warp(4, 4);
  const auto sectors = GranuleSegments(v, 32);
  ASSERT_EQ(sectors.size(), 5u);
  EXPECT_EQ(sectors.front().address, 0u);
  EXPECT_EQ(sectors.back().address, 128u);
  EXPECT_EQ(GranuleSegments(v, 128).size(), 2u);
}

TEST(Segments, Cc10CoalescedIsOneSegmentPerHalfWarp) {
  // Aligned, thread k reads word k: each half-warp is one 64-byte segment.
  const auto v = Warp(0, 4);
  const auto segs = Cc10Segments(v);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].address, 0u);
  EXPECT_EQ(segs[0].bytes, 64u);
  EXPECT_EQ(segs[0].half, 0);
  EXPECT_EQ(segs[1].address, 64u);
  EXPECT_EQ(segs[1].half, 1);
  // Offset by one word: every thread is its own transaction (16 per half-warp).
  EXPECT_EQ(Cc10Segments(Warp(4, 4)).size(), 32u);
}

TEST(Segments, Cc12OffsetWarpShrinksSegmentsToTheUsedHalf) {
  // Half-warp 0 reads bytes 4..67: segment 0..127, both halves used -> 128 B at 0.
  // Half-warp 1 reads bytes 68..131: lanes 16-30 in segment 0..127 use only 68..127 -> shrunk
  // to 64 B at 64; lane 31's bytes 128..131 -> segment 128, shrunk to 32 B.
  const auto segs = Cc12Segments(Warp(4, 4));
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_EQ(segs[0].address, 0u);
  EXPECT_EQ(segs[0].bytes, 128u);
  EXPECT_EQ(segs[1].address, 64u);
  EXPECT_EQ(segs[1].bytes, 64u);
  EXPECT_EQ(segs[2].address, 128u);
  EXPECT_EQ(segs[2].bytes, 32u);
}

TEST(Segments, CountsAgreeWithTheModelsOnRandomRequests) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<LaneAccess> v;
    const std::uint8_t size = static_cast<std::uint8_t>(1u << (rng() % 4));  // 1, 2, 4, 8
    for (int l = 0; l < 32; ++l) {
      if (rng() % 5 == 0) continue;  // inactive lane
      v.push_back({static_cast<std::uint8_t>(l), size, (rng() % 512) * size});
    }
    if (v.empty()) continue;
    EXPECT_EQ(GranuleSegments(v, 32).size(), Sectors(v));
    EXPECT_EQ(GranuleSegments(v, 128).size(), Lines128(v));
    EXPECT_EQ(Cc10Segments(v).size(), Cc10Transactions(v));
    EXPECT_EQ(Cc12Segments(v).size(), Cc12Transactions(v).transactions);
  }
}

TEST(WordsPerBank, StrideTwoIsTwoWayAndItsMaxIsTheDegree) {
  // Stride 2 words: lanes 0 and 16 both hit bank 0 (words 0 and 32): 2 words in each even bank.
  const auto v = Warp(0, 8);
  const auto words = WordsPerBank(v);
  EXPECT_EQ(words[0], 2u);
  EXPECT_EQ(words[1], 0u);
  EXPECT_EQ(*std::max_element(words.begin(), words.end()), BankConflictDegree(v));
  // Every lane reading word 5: one word in bank 5 (broadcast).
  std::vector<LaneAccess> same(32);
  for (int l = 0; l < 32; ++l)
    same[static_cast<std::size_t>(l)] = {static_cast<std::uint8_t>(l), 4, 20};
  EXPECT_EQ(WordsPerBank(same)[5], 1u);
  // 16 banks: stride 1 over a whole warp puts words w and w+16 in one bank.
  EXPECT_EQ(WordsPerBank(Warp(0, 4), 16)[0], 2u);
}

TEST(GridLayout, PictureKernelGridIsDrawnInItsTrueShape) {
  // The picture kernel: 76x62 pixels in 16x16 blocks -> grid 5x4; cells 80 x 64.
  const GridLayout g = MakeGridLayout({5, 4, 1}, {16, 16, 1}, 1.5f);
  EXPECT_FALSE(g.wrapped_1d);
  EXPECT_FALSE(g.summary);
  EXPECT_EQ(g.cells_x(), 80);
  EXPECT_EQ(g.cells_y(), 64);
  int x, y;
  // Block (2, 1) = linear 7; thread (3, 5) = linear 83.
  g.CellOf(7, 83, &x, &y);
  EXPECT_EQ(x, 2 * 16 + 3);
  EXPECT_EQ(y, 1 * 16 + 5);
  std::uint64_t b;
  std::uint32_t th;
  ASSERT_TRUE(g.ThreadAt(x, y, &b, &th));
  EXPECT_EQ(b, 7u);
  EXPECT_EQ(th, 83u);
}

TEST(GridLayout, OneDimensionalBlocksWrapOneWarpPerRow) {
  // 64 blocks of 256 threads: 8 warps per block, drawn 32 x 8; aspect 1 -> sqrt(64 * 8/32) = 4
  // columns of blocks, 16 rows.
  const GridLayout g = MakeGridLayout({64, 1, 1}, {256, 1, 1}, 1.0f);
  EXPECT_TRUE(g.wrapped_1d);
  EXPECT_EQ(g.block_w, 32);
  EXPECT_EQ(g.block_h, 8);
  EXPECT_EQ(g.cols, 4);
  EXPECT_EQ(g.rows, 16);
  int x, y;
  g.CellOf(5, 40, &x, &y);  // block 5: column 1, row 1; thread 40: warp 1, lane 8
  EXPECT_EQ(x, 32 + 8);
  EXPECT_EQ(y, 8 + 1);
  std::uint64_t b;
  std::uint32_t th;
  EXPECT_FALSE(g.ThreadAt(g.cells_x(), 0, &b, &th));
  // A 100-thread block wraps to 4 rows; the last row's cells past thread 99 are empty.
  const GridLayout h = MakeGridLayout({1, 1, 1}, {100, 1, 1}, 1.0f);
  EXPECT_FALSE(h.ThreadAt(4, 3, &b, &th));  // would be thread 100
  EXPECT_TRUE(h.ThreadAt(3, 3, &b, &th));
  EXPECT_EQ(th, 99u);
}

TEST(GridLayout, HugeLaunchesAreSummarisedPerBlock) {
  // 65535 blocks of 1024 threads: 67M cells, far past the 4M limit: one cell per block.
  const GridLayout g = MakeGridLayout({65535, 1, 1}, {1024, 1, 1}, 1.0f);
  EXPECT_TRUE(g.summary);
  EXPECT_EQ(g.block_w, 1);
  EXPECT_GE(static_cast<std::uint64_t>(g.cols) * g.rows, 65535u);
}

TEST(BlockView, TransposeCoalescedBlockZero) {
  // transpose coalesced, 64x64 matrix, tile 32: blocks of 32x32 threads (32 warps). Each warp
  // makes one request at each of the four sites (global load, shared store, shared load, global
  // store): 4 x 32 = 128 requests; one __syncthreads() met once by all 1024 threads.
  auto run = RunLesson("transpose", "coalesced", {{"width", 64}, {"height", 64}, {"tile", 32}},
                       "emu", RunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const BlockView v = BuildBlockView(run->main_launch(), 0);
  ASSERT_TRUE(v.kept);
  EXPECT_EQ(v.threads, 1024u);
  EXPECT_EQ(v.requests.size(), 128u);
  ASSERT_EQ(v.barriers.size(), 1u);
  EXPECT_EQ(v.steps.size(), 129u);
  int conflicts32 = 0;
  for (const BlockRequest& r : v.requests) {
    EXPECT_EQ(r.lanes.size(), 32u);
    if (BankConflictDegree(r.lanes) == 32) ++conflicts32;  // the column read of the tile
  }
  EXPECT_EQ(conflicts32, 32);  // one per warp
  // Steps run in time order.
  for (std::size_t i = 1; i < v.steps.size(); ++i) EXPECT_LE(v.steps[i - 1].time, v.steps[i].time);
  // A block whose records were not kept gives an empty view that says so.
  EXPECT_FALSE(BuildBlockView(run->main_launch(), 3000).kept);
}

TEST(BlockView, ThreadActivityMarksThePictureKernelsIdleThreads) {
  // 76x62 image, 16x16 blocks: 80x64 threads, of which 76 x 62 = 4712 do work.
  auto run =
      RunLesson("picture", "", {{"width", 76}, {"height", 62}, {"block", 16}}, "emu", RunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const LaunchTrace& t = run->main_launch();
  ASSERT_EQ(t.thread_active.size(), 80u * 64u);
  std::size_t active = 0;
  for (std::uint8_t a : t.thread_active) active += a;
  EXPECT_EQ(active, 76u * 62u);
}

}  // namespace
}  // namespace ws
