// Driver of the scalability lesson (see drivers.h): blocks dealt out to multiprocessors, from
// the emulator's block-scheduler model or from a real GPU's %smid and %globaltimer stamps.
#pragma once

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scalability.cuh"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/block_schedule.h"
#include "warpscope/trace/occupancy.h"

namespace ws::lessons {

// The clock of each `device` choice's example GPU (the choices are OccupancyDevices(), in
// order), for the modeled time: 8800 GTX 1.35 GHz (shader clock), GTX 280 1.296, GTX 480 1.401,
// K20 0.706, V100 1.53, A100 1.41, H100 SXM 1.98 (boost clocks).
inline double ScalabilityClockGhz(std::size_t device) {
  static const double ghz[] = {1.35, 1.296, 1.401, 0.706, 1.53, 1.41, 1.98};
  return ghz[std::min<std::size_t>(device, std::size(ghz) - 1)];
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

template <typename B>
Status RunScalability(B& b, const Params& p, OutputCheck* check, nlohmann::json* metrics) {
  const bool gpu = std::string(B::kName) == "cuda";
  const auto blocks = static_cast<std::uint32_t>(p.at("blocks"));
  const auto threads = static_cast<std::uint32_t>(p.at("threads"));
  const int work = static_cast<int>(p.at("work")), skew = static_cast<int>(p.at("skew"));
  nlohmann::json& m = *metrics;
  // The emulated device: its occupancy rules say how many blocks one SM holds.
  int sms = static_cast<int>(p.at("sms")), per_sm = 0;
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
    per_sm = occ->active_blocks;
    m["emulated_device"] = name + " " + device->description;
    m["limiter"] = occ->limiter;
    m["clock_ghz"] = ScalabilityClockGhz(index);
    b.ModelMultiprocessors(sms, per_sm);
  } else {
    sms = static_cast<int>(b.preset().multiprocessors);
  }
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

  // The output check. Emulator: its stamps are the model's schedule of the same blocks, each
  // lasting its work, one unit for the barrier and one per store of thread 0 (the end stamp is
  // read before the last store). GPU: every block stamped, ending after it started.
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

  m["time_unit"] = gpu ? "us" : "units";
  m["sms"] = sms;
  m["blocks_per_sm_limit"] = per_sm;
  m["makespan"] = summary.makespan;
  m["blocks_per_sm"] = summary.blocks_per_sm;
  m["most_resident"] = summary.most_resident;
  m["busy"] = summary.busy;
  m["waves"] = (blocks + static_cast<std::uint32_t>(sms * per_sm) - 1) /
               static_cast<std::uint32_t>(sms * per_sm);
  nlohmann::json& tl = m["timeline"];
  tl = nlohmann::json::array();
  for (const BlockPlacement& q : placed) tl.push_back({q.block, q.sm, q.start, q.end});
  // Transparent scalability: the same blocks (their durations as run) dealt to other SM counts.
  for (int n : ReplaySmCounts(sms))
    m["vary_sms"].push_back(
        {{"sms", n}, {"makespan", summarize(ScheduleBlocks(held, n, per_sm), n).makespan}});
  return {};
}

}  // namespace ws::lessons
