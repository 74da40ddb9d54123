// Issue 53 on a GPU (--backend cuda): nvcuda::wmma, asynchronous copies and clusters run on the
// toolkit's own headers (kernels/program/shim/gpu/mma.h, ws_gpu_async.h), recorded as the emulator
// records them, so that a program prints what it prints as written and both backends give the same
// figures site by site. Elsewhere the tests skip and say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "program_async_programs.h"
#include "program_gpu_util.h"
#include "program_test_util.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

using test::FiguresOf;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Both runs ended well, printed the same and launched the same kernels with the same figures.
void ExpectTheSame(const test::BothRuns& r) {
  ASSERT_TRUE(r.emu.program->ok()) << r.emu.program->failure << r.emu.program->stderr_text;
  ASSERT_TRUE(r.gpu.program->ok()) << r.gpu.program->failure << r.gpu.program->stderr_text;
  EXPECT_EQ(r.gpu.program->stdout_text, r.emu.program->stdout_text);
  ASSERT_EQ(r.gpu.launches.size(), r.emu.launches.size());
  for (std::size_t k = 0; k < r.gpu.launches.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(r.gpu.launches[k].kernel, r.emu.launches[k].kernel);
    EXPECT_EQ(FiguresOf(r.gpu.launches[k]), FiguresOf(r.emu.launches[k]));
    EXPECT_EQ(r.gpu.launches[k].hazards.Total(), 0u);
  }
}

// examples/wmma_tile.cu at kSkew 0, 8 and 16: the two ldmatrix loads (lines 35, 36) take 64, 8 and
// 16 shared wavefronts together, as Nsight Compute counted on an H200 (kernels/tensor/
// wmma_tile_h200.txt), and the accumulator's store to global memory (line 38) 32 sectors at every
// skew; the GPU's run records the same requests as the emulator's.
TEST(TensorCoresOnGpu, TheWmmaExampleCostsWhatTheEmulatorAndTheH200Count) {
  WS_SKIP_WITHOUT_GPU();
  const std::pair<int, std::uint64_t> skews[] = {{0, 64}, {8, 8}, {16, 16}};
  for (const auto& [skew, wavefronts] : skews) {
    SCOPED_TRACE(skew);
    ProgramOptions o;
    o.defines = {"kSkew=" + std::to_string(skew)};
    const test::BothRuns r = test::RunOnBoth(test::ReadExample("wmma_tile.cu"), o);
    ExpectTheSame(r);
    ASSERT_EQ(r.gpu.launches.size(), 1u);
    EXPECT_EQ(r.gpu.program->stdout_text, "C[0][0] = 5, C[15][15] = -10: PASS\n");
    const LaunchTrace& t = r.gpu.launches[0];
    std::uint64_t loads = 0, stored = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].space == MemorySpace::kShared && t.sites[i].size == 16)
        loads += t.stats.sites[i].wavefronts;
      if (t.sites[i].line == 38) stored += t.stats.sites[i].sectors;
    }
    EXPECT_EQ(loads, wavefronts);
    EXPECT_EQ(stored, 32u);
  }
}

// tests/programs/agreement/wmma_lanes.cu printed wmma_lanes.gpu.txt as nvcc built it on an H200
// (each lane's x[i] scaled by i + 1, GEMMs of six input types): recorded on the GPU it prints the
// same, its loads and stores recorded as the emulator records them.
TEST(TensorCoresOnGpu, AProgramTouchingFragXPrintsWhatTheGpuPrintedAsWritten) {
  WS_SKIP_WITHOUT_GPU();
  const std::string dir = WARPSCOPE_SOURCE_DIR "/tests/programs/agreement/";
  const test::BothRuns r = test::RunOnBoth(ReadFile(dir + "wmma_lanes.cu"));
  ExpectTheSame(r);
  EXPECT_EQ(r.gpu.program->stdout_text, ReadFile(dir + "wmma_lanes.gpu.txt"));
}

// The primitives: each thread copies a float, the first 16 a float4 each into a second tile, two
// commits, one wait. By hand: out[b * 64 + t] = (b * 64 + 63 - t) + (b * 64 + t) = 128 b + 63, so
// that block 0 writes 63, block 1 191, and the sum is 64 x 63 + 64 x 191 = 16,256.
constexpr const char* kPrimitives = R"(#include <cstdio>
#include <cuda_pipeline.h>
__global__ void stage(const float* in, float* out) {
  __shared__ alignas(16) float tile[2][64];
  const int t = threadIdx.x, i = blockIdx.x * 64 + t;
  __pipeline_memcpy_async(&tile[0][t], &in[i], sizeof(float));
  __pipeline_commit();
  if (t < 16) __pipeline_memcpy_async(&tile[1][t * 4], &in[blockIdx.x * 64 + t * 4], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[0][63 - t] + tile[1][t];
}
int main() {
  float h[128], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<2, 64>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 128; ++i) s += h[i];
  printf("out %g %g %g\n", s, h[0], h[64]);
  return 0;
}
)";

// The copies are the toolkit's cp.async on the GPU, each recorded where it is issued as a global
// read and a shared write (the emulator records the write where the wait lands it): the same
// requests, the same wavefronts by the lines rule, and no hazard (the reads come after the wait
// and the barrier).
TEST(AsyncCopiesOnGpu, ThePrimitivesCopiesCostAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  const test::BothRuns r = test::RunOnBoth(kPrimitives);
  ExpectTheSame(r);
  EXPECT_EQ(r.gpu.program->stdout_text, "out 16256 63 191\n");
  ASSERT_EQ(r.gpu.launches.size(), 1u);
  int writes = 0;
  for (const SiteInfo& s : r.gpu.launches[0].sites) writes += s.async_copy ? 1 : 0;
  EXPECT_EQ(writes, 2);  // lines 6 and 8
}

// cuda::memcpy_async into a block's cuda::barrier (its arrive_and_wait recorded as the block's
// barrier), into a group's pipeline of producers and consumers, and a block's copy into each
// thread's pipeline: "240 15 32640", "480 486 666" and "63 63 4032" by hand
// (program_async_programs.h), the figures the emulator's.
TEST(AsyncCopiesOnGpu, BarrierAndPipelineCopiesCostAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  std::string barrier = test::kBarrierCopy;
  barrier.replace(barrier.find("EXPECTED"), 8, "blockDim.x * blockDim.y");
  const test::BothRuns b = test::RunOnBoth(barrier);
  ExpectTheSame(b);
  EXPECT_EQ(b.gpu.program->stdout_text, "240 15 32640\n");
  // On compute 9.0 libcu++ makes each float4's copy a bulk copy through the TMA (UBLKCP): both
  // of the copy's sites say so, and its read is 64 sectors, one a copy (by hand: 64 copies).
  ASSERT_EQ(b.gpu.launches.size(), 1u);
  int bulk = 0;
  for (std::size_t i = 0; i < b.gpu.launches[0].sites.size(); ++i) {
    const SiteInfo& s = b.gpu.launches[0].sites[i];
    if (!s.bulk_copy) continue;
    ++bulk;
    if (s.space == MemorySpace::kGlobal) {
      EXPECT_EQ(b.gpu.launches[0].stats.sites[i].sectors, 64u);
    }
  }
  EXPECT_EQ(bulk, 2);
  const test::BothRuns p = test::RunOnBoth(test::Staged("0"));
  ExpectTheSame(p);
  EXPECT_EQ(p.gpu.program->stdout_text, "480 486 666\n");
  const test::BothRuns g = test::RunOnBoth(test::kGroupIntoPipeline);
  ExpectTheSame(g);
  EXPECT_EQ(g.gpu.program->stdout_text, "63 63 4032\n");
}

// Each thread's asynchronous copy events as (kind, group), in the order it made them; with
// `lands` false, without its copies' landings (counted apart).
std::vector<std::pair<AsyncEventKind, std::uint32_t>> ThreadsEvents(const BlockRecords& b,
                                                                    std::uint32_t thread,
                                                                    bool lands = true) {
  std::vector<std::pair<AsyncEventKind, std::uint32_t>> v;
  for (const AsyncEvent& e : b.async_events)
    if (e.thread == thread && (lands || e.kind != AsyncEventKind::kLand))
      v.emplace_back(e.kind, e.group);
  return v;
}

// Compares every thread's events in every block both backends kept; returns the events compared.
// `lands` false: the landings by count only (a group pipeline's copy lands at its producer's
// commit on the emulator, where a consumer's wait ended on the GPU: later in the thread's list).
std::size_t ExpectTheSameEvents(const test::BothRuns& r, bool lands) {
  std::size_t compared = 0;
  for (std::size_t k = 0; k < r.gpu.launches.size() && k < r.emu.launches.size(); ++k) {
    const LaunchTrace& g = r.gpu.launches[k];
    EXPECT_EQ(g.time_unit, "ns");
    for (const BlockRecords& gb : g.blocks) {
      const auto& eb = r.emu.launches[k].blocks;
      const auto e = std::find_if(eb.begin(), eb.end(),
                                  [&](const BlockRecords& x) { return x.block == gb.block; });
      if (e == eb.end()) continue;
      EXPECT_EQ(gb.async_events.size(), e->async_events.size());
      for (std::uint32_t t = 0; t < g.block.count(); ++t) {
        EXPECT_EQ(ThreadsEvents(gb, t, lands), ThreadsEvents(*e, t, lands))
            << "block " << gb.block << " thread " << t;
      }
      compared += gb.async_events.size();
    }
  }
  return compared;
}

// The Pipeline view's events on the GPU: each kept block's copy calls replayed on the host are the
// emulator's thread by thread, the same kinds and groups in the same order (the times the GPU's
// ns, a copy landed where the wait that covers it ended): a thread's pipeline of one stage and of
// two (examples/pipeline.cu, kept as `auto`), one declared by its type, the primitives (with
// <cuda/pipeline> included first too: its header brings theirs in inside the toolkit's guard), a
// block's cuda::barrier, copies in a quarter of the lanes committed by all of them (the shape whose
// recorded run hung on an H200 while the lanes' events were grouped); and a group's pipeline of
// producers and consumers, its landings by count.
TEST(AsyncCopiesOnGpu, ThePipelineViewsEventsAreTheEmulatorsThreadByThread) {
  WS_SKIP_WITHOUT_GPU();
  std::string barrier = test::kBarrierCopy;
  barrier.replace(barrier.find("EXPECTED"), 8, "blockDim.x * blockDim.y");
  std::string typed = test::ReadExample("pipeline.cu");
  for (std::size_t at = typed.find("auto pipe"); at != std::string::npos;
       at = typed.find("auto pipe"))
    typed.replace(at, 4, "cuda::pipeline<cuda::thread_scope_thread>");
  ProgramOptions one;
  one.defines = {"kStages=1"};
  const test::BothRuns runs[] = {
      test::RunOnBoth(test::ReadExample("pipeline.cu"), one),
      test::RunOnBoth(test::ReadExample("pipeline.cu")),
      test::RunOnBoth(typed),
      test::RunOnBoth(kPrimitives),
      test::RunOnBoth(std::string("#include <cuda/pipeline>\n") + kPrimitives),
      test::RunOnBoth(barrier),
      test::RunOnBoth(test::kQuarterCopies)};
  for (std::size_t p = 0; p < std::size(runs); ++p) {
    SCOPED_TRACE(p);
    ExpectTheSame(runs[p]);
    EXPECT_GT(ExpectTheSameEvents(runs[p], true), 0u);  // some kept block made copies on both
  }
  const test::BothRuns s = test::RunOnBoth(test::Staged("0"));
  ExpectTheSame(s);
  EXPECT_GT(ExpectTheSameEvents(s, false), 0u);
  // Its consumers' waits carry the pipeline's 2 stages (the view colours by them).
  ASSERT_FALSE(s.gpu.launches.empty() || s.gpu.launches[0].blocks.empty());
  std::size_t staged = 0;
  for (const AsyncEvent& e : s.gpu.launches[0].blocks[0].async_events)
    staged += e.kind == AsyncEventKind::kWaitEnd && e.stages == 2 ? 1 : 0;
  EXPECT_GT(staged, 0u);
}

// A group's copy (cooperative_groups::memcpy_async) is cut among its threads inside the toolkit's
// header, where the recording does not see the pieces: the GPU backend refuses it by name, at its
// line, before compiling.
TEST(AsyncCopiesOnGpu, AGroupsCopyIsRefusedByNameOnTheGpu) {
  WS_SKIP_WITHOUT_GPU();
  ProgramOptions o;
  o.backend = "cuda";
  const LessonRun r = test::RunText(R"(#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  __shared__ float tile[64];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 64);
  cg::wait(block);
  out[threadIdx.x] = tile[63 - threadIdx.x];
}
int main() { return 0; }
)",
                                    o);
  ASSERT_FALSE(r.program->ok());
  EXPECT_NE(r.program->failure.find("test.cu:7"), std::string::npos) << r.program->failure;
  EXPECT_NE(r.program->failure.find("group's asynchronous copy"), std::string::npos)
      << r.program->failure;
}

// cuBLAS's kernels are the library's, which the recording does not reach: the GPU backend refuses
// it by name, at its #include, before compiling (the emulator runs its calls: program_cublas_test).
TEST(AsyncCopiesOnGpu, CublasIsRefusedByNameOnTheGpu) {
  WS_SKIP_WITHOUT_GPU();
  ProgramOptions o;
  o.backend = "cuda";
  const LessonRun r = test::RunText(
      "#include <cstdio>\n#include <cublas_v2.h>\n"
      "int main() { cublasHandle_t h; cublasCreate(&h); return 0; }\n",
      o);
  ASSERT_FALSE(r.program->ok());
  EXPECT_NE(r.program->failure.find("test.cu:2: cuBLAS is not supported (yet) on the GPU backend"),
            std::string::npos)
      << r.program->failure;
}

// cuRAND's device API runs on the emulator only (shim/curand_kernel.h): the GPU backend refuses it
// at its #include, naming the line (not yet run on a GPU).
TEST(AsyncCopiesOnGpu, CurandIsRefusedByNameOnTheGpu) {
  WS_SKIP_WITHOUT_GPU();
  ProgramOptions o;
  o.backend = "cuda";
  const LessonRun r = test::RunText(
      "#include <cstdio>\n#include <curand_kernel.h>\n"
      "__global__ void k(curandState* s) { curand_init(1, threadIdx.x, 0, &s[threadIdx.x]); }\n"
      "int main() { return 0; }\n",
      o);
  ASSERT_FALSE(r.program->ok());
  EXPECT_NE(r.program->failure.find("test.cu:2: cuRAND is not supported (yet) on the GPU backend"),
            std::string::npos)
      << r.program->failure;
}

// Thread-block clusters (examples/cluster_exchange.cu): the hardware's own cluster calls, the
// syncs recorded as barriers and another block's shared memory recorded at its offset in that
// block's window plus RemoteSharedOffset(rank), as on the emulator: the same output, the same
// figures site by site, and (every block kept at this size) the same traffic between ranks.
TEST(ClustersOnGpu, TheClusterExampleIsRecordedAsOnTheEmulator) {
  WS_SKIP_WITHOUT_GPU();
  const test::BothRuns r = test::RunOnBoth(test::ReadExample("cluster_exchange.cu"));
  ExpectTheSame(r);
  ASSERT_EQ(r.gpu.launches.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    const LaunchTrace& g = r.gpu.launches[k];
    EXPECT_EQ(g.cluster, r.emu.launches[k].cluster);
    // The GPU counts the traffic from the blocks it kept, and says how many.
    EXPECT_TRUE(g.cluster_kept_only);
    EXPECT_EQ(g.cluster_blocks_counted, g.blocks.size());
    if (g.blocks.size() == g.grid.count()) {
      EXPECT_EQ(g.stats.cluster_bytes, r.emu.launches[k].stats.cluster_bytes);
    }
  }
}

}  // namespace
}  // namespace ws
