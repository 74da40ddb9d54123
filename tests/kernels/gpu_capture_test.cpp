// Capture on the GPU: faults, the record budget, the uninstrumented timing and a 1M-thread
// launch (ctest label "gpu"; each test skips and says why where there is no GPU).
#include <gtest/gtest.h>

#include "core/child_run.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

#define REQUIRE_GPU()                                               \
  do {                                                              \
    const DeviceQuery q = QueryDevices();                           \
    if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu; \
  } while (0)

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

TEST(GpuCapture, ASmallRecordBudgetTruncatesButKeepsTheKeptBlocksAndTheOutput) {
  REQUIRE_GPU();
  RunOptions o;
  // stride-copy, 64 blocks of 256 threads: 8 warps a block, each writing 2 events of 6 words and
  // given 12 + 12/4 + 12 = 27 words (108 bytes). 4096 bytes hold the 4 kept blocks' 32 warps
  // (3456 bytes) and 5 more warps, so 512 - 37 warps record nothing.
  o.record_budget_bytes = 4096;
  auto r = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(r->check.ok) << r->check.message;  // recording never touches the kernel's data
  ASSERT_EQ(t.blocks.size(), 4u);
  for (const BlockRecords& b : t.blocks) EXPECT_EQ(b.accesses.size(), 2u * 256);
  EXPECT_EQ(t.stats.sites[0].requests, 37u);
  auto full = RunLesson("stride-copy", "", {{"stride", 1}}, "cuda", RunOptions{});
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(full->main_launch().truncated);
  EXPECT_EQ(full->main_launch().stats.sites[0].requests, 512u);
}

TEST(GpuCapture, TheTimeComesFromTheUninstrumentedBuild) {
  REQUIRE_GPU();
  auto r = RunLesson("stride-copy", "", {{"stride", 1}, {"blocks", 4096}}, "cuda", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->timing.kind, "measured");
  EXPECT_NE(r->timing.note.find("uninstrumented"), std::string::npos);
  EXPECT_GT(r->timing.ms, 0.0);
  EXPECT_GT(r->timing.record_ms, 0.0);
  // 1M threads = 32768 warps, each writing two affine events (the load and the store) of 24
  // bytes: 1,572,864 bytes, for 2^21 access records.
  EXPECT_EQ(r->timing.record_bytes, 32768u * 2 * 24);
  EXPECT_EQ(r->timing.records, 2u << 20);
  EXPECT_EQ(r->main_launch().stats.access_records, 2u << 20);
  EXPECT_EQ(r->main_launch().blocks.size(), 4u);  // full records of the kept blocks only
}

TEST(GpuCapture, TheOccupancyCalculatorsGpuIsThePickedOne) {
  REQUIRE_GPU();
  const DeviceQuery q = QueryDevices();
  RunOptions o;
  o.gpu = q.gpus.back().index;
  auto r = RunLesson("occupancy", "", {{"device", 7}}, "emu", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->device.find(q.gpus.back().name), std::string::npos) << r->device;
  o.gpu = static_cast<int>(q.gpus.size());
  auto missing = RunLesson("occupancy", "", {{"device", 7}}, "emu", o);
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
