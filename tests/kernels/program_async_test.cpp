// Asynchronous copies into shared memory on the emulator (issue 53, item 2; the shim's
// ws_program_async.h, runtime emu_async.cpp): __pipeline_memcpy_async is a global read where it
// is issued and lands, a shared write recorded at its site, at the __pipeline_wait_prior that
// covers its commit group. Until then its destination holds what it held before.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
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

// Two blocks of 64 threads; each thread copies in[b * 64 + t] into tile[t], reads tile[t] before
// its wait (the -1 it wrote: nothing has landed), then after the wait and a barrier reads its
// mirror's tile[63 - t]. Expected, by hand: early[i] = -1 for all 128; out[b * 64 + t] =
// b * 64 + 63 - t, so that out sums to the sum of 0..127 = 8,128 and out[0] = 63, out[64] = 127.
constexpr const char* kLandAtTheWait = R"(#include <cstdio>
#include <cuda_pipeline.h>
__global__ void stage(const float* in, float* out, float* early) {
  __shared__ float tile[64];
  const int t = threadIdx.x, i = blockIdx.x * 64 + t;
  tile[t] = -1.0f;
  __pipeline_memcpy_async(&tile[t], &in[i], sizeof(float));
  __pipeline_commit();
  early[i] = tile[t];
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[63 - t];
}
int main() {
  float h[128], *in, *out, *early;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h); cudaMalloc(&early, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<2, 64>>>(in, out, early);
  float o[128], e[128];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(e, early, sizeof e, cudaMemcpyDeviceToHost);
  float so = 0, se = 0;
  for (int i = 0; i < 128; ++i) { so += o[i]; se += e[i]; }
  printf("out %g %g %g early %g\n", so, o[0], o[64], se);
  return 0;
}
)";

TEST(CoursePrograms, AnAsynchronousCopyLandsAtTheWaitThatCoversIt) {
  const LessonRun r = test::RunText(kLandAtTheWait);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "out 8128 63 127 early -128\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  // The copy's line (7) holds two sites: its global read, 4 bytes a lane, a request a warp
  // (2 blocks x 2 warps = 4, each 128 contiguous bytes: 4 sectors), and its shared write where it
  // landed, also 4 requests.
  int global_reads = 0, shared_writes = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line != 7) continue;
    if (t.sites[i].space == MemorySpace::kGlobal && t.sites[i].op == AccessOp::kLoad) {
      ++global_reads;
      EXPECT_EQ(t.sites[i].size, 4u);
      EXPECT_EQ(t.stats.sites[i].requests, 4u);
      EXPECT_EQ(t.stats.sites[i].sectors, 16u);
    } else if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kStore) {
      ++shared_writes;
      EXPECT_EQ(t.stats.sites[i].requests, 4u);
    } else {
      ADD_FAILURE() << "an unexpected site on the copy's line: " << t.sites[i].code;
    }
  }
  EXPECT_EQ(global_reads, 1);
  EXPECT_EQ(shared_writes, 1);
  // After the barrier each thread reads a landed word: no pair. Its own read before its wait
  // (line 9) is one of HazardKind::kEarlyRead with its copy (line 7): one a thread, 128.
  const HazardReport& h = t.hazards;
  ASSERT_EQ(h.groups.size(), 1u);
  EXPECT_EQ(h.groups[0].kind, HazardKind::kEarlyRead);
  EXPECT_EQ(h.groups[0].space, MemorySpace::kShared);
  EXPECT_EQ(h.groups[0].first_line, 7u);
  EXPECT_EQ(h.groups[0].second_line, 9u);
  EXPECT_EQ(h.groups[0].count, 128u);
  EXPECT_EQ(h.groups[0].example_first.thread, h.groups[0].example_second.thread);
}

// Without the barrier after the wait, thread t reads tile[63 - t] in the interval its mirror's
// copy lands in: a race with the landing write, found as any other (the copy's line is the
// pair's write).
TEST(CoursePrograms, ReadingAnotherThreadsCopyBeforeABarrierIsARace) {
  std::string text = kLandAtTheWait;
  const std::string barrier = "  __syncthreads();\n  out[i]";
  const std::size_t at = text.find(barrier);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, barrier.size(), "  out[i]");
  const LessonRun r = test::RunText(text);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  ASSERT_EQ(r.launches.size(), 1u);
  // By hand: each of a block's 64 words is written by thread w (the -1 on line 6, and the copy
  // landing, line 7) and read by thread 63 - w (line 11) in one interval: 64 pairs a block for
  // each write, 128 in the 2 blocks; w and 63 - w are never in one warp of 32.
  // (The thread's own early read, line 9, is the third group: AnAsynchronousCopyLandsAt...)
  const HazardReport& h = r.launches[0].hazards;
  ASSERT_EQ(h.groups.size(), 3u);
  EXPECT_EQ(h.groups[2].kind, HazardKind::kEarlyRead);
  EXPECT_EQ(h.groups[2].count, 128u);
  for (int k = 0; k < 2; ++k) {
    const HazardGroup& g = h.groups[k];
    EXPECT_EQ(g.kind, HazardKind::kRaw);
    EXPECT_EQ(g.space, MemorySpace::kShared);
    EXPECT_EQ(g.second_line, 11u);
    EXPECT_EQ(g.count, 128u);
    EXPECT_EQ(g.same_warp, 0u);
  }
  EXPECT_EQ(h.groups[0].first_line, 6u);
  EXPECT_EQ(h.groups[1].first_line, 7u);  // the copy, where it landed
}

// Two commit groups: __pipeline_wait_prior(1) lands the first only (a[t] = in[t], b[t] still -1),
// __pipeline_wait_prior(0) the second (b[t] = in[32 + t]). 16-byte copies, the second with its
// upper 8 bytes filled with zeros: its global read is 8 bytes a lane. One warp of 8 threads,
// float4s: expected sums over the 8 threads of the x and z components, by hand, with
// in[k] = k: first.x = sum(4t) = 112, b.x before = -8, b.x after = sum(32 + 4t) = 368,
// b.z after = 0 (zero-filled).
TEST(CoursePrograms, AWaitForAllButTheNewestGroupLandsTheOlderOnes) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cuda_pipeline.h>
__global__ void two(const float4* in, float* out) {
  __shared__ float4 a[8], b[8];
  const int t = threadIdx.x;
  a[t] = make_float4(-1, -1, -1, -1);
  b[t] = make_float4(-1, -1, -1, -1);
  __pipeline_memcpy_async(&a[t], &in[t], 16);
  __pipeline_commit();
  __pipeline_memcpy_async(&b[t], &in[8 + t], 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  out[t] = a[t].x;
  out[8 + t] = b[t].x;
  __pipeline_wait_prior(0);
  out[16 + t] = b[t].x;
  out[24 + t] = b[t].z;
}
int main() {
  float h[64], o[32], *out; float4* in;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof o);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  two<<<1, 8>>>(in, out);
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  float s[4] = {0, 0, 0, 0};
  for (int i = 0; i < 32; ++i) s[i / 8] += o[i];
  printf("%g %g %g %g\n", s[0], s[1], s[2], s[3]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "112 -8 368 0\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int seen = 0;
  for (const SiteInfo& s : t.sites) {
    if (s.space != MemorySpace::kGlobal || s.op != AccessOp::kLoad) continue;
    if (s.line == 8) {
      EXPECT_EQ(s.size, 16u);
      ++seen;
    } else if (s.line == 10) {
      EXPECT_EQ(s.size, 8u);  // 16 bytes less 8 filled with zeros
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
}

// libcu++'s thread-scope pipeline (shim/cuda/pipeline), two stages ahead as cuda-samples'
// globalToShmemAsyncCopy runs it: consumer_wait lands the oldest stage not released. One warp,
// 4 stages of 32 floats, in[k] = k: out[t] = sum over s of (32 s + t) = 192 + 4 t (out[0] = 192,
// out[31] = 316, the sum 8,128). Each memcpy_async line is a global read and a shared write, a
// request a warp a stage: the first line's 2 stages, the loop's 2 (s = 0 and 1 refill). After the
// first wait the second stage has not landed: each thread still reads the -1 it wrote there.
TEST(CoursePrograms, AThreadsCudaPipelineLandsItsOldestStageAtEachWait) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cuda/pipeline>
__global__ void stages(const float* in, float* out, int n) {
  __shared__ float buf[2][32];
  auto pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<alignof(float)>(sizeof(float));
  const int t = threadIdx.x;
  float sum = 0;
  buf[0][t] = -1.0f;
  buf[1][t] = -1.0f;
  for (int s = 0; s < 2; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[s][t], &in[s * 32 + t], shape, pipe);
    pipe.producer_commit();
  }
  for (int s = 0; s < n; ++s) {
    pipe.consumer_wait();
    if (s == 0) out[32 + t] = buf[1][t];  // the next stage, not waited for: still -1
    sum += buf[s % 2][t];
    pipe.consumer_release();
    if (s + 2 < n) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[s % 2][t], &in[(s + 2) * 32 + t], shape, pipe);
      pipe.producer_commit();
    }
  }
  out[t] = sum;
}
int main() {
  float h[128], o[64], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof o);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stages<<<1, 32>>>(in, out, 4);
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  float s = 0, early = 0;
  for (int i = 0; i < 32; ++i) { s += o[i]; early += o[32 + i]; }
  printf("%g %g %g %g\n", o[0], o[31], s, early);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "192 316 8128 -32\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  for (std::uint32_t line : {13u, 23u}) {
    int both = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].line != line) continue;
      ++both;
      EXPECT_EQ(t.stats.sites[i].requests, 2u) << line << " " << t.sites[i].code;
      EXPECT_EQ(t.sites[i].space,
                t.sites[i].op == AccessOp::kLoad ? MemorySpace::kGlobal : MemorySpace::kShared);
    }
    EXPECT_EQ(both, 2) << line;
  }
  // The read of the next stage before its wait (line 18) is each lane's own early read of its
  // copy on line 13: 32 pairs, and no other hazard.
  ASSERT_EQ(t.hazards.groups.size(), 1u);
  EXPECT_EQ(t.hazards.groups[0].kind, HazardKind::kEarlyRead);
  EXPECT_EQ(t.hazards.groups[0].first_line, 13u);
  EXPECT_EQ(t.hazards.groups[0].second_line, 18u);
  EXPECT_EQ(t.hazards.groups[0].count, 32u);
}

// test::kQuarterCopies (globalToShmemAsyncCopy kernel 0's shape, worked in
// program_async_programs.h): lanes 0-3 and 16-19 of each warp copy, all commit. Its output, 32
// requests each way at the copy's line (a warp's two rows are one line a stage), no hazard, and
// the Pipeline view's events thread by thread: a copying thread issues, commits, waits for and
// lands 4 stages; the others commit and wait 4 times, with nothing to land. On the GPU its
// recorded run hung once (ws_gpu_async.h's NoteAsync); the GPU test runs it too.
TEST(CoursePrograms, CopiesInAQuarterOfTheLanesCommittedByAllRunAsWritten) {
  const LessonRun r = test::RunText(test::kQuarterCopies);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "out 2556 1536\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  int copies = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line != 10) continue;
    ++copies;
    EXPECT_EQ(t.stats.sites[i].requests, 32u) << t.sites[i].code;
  }
  EXPECT_EQ(copies, 2);  // its global read and its shared write
  EXPECT_TRUE(t.hazards.groups.empty());
  ASSERT_EQ(t.blocks.size(), 1u);
  auto count = [&](std::uint32_t thread, AsyncEventKind kind) {
    return std::count_if(t.blocks[0].async_events.begin(), t.blocks[0].async_events.end(),
                         [&](const AsyncEvent& e) { return e.thread == thread && e.kind == kind; });
  };
  for (std::uint32_t thread : {0u, 3u, 4u, 15u, 16u, 19u, 20u, 255u}) {
    SCOPED_TRACE(thread);
    const long copying = thread % 16 < 4 ? 4 : 0;
    EXPECT_EQ(count(thread, AsyncEventKind::kIssue), copying);
    EXPECT_EQ(count(thread, AsyncEventKind::kLand), copying);
    EXPECT_EQ(count(thread, AsyncEventKind::kCommit), 4);
    EXPECT_EQ(count(thread, AsyncEventKind::kWaitEnd), 4);
  }
}

// cuda-samples' MatrixMulAsyncCopySingleStage shape: a thread's pipeline whose stages are waited
// for and never released (libcu++'s consumer_release does nothing; its consumer_wait moves the
// tail on). Each wait lands the stage just committed: thread t adds in[32k + t] over k = 0..3,
// 64 + 4t (t = 0: 0 + 32 + 64 + 96 = 192; t = 31: 316), and no read comes before its copy
// landed. Before, the emulator's wait landed only the oldest stage not released, so from the
// second stage on the reads saw the first one's (a sum of 4t: 0 and 124) and nothing said so.
TEST(CoursePrograms, AThreadsPipelineWaitedForWithoutReleasesLandsEachStage) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cuda/pipeline>
__global__ void k(const float* in, float* out) {
  __shared__ float buf[32];
  auto pipe = cuda::make_pipeline();
  float sum = 0;
  for (int s = 0; s < 4; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[threadIdx.x], &in[s * 32 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    sum += buf[threadIdx.x];
  }
  out[threadIdx.x] = sum;
}
int main() {
  float h[128], o[32], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof o);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(in, out);
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  printf("%g %g\n", o[0], o[31]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "192 316\n");
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0].hazards.Total(), 0u);
}

// One of the H200's probe tables beside kernels/async/'s probes: per kernel (a line), the numbers
// after its name, in order.
std::vector<std::vector<std::uint64_t>> ProbeTable(const std::string& path) {
  std::vector<std::vector<std::uint64_t>> rows;
  std::ifstream table(path);
  for (std::string line; std::getline(table, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string name;
    f >> name;
    rows.emplace_back();
    for (std::uint64_t v = 0; f >> v;) rows.back().push_back(v);
  }
  return rows;
}

// What a probe's launch k must cost: its one cp.async write's wavefronts and (where
// `check_conflicts`) bank conflicts, and its global read's sectors. `lines`, where not 0, is the
// count of global lines its sources span, which the wavefronts must equal (at least 1).
struct CopyCost {
  std::uint64_t wavefronts = 0, conflicts = 0, sectors = 0, lines = 0;
  bool check_conflicts = true;
};

// Runs the probe `file` (kernels/async/) and checks each of its launches against `costs`.
void ExpectCopiesCost(const std::string& file, const std::vector<CopyCost>& costs) {
  std::ifstream src(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/async/" + file);
  std::stringstream text;
  text << src.rdbuf();
  const LessonRun run = test::RunText(text.str());
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  ASSERT_EQ(run.launches.size(), costs.size());
  for (std::size_t k = 0; k < costs.size(); ++k) {
    const LaunchTrace& t = run.launches[k];
    const CopyCost& want = costs[k];
    int copies = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      const SiteStats& st = t.stats.sites[i];
      if (s.async_copy) {
        ++copies;
        EXPECT_EQ(st.requests, 1u) << file << " launch " << k;
        EXPECT_EQ(st.wavefronts, want.wavefronts) << file << " launch " << k;
        if (want.lines != 0) {
          EXPECT_EQ(st.wavefronts, std::max<std::uint64_t>(want.lines, 1))
              << file << " launch " << k;
        }
        if (want.check_conflicts) {
          EXPECT_EQ(st.wavefronts - st.ideal_wavefronts, want.conflicts) << file << " launch " << k;
        }
      } else if (s.space == MemorySpace::kGlobal && s.op == AccessOp::kLoad) {
        EXPECT_EQ(st.sectors, want.sectors) << file << " launch " << k;
      }
    }
    EXPECT_EQ(copies, 1) << file << " launch " << k;
  }
}

// kernels/async/ldgsts_probe.cu on the emulator: each of its eight one-warp LDGSTS patterns'
// shared write costs what Nsight Compute counted on an H200 (ldgsts_wavefronts.txt beside it:
// wavefronts, and bank conflicts as the wavefronts past the first), and its global read the same
// sectors. The file is read here, not copied: the numbers are the GPU's.
TEST(CoursePrograms, ACpAsyncWriteCostsWhatTheH200Counted) {
  // Columns: bytes, shared stride, lanes, shared bytes, wavefronts, bank conflicts, sectors.
  const auto table =
      ProbeTable(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/async/ldgsts_wavefronts.txt");
  ASSERT_EQ(table.size(), 8u);
  std::vector<CopyCost> costs;
  for (const auto& r : table) {
    ASSERT_EQ(r.size(), 7u);
    costs.push_back({r[4], r[5], r[6], 0, true});
  }
  ExpectCopiesCost("ldgsts_probe.cu", costs);
}

// The write's other rule on an H200 (kernels/async/ldgsts_lines_probe.cu, Nsight Compute's counts
// in ldgsts_lines.txt): one wavefront for each global 128-byte line the warp's sources span where
// that is more than a store's. Eight one-warp copies into 128 contiguous shared bytes (as a store:
// one wavefront), their sources in 1, 2, 4, 4, 1, 2, 32 and 1 lines: 1, 2, 4, 4, 1, 2, 32 and 1
// wavefronts. The bank conflicts Nsight Compute counts are wavefronts less one for the 4-byte
// copies; for the 16-byte one it counted none where the emulator counts the extra wavefront as
// one (not modelled: one probe).
TEST(CoursePrograms, ACpAsyncWriteTakesAWavefrontASourceLineOnTheH200) {
  // Columns: bytes, lanes, source lines, shared bytes, wavefronts, bank conflicts, sectors.
  const auto table =
      ProbeTable(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/async/ldgsts_lines.txt");
  ASSERT_EQ(table.size(), 8u);
  std::vector<CopyCost> costs;
  for (const auto& r : table) {
    ASSERT_EQ(r.size(), 7u);
    costs.push_back({r[4], r[5], r[6], r[2], r[0] == 4});
  }
  ExpectCopiesCost("ldgsts_lines_probe.cu", costs);
}

}  // namespace
}  // namespace ws
