// Capture on the GPU: faults, the record budget, the uninstrumented timing and a 1M-thread
// launch (ctest label "gpu"; each test skips and says why where there is no GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "core/child_run.h"
#include "require_gpu.h"
#include "site_stats_expect.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/trace/occupancy.h"

namespace ws {
namespace {

TEST(GpuCapture, AFaultingKernelIsAnErrorAndTheNextRunWorks) {
  REQUIRE_GPU();
  // As the app does it: each GPU run in its own process, since CUDA keeps a fault's error for
  // the rest of the process that made it.
  ChildRunRequest rq;
  rq.cli = WARPSCOPE_CLI;
  rq.lesson = "fault";
  rq.backend = "cuda";
  auto bad = RunLessonInChild(rq);
  ASSERT_FALSE(bad.ok());
  // The H100 reports a store 4 GiB past a cudaMalloc'd buffer as cudaErrorInvalidAddressSpace;
  // other GPUs may say cudaErrorIllegalAddress.
  EXPECT_NE(bad.status().message().find("The kernel faulted on the GPU"), std::string::npos)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("writePastTheEnd"), std::string::npos);
  rq.lesson = "offset-copy";
  rq.params = {{"offset", 1}};
  auto good = RunLessonInChild(rq);
  ASSERT_TRUE(good.ok()) << good.status().message();
  EXPECT_TRUE(good->check.ok) << good->check.message;
  // 5 sectors per request at offset 1 (the slides' misaligned copy), 64 blocks x 8 warps.
  EXPECT_EQ(good->main_launch().stats.sites[0].sectors, 5u * 512);
}

TEST(GpuCapture, AFaultEndsOnlyTheWarmWorkerAndTheNextRunGetsAFreshOne) {
  REQUIRE_GPU();
  // The app's road since the warm worker: one process for many GPU runs. A good run, the
  // faulting kernel (its error is the message; the worker leaves, its CUDA context spoilt), then
  // a good run again, in a new worker.
  ChildRunRequest rq;
  rq.cli = WARPSCOPE_CLI;
  rq.lesson = "offset-copy";
  rq.backend = "cuda";
  rq.params = {{"offset", 1}};
  auto first = RunLessonInWorker(rq);
  ASSERT_TRUE(first.ok()) << first.status().message();
  const int pid = WorkerProcessId();
  ChildRunRequest fault = rq;
  fault.lesson = "fault";
  fault.params = {};
  auto bad = RunLessonInWorker(fault);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("The kernel faulted on the GPU"), std::string::npos)
      << bad.status().message();
  auto good = RunLessonInWorker(rq);
  ASSERT_TRUE(good.ok()) << good.status().message();
  EXPECT_NE(WorkerProcessId(), pid);
  EXPECT_TRUE(good->check.ok) << good->check.message;
  EXPECT_EQ(good->main_launch().stats.sites[0].sectors, 5u * 512);  // as in the test above
}

TEST(GpuCapture, ASmallRecordBudgetTruncatesButKeepsTheKeptBlocksAndTheOutput) {
  REQUIRE_GPU();
  RunOptions o;
  // stride-copy, 64 blocks of 256 threads: 8 warps a block, each writing 2 events of 6 words.
  // The pool (4736 bytes: 37 first chunks of 128 bytes) runs dry, so the launch is recorded
  // again as planned: each warp is given a 4-word header + 12 + 12/4 + 12 = 31 words, rounded
  // to 32 (128 bytes). 4736 bytes hold the 4 kept blocks' 32 warps (4096 bytes) and 5 more
  // warps, so 512 - 37 warps record nothing.
  // Every event written (no tally), as a launch whose requests the tally cannot take.
  // (The lane log, the road of a launch this small, does not fit 4,736 bytes: the event roads.)
  o.record_budget_bytes = 4736;
  o.gpu_tally = false;
  auto r = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  EXPECT_TRUE(t.truncated);
  EXPECT_GT(r->timing.count_ms, 0.0);            // the first pass ran dry: counted, then planned
  EXPECT_TRUE(r->check.ok) << r->check.message;  // recording never touches the kernel's data
  ASSERT_EQ(t.blocks.size(), 4u);
  for (const BlockRecords& b : t.blocks) EXPECT_EQ(b.accesses.size(), 2u * 256);
  EXPECT_EQ(t.stats.sites[0].requests, 37u);
  // Blocks 0..3 whole, block 4 with 5 of its 8 warps: 60 of 64 blocks not covered, and said so.
  EXPECT_EQ(t.uncovered_blocks, 60u);
  EXPECT_EQ(t.Coverage(),
            "the figures cover 4 of 64 blocks: the record budget left 60 blocks' warps no room on "
            "the GPU (--record-budget; a smaller grid)");
  auto full = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", RunOptions{});
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(full->main_launch().truncated);
  EXPECT_EQ(full->main_launch().stats.sites[0].requests, 512u);
  // With the tally the same budget covers the grid: the kept blocks' 32 warps write their
  // events, the other 480 warps' requests are counted on the device.
  o.gpu_tally = true;
  auto tallied = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", o);
  ASSERT_TRUE(tallied.ok()) << tallied.status().message();
  EXPECT_EQ(tallied->main_launch().uncovered_blocks, 0u);
  EXPECT_EQ(tallied->main_launch().stats.sites[0].requests, 512u);
  EXPECT_EQ(tallied->main_launch().blocks.size(), 4u);
}

TEST(GpuTally, RequestsCountedOnTheDeviceGiveTheFiguresOfEveryEventWritten) {
  REQUIRE_GPU();
  const std::vector<std::tuple<std::string, std::string, Params>> cases = {
      // 16 x 16 blocks: their requests are affine in rows of 16 (tally_rows 4), counted by the
      // steps, the naive kernel's loads too (a row's operand: step 0, the rows Width apart).
      {"matmul", "tiled", {}},
      {"matmul", "naive", {}},
      {"transpose", "naive", {}},
      {"transpose", "padded", {}},
      {"offset-copy", "copy", {{"offset", 13}}},
      {"reduce", "divergent", {{"blocks", 64}}}};
  for (const auto& [lesson, variant, params] : cases) {
    SCOPED_TRACE(lesson + " / " + variant);
    // The event roads (these launches are small enough for the lane log, which tallies none).
    RunOptions written, tallied;
    written.gpu_tally = false;
    written.gpu_lane_log = tallied.gpu_lane_log = false;
    auto a = RunLesson(lesson, variant, params, "cuda", written);
    auto b = RunLesson(lesson, variant, params, "cuda", tallied);
    ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.status().message() : a.status().message());
    const LaunchTrace &x = a->main_launch(), &y = b->main_launch();
    ASSERT_EQ(x.sites.size(), y.sites.size());
    EXPECT_GT(x.grid.count(), 4u);  // blocks past the kept four: tallied
    for (std::size_t i = 0; i < x.sites.size(); ++i) {
      SCOPED_TRACE("line " + std::to_string(x.sites[i].line));
      test_support::ExpectSameSiteStats(x.stats.sites[i], y.stats.sites[i]);
    }
    EXPECT_EQ(x.stats.access_records, y.stats.access_records);
    EXPECT_EQ(x.stats.divergent_warps, y.stats.divergent_warps);
    EXPECT_EQ(x.thread_active, y.thread_active);
    EXPECT_EQ(x.blocks.size(), y.blocks.size());
    // Written, the grid's events came back; tallied, only the kept blocks' and the barriers'.
    EXPECT_LT(b->timing.record_bytes, a->timing.record_bytes);
    // Every shape affine, or affine in rows, was hashed by its steps (the whole warp's short road
    // finds it there); the matmuls' are all one or the other (their 16 x 16 blocks' rows).
    EXPECT_EQ(b->timing.tally_by_steps, b->timing.tally_steps_shaped);
    if (lesson == "matmul") {
      EXPECT_GT(b->timing.tally_shapes, 0u);
      EXPECT_EQ(b->timing.tally_steps_shaped, b->timing.tally_shapes);
    }
  }
}

TEST(GpuCapture, TheTimeComesFromTheUninstrumentedBuild) {
  REQUIRE_GPU();
  auto r = RunLesson("stride-copy", "", {{"stride", 1}, {"blocks", 4096}}, "cuda", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->timing.kind, "measured");
  EXPECT_NE(r->timing.note.find("uninstrumented"), std::string::npos);
  EXPECT_GT(r->timing.ms, 0.0);
  EXPECT_GT(r->timing.record_ms, 0.0);
  EXPECT_EQ(r->timing.count_ms, 0.0);  // one pass: the default budget holds it
  // 1M threads = 32768 warps with two requests each (the load and the store), 2^21 access
  // records. Only the 4 kept blocks' 32 warps write theirs, as two affine events of 24 bytes:
  // 1,536 bytes; the other warps' requests are counted on the device (the tally).
  EXPECT_EQ(r->timing.record_bytes, 4u * 8 * 2 * 24);
  EXPECT_EQ(r->timing.records, 2u << 20);
  EXPECT_EQ(r->main_launch().stats.access_records, 2u << 20);
  EXPECT_EQ(r->main_launch().blocks.size(), 4u);  // full records of the kept blocks only
  EXPECT_EQ(r->timing.lane_rows, 0u);             // 1M threads: past the lane log's launches
  // A short pass runs twice and the second is timed, warm (RecordLaunch): the counts and bytes
  // above are the second run's, so it started from a cleared pool and tally (a tally left as the
  // first run ended would count 2^22, a pool left so would hold its words twice).
  EXPECT_TRUE(r->timing.record_warm);
}

// Issue 16: at 256x256 a transpose is over in ~5 us, mostly launch overhead, and naive,
// coalesced and padded measured 6.1 / 5.5 / 5.2 us. Timed at 8192x8192 (1024x the work) the
// kernel dwarfs the launch and the lesson's ordering shows: naive slower than coalesced.
TEST(GpuCapture, TransposeIsTimedAt8192SoItsOrderingShows) {
  REQUIRE_GPU();
  auto naive = RunLesson("transpose", "naive", {}, "cuda", RunOptions{});
  auto coalesced = RunLesson("transpose", "coalesced", {}, "cuda", RunOptions{});
  ASSERT_TRUE(naive.ok()) << naive.status().message();
  ASSERT_TRUE(coalesced.ok()) << coalesced.status().message();
  EXPECT_EQ(coalesced->timing.timed_at, "8192x8192");
  EXPECT_DOUBLE_EQ(coalesced->timing.work_scale, 1024.0);
  EXPECT_EQ(coalesced->main_launch().grid.x, 256u / 32);  // the records: the run's own size
  // Launch overhead under 10 %: the 256² kernel is nearly all overhead, so 10x its time.
  EXPECT_GT(coalesced->timing.ms, 10 * coalesced->timing.own_ms);
  EXPECT_GT(naive->timing.ms, coalesced->timing.ms);
}

TEST(GpuCapture, TheOccupancyCalculatorsGpuIsThePickedOne) {
  REQUIRE_GPU();
  const DeviceQuery q = QueryDevices();
  RunOptions o;
  o.gpu = q.gpus.back().index;
  // "gpu": the last of the device choices, after the generations.
  const long long gpu = static_cast<long long>(OccupancyDevices().size());
  auto r = RunLesson("occupancy", "", {{"device", gpu}}, "emu", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->device.find(q.gpus.back().name), std::string::npos) << r->device;
  o.gpu = static_cast<int>(q.gpus.size());
  auto missing = RunLesson("occupancy", "", {{"device", gpu}}, "emu", o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("does not exist"), std::string::npos);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GpuCapture, BarrierWaitsAreStampedInNanosecondsAndInCycles) {
  REQUIRE_GPU();
  // barrier lesson, uneven work (skew 100): early threads wait tens of microseconds.
  auto r = RunLesson("barrier", "uneven", {{"threads", 128}, {"skew", 100}}, "cuda", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  ASSERT_FALSE(t.blocks.empty());
  int long_waits = 0;
  for (const BarrierRecord& b : t.blocks[0].barriers) {
    const double ns = static_cast<double>(b.departure - b.arrival);
    if (ns < 10000) continue;
    ++long_waits;
    // clock64() counts the SM's cycles: between 0.5 and 3 GHz on any GPU we build for.
    const double ghz = b.wait_cycles / ns;
    EXPECT_GT(ghz, 0.5) << "thread " << b.thread;
    EXPECT_LT(ghz, 3.0) << "thread " << b.thread;
  }
  EXPECT_GT(long_waits, 0);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// The scalability lesson on a real GPU: every block stamps %smid, %globaltimer at its start and
// end (issue 7). What must hold on any GPU: SM numbers below the device's count, every block
// counted once, and a grid that fits at once (one block per SM) starting within one wave.
TEST(GpuScheduling, EveryBlockStampsAnSmOfThisGpu) {
  REQUIRE_GPU();
  const DeviceQuery q = QueryDevices();
  const int sms = q.gpus.front().multiprocessors;
  // 2 x SMs blocks of 1024 threads: an SM of 2048 threads (compute 7.0, 8.0, 9.0) holds 2 of
  // them, so all start at once; one of 1024 or 1536 (7.5, 8.6, 8.9) holds 1: two waves there.
  auto r = RunLesson("scalability", "", {{"blocks", 2 * sms}, {"threads", 1024}, {"work", 200}},
                     "cuda", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->check.ok) << r->check.message;
  const nlohmann::json& m = r->metrics();
  EXPECT_EQ(m.at("sms").get<int>(), sms);
  EXPECT_EQ(m.at("time_unit"), "us");
  int counted = 0;
  for (const auto& n : m.at("blocks_per_sm")) counted += n.get<int>();
  EXPECT_EQ(counted, 2 * sms);
  ASSERT_EQ(m.at("timeline").size(), static_cast<std::size_t>(2 * sms));
  // 200 units x 64 cycles = 12,800 cycles: 6-13 us at 1-2 GHz per block. All blocks resident at
  // once: none starts later than one block's length after the first.
  double longest = 0, last_start = 0;
  for (const auto& b : m.at("timeline")) {
    longest = std::max(longest, b.at(3).get<double>() - b.at(2).get<double>());
    last_start = std::max(last_start, b.at(2).get<double>());
  }
  EXPECT_GT(longest, 5.0);
  EXPECT_LT(longest, 200.0);
  if (q.gpus.front().max_threads_per_multiprocessor >= 2048) {
    EXPECT_LT(last_start, longest);
  }
}

// 8 blocks of 1024 threads per SM: four waves where an SM holds two (2048 threads), eight where
// it holds one; either way the makespan is several block lengths, and every SM runs some.
TEST(GpuScheduling, ABiggerGridTakesMoreWaves) {
  REQUIRE_GPU();
  const int sms = QueryDevices().gpus.front().multiprocessors;
  auto r = RunLesson("scalability", "", {{"blocks", 8 * sms}, {"threads", 1024}, {"work", 200}},
                     "cuda", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const nlohmann::json& m = r->metrics();
  double longest = 0;
  for (const auto& b : m.at("timeline"))
    longest = std::max(longest, b.at(3).get<double>() - b.at(2).get<double>());
  // Four waves: at least two block lengths, whatever the jitter of each.
  EXPECT_GT(m.at("makespan").get<double>(), 2.0 * longest);
  for (const auto& n : m.at("blocks_per_sm")) EXPECT_GT(n.get<int>(), 0);
}

// The transfers lesson (GPU only): pinned memory copies faster than pageable at 64 MB, the sweep
// climbs with size, and the pipeline overlaps on streams from pinned memory.
TEST(GpuTransfers, PinnedBeatsPageableAndStreamsOverlap) {
  REQUIRE_GPU();
  auto r = RunLesson("transfers", "pinned", {}, "cuda", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->check.ok) << r->check.message;
  const nlohmann::json& m = r->metrics();
  EXPECT_GT(m.at("h2d_pinned_gbps").get<double>(), m.at("h2d_pageable_gbps").get<double>());
  EXPECT_GT(m.at("h2d_pinned_gbps").get<double>(), 5.0);  // the slides' PCIe Gen2 peak is 5.2
  const nlohmann::json& sweep = m.at("sweep");
  ASSERT_EQ(sweep.size(), 9u);  // 4 KB .. 256 MB in powers of 4
  // A 4 KB copy is dominated by its fixed cost: far below the 256 MB copy's bandwidth.
  EXPECT_LT(sweep.front().at("h2d_pinned").get<double>(),
            0.5 * sweep.back().at("h2d_pinned").get<double>());
  const nlohmann::json& o = m.at("overlap");
  EXPECT_EQ(o.at("ops").size(), 2u * 8 * 3);  // two pipelines x 8 chunks x (in, kernel, back)
  // 4 streams: copies in, kernels and copies back of different chunks run at once.
  EXPECT_GT(o.at("speedup").get<double>(), 1.3);
  auto pageable = RunLesson("transfers", "pageable", {}, "cuda", {});
  ASSERT_TRUE(pageable.ok()) << pageable.status().message();
  EXPECT_LT(pageable->metrics().at("overlap").at("speedup").get<double>(),
            o.at("speedup").get<double>());
}

}  // namespace
}  // namespace ws
