// The scheduling lessons of issue 7 on the emulator: scalability's block timeline against the
// textbook's figures and the G80 slides, and transfers (GPU only) refusing the emulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/occupancy.h"

namespace ws {
namespace {

// On the emulator each block holds its SM for `work` units, 1 for the barrier and 1 for each of
// thread 0's three stores: work + 4. Its end stamp is read before the last store: start + work
// + 3.
Result<LessonRun> Scalability(const Params& p) {
  return RunLesson("scalability", "", p, "emu", RunOptions{});
}

TEST(ScalabilityLesson, G80DefaultTwelveBlocksTakeTwoWavesOnTwoSmsAndOneOnFour) {
  // cc1.0: 768 threads per SM, so 3 blocks of 256 threads (the slides' "256 * 3"). 2 SMs hold
  // 6: two waves, makespan 104 + 103 = 207. 4 SMs hold all 12: 103.
  auto two = Scalability({});
  ASSERT_TRUE(two.ok()) << two.status().message();
  EXPECT_TRUE(two->check.ok) << two->check.message;
  const nlohmann::json& m = two->metrics();
  EXPECT_EQ(m.at("blocks_per_sm_limit"), 3);
  EXPECT_EQ(m.at("limiter"), "warps");  // 24 warps per SM, 8 per block
  EXPECT_EQ(m.at("waves"), 2);
  EXPECT_EQ(m.at("makespan").get<double>(), 207.0);
  EXPECT_EQ(m.at("blocks_per_sm"), (std::vector<int>{6, 6}));
  EXPECT_EQ(m.at("time_unit"), "units");
  auto four = Scalability({{"sms", 4}});
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->metrics().at("makespan").get<double>(), 103.0);
  EXPECT_EQ(four->metrics().at("waves"), 1);
  // Both SMs hold blocks from 0 to the end (each block keeps its slot 104 units): none idles.
  EXPECT_DOUBLE_EQ(m.at("busy").get<double>(), 1.0);
  // The timing is the makespan at 64 cycles a unit and the G80's 1.35 GHz shader clock.
  EXPECT_EQ(two->timing.kind, "modeled");
  EXPECT_NEAR(two->timing.ms, 207 * 64 / 1.35e6, 1e-12);
}

TEST(ScalabilityLesson, TextbookFigure412OneBlockPerSm) {
  // 512 threads on cc1.0: 768 / 512 = 1 block per SM. 8 blocks: 4 waves on 2 SMs (3 x 104 + 103
  // = 415), 2 waves on 4 (104 + 103 = 207).
  auto two = Scalability({{"blocks", 8}, {"threads", 512}});
  ASSERT_TRUE(two.ok()) << two.status().message();
  EXPECT_EQ(two->metrics().at("blocks_per_sm_limit"), 1);
  EXPECT_EQ(two->metrics().at("makespan").get<double>(), 415.0);
  auto four = Scalability({{"blocks", 8}, {"threads", 512}, {"sms", 4}});
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->metrics().at("makespan").get<double>(), 207.0);
  // The replay of the same blocks on other SM counts agrees with the runs.
  std::map<int, double> replay;
  for (const auto& point : two->metrics().at("vary_sms"))
    replay[point.at("sms").get<int>()] = point.at("makespan").get<double>();
  EXPECT_EQ(replay.at(2), 415.0);
  EXPECT_EQ(replay.at(4), 207.0);
  EXPECT_EQ(replay.at(8), 103.0);
  EXPECT_EQ(replay.at(1), 7 * 104.0 + 103);
}

TEST(ScalabilityLesson, WithSkewTheNextBlockGoesToTheSmThatFreedFirst) {
  // One block per SM, 2 SMs, skew 10: block b holds its SM 104 + 10 x (2b mod 5) units:
  // 104, 124, 144, 114, 134. b0 SM 0 [0, 104); b1 SM 1 [0, 124); b2 SM 0 [104, 248);
  // b3 SM 1 [124, 238); b4: SM 1 frees at 238, before SM 0 at 248, so SM 1 [238, 372), not
  // SM 0 as round-robin would have it. Makespan: the last end stamp, 372 - 1.
  auto r = Scalability({{"blocks", 5}, {"threads", 512}, {"skew", 10}});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->check.ok) << r->check.message;
  const nlohmann::json& tl = r->metrics().at("timeline");
  ASSERT_EQ(tl.size(), 5u);
  EXPECT_EQ(tl[4].at(1), 1);                    // SM 1
  EXPECT_EQ(tl[4].at(2).get<double>(), 238.0);  // start
  EXPECT_EQ(r->metrics().at("blocks_per_sm"), (std::vector<int>{2, 3}));
  EXPECT_EQ(r->metrics().at("makespan").get<double>(), 371.0);
}

// The index of cc9.0 among the `device` choices.
long long Cc90() {
  const std::vector<std::string> names = OccupancyDeviceNames();
  return std::find(names.begin(), names.end(), "cc9.0") - names.begin();
}

TEST(ScalabilityLesson, TheDevicesRulesSetTheBlocksPerSm) {
  // cc9.0 (H100): 2048 threads, 32 blocks per SM: 8 blocks of 256 threads.
  auto h = Scalability({{"device", Cc90()}, {"blocks", 64}});
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->metrics().at("blocks_per_sm_limit"), 8);
  EXPECT_EQ(h->metrics().at("waves"), 4);  // 64 / (2 x 8)
  // Registers on a G80: 8192 per SM; 32 per thread x 256 threads = 8192 per block: 1 block.
  auto regs = Scalability({{"registers", 32}});
  ASSERT_TRUE(regs.ok()) << regs.status().message();
  EXPECT_EQ(regs->metrics().at("blocks_per_sm_limit"), 1);
  EXPECT_EQ(regs->metrics().at("limiter"), "registers");
  // 1024 threads do not fit a cc1.0 block (512 at most): refused, naming the limit.
  auto big = Scalability({{"threads", 1024}});
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("1024 threads per block is over the limit of 512"),
            std::string::npos)
      << big.status().message();
  // 1024 threads x 255 registers on cc9.0: 255 x 32 = 8160 registers a warp, allocated in units
  // of 256: 8192, x 32 warps = 262,144, over the 65,536 of an SM.
  auto regs_over = Scalability({{"threads", 1024}, {"registers", 255}, {"device", Cc90()}});
  ASSERT_FALSE(regs_over.ok());
  EXPECT_NE(regs_over.status().message().find("need 262144 registers (as allocated), over the "
                                              "limit of 65536 per SM"),
            std::string::npos)
      << regs_over.status().message();
}

TEST(TransfersLesson, TheEmulatorSaysItNeedsAGpu) {
  auto r = RunLesson("transfers", "pinned", {}, "emu", RunOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), NeedsGpuMessage(*FindLesson("transfers")));
  EXPECT_NE(r.status().message().find("--backend cuda"), std::string::npos);
  // Its size choices are the sweep's powers of 4 from 64 KB to 256 MB.
  const LessonInfo* info = FindLesson("transfers");
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->needs_gpu());
  EXPECT_EQ(info->params[0].choices.front(), "64 KB");
  EXPECT_EQ(info->params[0].choices.back(), "256 MB");
}

}  // namespace
}  // namespace ws
