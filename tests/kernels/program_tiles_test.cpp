// Cooperative groups' multi-warp tiles on the emulator (issue 50, item 1; docs/PROGRAMS.md
// "Cooperative groups"): thread_block_tile<64..1024> with block_tile_memory, its sync as a
// barrier of the tile's threads, shfl, any, all and cg::reduce over it, and what the race check
// and the barrier figures make of them.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

const BarrierStats* BarrierAt(const LaunchTrace& t, std::uint32_t line, std::uint32_t* tile) {
  for (std::size_t i = 0; i < t.barrier_sites.size(); ++i) {
    if (t.barrier_sites[i].line != line) continue;
    *tile = t.barrier_sites[i].tile;
    return &t.stats.barriers[i];
  }
  ADD_FAILURE() << "no barrier on line " << line;
  return nullptr;
}

TEST(MultiWarpTiles, SyncShflVotesAndReduceOverTilesOfTwoWarps) {
  const LessonRun r = test::RunText(test::kTilesProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  // Tile k of block b holds in[] = base..base+63, base = 256 b + 64 k: its sum is
  // 64 base + 2016, thread 5's value base + 5; v == 100 only in block 0's tile 1; the last
  // thread of every tile has v % 64 == 63, so all() is 0. mirror: thread t of tile k reads
  // s[64 k + 63 - r], written by the tile's other warp before the tile's sync.
  EXPECT_EQ(r.program->stdout_text,
            "2016 5 0 0\n6112 69 1 0\n10208 133 0 0\n14304 197 0 0\n"
            "18400 261 0 0\n22496 325 0 0\n26592 389 0 0\n30688 453 0 0\n"
            "63 0 275\n"  // thread 0: 63; thread 63: 0; block 1 thread 44 (tile 0): 256 + 19
            "64 364\n");  // s[64] = in[64]; block 1 thread 44: s[108] = in[364]
  ASSERT_EQ(r.launches.size(), 2u);
  const LaunchTrace& t = r.launches[0];
  EXPECT_EQ(t.engine, "fiber");
  EXPECT_NE(t.engine_reason.find("a tile of more than 32 threads on line 9"), std::string::npos)
      << t.engine_reason;
  // Each tile passes each sync on its own, and each pass is an instance: line 13 once a tile
  // (4 tiles in each of 2 blocks), reduce's and shfl's two barriers, a vote's two; 64 threads an
  // instance.
  std::uint32_t tile = 0;
  const std::pair<std::uint32_t, std::uint64_t> expected[] = {
      {13, 8}, {15, 16}, {16, 16}, {17, 16}, {18, 16}};
  for (const auto& [line, instances] : expected) {
    const BarrierStats* b = BarrierAt(t, line, &tile);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->instances, instances) << "line " << line;
    EXPECT_EQ(tile, 64u) << "line " << line;
    EXPECT_EQ(b->thread_arrivals, instances * 64) << "line " << line;
  }
  // reduce: each warp's butterfly of 5 shuffles, 8 warps in 2 blocks.
  for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i) {
    if (t.warp_op_sites[i].line == 15) {
      EXPECT_EQ(t.warp_op_counts[i], 80u);
    } else if (t.warp_op_sites[i].line == 17) {
      EXPECT_EQ(t.warp_op_counts[i], 16u);  // one vote a warp
    }
  }
  // The mirror read pairs with a store of the tile's other warp, ordered by the tile's sync.
  EXPECT_EQ(t.hazards.groups.size(), 0u);
  // A tile's sync does not order its threads against another tile's: each of `across`'s 256
  // reads a block reads a word another tile stored, with only the tile syncs between.
  const LaunchTrace& a = r.launches[1];
  std::uint64_t pairs = 0;
  for (const HazardGroup& g : a.hazards.groups) {
    EXPECT_EQ(g.space, MemorySpace::kShared);
    EXPECT_EQ(g.same_warp, 0u);
    pairs += g.count;
  }
  EXPECT_EQ(pairs, 512u);
}

TEST(MultiWarpTiles, ABlockThatIsNotWholeTilesOrATileThatSplitsStopsWithItsLine) {
  const std::string head =
      "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
      "__global__ void k(int* o) {\n"
      "  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());\n";
  const LessonRun ragged =
      test::RunText(head +
                    "  tile.sync();\n  o[threadIdx.x] = 1;\n}\n"
                    "int main() { int* o; cudaMalloc(&o, 96 * 4); k<<<1, 96>>>(o);\n"
                    "  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }\n");
  EXPECT_NE(ragged.program->failure.find("a tile of 64 threads in a block of 96"),
            std::string::npos)
      << ragged.program->failure;
  const LessonRun split =
      test::RunText(head +
                    "  if (threadIdx.x < 32) tile.sync();\n  o[threadIdx.x] = 1;\n}\n"
                    "int main() { int* o; cudaMalloc(&o, 64 * 4); k<<<1, 64>>>(o);\n"
                    "  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }\n");
  EXPECT_NE(split.program->failure.find(
                "threads 0-31 wait at the sync() of a tile of 64 threads on line 5; threads "
                "32-63 exited without reaching it"),
            std::string::npos)
      << split.program->failure;
}

// A tile of a tile counts its meta-group among its parent's tiles, as CUDA's does: in a block of
// 256, thread 200 is in 128-tile 1; of that tile's 32-tiles it is in 2 of 4 ((200 % 128) / 32),
// of its 64-tiles in 1 of 2. The 64-tiles of a 128-tile reduce their own threads' ranks:
// 0 + ... + 63 = 2016 for the first, 64 + ... + 127 = 6112 for the second.
TEST(MultiWarpTiles, ATileOfATileIsRankedAmongItsParentsTiles) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto big = cg::tiled_partition<128>(block);
  auto warp = cg::tiled_partition<32>(big);
  auto pair = cg::tiled_partition<64>(big);
  const int sum = cg::reduce(pair, int(pair.thread_rank() + 64 * pair.meta_group_rank()),
                             cg::plus<int>());
  if (block.thread_rank() == 200) {
    out[0] = big.meta_group_rank(); out[1] = warp.meta_group_rank(); out[2] = warp.meta_group_size();
    out[3] = pair.meta_group_rank(); out[4] = pair.meta_group_size();
  }
  if (block.thread_rank() == 0) out[5] = sum;
  if (block.thread_rank() == 100) out[6] = sum;
}
int main() {
  int* o;
  cudaMallocManaged(&o, 7 * sizeof(int));
  k<<<1, 256>>>(o);
  cudaDeviceSynchronize();
  printf("%d %d %d %d %d %d %d\n", o[0], o[1], o[2], o[3], o[4], o[5], o[6]);
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "1 2 4 1 2 2016 6112\n");
}

}  // namespace
}  // namespace ws
