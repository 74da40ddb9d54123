// A program's trace file keeps what a laptop needs to show it as the lab GPU ran it: its
// headers and other units with their text, which file each kernel is in, and how it exited.
#include "warpscope/trace/run_file.h"

#include <gtest/gtest.h>

#include "warpscope/trace/run_report.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

TEST(RunFile, AProgramsTraceKeepsItsFilesKernelFilesAndExit) {
  LessonRun run;
  run.backend = "cuda";
  run.device = "NVIDIA H100 80GB HBM3";
  LaunchTrace t;
  t.kernel = "scale";
  t.grid = {2, 1, 1};
  t.block = {128, 1, 1};
  t.uncovered_blocks = 1;  // a block the GPU's record budget left out
  t.uncovered_requests_counted = true;
  run.launches.push_back(t);
  LessonRun::Program p;
  p.file = "main.cu";
  p.source = "#include \"kern.cuh\"\nint main() { return 3; }\n";
  p.stdout_text = "done\n";
  p.stderr_text = "main.cu(2) : CUDA error : out of memory\n";
  p.stderr_cut_bytes = 7;
  p.exit_code = 3;  // it returned 3 from main(): it exited by itself (stage kDone)
  p.warnings = {{12, 5, false, "not recorded: an access inside a macro", "kern.cuh"},
                {0, 0, false, "the events were the model's"}};
  p.files = {{"kern.cuh", "__global__ void scale(float* a) { a[threadIdx.x] *= 2; }\n"}};
  p.kernels = {"scale"};
  p.kernel_files = {{"scale", "kern.cuh", 1}};
  run.program = p;

  const TraceContents c = TraceOfLessonRun(run, nullptr, 0);
  auto parsed = ParseTrace(SerializeTrace(c));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto back = LessonRunOfTrace(std::move(parsed).value(), "lab.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->program.has_value());
  const LessonRun::Program& q = *back->program;
  EXPECT_EQ(q.file, "main.cu");
  EXPECT_EQ(back->lesson, "");  // a program's record names no lesson
  EXPECT_TRUE(q.exited());
  EXPECT_EQ(q.exit_code, 3);
  EXPECT_EQ(q.stderr_text, p.stderr_text);  // kept since 2026-12-05, with what the limit cut
  EXPECT_EQ(q.stderr_cut_bytes, 7u);
  // The notes as the run wrote them, each one line: "FILE:LINE: message", or the message.
  EXPECT_EQ(q.Notes(),
            (std::vector<std::string>{"kern.cuh:12: not recorded: an access inside a macro",
                                      "the events were the model's"}));
  ASSERT_EQ(q.files.size(), 1u);
  EXPECT_EQ(q.files[0], p.files[0]);
  EXPECT_EQ(q.kernels, p.kernels);
  EXPECT_EQ(q.KernelFile("scale"), "kern.cuh");
  EXPECT_EQ(q.TextOf("kern.cuh"), p.files[0].second);
  ASSERT_EQ(back->launches.size(), 1u);
  EXPECT_EQ(back->launches[0].kernel, "scale");
  EXPECT_EQ(back->launches[0].uncovered_blocks, 1u);
  EXPECT_TRUE(back->launches[0].uncovered_requests_counted);
}

// The kernel timer's lines (START_NS END_NS NAME) in the order CUPTI delivered them: the times
// come back in the order the kernels started, each end - start in ms; a line that is not one
// is named.
TEST(RunFile, KernelTimesReadInTheOrderTheKernelsStarted) {
  const KernelTimesRead r =
      ParseKernelTimes("5000000 5012000 _Z4copyPfPKfi\n1000000 1250000 _Z9transposePfPKfii\n");
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.times.size(), 2u);
  EXPECT_EQ(r.times[0].kernel, "_Z9transposePfPKfii");
  EXPECT_DOUBLE_EQ(r.times[0].ms, 0.25);  // 250,000 ns
  EXPECT_EQ(r.times[1].kernel, "_Z4copyPfPKfi");
  EXPECT_DOUBLE_EQ(r.times[1].ms, 0.012);  // 12,000 ns
  const KernelTimesRead bad = ParseKernelTimes("1 2 k\n9 3 k\n");
  EXPECT_EQ(bad.error, "line 2 of the kernel times is not one: 9 3 k");  // ends before it starts
}

// The kernel counters' lines (kernel_counters.cpp): the metrics named once, then a launch a line,
// a value "-" where the GPU gave none; the metrics the GPU lacks listed; the counting's own error
// kept with the launches before it; a line that is not one named.
TEST(RunFile, KernelCountersReadALaunchALineInTheMetricsOrder) {
  const KernelCountersRead r = ParseKernelCounters(
      "# unavailable l1tex__x.sum\n# metrics a.sum b.sum\nlaunch _Z4copyPfPKfi 1024 4096\n"
      "# not counted: _Z2k2v (launched in a second context)\n# a comment\n"
      "launch _Z1kv - 7\n");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.not_counted, std::vector<std::string>{"_Z2k2v (launched in a second context)"});
  EXPECT_EQ(r.unavailable, std::vector<std::string>{"l1tex__x.sum"});
  ASSERT_EQ(r.counters.size(), 2u);
  EXPECT_EQ(r.counters[0].kernel, "_Z4copyPfPKfi");
  EXPECT_EQ(r.counters[0].Of("a.sum"), 1024);
  EXPECT_EQ(r.counters[0].Of("b.sum"), 4096);
  EXPECT_EQ(r.counters[1].Of("a.sum"), -1);  // none given
  EXPECT_EQ(r.counters[1].Of("b.sum"), 7);
  const KernelCountersRead stopped = ParseKernelCounters(
      "# metrics a.sum\nlaunch _Z1kv 3\nerror: cuptiRangeProfilerStart: CUPTI_ERROR_X\n");
  EXPECT_EQ(stopped.error, "cuptiRangeProfilerStart: CUPTI_ERROR_X");
  EXPECT_EQ(stopped.counters.size(), 1u);
  EXPECT_EQ(ParseKernelCounters("# metrics a.sum b.sum\nlaunch _Z1kv 3\n").error,
            "line 2 of the kernel counters is not one: launch _Z1kv 3");  // a value short
  EXPECT_EQ(ParseKernelCounters("# metrics a.sum\nlaunch _Z1kv x\n").error,
            "line 2 of the kernel counters is not one: launch _Z1kv x");
  // Not a count: NaN, infinity (1e400 too), a negative; a launch before the metrics are named.
  for (const char* v : {"nan", "-nan", "inf", "1e400", "-1"})
    EXPECT_NE(ParseKernelCounters(std::string("# metrics a.sum\nlaunch _Z1kv ") + v + "\n").error,
              "")
        << v;
  EXPECT_EQ(ParseKernelCounters("launch _Z1kv 3\n").error,
            "line 1 of the kernel counters is not one: launch _Z1kv 3");
}

// A GPU program's kernel times travel in its trace file, and give its bandwidth: the bytes its
// threads moved over the kernels' summed time. Two launches of 4,096 threads copying a float
// each (a load and a store: 2 x 4,096 x 4 B = 32,768 B a launch, 65,536 B in all) in 0.004 +
// 0.012 ms: 65,536 B / 0.016 ms = 4.096 GB/s. On the emulator, or with a launch untimed, there
// is no bandwidth, and it says why.
TEST(RunFile, AProgramsKernelTimesTravelAndGiveItsBandwidth) {
  LessonRun run;
  run.backend = "cuda";
  LaunchTrace t;
  t.kernel = "copy";
  t.buffers = {{"in", 4096 * 4, 1u << 20}, {"out", 4096 * 4, (1u << 20) + 4096 * 4}};
  t.sites = {SiteInfo{}, SiteInfo{}};
  t.sites[1].buffer = 1;
  t.sites[1].op = AccessOp::kStore;
  t.stats.Resize(2, 0);
  t.stats.sites[0].bytes = t.stats.sites[1].bytes = 4096 * 4;
  run.launches = {t, t};
  LessonRun::Program& p = run.program.emplace();
  p.file = "copy.cu";
  p.kernel_times = {{"_Z4copyPfPKfi", 0.004}, {"_Z4copyPfPKfi", 0.012}};
  p.kernel_counters = {
      {"_Z4copyPfPKfi", {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 128}}}};
  p.counters_unavailable = {"l1tex__x.sum"};
  p.kernels_not_counted = {{"_Z2k2v", "launched in a second context"}};
  auto parsed = ParseTrace(SerializeTrace(TraceOfLessonRun(run, nullptr, 0)));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto back = LessonRunOfTrace(std::move(parsed).value(), "lab.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->program->kernel_times.size(), 2u);
  EXPECT_EQ(back->program->kernel_times[1].kernel, "_Z4copyPfPKfi");
  EXPECT_DOUBLE_EQ(back->program->kernel_times[1].ms, 0.012);
  ASSERT_EQ(back->program->kernel_counters.size(), 1u);  // the GPU's counters travel too
  EXPECT_EQ(back->program->kernel_counters[0].Of("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
            128);
  EXPECT_EQ(back->program->counters_unavailable, std::vector<std::string>{"l1tex__x.sum"});
  ASSERT_EQ(back->program->kernels_not_counted.size(), 1u);
  EXPECT_EQ(back->program->kernels_not_counted[0].kernel, "_Z2k2v");
  EXPECT_EQ(back->program->kernels_not_counted[0].why, "launched in a second context");
  const MeasuredBandwidth bw = ProgramBandwidth(*back);
  EXPECT_EQ(bw.missing, "");
  EXPECT_EQ(bw.bytes, 65536u);
  EXPECT_DOUBLE_EQ(bw.ms, 0.016);
  EXPECT_NEAR(bw.gbps, 4.096, 1e-9);
  EXPECT_NE(RunText(*back).find("2 kernels, 16.0 µs on the GPU, 4.1 GB/s"), std::string::npos)
      << RunText(*back);
  run.program->kernel_times.pop_back();
  EXPECT_EQ(ProgramBandwidth(run).missing,
            "the run as written launched 1 kernel and the recorded run 2");
  run.backend = "emulator";
  EXPECT_EQ(ProgramBandwidth(run).missing, "it needs a GPU; this run was on the emulator");
}

TEST(RunFile, AProgramThatWasStoppedReadsBackAsStoppedWithItsReason) {
  LessonRun run;
  run.backend = "emu";
  run.device = "CPU emulator";
  run.launches.push_back(LaunchTrace{});
  ProgramRecord& p = run.program.emplace();
  p.file = "loop.cu";
  p.ran = true;
  p.stage = ProgramStage::kRun;
  p.failure = "the program ran longer than the limit of 1.00 s and was stopped";
  run.check = {false, p.failure};
  auto parsed = ParseTrace(SerializeTrace(TraceOfLessonRun(run, nullptr, 0)));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->header["program"]["exited"], false);
  auto back = LessonRunOfTrace(std::move(parsed).value(), "loop.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back->program->exited());
  EXPECT_EQ(back->program->stage, ProgramStage::kRun);
  EXPECT_EQ(back->program->failure, p.failure);
}

TEST(RunFile, AnOlderProgramTraceNamedItsLessonProgram) {
  // Before the one run record, a program's trace said "lesson": "program"; it reads as a program.
  LessonRun run;
  run.backend = "emu";
  run.device = "CPU emulator";
  run.program.emplace().file = "old.cu";
  TraceContents c = TraceOfLessonRun(run, nullptr, 0);
  EXPECT_EQ(c.header["lesson"], "");
  c.header["lesson"] = "program";
  auto back = LessonRunOfTrace(std::move(c), "old.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->lesson, "");
  ASSERT_TRUE(back->program.has_value());
  EXPECT_EQ(back->program->file, "old.cu");
}

TEST(RunFile, AGpuRecordingsLaneLogAndItsBuildTravel) {
  // A lesson launch the lane log recorded with its uncapped build (GPU), its accesses' times
  // placed: the JSON says all three, and a trace from before the two builds (no "lane_wide") reads
  // as the capped one, one from before the placed times (no "access_times") as read.
  Timing t;
  t.kind = "measured";
  t.ms = 0.0067;
  t.record_ms = 0.0192;
  t.records = 626688;
  t.lane_rows = 659456;
  t.lane_wide = true;
  t.lane_pattern_rows = 262144;  // the tiled-2x2 matmul at 64^2: 1,024 lanes' 256 loop rows
  t.hazard_lean = true;
  t.record_warm = true;
  t.access_times_placed = true;
  nlohmann::json j = TimingJson(t);
  EXPECT_EQ(j["capture"]["record_warm"], true);
  EXPECT_EQ(j["capture"]["lane_rows"], 659456u);
  EXPECT_EQ(j["capture"]["lane_wide"], true);
  EXPECT_EQ(j["capture"]["lane_pattern_rows"], 262144u);
  EXPECT_EQ(j["capture"]["hazard_lean"], true);
  EXPECT_EQ(j["capture"]["access_times"], "placed");
  Timing back = TimingFromJson(j);
  EXPECT_EQ(back.lane_rows, 659456u);
  EXPECT_TRUE(back.lane_wide);
  EXPECT_EQ(back.lane_pattern_rows, 262144u);
  EXPECT_TRUE(back.hazard_lean);
  EXPECT_TRUE(back.record_warm);
  EXPECT_TRUE(back.access_times_placed);
  j["capture"].erase("lane_wide");
  j["capture"].erase("hazard_lean");
  j["capture"].erase("access_times");
  j["capture"].erase("record_warm");
  EXPECT_FALSE(TimingFromJson(j).record_warm);  // from before the flag
  EXPECT_FALSE(TimingFromJson(j).lane_wide);
  EXPECT_FALSE(TimingFromJson(j).hazard_lean);  // from before the hazard check's lean build
  EXPECT_FALSE(TimingFromJson(j).access_times_placed);
  t.access_times_placed = false;
  EXPECT_EQ(TimingJson(t)["capture"]["access_times"], "read");
}

TEST(RunFile, TheDirectRoadsCountTravels) {
  // A padded transpose 4096²'s recording pass: 2,096,640 whole-warp requests on the direct road,
  // the count bench/gpu_direct_micro.cu's mode 2 gave on an H200 (its four requests a warp for the
  // 524,160 warps of blocks not kept, the barrier's pass left to the tally). The JSON carries it
  // both ways; a trace from before the road reads 0.
  Timing t;
  t.kind = "measured";
  t.ms = 0.0751;
  t.own_ms = 0.0751;
  t.record_ms = 0.2677;
  t.records = 313344;
  t.direct_requests = 2096640;
  nlohmann::json j = TimingJson(t);
  EXPECT_EQ(j["capture"]["direct_requests"], 2096640u);
  EXPECT_EQ(TimingFromJson(j).direct_requests, 2096640u);
  j["capture"].erase("direct_requests");
  EXPECT_EQ(TimingFromJson(j).direct_requests, 0u);
}

}  // namespace
}  // namespace ws
