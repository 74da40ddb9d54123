// Issue 51, item 3, for programs: a program's hazards on a GPU cover every block (the device's
// check, ws_cuda_hazards.h, then the flagged blocks' records paired on the host), in shared
// memory and in global memory across blocks, and equal the emulator's. Elsewhere these skip and
// say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {
namespace program_hazards {

std::string SkipReason() {
  const DeviceQuery q = QueryDevices();
  return q.gpus.empty() ? "no GPU: " + q.why_no_gpu : "";
}

std::uint64_t SameWarp(const HazardReport& h) {
  std::uint64_t n = 0;
  for (const HazardGroup& g : h.groups) n += g.same_warp;
  return n;
}

using test::BothRuns;
using test::RunOnBoth;

// Exercise 4.10 (examples/block_transpose.cu) at BLOCK_WIDTH 8 on a 32 x 32 matrix: 16 blocks,
// 56 RAW pairs each (64 threads less the diagonal's 8), 24 of them inside a warp (rows 0-3 and
// 4-7 are the two warps: 2 x (16 - 4)): 896 and 384, as racecheck finds.
TEST(ProgramHazardsOnGpu, BlockTransposeAtWidth8HasItsPairsInEveryBlock) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  ProgramOptions o;
  o.defines = {"BLOCK_WIDTH=8", "A_WIDTH=32", "A_HEIGHT=32"};
  const BothRuns r = RunOnBoth(test::ReadExample("block_transpose.cu"), o);
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  ASSERT_EQ(r.gpu.launches.size(), 1u);
  const HazardReport& h = r.gpu.launches[0].hazards;
  EXPECT_TRUE(h.device_scanned);
  EXPECT_TRUE(h.whole_grid) << h.Checked();
  EXPECT_EQ(h.racing_blocks, 16u);
  EXPECT_EQ(h.Total(), 896u);
  EXPECT_EQ(SameWarp(h), 384u);
  EXPECT_EQ(h.Total(), r.emu.launches.at(0).hazards.Total());
  EXPECT_EQ(SameWarp(h), SameWarp(r.emu.launches.at(0).hazards));
}

// Each block reads the next block's elements, which that block writes: a race across blocks in
// global memory. Blocks 0-61 read words blocks 1-62 write (block 62 reads block 63's, which
// block 63 does not write: its i + 128 is past n): 62 x 128 = 7,936 WAR pairs, the emulator's.
// On the GPU the blocks that read before the writer came are named by the second pass: 63 blocks
// (0-62) are flagged, block 63 touches nothing.
TEST(ProgramHazardsOnGpu, ARaceAcrossBlocksInGlobalMemoryIsFoundInEveryBlock) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text =
      "#include <cstdio>\n"
      "__global__ void shift(float* a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i + blockDim.x < n) a[i] = a[i + blockDim.x] + 1.0f;\n"
      "}\n"
      "int main() {\n"
      "  const int n = 64 * 128;\n"
      "  float* a;\n"
      "  cudaMalloc(&a, n * sizeof(float));\n"
      "  cudaMemset(a, 0, n * sizeof(float));\n"
      "  shift<<<64, 128>>>(a, n);\n"
      "  cudaDeviceSynchronize();\n"
      "  printf(\"done\\n\");\n"
      "  return 0;\n"
      "}\n";
  const BothRuns r = RunOnBoth(text);
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  ASSERT_EQ(r.gpu.launches.size(), 1u);
  const HazardReport& h = r.gpu.launches[0].hazards;
  EXPECT_TRUE(h.device_scanned);
  EXPECT_TRUE(h.whole_grid) << h.Checked();
  EXPECT_EQ(h.racing_blocks, 63u);
  EXPECT_EQ(h.Total(), 7936u);
  EXPECT_EQ(h.Total(), r.emu.launches.at(0).hazards.Total());
  ASSERT_EQ(h.groups.size(), 1u);
  EXPECT_EQ(h.groups[0].space, MemorySpace::kGlobal);
}

}  // namespace program_hazards
}  // namespace
}  // namespace ws
