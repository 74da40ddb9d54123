// The reduce lesson (kernels/lessons/reduce/): Harris's first three reduction kernels, with the
// figures counted by hand for one block of 256 threads (8 warps, 8 tree steps s).
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

LessonRun Reduce(const std::string& variant, Params p = {}) {
  auto r = RunLesson("reduce", variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

const nlohmann::json& F(const LessonRun& r) {
  return r.metrics();
}

TEST(ReduceLesson, DivergentBranchingMakesEveryAdditionRequestDivergent) {
  const LessonRun r = Reduce("divergent", {{"blocks", 1}});
  EXPECT_TRUE(r.check.ok) << r.check.message;
  // Step s: threads with tid % 2s == 0 add. s = 1..16: all 8 warps hold an adder (5 steps x 8
  // requests); s = 32: tids 0, 64, 128, 192 (4 warps); s = 64: 2; s = 128: 1. 40 + 4 + 2 + 1 = 47,
  // and no warp is ever whole: all 47 divergent.
  EXPECT_EQ(F(r)["add_requests_per_block"], 47.0);
  EXPECT_EQ(F(r)["divergent_requests_per_block"], 47.0);
  // Adders: 128 + 64 + ... + 1 = 255 over 47 requests.
  EXPECT_DOUBLE_EQ(F(r)["lanes_per_request"].get<double>(), 255.0 / 47.0);
  // A warp's adders touch words tid and tid + s, distinct modulo 32: no conflict.
  EXPECT_EQ(F(r)["bank_conflict_max"], 1);
  // Shared passes: 8 stores of the load, 2 x 47 loads and 47 stores in the tree, 1 final load.
  EXPECT_EQ(F(r)["shared_wavefronts_per_block"], 150.0);
}

TEST(ReduceLesson, StridedIndexingKeepsWarpsWholeButConflicts) {
  const LessonRun r = Reduce("strided", {{"blocks", 1}});
  EXPECT_TRUE(r.check.ok) << r.check.message;
  // Step s: threads with 2 s tid < 256 add: 128, 64, 32 threads (4, 2, 1 whole warps), then 16,
  // 8, 4, 2, 1 in warp 0 (divergent): 7 + 5 = 12 requests, 5 divergent.
  EXPECT_EQ(F(r)["add_requests_per_block"], 12.0);
  EXPECT_EQ(F(r)["divergent_requests_per_block"], 5.0);
  // Lane l touches word 2 s l: bank 2l mod 32 at s = 1 (2-way), 4l (4-way), 8l (8-way), and from
  // s = 8 the 16, 8 ... adders share 2 or 1 banks: 8-way at most.
  EXPECT_EQ(F(r)["bank_conflict_max"], 8);
  // Stores: 4 x 2 + 2 x 4 + 8 + 8 + 8 + 4 + 2 + 1 = 47 passes, loads twice that: the conflicts
  // bring back the divergent kernel's 150 passes.
  EXPECT_EQ(F(r)["shared_wavefronts_per_block"], 150.0);
}

TEST(ReduceLesson, SequentialAddressingIsConflictFree) {
  const LessonRun r = Reduce("sequential", {{"blocks", 1}});
  EXPECT_TRUE(r.check.ok) << r.check.message;
  // s = 128, 64, 32: 4, 2, 1 whole warps; s = 16 ... 1: one divergent request each.
  EXPECT_EQ(F(r)["add_requests_per_block"], 12.0);
  EXPECT_EQ(F(r)["divergent_requests_per_block"], 5.0);
  EXPECT_DOUBLE_EQ(F(r)["lanes_per_request"].get<double>(), 255.0 / 12.0);
  EXPECT_EQ(F(r)["bank_conflict_max"], 1);
  // 8 + 2 x 12 + 12 + 1.
  EXPECT_EQ(F(r)["shared_wavefronts_per_block"], 45.0);
  // One barrier after the load and one per step: 9 per thread.
  const LaunchTrace& t = r.main_launch();
  EXPECT_EQ(t.stats.barrier_records, 256u * 9u);
}

TEST(ReduceLesson, TheLastWarpShufflesInsteadOfUsingSharedMemory) {
  const LessonRun r = Reduce("shuffle", {{"blocks", 1}});
  EXPECT_TRUE(r.check.ok) << r.check.message;
  // The tree runs while s > 32: s = 128 (4 whole warps) and s = 64 (2): 6 requests, none
  // divergent, 32 lanes each.
  EXPECT_EQ(F(r)["add_requests_per_block"], 6.0);
  EXPECT_EQ(F(r)["divergent_requests_per_block"], 0.0);
  EXPECT_EQ(F(r)["lanes_per_request"], 32.0);
  EXPECT_EQ(F(r)["bank_conflict_max"], 1);
  // Shared passes: 8 stores of the load, 2 x 6 loads and 6 stores in the tree, then warp 0
  // reads sdata[tid] and sdata[tid + 32]: 8 + 18 + 2 = 28.
  EXPECT_EQ(F(r)["shared_wavefronts_per_block"], 28.0);
  // Warp 0 then meets 5 times at __shfl_down_sync (offsets 16, 8, 4, 2, 1).
  EXPECT_EQ(F(r)["warp_shuffles_per_block"], 5.0);
  const LaunchTrace& t = r.main_launch();
  ASSERT_EQ(t.warp_op_sites.size(), 1u);
  EXPECT_EQ(t.warp_op_sites[0].kind, WarpOpKind::kShflDown);
  ASSERT_FALSE(t.blocks.empty());
  ASSERT_EQ(t.blocks[0].warp_ops.size(), 5u);
  // The third meeting (offset 4): lane 3 reads lane 7, lane 28 keeps its own.
  EXPECT_EQ(t.blocks[0].warp_ops[2].source[3], 7);
  EXPECT_EQ(t.blocks[0].warp_ops[2].source[28], 28);
  // The same sum for every block size, down to one warp (no sdata[tid + 32] then).
  for (long long block = 0; block <= 5; ++block) {
    const LessonRun any = Reduce("shuffle", {{"block", block}, {"blocks", 3}});
    EXPECT_TRUE(any.check.ok) << block << ": " << any.check.message;
  }
}

TEST(ReduceLesson, FiguresArePerBlockAndEveryBlockSumIsChecked) {
  // 64 blocks of 1024 threads: log2(1024) = 10 steps; sequential: 16 + 8 + 4 + 2 + 1 whole-warp
  // requests, then 5 divergent ones = 36 per block.
  const LessonRun r = Reduce("sequential", {{"block", 5}, {"blocks", 64}});
  EXPECT_TRUE(r.check.ok) << r.check.message;
  EXPECT_EQ(r.check.message, "reduce sequential: all 64 elements match the CPU result");
  EXPECT_EQ(F(r)["add_requests_per_block"], 36.0);
  EXPECT_EQ(F(r)["divergent_requests_per_block"], 5.0);
}

TEST(ReduceLesson, IsDeclaredInItsFolderOnly) {
  const LessonInfo* l = FindLesson("reduce");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->kind, LessonKind::kKernel);
  EXPECT_EQ(l->source_file, "reduce.cuh");
  EXPECT_NE(l->source.find("__global__ void reduceDivergent"), std::string_view::npos);
  // Unknown variants are refused by name, not run as another.
  auto bad = RunLesson("reduce", "unrolled", {}, "emu", RunOptions{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "unknown variant 'unrolled' for reduce; variants are: divergent, strided, sequential, "
            "shuffle");
}

}  // namespace
}  // namespace ws
