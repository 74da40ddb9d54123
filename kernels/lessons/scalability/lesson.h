// scalability: transparent scalability, blocks dealt out to multiprocessors (Kirk & Hwu ch. 4).
#pragma once

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/scalability.cuh"  // scalability.cuh, in the recording API
#include "warpscope/trace/block_schedule.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/occupancy.h"

namespace ws::lessons::scalability {

// The clock of each `device` choice's example GPU, for the modeled time: 8800 GTX 1.35 GHz
// (shader clock), 9800 GTX 1.688, GT 240 1.34, GTX 280 1.296, GTX 480 1.401, GTX 680 1.006, K20
// 0.706, V100 1.53, A100 1.41, H100 SXM 1.98 (boost clocks).
inline double ClockGhz(const std::string& device) {
  static const std::map<std::string, double> ghz = {
      {"cc1.0", 1.35},  {"cc1.1", 1.688}, {"cc1.2", 1.34}, {"cc1.3", 1.296}, {"cc2.0", 1.401},
      {"cc3.0", 1.006}, {"cc3.5", 0.706}, {"cc7.0", 1.53}, {"cc8.0", 1.41},  {"cc9.0", 1.98}};
  const auto it = ghz.find(device);
  return it != ghz.end() ? it->second : 1.0;
}

// The index of a `device` choice by its name (the choices are OccupancyDevices(), in order).
inline long long DeviceIndex(const std::string& name) {
  const std::vector<std::string> names = OccupancyDeviceNames();
  return std::find(names.begin(), names.end(), name) - names.begin();
}

// Why no block fits on one SM, naming the limit and what the block needs.
inline std::string NoBlockFits(const OccupancyDevice& d, const OccupancyResult& r, int threads,
                               int registers) {
  const std::string head = "no block of " + std::to_string(threads) + " threads fits on a " +
                           d.name + " multiprocessor: ";
  if (r.limiter == "threads_per_block")
    return head + std::to_string(threads) + " threads per block is over the limit of " +
           std::to_string(d.max_threads_per_block);
  if (r.limiter == "registers")
    return head + std::to_string(threads) + " threads x " + std::to_string(registers) +
           " registers need " + std::to_string(r.registers_per_block) +
           " registers (as allocated), over the limit of " + std::to_string(d.registers_per_sm) +
           " per SM";
  return head + "its " + std::to_string(r.warps_per_block) + " warps are over the limit of " +
         std::to_string(d.max_warps_per_sm) + " warps per SM";
}

// SM counts to replay the run's blocks on: 1..16, then doubling, and `sms` itself.
inline std::vector<int> ReplaySmCounts(int sms) {
  std::vector<int> v;
  for (int n = 1; n <= 16; ++n) v.push_back(n);
  for (int n = 32; n <= std::max(2 * sms, 32) && n <= 1024; n *= 2) v.push_back(n);
  v.push_back(sms);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "scalability";
    l.title = "Transparent scalability: blocks dealt out to multiprocessors";
    l.order = 160;
    l.variants = {
        {"deal", "blocks dealt to SMs as slots free up; each stamps its SM, start and end"}};
    const std::vector<std::string> devices = OccupancyDeviceNames();
    l.params = {
        {"blocks", 12, 1, 4096, 1, "blocks in the grid (gridDim.x)"},
        {"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"},
        {"sms", 2, 1, 132, 1, "multiprocessors of the emulated device"},
        {"work", 100, 1, 5000, 1, "work units per block (a GPU spins 64 cycles a unit)"},
        {"skew", 0, 0, 1000, 1, "uneven work: block b does skew x (2b mod 5) units more"},
        {"device", 0, 0, static_cast<long long>(devices.size()) - 1, 1,
         "the emulated GPU generation, whose occupancy rules set the blocks per SM", devices},
        {"registers", 10, 0, 255, 1, "registers per thread (0: not counted)"}};
    l.explanation =
        "Blocks of a grid cannot wait for each other, so the hardware may run them in any order "
        "and deals them out to however many streaming multiprocessors it has, each holding as "
        "many blocks at once as its resources allow (the slides' G80: up to 8 blocks and 768 "
        "threads per SM, so 3 blocks of 256 threads). The default 12 blocks take two waves on 2 "
        "SMs and one on 4: twice the SMs, half the time, with no change to the kernel "
        "(transparent scalability). With 512 threads one block fits per SM, and with blocks = 8 "
        "that is the textbook's figure of 8 blocks run two or four at a time. A block starts as "
        "soon as a slot frees, so with skew the later blocks go to whichever SM finished first. "
        "The emulator deals the blocks with a model (a block takes its work whatever runs beside "
        "it; time in work units); on a GPU every block stamps %smid and %globaltimer, and the "
        "view shows how the real GPU dealt them (sms, device and registers are then its own).";
    l.source_file = "scalability.cuh";
    l.front_panel = "sms";
    l.figures_from_timed_build = true;  // the GPU's own schedule, not the recording's
    l.read_figures = &ReadFigures<ScheduleFigures>;
    // The block-scheduler model runs blocks one after another on one worker: the default grid
    // and the largest (4M threads) bound what a slider drag costs (cc9.0: 2048 threads per SM).
    l.bench_cases = {{"default-12x256", "", {{"device", DeviceIndex("cc9.0")}}},
                     {"largest-4096x1024",
                      "",
                      {{"blocks", 4096}, {"threads", 1024}, {"device", DeviceIndex("cc9.0")}}}};
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks"); };
    l.figures = {{"makespan", "Makespan", "@time_unit"},
                 {"waves", "Waves", ""},
                 {"most_resident", "Most blocks on one SM at once", "blocks"},
                 {"blocks_per_sm_limit", "Blocks per SM allowed", "blocks"},
                 {"limiter", "Limited by", ""},
                 {"sms", "Multiprocessors", "SMs"},
                 {"busy", "SMs busy", "%", 100},
                 {"emulated_device", "Emulated device", ""}};
    // A GPU's trace carries the GPU's grid (1024-thread blocks, which no cc1.0 SM holds):
    // replayed on the emulator it takes that GPU's generation and SM count, so a slider moved
    // after opening it starts from what the GPU ran.
    l.replay_params = [](const Params& captured, const nlohmann::json& gpu) {
      Params p = captured;
      if (!gpu.is_object()) return p;
      const std::vector<std::string> names = OccupancyDeviceNames();
      const std::string cc = "cc" + gpu.value("compute_capability", std::string());
      const auto it = std::find(names.begin(), names.end(), cc);
      p["device"] =
          static_cast<long long>(it != names.end() ? it - names.begin() : std::ssize(names) - 1);
      p["sms"] = std::clamp<long long>(gpu.value("multiprocessors", 2LL), 1, 132);
      return p;
    };
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const Params& p = c.params;
    OutputCheck* check = &c.check;
    ScheduleFigures f;
    const bool gpu = std::string(B::kName) == "cuda";
    const auto blocks = static_cast<std::uint32_t>(p.at("blocks"));
    const auto threads = static_cast<std::uint32_t>(p.at("threads"));
    const int work = static_cast<int>(p.at("work")), skew = static_cast<int>(p.at("skew"));

    int sms = static_cast<int>(p.at("sms")), per_sm = 0;
    if (Status s = PlaceOnDevice(b, p, threads, gpu, &sms, &per_sm, &f); !s.ok()) return s;
    auto sm = b.template Alloc<unsigned int>("sm", blocks);
    auto start = b.template Alloc<unsigned long long>("start", blocks);
    auto end = b.template Alloc<unsigned long long>("end", blocks);
    const Dim3 grid{blocks, 1, 1}, block{threads, 1, 1};
    if (Status s = WS_LAUNCH(b, blockWork, grid, block, 0, sm, start, end, work, skew); !s.ok())
      return s;
    const std::vector<unsigned int> sm_h = b.Download(sm);
    const std::vector<unsigned long long> start_h = b.Download(start), end_h = b.Download(end);
    if (sm_h.size() != blocks || start_h.size() != blocks || end_h.size() != blocks)
      return Status::Error("scalability: the block stamps could not be read back");

    // Times relative to the first block's start: work units on the emulator, microseconds on a GPU.
    const unsigned long long t0 = *std::min_element(start_h.begin(), start_h.end());
    const double scale = gpu ? 1e-3 : 1.0;
    std::vector<BlockPlacement> placed(blocks);
    for (std::uint32_t i = 0; i < blocks; ++i) {
      placed[i].block = i;
      placed[i].sm = static_cast<int>(sm_h[i]);
      placed[i].start = static_cast<double>(start_h[i] - t0) * scale;
      placed[i].end = static_cast<double>(end_h[i] >= start_h[i] ? end_h[i] - t0 : 0) * scale;
    }
    // PTX does not promise %smid below the SM count (numbers may have gaps): count up to the
    // highest seen.
    for (const BlockPlacement& q : placed) sms = std::max(sms, q.sm + 1);
    // On the emulator a block holds its slot one unit past its end stamp (thread 0's last store):
    // the summaries and replays use the slots as held, the makespan runs to the last end stamp.
    const double held_past_stamp = gpu ? 0.0 : 1.0;
    std::vector<double> held(blocks);
    std::vector<BlockPlacement> held_slots = placed;
    for (std::uint32_t i = 0; i < blocks; ++i) {
      held_slots[i].end += held_past_stamp;
      held[i] = held_slots[i].end - held_slots[i].start;
    }
    auto summarize = [&](const std::vector<BlockPlacement>& slots, int n) {
      ScheduleSummary r = SummarizeSchedule(slots, n);
      r.makespan -= held_past_stamp;
      return r;
    };
    const ScheduleSummary summary = summarize(held_slots, sms);
    if (gpu) per_sm = std::max(summary.most_resident, 1);  // what the hardware was seen to hold

    CheckStamps(check, gpu, work, skew, sms, per_sm, placed, start_h, end_h);

    f.time_unit = gpu ? "us" : "units";
    f.sms = sms;
    f.blocks_per_sm_limit = per_sm;
    f.makespan = summary.makespan;
    f.blocks_per_sm = summary.blocks_per_sm;
    f.most_resident = summary.most_resident;
    f.busy = summary.busy;
    f.waves = (blocks + static_cast<std::uint32_t>(sms * per_sm) - 1) /
              static_cast<std::uint32_t>(sms * per_sm);
    for (const BlockPlacement& q : placed) f.timeline.push_back({q.block, q.sm, q.start, q.end});
    // Transparent scalability: the same blocks (their durations as run) dealt to other SM counts.
    for (int n : ReplaySmCounts(sms))
      f.vary_sms.push_back({n, summarize(ScheduleBlocks(held, n, per_sm), n).makespan});
    if (!gpu) {
      // Modeled: the makespan, a work unit being 64 cycles (as ws::work spins on a GPU) at the
      // emulated GPU's clock.
      char note[200];
      std::snprintf(note, sizeof note,
                    "the makespan, %.0f work units of 64 cycles at %.3g GHz (%s); a model",
                    f.makespan, *f.clock_ghz, f.emulated_device->c_str());
      c.timing = Timing{"modeled", f.makespan * 64.0 / (*f.clock_ghz * 1e6), note};
    }
    c.SetFigures(std::move(f));
    return {};
  }

  // The emulated device: its occupancy rules say how many blocks one SM holds. A GPU: its own
  // SM count.
  template <LessonBackend B>
  static Status PlaceOnDevice(B& b, const Params& p, std::uint32_t threads, bool gpu, int* sms,
                              int* per_sm, ScheduleFigures* f) {
    if (!gpu) {
      const auto index = static_cast<std::size_t>(std::clamp<long long>(
          p.at("device"), 0, static_cast<long long>(OccupancyDevices().size()) - 1));
      const OccupancyDevice* device = &OccupancyDevices()[index];
      const std::string& name = device->name;
      const int registers = static_cast<int>(p.at("registers"));
      auto occ = ComputeOccupancy(*device, {static_cast<int>(threads), registers, 0});
      if (!occ.ok()) return occ.status();
      if (occ->active_blocks == 0)
        return Status::Error(NoBlockFits(*device, *occ, static_cast<int>(threads), registers));
      *per_sm = occ->active_blocks;
      f->emulated_device = name + " " + device->description;
      f->limiter = occ->limiter;
      f->clock_ghz = ClockGhz(name);
      b.ModelMultiprocessors(*sms, *per_sm);
    } else {
      *sms = static_cast<int>(b.preset().multiprocessors);
    }
    return {};
  }

  // The output check. Emulator: its stamps are the model's schedule of the same blocks, each
  // lasting its work, one unit for the barrier and one per store of thread 0 (the end stamp is
  // read before the last store). GPU: every block stamped, ending after it started.
  static void CheckStamps(OutputCheck* check, bool gpu, int work, int skew, int sms, int per_sm,
                          const std::vector<BlockPlacement>& placed,
                          const std::vector<unsigned long long>& start_h,
                          const std::vector<unsigned long long>& end_h) {
    const auto blocks = static_cast<std::uint32_t>(placed.size());
    std::string problem;
    for (std::uint32_t i = 0; i < blocks && problem.empty(); ++i) {
      if (end_h[i] < start_h[i] || end_h[i] == 0)
        problem = "block " + std::to_string(i) + " has no end stamp after its start";
    }
    if (!gpu && problem.empty()) {
      std::vector<double> model(blocks);
      for (std::uint32_t i = 0; i < blocks; ++i)
        model[i] = work + skew * static_cast<double>(i * 2 % 5) + 4;
      const std::vector<BlockPlacement> want = ScheduleBlocks(model, sms, per_sm);
      for (std::uint32_t i = 0; i < blocks && problem.empty(); ++i) {
        if (want[i].sm != placed[i].sm || want[i].start != placed[i].start ||
            want[i].end - 1 != placed[i].end) {
          problem = "block " + std::to_string(i) + " ran on SM " + std::to_string(placed[i].sm) +
                    " from " + std::to_string(placed[i].start) + "; the model says SM " +
                    std::to_string(want[i].sm) + " from " + std::to_string(want[i].start);
        }
      }
    }
    check->ok = problem.empty();
    check->message = problem.empty() ? (gpu ? "every block stamped its SM, start and end"
                                            : "the blocks ran where and when the model deals them")
                                     : problem;
  }
};

}  // namespace ws::lessons::scalability
