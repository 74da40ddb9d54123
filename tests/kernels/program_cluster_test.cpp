// Thread-block clusters on the emulator (issue 53, item 3; kernels/emu/worker_cluster.h): a
// cluster's blocks resident at once, cluster.sync() waiting for all of them, map_shared_rank
// reaching another block's shared memory and its accesses recorded in that block's window
// (RemoteSharedOffset), __cluster_dims__ and cudaLaunchKernelEx's attribute; and the launches
// CUDA refuses, refused with the rule.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/run_report.h"
#include "warpscope/trace/ws_cuda_keys.h"
#include "warpscope/viz/cluster_map.h"

namespace ws {
namespace {

const SiteInfo* SiteAt(const LaunchTrace& t, std::uint32_t line, MemorySpace space, AccessOp op) {
  for (const SiteInfo& s : t.sites)
    if (s.line == line && s.space == space && s.op == op) return &s;
  return nullptr;
}

TEST(Clusters, ARingOfBlocksReadsEachNeighboursSharedMemory) {
  const LessonRun r = test::RunText(test::ReadExample("cluster_exchange.cu"));
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_NE(r.program->stdout_text.find("ring of 4-block clusters: PASS (0 wrong)"),
            std::string::npos)
      << r.program->stdout_text;
  EXPECT_NE(r.program->stdout_text.find("distributed histogram: PASS (0 bins wrong"),
            std::string::npos)
      << r.program->stdout_text;
  ASSERT_EQ(r.launches.size(), 2u);
  const LaunchTrace& ring = r.launches[0];
  // Line 31 reads the neighbour's tile: 32 blocks of 4 warps, one request each, one wavefront
  // (32 consecutive ints of the neighbour's window).
  const SiteInfo* remote = SiteAt(ring, 31, MemorySpace::kShared, AccessOp::kLoad);
  ASSERT_NE(remote, nullptr);
  const auto id = static_cast<std::size_t>(remote - ring.sites.data());
  EXPECT_EQ(ring.stats.sites[id].requests, 128u);
  EXPECT_EQ(ring.stats.sites[id].wavefronts, 128u);
  // Each of the two syncs: once a block.
  ASSERT_EQ(ring.barrier_sites.size(), 2u);
  EXPECT_EQ(ring.stats.barriers[0].instances, 32u);
  EXPECT_EQ(ring.stats.barriers[1].instances, 32u);
  // Each kept block (rank b % 4) read rank (b + 1) % 4's tile: thread t at 4 t of that window.
  ASSERT_FALSE(ring.blocks.empty());
  for (const BlockRecords& b : ring.blocks) {
    const std::uint32_t right = (b.block % 4 + 1) % 4;
    int seen = 0;
    for (const AccessRecord& a : b.accesses) {
      if (a.site != id) continue;
      EXPECT_EQ(a.offset, RemoteSharedOffset(right) + 4u * a.thread) << "block " << b.block;
      EXPECT_EQ(RemoteSharedRank(a.offset), static_cast<int>(right));
      ++seen;
    }
    EXPECT_EQ(seen, 128) << "block " << b.block;
  }
  EXPECT_EQ(ring.hazards.Total(), 0u);
  // The histogram (cudaLaunchKernelEx, clusters of 2): 8 blocks of 4 warps, 4 passes each, one
  // atomic request a pass, in whichever block holds the bin.
  const LaunchTrace& hist = r.launches[1];
  const SiteInfo* add = SiteAt(hist, 48, MemorySpace::kShared, AccessOp::kAtomic);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(hist.stats.sites[static_cast<std::size_t>(add - hist.sites.data())].requests, 128u);

  // The traffic between ranks, every cluster: rank r read rank r + 1's 128 ints in each of the 8
  // clusters, 4,096 bytes in 1,024 accesses a pair.
  ASSERT_EQ(ring.cluster, (Dim3{4, 1, 1}));
  const ClusterMap m = MakeClusterMap(ring, 5);
  EXPECT_EQ(m.clusters, 8u);
  EXPECT_EQ(m.coverage, "every cluster of 8");
  EXPECT_EQ(m.cluster, 1u);
  EXPECT_EQ(m.members, (std::vector<std::uint64_t>{4, 5, 6, 7}));
  ASSERT_EQ(m.links.size(), 4u);
  for (const ClusterLink& l : m.links) {
    EXPECT_EQ(l.to, (l.from + 1) % 4);
    EXPECT_EQ(l.bytes, 4096u);
    EXPECT_EQ(l.accesses, 1024u);
  }
  EXPECT_EQ(m.bytes, 16384u);
  // The histogram: thread g of the grid's 1,024 adds value i = g + 1,024 k (k < 4) to bin
  // (7 i + i / 64) mod 64, held by rank bin / 32; its block's rank is g / 128 mod 2.
  std::uint64_t across[2] = {0, 0};
  for (std::uint64_t i = 0; i < 4096; ++i) {
    const std::uint64_t from = i % 1024 / 128 % 2, to = (i * 7 + i / 64) % 64 / 32;
    if (from != to) ++across[from];
  }
  ASSERT_EQ(hist.stats.cluster_accesses.size(), 4u);
  EXPECT_EQ(hist.stats.cluster_accesses[0 * 2 + 1], across[0]);
  EXPECT_EQ(hist.stats.cluster_accesses[1 * 2 + 0], across[1]);
  EXPECT_EQ(hist.stats.cluster_bytes[0 * 2 + 1], 4 * across[0]);
  EXPECT_EQ(hist.stats.cluster_accesses[0], 0u);  // a block's own memory is not in it
  const std::string text = LaunchesText(r.launches, "test.cu");
  EXPECT_NE(text.find("clusters of (4,1,1) blocks; distributed shared memory (every cluster): "
                      "rank 0 -> 1 4,096 B in 1,024 accesses"),
            std::string::npos)
      << text;
}

// A kernel of clusters of 4 blocks (`launch` launches it), each block writing its rank where
// `target` says.
std::string ClusterProgram(const std::string& launch, const std::string& target = "1") {
  return R"(#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(4, 1, 1) k(int* out) {
  __shared__ int mine[32];
  cg::cluster_group c = cg::this_cluster();
  mine[threadIdx.x] = c.block_rank();
  c.sync();
  out[blockIdx.x * 32 + threadIdx.x] = *c.map_shared_rank(&mine[threadIdx.x], )" +
         target + R"();
  c.sync();
}
int main() {
  int* out;
  cudaMalloc(&out, 8 * 32 * sizeof(int));
  )" + launch +
         R"(
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
)";
}

TEST(Clusters, LaunchesCudaRefusesAreRefusedWithTheRule) {
  const LessonRun ok = test::RunText(ClusterProgram("k<<<8, 32>>>(out);"));
  ASSERT_TRUE(ok.program->ok()) << ok.program->failure;
  // Rank 1's word: every block read a 1.
  EXPECT_EQ(ok.program->stdout_text, "cudaSuccess\n");
  const LessonRun uneven = test::RunText(ClusterProgram("k<<<6, 32>>>(out);"));
  EXPECT_NE(uneven.program->failure.find("a grid of (6,1,1) blocks in clusters of (4,1,1): each of "
                                         "the grid's dimensions must be a multiple of the "
                                         "cluster's"),
            std::string::npos)
      << uneven.program->failure;
  ProgramOptions ampere;
  ampere.preset = "ampere";
  const LessonRun old = test::RunText(ClusterProgram("k<<<8, 32>>>(out);"), ampere);
  EXPECT_NE(old.program->failure.find("need compute capability 9.0 (Hopper)"), std::string::npos)
      << old.program->failure;
  // A dimension of 0 (cudaLaunchKernelEx's attribute as given), and a cooperative launch of a
  // kernel in clusters (not taken yet: its grid sync and its clusters' would wait for each other).
  const LessonRun zero = test::RunText(ClusterProgram(R"(cudaLaunchConfig_t c = {};
  c.gridDim = dim3(8);
  c.blockDim = dim3(32);
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = 2;
  a[0].val.clusterDim.y = 0;
  a[0].val.clusterDim.z = 1;
  c.attrs = a;
  c.numAttrs = 1;
  cudaLaunchKernelEx(&c, k, out);)"));
  EXPECT_NE(zero.program->failure.find("a cluster of (2,0,1) blocks: each of its dimensions is at "
                                       "least 1"),
            std::string::npos)
      << zero.program->failure;
  const LessonRun both = test::RunText(ClusterProgram(
      "void* args[] = {&out}; cudaLaunchCooperativeKernel((void*)k, dim3(8), dim3(32), args);"));
  EXPECT_NE(both.program->failure.find("a cooperative launch of a kernel in clusters is not "
                                       "supported (yet)"),
            std::string::npos)
      << both.program->failure;
  const LessonRun past = test::RunText(ClusterProgram("k<<<8, 32>>>(out);", "4"));
  EXPECT_NE(past.program->failure.find("map_shared_rank(..., 4): the cluster has 4 block(s), ranks "
                                       "0 to 3"),
            std::string::npos)
      << past.program->failure;
}

}  // namespace
}  // namespace ws
