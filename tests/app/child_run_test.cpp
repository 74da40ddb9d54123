// Runs in a child process (what the app does for GPU runs), here on the emulator so that CI
// checks them without a GPU: the same figures come back, the child's error is the message, and
// a run that takes too long is stopped.
#include "core/child_run.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

ChildRunRequest Request(const std::string& lesson, const Params& params) {
  ChildRunRequest rq;
  rq.cli = WARPSCOPE_CLI;
  rq.lesson = lesson;
  rq.backend = "emu";
  rq.params = params;
  return rq;
}

TEST(ChildRun, AChildsRunHasTheSameFiguresAsOneMadeHere) {
  ChildRunRequest rq = Request("offset-copy", {{"offset", 1}});
  rq.options.keep_blocks = {0, 9};
  auto child = RunLessonInChild(rq);
  ASSERT_TRUE(child.ok()) << child.status().message();
  auto here = RunLesson("offset-copy", "", {{"offset", 1}}, "emu", {});
  ASSERT_TRUE(here.ok());
  EXPECT_FALSE(child->capture.has_value());  // shown as a live run, not as an opened file
  EXPECT_EQ(child->lesson, "offset-copy");
  EXPECT_EQ(child->params.at("offset"), 1);
  EXPECT_TRUE(child->check.ok);
  const LaunchTrace& a = child->main_launch();
  const LaunchTrace& b = here->main_launch();
  ASSERT_EQ(a.sites.size(), b.sites.size());
  // 64 blocks x 8 warps, 5 sectors per request at offset 1.
  EXPECT_EQ(a.stats.sites[0].sectors, 512u * 5);
  EXPECT_EQ(a.stats.sites[0].sectors, b.stats.sites[0].sectors);
  ASSERT_EQ(a.blocks.size(), 2u);  // the kept blocks asked for
  EXPECT_EQ(a.blocks[1].block, 9u);
}

TEST(ChildRun, NamedChoicesReachTheChildByName) {
  // fp-order's `data` and `block` have named choices; the child's command line takes names
  // (data=cancel, block=64), not indexes. cancel is the slides' 1e30, -1e30, 1, 0, ...: the
  // 64-thread tree adds 1e30 + 1 at stride 2 (1e30 again), then -1e30: 0, where the CPU's
  // sequential sum is 1.
  auto child = RunLessonInChild(Request("fp-order", {{"data", 2}, {"block", 1}}));
  ASSERT_TRUE(child.ok()) << child.status().message();
  EXPECT_EQ(child->params.at("data"), 2);
  EXPECT_EQ(child->params.at("block"), 1);
  EXPECT_EQ(child->main_launch().block.x, 64u);
  EXPECT_EQ(child->metrics().at("gpu_sum").get<double>(), 0.0);
  EXPECT_EQ(child->metrics().at("cpu_sum").get<double>(), 1.0);
}

TEST(ChildRun, TheChildsErrorIsTheMessage) {
  auto r = RunLessonInChild(Request("fault", {}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("index 1073741824 is outside the global array"),
            std::string::npos)
      << r.status().message();
  auto bad = RunLessonInChild(Request("offset-copy", {{"offset", 99}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "offset-copy: offset = 99 is outside its range 0..32");
}

TEST(ChildRun, ARunThatTakesTooLongIsStopped) {
  // 8192 x 8192 transpose on the emulator: 64M threads, far longer than 300 ms.
  ChildRunRequest rq = Request("transpose", {{"width", 8192}, {"height", 8192}});
  rq.timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  auto r = RunLessonInChild(rq);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("longer than 0.30 s and was stopped"), std::string::npos)
      << r.status().message();
  EXPECT_LT(s, 5.0);
}

TEST(ChildRun, AMissingProgramIsAMessage) {
  ChildRunRequest rq = Request("offset-copy", {});
  rq.cli = "/nonexistent/warpscope-cli";
  auto r = RunLessonInChild(rq);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("could not start /nonexistent/warpscope-cli"),
            std::string::npos)
      << r.status().message();
}

// The warm worker (RunLessonInWorker): one `warpscope-cli serve` process for many runs, here on
// the emulator. Figures as in the process (offset 1: 512 requests of 5 sectors); the same worker
// answers the next run; the worker's error is the message and it stays; a worker killed between
// runs, or stopped for taking too long, is replaced by a fresh one for the next run.
TEST(WorkerRun, OneWorkerServesManyRunsWithTheFiguresOfOneMadeHere) {
  ChildRunRequest rq = Request("offset-copy", {{"offset", 1}});
  rq.options.keep_blocks = {0, 9};
  auto a = RunLessonInWorker(rq);
  ASSERT_TRUE(a.ok()) << a.status().message();
  const int pid = WorkerProcessId();
  EXPECT_GT(pid, 0);
  EXPECT_FALSE(a->capture.has_value());
  EXPECT_EQ(a->main_launch().stats.sites[0].sectors, 512u * 5);
  ASSERT_EQ(a->main_launch().blocks.size(), 2u);
  EXPECT_EQ(a->main_launch().blocks[1].block, 9u);
  // fp-order's named choices go as numbers; cancel data on a 64-thread tree sums to 0 (see
  // NamedChoicesReachTheChildByName).
  auto b = RunLessonInWorker(Request("fp-order", {{"data", 2}, {"block", 1}}));
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->metrics().at("gpu_sum").get<double>(), 0.0);
  EXPECT_EQ(WorkerProcessId(), pid);  // the same process
  auto bad = RunLessonInWorker(Request("offset-copy", {{"offset", 99}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "offset-copy: offset = 99 is outside its range 0..32");
  EXPECT_EQ(WorkerProcessId(), pid);  // an emulator run's error leaves the worker
}

TEST(WorkerRun, AKilledOrStoppedWorkerIsReplacedForTheNextRun) {
  auto first = RunLessonInWorker(Request("stride-copy", {{"stride", 1}}));
  ASSERT_TRUE(first.ok()) << first.status().message();
  const int pid = WorkerProcessId();
  ASSERT_GT(pid, 0);
  kill(pid, SIGKILL);  // as a crash would
  auto after_kill = RunLessonInWorker(Request("stride-copy", {{"stride", 2}}));
  ASSERT_TRUE(after_kill.ok()) << after_kill.status().message();
  // stride 2: a warp's 32 floats span 256 bytes, 8 sectors per request.
  EXPECT_EQ(after_kill->main_launch().stats.sites[0].SectorsPerRequest(), 8.0);
  const int second = WorkerProcessId();
  EXPECT_NE(second, pid);
  ChildRunRequest slow = Request("transpose", {{"width", 8192}, {"height", 8192}});
  slow.timeout = std::chrono::milliseconds(300);
  auto stopped = RunLessonInWorker(slow);
  ASSERT_FALSE(stopped.ok());
  EXPECT_NE(stopped.status().message().find("longer than 0.30 s and was stopped"),
            std::string::npos)
      << stopped.status().message();
  EXPECT_EQ(WorkerProcessId(), 0);
  auto next = RunLessonInWorker(Request("stride-copy", {{"stride", 1}}));
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(next->main_launch().stats.sites[0].SectorsPerRequest(), 4.0);
}

}  // namespace
}  // namespace ws
