#include "warpscope/trace/run_compare.h"

#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

TEST(RunCompare, TransposeNaiveAgainstPaddedInWordsAndNumbers) {
  RunOptions o;
  o.workers = 1;
  const Params size = {{"width", 64}, {"height", 64}};
  auto naive = RunLesson("transpose", "naive", size, "emu", o);
  auto padded = RunLesson("transpose", "padded", size, "emu", o);
  ASSERT_TRUE(naive.ok() && padded.ok());
  const std::vector<std::string> lines = CompareRuns(*naive, *padded);
  // Hand figures: a warp's 32 stores in naive land a column apart (64 floats = 256 B), one
  // 32-byte sector each: 32 per request; padded writes rows of 32 floats = 128 B: 4 sectors.
  // Loads are rows in both (4 sectors): not listed. Padded stages a 32 x 33 float tile (4,224 B)
  // with one __syncthreads(), each row shifted a bank, so its column reads are 1-way.
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[0], "global stores: 32 \u2192 4 sectors per request");
  EXPECT_EQ(lines[1], "shared loads: none \u2192 1-way bank conflicts");
  EXPECT_EQ(lines[2], "shared stores: none \u2192 1-way bank conflicts");
  EXPECT_EQ(lines[3], "shared memory: 0 B \u2192 4,224 B per block");
  EXPECT_EQ(lines[4], "__syncthreads() in the kernel: 0 \u2192 1");
  // The modeled time at 8192x8192 (the lesson's timed size), when the two differ.
  for (std::size_t i = 5; i < lines.size(); ++i)
    EXPECT_EQ(lines[i].rfind("time: ", 0), 0u) << lines[i];
  EXPECT_TRUE(CompareRuns(*padded, *padded).empty());

  auto coalesced = RunLesson("transpose", "coalesced", size, "emu", o);
  ASSERT_TRUE(coalesced.ok());
  // coalesced's tile is 32 x 32: a column read is 32 lanes on one bank, 32-way.
  const std::vector<std::string> cp = CompareRuns(*coalesced, *padded);
  ASSERT_GE(cp.size(), 2u);
  EXPECT_EQ(cp[0], "shared loads: 32-way \u2192 1-way bank conflicts");
  EXPECT_EQ(cp[1], "shared memory: 4,096 B \u2192 4,224 B per block");
  EXPECT_EQ(DescribeRun(*naive), "transpose naive (height=64 tile=32 width=64), emulator");
}

}  // namespace
}  // namespace ws
