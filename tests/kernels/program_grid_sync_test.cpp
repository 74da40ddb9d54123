// this_grid().sync() in a cooperative launch (issue 50, item 7; docs/PROGRAMS.md "Cooperative
// groups"): every block resident at once, each waiting for all at each grid sync; a grid sync
// outside a cooperative launch, a block that leaves early and a grid too large for the device
// stop with their reasons, as CUDA's rules say.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "program_features_programs.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/hazards.h"

namespace ws {
namespace {

TEST(GridSync, EveryBlockWaitsForAllAtEachGridSync) {
  const LessonRun r = test::RunText(test::GridSyncProgram(
      "printf(\"%s\\n\", cudaGetErrorName(cudaLaunchCooperativeKernel((void*)steps, dim3(4), "
      "dim3(64), args)));",
      false));
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  // Step s: block b reads 10 s + (b + 1) % 4.
  EXPECT_EQ(r.program->stdout_text,
            "cudaSuccess\ncudaSuccess\n11 12 13 10 21 22 23 20 31 32 33 30 \n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  // Two grid syncs a step, 3 steps, 4 blocks: each block's pass of each is an instance.
  std::uint64_t instances = 0;
  for (const BarrierStats& b : t.stats.barriers) instances += b.instances;
  EXPECT_EQ(instances, 24u);
  EXPECT_TRUE(t.hazards.grid_synced);
  // Each step's reads of the neighbour's word follow its write across a grid sync: no race.
  EXPECT_NE(t.hazards.Checked().find("within and across blocks between grid syncs"),
            std::string::npos)
      << t.hazards.Checked();
  EXPECT_EQ(t.hazards.Total(), 0u);
  EXPECT_EQ(t.engine, "fiber");
}

TEST(GridSync, AGridSyncOutsideACooperativeLaunchOrALeavingBlockStops) {
  const LessonRun plain =
      test::RunText(test::GridSyncProgram("steps<<<4, 64>>>(a, out, early);", false));
  EXPECT_NE(plain.program->failure.find(
                "this_grid().sync() in a launch that is not cooperative: launch the kernel with "
                "cudaLaunchCooperativeKernel"),
            std::string::npos)
      << plain.program->failure;
  const LessonRun early = test::RunText(test::GridSyncProgram(
      "cudaLaunchCooperativeKernel((void*)steps, dim3(4), dim3(64), args);", true));
  EXPECT_NE(early.program->failure.find("ended without reaching"), std::string::npos)
      << early.program->failure;
  EXPECT_NE(early.program->failure.find("On a GPU the grid waits for ever"), std::string::npos)
      << early.program->failure;
}

// Races across blocks are looked for between grid syncs: block b reads its neighbour's a[b + 1]
// after the sync that follows the neighbour's write (ordered: no race), then zeroes its own a[b],
// which block b - 1 reads in the same epoch: 4 pairs, one a word (a mutation that pairs across
// the sync finds 8, one that drops the epochs' shadows 0).
TEST(GridSync, ARaceAcrossBlocksBetweenTwoGridSyncsIsFound) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int* out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) a[blockIdx.x] = blockIdx.x + 1;
  grid.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = a[(blockIdx.x + 1) % 4];
  if (threadIdx.x == 0) a[blockIdx.x] = 0;
}
int main() {
  int *a, *out;
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaMallocManaged(&out, 4 * sizeof(int));
  void* args[] = {&a, &out};
  cudaLaunchCooperativeKernel((void*)k, dim3(4), dim3(32), args);
  cudaDeviceSynchronize();
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  ASSERT_EQ(r.launches.size(), 1u);
  const HazardReport& h = r.launches[0].hazards;
  EXPECT_TRUE(h.grid_synced);
  const std::string text = HazardsText(h, r.launches[0]);
  EXPECT_EQ(h.Total(), 4u) << text;
  // Between the read on line 8 and the store on line 9, in global memory.
  for (const HazardGroup& g : h.groups) {
    EXPECT_EQ(g.space, MemorySpace::kGlobal) << text;
    EXPECT_EQ(std::min(g.first_line, g.second_line), 8u) << text;
    EXPECT_EQ(std::max(g.first_line, g.second_line), 9u) << text;
  }
}

// A grid larger than the device holds at once: the hopper preset's 132 multiprocessors hold 2
// blocks of 1024 threads each (2048 threads a multiprocessor), 264 in all.
TEST(GridSync, AGridTooLargeToBeResidentIsRefusedAsCudaRefusesIt) {
  const LessonRun r = test::RunText(test::GridSyncProgram(
      "printf(\"%s\\n\", cudaGetErrorName(cudaLaunchCooperativeKernel((void*)steps, dim3(265), "
      "dim3(1024), args)));",
      false));
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text.substr(0, r.program->stdout_text.find('\n')),
            "cudaErrorCooperativeLaunchTooLarge");
  EXPECT_NE(r.program->stderr_text.find("the device holds at most 264 at once (2 a multiprocessor "
                                        "x 132)"),
            std::string::npos)
      << r.program->stderr_text;
  EXPECT_TRUE(r.launches.empty());
}

// The blocks' clocks are kept together at a grid sync: block 0 makes 200 accesses before it, block
// 1 none; after it, block 1's clock64() is past block 0's before it. A bound of the emulator's
// own (64 blocks resident) is named when passed.
TEST(GridSync, EveryBlockLeavesAtTheGridsLatestArrival) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, long long* t) {
  if (blockIdx.x == 0)
    for (int i = 0; i < 200; ++i) a[threadIdx.x] += i;
  if (threadIdx.x == 0 && blockIdx.x == 0) t[0] = clock64();
  cg::this_grid().sync();
  if (threadIdx.x == 0 && blockIdx.x == 1) t[1] = clock64();
}
int main() {
  int* a;
  long long* t;
  cudaMallocManaged(&a, 32 * sizeof(int));
  cudaMallocManaged(&t, 2 * sizeof(long long));
  void* args[] = {&a, &t};
  cudaLaunchCooperativeKernel((void*)k, dim3(2), dim3(32), args);
  cudaDeviceSynchronize();
  printf("%d\n", t[1] > t[0] ? 1 : 0);
  printf("%s\n", cudaGetErrorName(cudaLaunchCooperativeKernel((void*)k, dim3(65), dim3(32), args)));
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "1\ncudaErrorCooperativeLaunchTooLarge\n");
  EXPECT_NE(r.program->stderr_text.find("the emulator keeps at most 64 blocks"), std::string::npos)
      << r.program->stderr_text;
}

}  // namespace
}  // namespace ws
