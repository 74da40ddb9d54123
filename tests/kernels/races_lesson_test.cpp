// The races lesson (kernels/lessons/races/) and the hazard analysis on every lesson: each count is
// worked out by hand next to its assertion; the schedules make the races change the output.
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/hazards.h"

#include <nlohmann/json.hpp>

namespace ws {
namespace {

RunOptions Under(const std::string& schedule, unsigned workers = 0) {
  RunOptions o;
  o.schedule = *ParseSchedule(schedule);
  o.workers = workers;
  return o;
}

LessonRun Races(const std::string& variant, Params p = {}, const RunOptions& o = RunOptions{}) {
  auto r = RunLesson("races", variant, p, "emu", o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

const HazardReport& H(const LessonRun& r) {
  return r.main_launch().hazards;
}

std::uint64_t Wrong(const LessonRun& r) {
  return r.metrics().at("wrong").get<std::uint64_t>();
}

// Every variant of every other lesson keeps its accesses apart with barriers (or atomics):
// no hazard among the kept blocks, at the lesson's defaults (small where the emulator's work is
// large).
TEST(Hazards, NoOtherLessonVariantHasAny) {
  int runs = 0;
  for (const LessonInfo& lesson : Lessons()) {
    const LessonInfo* info = &lesson;
    if (!info->runs_kernel() || info->needs_gpu() || info->id == "races") continue;
    for (const VariantSpec& v : info->variants) {
      if (!v.gpu_refusal.empty()) continue;  // divergent-barrier: the emulator refuses it
      Params p = info->DefaultParams();
      for (const ParamSpec& spec : info->params) {
        // Keep the run small: the smallest size parameter where the default is big.
        if (info->emulator_cost != nullptr && info->emulator_cost(p) > 1e6) p[spec.name] = spec.min;
      }
      auto r = RunLesson(info->id, v.name, p, "emu", RunOptions{});
      if (!r.ok()) {
        ADD_FAILURE() << info->id << "/" << v.name << ": " << r.status().message();
        continue;
      }
      ++runs;
      for (const LaunchTrace& t : r->launches) {
        EXPECT_EQ(t.hazards.Total(), 0u)
            << info->id << "/" << v.name << ": " << HazardsText(t.hazards, t);
      }
    }
  }
  EXPECT_GT(runs, 30);
}

// Exercise 4.10: thread (x, y) writes blockA[y][x] and reads blockA[x][y], which thread (y, x)
// wrote: every off-diagonal thread reads another's slot, W^2 - W RAW pairs per block, and 4
// blocks (2 x 2 tiles) are all checked.
TEST(RacesLesson, BlockTransposeRacesForEveryWidthFromTwo) {
  EXPECT_EQ(H(Races("block-transpose", {{"block_width", 1}})).Total(), 0u);  // reads its own
  for (int w : {2, 4, 5, 6, 8, 16, 20}) {
    const LessonRun r = Races("block-transpose", {{"block_width", w}});
    const HazardReport& h = H(r);
    ASSERT_EQ(h.groups.size(), 1u) << w;
    const HazardGroup& g = h.groups[0];
    EXPECT_EQ(g.kind, HazardKind::kRaw);
    EXPECT_EQ(g.space, MemorySpace::kShared);
    EXPECT_EQ(g.count, 4u * static_cast<std::uint64_t>(w * w - w)) << w;
    // One warp while W^2 <= 32 (W <= 5): every pair inside it.
    if (w <= 5) {
      EXPECT_TRUE(g.SameWarpOnly()) << w;
    }
    EXPECT_EQ(r.metrics().at("hazards"), g.count);
  }
  // W = 6: 36 threads, warp 1 = threads 32..35 = (x 2..5, y 5). Their mirrors (5, 2..5) are
  // threads 17, 23, 29, 35: three pairs of threads cross the warps (35 is diagonal), two
  // hazards each (each writes what the other reads): 6 of 30 per block cross, 24 do not.
  const HazardGroup g6 = H(Races("block-transpose", {{"block_width", 6}})).groups.at(0);
  EXPECT_EQ(g6.count, 4u * 30u);
  EXPECT_EQ(g6.same_warp, 4u * 24u);
  // The fix has none.
  for (int w : {2, 6, 20})
    EXPECT_EQ(H(Races("block-transpose-fixed", {{"block_width", w}})).Total(), 0u) << w;
}

// Under lockstep a warp's lanes store their whole row before any loads: right while the block
// is one warp (W <= 5: 25 threads), wrong from W = 6 on; in-order (thread 0 first) is wrong from
// W = 2 (thread 1 reads blockA[1][0] before thread 4 writes it); the fix is right under all.
TEST(RacesLesson, BlockTransposeIsRightInLockstepOnlyWhileTheBlockIsOneWarp) {
  for (int w = 1; w <= 8; ++w) {
    const LessonRun r = Races("block-transpose", {{"block_width", w}}, Under("lockstep"));
    EXPECT_EQ(r.check.ok, w <= 5) << w << ": " << r.check.message;
  }
  EXPECT_FALSE(Races("block-transpose", {{"block_width", 2}}, Under("in-order")).check.ok);
  EXPECT_TRUE(Races("block-transpose", {{"block_width", 1}}, Under("in-order")).check.ok);
  for (const char* s : {"in-order", "reverse", "lockstep", "random:1", "random:7"})
    EXPECT_TRUE(Races("block-transpose-fixed", {{"block_width", 16}}, Under(s)).check.ok) << s;
}

TEST(RacesLesson, BlockTransposeGoesWrongUnderRandomAndSaysHowMuch) {
  // W = 4 in one warp: right in lockstep, wrong when the lanes interleave at random.
  const LessonRun r = Races("block-transpose", {{"block_width", 4}}, Under("random:1"));
  EXPECT_FALSE(r.check.ok);
  const std::uint64_t wrong = Wrong(r);
  EXPECT_GT(wrong, 0u);
  EXPECT_LE(wrong, 4u * 12u);  // only off-diagonal elements can be wrong: 12 per tile
  EXPECT_NE(r.check.message.find(std::to_string(wrong) + " of 64 elements wrong"),
            std::string::npos)
      << r.check.message;
}

TEST(RacesLesson, ASchedulesOutputIsTheSameWhateverTheWorkers) {
  for (const char* s : {"random:3", "lockstep", "reverse"}) {
    const LessonRun one = Races("transpose-no-sync", {{"width", 128}}, Under(s, 1));
    const LessonRun two = Races("transpose-no-sync", {{"width", 128}}, Under(s, 2));
    const LessonRun four = Races("transpose-no-sync", {{"width", 128}}, Under(s, 4));
    EXPECT_EQ(one.check.message, two.check.message) << s;
    EXPECT_EQ(one.check.message, four.check.message) << s;
    EXPECT_EQ(Wrong(one), Wrong(four)) << s;
  }
  // Two seeds give two interleavings (different wrong counts here).
  EXPECT_NE(Wrong(Races("block-transpose", {{"block_width", 8}}, Under("random:1"))),
            Wrong(Races("block-transpose", {{"block_width", 8}}, Under("random:2"))));
}

// The coalesced transpose without its barrier, 64 x 64 (4 blocks of 32 x 32): thread (x, y)
// reads tile[x][y], written by thread (y, x) of warp x; 1024 - 32 diagonal = 992 RAW pairs per
// block, none inside one warp (warp y reads what warp x wrote, x != y).
TEST(RacesLesson, TransposeWithoutItsBarrier) {
  const LessonRun r = Races("transpose-no-sync", {{"width", 64}});
  ASSERT_EQ(H(r).groups.size(), 1u);
  EXPECT_EQ(H(r).groups[0].count, 4u * 992u);
  EXPECT_EQ(H(r).groups[0].same_warp, 0u);
  EXPECT_EQ(H(r).groups[0].kind, HazardKind::kRaw);
  // Lockstep runs warp 0 to its end first: it reads column 0 of the tile, written by warps 0..31:
  // only its own element (0, 0) is there. Every warp w reads slots of warps 0..31 and finds those
  // of warps <= w written: in one block, warp w gets w + 1 of 32 right, 32 - (w + 1) wrong:
  // 31 + 30 + ... + 0 = 496 per block, 4 blocks: 1984 of 4096.
  EXPECT_EQ(Wrong(Races("transpose-no-sync", {{"width", 64}}, Under("lockstep"))), 1984u);
}

// Every block is checked, not only the kept ones (4 by default): at 256 x 256 the transpose
// without its barrier is 8 x 8 = 64 blocks of 32 x 32, each with the 992 RAW pairs above:
// 63,488. The example is a kept block's (block 0), so that selecting it shows its steps.
TEST(RacesLesson, EveryBlockOfTheGridIsChecked) {
  const LessonRun r = Races("transpose-no-sync", {{"width", 256}});
  const HazardReport& h = H(r);
  EXPECT_TRUE(h.whole_grid);
  EXPECT_EQ(h.blocks_in_grid, 64u);
  ASSERT_EQ(h.groups.size(), 1u);
  EXPECT_EQ(h.groups[0].count, 64u * 992u);
  EXPECT_EQ(h.groups[0].same_warp, 0u);
  EXPECT_EQ(h.groups[0].example_first.block, 0u);
  EXPECT_EQ(h.shared_accesses, 64u * 1024u * 2u);  // a store and a load per thread
  EXPECT_EQ(h.Checked().rfind("every block of 64: ", 0), 0u) << h.Checked();
  // Whatever the workers, the same report.
  RunOptions one;
  one.workers = 1;
  EXPECT_EQ(HazardsJson(H(Races("transpose-no-sync", {{"width", 256}}, one))), HazardsJson(h));
}

// What the emulator finds as the blocks run is what FindHazards finds in the records of every
// block, kept: the same groups, counts and examples, whatever the schedule.
TEST(RacesLesson, TheCheckAsItRunsIsTheCheckOfEveryBlocksRecords) {
  struct Case {
    const char* variant;
    Params params;
    const char* schedule;
  };
  const Case cases[] = {{"transpose-no-sync", {{"width", 128}}, "in-order"},
                        {"transpose-no-sync", {{"width", 128}}, "random:5"},
                        {"block-transpose", {{"block_width", 6}}, "in-order"},
                        {"warp-exchange", {{"threads", 64}}, "lockstep"},
                        {"reverse-no-sync", {{"threads", 64}}, "reverse"},
                        {"histogram-no-atomic", {{"threads", 128}}, "lockstep"}};
  for (const Case& c : cases) {
    RunOptions o = Under(c.schedule);
    o.keep_all_blocks = true;
    const LessonRun r = Races(c.variant, c.params, o);
    const LaunchTrace& t = r.main_launch();
    const HazardReport again = FindHazards(t);
    EXPECT_TRUE(t.hazards.whole_grid);
    EXPECT_FALSE(again.whole_grid);
    ASSERT_FALSE(again.groups.empty()) << c.variant;
    nlohmann::json a = HazardsJson(t.hazards), b = HazardsJson(again);
    for (const char* k : {"checked", "whole_grid", "blocks"}) {
      a.erase(k);
      b.erase(k);
    }
    EXPECT_EQ(a, b) << c.variant << " " << c.schedule;
  }
}

// Exercise 4.8 with 32 threads: thread t reads s[(t + 1) % 32], written by its neighbour in the
// same warp: 32 RAW pairs per block, all in one warp; 4 blocks.
TEST(RacesLesson, WarpExchangeRacesOnlyInsideTheWarp) {
  const LessonRun r = Races("warp-exchange");
  ASSERT_EQ(H(r).groups.size(), 1u);
  EXPECT_EQ(H(r).groups[0].count, 4u * 32u);
  EXPECT_TRUE(H(r).groups[0].SameWarpOnly());
  EXPECT_TRUE(Races("warp-exchange", {}, Under("lockstep")).check.ok);
  // In order, thread t runs to its end before t + 1 writes: 31 of 32 wrong per block (thread 31
  // reads s[0], already there): 124 of 128.
  EXPECT_EQ(Wrong(Races("warp-exchange", {}, Under("in-order"))), 124u);
  // 64 threads: two warps; lockstep runs warp 0 first, whose thread 31 reads s[32]: wrong, one
  // per block.
  EXPECT_EQ(Wrong(Races("warp-exchange", {{"threads", 64}}, Under("lockstep"))), 4u);
}

// The reverse without its barrier, 64 threads: thread t reads s[63 - t], which thread 63 - t
// writes; 64 pairs, none in one warp (t < 32 <=> 63 - t > 31).
TEST(RacesLesson, ReverseWithoutItsBarrier) {
  const Params n64 = {{"threads", 64}};
  const LessonRun r = Races("reverse-no-sync", n64);
  ASSERT_EQ(H(r).groups.size(), 1u);
  EXPECT_EQ(H(r).groups[0].count, 64u);
  EXPECT_EQ(H(r).groups[0].same_warp, 0u);
  EXPECT_EQ(H(r).groups[0].first_line + 1, H(r).groups[0].second_line);  // s[t] = ...; d[t] = s[tr]
  // In order: threads 0..31 read slots 63..32 before their writers run (an unwritten slot holds
  // -1, never a right answer); 32..63 read 31..0, written: 32 wrong. Reverse order is the
  // mirror: also 32.
  EXPECT_EQ(Wrong(Races("reverse-no-sync", n64, Under("in-order"))), 32u);
  EXPECT_EQ(Wrong(Races("reverse-no-sync", n64, Under("reverse"))), 32u);
  // Lockstep: warp 0 runs to its end first and reads warp 1's unwritten slots: 32 wrong.
  EXPECT_EQ(Wrong(Races("reverse-no-sync", n64, Under("lockstep"))), 32u);
  // 32 threads, one warp: 32 pairs, all inside it; lockstep gets it right.
  const LessonRun r32 = Races("reverse-no-sync", {{"threads", 32}}, Under("lockstep"));
  EXPECT_TRUE(H(r32).groups.at(0).SameWarpOnly());
  EXPECT_EQ(H(r32).groups.at(0).count, 32u);
  EXPECT_TRUE(r32.check.ok) << r32.check.message;
}

// The slides' race condition: bins[data[i] % bins] += 1, one block of 128 threads (4 warps), 8
// bins, so 16 threads per bin. Each pair of them races three ways (one's load against the other's
// store, both ways round, and the two stores): 8 x C(16, 2) x 3 = 2,880 pairs, all in global
// memory. By the logical clock a load is step 1 and a store step 2 of every thread, so both
// load-store pairs are WAR (8 x 120 x 2 = 1,920) and the stores WAW (960). Inside a warp: 4 threads
// per bin, C(4, 2) = 6 pairs, x 8 bins x 4 warps = 192 thread pairs: 384 WAR, 192 WAW.
TEST(RacesLesson, TheHistogramWithoutAtomicsLosesIncrements) {
  const Params n128 = {{"threads", 128}};
  const LessonRun r = Races("histogram-no-atomic", n128, Under("in-order"));
  ASSERT_EQ(H(r).groups.size(), 2u);
  EXPECT_EQ(H(r).Total(), 2880u);
  EXPECT_EQ(H(r).Count(HazardKind::kWar), 1920u);
  EXPECT_EQ(H(r).Count(HazardKind::kWaw), 960u);
  for (const HazardGroup& g : H(r).groups) {
    EXPECT_EQ(g.space, MemorySpace::kGlobal);
    EXPECT_EQ(g.first_line, g.second_line);  // one line: the load and store of +=
    EXPECT_EQ(g.same_warp, g.kind == HazardKind::kWar ? 384u : 192u);
  }
  // In order a thread's load and store finish before the next thread's: every count is 16.
  EXPECT_TRUE(r.check.ok) << r.check.message;
  // Lockstep: the 4 lanes of a warp with one bin all load the same count and all store it + 1:
  // each bin gains 1 per warp, 4 in all, and all 8 are wrong. Their stores are 4 x 6 x 8 = 192
  // WAW pairs of the same value, told apart as benign; the 768 across warps are not.
  const LessonRun l = Races("histogram-no-atomic", n128, Under("lockstep"));
  EXPECT_EQ(Wrong(l), 8u);
  EXPECT_EQ(l.check.message.find("8 of 8 elements wrong: element 0 is 4, expected 16") !=
                std::string::npos,
            true)
      << l.check.message;
  EXPECT_EQ(H(l).Count(HazardKind::kWawSameValue), 192u);
  EXPECT_EQ(H(l).Count(HazardKind::kWaw), 768u);
  // Whatever the number of workers, the same (one block: no race between the emulator's own
  // threads).
  for (unsigned w : {1u, 2u, 4u})
    EXPECT_EQ(Wrong(Races("histogram-no-atomic", n128, Under("random:3", w))),
              Wrong(Races("histogram-no-atomic", n128, Under("random:3", 1))));
}

TEST(Schedule, ParsesTheFourAndNamesTheChoicesOtherwise) {
  EXPECT_EQ(ParseSchedule("random:42")->Name(), "random:42");
  EXPECT_EQ(ParseSchedule("lockstep")->kind, Schedule::Kind::kLockstep);
  EXPECT_EQ(ParseSchedule("in-order")->Name(), "in-order");
  EXPECT_EQ(ParseSchedule("reverse")->Name(), "reverse");
  EXPECT_EQ(ParseSchedule("sideways").status().message(),
            "schedule 'sideways' is not one of in-order, reverse, lockstep, random:SEED "
            "(random:1)");
  EXPECT_FALSE(ParseSchedule("random:").ok());
  EXPECT_FALSE(ParseSchedule("random:-1").ok());
}

}  // namespace
}  // namespace ws
