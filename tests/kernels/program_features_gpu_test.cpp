// Issue 50's features on a GPU (--backend cuda): CUDA graphs, the device heap and grid sync, the
// programs of program_features_programs.h run unmodified on the emulator and on the GPU, must
// print the same and give the same launches, origins, barrier passes and site figures. Elsewhere
// the tests skip and say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "program_features_programs.h"
#include "program_gpu_util.h"
#include "program_test_util.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

using test::BothRuns;
using test::FiguresOf;
using test::RunOnBoth;

// Captured and hand-made graphs, cudaLaunchKernel: the driver never sees the graph; each kernel
// node runs recorded, in the emulator's order, saying its graph and node.
TEST(FeaturesOnGpu, GraphsRunTheirKernelsRecordedAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  const BothRuns r = RunOnBoth(test::kGraphsProgram);
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  // The emulator's output (program_graphs_test.cpp computes it by hand).
  EXPECT_EQ(r.gpu.program->stdout_text, r.emu.program->stdout_text);
  ASSERT_EQ(r.gpu.launches.size(), 7u);
  for (std::size_t k = 0; k < 7; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(r.gpu.launches[k].kernel, r.emu.launches[k].kernel);
    EXPECT_EQ(r.gpu.launches[k].origin, r.emu.launches[k].origin);
    EXPECT_EQ(FiguresOf(r.gpu.launches[k]), FiguresOf(r.emu.launches[k]));
  }
}

// new, new[], delete, virtual calls and malloc over the registered "device heap" buffer: objects
// live across launches, a full heap gives null, its size is fixed at the first launch.
TEST(FeaturesOnGpu, TheDeviceHeapIsARegisteredBufferAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  const BothRuns r = RunOnBoth(test::kHeapProgram);
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  // "4 89 4729 | 1 0 1" and cudaErrorInvalidValue, by hand in program_heap_test.cpp.
  EXPECT_EQ(r.gpu.program->stdout_text, r.emu.program->stdout_text);
  ASSERT_EQ(r.gpu.launches.size(), 3u);
  // The virtual Area() reads `side` (line 9) of 64 heap objects, recorded against the heap. (The
  // objects' places follow each allocator, so their sectors may differ: requests are the same.)
  const LaunchTrace& use = r.gpu.launches[1];
  std::size_t i = 0;
  ASSERT_NE(test::SiteAt(use, 9, 49, &i), nullptr);
  EXPECT_EQ(use.stats.sites[i].accesses, 64u);
  EXPECT_EQ(use.stats.sites[i].requests, 2u);
  ASSERT_LT(use.sites[i].buffer, use.buffers.size());
  EXPECT_EQ(use.buffers[use.sites[i].buffer].name, "device heap");
  EXPECT_EQ(use.buffers[use.sites[i].buffer].bytes, 8u << 20);
}

// this_grid().sync() in a cooperative launch: each block waits for all (the neighbour's value of
// the same step), every pass recorded as a barrier of its block at its line.
TEST(FeaturesOnGpu, AGridSyncWaitsForEveryBlockAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  const BothRuns r = RunOnBoth(test::GridSyncProgram(
      "printf(\"%s\\n\", cudaGetErrorName(cudaLaunchCooperativeKernel((void*)steps, dim3(4), "
      "dim3(64), args)));",
      false));
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  EXPECT_EQ(r.gpu.program->stdout_text,
            "cudaSuccess\ncudaSuccess\n11 12 13 10 21 22 23 20 31 32 33 30 \n");
  ASSERT_EQ(r.gpu.launches.size(), 1u);
  const LaunchTrace& t = r.gpu.launches[0];
  // Two grid syncs a step, 3 steps, 4 blocks: 24 passes, as on the emulator.
  std::uint64_t instances = 0;
  for (const BarrierStats& b : t.stats.barriers) instances += b.instances;
  EXPECT_EQ(instances, 24u);
  EXPECT_TRUE(t.hazards.grid_synced);
  // Within each block no race; across blocks the GPU does not follow the grid syncs (yet) and
  // says so, rather than pair a write before a sync with a read after it.
  EXPECT_EQ(t.hazards.Total(), 0u) << t.hazards.Checked();
  EXPECT_NE(t.hazards.Checked().find("not across blocks"), std::string::npos)
      << t.hazards.Checked();
  EXPECT_EQ(FiguresOf(t), FiguresOf(r.emu.launches[0]));
  // A grid sync in a plain launch stops it with its line, as on the emulator.
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  const LessonRun plain =
      test::RunText(test::GridSyncProgram("steps<<<4, 64>>>(a, out, early);", false), o);
  EXPECT_FALSE(plain.program->ok());
  EXPECT_NE(plain.program->failure.find(
                "line 9: this_grid().sync() in a launch that is not cooperative: launch the "
                "kernel with cudaLaunchCooperativeKernel"),
            std::string::npos)
      << plain.program->failure;
}

// A kernel in the program's own header: on the GPU each site takes its file by the rewriter's
// site number, as on the emulator (before d3138d7 a GPU run gave a header's sites the main file,
// which a single-file program cannot show). Both files have a site at line 5. By hand: 4 blocks of
// 64 threads, 8 warps; the tile's store 8 requests, its read in the loop 64 a warp (512), each a
// run of 32 consecutive words modulo 64, so one wavefront each; main.cu's load 8 requests.
TEST(FeaturesOnGpu, AHeadersSitesKeepTheirFileAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  test::Folder f("gpu-header");
  f.Write("tile.cuh",
          "#pragma once\n"
          "__global__ void rotateSum(float* out, const float* in) {\n"
          "  __shared__ float tile[64];\n"
          "  int t = threadIdx.x;\n"
          "  tile[t] = in[blockIdx.x * 64 + t];\n"
          "  __syncthreads();\n"
          "  float s = 0;\n"
          "  for (int k = 0; k < 64; ++k) s += tile[(t + k) % 64];\n"
          "  out[blockIdx.x * 64 + t] = s;\n"
          "}\n");
  f.Write("main.cu",
          "#include <cstdio>\n"
          "#include \"tile.cuh\"\n"
          "__global__ void twice(float* out, const float* in) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  out[i] = 2.0f * in[i];\n"
          "}\n"
          "int main() {\n"
          "  float *a, *b, h[256];\n"
          "  for (int i = 0; i < 256; ++i) h[i] = 1.0f;\n"
          "  cudaMalloc(&a, sizeof h); cudaMalloc(&b, sizeof h);\n"
          "  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);\n"
          "  rotateSum<<<4, 64>>>(b, a);\n"
          "  twice<<<4, 64>>>(a, b);\n"
          "  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);\n"
          "  printf(\"%g %g\\n\", h[0], h[255]);\n"
          "}\n");
  ProgramOptions o;
  const LessonRun emu = f.Run("main.cu", o);
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  const LessonRun gpu = f.Run("main.cu", o);
  ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
  ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure << gpu.program->stderr_text;
  EXPECT_EQ(gpu.program->stdout_text, "128 128\n");  // 2 x 64 ones
  ASSERT_EQ(gpu.launches.size(), 2u);
  ASSERT_EQ(emu.launches.size(), 2u);
  auto places = [](const LaunchTrace& t) {
    std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t, int>> out;
    for (const SiteInfo& s : t.sites) out.emplace_back(s.file, s.line, s.column, int(s.op));
    std::sort(out.begin(), out.end());
    return out;
  };
  for (std::size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(places(gpu.launches[k]), places(emu.launches[k]));
    EXPECT_EQ(FiguresOf(gpu.launches[k]), FiguresOf(emu.launches[k]));
  }
  const LaunchTrace& rot = gpu.launches[0];
  for (const SiteInfo& s : rot.sites) EXPECT_EQ(s.file, "tile.cuh") << s.line;
  for (const BarrierSite& b : rot.barrier_sites) EXPECT_EQ(b.file, "tile.cuh") << b.line;
  std::size_t store = 0, loop = 0;
  const SiteInfo* st = test::SiteAt(rot, 5, 3, &store);  // tile[t] = ...
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->space, MemorySpace::kShared);
  EXPECT_EQ(rot.stats.sites[store].requests, 8u);
  ASSERT_NE(test::SiteAt(rot, 8, 37, &loop), nullptr);  // tile[(t + k) % 64]
  EXPECT_EQ(rot.stats.sites[loop].requests, 512u);
  EXPECT_EQ(rot.stats.sites[loop].wavefronts, 512u);
  for (const SiteInfo& s : gpu.launches[1].sites) EXPECT_EQ(s.file, "main.cu") << s.line;
  std::size_t load = 0;
  ASSERT_NE(test::SiteAt(gpu.launches[1], 5, 19, &load), nullptr);  // in[i]
  EXPECT_EQ(gpu.launches[1].stats.sites[load].requests, 8u);
}

}  // namespace
}  // namespace ws
