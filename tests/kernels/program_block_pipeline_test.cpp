// A group's cuda::pipeline on the emulator (issue 53, item 2; shim/cuda/pipeline, runtime
// emu_async.cpp): make_pipeline(block, &shared_state, role) over a pipeline_shared_state of S
// stages, producers that acquire, copy and commit, consumers that wait and release. A
// producer's k-th acquire waits until every consumer released stage use k - S; its copies land as
// it commits; a consumer's k-th wait waits until every producer committed use k.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "program_async_programs.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/viz/pipeline_timeline.h"

namespace ws {
namespace {

TEST(CoursePrograms, AGroupsPipelineHandsEachStageFromItsProducersToItsConsumers) {
  const LessonRun r = test::RunText(test::Staged("0"));
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "480 486 666\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  // The pipeline's own reads of the clock (a commit's, a release's) are not the program's: no
  // floor on the launch's modeled time (LaunchStats::thread_clock; a review found them noted).
  EXPECT_EQ(t.stats.thread_clock, 0u);
  // By hand: the copy (line 18) is a global read of 128 contiguous bytes by warp 1 a use (6
  // requests of 4 sectors) and, landing as the producers commit, a shared write of 32
  // consecutive floats a use: 6 requests of one wavefront, as an H200 serves a warp's LDGSTS of
  // 128 contiguous bytes from one global line (kernels/async/ldgsts_wavefronts.txt, a); the
  // consumers' read (line 22) is 6
  // requests of one wavefront; their store of the sums (line 26) one request of 4 sectors.
  // make_pipeline by role (line 11) is libcu++'s: thread 0 stores the state's count (0), the
  // producers count themselves (atomics, not recorded), then thread 0 loads the count and stores
  // the group's size: 2 shared store requests and 1 load, a lane each, one wavefront each (the
  // SASS of cuda-samples' globalToShmemAsyncCopy kernel 3: two ST.E.STRONG.SM and one
  // LD.E.STRONG.SM to the count; on an H100 the GPU's counters gave 2 store and 1 load wavefronts
  // a block past the program's own, kernels/async/counters_h100.txt).
  int seen = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    if (s.line == 18 && s.space == MemorySpace::kGlobal) {
      EXPECT_EQ(st.requests, 6u);
      EXPECT_EQ(st.sectors, 24u);
    } else if (s.line == 18 && s.space == MemorySpace::kShared) {
      EXPECT_EQ(s.op, AccessOp::kStore);
      EXPECT_TRUE(s.async_copy);
      EXPECT_EQ(st.requests, 6u);
      EXPECT_EQ(st.wavefronts, 6u);
    } else if (s.line == 22) {
      EXPECT_EQ(s.op, AccessOp::kLoad);
      EXPECT_FALSE(s.async_copy);
      EXPECT_EQ(st.requests, 6u);
      EXPECT_EQ(st.wavefronts, 6u);
    } else if (s.line == 26) {
      EXPECT_EQ(st.requests, 1u);
      EXPECT_EQ(st.sectors, 4u);
    } else if (s.line == 11 && s.op == AccessOp::kStore) {
      EXPECT_EQ(s.space, MemorySpace::kShared);
      EXPECT_EQ(st.requests, 2u);
      EXPECT_EQ(st.wavefronts, 2u);
    } else if (s.line == 11) {
      EXPECT_EQ(s.space, MemorySpace::kShared);
      EXPECT_EQ(s.op, AccessOp::kLoad);
      EXPECT_EQ(st.requests, 1u);
      EXPECT_EQ(st.wavefronts, 1u);
    } else {
      ADD_FAILURE() << "an unexpected site on line " << s.line << ": " << s.code;
      continue;
    }
    ++seen;
  }
  EXPECT_EQ(seen, 6);
  // make_pipeline syncs the group three times, as libcu++'s does, at its line (11).
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  EXPECT_EQ(t.barrier_sites[0].line, 11u);
  ASSERT_EQ(t.stats.barriers.size(), 1u);
  EXPECT_EQ(t.stats.barriers[0].instances, 3u);
  // Each stage's landing writes come before its consumers' reads, and each use's reads before
  // the writes of the use after it in the stage: no pair.
  EXPECT_EQ(t.hazards.Total(), 0u);

  // The pipeline view's model of the block: warp 1's copies of each use in flight (issued to
  // landed at its commit), warp 0 holding each use from its wait's end to its release. Each use
  // is handed over after it landed, and a stage is copied into again only after the consumers
  // released its last use.
  const PipelineTimeline m = MakePipelineTimeline(t, 0);
  ASSERT_TRUE(m.message.empty()) << m.message;
  EXPECT_EQ(m.stages, 2u);
  EXPECT_EQ(m.copies, 6u * 32u);  // a copy a lane a use
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_EQ(m.rows[0].warp, 0u);
  EXPECT_EQ(m.rows[1].warp, 1u);
  const std::vector<PipelineSpan> flight = m.rows[1].Of(PipelineSpan::Kind::kInFlight);
  const std::vector<PipelineSpan> held = m.rows[0].Of(PipelineSpan::Kind::kHolding);
  ASSERT_EQ(flight.size(), 6u);
  ASSERT_EQ(held.size(), 6u);
  EXPECT_TRUE(m.rows[0].Of(PipelineSpan::Kind::kInFlight).empty());  // consumers copy nothing
  EXPECT_TRUE(m.rows[1].Of(PipelineSpan::Kind::kHolding).empty());   // producers hold nothing
  for (std::uint32_t k = 0; k < 6; ++k) {
    EXPECT_EQ(flight[k].group, k);
    EXPECT_EQ(held[k].group, k);
    EXPECT_EQ(flight[k].lanes, ~0u);
    EXPECT_LT(flight[k].to, held[k].from) << "use " << k << " held before it landed";
    if (k >= 2) {
      EXPECT_GT(flight[k].from, held[k - 2].to) << "stage reused before its release";
    }
  }
  // The consumers waited for the first use (its producers ran after them), and the producers
  // waited for a free stage at least once (two stages, six uses).
  EXPECT_FALSE(m.rows[0].Of(PipelineSpan::Kind::kWaiting).empty());
  EXPECT_FALSE(m.rows[1].Of(PipelineSpan::Kind::kAcquiring).empty());
}

// A consumer that waits for a seventh use no producer makes: the block's threads wait for each
// other for ever, and the launch stops naming the wait, its line and its threads.
TEST(CoursePrograms, AGroupsPipelineWaitingForAStageNoProducerCommitsStops) {
  const LessonRun r = test::RunText(test::Staged("1"));
  ASSERT_FALSE(r.program->ok());
  const std::string& f = r.program->failure;
  EXPECT_NE(f.find("block (0,0,0) waits for ever, no thread can go on: threads 0-31 wait at "
                   "consumer_wait() (stage 0, use 6: not yet committed by every producer) on "
                   "line 21; threads 32-63 exited"),
            std::string::npos)
      << f;
}

// A consumer parked at consumer_wait() is not at the loop's __syncthreads(), though it passed it
// last: the consumers wait for two uses an iteration, the producers commit one and come back to
// the barrier. On a GPU the block hangs (the producers wait at the barrier for consumers that
// wait for a second use). Before, the emulator took the parked consumers for threads at their
// last barrier, let the block through and the consumers on without their stage.
TEST(CoursePrograms, AThreadParkedAtAPipelineWaitIsNotAtItsLastBarrier) {
  const LessonRun r = test::RunText(R"(#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  __shared__ float tile[2][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  const bool producer = threadIdx.x >= 32;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state,
      producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  float sum = 0;
  for (int i = 0; i < 2; ++i) {
    __syncthreads();
    if (producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(&tile[i % 2][threadIdx.x - 32], &in[i * 32 + threadIdx.x - 32], sizeof(float), pipe);
      pipe.producer_commit();
    } else {
      for (int twice = 0; twice < 2; ++twice) {
        pipe.consumer_wait();
        sum += tile[0][threadIdx.x];
        pipe.consumer_release();
      }
    }
  }
  if (!producer) out[threadIdx.x] = sum;
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float)); cudaMalloc(&out, 32 * sizeof(float));
  k<<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
)");
  ASSERT_FALSE(r.program->ok());
  const std::string& f = r.program->failure;
  EXPECT_NE(f.find("waits for ever, no thread can go on: threads 0-31 wait at consumer_wait() "
                   "(stage 1, use 1: not yet committed by every producer) on line 19; threads "
                   "32-63 wait at __syncthreads() on line 12"),
            std::string::npos)
      << f;
}

// make_pipeline syncs the group as libcu++'s does: three times by role, once with counts; and a
// count given as an unsigned int is the producers' count (it once went to the overload's line
// parameter, making every thread both). 32 producers, 32 consumers, one use: 1 sync at line 7.
TEST(CoursePrograms, MakePipelineWithACountSyncsOnceAndTakesAnUnsignedCount) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
__global__ void k(const float* in, float* out, unsigned producers) {
  __shared__ float tile[32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state, producers);
  if (threadIdx.x < 32) {
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
  } else {
    pipe.consumer_wait();
    out[threadIdx.x - 32] = tile[63 - threadIdx.x];
    pipe.consumer_release();
  }
}
int main() {
  float h[32], o[32], *in, *out;
  for (int i = 0; i < 32; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof o);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 64>>>(in, out, 32u);
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  printf("%g %g\n", o[0], o[31]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "31 0\n");  // consumer c reads tile[31 - c]
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  EXPECT_EQ(t.barrier_sites[0].line, 7u);
  EXPECT_EQ(t.stats.barriers[0].instances, 1u);
  EXPECT_EQ(t.hazards.Total(), 0u);
  // With a count, libcu++'s thread 0 stores the state's count once before the sync, and loads it
  // never: one shared store of one lane at line 7, one wavefront; no load there.
  int stores = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line != 7) continue;
    EXPECT_EQ(t.sites[i].op, AccessOp::kStore);
    EXPECT_EQ(t.sites[i].space, MemorySpace::kShared);
    EXPECT_EQ(t.stats.sites[i].requests, 1u);
    EXPECT_EQ(t.stats.sites[i].wavefronts, 1u);
    ++stores;
  }
  EXPECT_EQ(stores, 1);
}

// Consumers that never wait read each stage before its copy landed: a race with the landing
// write, which the pipeline does not order. By the logical clocks (every thread leaves
// make_pipeline's syncs at one time D): consumer lane t reads tile[0][t] at D and D + 2 (uses 0,
// 2) and tile[1][t] at D + 1 and D + 3; as the consumers ran first and released every use, the
// producer lane lands use 0 at D + 1, use 1 at D + 3, then acquires use 2 after the release of
// use 0 (at D + 2) and use 3 after that of use 1, landing them at D + 5 and D + 7. The pipeline's
// order points (each use's last commit and last release, plus one) fall strictly between every
// pair but three a lane: (read D, land D + 1) and (land D + 1, read D + 2) on tile[0][t], and
// (land D + 3, read D + 3) on tile[1][t]. 96 pairs in all over 32 lanes, 32 of them a read
// before the landing (WAR) and 64 the other way or at one time (RAW). Four uses: uses 4 and 5
// are not made.
TEST(CoursePrograms, AConsumerThatReadsAStageWithoutWaitingRacesWithItsCopy) {
  std::string text = test::Staged("0");
  text.replace(text.find("      pipe.consumer_wait();\n"), 28, "      // no wait\n");
  text.replace(text.find("staged<<<1, 64>>>(in, out, 6)"), 29, "staged<<<1, 64>>>(in, out, 4)");
  const LessonRun r = test::RunText(text);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  ASSERT_EQ(r.launches.size(), 1u);
  const HazardReport& h = r.launches[0].hazards;
  EXPECT_EQ(h.Total(), 96u);
  std::uint64_t raw = 0, war = 0;
  for (const HazardGroup& g : h.groups) {
    EXPECT_EQ(g.space, MemorySpace::kShared);
    if (g.kind == HazardKind::kRaw) {
      raw += g.count;
      EXPECT_EQ(g.first_line, 18u);
      EXPECT_EQ(g.second_line, 22u);
    } else if (g.kind == HazardKind::kWar) {
      war += g.count;
      EXPECT_EQ(g.first_line, 22u);
      EXPECT_EQ(g.second_line, 18u);
    }
  }
  EXPECT_EQ(raw, 64u);
  EXPECT_EQ(war, 32u);
}

// examples/pipeline.cu, the lesson's program: one stage copies a tile and waits for it at once;
// two stages copy tile k + 1 while tile k is added. In the pipeline view's model a one-stage
// warp never has a copy in flight while it holds a tile (one track), and a two-stage warp always
// has tile k + 1 in flight while it holds tile k (two tracks). Block 0, thread 0 adds in[128k + 1]
// = (1 + 2k) mod 7 over k = 0..7: 1 + 3 + 5 + 0 + 2 + 4 + 6 + 1 = 22.
TEST(CoursePrograms, TheExamplePipelineOverlapsACopyWithWorkOnlyWithTwoStages) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/pipeline.cu");
  std::stringstream text;
  text << in.rdbuf();
  for (int stages = 1; stages <= 2; ++stages) {
    const bool two = stages == 2;
    ProgramOptions o;
    o.defines = {"kStages=" + std::to_string(stages)};
    const LessonRun r = test::RunText(text.str(), o);
    ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
    EXPECT_EQ(r.program->stdout_text,
              std::to_string(stages) + " stage(s): 512 of 512 sums right; block 0 thread 0: 22\n");
    ASSERT_EQ(r.launches.size(), 1u);
    EXPECT_EQ(r.launches[0].kernel, two ? "two_stage" : "one_stage");
    EXPECT_EQ(r.launches[0].hazards.Total(), 0u);
    const PipelineTimeline m = MakePipelineTimeline(r.launches[0], 0);
    ASSERT_TRUE(m.message.empty()) << m.message;
    ASSERT_EQ(m.rows.size(), 4u);  // 128 threads
    for (const PipelineRow& row : m.rows) {
      EXPECT_EQ(row.tracks, two ? 2u : 1u) << row.label;
      const std::vector<PipelineSpan> flight = row.Of(PipelineSpan::Kind::kInFlight);
      const std::vector<PipelineSpan> held = row.Of(PipelineSpan::Kind::kHolding);
      ASSERT_EQ(flight.size(), 8u);
      ASSERT_EQ(held.size(), 8u);
      for (std::size_t k = 0; k + 1 < 8; ++k) {
        const bool overlap = flight[k + 1].from < held[k].to && flight[k + 1].to > held[k].from;
        EXPECT_EQ(overlap, two) << row.label << " tile " << k;
      }
    }
  }
}

}  // namespace
}  // namespace ws
