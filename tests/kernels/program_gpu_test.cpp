// The user's own programs on a GPU (--backend cuda): each example, unmodified, must give the same
// launches and per-site figures as on the emulator, the same barrier and warp-meeting counts, and
// the same printed results; an access outside every buffer ends in the emulator's message.
// Elsewhere the tests skip and say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "program_gpu_util.h"
#include "program_test_util.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/run_report.h"

namespace ws {
namespace {

using test::FiguresOf;

using test::ReadExample;

std::string SkipReason() {
  const DeviceQuery q = QueryDevices();
  return q.gpus.empty() ? "no GPU: " + q.why_no_gpu : "";
}

using test::BothRuns;
using test::RunOnBoth;

struct Example {
  const char* file;
  std::vector<std::string> defines, args;
  const char* printed;  // a line both backends print
};

TEST(ProgramsOnGpu, ExamplesGiveTheEmulatorsFigures) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<Example> examples = {
      {"transpose.cu", {"N=256"}, {}, "transposePadded: transposed 256x256 correctly"},
      {"vecadd.cu", {"GridWidth=32", "BlockWidth=128"}, {"4"}, "interleaved: 16384 values"},
      {"matmul.cu",
       {"WIDTH=128", "TILE_WIDTH=16"},
       {},
       "multiplied two 128x128 matrices correctly"},
      {"picture.cu", {}, {}, "picture scaled by 2: correct"},
      {"shuffle_reduce.cu", {}, {}, "): correct"},
      {"block_transpose.cu", {"BLOCK_WIDTH=4"}, {}, "BLOCK_WIDTH 4:"},
  };
  for (const Example& e : examples) {
    ProgramOptions o;
    o.defines = e.defines;
    o.args = e.args;
    o.keep_blocks = {0};
    LessonRun emu =
        RunProgramText(e.file, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(e.file), o);
    o.backend = "cuda";
    o.timeout = std::chrono::seconds(120);
    LessonRun gpu =
        RunProgramText(e.file, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(e.file), o);
    ASSERT_TRUE(emu.program->ok()) << e.file << ": " << emu.program->failure << "\n"
                                   << emu.program->stderr_text;
    ASSERT_TRUE(gpu.program->ok()) << e.file << ": " << gpu.program->failure << "\n"
                                   << gpu.program->stderr_text;
    EXPECT_NE(emu.program->stdout_text.find(e.printed), std::string::npos)
        << emu.program->stdout_text;
    EXPECT_NE(gpu.program->stdout_text.find(e.printed), std::string::npos)
        << gpu.program->stdout_text;
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_NE(gpu.device.find("NVIDIA"), std::string::npos) << gpu.device;  // the GPU's own name
    EXPECT_EQ(emu.device, "CPU emulator");
    ASSERT_EQ(gpu.launches.size(), emu.launches.size()) << e.file;
    for (std::size_t k = 0; k < emu.launches.size(); ++k) {
      const LaunchTrace& a = emu.launches[k];
      const LaunchTrace& b = gpu.launches[k];
      EXPECT_EQ(b.kernel, a.kernel) << e.file;
      EXPECT_EQ(b.grid.count(), a.grid.count()) << e.file;
      EXPECT_EQ(b.block.count(), a.block.count()) << e.file;
      // block_transpose races: which tile entries a thread reads before they are written differs
      // between the backends, but not its addresses, so its figures agree too.
      EXPECT_EQ(FiguresOf(b), FiguresOf(a)) << e.file << " launch " << k << " " << a.kernel;
      ASSERT_EQ(b.stats.barriers.size(), a.stats.barriers.size()) << e.file;
      for (std::size_t i = 0; i < a.stats.barriers.size(); ++i)
        EXPECT_EQ(b.stats.barriers[i].instances, a.stats.barriers[i].instances) << e.file;
      EXPECT_EQ(b.warp_op_counts, a.warp_op_counts) << e.file;
    }
  }
}

TEST(ProgramsOnGpu, AnOutOfRangeIndexNamesTheLineTheBufferAndTheThread) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  // 32 threads write a[i + 100] into 64 floats: thread 0 writes index 100, 36 past the end.
  const std::string text =
      "__global__ void k(float* a) {\n"
      "  a[threadIdx.x + 100] = 1.0f;\n"
      "}\n"
      "int main() {\n"
      "  float* a;\n"
      "  cudaMalloc(&a, 64 * sizeof(float));\n"
      "  k<<<1, 32>>>(a);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  LessonRun run = test::RunText(text, o);
  ASSERT_FALSE(run.program->ok());
  EXPECT_EQ(run.program->stage, ProgramStage::kRun);
  // The first lane to store is not fixed on a GPU: any of the 32 indexes 100..131 is right.
  EXPECT_NE(run.program->failure.find("line 2: column 3: a store of 4 bytes at"), std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("is out of range: index 1"), std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("of a, which holds 64 elements of 4 bytes"),
            std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("of block (0,0,0)"), std::string::npos)
      << run.program->failure;
}

TEST(ProgramsOnGpu, ADeviceAssertEndsTheLaunchAndTheProgramSeesIt) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  // As without Warpscope: the launch ends, the program goes on and its next call returns
  // cudaErrorAssert (simpleAssert's check), and CUDA prints the failed assertion.
  const std::string text =
      "#include <cassert>\n#include <cstdio>\n"
      "__global__ void k(int* a) {\n"
      "  assert(a[threadIdx.x] == 7);\n"
      "}\n"
      "int main() {\n"
      "  int* a;\n"
      "  cudaMalloc(&a, 32 * sizeof(int));\n"
      "  k<<<1, 32>>>(a);\n"
      "  const cudaError_t e = cudaDeviceSynchronize();\n"
      "  printf(\"%s\\n\", cudaGetErrorName(e));\n"
      "  return e == cudaErrorAssert ? 0 : 1;\n"
      "}\n";
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  LessonRun run = test::RunText(text, o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->exit_code, 0) << run.program->stdout_text << run.program->stderr_text;
  EXPECT_NE(run.program->stdout_text.find("cudaErrorAssert"), std::string::npos)
      << run.program->stdout_text;
  // CUDA's own report, with the expression as the program wrote it (UnrewriteText).
  EXPECT_NE((run.program->stdout_text + run.program->stderr_text)
                .find("Assertion `a[threadIdx.x] == 7` failed"),
            std::string::npos)
      << run.program->stderr_text;
}

// Cooperative groups on a GPU are Warpscope's own over the recorded intrinsics (the toolkit's
// header syncs with the hardware's, unseen): a block's sync() is a barrier and a tile's sync() a
// __syncwarp, so the exchange through shared memory they order is no hazard, and the barriers
// and warp meetings are the emulator's. 2 blocks of 64 threads (2 warps each): cg::sync(cta)
// twice per block, tile.sync() once per warp, a reduce of 32 lanes is 5 shuffles per warp.
TEST(ProgramsOnGpu, CooperativeGroupsAreRecordedAsOnTheEmulator) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int s[64];
  s[cta.thread_rank()] = cta.thread_rank();
  cg::sync(cta);
  int v = s[63 - cta.thread_rank()];
  cta.sync();
  s[cta.thread_rank()] = v;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  tile.sync();
  v += s[cta.thread_rank() ^ 1];
  out[blockIdx.x * 64 + cta.thread_rank()] = cg::reduce(tile, v, cg::plus<int>());
}
int main() {
  int* d;
  cudaMalloc(&d, 128 * sizeof(int));
  k<<<2, 64>>>(d);
  int h[128];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[0] = %d\n", h[0]);
}
)";
  auto [emu, gpu] = RunOnBoth(text);
  ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
  ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure << gpu.program->stderr_text;
  // Lane l of warp 0 adds 63 - l and 63 - (l ^ 1); over 32 lanes: 2 x (32 x 63 - 496) = 3,040.
  EXPECT_NE(emu.program->stdout_text.find("out[0] = 3040"), std::string::npos)
      << emu.program->stdout_text;
  EXPECT_NE(gpu.program->stdout_text.find("out[0] = 3040"), std::string::npos)
      << gpu.program->stdout_text;
  ASSERT_EQ(gpu.launches.size(), 1u);
  const LaunchTrace& a = emu.launches[0];
  const LaunchTrace& b = gpu.launches[0];
  EXPECT_TRUE(b.hazards.groups.empty()) << b.hazards.groups.size() << " hazard groups on the GPU";
  EXPECT_TRUE(a.hazards.groups.empty());
  ASSERT_EQ(b.stats.barriers.size(), 2u);
  // A barrier instance is one block's pass: 2 blocks.
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(b.stats.barriers[i].instances, 2u);
  EXPECT_EQ(b.warp_op_counts, a.warp_op_counts);
  EXPECT_EQ(FiguresOf(b), FiguresOf(a));
}

// A host .cpp's allocations are registered on a GPU too (cuda-samples' mergeSort allocates in
// one): the kernel's store through it is recorded against the buffer the .cpp named.
TEST(ProgramsOnGpu, AHostFilesAllocationsAreTheProgramsBuffers) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  test::Folder f("gpu-host-unit");
  f.Write("main.cu", R"(#include <cstdio>
float* make(int n);
__global__ void fill(float* a) { a[threadIdx.x] = 2.0f; }
int main() {
  float* data = make(32);
  fill<<<1, 32>>>(data);
  float h[32];
  cudaMemcpy(h, data, sizeof h, cudaMemcpyDeviceToHost);
  printf("h[31] = %g\n", h[31]);
}
)");
  f.Write("alloc.cpp", R"(#include <cuda_runtime.h>
float* make(int n) {
  float* buffer = nullptr;
  cudaMalloc(&buffer, n * sizeof(float));
  return buffer;
}
)");
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  o.extra_files = {f.path() / "alloc.cpp"};
  LessonRun run = f.Run("main.cu", o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_NE(run.program->stdout_text.find("h[31] = 2"), std::string::npos)
      << run.program->stdout_text;
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  ASSERT_EQ(t.sites.size(), 1u);
  ASSERT_LT(t.sites[0].buffer, t.buffers.size());
  EXPECT_EQ(t.buffers[t.sites[0].buffer].name, "buffer");
  EXPECT_EQ(t.stats.sites[0].sectors, 4u);  // 32 floats: 128 B, four 32-byte sectors
}

// What a program prints from its cudaEvents on a GPU is a plain run's: 2^22 floats copied once
// (32 MiB moved) take well under 5 ms on an H100 or H200 (about 3 TB/s: some 0.01 ms); the
// recorded run's events, which time the recording and its decoding, come out far longer.
// Its registers are ptxas's for that GPU.
const char* const kTimedCopy = R"(#include <cstdio>
__global__ void copy(float* o, const float* i, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = i[k];
}
int main() {
  const int n = 1 << 22;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  copy<<<n / 256, 256>>>(b, a, n);
  cudaEventRecord(start);
  copy<<<n / 256, 256>>>(b, a, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("ms %.4f\n", ms);
}
)";
TEST(ProgramsOnGpu, EventTimesComeFromARunWithoutRecording) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = kTimedCopy;
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  LessonRun run = test::RunText(text, o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  const std::size_t at = run.program->stdout_text.find("ms ");
  ASSERT_NE(at, std::string::npos) << run.program->stdout_text;
  const double ms = std::stod(run.program->stdout_text.substr(at + 3));
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 5.0) << run.program->stdout_text;
  bool said = false;
  for (const auto& w : run.program->warnings)
    said = said || w.message.find("without recording") != std::string::npos;
  EXPECT_TRUE(said);
  ASSERT_EQ(run.launches.size(), 2u);
  EXPECT_TRUE(run.launches[1].resources.known());
  EXPECT_NE(run.launches[1].resources.source.find("ptxas"), std::string::npos);
}

// Each kernel's own time, from CUPTI in the run as written (the kernel timer the driver loads):
// two kernels of the copy above, each timed; the second inside the events that enclose it (they
// also time the launch, so the event time is the larger, give or take the clocks' 1 us); and the
// bandwidth they give: 2 launches x 2^22 threads x (4 B read + 4 B written) = 67,108,864 B over
// their time, above 0 and below what any of these GPUs' memory can do (an H200's 4.8 TB/s).
// Sandboxed (where bubblewrap can run), the run as written is in the sandbox and still timed.
void ExpectTimedCopy(const LessonRun& run) {
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  ASSERT_EQ(run.program->kernel_times.size(), 2u) << run.program->kernel_times_missing;
  for (const auto& t : run.program->kernel_times) {
    EXPECT_EQ(t.kernel, "_Z4copyPfPKfi");
    EXPECT_GT(t.ms, 0.0);
  }
  const std::size_t at = run.program->stdout_text.find("ms ");
  ASSERT_NE(at, std::string::npos) << run.program->stdout_text;
  const double event_ms = std::stod(run.program->stdout_text.substr(at + 3));
  EXPECT_LE(run.program->kernel_times[1].ms, event_ms + 0.001) << run.program->stdout_text;
  const MeasuredBandwidth bw = ProgramBandwidth(run);
  ASSERT_EQ(bw.missing, "");
  EXPECT_EQ(bw.bytes, 67108864u);
  EXPECT_GT(bw.gbps, 0.0);
  EXPECT_LT(bw.gbps, 4800.0) << bw.ms << " ms";
  std::printf("copy: kernels %.4f + %.4f ms, events %.4f ms: %.0f GB/s\n",
              run.program->kernel_times[0].ms, run.program->kernel_times[1].ms, event_ms, bw.gbps);
}

TEST(ProgramsOnGpu, EachKernelIsTimedByCuptiInTheRunAsWritten) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  ExpectTimedCopy(test::RunText(kTimedCopy, o));
}

TEST(ProgramsOnGpu, ASandboxedProgramIsTimedInTheSandbox) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  if (std::string why = SandboxUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ProgramOptions o;
  o.backend = "cuda";
  o.sandbox = true;
  o.timeout = std::chrono::seconds(120);
  const LessonRun run = test::RunText(kTimedCopy, o);
  ExpectTimedCopy(run);
  bool said = false;  // the output is the run as written's
  for (const auto& w : run.program->warnings)
    said = said || w.message.find("without recording") != std::string::npos;
  EXPECT_TRUE(said);
}

// A pinned host buffer freed before a launch is no longer the program's: the recorder copies
// every live buffer before each launch, and a freed cudaMallocHost buffer made that copy fail
// with cudaErrorInvalidValue (cuda-samples' shfl_scan frees its first test's buffers so).
TEST(ProgramsOnGpu, AFreedPinnedBufferIsNoLongerTheProgramsBuffer) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = R"(#include <cstdio>
__global__ void twice(int* a) { a[threadIdx.x] *= 2; }
int main() {
  int *h, *d;
  cudaMallocHost(&h, 32 * sizeof(int));
  for (int i = 0; i < 32; ++i) h[i] = i;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  cudaFreeHost(h);
  twice<<<1, 32>>>(d);
  int out[32];
  cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
  printf("%s %d\n", cudaGetErrorName(cudaGetLastError()), out[31]);
}
)";
  for (const char* backend : {"emu", "cuda"}) {
    ProgramOptions o;
    o.backend = backend;
    o.timeout = std::chrono::seconds(120);
    LessonRun run = test::RunText(text, o);
    ASSERT_TRUE(run.program->ok()) << backend << ": " << run.program->failure;
    EXPECT_EQ(run.program->stdout_text, "cudaSuccess 62\n") << backend;  // 2 x 31
    ASSERT_EQ(run.launches.size(), 1u) << backend;
    const LaunchTrace& t = run.launches[0];
    ASSERT_EQ(t.sites.size(), 2u) << backend;  // a[threadIdx.x] *= 2: a load and a store
    for (const SiteInfo& site : t.sites) {
      ASSERT_LT(site.buffer, t.buffers.size());
      EXPECT_EQ(t.buffers[site.buffer].name, "d") << backend;
    }
  }
}

// A course's first reduction (PMPP ch. 10; GPU MODE's simple_reduce): one block of 1024 threads,
// a loop whose `threadIdx.x % stride` test leaves more lanes idle each step. Recorded, it still
// launches (the recorder's build keeps to 64 registers a thread: 1024 x 64 = the SM's 65,536),
// and its requests are the emulator's, one per warp, loop step and site, however the recorder's
// own code splits a warp's lanes (the events carry their dynamic instance).
TEST(ProgramsOnGpu, ADivergentReductionOf1024ThreadsGivesTheEmulatorsRequests) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = R"(#include <cstdio>
__global__ void sum(float* in, float* out) {
  unsigned int i = 2 * threadIdx.x;
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    if (threadIdx.x % stride == 0) in[i] += in[i + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = in[0];
}
int main() {
  float h[2048], r = 0, *in, *out;
  for (float& x : h) x = 1.0f;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<1, 1024>>>(in, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%s %g\n", cudaGetErrorName(cudaGetLastError()), r);
}
)";
  ProgramOptions o;
  o.keep_blocks = {0};
  auto [emu, gpu] = RunOnBoth(text, o);
  ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
  ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure << gpu.program->stderr_text;
  EXPECT_EQ(emu.program->stdout_text, "cudaSuccess 2048\n");
  EXPECT_EQ(gpu.program->stdout_text, "cudaSuccess 2048\n");
  ASSERT_EQ(gpu.launches.size(), 1u);
  EXPECT_EQ(FiguresOf(gpu.launches[0]), FiguresOf(emu.launches[0]));
  // Step s (stride 2^s, s = 0..10) keeps the warps whose threads include a multiple of 2^s: 32
  // warps for s <= 5, then 1024 / 2^s threads, one a warp: 16, 8, 4, 2, 1. The load of in[i]:
  // 6 x 32 + 16 + 8 + 4 + 2 + 1 = 223 requests.
  const SiteInfo* load = test::SiteAt(gpu.launches[0], 5, 36);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->op, AccessOp::kLoad);
  EXPECT_EQ(gpu.launches[0].stats.sites[load - gpu.launches[0].sites.data()].requests, 223u);
}

// Rows of an `int**` matrix (each row its own managed buffer): on both roads an element read
// through a loaded row pointer is one site over every row, keyed by no buffer, with the rows'
// virtual addresses (CoursePrograms.RowsOfAPointerMatrixAreOneSiteOverEveryRow has the counts).
TEST(ProgramsOnGpu, RowsOfAPointerMatrixAreOneSiteAsOnTheEmulator) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = test::kPointerRowsProgram;
  auto [emu, gpu] = RunOnBoth(text);
  ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
  ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure << gpu.program->stderr_text;
  EXPECT_EQ(gpu.program->stdout_text, "6\n");
  ASSERT_EQ(gpu.launches.size(), 1u);
  EXPECT_EQ(FiguresOf(gpu.launches[0]), FiguresOf(emu.launches[0]));
  int several = 0;
  for (const SiteInfo& s : gpu.launches[0].sites) several += s.buffer == kSeveralBuffers;
  EXPECT_EQ(several, 1);
}
// A thread's own array indexed at run time: local memory on both roads, its offsets laid out by
// one rule (LocalOffset), so every figure matches the emulator's (program_course_test.cpp has
// them by hand: 64 requests and 256 sectors for the zeroing store, 2 and 64 for the bump).
TEST(ProgramsOnGpu, LocalArraysGiveTheEmulatorsRequests) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  auto [emu, gpu] = RunOnBoth(test::kLocalArraysProgram);
  ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
  ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure << gpu.program->stderr_text;
  EXPECT_EQ(gpu.program->stdout_text, "1 0 6\n");
  ASSERT_EQ(gpu.launches.size(), 2u);
  EXPECT_EQ(FiguresOf(gpu.launches[0]), FiguresOf(emu.launches[0]));
  int local = 0;
  for (const SiteInfo& s : gpu.launches[0].sites) local += s.space == MemorySpace::kLocal;
  EXPECT_EQ(local, 4);
}
// The floating-point operations on the GPU are the emulator's (program_test_util.h's program:
// 65,536 in matmul<float>, none in twice<float> and twice<int> (one text), 768 in scale), counted
// a warp at a time in the recorded run.
TEST(ProgramsOnGpu, FloatingPointOperationsAreTheEmulatorsCount) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(test::kFlopsProgram);
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  ASSERT_EQ(r.gpu.launches.size(), 4u);
  const std::uint64_t expected[4] = {65536, 0, 0, 768};
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(r.gpu.launches[i].kernel);
    EXPECT_TRUE(r.gpu.launches[i].stats.flops_counted);
    EXPECT_EQ(r.gpu.launches[i].stats.flops, expected[i]);
    EXPECT_EQ(r.emu.launches[i].stats.flops, expected[i]);
  }
}

// Multi-warp tiles (program_test_util.h's program): a tile's sync is a named barrier of its
// threads on a GPU, recorded as a barrier that says its tile; the printed sums, shuffles and
// votes, the barrier passes and the race check's verdicts are the emulator's.
TEST(ProgramsOnGpu, MultiWarpTilesSyncAsOnTheEmulator) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(test::kTilesProgram);
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  EXPECT_EQ(r.gpu.program->stdout_text, r.emu.program->stdout_text);
  ASSERT_EQ(r.gpu.launches.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const LaunchTrace& a = r.emu.launches[k];
    const LaunchTrace& b = r.gpu.launches[k];
    SCOPED_TRACE(b.kernel);
    ASSERT_EQ(b.barrier_sites.size(), a.barrier_sites.size());
    for (std::size_t i = 0; i < a.barrier_sites.size(); ++i) {
      EXPECT_EQ(b.barrier_sites[i].line, a.barrier_sites[i].line);
      EXPECT_EQ(b.barrier_sites[i].tile, 64u);
      EXPECT_EQ(b.stats.barriers[i].instances, a.stats.barriers[i].instances);
      EXPECT_EQ(b.stats.barriers[i].thread_arrivals, a.stats.barriers[i].thread_arrivals);
    }
    EXPECT_EQ(b.warp_op_counts, a.warp_op_counts);
    EXPECT_EQ(FiguresOf(b), FiguresOf(a));
  }
  // tiles: the tile's sync orders the mirror read; across: 256 reads a block of another tile's
  // store, both blocks kept on the GPU.
  EXPECT_TRUE(r.gpu.launches[0].hazards.groups.empty());
  std::uint64_t pairs = 0;
  for (const HazardGroup& g : r.gpu.launches[1].hazards.groups) pairs += g.count;
  EXPECT_EQ(pairs, 512u);
}

// Half and bfloat16 (tests/programs/agreement/half_bits.cu): conversions from float by every
// rounding, to float, add, sub, mul, div, fma, the _sat forms, max and min, comparisons, sqrt,
// integer conversions, the pair forms and bfloat16's: the emulator prints the GPU's bits.
TEST(ProgramsOnGpu, HalfPrecisionIsTheGpusBitForBit) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(ReadExample("../tests/programs/agreement/half_bits.cu"));
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  std::istringstream e(r.emu.program->stdout_text), g(r.gpu.program->stdout_text);
  std::string le, lg;
  int rows = 0, differ = 0;
  std::map<int, int> by_word;  // which words differ, and in how many rows
  while (std::getline(g, lg)) {
    ++rows;
    if (!std::getline(e, le) || le != lg) {
      if (++differ <= 8) ADD_FAILURE() << "GPU:      " << lg << "\nemulator: " << le;
      std::istringstream wg(lg), we(le);
      std::string a, b;
      for (int k = -1; wg >> a; ++k)
        if (!(we >> b) || a != b) ++by_word[k];
    }
  }
  EXPECT_EQ(rows, 256);
  EXPECT_EQ(differ, 0);
  for (const auto& [word, n] : by_word) ADD_FAILURE() << "word " << word << ": " << n << " rows";
}

// The emulator's output line for line against the GPU's: `rows` lines, every one alike (the first
// 16 that differ are shown).
void ExpectSameLines(const std::string& gpu, const std::string& emu, int rows) {
  std::istringstream e(emu), g(gpu);
  std::string le, lg;
  int n = 0, differ = 0;
  while (std::getline(g, lg)) {
    ++n;
    if ((!std::getline(e, le) || le != lg) && ++differ <= 16)
      ADD_FAILURE() << "GPU:      " << lg << "\nemulator: " << le;
  }
  EXPECT_EQ(n, rows);
  EXPECT_EQ(differ, 0);
}

// tf32 (tests/programs/agreement/tf32_round.cu): wmma::__float_to_tf32 of 32 floats (ties, the
// largest finite values, infinities, NaNs, subnormals) and what a tf32 mma_sync reads of inputs
// whose low 13 fraction bits are not clear: the emulator prints the GPU's bits, line for line.
TEST(ProgramsOnGpu, Tf32IsTheGpusBitForBit) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(ReadExample("../tests/programs/agreement/tf32_round.cu"));
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  // 32 roundings, 16 x 8 elements of A as the multiply read them.
  ExpectSameLines(r.gpu.program->stdout_text, r.emu.program->stdout_text, 32 + 128);
}

// Directed rounding (tests/programs/agreement/directed_rounding.cu): add, sub, mul, div, rcp and
// sqrt of float and double, down, up and toward zero, over 256 rows of values.
TEST(ProgramsOnGpu, DirectedRoundingIsTheGpusBitForBit) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(ReadExample("../tests/programs/agreement/directed_rounding.cu"));
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  ExpectSameLines(r.gpu.program->stdout_text, r.emu.program->stdout_text, 256);
}

// A fused multiply-add rounded each way (tests/programs/agreement/fma_rounding.cu): float and
// double, down, up, toward zero and to nearest, over 128 rows of three sums each.
TEST(ProgramsOnGpu, FmaRoundingIsTheGpusBitForBit) {
  if (const std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const BothRuns r = RunOnBoth(ReadExample("../tests/programs/agreement/fma_rounding.cu"));
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  ExpectSameLines(r.gpu.program->stdout_text, r.emu.program->stdout_text, 128);
}

}  // namespace
}  // namespace ws
