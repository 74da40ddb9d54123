// Chrome Trace Event Format export: the documented fields of every event (name, ph, ts, pid, tid;
// dur on complete events), the barrier waits against the records, and the blocks-on-SMs
// timeline against the scheduler's rules.
#include "warpscope/trace/chrome_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws {
namespace {

using nlohmann::json;

LessonRun Lesson(const std::string& id, const std::string& variant, const Params& p) {
  auto r = RunLesson(id, variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

// The fields the format documents: every event has name (string), ph, ts (a number >= 0), pid and
// tid (whole numbers); complete events ("X") a dur >= 0; metadata events ("M") args.name or
// args.sort_index. The object form: traceEvents, displayTimeUnit.
void ExpectWellFormed(const json& j) {
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j.contains("traceEvents") && j["traceEvents"].is_array());
  EXPECT_EQ(j["displayTimeUnit"], "ns");
  for (const json& e : j["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e["name"].is_string()) << e.dump();
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e.dump();
    const std::string ph = e["ph"];
    EXPECT_TRUE(ph == "X" || ph == "M") << e.dump();
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e.dump();
    EXPECT_GE(e["ts"].get<double>(), 0.0) << e.dump();
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer()) << e.dump();
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer()) << e.dump();
    EXPECT_GE(e["pid"].get<long long>(), 1) << "pid 0 is the kernel's in Perfetto";
    if (ph == "X") {
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number()) << e.dump();
      EXPECT_GE(e["dur"].get<double>(), 0.0) << e.dump();
      EXPECT_TRUE(e.contains("cat") && e["cat"].is_string()) << e.dump();
      EXPECT_GE(e["tid"].get<long long>(), 1) << e.dump();
    } else {
      const std::string name = e["name"];
      if (name == "process_name" || name == "thread_name")
        EXPECT_TRUE(e["args"]["name"].is_string()) << e.dump();
      else
        EXPECT_TRUE(e["args"]["sort_index"].is_number()) << e.dump();
    }
  }
}

std::vector<json> Events(const json& j, const std::string& ph, const std::string& cat = "") {
  std::vector<json> out;
  for (const json& e : j["traceEvents"]) {
    if (e["ph"] == ph && (cat.empty() || e.value("cat", "") == cat)) out.push_back(e);
  }
  return out;
}

// The name a metadata event gives (pid, tid); tid 0: the process's.
std::string NameOf(const json& j, long long pid, long long tid) {
  for (const json& e : j["traceEvents"]) {
    if (e["ph"] != "M" || e["pid"] != pid) continue;
    if (tid == 0 && e["name"] == "process_name") return e["args"]["name"];
    if (tid != 0 && e["name"] == "thread_name" && e["tid"] == tid) return e["args"]["name"];
  }
  return "";
}

TEST(ChromeTrace, BarrierWaitsAreTheRecordsDepartureMinusArrival) {
  // threads = 64, skew = 10: thread t loads, works 10 t units and arrives at 1 + 10 t (the
  // catalogue's barrier test); thread 63 arrives last at 1 + 630 = 631 and everyone leaves then.
  // Warp 0's first lane (thread 0) arrives at 1: it waits 631 - 1 = 630. Warp 1's first lane
  // (thread 32) arrives at 1 + 320 = 321: 631 - 321 = 310.
  const LessonRun run = Lesson("barrier", "uneven", {{"threads", 64}, {"skew", 10}});
  const json j = ChromeTraceOf(run);
  ExpectWellFormed(j);
  EXPECT_EQ(j["otherData"]["time_unit"], "logical");
  EXPECT_EQ(NameOf(j, 1, 0), "block 0 (unevenWork)");
  EXPECT_EQ(NameOf(j, 1, 1), "warp 0");
  EXPECT_EQ(NameOf(j, 1, 2), "warp 1");
  const auto waits = Events(j, "X", "barrier");
  ASSERT_EQ(waits.size(), 2u);  // one barrier meeting, two warps
  const std::uint32_t line = run.main_launch().barrier_sites.at(0).line;
  EXPECT_EQ(line, 13u);  // barrier.cuh: the __syncthreads() of unevenWork
  std::map<long long, json> by_tid;
  for (const json& e : waits) {
    EXPECT_EQ(e["name"], "waiting at __syncthreads, line 13");
    by_tid[e["tid"]] = e;
  }
  EXPECT_EQ(by_tid[1]["ts"], 1);
  EXPECT_EQ(by_tid[1]["dur"], 630);
  EXPECT_EQ(by_tid[2]["ts"], 321);
  EXPECT_EQ(by_tid[2]["dur"], 310);
  // The same from the records themselves: per warp, its earliest arrival and its departure.
  const BlockRecords& block = run.main_launch().blocks.at(0);
  for (std::uint32_t w = 0; w < 2; ++w) {
    std::uint64_t arrival = ~0ull, departure = 0;
    for (const BarrierRecord& b : block.barriers) {
      if (b.thread / 32 != w) continue;
      arrival = std::min(arrival, b.arrival);
      departure = std::max(departure, b.departure);
    }
    const json& e = by_tid[w + 1];
    EXPECT_EQ(e["ts"].get<std::uint64_t>(), arrival) << w;
    EXPECT_EQ(e["dur"].get<std::uint64_t>(), departure - arrival) << w;
    EXPECT_EQ(e["args"]["wait"].get<std::uint64_t>(), departure - arrival) << w;
  }
  // A warp's spans follow one another: working, waiting, working, never overlapping.
  for (long long tid : {1, 2}) {
    std::vector<std::pair<double, double>> spans;
    for (const json& e : Events(j, "X")) {
      if (e["tid"] == tid)
        spans.push_back({e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first);
  }
  // No block schedule in this lesson: no SMs process.
  EXPECT_FALSE(j["otherData"].contains("sm_time_unit"));
}

TEST(ChromeTrace, GpuNanosecondsBecomeMicroseconds) {
  // The same records read as a GPU's nanoseconds: warp 0 waits from 1 ns to 631 ns, so ts =
  // 1 / 1000 = 0.001 us and dur = 630 / 1000 = 0.63 us.
  LessonRun run = Lesson("barrier", "uneven", {{"threads", 64}, {"skew", 10}});
  run.launches.back().time_unit = "ns";
  const json j = ChromeTraceOf(run);
  ExpectWellFormed(j);
  EXPECT_EQ(j["otherData"]["time_unit"], "ns");
  for (const json& e : Events(j, "X", "barrier")) {
    if (e["tid"] != 1) continue;
    EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.001);
    EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 0.63);
    EXPECT_EQ(e["args"]["wait"], 630) << "args keep the launch's own unit";
  }
}

TEST(ChromeTrace, ScalabilityBlocksOnSmsKeepTheResidentLimit) {
  // Defaults: 12 blocks of 256 threads on 2 SMs of compute 1.0. An SM holds 768 threads (3
  // blocks of 8 warps = 24 warps) and 8192 registers (256 x 10 = 2560 a block: 3), so 3 blocks at
  // once: the first wave deals blocks 0-5 round-robin (even blocks to SM 0, odd to SM 1), the
  // second wave 6-11 the same way. Each SM runs 6 blocks, 3 at a time, on 3 slots.
  const LessonRun run = Lesson("scalability", "", {});
  const ScheduleFigures* f = run.figures_as<ScheduleFigures>();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->blocks_per_sm_limit, 3);
  const json j = ChromeTraceOf(run);
  ExpectWellFormed(j);
  EXPECT_EQ(j["otherData"]["sm_time_unit"], "units");
  const auto blocks = Events(j, "X", "block");
  ASSERT_EQ(blocks.size(), 12u);
  // The SMs process comes after every block's: the grid's 12 blocks have pids 1..12.
  const long long sms_pid = 13;
  EXPECT_EQ(NameOf(j, sms_pid, 0), "SMs (blocks on multiprocessors)");
  std::set<long long> seen;
  std::map<int, std::vector<std::pair<double, double>>> per_sm;
  std::map<long long, std::vector<std::pair<double, double>>> per_tid;
  double first = 1e300, last = 0;
  for (const json& e : blocks) {
    EXPECT_EQ(e["pid"], sms_pid);
    const long long b = e["args"]["block"];
    seen.insert(b);
    EXPECT_EQ(e["name"], "block " + std::to_string(b));
    const int sm = e["args"]["sm"];
    EXPECT_EQ(sm, b % 2) << "first and second wave dealt round-robin";
    const double ts = e["ts"], end = ts + e["dur"].get<double>();
    per_sm[sm].push_back({ts, end});
    per_tid[e["tid"]].push_back({ts, end});
    first = std::min(first, ts);
    last = std::max(last, end);
    EXPECT_EQ(NameOf(j, sms_pid, e["tid"]),
              "SM " + std::to_string(sm) + ", slot " + e["args"]["slot"].dump());
  }
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_DOUBLE_EQ(last - first, f->makespan);
  // On each SM, never more than its 3 blocks at once (a sweep over starts and ends).
  ASSERT_EQ(per_sm.size(), 2u);
  for (auto& [sm, spans] : per_sm) {
    EXPECT_EQ(spans.size(), 6u) << "SM " << sm;
    std::vector<std::pair<double, int>> edges;
    for (const auto& [a, z] : spans) {
      edges.push_back({a, +1});
      edges.push_back({z, -1});
    }
    std::sort(edges.begin(), edges.end());  // at one instant, ends (-1) before starts
    int resident = 0, most = 0;
    for (const auto& [t, d] : edges) most = std::max(most, resident += d);
    EXPECT_EQ(most, 3) << "SM " << sm;
  }
  // One thread per slot: 2 SMs x 3 slots, and a slot's blocks one after another.
  EXPECT_EQ(per_tid.size(), 6u);
  for (auto& [tid, spans] : per_tid) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      EXPECT_LE(spans[i - 1].second, spans[i].first) << "tid " << tid;
  }
  // The kernel's own __syncthreads() gives the kept blocks 0-3 their barrier timelines too.
  EXPECT_EQ(NameOf(j, 1, 0), "block 0 (blockWork)");
  EXPECT_EQ(Events(j, "X", "barrier").size(), 4u * 8u);  // 4 kept blocks x 8 warps, one barrier
}

TEST(ChromeTrace, NothingToDrawIsAnEmptyEventList) {
  // vecadd has no __syncthreads() and no block schedule.
  const LessonRun run = Lesson("vecadd", "", {});
  const json j = ChromeTraceOf(run);
  ExpectWellFormed(j);
  EXPECT_EQ(ChromeTraceCompleteEvents(j), 0u);
  // The barrier lesson's defaults (32 threads, skew 10): one warp. It loads at 0, its first lane
  // arrives at 1 and the last at 1 + 310, all leave at 311 and store: working 0-1, waiting
  // 1-311, working 311-312.
  const json one_warp = ChromeTraceOf(Lesson("barrier", "uneven", {}));
  ASSERT_EQ(ChromeTraceCompleteEvents(one_warp), 3u);
  const std::vector<std::pair<int, int>> spans = {{0, 1}, {1, 310}, {311, 1}};  // (ts, dur)
  std::vector<std::pair<int, int>> got;
  for (const json& e : Events(one_warp, "X")) got.push_back({e["ts"], e["dur"]});
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, spans);
  EXPECT_EQ(ChromeTraceOf(run).dump(), j.dump()) << "deterministic";
}

}  // namespace
}  // namespace ws
