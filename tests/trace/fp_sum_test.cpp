// Float sums in different orders, against the slides' example and hand-worked cases.
#include "warpscope/trace/fp_sum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

TEST(FpSum, TheSlidesExampleIsNotAssociative) {
  const std::vector<float> x = {1e30f, -1e30f, 1.0f};
  EXPECT_EQ(SequentialSum(x), 1.0f);  // (1e30 + -1e30) + 1
  // Block of 4 (a zero pads it): stride 2 gives 1e30 + 1 = 1e30 and -1e30 + 0; stride 1 gives 0.
  EXPECT_EQ(TreeSum(x, 4), 0.0f);
  EXPECT_EQ(ExactSum(x), 1.0);
}

TEST(FpSum, BlockSumsAddPairwiseThenInBlockOrder) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  // Blocks of 4: (1+3)+(2+4) = 10 and (5+7)+(6+0) = 18.
  EXPECT_EQ(BlockSums(x, 4), (std::vector<float>{10, 18}));
  EXPECT_EQ(TreeSum(x, 4), 28.0f);
  // 1, 2^24, 1: one after another each 1 is lost (2^24 + 1 is a tie and rounds to the even
  // 2^24); in the kernel's order (stride 2 first) the two 1s meet first and 2 survives.
  const std::vector<float> big = {1.0f, 16777216.0f, 1.0f, 0.0f};
  EXPECT_EQ(SequentialSum(big), 16777216.0f);
  EXPECT_EQ(TreeSum(big, 4), 16777218.0f);  // (1 + 1) + (2^24 + 0)
  EXPECT_EQ(TreeSum(big, 2), 16777216.0f);  // (1 + 2^24) + (1 + 0): the 1 is lost first
  EXPECT_EQ(ExactSum(big), 16777218.0);
}

TEST(FpSum, ExactSumSurvivesCancellationAndTheBoundHolds) {
  const std::vector<float> x = {1e8f, 1.0f, -1e8f, 1e-3f, 3.0f};
  // 1e8 is exact in float; the exact sum is 4.001 (as a double of the float 1e-3).
  EXPECT_DOUBLE_EQ(ExactSum(x), 4.0 + static_cast<double>(1e-3f));
  // (n - 1) x 2^-24 x sum|x| = 4 x 2^-24 x (2e8 + 4.001)
  EXPECT_NEAR(SummationErrorBound(x), 4 * std::ldexp(1.0, -24) * (2e8 + 4.0 + 1e-3), 1e-6);
}

TEST(FpSum, TheLessonsKernelAddsInTheHostsTreeOrder) {
  auto cancel = RunLesson("fp-order", "tree", {{"data", 2}}, "emu", {});
  ASSERT_TRUE(cancel.ok()) << cancel.status().message();
  EXPECT_EQ(cancel->metrics().at("gpu_sum").get<double>(), 0.0);  // the slides' 0
  EXPECT_EQ(cancel->metrics().at("cpu_sum").get<double>(), 1.0);  // and their 1
  EXPECT_EQ(cancel->metrics().at("exact_sum").get<double>(), 1.0);
  auto mixed = RunLesson("fp-order", "tree", {}, "emu", {});
  ASSERT_TRUE(mixed.ok());
  EXPECT_TRUE(mixed->check.ok) << mixed->check.message;
  const auto& m = mixed->metrics();
  EXPECT_EQ(m.at("gpu_sum"), m.at("tree_order_sum"));
  EXPECT_EQ(m.at("vary_block")[3].at("tree_sum"), m.at("gpu_sum"));  // block 256, the default
  // The order matters: at least two block sizes give different floats, and the CPU another.
  std::set<double> sums;
  for (const auto& p : m.at("vary_block")) sums.insert(p.at("tree_sum").get<double>());
  EXPECT_GE(sums.size(), 2u);
  EXPECT_NE(m.at("cpu_sum"), m.at("gpu_sum"));
  // One emulator worker runs the blocks in order, so atomicAdd adds them in block order too.
  RunOptions one;
  one.workers = 1;
  auto atomic = RunLesson("fp-order", "atomic", {}, "emu", one);
  ASSERT_TRUE(atomic.ok());
  EXPECT_TRUE(atomic->check.ok) << atomic->check.message;
  EXPECT_EQ(atomic->metrics().at("gpu_sum"), m.at("gpu_sum"));
}

}  // namespace
}  // namespace ws
