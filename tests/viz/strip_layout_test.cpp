// The coalescing strip's layout (viz/strip_layout.h), which the panel and its SVG both draw from:
// windows, gaps and the scale worked out by hand.
#include "warpscope/viz/strip_layout.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

// Lines 3, 5 and 4 (repeated): a span of 3 lines, shown whole as one window [384, 768), 400
// pixels over 384 bytes.
TEST(StripLayout, ASmallSpanIsOneWindow) {
  const StripLayout s = StripLayout::Of({3, 5, 4, 4}, 400);
  ASSERT_EQ(s.windows.size(), 1u);
  EXPECT_EQ(s.windows[0].lo, 384u);
  EXPECT_EQ(s.windows[0].hi, 768u);
  EXPECT_DOUBLE_EQ(s.px_per_byte, 400.0 / 384);
  double x = 0;
  ASSERT_TRUE(s.X(384 + 96, &x));
  EXPECT_DOUBLE_EQ(x, 96 * 400.0 / 384);
  EXPECT_FALSE(s.X(100, &x));
}

// Lines 0, 1, 20 and 40: a span of 41 lines, so the touched lines only: [0, 256) merged, then
// [2560, 2688) and [5120, 5248), 512 bytes and two gaps of 14 in 540 pixels: 1 pixel a byte.
TEST(StripLayout, AWideSpanShowsTheTouchedLinesWithGaps) {
  const StripLayout s = StripLayout::Of({40, 0, 20, 1}, 540);
  ASSERT_EQ(s.windows.size(), 3u);
  EXPECT_EQ(s.windows[0].hi, 256u);
  EXPECT_EQ(s.windows[1].lo, 2560u);
  EXPECT_DOUBLE_EQ(s.gap, 14);
  EXPECT_DOUBLE_EQ(s.px_per_byte, 1.0);
  EXPECT_DOUBLE_EQ(s.windows[1].x, 256 + 14);
  EXPECT_DOUBLE_EQ(s.windows[2].x, 256 + 14 + 128 + 14);
  double x = 0;
  ASSERT_TRUE(s.X(5120 + 10, &x));
  EXPECT_DOUBLE_EQ(x, 412 + 10);
}

// 32 lanes 256 bytes apart: 32 lines, every other one, 32 windows; past 24 the gaps are 6 (the
// panel's own copy kept 14 and had come to differ from the SVG's).
TEST(StripLayout, ManyWindowsGetNarrowGaps) {
  std::vector<std::uint64_t> lines;
  for (std::uint64_t k = 0; k < 32; ++k) lines.push_back(2 * k);
  const StripLayout s = StripLayout::Of(lines, 32 * 128 + 31 * 6);
  ASSERT_EQ(s.windows.size(), 32u);
  EXPECT_DOUBLE_EQ(s.gap, 6);
  EXPECT_DOUBLE_EQ(s.px_per_byte, 1.0);
  EXPECT_DOUBLE_EQ(s.windows[31].x, 31 * (128 + 6));
  EXPECT_TRUE(StripLayout::Of({}, 100).windows.empty());
}

}  // namespace
}  // namespace ws
