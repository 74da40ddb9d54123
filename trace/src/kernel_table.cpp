// A run's kernels, one row each (kernel_table.h).
#include "warpscope/trace/kernel_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/units.h"

namespace ws {

LaunchTimeModel ModelLaunchTime(const LaunchTrace& t, const DevicePreset& preset,
                                std::uint64_t unrecorded) {
  LaunchTimeModel m;
  std::uint64_t sectors = unrecorded;
  for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i) {
    if (t.sites[i].space == MemorySpace::kShared)
      m.wavefronts += t.stats.sites[i].wavefronts;
    else
      sectors += t.stats.sites[i].sectors;
  }
  m.dram_bytes = sectors * 32;
  // GB/s = bytes per ns: ms = bytes / (GB/s x 1e6).
  m.dram_ms = static_cast<double>(m.dram_bytes) / (preset.bandwidth_gbps * 1e6);
  // One wavefront per cycle per multiprocessor: cycles / (SMs x GHz x 1e6) ms.
  const double per_ms = static_cast<double>(preset.multiprocessors) * preset.clock_ghz * 1e6;
  m.shared_ms = per_ms > 0 ? static_cast<double>(m.wavefronts) / per_ms : 0.0;
  const double peak = Fp32PeakGflops(preset);
  if (t.stats.flops_counted && peak > 0)
    m.compute_ms = static_cast<double>(t.stats.flops) / (peak * 1e6);
  if (preset.clock_ghz > 0)
    m.clock_ms = static_cast<double>(t.stats.thread_clock) / (preset.clock_ghz * 1e6);
  return m;
}

Roofline RooflineOf(const DevicePreset& preset) {
  return {preset.bandwidth_gbps, Fp32PeakGflops(preset)};
}

std::size_t NearestLaunchWithRecords(const std::vector<LaunchTrace>& launches, std::size_t index) {
  if (index >= launches.size() || !launches[index].blocks.empty()) return index;
  const std::string& kernel = launches[index].kernel;
  for (std::size_t d = 1; d < launches.size(); ++d) {
    if (index >= d && launches[index - d].kernel == kernel && !launches[index - d].blocks.empty())
      return index - d;
    if (index + d < launches.size() && launches[index + d].kernel == kernel &&
        !launches[index + d].blocks.empty())
      return index + d;
  }
  return index;
}

std::string PresetOf(const LessonRun& run) {
  return run.program && !run.program->preset.empty() ? run.program->preset : "hopper";
}

namespace {

// The worst figure of a row: any race first; else the figure furthest over its ideal.
std::string WorstOf(const KernelRow& r) {
  if (r.hazards > 0) return "hazards";
  const double sectors =
      r.global_ideal_sectors > 0 ? double(r.global_sectors) / double(r.global_ideal_sectors) : 1.0;
  const double banks =
      r.ideal_wavefronts > 0 ? double(r.wavefronts) / double(r.ideal_wavefronts) : 1.0;
  if (sectors <= 1.0 && banks <= 1.0) return "";
  return banks > sectors ? "banks" : "sectors";
}

// The figures the GPU's own counters are read for (kernel_counters.cpp's metrics) and how a
// recorded launch's sites give each: requests, sectors, wavefronts or conflicts (wavefronts over
// the ideal) of the LSU's sites of that space and operation (an asynchronous copy's shared write
// apart from plain stores, as Nsight Compute counts LDGSTS apart; bulk copies outside).
struct CounterFigure {
  const char* figure;
  const char* metric;
  MemorySpace space;
  AccessOp op;
  bool async_copy;
  enum Kind { kRequests, kSectors, kWavefronts, kConflicts } kind;
};
constexpr CounterFigure kCounterFigures[] = {
    {"global load requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     MemorySpace::kGlobal, AccessOp::kLoad, false, CounterFigure::kRequests},
    {"global load sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", MemorySpace::kGlobal,
     AccessOp::kLoad, false, CounterFigure::kSectors},
    {"global store requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     MemorySpace::kGlobal, AccessOp::kStore, false, CounterFigure::kRequests},
    {"global store sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", MemorySpace::kGlobal,
     AccessOp::kStore, false, CounterFigure::kSectors},
    {"shared load wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     MemorySpace::kShared, AccessOp::kLoad, false, CounterFigure::kWavefronts},
    {"shared load bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     MemorySpace::kShared, AccessOp::kLoad, false, CounterFigure::kConflicts},
    {"shared store wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     MemorySpace::kShared, AccessOp::kStore, false, CounterFigure::kWavefronts},
    {"shared store bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     MemorySpace::kShared, AccessOp::kStore, false, CounterFigure::kConflicts},
    {"async-copy shared wavefronts",
     "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", MemorySpace::kShared,
     AccessOp::kStore, true, CounterFigure::kWavefronts},
};

std::uint64_t RecordedFigure(const LaunchTrace& t, const CounterFigure& f) {
  std::uint64_t sum = 0;
  for (std::size_t s = 0; s < t.sites.size() && s < t.stats.sites.size(); ++s) {
    const SiteInfo& site = t.sites[s];
    if (site.bulk_copy || site.space != f.space || site.op != f.op ||
        site.async_copy != f.async_copy)
      continue;
    const SiteStats& st = t.stats.sites[s];
    switch (f.kind) {
      case CounterFigure::kRequests:
        sum += st.requests;
        break;
      case CounterFigure::kSectors:
        sum += st.sectors;
        break;
      case CounterFigure::kWavefronts:
        sum += st.wavefronts;
        break;
      case CounterFigure::kConflicts:
        sum += st.wavefronts - st.ideal_wavefronts;
        break;
    }
  }
  return sum;
}

// A launch's kernel and a compiled symbol name the same kernel: the same key (KernelKey: its
// name and template arguments, without namespaces or parameters), or, where the two spell a
// template argument differently ("16" and the demangler's "16u"), the same name before them.
bool SameKernel(const std::string& kernel, const std::string& symbol, bool by_name) {
  const std::string a = KernelKey(kernel), b = KernelKeyOfSymbol(symbol);
  if (!by_name) return a == b;
  return a.substr(0, a.find('<')) == b.substr(0, b.find('<'));
}

// Each row's GPU counters: the program's counted launches are each kernel's first; a row takes
// the one not yet taken of its kernel's key, else of its kernel's name (its template arguments
// spelled otherwise). A row whose first launch's figures are not the whole grid as written (a
// what-if re-addressed it; blocks the record budget left out; a record buffer that filled) gets
// none: there is nothing of the grid as written to stand them beside.
void AddGpuCounters(const LessonRun& run, std::vector<KernelRow>& rows) {
  if (!run.program || run.backend != "cuda") return;
  const auto& counted = run.program->kernel_counters;
  const auto& not_counted = run.program->kernels_not_counted;
  std::vector<bool> taken(counted.size(), false);
  const std::string& missing = run.program->kernel_counters_missing;
  for (KernelRow& r : rows) {
    const LaunchTrace& t = run.launches[r.first_launch];
    // Where the counting run counted (or named) some kernels, a row left without says why.
    const auto left_out = [&](std::string why) {
      if (!counted.empty() || !not_counted.empty()) r.gpu_counters_missing = std::move(why);
    };
    if (run.what_if && run.what_if->launch == r.first_launch) {
      left_out("its first launch shows a what-if, not the program as written");
      continue;
    }
    if (t.uncovered_blocks > 0 || t.truncated) {
      left_out("its first launch's record does not cover the whole grid the GPU counted");
      continue;
    }
    std::size_t c = counted.size();
    for (const bool by_name : {false, true}) {
      for (std::size_t i = 0; i < counted.size() && c == counted.size(); ++i)
        if (!taken[i] && SameKernel(r.kernel, counted[i].kernel, by_name)) c = i;
    }
    if (c == counted.size()) {
      // One the counting run named as not counted, and why; else, where the counting run stopped
      // or failed, its reason; else the kernels it passes over without a word.
      std::string why;
      for (const bool by_name : {false, true}) {
        for (const ProgramRecord::NotCounted& k : not_counted)
          if (why.empty() && SameKernel(r.kernel, k.kernel, by_name))
            why = "the counting run did not count it: " + k.why;
      }
      if (why.empty())
        why = missing.empty() ? "the counting run did not count it: a kernel launched only in a "
                                "CUDA graph, or after 256 others, is not counted"
                              : "not among the kernels the counting run counted: " + missing;
      left_out(std::move(why));
      continue;
    }
    taken[c] = true;
    bool valued = false;
    for (const CounterFigure& f : kCounterFigures) {
      const double gpu = counted[c].Of(f.metric);
      if (gpu < 0) continue;
      valued = true;
      const std::uint64_t recorded = RecordedFigure(t, f);
      if (gpu == 0 && recorded == 0) continue;
      r.gpu_counters.push_back({f.figure, f.metric, gpu, recorded});
    }
    if (!valued)
      r.gpu_counters_missing =
          "CUPTI gave no values for its first launch (not every pass of its replay was made)";
    r.gpu_counted_zero = valued && r.gpu_counters.empty();
  }
}

}  // namespace

bool KernelRow::GpuCounter::Differs() const {
  const double rec = static_cast<double>(recorded);
  return std::abs(gpu - rec) > 0.02 * std::max(gpu, rec);
}

std::vector<KernelRow> KernelTable(const LessonRun& run, const DevicePreset& preset) {
  std::vector<KernelRow> rows;
  std::map<std::string, std::size_t> row_of;
  // A GPU's kernel times, one per launch in launch order, when the two runs agree in number and
  // each time's (mangled) name holds its launch's kernel's name; else the model's.
  bool measured = run.program && run.backend == "cuda" && !run.program->kernel_times.empty() &&
                  run.program->kernel_times.size() == run.launches.size();
  for (std::size_t i = 0; measured && i < run.launches.size(); ++i) {
    measured = SameKernel(run.launches[i].kernel, run.program->kernel_times[i].kernel, true);
  }
  for (std::size_t i = 0; i < run.launches.size(); ++i) {
    const LaunchTrace& t = run.launches[i];
    auto [it, fresh] = row_of.try_emplace(t.kernel, rows.size());
    if (fresh) {
      rows.emplace_back();
      rows.back().kernel = t.kernel;
      rows.back().first_launch = i;
      rows.back().first_with_records = run.launches.size();
    }
    KernelRow& r = rows[it->second];
    ++r.launches;
    if (!t.blocks.empty()) ++r.launches_with_records;
    if (!r.has_records && !t.blocks.empty()) {
      r.has_records = true;
      r.first_with_records = i;
    }
    const LaunchTimeModel m = ModelLaunchTime(t, preset);
    r.dram_ms += m.dram_ms;
    r.shared_ms += m.shared_ms;
    r.compute_ms += m.compute_ms;
    r.dram_bytes += m.dram_bytes;
    r.flops += t.stats.flops;
    r.flops_counted = r.flops_counted && t.stats.flops_counted;
    if (measured) {
      r.time_kind = "measured";
      r.ms += run.program->kernel_times[i].ms;
    } else {
      r.ms += m.ms();
      r.overhead_ms += kModeledLaunchOverheadMs;
      if (const double parts = m.dram_ms + m.shared_ms + m.compute_ms; m.clock_ms > parts) {
        ++r.clock_bound_launches;
        r.clock_extra_ms += m.clock_ms - parts;
      }
    }
    for (std::size_t s = 0; s < t.sites.size() && s < t.stats.sites.size(); ++s) {
      const SiteStats& st = t.stats.sites[s];
      if (t.sites[s].bulk_copy) {  // the TMA's, not the LSU's
        if (t.sites[s].space != MemorySpace::kShared) {
          r.tma_pieces += st.accesses;
          r.tma_sectors += st.sectors;
          r.tma_bytes += st.bytes;
        }
      } else if (t.sites[s].space == MemorySpace::kShared) {
        r.shared_requests += st.requests;
        r.wavefronts += st.wavefronts;
        r.ideal_wavefronts += st.ideal_wavefronts;
        r.worst_bank_degree = std::max(r.worst_bank_degree, st.bank_conflict_max);
      } else {
        r.global_requests += st.requests;
        r.global_sectors += st.sectors;
        r.global_ideal_sectors += st.ideal_sectors;
        r.global_bytes += st.bytes;
      }
    }
    // Races; a write of the value already there (benign) is not one.
    r.hazards += t.hazards.Total() - t.hazards.Count(HazardKind::kWawSameValue);
    if (t.uncovered_blocks > 0 && r.uncovered_launches++ == 0)
      r.coverage = "launch " + std::to_string(i + 1) + ": " + t.Coverage();
    if (!t.engine.empty()) {
      if (r.engine.empty())
        r.engine = t.engine;
      else if (r.engine != t.engine)
        r.engine = "simt and fiber";
      if (r.engine_reason.empty()) r.engine_reason = t.engine_reason;
    }
    if (run.what_if && !run.what_if->whole_grid && run.what_if->launch == i) r.partial = true;
  }
  for (KernelRow& r : rows) r.worst = WorstOf(r);
  AddGpuCounters(run, rows);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const KernelRow& a, const KernelRow& b) { return a.ms > b.ms; });
  return rows;
}

std::string ModelNote(const DevicePreset& preset) {
  char text[512];
  std::snprintf(text, sizeof text,
                "modeled on %s: each launch's DRAM sectors x 32 B at %.0f GB/s plus its shared "
                "wavefronts at one per cycle on each of %u SMs at %.2f GHz plus its FLOPs at "
                "%.1f TFLOP/s, or the latest clock its threads read at that clock where longer; "
                "launches one after another; a launch's fixed %.0f us apart",
                preset.name.c_str(), preset.bandwidth_gbps, preset.multiprocessors,
                preset.clock_ghz, Fp32PeakGflops(preset) / 1000, kModeledLaunchOverheadMs * 1000);
  return text;
}

namespace {

std::string Ratio(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

std::string WhoseLaunch(const KernelRow& r) {
  return r.has_records ? std::to_string(r.first_with_records + 1) : std::string("-");
}

}  // namespace

std::string KernelsText(const std::vector<KernelRow>& rows, const LessonRun& run,
                        const DevicePreset& preset) {
  std::ostringstream o;
  const bool measured = !rows.empty() && rows.front().time_kind == "measured";
  o << "kernels, slowest first (" << rows.size() << (rows.size() == 1 ? " kernel, " : " kernels, ")
    << run.launches.size() << (run.launches.size() == 1 ? " launch" : " launches") << "; "
    << (measured ? "times measured on the GPU (CUPTI, the program as written)" : ModelNote(preset))
    << "):\n";
  std::size_t width = 6;
  for (const KernelRow& r : rows) width = std::max(width, r.kernel.size());
  char line[640];
  std::snprintf(line, sizeof line, "  %-*s %8s %11s %10s %15s %22s %8s %7s\n",
                static_cast<int>(width), "kernel", "launches", "time", "overhead",
                "sect/req(ideal)", "shared wavefronts(ideal)", "hazards", "drawn");
  o << line;
  for (const KernelRow& r : rows) {
    const std::string sectors = r.global_requests > 0 ? (r.worst == "sectors" ? "*" : "") +
                                                            Ratio(r.SectorsPerRequest()) + "(" +
                                                            Ratio(r.IdealSectorsPerRequest()) + ")"
                                                      : std::string("-");
    const std::string banks = r.shared_requests > 0
                                  ? (r.worst == "banks" ? "*" : "") +
                                        FormatNumber(static_cast<double>(r.wavefronts)) + "(" +
                                        FormatNumber(static_cast<double>(r.ideal_wavefronts)) +
                                        ") " + std::to_string(r.worst_bank_degree) + "-way"
                                  : std::string("-");
    const std::string hazards =
        (r.worst == "hazards" ? "*" : "") + FormatNumber(static_cast<double>(r.hazards));
    std::snprintf(line, sizeof line, "  %-*s %8zu %11s %10s %15s %22s %8s %7s\n",
                  static_cast<int>(width), r.kernel.c_str(), r.launches,
                  FormatDuration(r.ms).c_str(),
                  r.overhead_ms > 0 ? FormatDuration(r.overhead_ms).c_str() : "-", sectors.c_str(),
                  banks.c_str(), hazards.c_str(), WhoseLaunch(r).c_str());
    o << line;
  }
  o << "  * the row's worst figure; drawn: the launch the views draw the kernel from (the first "
       "that kept block records)\n";
  for (const KernelRow& r : rows) {
    if (r.uncovered_launches > 0)
      o << "  " << r.kernel << ": PARTIAL in " << r.uncovered_launches << " of " << r.launches
        << (r.launches == 1 ? " launch" : " launches") << " (" << r.coverage << ")\n";
  }
  for (const KernelRow& r : rows) {
    if (r.has_records && r.launches_with_records < r.launches)
      o << "  " << r.kernel << ": every launch counted; block records kept for "
        << r.launches_with_records << " of its " << r.launches
        << " launches (the first ones: what the views draw and, on a GPU, check for hazards)\n";
  }
  for (const KernelRow& r : rows) {
    if (r.ClockBoundSaid())
      o << "  " << r.kernel << ": " << r.clock_bound_launches << " of " << r.launches
        << (r.launches == 1 ? " launch" : " launches")
        << " timed by the clock its threads read, not by its memories (+"
        << FormatDuration(r.clock_extra_ms)
        << "): its threads read clock(), clock64() or %globaltimer that late\n";
  }
  // Bulk copies through the TMA: outside the LSU's figures above, said once, then each kernel's.
  bool tma = false;
  for (const KernelRow& r : rows) {
    if (r.tma_pieces == 0) continue;
    if (!tma)
      o << "  bulk copies through the TMA, outside the figures above (compute 9.0 makes a "
           "cuda::memcpy_async of 16-byte alignment into a block's cuda::barrier one "
           "cp.async.bulk, which takes no LSU request and no shared wavefront):\n";
    tma = true;
    o << "    " << r.kernel << ": " << FormatNumber(static_cast<double>(r.tma_sectors))
      << (r.tma_sectors == 1 ? " sector" : " sectors") << " read, "
      << FormatNumber(static_cast<double>(r.tma_bytes)) << " B\n";
  }
  // The GPU's own counters, each kernel's first launch, beside the recorded figures.
  bool counters = false;
  for (const KernelRow& r : rows) {
    if (r.gpu_counters.empty()) continue;
    if (!counters)
      o << "  the GPU's own counters for each kernel's first launch (CUPTI's range profiler "
           "reading the metrics Nsight Compute reads, the program as written in a run of its "
           "own), beside the recorded first launch's:\n";
    counters = true;
    o << "    " << r.kernel << ":\n";
    for (const KernelRow::GpuCounter& c : r.gpu_counters) {
      std::snprintf(line, sizeof line, "      %-30s GPU %13s  recorded %13s%s\n", c.figure.c_str(),
                    FormatNumber(c.gpu).c_str(),
                    FormatNumber(static_cast<double>(c.recorded)).c_str(),
                    c.Differs() ? "  (more than 2 % apart)" : "");
      o << line;
    }
  }
  for (const KernelRow& r : rows) {
    if (r.gpu_counted_zero)
      o << "  the GPU's own counters for " << r.kernel << ": every figure 0, as recorded\n";
    if (!r.gpu_counters_missing.empty())
      o << "  the GPU's own counters, not read for " << r.kernel << ": " << r.gpu_counters_missing
        << "\n";
  }
  if (run.program && run.backend == "cuda" && !run.program->kernel_counters_missing.empty())
    o << "  the GPU's own counters: " << (counters ? "some kernels not read: " : "not read: ")
      << run.program->kernel_counters_missing << "\n";
  for (const KernelRow& r : rows) {
    if (r.partial)
      o << "  " << r.kernel << ": the what-if's launch counts only its kept blocks ("
        << run.what_if->scope << ")\n";
  }
  // Which kernels ran a warp's lanes together (docs/ENGINE.md) and why the others did not.
  std::size_t simt = 0, engines = 0;
  for (const KernelRow& r : rows) {
    engines += r.engine.empty() ? 0 : 1;
    simt += r.engine == "simt" ? 1 : 0;
  }
  if (engines > 0) {
    o << "  engine: " << simt << " of " << engines << (engines == 1 ? " kernel" : " kernels")
      << " ran on the SIMT path (a warp's lanes together)";
    o << (simt == engines ? "\n" : "; on the per-thread path:\n");
    for (const KernelRow& r : rows) {
      if (!r.engine.empty() && r.engine != "simt")
        o << "    " << r.kernel << ": " << r.engine_reason << "\n";
    }
  }
  // The roofline: each kernel's FLOPs per DRAM byte and GFLOP/s against the preset's roofs.
  const Roofline roof = RooflineOf(preset);
  bool header = false;
  for (const KernelRow& r : rows) {
    if (!r.OnRoofline()) continue;
    if (!header) {
      std::snprintf(line, sizeof line,
                    "roofline (%s: DRAM %.0f GB/s, FP32 %.1f TFLOP/s, ridge %.1f FLOP/B):\n",
                    preset.name.c_str(), roof.bandwidth_gbps, roof.peak_gflops / 1000,
                    roof.ridge());
      o << line;
      header = true;
    }
    const double intensity = r.ArithmeticIntensity();
    const double roof_at = roof.Attainable(intensity);
    std::snprintf(line, sizeof line,
                  "  %-*s %10s FLOP/B %12s GFLOP/s  %s-bound, %.0f %% of its roof\n",
                  static_cast<int>(width), r.kernel.c_str(), FormatNumber(intensity).c_str(),
                  FormatNumber(r.Gflops()).c_str(), intensity < roof.ridge() ? "memory" : "compute",
                  roof_at > 0 ? 100.0 * r.Gflops() / roof_at : 0.0);
    o << line;
  }
  return o.str();
}

nlohmann::json KernelsJson(const std::vector<KernelRow>& rows, const LessonRun& run) {
  nlohmann::json a = nlohmann::json::array();
  for (const KernelRow& r : rows) {
    nlohmann::json k = {{"kernel", r.kernel},
                        {"launches", r.launches},
                        {"first_launch", r.first_launch},
                        {"time_kind", r.time_kind},
                        {"ms", r.ms},
                        {"overhead_ms", r.overhead_ms},
                        {"dram_ms", r.dram_ms},
                        {"shared_ms", r.shared_ms},
                        {"global_requests", r.global_requests},
                        {"sectors", r.global_sectors},
                        {"ideal_sectors", r.global_ideal_sectors},
                        {"sectors_per_request", r.SectorsPerRequest()},
                        {"global_bytes", r.global_bytes},
                        {"dram_bytes", r.dram_bytes},
                        {"shared_requests", r.shared_requests},
                        {"wavefronts", r.wavefronts},
                        {"ideal_wavefronts", r.ideal_wavefronts},
                        {"bank_conflicts", r.bank_conflicts()},
                        {"worst_bank_degree", r.worst_bank_degree},
                        {"hazards", r.hazards},
                        {"worst", r.worst},
                        {"partial", r.partial},
                        {"uncovered_launches", r.uncovered_launches},
                        {"launches_with_records", r.launches_with_records}};
    // Modeled launches whose longest thread took longer than their memories (KernelRow).
    if (r.ClockBoundSaid())
      k["clock_bound"] = {{"launches", r.clock_bound_launches}, {"extra_ms", r.clock_extra_ms}};
    // Bulk copies through the TMA, outside the LSU's figures above (KernelRow::tma_*).
    if (r.tma_pieces > 0)
      k["tma"] = {{"pieces", r.tma_pieces}, {"sectors", r.tma_sectors}, {"bytes", r.tma_bytes}};
    if (!r.engine.empty()) {
      k["engine"] = r.engine;
      if (!r.engine_reason.empty()) k["engine_reason"] = r.engine_reason;
    }
    // The roofline's coordinates, where the FLOPs were counted (a program's launches).
    if (r.flops_counted) {
      k["flops"] = r.flops;
      k["arithmetic_intensity"] = r.ArithmeticIntensity();
      k["gflops"] = r.Gflops();
      k["compute_ms"] = r.compute_ms;
    }
    // The GPU's own counters for its first launch, beside the recorded (KernelRow::gpu_counters).
    if (!r.gpu_counters.empty()) {
      nlohmann::json counters = nlohmann::json::array();
      for (const KernelRow::GpuCounter& c : r.gpu_counters)
        counters.push_back({{"figure", c.figure},
                            {"metric", c.metric},
                            {"gpu", c.gpu},
                            {"recorded", c.recorded},
                            {"differs", c.Differs()}});
      k["gpu_counters"] = std::move(counters);
    }
    if (!r.gpu_counters_missing.empty()) k["gpu_counters_missing"] = r.gpu_counters_missing;
    if (r.gpu_counted_zero) k["gpu_counters_all_zero"] = true;
    // The launch its views draw from: null when none of its launches kept block records.
    k["drawn_from_launch"] =
        r.has_records ? nlohmann::json(r.first_with_records) : nlohmann::json(nullptr);
    if (run.program) k["file"] = run.program->KernelFile(r.kernel);
    a.push_back(std::move(k));
  }
  return a;
}

}  // namespace ws
