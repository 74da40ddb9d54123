// The race check on both engines (docs/ENGINE.md, "Races over the whole grid"): values read
// back later, whole warps' reads kept aside or passed over, a write resetting a word's first read,
// and what the SIMT path refuses rather than gets wrong. Each program runs with no block kept
// (BothUnkept), and its hazards, examples and values are checked by hand.
#include <gtest/gtest.h>

#include <string>

#include "program_engines.h"

namespace ws {
namespace {

using testing_engines::BothUnkept;
using testing_engines::ExpectSame;

// A program's host side for a kernel that writes 64 ints into `out`: `launch` runs it, and the
// program prints their sum.
std::string SumOf64(const std::string& launch) {
  return "int main() {\n"
         "  int* out;\n"
         "  cudaMallocManaged(&out, 64 * sizeof(int));\n"
         "  " +
         launch +
         "\n"
         "  cudaDeviceSynchronize();\n"
         "  long t = 0;\n"
         "  for (int i = 0; i < 64; ++i) t += out[i];\n"
         "  printf(\"%ld\\n\", t);\n"
         "  return 0;\n"
         "}\n";
}

// A shared load in a statement that stores nothing is kept without its values on the SIMT path
// and read from memory before the block's next store (RecordWarpAccess): here every thread reads
// its right neighbour's word, then only the second warp writes its own (a write-after-read race
// with the first warp's last thread, and within the second warp). The first warp's loads are read
// back only when the second warp's first store comes: the values must be those the threads saw,
// (t + 1) x 10, on both engines. (No block is kept: a kept block's loads keep their values.)
TEST(Engines, ARacesReadValueIsTheOneTheThreadSaw) {
  const std::string text = R"(#include <cstdio>
__global__ void neighbours(int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x * 10;
  s[threadIdx.x + 64] = (threadIdx.x + 64) * 10;
  __syncthreads();
  int v = s[threadIdx.x + 1];
  if (threadIdx.x >= 32) s[threadIdx.x] = v + 1;
  __syncthreads();
  out[threadIdx.x] = v;
}
)" + SumOf64("neighbours<<<1, 64>>>(out);");
  const auto [simt, fiber] = BothUnkept("neighbours.cu", text);
  ExpectSame(simt, fiber, "neighbours.cu", true);
  // Every thread read (t + 1) x 10: 10 x (1 + ... + 64).
  EXPECT_NE(simt.program->stdout_text.find("20800"), std::string::npos)
      << simt.program->stdout_text;
  ASSERT_EQ(simt.launches.size(), 1u);
  ASSERT_EQ(fiber.launches.size(), 1u);
  EXPECT_EQ(simt.launches[0].engine, "simt") << simt.launches[0].engine_reason;
  const auto& a = simt.launches[0].hazards.groups;
  const auto& b = fiber.launches[0].hazards.groups;
  ASSERT_EQ(a.size(), b.size());
  bool war = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].example_first, b[i].example_first);
    EXPECT_EQ(a[i].example_second, b[i].example_second);
    EXPECT_EQ(a[i].count, b[i].count);
    if (a[i].kind != HazardKind::kWar) continue;
    war = true;
    // The read of s[u] by thread u - 1 (its value u x 10), the write of it by thread u (v + 1).
    const HazardAccess& r = a[i].example_first;
    const HazardAccess& w = a[i].example_second;
    EXPECT_TRUE(r.has_value && w.has_value);
    EXPECT_EQ(r.value, (r.thread + 1u) * 10u);
    EXPECT_EQ(w.thread, r.thread + 1u);
    EXPECT_EQ(w.value, (w.thread + 1u) * 10u + 1u);
  }
  EXPECT_TRUE(war);
}

// The same in a 16 x 4 block, whose warps read their shared words in rows of 16 (lane l at row
// l / 16): the loads are kept as rows (first, step 4, 68 bytes a row) and read back when the
// second warp's first store comes. s[y][x] starts as (17 y + x) x 10; thread (x, y) reads
// s[y][x + 1], (17 y + x + 1) x 10, and the threads of row 3, the second warp's second row,
// write theirs (v + 1): its reads must be at row 3's words. By hand: the sum 10 x (272 x (0 + 1 +
// 2 + 3) + 4 x 136) = 21760.
TEST(Engines, ARacesReadValueInRowsIsTheOneTheThreadSaw) {
  const std::string text = R"(#include <cstdio>
__global__ void rows(int* out) {
  __shared__ int s[4][17];
  const int x = threadIdx.x, y = threadIdx.y;
  s[y][x] = (17 * y + x) * 10;
  if (x == 15) s[y][16] = (17 * y + 16) * 10;
  __syncthreads();
  int v = s[y][x + 1];
  if (y == 3) s[y][x] = v + 1;
  __syncthreads();
  out[16 * y + x] = v;
}
)" + SumOf64("rows<<<1, dim3(16, 4)>>>(out);");
  const auto [simt, fiber] = BothUnkept("rows.cu", text);
  ExpectSame(simt, fiber, "rows.cu", true);
  EXPECT_NE(simt.program->stdout_text.find("21760"), std::string::npos)
      << simt.program->stdout_text;
  ASSERT_EQ(simt.launches.size(), 1u);
  EXPECT_EQ(simt.launches[0].engine, "simt") << simt.launches[0].engine_reason;
  bool war = false;
  for (const auto& g : simt.launches[0].hazards.groups) {
    if (g.kind != HazardKind::kWar) continue;
    war = true;
    const HazardAccess& r = g.example_first;
    const HazardAccess& w = g.example_second;
    const std::uint32_t y = r.thread / 16, x = r.thread % 16;
    EXPECT_EQ(y, 3u);
    EXPECT_TRUE(r.has_value && w.has_value);
    EXPECT_EQ(r.value, (17u * y + x + 1u) * 10u);
    EXPECT_EQ(w.thread, r.thread + 1u);
    EXPECT_EQ(w.value, (17u * y + x + 2u) * 10u + 1u);
  }
  EXPECT_TRUE(war);
}

// A whole warp's global loads that step evenly at one time, in an interval that writes no global
// memory, go to the shadow as they came, not sorted thread by thread (GlobalShadow::ApplyBatch);
// where one of them is not a read of a word already read (another block wrote it, or nobody read
// it yet) they must be put back in each thread's order. Block 0 writes words 64..127, which block
// 1 reads twice over (thread t: word 64 + t, then word 69 + t): word 69 + k is read by thread 5 + k
// before thread k in the order the warp made its requests, and after it in each thread's order;
// block 3 then writes words 69..127, and the read it pairs with must be the first in thread
// order. By hand: 64 + 59 reads after block 0's writes (123 read-after-write), 59 words written
// again by block 3 (59 write-after-write, 59 write-after-read): 241.
TEST(Engines, WholeWarpsGlobalReadsPairInEachThreadsOrder) {
  const std::string text = R"(#include <cstdio>
__global__ void relay(int* a, int* out) {
  const int i = blockIdx.x * 64 + threadIdx.x;
  if (blockIdx.x == 0) a[i + 64] = i;
  if (blockIdx.x == 3 && threadIdx.x >= 5) a[i - 128] = -i;
  __syncthreads();
  const int v = a[i] + a[(i + 5) % 256];
  __syncthreads();
  out[i] = v;
}
int main() {
  int *a, *out;
  cudaMallocManaged(&a, 256 * sizeof(int));
  cudaMallocManaged(&out, 256 * sizeof(int));
  for (int k = 0; k < 256; ++k) a[k] = k;
  relay<<<4, 64>>>(a, out);
  cudaDeviceSynchronize();
  printf("%d\n", out[0]);
  return 0;
}
)";
  const auto [simt, fiber] = BothUnkept("relay.cu", text);
  ExpectSame(simt, fiber, "relay.cu", false);
  ASSERT_EQ(simt.launches.size(), 1u);
  ASSERT_EQ(fiber.launches.size(), 1u);
  EXPECT_EQ(simt.launches[0].engine, "simt") << simt.launches[0].engine_reason;
  EXPECT_EQ(simt.launches[0].hazards.Total(), 241u);
  const auto& a = simt.launches[0].hazards.groups;
  const auto& b = fiber.launches[0].hazards.groups;
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind);
    EXPECT_EQ(a[i].count, b[i].count);
    EXPECT_EQ(a[i].example_first.block, b[i].example_first.block);
    EXPECT_EQ(a[i].example_first.thread, b[i].example_first.thread) << int(a[i].kind);
    EXPECT_EQ(a[i].example_first.time, b[i].example_first.time) << int(a[i].kind);
    EXPECT_EQ(a[i].example_second.thread, b[i].example_second.thread) << int(a[i].kind);
  }
}

// The shadow's bit a word (a first read since the last write that covers every byte; Quiet looks
// there first) must go with the read it stands for. Block 0 reads words 0..63; block 1 writes
// them (64 write-after-read with block 0) and reads them back (its own: no pair, but now the
// words' first reader); block 2 reads them (64 read-after-write) and then writes them (64
// write-after-write with block 1, 64 write-after-read with block 1's read): 256 by hand. Were the
// bit left when block 1's write reset the word, block 1's read would pass as already read and
// the last 64 would be lost.
TEST(Engines, AWriteResetsTheWordsFirstRead) {
  const std::string text = R"(#include <cstdio>
__global__ void turns(int* a, int* out) {
  const int i = threadIdx.x;
  if (blockIdx.x == 1) a[i] = i;
  __syncthreads();
  const int v = a[i];
  __syncthreads();
  if (blockIdx.x == 2) a[i] = -i;
  out[blockIdx.x * 64 + i] = v;
}
int main() {
  int *a, *out;
  cudaMallocManaged(&a, 64 * sizeof(int));
  cudaMallocManaged(&out, 192 * sizeof(int));
  for (int k = 0; k < 64; ++k) a[k] = k;
  turns<<<3, 64>>>(a, out);
  cudaDeviceSynchronize();
  printf("%d\n", out[0]);
  return 0;
}
)";
  const auto [simt, fiber] = BothUnkept("turns.cu", text);
  ExpectSame(simt, fiber, "turns.cu", false);
  ASSERT_EQ(simt.launches.size(), 1u);
  EXPECT_EQ(simt.launches[0].engine, "simt") << simt.launches[0].engine_reason;
  EXPECT_EQ(simt.launches[0].hazards.Total(), 256u);
  EXPECT_EQ(fiber.launches[0].hazards.Total(), 256u);
}

// What the SIMT path refuses rather than gets wrong: a template whose instantiations call different
// overloads at one place (chosen by a dependent argument), a function template with an explicit
// specialization (a warp function made from the primary template's text would run the wrong
// body). And a write the recording does not see (memcpy into shared memory) first has the shared
// loads kept without values read theirs: a race's value is the one the thread saw. (Found by
// review; each case gave wrong output or a wrong value before.)
TEST(Engines, WhatTheWarpFunctionCannotSayRunsThreadByThread) {
  const std::string text = R"(#include <cstdio>
#include <cstring>
__device__ void put(float* o, int v) { o[threadIdx.x] = v + 0.5f; }
__device__ void put(float* o, float v) { o[threadIdx.x] = v * 2.0f; }
template <typename T> __global__ void fill(float* o) { T v = threadIdx.x; put(o, v); }
template <int D> __device__ float get(const float* a, int i) { return a[i + D]; }
template <> __device__ float get<0>(const float*, int) { return 1.0f; }
template <int D> __global__ void k(const float* a, float* o) {
  o[threadIdx.x] = get<D>(a, threadIdx.x);
}
__global__ void unseen(int* out) {
  __shared__ int s[64];
  int z = -7;
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int v = s[threadIdx.x];
  if (threadIdx.x == 1) memcpy(&s[2], &z, 4);
  if (threadIdx.x == 3) s[2] = 9;
  __syncthreads();
  out[threadIdx.x] = v;
}
int main() {
  float *a, *o;
  int* r;
  cudaMallocManaged(&a, 64 * sizeof(float));
  cudaMallocManaged(&o, 64 * sizeof(float));
  cudaMallocManaged(&r, 64 * sizeof(int));
  for (int i = 0; i < 64; ++i) a[i] = i;
  fill<int><<<1, 32>>>(o);
  cudaDeviceSynchronize();
  printf("%.1f ", o[3]);
  fill<float><<<1, 32>>>(o);
  cudaDeviceSynchronize();
  printf("%.1f ", o[3]);
  k<1><<<1, 32>>>(a, o);
  cudaDeviceSynchronize();
  printf("%.1f ", o[3]);
  k<0><<<1, 32>>>(a, o);
  cudaDeviceSynchronize();
  printf("%.1f ", o[3]);
  unseen<<<1, 64>>>(r);
  cudaDeviceSynchronize();
  printf("%d\n", r[2]);
  return 0;
}
)";
  const auto [simt, fiber] = BothUnkept("refused.cu", text);
  // unseen() races, and the engines interleave it differently: thread by thread, thread 2 reads
  // the -7 thread 1's memcpy left; a warp's lanes together, it reads its own 2 first.
  ExpectSame(simt, fiber, "refused.cu", false);
  // put(int): 3 + 0.5; put(float): 3 x 2; get<1>: a[4]; get<0>: 1; s[2] as thread 2 read it.
  EXPECT_NE(simt.program->stdout_text.find("3.5 6.0 4.0 1.0 2\n"), std::string::npos)
      << simt.program->stdout_text;
  EXPECT_NE(fiber.program->stdout_text.find("3.5 6.0 4.0 1.0 -7\n"), std::string::npos)
      << fiber.program->stdout_text;
  ASSERT_EQ(simt.launches.size(), 5u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(simt.launches[i].engine, "fiber") << simt.launches[i].kernel;
    EXPECT_NE(simt.launches[i].engine_reason.find(i < 2 ? "call different functions at one place"
                                                        : "an explicit specialization"),
              std::string::npos)
        << simt.launches[i].engine_reason;
  }
  EXPECT_EQ(simt.launches[4].engine, "simt") << simt.launches[4].engine_reason;
  // Thread 2's read of s[2] against thread 3's write: the value read is the one thread 2 kept in
  // v (2), not what memcpy wrote after it (-7), though its values were read later.
  bool war = false;
  for (const HazardGroup& g : simt.launches[4].hazards.groups) {
    if (g.kind != HazardKind::kWar) continue;
    war = true;
    EXPECT_EQ(g.example_first.thread, 2u);
    EXPECT_EQ(g.example_first.value, 2u);
    EXPECT_EQ(g.example_second.thread, 3u);
    EXPECT_EQ(g.example_second.value, 9u);
  }
  EXPECT_TRUE(war);
}

}  // namespace
}  // namespace ws
