// Asynchronous copies bound to a block's cuda::barrier, bulk copies through the TMA, and what
// the emulator refuses of asynchronous copies (issue 53, item 2): split from
// program_async_test.cpp, which keeps the pipelines' copies and the H200's cp.async probes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "program_async_programs.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/kernel_table.h"

namespace ws {
namespace {

TEST(CoursePrograms, ABlocksCudaBarrierLandsItsCopiesAtArriveAndWait) {
  std::string text = test::kBarrierCopy;
  text.replace(text.find("EXPECTED"), 8, "blockDim.x * blockDim.y");
  const LessonRun r = test::RunText(text);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "240 15 32640\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int sites = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line != 11) continue;
    ++sites;
    EXPECT_EQ(t.sites[i].size, 16u);
    EXPECT_EQ(t.stats.sites[i].requests, 8u) << t.sites[i].code;
  }
  EXPECT_EQ(sites, 2);  // the global read and the shared write
  EXPECT_EQ(t.hazards.Total(), 0u);
}

// The same copies as the default preset (hopper, compute 9.0) runs them: a float4's copy bound to
// a block's cuda::barrier in shared memory is one bulk copy through the TMA (libcu++'s dispatch),
// not cp.async. By hand: 16 rows x 4 lanes = 64 copies of 16 bytes, each its own sector (the TMA
// reads a copy's sectors apart from every other copy's: kernels/async/bulk_copy.txt), 64 sectors
// and 1,024 bytes, where an LSU load of the same lanes takes 8 requests of 4 sectors (32). None of
// it is in the LSU's figures: the kernel's global requests are the 8 warps' stores of C, its shared
// requests the 8 reads of As and their 8 wavefronts (a row of 16 floats a half warp: one each).
// Under the ampere preset (8.0) the same copies are cp.async pieces, as before.
TEST(CoursePrograms, ABlocksCudaBarrierCopyIsABulkCopyOnComputeNine) {
  std::string text = test::kBarrierCopy;
  text.replace(text.find("EXPECTED"), 8, "blockDim.x * blockDim.y");
  const LessonRun r = test::RunText(text);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int bulk = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    if (s.line != 11) continue;
    EXPECT_TRUE(s.bulk_copy) << s.code;
    ++bulk;
    if (s.space == MemorySpace::kShared) {
      EXPECT_TRUE(s.async_copy);
      EXPECT_EQ(t.stats.sites[i].wavefronts, 0u);
    } else {
      EXPECT_EQ(t.stats.sites[i].accesses, 64u);
      EXPECT_EQ(t.stats.sites[i].sectors, 64u);
    }
  }
  EXPECT_EQ(bulk, 2);
  const std::vector<KernelRow> rows = KernelTable(r, *FindDevicePreset("hopper"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].tma_pieces, 64u);
  EXPECT_EQ(rows[0].tma_sectors, 64u);
  EXPECT_EQ(rows[0].tma_bytes, 1024u);
  EXPECT_EQ(rows[0].global_requests, 8u);
  EXPECT_EQ(rows[0].shared_requests, 8u);
  EXPECT_EQ(rows[0].wavefronts, 8u);
  const std::string table = KernelsText(rows, r, *FindDevicePreset("hopper"));
  EXPECT_NE(table.find("bulk copies through the TMA, outside the figures above"), std::string::npos)
      << table;
  EXPECT_NE(table.find("    k: 64 sectors read, 1,024 B\n"), std::string::npos) << table;

  ProgramOptions on_ampere;
  on_ampere.preset = "ampere";
  const LessonRun ampere = test::RunText(text, on_ampere);
  ASSERT_TRUE(ampere.program->ok()) << ampere.program->failure << ampere.program->stderr_text;
  for (const SiteInfo& s : ampere.launches.at(0).sites) EXPECT_FALSE(s.bulk_copy) << s.code;
}

// kernels/async/bulk_copy_probe.cu on the emulator: each kernel's bulk copies read the sectors
// Nsight Compute counted on an H200 (bulk_copy.txt beside it, l1tex__m_xbar2l1tex_read_sectors:
// 1, 1, 2, 8, 32 for 16 to 1,024 bytes from a sector's start, 2 for 32 bytes from 16 past one,
// 2 for two lanes' halves of one sector, ...), with no LSU global load, and the kernel's shared
// store wavefronts are its zeroing stores' alone, 128, as the H200 counted: the TMA's writes take
// none. The file is read here, not copied: the numbers are the GPU's.
TEST(CoursePrograms, ABulkCopyReadsTheSectorsTheH200Counted) {
  std::ifstream counted(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/async/bulk_copy.txt");
  std::map<std::string, std::map<std::string, std::uint64_t>> ncu;  // kernel -> metric -> value
  bool first_run = false;
  for (std::string line; std::getline(counted, line);) {
    if (line.rfind("## ", 0) == 0) {
      first_run = line.find("ncu run 1") != std::string::npos;
      continue;
    }
    const std::size_t bar = line.find("| ");
    if (!first_run || bar == std::string::npos) continue;
    std::istringstream f(line.substr(bar + 2));
    std::string metric, value;
    f >> metric >> value;
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    ncu[line.substr(0, bar)][metric] = std::stoull(value);
  }
  ASSERT_EQ(ncu.size(), 11u);
  std::ifstream src(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/async/bulk_copy_probe.cu");
  std::stringstream text;
  text << src.rdbuf();
  const LessonRun run = test::RunText(text.str());
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_NE(run.program->stdout_text.find("PASS (0 bytes wrong)"), std::string::npos)
      << run.program->stdout_text;
  ASSERT_EQ(run.launches.size(), 11u);
  for (const LaunchTrace& t : run.launches) {
    ASSERT_EQ(ncu.count(t.kernel), 1u) << t.kernel;
    const auto& want = ncu.at(t.kernel);
    std::uint64_t tma = 0, lsu_loads = 0, store_wavefronts = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      const SiteStats& st = t.stats.sites[i];
      if (s.bulk_copy && s.space == MemorySpace::kGlobal) tma += st.sectors;
      if (!s.bulk_copy && s.space == MemorySpace::kGlobal && s.op == AccessOp::kLoad)
        lsu_loads += st.requests;
      if (s.space == MemorySpace::kShared && s.op == AccessOp::kStore)
        store_wavefronts += st.wavefronts;
    }
    EXPECT_EQ(tma, want.at("l1tex__m_xbar2l1tex_read_sectors.sum")) << t.kernel;
    EXPECT_EQ(lsu_loads, want.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")) << t.kernel;
    EXPECT_EQ(store_wavefronts, want.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"))
        << t.kernel;
  }
}

// A barrier that not every thread of the block arrives at stops the launch, naming the counts; a
// program that includes <cuda/barrier> and never runs it runs as any other.
// __pipeline_wait_prior(N) takes N from 0 to 8: cuda_pipeline_primitives.h's switch has a case
// for each and aborts the kernel in its default (a GPU reports the trap). The emulator stops the
// launch at the call's line, naming N; a wait for 8 still in flight runs.
TEST(CoursePrograms, AWaitPriorPastEightStopsTheLaunchAtItsLine) {
  const char* text = R"(#include <cuda_pipeline.h>
__global__ void k(const float* in, float* out, int prior) {
  __shared__ float a[32];
  __pipeline_memcpy_async(&a[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  __pipeline_wait_prior(prior);
  __pipeline_wait_prior(0);
  out[threadIdx.x] = a[threadIdx.x];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 128); cudaMalloc(&out, 128);
  k<<<1, 32>>>(in, out, PRIOR);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
)";
  std::string nine = text;
  nine.replace(nine.find("PRIOR"), 5, "9");
  const LessonRun stopped = test::RunText(nine);
  ASSERT_FALSE(stopped.program->ok());
  EXPECT_NE(stopped.program->failure.find("__pipeline_wait_prior(9): it takes 0 to 8"),
            std::string::npos)
      << stopped.program->failure;
  EXPECT_NE(stopped.program->failure.find("line 6: __pipeline_wait_prior(9)"), std::string::npos)
      << stopped.program->failure;
  std::string eight = text;
  eight.replace(eight.find("PRIOR"), 5, "8");
  const LessonRun ran = test::RunText(eight);
  EXPECT_TRUE(ran.program->ok()) << ran.program->failure << ran.program->stderr_text;
}

TEST(CoursePrograms, ACudaBarrierOfPartOfTheBlockStopsTheLaunch) {
  std::string text = test::kBarrierCopy;
  text.replace(text.find("EXPECTED"), 8, "128");
  const LessonRun stopped = test::RunText(text);
  ASSERT_FALSE(stopped.program->ok());
  EXPECT_NE(stopped.program->failure.find(
                "a cuda::barrier of 128 threads in a block of 256 is not supported (yet)"),
            std::string::npos)
      << stopped.program->failure;
  std::string unused = test::kBarrierCopy;
  unused.replace(unused.find("EXPECTED"), 8, "128");
  unused.replace(unused.find("  k<<<"), 2, "  if (0) ");
  const LessonRun ok = test::RunText(unused);
  EXPECT_TRUE(ok.program->ok()) << ok.program->failure << ok.program->stderr_text;
}

// cuda-samples' NaiveLargeChunk shape: a quarter of the threads copy float4s into a tile declared
// `__shared__ alignas(16)` (clang reads the words swapped). On the SIMT path the tile lost its
// alignment and the 16-byte store faulted. in[k] = k: C[5] = 5, C[255] = 255.
TEST(CoursePrograms, ASharedTileAlignedAfterSharedTakesFloat4Stores) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
__global__ void k(float* C, float* A) {
  __shared__ alignas(alignof(float4)) float As[16][16];
  int t4x = threadIdx.x * 4;
  if (t4x < 16) {
    float4* const A4s = reinterpret_cast<float4*>(&As[threadIdx.y][t4x]);
    const float4* const A4 = reinterpret_cast<float4*>(&A[threadIdx.y * 16 + t4x]);
    *A4s = *A4;
  }
  __syncthreads();
  C[threadIdx.y * 16 + threadIdx.x] = As[threadIdx.y][threadIdx.x];
}
int main() {
  float h[256], *A, *C;
  for (int i = 0; i < 256; ++i) h[i] = i;
  cudaMalloc(&A, sizeof h); cudaMalloc(&C, sizeof h);
  cudaMemcpy(A, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, dim3(16, 16)>>>(C, A);
  cudaMemcpy(h, C, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[5], h[255]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "5 255\n");
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0].engine, "simt") << r.launches[0].engine_reason;  // where it faulted
}

// What cp.async cannot do stops the launch with its rule and the line: a size other than 4, 8 or
// 16 bytes, and a destination in global memory.
TEST(CoursePrograms, AnAsynchronousCopyTheGpuCannotMakeStopsTheLaunch) {
  auto run = [](const std::string& call) {
    return test::RunText(R"(#include <cuda_pipeline.h>
__global__ void k(float* in, float* out) {
  __shared__ float s[16];
  )" + call + R"(;
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = s[threadIdx.x];
}
int main() { float *a, *b; cudaMalloc(&a, 64); cudaMalloc(&b, 64); k<<<1, 4>>>(a, b);
  cudaDeviceSynchronize(); return 0; }
)");
  };
  const LessonRun twelve = run("__pipeline_memcpy_async(&s[0], &in[0], 12)");
  ASSERT_FALSE(twelve.program->ok());
  EXPECT_NE(twelve.program->failure.find("line 4"), std::string::npos) << twelve.program->failure;
  EXPECT_NE(twelve.program->failure.find("copies 4, 8 or 16 bytes, not 12"), std::string::npos)
      << twelve.program->failure;
  const LessonRun to_global = run("__pipeline_memcpy_async(&out[0], &in[0], 4)");
  ASSERT_FALSE(to_global.program->ok());
  EXPECT_NE(to_global.program->failure.find("its destination must be a __shared__ array"),
            std::string::npos)
      << to_global.program->failure;
}

TEST(CoursePrograms, AGroupsCopyIntoAPipelineSharesItsPiecesAsLibcuDoes) {
  const LessonRun r = test::RunText(test::kGroupIntoPipeline);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "63 63 4032\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int seen = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    if (s.line != 9 && s.line != 10) continue;
    ++seen;
    SCOPED_TRACE(s.line);
    const bool floats = s.line == 9;
    EXPECT_EQ(s.size, floats ? 4u : 16u);
    EXPECT_EQ(st.requests, floats ? 2u : 1u);
    if (s.space == MemorySpace::kGlobal) {
      EXPECT_EQ(st.sectors, 8u);
    } else {
      EXPECT_TRUE(s.async_copy);
      EXPECT_EQ(st.wavefronts, 2u);
    }
  }
  EXPECT_EQ(seen, 4);  // each copy's read and write
  EXPECT_EQ(t.hazards.Total(), 0u);
}

}  // namespace
}  // namespace ws
