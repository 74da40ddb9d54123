// A run's kernels, one row each over every launch: which kernel is slow and why. The app's Kernels
// view, the CLI's summary and the JSON's `kernels` all read KernelTable().
//
//   auto preset = FindDevicePreset("hopper");
//   std::vector<KernelRow> rows = KernelTable(run, *preset);  // slowest first
//   rows[0].worst  // the figure furthest from its ideal: "sectors", "banks" or "hazards"
//
// The model of a launch's time (the emulator has no clock of its own) charges its two memories:
// DRAM moves each global, local, constant and texture sector (32 B) at the preset's bandwidth;
// shared memory serves one wavefront per cycle on each multiprocessor (32 banks x 4 B), so a
// 32-way conflicted request costs 32 cycles of its SM where a conflict-free one costs 1. The two
// are added: a tiled kernel's block loads its tile, waits at the barrier, then works from shared
// memory, so the phases overlap little (taking the longer of the two instead would hide a
// transpose's bank conflicts under its DRAM time at every size). The fixed cost of a launch (2 us
// on an H100: the launch and its synchronisation) is kept apart, so that a kernel's own cost is
// not hidden under it. docs/PROGRAMS.md ("The kernels table") says how it is built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/lesson_run.h"

namespace ws {

// Block records are kept by kernel: each kernel's first kRecordedLaunchesPerKernel launches keep
// them (a kernel timed 100 times in a loop is drawn from its first), and past its first launch a
// kernel keeps them only while the run has kept fewer than kMaxLaunchesWithRecords in all. Every
// launch is counted either way: its figures are always written.
inline constexpr std::size_t kRecordedLaunchesPerKernel = 3;
inline constexpr std::size_t kMaxLaunchesWithRecords = 64;

// The fixed cost of one launch in the model: a launch and its synchronisation on an H100.
inline constexpr double kModeledLaunchOverheadMs = 0.002;

struct LaunchTimeModel {
  double dram_ms = 0;     // sectors x 32 B at the preset's DRAM bandwidth
  double shared_ms = 0;   // wavefronts / (multiprocessors x clock)
  double compute_ms = 0;  // counted FLOPs at the preset's FP32 peak (Fp32PeakGflops)
  // The latest clock a thread read (LaunchStats::thread_clock) at the preset's clock: a floor,
  // not a part, since the thread's ticks overlap the memories' time.
  double clock_ms = 0;
  std::uint64_t dram_bytes = 0, wavefronts = 0;
  // The launch's own time: its memories' and its arithmetic's, or the clock its threads read
  // where that is longer (a kernel that spins on clock64() for 10 ms takes 10 ms); the launch
  // overhead is not in it. Never under the memories' and the arithmetic's, so that its throughput
  // stays under both roofs of the roofline.
  double ms() const {
    const double parts = dram_ms + shared_ms + compute_ms;
    return clock_ms > parts ? clock_ms : parts;
  }
  // What takes the most of it.
  const char* bound() const {
    if (clock_ms > dram_ms + shared_ms + compute_ms) return "the clock its threads read";
    return compute_ms > dram_ms && compute_ms > shared_ms ? "arithmetic"
           : shared_ms > dram_ms                          ? "shared memory"
                                                          : "DRAM";
  }
};
// `unrecorded`: sectors the launch moved that no site recorded (a lesson's local memory, counted
// by the driver), charged to DRAM too.
LaunchTimeModel ModelLaunchTime(const LaunchTrace& t, const DevicePreset& preset,
                                std::uint64_t unrecorded = 0);

struct KernelRow {
  std::string kernel;
  std::size_t launches = 0;
  std::size_t first_launch = 0;  // index into the run's launches
  // The first of its launches that kept block records (what its views draw); = launches of the
  // run (none) when no launch of it did.
  std::size_t first_with_records = 0;
  bool has_records = false;
  // Its launches that kept block records (a program keeps them for a kernel's first
  // kRecordedLaunchesPerKernel): the others' figures are counted, nothing of them drawn.
  std::size_t launches_with_records = 0;
  // A what-if re-addressed one of its launches from the kept blocks only: that launch's figures
  // are those blocks', not the whole grid's (the what-if's scope says which).
  bool partial = false;
  // Time over all its launches: "measured" (a GPU's kernel times) or "modeled" (ModelLaunchTime).
  std::string time_kind = "modeled";
  double ms = 0;                      // the kernels' own time, summed
  double overhead_ms = 0;             // modeled: launches x kModeledLaunchOverheadMs, apart from ms
  double dram_ms = 0, shared_ms = 0;  // modeled: the two memories' parts, summed
  // Global (and local, constant, texture) traffic.
  std::uint64_t global_requests = 0, global_sectors = 0, global_ideal_sectors = 0;
  std::uint64_t global_bytes = 0;  // bytes the threads asked for
  std::uint64_t dram_bytes = 0;    // sectors x 32
  // Shared memory.
  std::uint64_t shared_requests = 0, wavefronts = 0, ideal_wavefronts = 0;
  std::uint32_t worst_bank_degree = 0;  // the worst request's conflict degree (1: none)
  // Bulk copies through the TMA (SiteInfo::bulk_copy: compute 9.0's cuda::memcpy_async into a
  // block's cuda::barrier), apart from the LSU's figures above, which they are not in: the
  // pieces recorded (a copy cut at its source's 32-byte sectors), the sectors read, the bytes.
  std::uint64_t tma_pieces = 0, tma_sectors = 0, tma_bytes = 0;
  // Floating-point operations (LaunchStats::flops), known when every launch counted them.
  std::uint64_t flops = 0;
  bool flops_counted = true;
  double compute_ms = 0;  // modeled: the FLOPs at the preset's peak
  // Modeled: the launches whose threads read a clock later than their memories and arithmetic
  // took (LaunchTimeModel::clock_ms), and what that added to ms over them.
  std::size_t clock_bound_launches = 0;
  double clock_extra_ms = 0;
  // Said in the text, the JSON and the table's tooltip where it adds a microsecond at least. A
  // read after a thread's accesses floors the launch by them at a cycle an access: a loose floor
  // (a GPU's thread waits hundreds of cycles for an access), which a small grid can reach.
  bool ClockBoundSaid() const { return clock_bound_launches > 0 && clock_extra_ms >= 1e-3; }
  std::uint64_t hazards = 0;  // races found, over its launches
  // Launches whose figures miss blocks (LaunchTrace::uncovered_blocks: a GPU's record budget),
  // and the first one's words; the table's figures then cover only part of the grid.
  std::size_t uncovered_launches = 0;
  std::string coverage;
  // How the emulator ran it (LaunchTrace::engine): "simt", "fiber", or "simt and fiber" when its
  // launches differ; and the per-thread path's reason. Empty on a GPU.
  std::string engine, engine_reason;
  // On a GPU: the GPU's own counters for the kernel's first launch (the program as written, in a
  // run of its own; CUPTI's range profiler reading the metrics Nsight Compute reads:
  // ProgramRecord::kernel_counters), each beside the same figure of the recorded first launch
  // (its whole grid's). Those both give as 0 are left out; empty where none were read.
  struct GpuCounter {
    std::string figure;  // "global load sectors"
    std::string metric;  // Nsight Compute's name
    double gpu = 0;
    std::uint64_t recorded = 0;
    // More than 2 % apart (the agreement's bound, docs/ncu-agreement.md).
    bool Differs() const;
  };
  std::vector<GpuCounter> gpu_counters;
  // Where the counting run counted or named some kernels but no counters stand on this row: why
  // ("its first launch shows a what-if, not the program as written"; "CUPTI gave no values ...");
  // empty otherwise (and where none were read at all: ProgramRecord::kernel_counters_missing).
  std::string gpu_counters_missing;
  // Counted, and every figure 0 on both sides (so none in gpu_counters): the GPU agrees.
  bool gpu_counted_zero = false;
  // The figure furthest from its ideal, marked in the table: "hazards" (any race), else the
  // larger of "sectors" (sectors / ideal sectors) and "banks" (wavefronts / ideal), when over 1;
  // "" when both are at their ideal.
  std::string worst;

  double SectorsPerRequest() const {
    return global_requests ? double(global_sectors) / double(global_requests) : 0.0;
  }
  double IdealSectorsPerRequest() const {
    return global_requests ? double(global_ideal_sectors) / double(global_requests) : 0.0;
  }
  std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
  double total_ms() const { return ms + overhead_ms; }
  // Achieved DRAM throughput (GB/s) over the kernel's own time.
  double DramGigabytesPerSecond() const { return ms > 0 ? double(dram_bytes) / (ms * 1e6) : 0.0; }
  // The roofline's coordinates: FLOPs per DRAM byte, and GFLOP/s over the kernel's own time.
  double ArithmeticIntensity() const {
    return dram_bytes > 0 ? double(flops) / double(dram_bytes) : 0.0;
  }
  double Gflops() const { return ms > 0 ? double(flops) / (ms * 1e6) : 0.0; }
  bool OnRoofline() const { return flops_counted && flops > 0 && dram_bytes > 0 && ms > 0; }
};

// The roofline's two roofs for a preset: DRAM bandwidth (GB/s: GFLOP/s per FLOP/B) and the FP32
// peak; they meet at the ridge, `peak / bandwidth` FLOP/B.
struct Roofline {
  double bandwidth_gbps = 0, peak_gflops = 0;
  double ridge() const { return bandwidth_gbps > 0 ? peak_gflops / bandwidth_gbps : 0.0; }
  // The most a kernel of `intensity` FLOP/B can reach.
  double Attainable(double intensity) const {
    const double memory = bandwidth_gbps * intensity;
    return memory < peak_gflops ? memory : peak_gflops;
  }
};
Roofline RooflineOf(const DevicePreset& preset);

// Every kernel the run launched, slowest first (ties: first launched first). A GPU run's times
// are measured when the program's kernel times match its launches one for one; otherwise (and on
// the emulator) modeled under `preset`.
std::vector<KernelRow> KernelTable(const LessonRun& run, const DevicePreset& preset);

// The table as the CLI prints it (a line per kernel, the worst figure of each row starred, and
// how its times were made) and as the JSON's `kernels`.
std::string KernelsText(const std::vector<KernelRow>& rows, const LessonRun& run,
                        const DevicePreset& preset);
nlohmann::json KernelsJson(const std::vector<KernelRow>& rows, const LessonRun& run);
// How the modeled times were made, in one sentence ("modeled on hopper: ...").
std::string ModelNote(const DevicePreset& preset);

// The launch of the same kernel nearest to `index` (earlier ones first on ties) that kept block
// records; `index` itself when it kept them, or when no launch of its kernel did.
std::size_t NearestLaunchWithRecords(const std::vector<LaunchTrace>& launches, std::size_t index);

// The preset a run was modeled under: the program's, else "hopper".
std::string PresetOf(const LessonRun& run);

}  // namespace ws
