// The block-scheduler model (trace/block_schedule.h) against the textbook's figures: 4.12 (the
// same blocks two at a time or four at a time) and the G80 slides (3 blocks of 256 threads per SM).
#include "warpscope/trace/block_schedule.h"

#include <gtest/gtest.h>

#include <vector>

namespace ws {
namespace {

TEST(BlockSchedule, TwelveEqualBlocksOnTwoSmsOfThreeSlotsTakeTwoWaves) {
  // 2 SMs x 3 resident blocks = 6 at a time: blocks 0-5 at t = 0, dealt round-robin (SM 0, 1, 0,
  // 1, ...), blocks 6-11 at t = 100 when the first wave ends. Makespan 2 x 100.
  const auto placed = ScheduleBlocks(std::vector<double>(12, 100.0), 2, 3);
  ASSERT_EQ(placed.size(), 12u);
  for (std::uint32_t b = 0; b < 12; ++b) {
    EXPECT_EQ(placed[b].sm, static_cast<int>(b % 2)) << b;
    EXPECT_EQ(placed[b].start, b < 6 ? 0.0 : 100.0) << b;
  }
  const ScheduleSummary s = SummarizeSchedule(placed, 2);
  EXPECT_EQ(s.makespan, 200.0);
  EXPECT_EQ(s.blocks_per_sm, (std::vector<int>{6, 6}));
  EXPECT_EQ(s.most_resident, 3);
  EXPECT_DOUBLE_EQ(s.busy, 1.0);
}

TEST(BlockSchedule, TextbookFigure412TwiceTheSmsHalfTheTime) {
  // Figure 4.12: 8 blocks, one at a time per SM. Two SMs: 4 waves of 100; four SMs: 2 waves.
  const std::vector<double> eight(8, 100.0);
  EXPECT_EQ(SummarizeSchedule(ScheduleBlocks(eight, 2, 1), 2).makespan, 400.0);
  EXPECT_EQ(SummarizeSchedule(ScheduleBlocks(eight, 4, 1), 4).makespan, 200.0);
  EXPECT_EQ(SummarizeSchedule(ScheduleBlocks(eight, 8, 1), 8).makespan, 100.0);
  // More SMs than blocks: no faster than one block.
  EXPECT_EQ(SummarizeSchedule(ScheduleBlocks(eight, 16, 1), 16).makespan, 100.0);
}

TEST(BlockSchedule, ABlockGoesToTheSmThatFreesFirstNotRoundRobin) {
  // Durations 100, 300, 100, 100 on 2 SMs of one slot: block 1 holds SM 1 until 300, so blocks
  // 2 and 3 both go to SM 0 (at 100 and 200). Round-robin would have put block 3 on SM 1.
  const auto placed = ScheduleBlocks({100, 300, 100, 100}, 2, 1);
  EXPECT_EQ(placed[2].sm, 0);
  EXPECT_EQ(placed[2].start, 100.0);
  EXPECT_EQ(placed[3].sm, 0);
  EXPECT_EQ(placed[3].start, 200.0);
  const ScheduleSummary s = SummarizeSchedule(placed, 2);
  EXPECT_EQ(s.blocks_per_sm, (std::vector<int>{3, 1}));
  EXPECT_EQ(s.makespan, 300.0);
  EXPECT_DOUBLE_EQ(s.busy, 1.0);  // SM 0 busy 0-300, SM 1 busy 0-300
}

TEST(BlockSchedule, AnIdleSmLowersBusy) {
  // 3 blocks of 100 on 2 SMs of one slot: the third runs alone, SM 1 idles 100-200.
  // busy = (200 + 100) / (2 x 200) = 0.75.
  const ScheduleSummary s = SummarizeSchedule(ScheduleBlocks({100, 100, 100}, 2, 1), 2);
  EXPECT_EQ(s.makespan, 200.0);
  EXPECT_DOUBLE_EQ(s.busy, 0.75);
  // The device's SMs that ran nothing are counted too: 4 SMs, 3 blocks -> [1, 1, 1, 0].
  EXPECT_EQ(SummarizeSchedule(ScheduleBlocks({100, 100, 100}, 4, 1), 4).blocks_per_sm,
            (std::vector<int>{1, 1, 1, 0}));
}

TEST(BlockSchedule, TheDispatcherPlacesOneBlockAtATime) {
  BlockDispatcher d(2, 2);
  BlockPlacement a = d.Place(0);
  EXPECT_EQ(a.sm, 0);
  d.Finish(a, 50);
  BlockPlacement b = d.Place(1);  // SM 1 runs nothing yet: it gets the block
  EXPECT_EQ(b.sm, 1);
  EXPECT_EQ(b.start, 0.0);
  d.Finish(b, 80);
  BlockPlacement c = d.Place(2);  // both SMs hold one block; SM 0 first
  EXPECT_EQ(c.sm, 0);
  EXPECT_EQ(c.start, 0.0);
}

TEST(BlockSchedule, BadShapesNameTheLimit) {
  EXPECT_FALSE(CheckBlockSchedule(0, 3).ok());
  EXPECT_NE(CheckBlockSchedule(0, 3).message().find("sms = 0"), std::string::npos);
  EXPECT_FALSE(CheckBlockSchedule(2, 0).ok());
  EXPECT_NE(CheckBlockSchedule(2, 0).message().find("over the device's limits"), std::string::npos);
  EXPECT_TRUE(CheckBlockSchedule(132, 32).ok());
  EXPECT_EQ(SummarizeSchedule({}, 3).blocks_per_sm, (std::vector<int>{0, 0, 0}));
}

}  // namespace
}  // namespace ws
