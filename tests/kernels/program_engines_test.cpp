// The SIMT engine against the per-thread path (docs/ENGINE.md, "Identical figures"): every
// example, every assignment's solutions and a kernel for each construct the warp function
// expresses (divergent if/else, loops of lane-varying length, break, continue, an early return,
// __device__ functions with their own returns, loops and barriers, a template, a __device__
// function template called from a template and from a kernel, a thread_block_tile's sync, shuffle
// and rank, a kernel whose name a host function shares, a launch from a
// function template with deduced arguments, a thread_block's sync) run on both engines, and give
// the same output and, launch by launch, the same per-site figures, hazards, barrier instances and
// warp meetings. (The corpus test does the same over the public programs, where they are
// fetched.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>

#include "program_engines.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/program/program_rewrite.h"

namespace ws {
namespace {

using testing_engines::ExpectSame;

// Runs `text` (file `name` in `dir`) on both engines and compares them; `same_output` false for a
// racy program (the engines interleave its threads differently). Returns the SIMT run.
LessonRun Compare(const std::string& name, const std::filesystem::path& dir,
                  const std::string& text, bool same_output = true,
                  std::vector<std::string> defines = {}) {
  ProgramOptions o;
  o.defines = defines;
  LessonRun simt = RunProgramText(name, dir, text, o);
  o.engine = "fiber";
  LessonRun fiber = RunProgramText(name, dir, text, o);
  for (const LaunchTrace& t : fiber.launches) EXPECT_EQ(t.engine, "fiber");
  ExpectSame(simt, fiber, name, same_output);
  return simt;
}

std::string Read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Engines, EveryExampleGivesTheSameFiguresOnBoth) {
  for (const auto& e : std::filesystem::directory_iterator(WARPSCOPE_SOURCE_DIR "/examples")) {
    if (e.path().extension() != ".cu") continue;
    const std::string name = e.path().filename().string();
    SCOPED_TRACE(name);
    // block_transpose races (exercise 4.10): its output is the engines' interleaving.
    Compare(name, e.path().parent_path(), Read(e.path()), name != "block_transpose.cu");
  }
}

TEST(Engines, EveryAssignmentSolutionGivesTheSameFiguresOnBoth) {
  for (const auto& e :
       std::filesystem::directory_iterator(WARPSCOPE_SOURCE_DIR "/tests/assignments")) {
    if (e.path().extension() != ".cu") continue;
    SCOPED_TRACE(e.path().filename().string());
    Compare(e.path().filename().string(), e.path().parent_path(), Read(e.path()));
  }
}

// Each construct the warp function writes under the mask, in one program: the numbers are the
// program's own check; the figures must agree, and every kernel must have run on the SIMT path.
TEST(Engines, EveryConstructUnderTheMaskGivesTheSameFigures) {
  const std::string text = R"(#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float pick(const float* a, int i) {
  if (i % 3 == 0) return a[i] * 2.0f;
  float s = 0;
  for (int k = 0; k < i % 5; ++k) {
    if (k == 2) continue;
    s += a[(i + k) % 256];
    if (s > 600.0f) break;
  }
  return s;
}
__device__ void put(float* o, int i, float v) { o[i] = v; }
// A __device__ function template: called with its arguments written, from a template (dependent)
// and from a kernel (not); its arguments' own accesses come in g++'s order (last to first).
template <int D>
__device__ float scaled(const float* a, int i, float x) { return a[(i + D) % 256] * x; }
__device__ int blockSum(int* s, int v) {
  s[threadIdx.x] = v;
  __syncthreads();
  int t = 0;
  for (int k = 0; k < 8; ++k) t += s[(threadIdx.x + k) % blockDim.x];
  __syncthreads();
  return t;
}
__global__ void branches(const float* a, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  if (threadIdx.x % 4 == 0) v = a[i]; else if (threadIdx.x % 4 == 1) v = a[(i * 7) % n];
  else v = -a[n - 1 - i];
  int k = 0;
  while (k < (int)(threadIdx.x % 7)) { v += a[(i + k) % n]; ++k; }
  do { v *= 0.5f; --k; } while (k > 0);
  const float p = pick(a, i) + scaled<2>(a, i, a[(i + 1) % n]);
  put(o, i, v + p);
}
__global__ void sums(int* r) {
  __shared__ int s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  r[i] = blockSum(s, i);
}
template <int W>
__global__ void windows(const float* a, float* o, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[64 + W];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[block.thread_rank()] = a[i % n];
  if (threadIdx.x < W) tile[64 + threadIdx.x] = a[(i + 64) % n];
  block.sync();
  float s = 0;
  for (int k = 0; k < W; ++k) s += tile[threadIdx.x + k];
  o[i] = s + scaled<W>(a, i, tile[threadIdx.x]);
}
// Launched from a function template with its argument deduced (called as written: LaunchVia).
template <typename T>
__global__ void shifted(const T* a, T* o, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = a[(i + s) % 256] + (T)1;
}
template <typename T>
void shiftAll(const T* a, T* o, int s) { shifted<<<4, 64>>>(a, o, s); }
// Each instantiation calls another function, not by a dependent name (if constexpr).
template <bool B>
__global__ void either(const float* a, float* o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if constexpr (B) {
    put(o, i, a[i]);
  } else {
    const float p = pick(a, i);
    put(o, i, p);
  }
}
// A tile of 32: its sync, a shuffle in a __device__ function, its rank; a host function has the
// kernel's name.
__device__ float tileSum(cg::thread_block_tile<32> t, float v) {
  for (int d = 16; d > 0; d /= 2) v += t.shfl_down(v, d);
  return v;
}
__global__ void tiles(const float* a, float* o) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = a[i];
  cg::sync(tile);
  float v = s[(tile.thread_rank() + 1) % 32 + 32 * (threadIdx.x / 32)];
  tile.sync();
  v = tileSum(tile, v);
  if (tile.thread_rank() == 0) o[i / 32] = v;
}
void tiles(const char* what) { printf("%s\n", what); }
// Accesses only some lanes make (an arm of ?:, the right of && and ||), lane 0 among those that
// do not: their requests are those lanes', not the warp's (kAlways is for the others).
__global__ void arms(const float* a, float* o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (threadIdx.x % 3 == 1) ? a[i] : a[(i * 5) % 256];
  if (threadIdx.x % 4 != 0 && a[(i + 2) % 256] > 3.0f) v += 1.0f;
  if (threadIdx.x % 5 != 0 || a[(i + 7) % 256] < 2.0f) v -= 2.0f;
  o[i] = v;
}
int main() {
  float *a, *o; int* r;
  cudaMallocManaged(&a, 256 * sizeof(float));
  cudaMallocManaged(&o, 256 * sizeof(float));
  cudaMallocManaged(&r, 256 * sizeof(int));
  for (int i = 0; i < 256; ++i) a[i] = (float)(i % 13);
  branches<<<4, 64>>>(a, o, 250);
  cudaDeviceSynchronize();
  double s = 0; for (int i = 0; i < 250; ++i) s += o[i];
  sums<<<4, 64>>>(r);
  windows<5><<<4, 64>>>(a, o, 256);
  cudaDeviceSynchronize();
  long t = 0; for (int i = 0; i < 256; ++i) t += r[i];
  double w = 0; for (int i = 0; i < 256; ++i) w += o[i];
  shiftAll(a, o, 3);
  cudaDeviceSynchronize();
  double u = 0; for (int i = 0; i < 256; ++i) u += o[i] * (i % 7);
  either<true><<<4, 64>>>(a, o);
  either<false><<<4, 64>>>(a, o);
  tiles<<<4, 64>>>(a, o);
  cudaDeviceSynchronize();
  tiles("tiles:");
  for (int i = 0; i < 8; ++i) printf("%.1f ", o[i]);
  printf("%.1f %ld %.1f %.1f\n", s, t, w, u);
  arms<<<4, 64>>>(a, o);
  cudaDeviceSynchronize();
  double z = 0; for (int i = 0; i < 256; ++i) z += o[i];
  printf("arms: %.1f\n", z);
  return 0;
}
)";
  const LessonRun run = Compare("constructs.cu", WARPSCOPE_SOURCE_DIR "/examples", text);
  ASSERT_EQ(run.launches.size(), 8u);
  // tiles: each warp's 32 values of a (i % 13), summed: warp 0 holds 0..12 twice and 0..5.
  EXPECT_NE(run.program->stdout_text.find("tiles:\n171.0 "), std::string::npos)
      << run.program->stdout_text;
  // arms: with a[i] = i % 13, each i's v summed by hand (a loop of the kernel's three lines in
  // Python): 1215.
  EXPECT_NE(run.program->stdout_text.find("arms: 1215.0"), std::string::npos)
      << run.program->stdout_text;
  for (const LaunchTrace& t : run.launches)
    EXPECT_EQ(t.engine, "simt") << t.kernel << ": " << t.engine_reason;
}

// A __device__ function that takes the block's __shared__ array by reference (`int (&s)[64]`, as
// the fp-order lesson's blockReduce does): the warp function takes the one array for the warp.
// The output is the program's own: the sum of i % 13 over each block's 64 elements (378, 379,
// 380, 381, summed in Python) and over 0..255 (1518).
TEST(Engines, AnArrayParameterBoundToASharedArrayRunsOnTheSimtPath) {
  const std::string text = R"(#include <cstdio>
__device__ void blockReduce(int (&s)[64], const int* in) {
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + stride];
    __syncthreads();
  }
}
__global__ void blockSums(int* partial, const int* in) {
  __shared__ int s[64];
  blockReduce(s, in);
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}
int main() {
  int *a, *p;
  cudaMallocManaged(&a, 256 * sizeof(int));
  cudaMallocManaged(&p, 4 * sizeof(int));
  for (int i = 0; i < 256; ++i) a[i] = i % 13;
  blockSums<<<4, 64>>>(p, a);
  cudaDeviceSynchronize();
  printf("blocks %d %d %d %d total %d\n", p[0], p[1], p[2], p[3], p[0] + p[1] + p[2] + p[3]);
  return 0;
}
)";
  const LessonRun run = Compare("array_ref.cu", WARPSCOPE_SOURCE_DIR "/examples", text);
  EXPECT_NE(run.program->stdout_text.find("blocks 378 379 380 381 total 1518"), std::string::npos)
      << run.program->stdout_text;
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].engine, "simt") << run.launches[0].engine_reason;
}

// A statement that reads nothing of the running thread runs its lanes without making each the
// running thread (WS_SIMT_LANES_NO_THREAD); one that reads threadIdx, even through a macro,
// makes each lane it in its turn. Element i is 2 (i % 7) + i % 64: out[70] = 6, out[127] = 65,
// and the 128 elements sum to 2 x 379 + 2 x 2016 = 4790.
TEST(Engines, AStatementReadingThreadIdxThroughAMacroRunsEachLaneAsItsThread) {
  const std::string text = R"(#include <cstdio>
#define TX threadIdx.x
#define GID (blockIdx.x * blockDim.x + TX)
__global__ void twice(int* out, const int* in) {
  int v = in[GID];
  int w = v * 2;
  out[GID] = w + TX;
}
int main() {
  int *a, *b;
  cudaMallocManaged(&a, 128 * sizeof(int));
  cudaMallocManaged(&b, 128 * sizeof(int));
  for (int i = 0; i < 128; ++i) a[i] = i % 7;
  twice<<<2, 64>>>(b, a);
  cudaDeviceSynchronize();
  int sum = 0;
  for (int i = 0; i < 128; ++i) sum += b[i];
  printf("out[70] %d out[127] %d sum %d\n", b[70], b[127], sum);
  return 0;
}
)";
  const LessonRun run = Compare("thread_macro.cu", WARPSCOPE_SOURCE_DIR "/examples", text);
  EXPECT_NE(run.program->stdout_text.find("out[70] 6 out[127] 65 sum 4790"), std::string::npos)
      << run.program->stdout_text;
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].engine, "simt") << run.launches[0].engine_reason;
}

// Uniform variables (collector_simt_uniform.cpp): a loop counter, a block's base, a count under a
// uniform break and a parameter halved in a loop are held once for the warp, their statements run
// once; a variable written under a divergent `if`, one counted in a loop that lanes leave apart
// (`break` under a lane's condition, then read after it), one counted after a divergent
// `continue`, and a parameter changed in some lanes stay each lane's. The program checks every
// element against the host's own arithmetic; the engines must agree site by site.
TEST(Engines, UniformVariablesAreHeldOnceAndTheOthersPerLane) {
  const std::string text = R"(#include <cstdio>
__device__ int tri(const int* a, int m) {
  int t = 0;
  for (int q = 0; q < 4; ++q) t += a[(m + q) % 64];
  return t;
}
__global__ void counters(const int* a, int* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int base = blockIdx.x * blockDim.x;
  int hits = 0;
  if (threadIdx.x % 2 == 0) hits = 3;
  int j = 0;
  for (; j < 8; ++j) { if (a[(base + j) % n] == (int)threadIdx.x % 5) break; }
  int steps = 0;
  for (int k = 0; k < 16; k += 2) { if (k == 10) break; ++steps; }
  for (int s = n; s > 1; s >>= 1) steps += 1;
  int parity = 0;
  for (int k = 0; k < 6; ++k) { if ((threadIdx.x + k) % 4 == 0) continue; parity += 1; }
  o[i] = base + hits + 10 * j + 100 * steps + 1000 * parity + 10000 * tri(a, i);
}
__global__ void halves(int* o, int n, int m) {
  int c = 0;
  while (n > 1) { n >>= 1; ++c; }
  if (threadIdx.x % 3 == 0) m += 1;
  o[blockIdx.x * blockDim.x + threadIdx.x] = c + 100 * m;
}
int main() {
  const int n = 200;
  int *a, *o;
  cudaMallocManaged(&a, 256 * sizeof(int));
  cudaMallocManaged(&o, 256 * sizeof(int));
  for (int i = 0; i < 256; ++i) a[i] = i % 7;
  counters<<<4, 64>>>(a, o, n);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int t = i % 64, base = i - t;
    int j = 0;
    while (j < 8 && a[(base + j) % n] != t % 5) ++j;
    int parity = 0;
    for (int k = 0; k < 6; ++k) parity += (t + k) % 4 != 0;
    int tri = 0;
    for (int q = 0; q < 4; ++q) tri += a[(i + q) % 64];
    const int want = base + (t % 2 == 0 ? 3 : 0) + 10 * j + 100 * (5 + 7) + 1000 * parity +
                     10000 * tri;
    if (o[i] != want) ++wrong;
  }
  halves<<<2, 64>>>(o, 1000, 4);
  cudaDeviceSynchronize();
  for (int i = 0; i < 128; ++i)
    if (o[i] != 9 + 100 * (4 + (i % 64 % 3 == 0))) ++wrong;
  printf("%d wrong\n", wrong);
  return 0;
}
)";
#if defined(WS_TESTS_HAVE_REWRITER)  // (a GPU server's build uses a rewriter built elsewhere)
  const RewriteResult r = testing_engines::RewriteText("uniform.cu", text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& src = r.program.source;
  const std::size_t warp = src.find("counters__ws_warp(");
  ASSERT_NE(warp, std::string::npos) << src;
  const std::string w = src.substr(warp);
  auto has = [&](const std::string& what) { return w.find(what) != std::string::npos; };
  // Held once: declared as written, their statements once for the warp.
  EXPECT_TRUE(has("WS_SIMT_AT(ws_W) int base = blockIdx.x * blockDim.x; ")) << w;
  EXPECT_TRUE(has("WS_SIMT_ONCE(ws_W) ++steps;")) << w;
  EXPECT_TRUE(has("WS_SIMT_ONCE(ws_W) steps += 1;")) << w;
  EXPECT_TRUE(has("WS_SIMT_ONCE(ws_W) s >>= 1;")) << w;
  EXPECT_NE(src.find("WS_SIMT_ONCE(ws_W) ++q;"), std::string::npos);  // tri()'s warp function
  EXPECT_TRUE(has("WS_SIMT_ONCE(ws_W) n >>= 1;")) << w;
  EXPECT_TRUE(has("WS_SIMT_ONCE(ws_W) ++c;")) << w;
  // Each lane's: put into their Lanes, their statements lane by lane.
  EXPECT_TRUE(has("int hits = 0; ::ws::simt::Put(")) << w;
  EXPECT_TRUE(has("int j = 0; ::ws::simt::Put(")) << w;
  EXPECT_TRUE(has("int parity = 0; ::ws::simt::Put(")) << w;
  EXPECT_FALSE(has("WS_SIMT_ONCE(ws_W) ++j;")) << w;
  EXPECT_FALSE(has("WS_SIMT_ONCE(ws_W) parity += 1;")) << w;
  EXPECT_FALSE(has("WS_SIMT_ONCE(ws_W) m += 1;")) << w;
#endif
  const LessonRun run = Compare("uniform.cu", WARPSCOPE_SOURCE_DIR "/examples", text);
  EXPECT_EQ(run.program->stdout_text, "0 wrong\n");
  ASSERT_EQ(run.launches.size(), 2u);
  for (const LaunchTrace& t : run.launches)
    EXPECT_EQ(t.engine, "simt") << t.kernel << ": " << t.engine_reason;
}

// Many cores (docs/ENGINE.md): blocks go to as many workers as there are processors; the SIMT
// engine's figures, hazards and output must not depend on how many, as the cache replay's do not.
// Every example at 1, 2 and 3 workers against 1.
// A kept block's barrier interval longer than a lane log's bound (4,096 accesses a lane): the
// SIMT path cut it there and checked it in pieces (the report said "1 barrier interval ... checked
// in pieces") where the per-thread path checks a kept block's interval whole, and the pairs across
// the cut were lost (hardware-effects-gpu's bank-conflicts loop, one warp of 10,000 read-modify-
// writes a lane). Now neither cuts it: the same report on both (lanes t and t + 16 walk the same
// words 2t + 32i one iteration apart, so there are pairs to find; their number is the engines'
// agreement, ExpectSame).
TEST(Engines, AKeptBlocksLongIntervalIsCheckedWholeOnBoth) {
  const LessonRun simt = Compare("long_interval.cu", WARPSCOPE_SOURCE_DIR "/examples", R"(
__global__ void walk(int offset) {
  __shared__ unsigned int s[4096];
  unsigned int index = threadIdx.x * offset;
  for (int i = 0; i < 5000; i++) {
    s[index] += index;
    index = (index + 32) % 4096;
  }
}
int main() { walk<<<1, 32>>>(2); cudaDeviceSynchronize(); return 0; }
)",
                                 true);
  ASSERT_EQ(simt.launches.size(), 1u);
  const HazardReport& h = simt.launches[0].hazards;
  EXPECT_EQ(h.cut_intervals, 0u);
  EXPECT_GT(h.Total(), 0u);
}

TEST(Engines, TheFiguresDoNotDependOnTheNumberOfWorkers) {
  int programs = 0;
  for (const auto& e : std::filesystem::directory_iterator(WARPSCOPE_SOURCE_DIR "/examples")) {
    if (e.path().extension() != ".cu") continue;
    const std::string name = e.path().filename().string();
    const std::string text = Read(e.path());
    ProgramOptions o;
    o.workers = 1;
    const LessonRun one = RunProgramText(name, e.path().parent_path(), text, o);
    for (unsigned workers : {2u, 3u}) {
      o.workers = workers;
      const LessonRun many = RunProgramText(name, e.path().parent_path(), text, o);
      ExpectSame(one, many, name + " at " + std::to_string(workers) + " workers", true);
    }
    ++programs;
  }
  // examples/*.cu (pipeline.cu, producer_consumer.cu, wmma_tile.cu, cluster_exchange.cu: issue 53)
  EXPECT_EQ(programs, 10);
}

// A function template whose call into cooperative groups depends on its parameters (cuda-samples'
// reduction: cg_reduce_n(value, tile) returns cg::reduce(threads, in, cg::plus<T>())) meets the
// other lanes: its instantiation says so where its text cannot, and the kernel runs thread by
// thread (it used to run on the SIMT path, each lane meeting alone: a block that could not pass
// its barrier). Warp 0 of each block sums its lanes' ranks: 0 + ... + 31 = 496.
TEST(Engines, ATemplatesDependentCallIntoCooperativeGroupsIsSeenToMeet) {
  const std::string text = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
template <typename T, typename Group> __device__ T red(T in, Group& g) { return cg::reduce(g, in, cg::plus<T>()); }
__global__ void k(int* out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  int v = cta.thread_rank();
  cta.sync();
  if (tile.meta_group_rank() == 0) v = red(v, tile);
  if (cta.thread_rank() == 0) out[blockIdx.x] = v;
}
int main() {
  int* o;
  cudaMallocManaged(&o, 2 * sizeof(int));
  k<<<2, 64>>>(o);
  cudaDeviceSynchronize();
  printf("%d %d\n", o[0], o[1]);
}
)";
  const LessonRun run = Compare("cg_template.cu", WARPSCOPE_SOURCE_DIR "/examples", text);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "496 496\n");
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].engine, "fiber");
  EXPECT_NE(run.launches[0].engine_reason.find("a call of red(), which accesses memory or meets "
                                               "other threads, on line 11"),
            std::string::npos)
      << run.launches[0].engine_reason;
}

}  // namespace
}  // namespace ws
