// The GPU's own counters on a GPU (--backend cuda): the program as written counted by CUPTI's
// range profiler in a run of its own (kernels/program/runtime/kernel_counters.cpp), each kernel's
// first launch beside its recorded figures. Elsewhere the test skips and says why (label "gpu").
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "program_gpu_util.h"
#include "program_test_util.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/run_report.h"

namespace ws {
namespace {

// The GPU's own counters (kernel_counters.cpp: CUPTI's range profiler in a run of the program as
// written of its own) for kernels whose figures are known by hand, and equal to the recorded:
// `transposed`, one block of 1,024 threads, each warp loading and storing 128 contiguous bytes
// (32 requests of 4 sectors each way), storing a row of the tile (32 one-wavefront requests) and
// reading a column of it, 32 lanes on one bank (32 requests of 32 wavefronts: 1,024, 992 of them
// conflicts); `copied`, 256 threads each copying 16 bytes asynchronously into 4 KB of shared
// memory (a warp 512 bytes from 4 lines: 8 load requests of 16 sectors, 4 shared wavefronts a
// warp, 32, as Nsight Compute counted the same copy, f_pred_all, on an H200 in
// kernels/async/ldgsts_predicated.txt), then reading 256 floats (8 wavefronts) and storing them
// (8 requests of 4 sectors).
TEST(ProgramsOnGpu, TheGpusOwnCountersForKernelsKnownByHandEqualTheRecorded) {
  WS_SKIP_WITHOUT_GPU();
  const std::string text = R"(#include <cstdio>
#include <cuda_pipeline.h>
__global__ void transposed(const float* g, float* out) {
  __shared__ float s[32][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s[warp][lane] = g[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[lane][warp];
}
__global__ void copied(const float* g, float* out) {
  __shared__ __align__(16) float s[1024];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t * 4], &g[t * 4], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s[t];
}
int main() {
  float *g, *out;
  cudaMalloc(&g, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMemset(g, 0, 4096 * sizeof(float));
  transposed<<<1, 1024>>>(g, out);
  copied<<<1, 256>>>(g, out);
  copied<<<1, 256>>>(g, out);
  cudaDeviceSynchronize();
  printf("done\n");
}
)";
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  const LessonRun run = test::RunText(text, o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  // Each kernel's first launch only: two, in the order first launched.
  ASSERT_EQ(run.program->kernel_counters.size(), 2u) << run.program->kernel_counters_missing;
  EXPECT_EQ(run.program->kernel_counters[0].kernel, "_Z10transposedPKfPf");
  EXPECT_EQ(run.program->kernel_counters[1].kernel, "_Z6copiedPKfPf");
  const std::map<std::string, std::map<std::string, double>> by_hand = {
      {"transposed",
       {{"global load requests", 32},
        {"global load sectors", 128},
        {"global store requests", 32},
        {"global store sectors", 128},
        {"shared load wavefronts", 1024},
        {"shared load bank conflicts", 992},
        {"shared store wavefronts", 32}}},
      {"copied",
       {{"global load requests", 8},
        {"global load sectors", 128},
        {"global store requests", 8},
        {"global store sectors", 32},
        {"shared load wavefronts", 8},
        {"async-copy shared wavefronts", 32}}}};
  const Result<DevicePreset> preset = FindDevicePreset("hopper");
  ASSERT_TRUE(preset.ok());
  const std::vector<KernelRow> rows = KernelTable(run, *preset);
  ASSERT_EQ(rows.size(), 2u);
  for (const KernelRow& r : rows) {
    SCOPED_TRACE(r.kernel);
    std::map<std::string, double> gpu;
    for (const KernelRow::GpuCounter& c : r.gpu_counters) {
      gpu[c.figure] = c.gpu;
      EXPECT_EQ(c.gpu, static_cast<double>(c.recorded)) << c.figure;
    }
    EXPECT_EQ(gpu, by_hand.at(r.kernel));
  }
  EXPECT_NE(RunText(run).find("the GPU's own counters for each kernel's first launch"),
            std::string::npos);
}

// Each later run of a sandboxed program (the program as written, then the counting run) starts in
// an empty scratch folder, as the recorded run did: a program that leaves a file behind and skips
// its kernel when it finds one prints "first" and has its kernel counted (before, the later runs
// saw the recorded run's file: "again", and no kernel counted).
TEST(ProgramsOnGpu, EachRunOfASandboxedProgramStartsWithoutTheFilesAnEarlierRunLeft) {
  WS_SKIP_WITHOUT_GPU();
  if (std::string why = SandboxUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string text = R"(#include <cstdio>
__global__ void once(int* a) { a[threadIdx.x] = threadIdx.x; }
int main() {
  if (FILE* f = std::fopen("ran.txt", "r")) {
    std::fclose(f);
    std::printf("again\n");
    return 0;
  }
  FILE* f = std::fopen("ran.txt", "w");
  std::fclose(f);
  int* a;
  cudaMalloc(&a, 32 * sizeof(int));
  once<<<1, 32>>>(a);
  cudaDeviceSynchronize();
  std::printf("first\n");
}
)";
  ProgramOptions o;
  o.backend = "cuda";
  o.sandbox = true;
  o.timeout = std::chrono::seconds(120);
  const LessonRun run = test::RunText(text, o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "first\n");
  ASSERT_EQ(run.program->kernel_counters.size(), 1u) << run.program->kernel_counters_missing;
  EXPECT_EQ(run.program->kernel_counters[0].kernel, "_Z4oncePi");
}

}  // namespace
}  // namespace ws
