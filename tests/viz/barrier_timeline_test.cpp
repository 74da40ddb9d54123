// The barriers view's model (viz/barrier_timeline.h): what the panel draws, as numbers. The
// barrier lesson, worked by hand: thread t loads out[t] (time 0, its clock then 1), works
// t * skew units, and reaches __syncthreads() at 1 + t * skew. With 128 threads the last
// arrives at 1 + 127 skew, and everyone leaves then.
#include "warpscope/viz/barrier_timeline.h"

#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"
#include "warpscope/viz/axis.h"

namespace ws {
namespace {

using Kind = TimelineSpan::Kind;

struct BarrierRun {
  LessonRun run;
  BlockView block;
};

BarrierRun Barrier(Params p) {
  auto r = RunLesson("barrier", "uneven", p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  BarrierRun out{std::move(r).value(), {}};
  out.block = BuildBlockView(out.run.main_launch(), 0);
  return out;
}

// skew 100: warp w's threads arrive from 1 + 3200 w to 1 + 100 (32 w + 31) = 3101 + 3200 w, and
// all leave at 1 + 12700 = 12701. Warp w waits 12701 - (3101 + 3200 w) = 9600 - 3200 w: 9600,
// 6400, 3200 and none for warp 3, whose last thread is the block's last.
TEST(BarrierTimeline, EachWarpWorksArrivesAndWaitsForTheLastThread) {
  const BarrierRun r = Barrier({{"threads", 128}, {"skew", 100}});
  const BarrierTimeline m = MakeBarrierTimeline(r.run.main_launch(), r.block, false, 0);
  EXPECT_TRUE(m.message.empty());
  ASSERT_EQ(m.rows.size(), 4u);
  for (std::uint32_t w = 0; w < 4; ++w) {
    const TimelineRow& row = m.rows[w];
    EXPECT_EQ(row.label, "warp " + std::to_string(w));
    ASSERT_GE(row.spans.size(), 3u) << w;
    EXPECT_EQ(row.spans[0], (TimelineSpan{Kind::kWork, 0, 1 + 3200u * w}));
    EXPECT_EQ(row.spans[1], (TimelineSpan{Kind::kArriving, 1 + 3200u * w, 3101 + 3200u * w}));
    EXPECT_EQ(row.Total(Kind::kWaiting), 9600u - 3200 * w) << w;
  }
  EXPECT_EQ(m.rows[0].spans[2], (TimelineSpan{Kind::kWaiting, 3101, 12701}));
  // After the release each thread stores out[t] at 12702: one unit of work after 12701.
  EXPECT_EQ(m.rows[0].spans.back(), (TimelineSpan{Kind::kWork, 12701, 12702}));
  ASSERT_EQ(m.releases.size(), 1u);
  EXPECT_EQ(m.releases[0].at, 12701u);
  EXPECT_EQ(m.releases[0].skew, 12700u);      // 127 x 100
  EXPECT_EQ(m.releases[0].max_wait, 12700u);  // thread 0, as the lesson's text says
  EXPECT_EQ(m.axis, "0 .. 12702 logical time");
}

// Per thread of warp 1: thread t waits 12701 - (1 + 100 t) = 12700 - 100 t.
TEST(BarrierTimeline, PerThreadRowsWaitLessTheLaterTheyArrive) {
  const BarrierRun r = Barrier({{"threads", 128}, {"skew", 100}});
  const BarrierTimeline m = MakeBarrierTimeline(r.run.main_launch(), r.block, true, 1);
  ASSERT_EQ(m.rows.size(), 32u);
  EXPECT_EQ(m.selected_warp, 1u);
  for (std::uint32_t k = 0; k < 32; ++k) {
    const std::uint32_t t = 32 + k;
    EXPECT_EQ(m.rows[k].label, "t" + std::to_string(t));
    EXPECT_EQ(m.rows[k].Total(Kind::kWaiting), 12700u - 100 * t);
    EXPECT_EQ(m.rows[k].Total(Kind::kArriving), 0u);  // one thread arrives at one time
  }
  // A warp past the block's last is the last one.
  EXPECT_EQ(MakeBarrierTimeline(r.run.main_launch(), r.block, true, 9).selected_warp, 3u);
}

// skew 0: every thread arrives at 1 and leaves at once: nothing to wait for.
TEST(BarrierTimeline, EvenWorkWaitsForNothing) {
  const BarrierRun r = Barrier({{"threads", 128}, {"skew", 0}});
  const BarrierTimeline m = MakeBarrierTimeline(r.run.main_launch(), r.block, false, 0);
  ASSERT_EQ(m.rows.size(), 4u);
  for (const TimelineRow& row : m.rows) {
    EXPECT_EQ(row.Total(Kind::kWaiting), 0u);
    EXPECT_EQ(row.Total(Kind::kArriving), 0u);
    EXPECT_EQ(row.Total(Kind::kWork), 2u);  // the load, then the store after the release
  }
  EXPECT_EQ(m.releases[0].skew, 0u);
}

// A kernel with no barrier is the message alone, with no rows under it.
TEST(BarrierTimeline, AKernelWithNoBarrierIsTheMessageAlone) {
  auto r = RunLesson("stride-copy", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const BlockView bv = BuildBlockView(r->main_launch(), 0);
  const BarrierTimeline m = MakeBarrierTimeline(r->main_launch(), bv, false, 0);
  EXPECT_EQ(m.message,
            "This kernel has no __syncthreads(). Try barrier, transpose (coalesced), reverse or "
            "matmul (tiled).");
  EXPECT_TRUE(m.rows.empty());
  EXPECT_TRUE(m.releases.empty());
}

// 32 banks across 300 pixels, 9.375 a cell: a label ("28") 14 pixels wide and a 5-pixel gap
// need 19, which 2 cells (18.75) miss and 4 (37.5) give: every fourth bank is numbered. At 40
// pixels a cell every bank is.
TEST(AxisLabels, NeighbouringLabelsNeverRunTogether) {
  EXPECT_EQ(AxisLabelStep(300.0f / 32, 14, 5), 4);
  EXPECT_EQ(AxisLabelStep(40, 14, 5), 1);
  EXPECT_EQ(AxisLabelStep(10, 14, 5), 2);  // 20 >= 19
  EXPECT_EQ(AxisLabelStep(2, 14, 5), 16);  // 32 >= 19; 8 x 2 = 16 is not
}

}  // namespace
}  // namespace ws
