// What selecting a hazard does to the views' shared state (viz/session.h): the block, warp, lane
// and site of the access stepped to, the playback step on its request, and the lanes that the
// banks and coalescing views outline. Figures from the races lesson's hazards by hand.
#include <gtest/gtest.h>

#include <memory>

#include "warpscope/kernels/catalog.h"
#include "warpscope/viz/session.h"

namespace ws {
namespace {

Session Installed(const std::string& variant, Params p = {}) {
  auto r = RunLesson("races", variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  Session s;
  if (!r.ok()) return s;
  auto run = std::make_shared<const LessonRun>(std::move(r).value());
  s.Install(run, BuildBlockView(run->main_launch(), 0));
  return s;
}

// Exercise 4.10 at BLOCK_WIDTH 4: one group, RAW from line 18 (blockA[ty][tx] = ...) to line 19
// (... = blockA[tx][ty]). Its example is the first pair in block 0: thread (1,0,0) (linear 1)
// stores byte 4, the word thread (0,1,0) (linear 4) loads: 4 x (ty=1) + tx=0 = word 1 of the
// tile, byte 4, bank 1.
TEST(SessionHazard, SelectingStepsToEitherAccessAndMarksItsLanes) {
  Session s = Installed("block-transpose", {{"block_width", 4}});
  ASSERT_TRUE(s.run);
  const HazardReport& h = s.run->main_launch().hazards;
  ASSERT_EQ(h.groups.size(), 1u);
  const HazardGroup& g = h.groups[0];
  ASSERT_EQ(g.first_line, 18u);
  ASSERT_EQ(g.second_line, 19u);

  s.SelectHazard(0);  // the second access: thread 4's load on line 19
  EXPECT_EQ(s.sel.hazard, 0);
  EXPECT_EQ(s.sel.hazard_side, 1);
  EXPECT_EQ(s.sel.block, 0u);
  EXPECT_EQ(s.sel.warp, 0);  // 16 threads: one warp
  EXPECT_EQ(s.sel.lane, 4);
  EXPECT_EQ(s.sel.site, static_cast<int>(g.second_site));
  ASSERT_GE(s.step, 0) << "playback stands on the access";
  const BlockRequest* req = s.current_request();
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(req->site, g.second_site);
  HazardMark m = MarkHazard(s, s.sel.block, *req);
  ASSERT_EQ(m.group, &g);
  EXPECT_EQ(m.address, 4u);
  EXPECT_EQ(m.lanes, 1u << 4);  // only thread 4 loads word 1

  const int second_step = s.step;
  s.SelectHazard(0, 0);  // the first access: thread 1's store on line 18
  EXPECT_EQ(s.sel.hazard_side, 0);
  EXPECT_EQ(s.sel.lane, 1);
  EXPECT_EQ(s.sel.site, static_cast<int>(g.first_site));
  EXPECT_LT(s.step, second_step) << "the store comes before the load";
  req = s.current_request();
  ASSERT_NE(req, nullptr);
  m = MarkHazard(s, s.sel.block, *req);
  ASSERT_EQ(m.group, &g);
  EXPECT_EQ(m.lanes, 1u << 1);  // only thread 1 stores word 1

  // Another block's request is not marked (shared memory is the block's own), nor is a request
  // once the hazard is let go.
  const BlockView other = BuildBlockView(s.run->main_launch(), 1);
  ASSERT_FALSE(other.requests.empty());
  EXPECT_EQ(MarkHazard(s, 1, other.requests[0]).group, nullptr);
  s.SelectHazard(-1);
  EXPECT_EQ(s.selected_hazard(), nullptr);
  EXPECT_EQ(MarkHazard(s, 0, *req).group, nullptr);
}

// Exercise 4.8: thread t stores its value in slot t (line 60) and loads its neighbour's (line
// 61). The first pair found: thread 0's store of slot 0 and thread 31's load of it (31 reads
// (31 + 1) mod 32 = 0).
TEST(SessionHazard, TheWarpExchangeExampleIsThreadsZeroAndThirtyOne) {
  Session s = Installed("warp-exchange");
  ASSERT_TRUE(s.run);
  ASSERT_EQ(s.run->main_launch().hazards.groups.size(), 1u);
  s.SelectHazard(0);
  EXPECT_EQ(s.sel.lane, 31);
  const BlockRequest* req = s.current_request();
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(MarkHazard(s, 0, *req).lanes, 1u << 31);
  s.SelectHazard(0, 0);
  EXPECT_EQ(s.sel.lane, 0);
  req = s.current_request();
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(MarkHazard(s, 0, *req).lanes, 1u);
  // An index past the last group selects nothing.
  s.SelectHazard(1);
  EXPECT_EQ(s.sel.hazard, -1);
}

}  // namespace
}  // namespace ws
