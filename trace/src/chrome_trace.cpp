#include "warpscope/trace/chrome_trace.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "warpscope/trace/block_view.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws {
namespace {

using nlohmann::json;

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

// A launch's time in the format's microseconds: a GPU's ns / 1000, logical units 1:1 (kept whole,
// so that a wait's "dur" is exactly departure - arrival).
json Micros(std::uint64_t t, bool ns) {
  if (ns) return static_cast<double>(t) / 1000.0;
  return t;
}

json Metadata(const char* name, std::uint64_t pid, std::uint64_t tid, json args) {
  return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"ts", 0}, {"args", args}};
}

json Complete(const std::string& name, const char* cat, std::uint64_t pid, std::uint64_t tid,
              json ts, json dur, json args) {
  return {{"name", name}, {"cat", cat}, {"ph", "X"},  {"pid", pid},
          {"tid", tid},   {"ts", ts},   {"dur", dur}, {"args", std::move(args)}};
}

// One process per kept block with barrier records; one thread per warp: its work and its waits.
void AddBarrierTimelines(const LaunchTrace& t, json& events) {
  const bool ns = t.time_unit == "ns";
  for (const BlockRecords& records : t.blocks) {
    if (records.barriers.empty()) continue;
    const BlockView bv = BuildBlockView(t, records.block);
    if (!bv.kept || bv.threads == 0) continue;
    const std::uint64_t pid = std::uint64_t{records.block} + 1;
    events.push_back(
        Metadata("process_name", pid, 0,
                 {{"name", "block " + std::to_string(records.block) + " (" + t.kernel + ")"}}));
    events.push_back(Metadata("process_sort_index", pid, 0, {{"sort_index", pid}}));
    const std::uint32_t warps = (bv.threads + 31) / 32;
    // Each warp's first record: where its first working span starts.
    std::vector<std::uint64_t> start(warps, kNone);
    for (const AccessRecord& a : records.accesses) {
      if (a.thread < bv.threads)
        start[a.thread / 32] = std::min<std::uint64_t>(start[a.thread / 32], a.time);
    }
    for (const BarrierRecord& b : records.barriers) {
      if (b.thread < bv.threads) start[b.thread / 32] = std::min(start[b.thread / 32], b.arrival);
    }
    for (std::uint32_t w = 0; w < warps; ++w) {
      if (start[w] == kNone) continue;  // the warp recorded nothing
      const std::uint64_t tid = w + 1;
      const std::uint32_t lo = w * 32, hi = std::min(bv.threads, lo + 32);
      events.push_back(Metadata("thread_name", pid, tid, {{"name", "warp " + std::to_string(w)}}));
      events.push_back(Metadata("thread_sort_index", pid, tid, {{"sort_index", w}}));
      const json who = {{"block", records.block}, {"warp", w}};
      auto work = [&](std::uint64_t from, std::uint64_t to) {
        if (to > from)
          events.push_back(
              Complete("working", "work", pid, tid, Micros(from, ns), Micros(to - from, ns), who));
      };
      std::uint64_t from = start[w];
      for (const BarrierInstance& b : bv.barriers) {
        // The warp's lanes at this meeting: the first to arrive, the last, and when they left.
        std::uint64_t first = kNone, last = 0, leave = 0;
        for (std::uint32_t th = lo; th < hi; ++th) {
          if (b.arrival[th] == kNone) continue;
          first = std::min(first, b.arrival[th]);
          last = std::max(last, b.arrival[th]);
          leave = std::max(leave, b.leave[th]);
        }
        if (first == kNone) continue;
        work(from, first);
        const BarrierSite* site =
            b.site < t.barrier_sites.size() ? &t.barrier_sites[b.site] : nullptr;
        const std::uint32_t line = site != nullptr ? site->line : 0;
        json args = who;
        args["line"] = line;
        args["code"] = site != nullptr ? site->code : "";
        args["iteration"] = b.iteration;
        args["first_arrival"] = first;  // the warp's lanes, in the launch's time unit
        args["last_arrival"] = last;
        args["departure"] = leave;
        args["wait"] = leave - first;
        args["block_skew"] = b.last_arrival - b.first_arrival;  // over the whole block
        events.push_back(Complete("waiting at __syncthreads, line " + std::to_string(line),
                                  "barrier", pid, tid, Micros(first, ns), Micros(leave - first, ns),
                                  std::move(args)));
        from = std::max(from, leave);
      }
      std::uint64_t end = 0;
      for (std::uint32_t th = lo; th < hi; ++th) end = std::max(end, bv.thread_end[th]);
      work(from, end);
    }
  }
}

// The block schedule: a process "SMs", a thread per resident slot of each SM, a box per block.
void AddSmTimeline(const ScheduleFigures& f, std::uint64_t pid, json& events) {
  struct Box {
    const BlockOnSm* block;
    int slot = 0;
  };
  std::vector<Box> boxes;
  double earliest = 0;
  for (const BlockOnSm& b : f.timeline) {
    if (b.sm < 0 || !(b.end >= b.start)) continue;  // a damaged trace's entry
    boxes.push_back({&b});
    earliest = std::min(earliest, b.start);
  }
  // Slots, as the view's sub-lanes: a block takes the first slot of its SM free at its start.
  std::vector<std::size_t> order(boxes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return boxes[a].block->start < boxes[b].block->start;
  });
  std::map<int, std::vector<double>> free_at;
  std::size_t slots = 1;
  for (const std::size_t i : order) {
    std::vector<double>& free = free_at[boxes[i].block->sm];
    std::size_t k = 0;
    while (k < free.size() && free[k] > boxes[i].block->start) ++k;
    if (k == free.size()) free.push_back(0);
    free[k] = boxes[i].block->end;
    boxes[i].slot = static_cast<int>(k);
    slots = std::max(slots, free.size());
  }
  if (boxes.empty()) return;
  events.push_back(Metadata("process_name", pid, 0, {{"name", "SMs (blocks on multiprocessors)"}}));
  events.push_back(Metadata("process_sort_index", pid, 0, {{"sort_index", 0}}));
  auto tid_of = [&](int sm, int slot) {
    return static_cast<std::uint64_t>(sm) * slots + static_cast<std::uint64_t>(slot) + 1;
  };
  for (const auto& [sm, free] : free_at) {
    for (std::size_t k = 0; k < free.size(); ++k) {
      const std::uint64_t tid = tid_of(sm, static_cast<int>(k));
      events.push_back(
          Metadata("thread_name", pid, tid,
                   {{"name", "SM " + std::to_string(sm) + ", slot " + std::to_string(k)}}));
      events.push_back(Metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
    }
  }
  for (const Box& box : boxes) {
    const BlockOnSm& b = *box.block;
    events.push_back(Complete("block " + std::to_string(b.block), "block", pid,
                              tid_of(b.sm, box.slot), b.start - earliest, b.end - b.start,
                              {{"block", b.block},
                               {"sm", b.sm},
                               {"slot", box.slot},
                               {"start", b.start},
                               {"end", b.end},
                               {"time_unit", f.time_unit}}));
  }
}

}  // namespace

json ChromeTraceOf(const LessonRun& run) {
  json events = json::array();
  json other = {{"generator", "warpscope"},
                {"lesson", run.lesson},
                {"variant", run.variant},
                {"backend", run.backend},
                {"device", run.device}};
  if (run.has_launch()) {
    const LaunchTrace& t = run.main_launch();
    other["kernel"] = t.kernel;
    other["time_unit"] = t.time_unit;  // "logical": ts and dur are logical units, not us
    AddBarrierTimelines(t, events);
  }
  if (const ScheduleFigures* f = run.figures_as<ScheduleFigures>()) {
    other["sm_time_unit"] = f->time_unit;  // "units": the model's work units, written as us
    other["blocks_per_sm_limit"] = f->blocks_per_sm_limit;
    const std::uint64_t after_blocks = run.has_launch() ? run.main_launch().grid.count() + 1 : 1;
    AddSmTimeline(*f, after_blocks, events);
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}, {"otherData", other}};
}

std::size_t ChromeTraceCompleteEvents(const nlohmann::json& trace) {
  std::size_t n = 0;
  if (!trace.is_object() || !trace.contains("traceEvents")) return 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.is_object() && e.value("ph", "") == "X") ++n;
  }
  return n;
}

}  // namespace ws
