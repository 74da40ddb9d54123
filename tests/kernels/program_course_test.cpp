// The device code a course writes, run unmodified on the emulator (issue 21, docs/PROGRAMS.md "What
// is supported"): device printf, math and clocks, __ldg, the runtime calls, cooperative groups,
// struct copies, texture objects, assert, launches as courses write them, warp match and reduce.
// program_rounding_test.cpp has their directed and fused roundings;
// program_course_memory_test.cpp has their registers, races and memory; program_files_test.cpp
// the rest: files, paths, sizes, requests, refusals, stops.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include "engine_compare.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/kernel_table.h"

namespace ws {
namespace {

using test::Folder;
using test::ReadExample;
using test::RunText;
using test::SiteAt;

TEST(CoursePrograms, DevicePrintfComesInBlockOrderThenThreadOrder) {
  // Two blocks of four threads; the emulator prints a launch's lines when it ends, block by
  // block, each block's in the order its threads ran (thread order between barriers).
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void hello() { printf(\"block %d thread %d\\n\", blockIdx.x, threadIdx.x); }\n"
      "int main() { printf(\"host first\\n\"); hello<<<2, 4>>>(); cudaDeviceSynchronize();\n"
      "  printf(\"host last\\n\"); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text,
            "host first\n"
            "block 0 thread 0\nblock 0 thread 1\nblock 0 thread 2\nblock 0 thread 3\n"
            "block 1 thread 0\nblock 1 thread 1\nblock 1 thread 2\nblock 1 thread 3\n"
            "host last\n");
}

TEST(CoursePrograms, DeviceMathAndIntrinsicsGiveTheirValues) {
  LessonRun run = RunText(
      "#include <cstdio>\n#include <cmath>\n#include <math.h>\n"
      "__global__ void m(float* o) {\n"
      "  o[0] = sqrtf(16.0f); o[1] = expf(0.0f); o[2] = fabsf(-2.5f); o[3] = powf(2.0f, 10.0f);\n"
      "  o[4] = logf(1.0f); o[5] = sinf(0.0f); o[6] = ceil(1.2); o[7] = floor(1.8);\n"
      "  o[8] = abs(-3); o[9] = fmaxf(1.0f, 7.0f); o[10] = __expf(0.0f); o[11] = rsqrtf(4.0f);\n"
      "  o[12] = __fdividef(1.0f, 4.0f); o[13] = __popc(0xffu); o[14] = std::sqrt(9.0f);\n"
      "  o[15] = __int_as_float(__float_as_int(1.5f)); o[16] = min(3, 5); o[17] = "
      "__saturatef(2.f);\n"
      "}\n"
      "int main() { float* d; cudaMalloc(&d, 18 * 4); m<<<1, 1>>>(d); float h[18];\n"
      "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
      "  for (int i = 0; i < 18; ++i) printf(\"%g \", h[i]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "4 1 2.5 1024 0 0 2 1 3 7 1 0.5 0.25 8 3 1.5 3 1 ");
}

TEST(CoursePrograms, ClocksReadTheModelsCycles) {
  // The emulator's clock ticks once per recorded access of the thread and once per read of it:
  // from t0 to t1 the reads of c0 and g0, two stores and t0's own read are 5 cycles (and so from c0
  // to c1 and from g0 to g1); clock(), clock64() and %globaltimer all read it.
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void c(int* a, long long* t) {\n"
      "  long long t0 = clock64(); clock_t c0 = clock();\n"
      "  unsigned long long g0; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g0));\n"
      "  a[threadIdx.x] = 1; a[threadIdx.x + 32] = 2;\n"
      "  long long t1 = clock64(); clock_t c1 = clock();\n"
      "  unsigned long long g1; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g1));\n"
      "  if (threadIdx.x == 0) { t[0] = t1 - t0; t[1] = c1 - c0; t[2] = g1 - g0; }\n"
      "}\n"
      "int main() { int* a; long long* t; cudaMalloc(&a, 256); cudaMalloc(&t, 24);\n"
      "  c<<<1, 32>>>(a, t); long long h[3]; cudaMemcpy(h, t, 24, cudaMemcpyDeviceToHost);\n"
      "  printf(\"%lld %lld %lld\\n\", h[0], h[1], h[2]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "5 5 5\n");
}

// A loop that waits for the clock to pass a count ends (cuda-samples' simpleHyperQ spins so for
// 10 ms of clock() a kernel; before clock reads ticked, the clock stood still and it never
// ended): the first read is 0, each read ticks once, so the loop reads 1 to 1,000 and counts the
// 999 below 1,000; %globaltimer the same.
TEST(CoursePrograms, ALoopWaitingForTheClockEnds) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void spin(int* n) {\n"
      "  long long s = clock64(); int k = 0; while (clock64() - s < 1000) ++k; n[0] = k;\n"
      "  unsigned long long g0, g; int j = 0;\n"
      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g0));\n"
      "  do { asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(g)); ++j; } while (g - g0 < "
      "500);\n"
      "  n[1] = j; }\n"
      "int main() { int* n; cudaMallocManaged(&n, 8); spin<<<1, 1>>>(n);\n"
      "  cudaDeviceSynchronize(); printf(\"%d %d\\n\", n[0], n[1]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "999 500\n");
}

// The model's time of a launch is at least the latest clock its threads read (a tick a cycle at
// the device's clock): a kernel that spins on clock64() for the device's clockRate (kHz) cycles
// waits 1 ms, as cuda-samples' simpleHyperQ's clock_block waits 10 ms, where its events read 0
// before. By hand: the first read is 0 and the loop's last read returns N: N cycles, 1 ms; with
// the launch's fixed 2 us, 1.0020 ms (its single 32-byte sector's DRAM time is far below). The
// second kernel's thread makes one store and reads no clock: its memories' time stands (its
// thread's one tick, 0.5 ns, is not a floor), and its row says nothing of the clock.
TEST(CoursePrograms, ALaunchTakesAtLeastTheClockItsThreadsRead) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void spin(long long n, int* out) {\n"
      "  long long s = clock64(); while (clock64() - s < n) {} out[0] = 1; }\n"
      "__global__ void once(int* out) { out[1] = 2; }\n"
      "int main() { int* o; cudaMalloc(&o, 8); cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
      "  cudaEvent_t a, b, c; cudaEventCreate(&a); cudaEventCreate(&b); cudaEventCreate(&c);\n"
      "  cudaEventRecord(a); spin<<<1, 1>>>(p.clockRate, o); cudaEventRecord(b);\n"
      "  once<<<1, 1>>>(o); cudaEventRecord(c); cudaEventSynchronize(c);\n"
      "  float ms = 0, ms2 = 0; cudaEventElapsedTime(&ms, a, b);\n"
      "  cudaEventElapsedTime(&ms2, b, c);\n"
      "  printf(\"%.4f %.4f\\n\", ms, ms2); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "1.0020 0.0020\n");
  const std::vector<KernelRow> rows = KernelTable(run, *FindDevicePreset("hopper"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].kernel, "spin");  // slowest first
  EXPECT_EQ(rows[0].clock_bound_launches, 1u);
  EXPECT_TRUE(rows[0].ClockBoundSaid());
  EXPECT_NEAR(rows[0].ms, 1.0, 1e-5);
  EXPECT_FALSE(rows[1].ClockBoundSaid());
  EXPECT_LT(rows[1].ms, 1e-6);
  const std::string text = KernelsText(rows, run, *FindDevicePreset("hopper"));
  EXPECT_NE(text.find("spin: 1 of 1 launch timed by the clock its threads read"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("once: "), std::string::npos) << text;
  // Kept in the run's file: a launch's stats carry the clock (trace_file_json.cpp).
  EXPECT_GE(run.launches[0].stats.thread_clock, 1000000u);
  EXPECT_EQ(run.launches[1].stats.thread_clock, 0u);
}

TEST(CoursePrograms, LdgAndRestrictAndLaunchBoundsCompileAndLdgIsRecorded) {
  LessonRun run = RunText(
      "__global__ void __launch_bounds__(256) k(float* __restrict__ o,\n"
      "                                        const float* __restrict__ i) {\n"
      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  o[t] = __ldg(&i[t]) * 2.0f;\n"
      "}\n"
      "__forceinline__ __device__ int twice(int v) { return 2 * v; }\n"
      "__global__ void j(int* o) { o[0] = twice(1); }\n"
      "int main() { float *a, *b; cudaMalloc(&a, 1024); cudaMalloc(&b, 1024);\n"
      "  k<<<1, 256>>>(a, b); j<<<1, 1>>>((int*)a); cudaDeviceSynchronize(); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  ASSERT_EQ(run.launches.size(), 2u);
  const LaunchTrace& t = run.launches[0];
  std::size_t i = 0;
  const SiteInfo* ldg = SiteAt(t, 4, 16, &i);  // the pointer __ldg takes: &i[t], column 16
  ASSERT_NE(ldg, nullptr);
  EXPECT_EQ(ldg->op, AccessOp::kLoad);
  // 8 warps, each reading 32 consecutive floats: 4 sectors a request.
  EXPECT_EQ(t.stats.sites[i].requests, 8u);
  EXPECT_EQ(t.stats.sites[i].sectors, 32u);
}

TEST(CoursePrograms, RuntimeCallsACourseMakes) {
  LessonRun run = RunText(
      "#include <cstdio>\n#include <cuda_profiler_api.h>\n"
      "__global__ void k(float* p, size_t pitch) {\n"
      "  float* row = (float*)((char*)p + blockIdx.x * pitch); row[threadIdx.x] += 1.0f; }\n"
      "int main() {\n"
      "  int major = 0, minor = 0, sms = 0, blocks = 0;\n"
      "  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);\n"
      "  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);\n"
      "  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n"
      "  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);\n"
      "  cudaStream_t s1, s2; cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);\n"
      "  cudaStreamCreate(&s2);\n"
      "  float* d; size_t pitch = 0; cudaMallocPitch(&d, &pitch, 100 * sizeof(float), 4);\n"
      "  float h[4][100]; for (int r = 0; r < 4; ++r) for (int c = 0; c < 100; ++c) h[r][c] = r;\n"
      "  cudaMemcpy2D(d, pitch, h, sizeof h[0], sizeof h[0], 4, cudaMemcpyHostToDevice);\n"
      "  cudaProfilerStart();\n"
      "  k<<<4, 100, 0, s1>>>(d, pitch); k<<<4, 100, 0, s2>>>(d, pitch);\n"
      "  cudaProfilerStop(); cudaStreamSynchronize(s1); cudaStreamSynchronize(s2);\n"
      "  cudaMemcpy2D(h, sizeof h[0], d, pitch, sizeof h[0], 4, cudaMemcpyDeviceToHost);\n"
      "  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);\n"
      "  printf(\"%d.%d %d %d %zu %g %s\\n\", major, minor, sms, blocks, pitch, h[3][99],\n"
      "         cudaGetErrorName(cudaErrorAssert));\n"
      "  return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  // Compute 9.0 with the hopper preset's 132 SMs; 2048 threads an SM / 256 = 8 blocks; a row
  // of 400 bytes padded to 512; 3 + 1 + 1 after the two launches (each adds 1).
  EXPECT_EQ(run.program->stdout_text, "9.0 132 8 512 5 cudaErrorAssert\n");
  ASSERT_EQ(run.launches.size(), 2u);  // both streams' launches, in program order
}

// Stream-ordered allocation and memory pools (ws_program_pools.h): buffers from a pool are the
// program's buffers (a kernel's accesses recorded in them); the pool counts its bytes. By hand,
// with 1 MiB buffers: three in use (3 MiB, the high mark 3); one freed under the default release
// threshold of 0 (in use 2, reserved 2: the freed MiB goes back); with the threshold at ULONG_MAX
// one more freed keeps its MiB (in use 1, reserved 2); trimmed to 0, reserved 1; the default
// pool is another pool (its bytes 0 when the created one is the device's current).
TEST(CoursePrograms, MemoryPoolsAllocateAndCountTheirBytes) {
  LessonRun run = RunText(
      "#include <cstdio>\n#include <climits>\n#include <cstdint>\n"
      "__global__ void fill(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; }\n"
      "int main() {\n"
      "  cudaMemPoolProps props = {}; props.allocType = cudaMemAllocationTypePinned;\n"
      "  props.location.type = cudaMemLocationTypeDevice; props.location.id = 0;\n"
      "  cudaMemPool_t pool, def; cudaMemPoolCreate(&pool, &props);\n"
      "  cudaDeviceGetDefaultMemPool(&def, 0); cudaDeviceSetMemPool(0, pool);\n"
      "  cudaStream_t s; cudaStreamCreate(&s);\n"
      "  const size_t mib = 1 << 20; float *a, *b, *c;\n"
      "  cudaMallocAsync(&a, mib, s); cudaMallocAsync(&b, mib, s);\n"
      "  cudaMallocFromPoolAsync(&c, mib, pool, s);\n"
      "  fill<<<1024, 256, 0, s>>>(c);\n"
      "  uint64_t used = 0, reserved = 0, high = 0, d = 0;\n"
      "  auto show = [&] {\n"
      "    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);\n"
      "    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);\n"
      "    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);\n"
      "    printf(\"%llu %llu %llu\\n\", (unsigned long long)(used / mib),\n"
      "           (unsigned long long)(reserved / mib), (unsigned long long)(high / mib));\n"
      "  };\n"
      "  show();\n"
      "  cudaFreeAsync(a, s); show();\n"
      "  uint64_t keep = ULONG_MAX;\n"
      "  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);\n"
      "  cudaFreeAsync(b, s); show();\n"
      "  cudaMemPoolTrimTo(pool, 0); show();\n"
      "  float h = 0; cudaMemcpyAsync(&h, c + 777, sizeof h, cudaMemcpyDeviceToHost, s);\n"
      "  cudaStreamSynchronize(s); cudaFreeAsync(c, s);\n"
      "  cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemHigh, &d);\n"
      "  printf(\"%g %llu %s\\n\", h, (unsigned long long)d,\n"
      "         cudaGetErrorName(cudaMemPoolDestroy(pool)));\n"
      "  return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "3 3 3\n2 2 3\n1 2 3\n1 1 3\n2 0 cudaSuccess\n");
  ASSERT_EQ(run.launches.size(), 1u);
  ASSERT_FALSE(run.launches[0].sites.empty());
  // The store into c, the third buffer (ids from 0): a pool's buffer is a buffer.
  EXPECT_EQ(run.launches[0].sites[0].buffer, 2u);
  EXPECT_EQ(run.launches[0].stats.sites[0].accesses, 1024u * 256u);
}

// Layered, cubemap and 3D arrays (cudaMalloc3DArray, cudaMemcpy3D) read by tex2DLayered,
// texCubemap and tex3D, point sampled. By hand: a cubemap of 1 x 1 faces holding 10 x face reads
// face 0 (+x), 1 (-x), 2 (+y), 3 (-y), 4 (+z), 5 (-z) along the axes, and x at a tie of x and
// y; a 2 x 1 array of 3 layers holding 10 x layer + x reads 11 at (1.5, 0.5) in layer 1, 21 in
// layer 7 (clamped to the last) and 1 in layer -1 (the first); a 2 x 2 x 2 array holding
// x + 10 y + 100 z reads 101 at (1.5, 0.5, 1.5). Each fetch is a texture read of its array.
TEST(CoursePrograms, LayeredCubemapAnd3DTexturesFetchTheirTexels) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void k(cudaTextureObject_t cube, cudaTextureObject_t lay, cudaTextureObject_t "
      "vol, float* out) {\n"
      "  const float d[7][3] = {{1,0,0},{-1,0,0},{0,1,0},{0,-1,0},{0,0,1},{0,0,-1},{1,1,0}};\n"
      "  for (int i = 0; i < 7; ++i) out[i] = texCubemap<float>(cube, d[i][0], d[i][1], d[i][2]);\n"
      "  out[7] = tex2DLayered<float>(lay, 1.5f, 0.5f, 1);\n"
      "  out[8] = tex2DLayered<float>(lay, 1.5f, 0.5f, 7);\n"
      "  out[9] = tex2DLayered<float>(lay, 1.5f, 0.5f, -1);\n"
      "  out[10] = tex3D<float>(vol, 1.5f, 0.5f, 1.5f);\n"
      "}\n"
      "cudaTextureObject_t Make(cudaExtent e, unsigned flags, const float* h, bool norm) {\n"
      "  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>(); cudaArray_t a;\n"
      "  cudaMalloc3DArray(&a, &f, e, flags);\n"
      "  cudaMemcpy3DParms p = {0}; p.srcPtr = make_cudaPitchedPtr((void*)h, e.width * 4, "
      "e.width, e.height);\n"
      "  p.dstArray = a; p.extent = e; p.kind = cudaMemcpyHostToDevice; cudaMemcpy3D(&p);\n"
      "  cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;\n"
      "  cudaTextureDesc t = {}; t.normalizedCoords = norm; t.filterMode = cudaFilterModePoint;\n"
      "  t.readMode = cudaReadModeElementType; cudaTextureObject_t o = 0;\n"
      "  cudaCreateTextureObject(&o, &r, &t, nullptr); return o;\n"
      "}\n"
      "int main() {\n"
      "  float faces[6], layers[6], vol[8];\n"
      "  for (int f = 0; f < 6; ++f) faces[f] = 10 * f;\n"
      "  for (int l = 0; l < 3; ++l) for (int x = 0; x < 2; ++x) layers[l * 2 + x] = 10 * l + x;\n"
      "  for (int z = 0; z < 2; ++z) for (int y = 0; y < 2; ++y) for (int x = 0; x < 2; ++x)\n"
      "    vol[z * 4 + y * 2 + x] = x + 10 * y + 100 * z;\n"
      "  cudaTextureObject_t c = Make(make_cudaExtent(1, 1, 6), cudaArrayCubemap, faces, true);\n"
      "  cudaTextureObject_t l = Make(make_cudaExtent(2, 1, 3), cudaArrayLayered, layers, false);\n"
      "  cudaTextureObject_t v = Make(make_cudaExtent(2, 2, 2), 0, vol, false);\n"
      "  float* out; cudaMallocManaged(&out, 11 * sizeof(float));\n"
      "  k<<<1, 1>>>(c, l, v, out); cudaDeviceSynchronize();\n"
      "  for (int i = 0; i < 11; ++i) printf(\"%g \", out[i]);\n"
      "  printf(\"\\n\"); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "0 10 20 30 40 50 0 11 21 1 101 \n");
  ASSERT_EQ(run.launches.size(), 1u);
  int texture_sites = 0;
  for (const SiteInfo& s : run.launches[0].sites)
    texture_sites += s.space == MemorySpace::kTexture ? 1 : 0;
  EXPECT_EQ(texture_sites, 5);  // texCubemap's, three tex2DLayered's (lines 6-8) and tex3D's
}

TEST(CoursePrograms, CooperativeGroupsAreTheWarpMeetingsAndBarriersTheyAre) {
  LessonRun run = RunText(
      "#include <cstdio>\n#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
      "namespace cg = cooperative_groups;\n"
      "__global__ void sum(const int* in, int* out) {\n"
      "  cg::thread_block block = cg::this_thread_block();\n"
      "  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
      "  int v = in[block.group_index().x * block.size() + block.thread_rank()];\n"
      "  int s = cg::reduce(tile, v, cg::plus<int>());\n"  // line 9
      "  block.sync();\n"                                  // line 10
      "  if (tile.thread_rank() == 0) atomicAdd(&out[0], s);\n"
      "  int m = cg::reduce(tile, v, cg::greater<int>());\n"
      "  if (block.thread_rank() == 0) atomicMax(&out[1], m);\n"
      "  unsigned even = tile.ballot(v % 2 == 0);\n"
      "  if (tile.meta_group_rank() == 1 && tile.thread_rank() == 0) out[2 + blockIdx.x] = even;\n"
      "}\n"
      "int main() { int h[256]; for (int i = 0; i < 256; ++i) h[i] = i;\n"
      "  int *d, *o; cudaMalloc(&d, sizeof h); cudaMalloc(&o, 16); cudaMemset(o, 0, 16);\n"
      "  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice); sum<<<2, 128>>>(d, o);\n"
      "  int r[4]; cudaMemcpy(r, o, 16, cudaMemcpyDeviceToHost);\n"
      "  printf(\"%d %d %x\\n\", r[0], r[1], r[2]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  // 0 + 1 + ... + 255 = 32640; the largest value of each block's first tile (thread 0 takes
  // it): 31 and 159; even values: every other lane.
  EXPECT_EQ(run.program->stdout_text, "32640 159 55555555\n");
  const LaunchTrace& t = run.launches[0];
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  EXPECT_EQ(t.barrier_sites[0].line, 10u);
  // Each reduce: a butterfly of 5 shuffles in each of the 8 warps.
  std::map<std::uint32_t, std::uint64_t> meetings;
  for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i)
    meetings[t.warp_op_sites[i].line] += t.warp_op_counts[i];
  EXPECT_EQ(meetings[9], 40u);
  EXPECT_EQ(meetings[12], 40u);
  EXPECT_EQ(meetings[14], 8u);  // every tile's ballot
}

TEST(CoursePrograms, StructAndVectorCopiesOutOfMemoryAreLoads) {
  LessonRun run = RunText(
      "__global__ void copy4(float4* out, const float4* v) {\n"
      "  int l = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[l] = v[l];\n"
      "  __shared__ __align__(16) float tile[128];\n"
      "  tile[threadIdx.x] = 1.0f;\n"
      "  __syncthreads();\n"
      "  float4 q = reinterpret_cast<float4*>(tile)[threadIdx.x % 32];\n"
      "  out[l].x += q.y;\n"
      "}\n"
      "int main() { float4 *a, *b; cudaMalloc(&a, 128 * 16); cudaMalloc(&b, 128 * 16);\n"
      "  copy4<<<1, 128>>>(a, b); cudaDeviceSynchronize(); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  const LaunchTrace& t = run.launches[0];
  std::size_t i = 0;
  const SiteInfo* load = SiteAt(t, 3, 12, &i);  // v[l]
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->op, AccessOp::kLoad);
  EXPECT_EQ(load->size, 16);
  // 4 warps of 32 float4s (512 bytes): 16 sectors a request.
  EXPECT_EQ(t.stats.sites[i].requests, 4u);
  EXPECT_EQ(t.stats.sites[i].sectors, 64u);
  const SiteInfo* shared = SiteAt(t, 7, 14, &i);  // the 16-byte shared load
  ASSERT_NE(shared, nullptr);
  EXPECT_EQ(shared->space, MemorySpace::kShared);
  EXPECT_EQ(shared->size, 16);
}

TEST(CoursePrograms, TextureObjectsFetchAndAreRecordedAsTextureReads) {
  const std::string program =
      "#include <cstdio>\n"
      "__global__ void rd(cudaTextureObject_t t, cudaTextureObject_t f, cudaTextureObject_t u,\n"
      "                   float* o) {\n"
      "  int x = threadIdx.x, y = blockIdx.x;\n"
      "  o[y * 32 + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);\n"  // line 5
      "  if (x == 0 && y == 0) { o[128] = tex1D<float>(f, 1.0f); o[129] = tex2D<float>(u, 0.5f, "
      "0.5f);\n"
      "    o[130] = tex2D<float>(t, -3.0f, 9.0f); }\n"
      "}\n"
      "int main() {\n"
      "  float img[4][32]; for (int y = 0; y < 4; ++y) for (int x = 0; x < 32; ++x) img[y][x] = y "
      "* 100 + x;\n"
      "  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();\n"
      "  cudaArray_t arr; cudaMallocArray(&arr, &d, 32, 4);\n"
      "  cudaMemcpy2DToArray(arr, 0, 0, img, 128, 128, 4, cudaMemcpyHostToDevice);\n"
      "  cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = arr;\n"
      "  cudaTextureDesc td = {}; td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;\n"
      "  cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &td, nullptr);\n"
      "  float* two; cudaMalloc(&two, 8); float v[2] = {0, 10};\n"
      "  cudaMemcpy(two, v, 8, cudaMemcpyHostToDevice);\n"
      "  cudaResourceDesc rl = {}; rl.resType = cudaResourceTypeLinear; rl.res.linear.devPtr = "
      "two;\n"
      "  rl.res.linear.desc = d; rl.res.linear.sizeInBytes = 8;\n"
      "  cudaTextureDesc lin = td; lin.filterMode = cudaFilterModeLinear;\n"
      "  cudaTextureObject_t f; cudaCreateTextureObject(&f, &rl, &lin, nullptr);\n"
      "  cudaChannelFormatDesc du = cudaCreateChannelDesc<unsigned char>();\n"
      "  cudaArray_t ua; cudaMallocArray(&ua, &du, 1, 1); unsigned char b = 51;\n"
      "  cudaMemcpy2DToArray(ua, 0, 0, &b, 1, 1, 1, cudaMemcpyHostToDevice);\n"
      "  cudaResourceDesc ru = {}; ru.resType = cudaResourceTypeArray; ru.res.array.array = ua;\n"
      "  cudaTextureDesc norm = td; norm.readMode = cudaReadModeNormalizedFloat;\n"
      "  cudaTextureObject_t u; cudaCreateTextureObject(&u, &ru, &norm, nullptr);\n"
      "  float* o; cudaMalloc(&o, 131 * 4); rd<<<4, 32>>>(t, f, u, o);\n"
      "  float h[131]; cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);\n"
      "  printf(\"%g %g %g %g %g\\n\", h[2 * 32 + 5], h[128], h[129], h[130], h[127]); return 0; "
      "}\n";
  LessonRun run = RunText(program);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  // The fetches run on the SIMT path (each lane's texel into its statement's slot: TexLane), with
  // the per-thread path's figures.
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].engine, "simt") << run.launches[0].engine_reason;
  ProgramOptions fiber;
  fiber.engine = "fiber";
  const LessonRun thread_by_thread = RunText(program, fiber);
  ASSERT_TRUE(thread_by_thread.program->ok()) << thread_by_thread.program->failure;
  EXPECT_EQ(thread_by_thread.program->stdout_text, run.program->stdout_text);
  ASSERT_EQ(thread_by_thread.launches.size(), 1u);
  testing_engines::ExpectSameLaunches(run.launches, thread_by_thread.launches, "texture fetches");
  // Texel (5, 2) = 205; halfway between 0 and 10 = 5; 51 / 255 = 0.2; (-3, 9) clamped to (0, 3)
  // = 300; texel (31, 3) = 331.
  EXPECT_EQ(run.program->stdout_text, "205 5 0.2 300 331\n");
  std::size_t i = 0;
  const SiteInfo* fetch = SiteAt(run.launches[0], 5, 19, &i);
  ASSERT_NE(fetch, nullptr);
  EXPECT_EQ(fetch->space, MemorySpace::kTexture);
  // A row of 32 floats a warp: 4 sectors a request, 4 requests.
  EXPECT_EQ(run.launches[0].stats.sites[i].requests, 4u);
  EXPECT_EQ(run.launches[0].stats.sites[i].sectors, 16u);
}

TEST(CoursePrograms, ADeviceAssertEndsTheLaunchAndTheProgramGoesOn) {
  // As on a GPU: the failed assertion is printed (CUDA's words), the launch ends, and every later
  // call returns cudaErrorAssert; no kernel runs after it.
  LessonRun run = RunText(
      "#include <cassert>\n#include <cstdio>\n"
      "__global__ void k(int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  assert(i < n);\n"
      "}\n"
      "int main() {\n"
      "  k<<<2, 32>>>(60);\n"
      "  cudaError_t e = cudaDeviceSynchronize();\n"
      "  printf(\"%s %s\\n\", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));\n"
      "  k<<<1, 1>>>(60);\n"
      "  return e == cudaErrorAssert ? 0 : 1;\n"
      "}\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->exit_code, 0);
  // Thread 28 of block 1 is the first with i = 60: the emulator stops the launch there.
  EXPECT_EQ(run.program->stdout_text,
            "test.cu:5: void k(int): block: [1,0,0], thread: [28,0,0] Assertion `i < n` "
            "failed.\ncudaErrorAssert cudaErrorAssert\n");
  EXPECT_TRUE(run.launches.empty());  // the failed launch has no figures; the later one never ran
}

TEST(CoursePrograms, LaunchesAsCoursesWriteThem) {
  // Through a function pointer (named after its kernel), a template kernel whose arguments are
  // deduced inside a function template, a default argument and NULL for a pointer, and
  // __CUDA_ARCH__ as nvcc's device pass sets it (900: the hopper preset).
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void twice(float* a, int* flag = NULL) {\n"
      "  a[threadIdx.x] *= 2;\n"
      "#if __CUDA_ARCH__ >= 700\n"
      "  if (flag != NULL) flag[0] = __CUDA_ARCH__;\n"
      "#endif\n"
      "}\n"
      "template <typename T> __global__ void fill(T* a, T v) { a[threadIdx.x] = v; }\n"
      "template <typename T> void run(T* a, T v) { fill<<<1, 32>>>(a, v); }\n"
      "int main() {\n"
      "  float* a; int* flag; cudaMalloc(&a, 128); cudaMalloc(&flag, 4);\n"
      "  run(a, 1.5f);\n"
      "  void (*k)(float*, int*) = twice;\n"
      "  k<<<1, 32>>>(a, flag);\n"
      "  twice<<<1, 32>>>(a);\n"
      "  float h[32]; int f = 0; cudaMemcpy(h, a, 128, cudaMemcpyDeviceToHost);\n"
      "  cudaMemcpy(&f, flag, 4, cudaMemcpyDeviceToHost);\n"
      "  printf(\"%g %d\\n\", h[31], f); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "6 900\n");  // 1.5 doubled twice
  ASSERT_EQ(run.launches.size(), 3u);
  EXPECT_EQ(run.launches[0].kernel, "fill");
  EXPECT_EQ(run.launches[1].kernel, "twice");  // the pointer's kernel, not "k"
  EXPECT_EQ(run.launches[2].kernel, "twice");
}

TEST(CoursePrograms, CudaArchAndTheDevicesPropertiesFollowThePreset) {
  // __CUDA_ARCH__ and cudaGetDeviceProperties' compute capability are the preset's: compute 9.0
  // (hopper, the default), 7.5 (turing), 1.3 (gt200); the compiled program is not reused across
  // presets.
  const std::string text =
      "#include <cstdio>\n"
      "__global__ void k(int* o) { o[0] = __CUDA_ARCH__; }\n"
      "int main() { int* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); int h = 0;\n"
      "  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); cudaDeviceProp p;\n"
      "  cudaGetDeviceProperties(&p, 0); printf(\"%d %d.%d\\n\", h, p.major, p.minor); }\n";
  for (const auto& [preset, want] : std::vector<std::pair<std::string, std::string>>{
           {"hopper", "900 9.0\n"}, {"turing", "750 7.5\n"}, {"gt200", "130 1.3\n"}}) {
    ProgramOptions o;
    o.preset = preset;
    LessonRun run = RunText(text, o);
    ASSERT_TRUE(run.program->ok()) << preset << ": " << run.program->failure;
    EXPECT_EQ(run.program->stdout_text, want) << preset;
  }
}

TEST(CoursePrograms, ConstexprDeviceFunctionsStayConstantExpressions) {
  // The rewriter marks loops and calls of device code, but not in a constexpr function, whose
  // value sizes an array here.
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__host__ __device__ constexpr int Sum(int n) {\n"
      "  int s = 0;\n"
      "  for (int i = 1; i <= n; ++i) s += i;\n"
      "  return s;\n"
      "}\n"
      "__global__ void k(int* out) {\n"
      "  __shared__ int tile[Sum(4)];\n"
      "  tile[threadIdx.x] = Sum(threadIdx.x);\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = tile[threadIdx.x];\n"
      "}\n"
      "int main() { int* d; cudaMalloc(&d, 40); k<<<1, 10>>>(d); int h[10];\n"
      "  cudaMemcpy(h, d, 40, cudaMemcpyDeviceToHost); printf(\"%d\\n\", h[9]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "45\n");  // 1 + 2 + ... + 9
}

TEST(CoursePrograms, MatchAndReduceAreOneWarpMeetingEach) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void k(unsigned* out) {\n"
      "  unsigned lane = threadIdx.x;\n"
      "  unsigned same = __match_any_sync(0xffffffff, lane % 4);\n"
      "  int sum = __reduce_add_sync(0xffffffff, (int)lane);\n"
      "  unsigned mx = __reduce_max_sync(0xffffffff, lane);\n"
      "  if (lane == 1) { out[0] = same; out[1] = sum; out[2] = mx; }\n"
      "}\n"
      "int main() { unsigned* d; cudaMalloc(&d, 12); k<<<1, 32>>>(d); unsigned h[3];\n"
      "  cudaMemcpy(h, d, 12, cudaMemcpyDeviceToHost);\n"
      "  printf(\"%x %u %u\\n\", h[0], h[1], h[2]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  // Lanes 1, 5, 9, ... share lane % 4 = 1; 0 + 1 + ... + 31 = 496; the largest lane 31.
  EXPECT_EQ(run.program->stdout_text, "22222222 496 31\n");
  std::uint64_t meetings = 0;
  for (std::uint64_t c : run.launches[0].warp_op_counts) meetings += c;
  EXPECT_EQ(meetings, 3u);  // one warp, three meetings
}

}  // namespace
}  // namespace ws
