// The values a Sweep runs (SweepValues): every grid value when they fit, else doublings from min
// over wide ranges, else evenly spaced grid values. Expected lists by hand from each lesson's
// declared range.
#include <gtest/gtest.h>

#include <vector>

#include "warpscope/trace/lesson_run.h"

namespace ws {
namespace {

using V = std::vector<long long>;

TEST(SweepValues, EveryValueWhenTheyFit) {
  // offset-copy's offset 0..32: 33 values, the limit; threads 32..1024 step 32: 32 values.
  V all_offsets;
  for (long long v = 0; v <= 32; ++v) all_offsets.push_back(v);
  EXPECT_EQ(SweepValues({"offset", 1, 0, 32, 1, ""}), all_offsets);
  const V threads = SweepValues({"threads", 256, 32, 1024, 32, ""});
  ASSERT_EQ(threads.size(), 32u);
  EXPECT_EQ(threads.front(), 32);
  EXPECT_EQ(threads[1], 64);
  EXPECT_EQ(threads.back(), 1024);
}

TEST(SweepValues, DoublingsOverWideRanges) {
  // stride-copy's stride 1..64: the slides' bandwidth-versus-stride points.
  EXPECT_EQ(SweepValues({"stride", 2, 1, 64, 1, ""}), (V{1, 2, 4, 8, 16, 32, 64}));
  // transpose's width 8..8192 step 8: 8 x 2^k, 8192 = 8 x 2^10 included once.
  EXPECT_EQ(SweepValues({"width", 256, 8, 8192, 8, ""}),
            (V{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}));
  // blocks 1..65535: 1 .. 32768 (16 doublings), then the maximum.
  const V blocks = SweepValues({"blocks", 64, 1, 65535, 1, ""});
  ASSERT_EQ(blocks.size(), 17u);
  EXPECT_EQ(blocks[15], 32768);
  EXPECT_EQ(blocks.back(), 65535);
}

TEST(SweepValues, EvenlySpacedOnTheGridOtherwise) {
  // 0..1000 in 5 points: i/4 of the range. From 0 doublings cannot start.
  EXPECT_EQ(SweepValues({"n", 0, 0, 1000, 1, ""}, 5), (V{0, 250, 500, 750, 1000}));
  // 10..100 step 3 (grid 10, 13, ..., 100), 4 points: 10 + 0, 30, 60 rounded down to the grid
  // (10, 40, 70), then 100 (= 10 + 30 x 3, on the grid).
  EXPECT_EQ(SweepValues({"n", 10, 10, 100, 3, ""}, 4), (V{10, 40, 70, 100}));
}

}  // namespace
}  // namespace ws
