// The device code a course writes, run unmodified on the emulator (as program_course_test.cpp):
// the registers ptxas gives its kernels, blocks that meet through an atomic or race across
// blocks, a race in a block nobody kept, rows of a pointer matrix, a group leader's atomic, and
// arrays indexed at run time (local memory, or registers where ptxas keeps them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::Folder;
using test::RunText;
using test::SiteAt;

// The registers of a program's kernels are ptxas's, from nvcc on the program as written for the
// preset's architecture (hopper: sm_90), where nvcc is found; the tile is 16 x 17 floats,
// 16 x 17 x 4 = 1,088 B of shared memory, and one barrier.
TEST(CoursePrograms, RegistersComeFromPtxasWhereNvccIsFound) {
  if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc"))
    GTEST_SKIP() << "no nvcc at /usr/local/cuda/bin: the registers are not known";
  const LessonRun r = test::RunText(R"(#include <cstdio>
template <int T>
__global__ void tiled(float* a, const float* b) {
  __shared__ float s[T][T + 1];
  const int i = threadIdx.x;
  s[i % T][i / T] = b[i];
  __syncthreads();
  a[i] = s[i / T][i % T];
}
int main() {
  float* a;
  cudaMalloc(&a, 256 * sizeof(float));
  tiled<16><<<1, 256>>>(a, a);
  cudaDeviceSynchronize();
  printf("done\n");
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  ASSERT_EQ(r.launches.size(), 1u);
  const KernelResources& k = r.launches[0].resources;
  ASSERT_TRUE(k.known()) << "no registers for " << r.launches[0].kernel;
  EXPECT_GT(k.registers, 0);
  EXPECT_LE(k.registers, 255);
  EXPECT_EQ(k.shared_bytes, 1088u);
  EXPECT_EQ(k.barriers, 1u);
  EXPECT_NE(k.source.find("sm_90"), std::string::npos) << k.source;
}

// The last-block pattern (CUDA programming guide, __threadfence(); cuda-samples'
// threadFenceReduction): each block writes its partial sum, fences, takes a ticket with
// atomicInc, and the block with the last ticket reads every partial. The atomic orders the
// blocks: no hazard. Without the ticket (the last block by its index) the reads race the other
// blocks' writes: 3 blocks' partials read by block 3, one RAW group.
TEST(CoursePrograms, BlocksThatMeetThroughAnAtomicAreOrdered) {
  auto text = [](bool ticket) {
    return std::string(R"(#include <cstdio>
__device__ unsigned int count = 0;
__global__ void sum(const float* in, float* partial, float* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
)") +
           (ticket ? "    last = atomicInc(&count, gridDim.x) == gridDim.x - 1;\n"
                   : "    last = blockIdx.x == gridDim.x - 1;\n") +
           R"(  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float s = 0;
    for (unsigned int b = 0; b < gridDim.x; ++b) s += partial[b];
    *out = s;
  }
}
int main() {
  float *in, *partial, *out, h[4] = {1, 2, 3, 4}, r = 0;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, sizeof h);
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<4, 32>>>(in, partial, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
}
)";
  };
  const LessonRun with = test::RunText(text(true));
  ASSERT_TRUE(with.program->ok()) << with.program->failure;
  EXPECT_EQ(with.program->stdout_text, "10\n");  // 1 + 2 + 3 + 4
  ASSERT_EQ(with.launches.size(), 1u);
  EXPECT_TRUE(with.launches[0].hazards.groups.empty())
      << with.launches[0].hazards.groups.size() << " groups";
  const LessonRun without = test::RunText(text(false));
  ASSERT_TRUE(without.program->ok()) << without.program->failure;
  ASSERT_EQ(without.launches.size(), 1u);
  const HazardReport& h = without.launches[0].hazards;
  ASSERT_EQ(h.groups.size(), 1u);
  EXPECT_EQ(h.groups[0].kind, HazardKind::kRaw);
  EXPECT_EQ(h.groups[0].count, 3u);  // block 3 reads blocks 0, 1 and 2's partials
}

// Across blocks, global memory through the shadow (trace/hazards.h): a[i] = a[i + 1] in place,
// 4 blocks of 32 threads, n = 128. Within a block thread t reads a[i + 1] at step 0, which thread
// t + 1 writes at step 1: a WAR pair for t = 0..30 in blocks 0-2 (31 each) and t = 0..29 in
// block 3 (thread 31 there, i = 127, does nothing): 123, all within one warp. Across blocks,
// thread 31 of block b reads a[32 (b + 1)], which thread 0 of block b + 1 writes after it (block
// order): 3 more, none within a warp. One group of 126.
TEST(CoursePrograms, AShiftInPlaceRacesWithinAndAcrossBlocks) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
__global__ void shift(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) a[i] = a[i + 1];
}
int main() {
  int h[128], *a;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&a, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  shift<<<4, 32>>>(a, 128);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  ASSERT_EQ(r.launches.size(), 1u);
  const HazardReport& h = r.launches[0].hazards;
  ASSERT_EQ(h.groups.size(), 1u) << HazardsText(h, r.launches[0]);
  const HazardGroup& g = h.groups[0];
  EXPECT_EQ(g.kind, HazardKind::kWar);
  EXPECT_EQ(g.space, MemorySpace::kGlobal);
  EXPECT_EQ(g.count, 126u);
  EXPECT_EQ(g.same_warp, 123u);
  EXPECT_EQ(g.first_line, 4u);
  EXPECT_EQ(g.second_line, 4u);
  // Every block is kept (4): FindHazards finds the same in the records.
  const HazardReport again = FindHazards(r.launches[0]);
  ASSERT_EQ(again.groups.size(), 1u);
  EXPECT_EQ(again.groups[0].count, 126u);
  EXPECT_EQ(again.groups[0].same_warp, 123u);
}

// A race in one block of 64, none of them kept: block 17 reads its shared array before the
// barrier. Thread t reads s[63 - t], written by thread 63 - t at step 0 (the read is step 1):
// 64 RAW pairs, none within a warp (t < 32 <=> 63 - t > 31). The example is block 17's.
TEST(CoursePrograms, ARaceInABlockNobodyKeptIsFound) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
__global__ void mirror(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (blockIdx.x == 17) out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
int main() {
  int* out;
  cudaMalloc(&out, 64 * 64 * sizeof(int));
  mirror<<<64, 64>>>(out);
  cudaDeviceSynchronize();
  printf("done\n");
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  ASSERT_EQ(r.launches.size(), 1u);
  const HazardReport& h = r.launches[0].hazards;
  EXPECT_TRUE(h.whole_grid);
  // (Block 17's two stores to out[], lines 5 and 7, are each thread's own: no pair.)
  ASSERT_EQ(h.groups.size(), 1u) << HazardsText(h, r.launches[0]);
  const HazardGroup& g = h.groups[0];
  EXPECT_EQ(g.kind, HazardKind::kRaw);
  EXPECT_EQ(g.space, MemorySpace::kShared);
  EXPECT_EQ(g.count, 64u);
  EXPECT_EQ(g.same_warp, 0u);
  EXPECT_EQ(g.example_first.block, 17u);
  EXPECT_EQ(g.first_line, 4u);
  EXPECT_EQ(g.second_line, 5u);
}

// Rows of an `int**` matrix, each its own cudaMalloc (a course's Floyd-Warshall): an element
// read through a row pointer the kernel loads is one site over every row, keyed by no buffer,
// its requests' addresses the rows' own. 4 rows of 32 ints, one warp: d[r][threadIdx.x] is 4
// requests of 128 B, 4 sectors each (16); the row pointer d[r] is 4 requests of one 8-byte word
// (4 sectors). The GPU backend keys it the same way (ws_program_cuda.h).
TEST(CoursePrograms, RowsOfAPointerMatrixAreOneSiteOverEveryRow) {
  const LessonRun r = test::RunText(test::kPointerRowsProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "6\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int rows = 0, elements = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& site = t.sites[i];
    if (site.line != 4 || site.op != AccessOp::kLoad) continue;
    if (site.size == 8) {
      ++rows;
      EXPECT_EQ(t.stats.sites[i].requests, 4u);
      EXPECT_EQ(t.stats.sites[i].sectors, 4u);
    } else {
      ++elements;
      EXPECT_EQ(site.buffer, kSeveralBuffers);
      EXPECT_EQ(t.stats.sites[i].requests, 4u);
      EXPECT_EQ(t.stats.sites[i].sectors, 16u);
    }
  }
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(elements, 1);  // one site, not one per row
}
// A line whose pointer is one buffer in some warps and another in others (cudaTensorCoreGemm's
// copy of A and B tiles) is a site a buffer, as on a GPU, whatever order the workers meet them in:
// before, the site went to no buffer at its second, and how many requests kept the first varied
// from run to run. 8 blocks of 64 threads: warp 0 of each reads a[], warp 1 b[]: 8 requests of
// 4 sectors each at each site, by hand.
TEST(CoursePrograms, ALineReadingTwoBuffersIsASiteABufferInAnyOrder) {
  const std::string text = R"(#include <cstdio>
__global__ void k(const float* a, const float* b, float* out) {
  const float* p = threadIdx.x < 32 ? a : b;
  out[blockIdx.x * 64 + threadIdx.x] = p[blockIdx.x * 32 + threadIdx.x % 32];
}
int main() {
  float *a, *b, *out;
  cudaMalloc(&a, 256 * sizeof(float));
  cudaMalloc(&b, 256 * sizeof(float));
  cudaMalloc(&out, 512 * sizeof(float));
  k<<<8, 64>>>(a, b, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
)";
  for (unsigned workers : {1u, 2u, 3u}) {
    SCOPED_TRACE(workers);
    ProgramOptions o;
    o.workers = workers;
    const LessonRun r = test::RunText(text, o);
    ASSERT_TRUE(r.program->ok()) << r.program->failure;
    ASSERT_EQ(r.launches.size(), 1u);
    const LaunchTrace& t = r.launches[0];
    std::vector<std::string> read;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& site = t.sites[i];
      if (site.line != 4 || site.op != AccessOp::kLoad) continue;
      ASSERT_LT(site.buffer, t.buffers.size());
      read.push_back(t.buffers[site.buffer].name);
      EXPECT_EQ(t.stats.sites[i].requests, 8u);
      EXPECT_EQ(t.stats.sites[i].sectors, 32u);
    }
    std::sort(read.begin(), read.end());
    EXPECT_EQ(read, (std::vector<std::string>{"a", "b"}));
  }
}

// cuda-samples' warpAggregatedAtomicsCG pattern: a labeled partition by bucket, each group
// reducing by shuffles of its own (a singleton group needs none), then each group's leader does
// one atomic. The leaders run it together, one request a warp and step, as on a GPU (the corpus
// program: 312,500 on an H100), though their groups leave the reduction at different times.
// 8 blocks, so that blocks 4-7 (not kept) take the emulator's lane-log path.
TEST(CoursePrograms, GroupLeadersAtomicIsOneRequestAWarp) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ void agg(int bucket, int* counter, int value) {
  cg::coalesced_group active = cg::coalesced_threads();
  auto group = cg::labeled_partition(active, bucket);
  const int best = cg::reduce(group, value, cg::greater<int>());
  if (group.thread_rank() == 0) atomicMax(&counter[bucket], best);
}
__global__ void k(int* counter) {
  for (int step = 0; step < 2; ++step) {
    const int lane = threadIdx.x % 32;
    agg(lane == 31 ? 7 : lane % 3, counter, lane + step);
  }
}
int main() {
  int* c;
  cudaMallocManaged(&c, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) c[i] = 0;
  k<<<8, 64>>>(c);
  cudaDeviceSynchronize();
  printf("%d %d %d %d\n", c[0], c[1], c[2], c[7]);
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text,
            "31 29 30 32\n");  // the largest lane + 1 in each group; lane 31 alone
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  std::size_t i = 0;
  ASSERT_NE(SiteAt(t, 9, 0, &i), nullptr);
  ASSERT_EQ(t.sites[i].op, AccessOp::kAtomic);
  // 8 blocks x 2 warps x 2 steps, 4 leaders each (buckets 0, 1, 2 and lane 31's 7).
  EXPECT_EQ(t.stats.sites[i].requests, 32u);
  EXPECT_EQ(t.stats.sites[i].accesses, 128u);
}

// Local memory interleaves a warp's lanes word by word (LocalOffset): byte 4b of lane l's array
// in warp w is at (w x 32 elements x 32 lanes + b x 32 + l) x 4.
TEST(CoursePrograms, ArraysIndexedAtRunTimeAreLocalMemoryInterleavedByLane) {
  const LessonRun r = test::RunText(test::kLocalArraysProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "1 0 6\n");
  ASSERT_EQ(r.launches.size(), 2u);
  const LaunchTrace& t = r.launches[0];
  auto local = [&](std::uint32_t line, std::uint32_t column, AccessOp op) -> const SiteStats* {
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      if (s.line == line && s.column == column && s.op == op && s.space == MemorySpace::kLocal) {
        EXPECT_EQ(s.buffer, kLocalArray);
        return &t.stats.sites[i];
      }
    }
    ADD_FAILURE() << "no local " << ToString(op) << " at " << line << ":" << column;
    return nullptr;
  };
  // counts[b] = 0: 2 warps x 32 steps, each the warp's 32 words of one element: 128 contiguous
  // bytes, 4 sectors.
  const SiteStats* zero = local(4, 32, AccessOp::kStore);
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->requests, 64u);
  EXPECT_EQ(zero->sectors, 256u);
  // counts[in[i] & 31]++: lane l reads element l, word 32 l + l: sector (33 l) / 8, a different
  // one for each of the 32 lanes.
  for (AccessOp op : {AccessOp::kLoad, AccessOp::kStore}) {
    const SiteStats* bump = local(6, 14, op);
    ASSERT_NE(bump, nullptr);
    EXPECT_EQ(bump->requests, 2u);
    EXPECT_EQ(bump->sectors, 64u);
  }
  // out[...] = counts[b], b < 8: 2 warps x 8 steps, 4 sectors each.
  const SiteStats* read = local(7, 48, AccessOp::kLoad);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->requests, 16u);
  EXPECT_EQ(read->sectors, 64u);
  // A local array is the thread's own: no hazard among the threads that share its offsets.
  EXPECT_EQ(t.hazards.groups.size(), 0u);
  // acc[k], k a counter of 4-step loops: registers. The kernel's one site is its store to out.
  const LaunchTrace& regs = r.launches[1];
  ASSERT_EQ(regs.sites.size(), 1u);
  EXPECT_EQ(regs.sites[0].space, MemorySpace::kGlobal);
}

// ptxas keeps a small array in registers even where it is indexed at run time (8 ints here,
// selected by predicates): its report says 0 B of stack frame, and the run records nothing
// there. Without nvcc the rewriter's rule stands: the data-indexed array is local memory.
TEST(CoursePrograms, AnArrayPtxasKeepsInRegistersIsNotRecorded) {
  std::string text = test::kLocalArraysProgram;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"counts[32]", "counts[8]"}, {"b < 32", "b < 8"}, {"& 31", "& 7"}}) {
    text.replace(text.find(from), from.size(), to);
  }
  const LessonRun r = test::RunText(text);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "1 0 6\n");
  ASSERT_EQ(r.launches.size(), 2u);
  const LaunchTrace& t = r.launches[0];
  const auto local = std::count_if(t.sites.begin(), t.sites.end(), [](const SiteInfo& s) {
    return s.space == MemorySpace::kLocal;
  });
  if (t.resources.spills_known) {  // ptxas's report
    EXPECT_EQ(t.resources.local_bytes, 0u);
    EXPECT_EQ(local, 0);
  } else {
    EXPECT_EQ(local, 4);  // the zeroing store, the bump's load and store, the read
  }
}

}  // namespace
}  // namespace ws
