// A group's asynchronous copy on the emulator (issue 53, item 2: cooperative_groups::memcpy_async,
// wait and wait_prior; shim/cooperative_groups/memcpy_async.h): the pieces and the lanes that
// copy them are the toolkit's (CUDA 13's cooperative_groups/details/async.h), each a
// __pipeline_memcpy_async recorded as a global read where it is issued and a shared write where
// the group's wait lands it.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

// The counts at the copy's line: its global read and its shared write.
struct CopySites {
  int reads = 0, writes = 0;
  std::uint64_t read_requests = 0, read_sectors = 0, write_requests = 0;
  unsigned read_size = 0;
};
CopySites SitesAt(const LaunchTrace& t, unsigned line) {
  CopySites c;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line != line) continue;
    if (t.sites[i].space == MemorySpace::kGlobal && t.sites[i].op == AccessOp::kLoad) {
      ++c.reads;
      c.read_requests += t.stats.sites[i].requests;
      c.read_sectors += t.stats.sites[i].sectors;
      c.read_size = t.sites[i].size;
    } else if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kStore) {
      ++c.writes;
      c.write_requests += t.stats.sites[i].requests;
    } else {
      ADD_FAILURE() << "an unexpected site on the copy's line: " << t.sites[i].code;
    }
  }
  return c;
}

// Two blocks of 128 threads; each block copies its 256 floats of in (in[i] = i) into a tile, waits,
// and thread t adds tile[t] and tile[255 - t]. By hand: out[b * 128 + t] = 512 b + 255, so
// out[0] = 255, out[128] = 767 and the sum is 128 x 255 + 128 x 767 = 130,816.
// The copy, floats of 4 bytes (the element's alignment, as CUDA's header takes it): 256 pieces,
// thread r copying pieces r and r + 128, so each warp makes two requests of 32 lanes x 4
// contiguous bytes: 2 blocks x 4 warps x 2 = 16 requests of 4 sectors (64) at the global read,
// and 16 at the shared write where they land.
constexpr const char* kBlockCopy = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void stage(const float* in, float* out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(block);
  const int t = threadIdx.x;
  out[blockIdx.x * 128 + t] = tile[t] + tile[255 - t];
}
int main() {
  float h[512], *in, *out;
  for (int i = 0; i < 512; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, 256 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<2, 128>>>(in, out);
  cudaMemcpy(h, out, 256 * sizeof(float), cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 256; ++i) s += h[i];
  printf("%g %g %g\n", h[0], h[128], s);
  return 0;
}
)";

TEST(CoursePrograms, ABlocksGroupCopyLandsAtItsWait) {
  const LessonRun r = test::RunText(kBlockCopy);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "255 767 130816\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  const CopySites c = SitesAt(t, 8);
  EXPECT_EQ(c.reads, 1);
  EXPECT_EQ(c.writes, 1);
  EXPECT_EQ(c.read_size, 4u);
  EXPECT_EQ(c.read_requests, 16u);
  EXPECT_EQ(c.read_sectors, 64u);
  EXPECT_EQ(c.write_requests, 16u);
  // The wait is the block's barrier at its own line, once a block.
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  EXPECT_EQ(t.barrier_sites[0].line, 9u);
  ASSERT_EQ(t.stats.barriers.size(), 1u);
  EXPECT_EQ(t.stats.barriers[0].instances, 2u);
  EXPECT_EQ(t.hazards.Total(), 0u);
}

// One warp's tile copies 40 floats: CUDA's header makes whole rounds of the tile (lane r copies
// piece r: one request of 128 bytes, 4 sectors) and then one round for the 8 left, in which lane
// r copies piece 32 + min(r, 7), so that lanes 7 to 31 all copy piece 39 (one request, bytes 128
// to 159 of the buffer: 1 sector). Global read: 2 requests, 5 sectors; shared write: 2 requests.
// (The CLI, as a student sees it: tail's row 0 hazards, "300 pairs (all within one warp)" of
// WAW (same value) at line 8 under --launches.)
// out[r] = in[r] + (r < 8 ? in[32 + r] : 0) with in[i] = i: the sum is 496 + 8 x 32 + 28 = 780.
TEST(CoursePrograms, ATilesGroupCopyEndsWithARoundForTheRest) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void tail(const float* in, float* out) {
  __shared__ float tile[40];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::memcpy_async(warp, tile, in, sizeof(float) * 40);
  cg::wait(warp);
  const unsigned r = warp.thread_rank();
  out[r] = tile[r] + (r < 8 ? tile[32 + r] : 0.0f);
}
int main() {
  float h[40], *in, *out;
  for (int i = 0; i < 40; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, 32 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  tail<<<1, 32>>>(in, out);
  cudaMemcpy(h, out, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 32; ++i) s += h[i];
  printf("%g\n", s);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "780\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const CopySites c = SitesAt(r.launches[0], 8);
  EXPECT_EQ(c.reads, 1);
  EXPECT_EQ(c.writes, 1);
  EXPECT_EQ(c.read_requests, 2u);
  EXPECT_EQ(c.read_sectors, 5u);
  EXPECT_EQ(c.write_requests, 2u);
  // Lanes 7 to 31 land the same bytes in one word: as any store of one value by several lanes,
  // a pair of each two of the 25 lanes, C(25, 2) = 300, of the kind apart from the races
  // (WAW, same value), and nothing else.
  EXPECT_EQ(r.launches[0].hazards.Count(HazardKind::kWawSameValue), 300u);
  EXPECT_EQ(r.launches[0].hazards.Total(), 300u);
}

// Two stages: the block copies its two halves as two commits, waits for all but the newest
// (wait_prior<1>: the first half lands), reads it, then waits for the rest. A thread reads its
// second-half word before the last wait too: it still holds the -1 the tile was filled with.
// By hand (one block of 64 threads, in[i] = i): first = sum of 0..63 = 2,016; second = sum of
// 64..127 = 6,112; early = -64.
TEST(CoursePrograms, AGroupsWaitPriorLandsAllButTheNewestCopies) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void two(const float* in, float* out) {
  __shared__ float tile[128];
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x;
  tile[t] = -1.0f; tile[64 + t] = -1.0f;
  block.sync();
  cg::memcpy_async(block, tile, in, sizeof(float) * 64);
  cg::memcpy_async(block, tile + 64, in + 64, sizeof(float) * 64);
  cg::wait_prior<1>(block);
  out[t] = tile[t];
  out[128 + t] = tile[64 + t];
  cg::wait(block);
  out[64 + t] = tile[64 + t];
}
int main() {
  float h[192], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, 128 * sizeof(float)); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, 128 * sizeof(float), cudaMemcpyHostToDevice);
  two<<<1, 64>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  float a = 0, b = 0, e = 0;
  for (int i = 0; i < 64; ++i) { a += h[i]; b += h[64 + i]; e += h[128 + i]; }
  printf("%g %g %g\n", a, b, e);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "2016 6112 -64\n");
}

// The element-count form promises an alignment only where both counts are aligned_size_t of one
// N (CUDA's overloads): here only the destination's count says 16, so the 10 floats go in 4-byte
// pieces as floats do, all of them (in 16-byte pieces the last 8 bytes would be left out). By
// hand: ranks 0 to 9 of the block's 32 copy one float each, one request of 40 bytes from a
// buffer's start: 2 sectors; thread 0 sums tile[0..9] = 45 after the wait.
TEST(CoursePrograms, AGroupCopysElementCountsPromiseAnAlignmentOnlyTogether) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
__global__ void ten(const float* in, float* out) {
  __shared__ alignas(16) float tile[16];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, cuda::aligned_size_t<16>(10), in, 10);
  cg::wait(block);
  if (threadIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < 10; ++i) s += tile[i];
    out[0] = s;
  }
}
int main() {
  float h[16], *in, *out;
  for (int i = 0; i < 16; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  ten<<<1, 32>>>(in, out);
  cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%g\n", h[0]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "45\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const CopySites c = SitesAt(r.launches[0], 9);
  EXPECT_EQ(c.read_size, 4u);
  EXPECT_EQ(c.read_requests, 1u);
  EXPECT_EQ(c.read_sectors, 2u);
  EXPECT_EQ(c.write_requests, 1u);
}

// What CUDA's header copies with plain loads and stores, the emulator does not record as copies:
// it stops the launch, naming the call's line and why. A byte copy whose addresses share 1 byte
// of alignment (the tile's second byte against a 256-byte-aligned buffer), a byte copy smaller
// than the alignment its addresses share, and a copy into global memory.
TEST(CoursePrograms, AGroupCopyCudaMakesWithPlainLoadsStopsTheLaunch) {
  auto run = [](const std::string& call) {
    return test::RunText(R"(#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(float* in, float* out) {
  __shared__ float s[16];
  )" + call + R"(;
  cg::wait(cg::this_thread_block());
  out[threadIdx.x] = s[threadIdx.x];
}
int main() { float *a, *b; cudaMalloc(&a, 64); cudaMalloc(&b, 64); k<<<1, 4>>>(a, b);
  cudaDeviceSynchronize(); return 0; }
)");
  };
  const LessonRun bytes =
      run("cg::memcpy_async(cg::this_thread_block(), (char*)s + 1, (const char*)in, 32)");
  ASSERT_FALSE(bytes.program->ok());
  EXPECT_NE(bytes.program->failure.find("line 6"), std::string::npos) << bytes.program->failure;
  EXPECT_NE(bytes.program->failure.find("share less than 4 bytes of alignment"), std::string::npos)
      << bytes.program->failure;
  // 8 bytes between two 16-byte-aligned addresses: CUDA copies a copy smaller than the
  // alignment its addresses share with plain loads and stores too.
  const LessonRun small =
      run("cg::memcpy_async(cg::this_thread_block(), (char*)s, (const char*)in, 8)");
  ASSERT_FALSE(small.program->ok());
  EXPECT_NE(small.program->failure.find("of 8 bytes, fewer than the 16-byte alignment"),
            std::string::npos)
      << small.program->failure;
  const LessonRun to_global =
      run("cg::memcpy_async(cg::this_thread_block(), out, (const float*)in, 64)");
  ASSERT_FALSE(to_global.program->ok());
  EXPECT_NE(to_global.program->failure.find("other than from global into shared memory"),
            std::string::npos)
      << to_global.program->failure;
}

// A static shared array's address, as the program sees it, is 16-byte aligned, as the emulator
// places each array in the block's shared memory (worker_sites.cpp): arrays of 1, 3, 8 and 48
// bytes after one another each print 0. Left to g++ (thread_local arrays of their own
// alignment), this program printed "0 0 0 8" at -O1 (the 48-byte array at 8), and the test
// above's 64-byte tile was at 8 at -O0, where its copy then read 8 bytes of alignment, not 16.
TEST(CoursePrograms, AStaticSharedArraysAddressIsAlignedAsTheEmulatorPlacesIt) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
__global__ void k() {
  __shared__ char one;
  __shared__ char three[3];
  __shared__ float two[2];
  __shared__ double six[2][3];
  one = 1; three[0] = 1; two[0] = 1; six[0][0] = 1;
  printf("%d %d %d %d\n", (int)((unsigned long long)&one % 16), (int)((unsigned long long)three % 16),
         (int)((unsigned long long)two % 16), (int)((unsigned long long)six % 16));
}
int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "0 0 0 0\n");
}

}  // namespace
}  // namespace ws
