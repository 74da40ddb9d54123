// A run record as JSON and as text (run_report.h).
//
// Index (a launch's sites, barriers and warp meetings: launch_report.cpp)
//   [SECTION] A lesson's run
//   [SECTION] A program's run
//   [SECTION] Either, and what the CLI's exit status and replay line need
#include "warpscope/trace/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/build_info.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/printed_text.h"
#include "warpscope/trace/run_file.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

nlohmann::json Dim(const Dim3& d) {
  return {d.x, d.y, d.z};
}

}  // namespace

// What a launch's figures cover, as the JSON says it: every block, or those whose records all
// came back ({"blocks": 426, "of": 1024, "whole_grid": false, "why": "..."}).
static nlohmann::json CoverageJson(const LaunchTrace& t) {
  const std::uint64_t all = t.grid.count(), out = std::min(t.uncovered_blocks, all);
  nlohmann::json j = {{"blocks", all - out}, {"of", all}, {"whole_grid", out == 0}};
  if (out > 0) j["why"] = t.Coverage();
  return j;
}

//-----------------------------------------------------------------------------
// [SECTION] A lesson's run
//-----------------------------------------------------------------------------

namespace {

nlohmann::json LessonJson(const LessonRun& run) {
  nlohmann::json j;
  j["lesson"] = run.lesson;
  j["variant"] = run.variant;
  j["backend"] = run.backend;
  j["device"] = run.device;
  if (run.backend == "emu") j["schedule"] = run.schedule.Name();
  j["params"] = ParamsJson(run.params, run.info);
  j["lesson_metrics"] = run.metrics();
  j["timing"] = TimingJson(run.timing);
  j["check"] = {{"ok", run.check.ok}, {"message", run.check.message}};
  if (run.capture)
    j["capture"] = {{"file", run.capture->file},
                    {"captured_at", run.capture->captured_at},
                    {"shipped", run.capture->shipped},
                    {"warpscope_version", run.capture->warpscope_version},
                    {"warpscope_commit", run.capture->warpscope_commit}};
  if (run.has_launch()) {
    const LaunchTrace& m = run.main_launch();
    j["truncated"] = m.truncated;
    j["coverage"] = CoverageJson(m);
  }
  j["sites"] = nlohmann::json::array();
  j["barriers"] = nlohmann::json::array();
  if (!run.has_launch()) return j;  // the occupancy calculator runs no kernel
  const LaunchTrace& t = run.main_launch();
  j["kernel"] = t.kernel;
  j["launch"] = {{"grid", Dim(t.grid)},
                 {"block", Dim(t.block)},
                 {"threads", t.threads()},
                 {"warps", t.warps()},
                 {"shared_bytes", t.shared_bytes}};
  // Which engine ran it on the emulator (docs/ENGINE.md), and why not the SIMT path.
  if (!t.engine.empty()) j["launch"]["engine"] = t.engine;
  if (!t.engine_reason.empty()) j["launch"]["engine_reason"] = t.engine_reason;
  if (t.resources.known()) j["resources"] = ResourcesJson(t.resources);
  j["sites"] = SitesJson(t);
  j["barriers"] = BarriersJson(t);
  j["warp_ops"] = WarpOpsJson(t);
  j["records"] = {{"accesses", t.stats.access_records},
                  {"barriers", t.stats.barrier_records},
                  {"kept_blocks", t.blocks.size()},
                  {"truncated", t.truncated}};
  j["hazards"] = HazardsJson(t.hazards);
  return j;
}

std::string MetricsText(const nlohmann::json& metrics) {
  std::ostringstream o;
  for (auto it = metrics.begin(); it != metrics.end(); ++it) {
    std::string text = it->dump();
    if (text.size() > 100) {  // graphs: see --json
      // Cut in place: `text.substr(0, 97) + "..."` trips GCC 12's false -Warray-bounds on the
      // moved string once inlined (seen at -O3 with the precompiled headers).
      text.resize(97);
      text += "...";
    }
    o << "  " << it.key() << ": " << text << "\n";
  }
  return o.str();
}

std::string LessonText(const LessonRun& run) {
  std::ostringstream o;
  o << run.lesson << " / " << run.variant << " on " << run.device << "\n";
  if (run.capture && run.capture->shipped)
    o << "no GPU measured this here: the capture shipped with Warpscope, made "
      << run.capture->captured_at << " (" << run.capture->file << "), with its own parameters\n";
  else if (run.capture)
    o << "captured " << run.capture->captured_at << " (trace " << run.capture->file << ")\n";
  if (run.has_launch() && run.main_launch().uncovered_blocks > 0)
    o << "PARTIAL: " << run.main_launch().Coverage() << "\n";
  else if (run.has_launch() && run.main_launch().truncated)
    o << "TRUNCATED: a record buffer filled up during capture; figures may be partial\n";
  o << "params:";
  const nlohmann::json params = ParamsJson(run.params, run.info);
  for (auto it = params.begin(); it != params.end(); ++it) {
    o << " " << it.key() << "=" << (it->is_string() ? it->get<std::string>() : it->dump());
  }
  if (!run.has_launch()) {
    o << "\n\n" << MetricsText(run.metrics());
    return o.str();
  }
  const LaunchTrace& t = run.main_launch();
  o << "\nkernel " << t.kernel << ": grid (" << t.grid.x << "," << t.grid.y << "," << t.grid.z
    << "), block (" << t.block.x << "," << t.block.y << "," << t.block.z << "), " << t.threads()
    << " threads, " << t.warps() << " warps\n";
  if (t.resources.known())
    o << "compiler: " << ResourceSummary(t.resources) << " (" << t.resources.source << ")\n";
  // The emulator's engine where it is not the SIMT path (docs/ENGINE.md): the same figures, and
  // why.
  if (t.engine == "fiber")
    o << "engine: thread by thread (" << (t.engine_reason.empty() ? "fiber" : t.engine_reason)
      << ")\n";
  o << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-5s %-7s %-6s %9s %11s %9s %8s %8s %8s   %s\n", "line",
                "space", "op", "requests", "sect/req", "ideal", "cc1.0", "cc1.2", "banks", "code");
  o << line;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    if (s.space == MemorySpace::kShared) {
      char banks[32];
      std::snprintf(banks, sizeof banks, "%u-way", st.bank_conflict_max);
      std::snprintf(line, sizeof line, "%-5u %-7s %-6s %9llu %11s %9s %8s %8s %8s   %s\n", s.line,
                    ToString(s.space), ToString(s.op), static_cast<unsigned long long>(st.requests),
                    "-", "-", "-", "-", banks, s.code.c_str());
    } else {
      char spr[32], ideal[32];
      std::snprintf(spr, sizeof spr, "%.2f", st.SectorsPerRequest());
      std::snprintf(ideal, sizeof ideal, "%.2f",
                    st.requests ? double(st.ideal_sectors) / st.requests : 0.0);
      std::snprintf(line, sizeof line, "%-5u %-7s %-6s %9llu %11s %9s %8llu %8llu %8s   %s\n",
                    s.line, ToString(s.space), ToString(s.op),
                    static_cast<unsigned long long>(st.requests), spr, ideal,
                    static_cast<unsigned long long>(st.cc10_transactions),
                    static_cast<unsigned long long>(st.cc12_transactions), "-", s.code.c_str());
    }
    o << line;
  }
  for (std::size_t i = 0; i < t.barrier_sites.size(); ++i) {
    const BarrierStats& b = t.stats.barriers[i];
    o << "barrier line " << t.barrier_sites[i].line << ": " << b.instances << " instances"
      << (t.barrier_sites[i].tile != 0
              ? " (the sync of a tile of " + std::to_string(t.barrier_sites[i].tile) + " threads)"
              : "")
      << ", max skew " << b.max_skew << " " << t.time_unit
      << (t.barrier_skew_kept_only
              ? " (over the " + std::to_string(t.barrier_skew_blocks) +
                    " kept blocks: the others' passes were counted on the GPU without their "
                    "arrivals)"
              : "")
      << ", mean wait " << b.MeanWait() << " " << t.time_unit << "\n";
  }
  o << "\nhazards: " << HazardsText(t.hazards, t);
  if (!run.metrics().empty()) o << "\nlesson figures:\n" << MetricsText(run.metrics());
  o << "\ntime: " << FormatDuration(run.timing.ms);
  if (!run.timing.timed_at.empty()) o << " at " << run.timing.timed_at;
  o << " (" << run.timing.kind << ": " << run.timing.note << ")\n";
  if (run.timing.record_ms > 0) {
    o << "recording: " << run.timing.records << " records (" << run.timing.record_bytes << " bytes";
    if (run.timing.lane_rows > 0) {
      o << "; each lane its own, " << run.timing.lane_rows << " rows";
      if (run.timing.lane_wide) o << ", the wide build";
      if (run.timing.lane_pattern_rows > 0)
        o << "; its loops' patterns made " << run.timing.lane_pattern_rows
          << " rows more on the host";
      if (run.timing.access_times_placed)
        o << "; accesses' times placed between each warp's start, meetings, barriers and the "
             "pass's end, not read at each access";
    }
    o << ") in " << FormatDuration(run.timing.record_ms);
    if (run.timing.record_warm)
      o << " (warm: its second run, as the uninstrumented build is timed)";
    const double plain = run.timing.own_ms > 0 ? run.timing.own_ms : run.timing.ms;
    if (plain > 0)
      o << ", " << run.timing.record_ms / plain << "x the uninstrumented build's at this size";
    if (run.timing.count_ms > 0)  // the budget ran out on the first pass: counted, then planned
      o << "; the passes before it " << run.timing.count_ms << " ms";
    else
      o << (run.timing.record_warm ? "; one pass, run twice" : "; one pass");
    if (run.timing.direct_requests > 0)
      o << "; " << run.timing.direct_requests
        << " whole-warp requests counted on the direct road (no table lookup)";
    if (run.timing.hazard_ms > 0) {
      o << "; before it, the hazard check's passes on the GPU: " << run.timing.hazard_ms << " ms";
      if (run.timing.hazard_lean) o << " (its build at 32 registers)";
    }
    o << "\n";
  }
  o << "output: " << (run.check.ok ? "correct" : "WRONG") << " (" << run.check.message << ")";
  if (WrongOnPurpose(run)) o << ": this variant races on purpose, and the hazards above name it";
  o << "\n";
  return o.str();
}

//-----------------------------------------------------------------------------
// [SECTION] A program's run
//-----------------------------------------------------------------------------

// Diagnostics as JSON, each named by its file (the main file's when it names none).
// The preset a run was modeled under (the default's limits when its name is unknown).
DevicePreset PresetFor(const LessonRun& run) {
  auto p = FindDevicePreset(PresetOf(run));
  return p.ok() ? *p : DevicePreset{};
}

nlohmann::json DiagnosticsJson(const std::vector<ProgramDiagnostic>& ds, const std::string& main) {
  nlohmann::json a = nlohmann::json::array();
  for (const ProgramDiagnostic& d : ds)
    a.push_back({{"line", d.line},
                 {"column", d.column},
                 {"message", d.message},
                 {"file", d.file.empty() ? main : d.file}});
  return a;
}

nlohmann::json LaunchJson(const ProgramRecord& p, const LaunchTrace& t) {
  const std::string file = p.KernelFile(t.kernel);
  nlohmann::json buffers = nlohmann::json::array();
  for (const BufferInfo& x : t.buffers) buffers.push_back({{"name", x.name}, {"bytes", x.bytes}});
  nlohmann::json j = {{"kernel", t.kernel},
                      {"file", file.empty() ? p.file : file},
                      {"grid", Dim(t.grid)},
                      {"block", Dim(t.block)},
                      {"shared_bytes", t.shared_bytes},
                      {"buffers", std::move(buffers)},
                      {"sites", SitesJson(t)},
                      {"barriers", BarriersJson(t)},
                      {"warp_ops", WarpOpsJson(t)},
                      {"records",
                       {{"accesses", t.stats.access_records},
                        {"barriers", t.stats.barrier_records},
                        {"kept_blocks", t.blocks.size()}}},
                      {"hazards", HazardsJson(t.hazards)}};
  if (t.resources.known()) j["resources"] = ResourcesJson(t.resources);
  if (!t.engine.empty()) j["engine"] = t.engine;
  if (!t.engine_reason.empty()) j["engine_reason"] = t.engine_reason;
  if (!t.origin.empty()) j["origin"] = t.origin;
  j["coverage"] = CoverageJson(t);
  if (t.ClusterBlocks() > 1)  // from rank (row) to rank (column), the whole grid
    j["cluster"] = {{"dims", Dim(t.cluster)},
                    {"bytes", t.stats.cluster_bytes},
                    {"accesses", t.stats.cluster_accesses},
                    {"blocks", t.cluster_kept_only ? t.cluster_blocks_counted : t.grid.count()}};
  return j;
}

// A program's run (`warpscope-cli run --file`, or its trace): every launch with its sites, what
// it printed, and how it ended.
nlohmann::json ProgramJson(const LessonRun& run) {
  const ProgramRecord& p = *run.program;
  nlohmann::json j;
  j["program"] = p.file;
  j["backend"] = run.backend;
  j["device"] = run.device;
  j["ok"] = p.ok();
  if (!p.ok()) {
    j["failure"] = p.failure;
    j["stage"] = ToString(p.stage);
  }
  if (run.capture)
    j["capture"] = {{"file", run.capture->file}, {"captured_at", run.capture->captured_at}};
  j["errors"] = DiagnosticsJson(p.errors, p.file);
  j["warnings"] = DiagnosticsJson(p.warnings, p.file);
  // One row per kernel over every launch, slowest first (kernel_table.h); the kernels the
  // program defines, launched or not, in `kernels_defined`.
  const DevicePreset preset = PresetFor(run);
  j["kernels"] = KernelsJson(KernelTable(run, preset), run);
  j["time_model"] = ModelNote(preset);
  const Roofline roof = RooflineOf(preset);
  j["roofline"] = {{"preset", preset.name},
                   {"dram_gb_per_s", roof.bandwidth_gbps},
                   {"fp32_peak_gflops", roof.peak_gflops},
                   {"ridge_flop_per_byte", roof.ridge()}};
  j["kernels_defined"] = p.kernels;
  j["kernel_files"] = nlohmann::json::array();
  for (const ProgramKernel& k : p.kernel_files)
    j["kernel_files"].push_back({{"kernel", k.name}, {"file", k.file}, {"line", k.line}});
  j["files"] = nlohmann::json::array();
  for (const auto& [name, text] : p.files) j["files"].push_back(name);
  j["launches"] = nlohmann::json::array();
  for (const LaunchTrace& t : run.launches) j["launches"].push_back(LaunchJson(p, t));
  // Valid UTF-8 whatever the program printed, and a note when that changed it or it was cut.
  const PrintedText printed = ProgramStdout(p);
  j["stdout"] = printed.text;
  if (!printed.note.empty()) j["stdout_note"] = printed.note;
  const PrintedText err = ProgramStderr(p);
  j["stderr"] = err.text;
  if (!err.note.empty()) j["stderr_note"] = err.note;
  // On a GPU: each kernel's time in the run as written (CUPTI), and the global bytes the recorded
  // launches moved over their sum.
  if (run.backend == "cuda") {
    j["kernel_times"] = nlohmann::json::array();
    for (const ProgramRecord::KernelTime& t : p.kernel_times)
      j["kernel_times"].push_back({{"kernel", t.kernel}, {"ms", t.ms}});
    if (!p.kernel_times_missing.empty()) j["kernel_times_missing"] = p.kernel_times_missing;
    // The GPU's own counters are each kernel's row's (kernels[].gpu_counters); why none, here.
    if (!p.kernel_counters_missing.empty())
      j["kernel_counters_missing"] = p.kernel_counters_missing;
    if (!p.counters_unavailable.empty()) j["counters_unavailable"] = p.counters_unavailable;
    for (const ProgramRecord::NotCounted& k : p.kernels_not_counted)
      j["kernels_not_counted"].push_back({{"kernel", k.kernel}, {"why", k.why}});
    const MeasuredBandwidth bw = ProgramBandwidth(run);
    if (bw.missing.empty())
      j["measured_bandwidth"] = {{"gb_per_s", bw.gbps}, {"ms", bw.ms}, {"bytes", bw.bytes}};
  }
  // The program's own status (128 + the signal that ended it); null when it never ran.
  j["exit_code"] = p.ran ? nlohmann::json(p.exit_code) : nlohmann::json(nullptr);
  if (p.signal != 0) j["signal"] = p.signal;
  j["timing"] = {{"rewrite_ms", RoundForJson(p.timing.rewrite_ms)},
                 {"compile_ms", RoundForJson(p.timing.compile_ms)},
                 {"compile_cached", p.timing.compile_cached},
                 {"run_ms", RoundForJson(p.timing.run_ms)}};
  return j;
}

std::string ProgramText(const LessonRun& run, bool every_launch) {
  const ProgramRecord& p = *run.program;
  std::ostringstream o;
  o << "program " << p.file << " on " << (run.backend == "cuda" ? run.device : "the emulator");
  if (run.capture) o << " (captured " << run.capture->captured_at << ")";
  o << ": " << run.launches.size() << (run.launches.size() == 1 ? " launch" : " launches") << "\n";
  for (const std::string& n : p.Notes()) o << "  note: " << n << "\n";
  if (!run.launches.empty()) {
    const DevicePreset preset = PresetFor(run);
    o << "\n" << KernelsText(KernelTable(run, preset), run, preset);
  }
  if (every_launch)
    o << LaunchesText(run.launches, p.file);
  else if (!run.launches.empty())
    o << "  (each launch's sites, barriers and hazards: add --launches)\n";
  if (run.backend == "cuda") {
    const MeasuredBandwidth bw = ProgramBandwidth(run);
    if (bw.missing.empty())
      o << "measured (the program as written, CUPTI): " << bw.kernels
        << (bw.kernels == 1 ? " kernel, " : " kernels, ") << FormatDuration(bw.ms)
        << " on the GPU, " << FormatNumber(bw.gbps) << " GB/s of the bytes its threads moved\n";
    else
      o << "not measured: " << bw.missing << "\n";
  }
  // Its control characters shown, not obeyed by the terminal (printed_text.h).
  if (!p.stdout_text.empty() || p.stdout_cut_bytes > 0) {
    const PrintedText printed = ProgramStdout(p);
    o << "\nthe program printed:\n" << VisibleControls(printed.text);
    if (!printed.text.empty() && printed.text.back() != '\n') o << "\n";
    if (!printed.note.empty()) o << "(" << printed.note << ")\n";
  }
  const PrintedText err = ProgramStderr(p);
  if (!err.text.empty() || p.stderr_cut_bytes > 0) {
    o << "\nthe program wrote on stderr:\n" << VisibleControls(err.text);
    if (!err.text.empty() && err.text.back() != '\n') o << "\n";
    if (!err.note.empty()) o << "(" << err.note << ")\n";
  }
  if (p.ran && p.ok() && p.exit_code != 0)
    o << "\nthe program exited with status " << p.exit_code
      << " (its own: exit() or main's return; the launches above are those it made)\n";
  return o.str();  // a failure goes to stderr (warpscope-cli) or the app's source view
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Either, and what the CLI's exit status and replay line need
//-----------------------------------------------------------------------------

namespace {

const VariantSpec* VariantOf(const LessonRun& run) {
  if (run.info == nullptr || run.program) return nullptr;
  for (const VariantSpec& v : run.info->variants) {
    if (v.name == run.variant) return &v;
  }
  return nullptr;
}

}  // namespace

nlohmann::json RunJson(const LessonRun& run) {
  nlohmann::json j = run.program ? ProgramJson(run) : LessonJson(run);
  j["warpscope"] = {{"version", Build().version}, {"commit", Build().commit}};
  if (run.what_if)
    j["what_if"] = {{"spec", run.what_if->spec},       {"label", run.what_if->label},
                    {"formula", run.what_if->formula}, {"code", run.what_if->code},
                    {"scope", run.what_if->scope},     {"whole_grid", run.what_if->whole_grid},
                    {"launch", run.what_if->launch},   {"kernel", run.what_if->kernel},
                    {"where", run.what_if->where}};
  return j;
}

std::string RunText(const LessonRun& run, bool every_launch) {
  std::string text = run.program ? ProgramText(run, every_launch) : LessonText(run);
  if (run.what_if) {
    const WhatIfNote& w = *run.what_if;
    text = "WHAT-IF: " + w.label + (run.program ? " in " + w.where : std::string()) +
           " (the records re-addressed; the kernel did not run so)\n" + "  layout: " + w.formula +
           "\n  code:   " + w.code + "\n  over:   " + w.scope + "\n" + text;
  }
  return text;
}

bool WrongOnPurpose(const LessonRun& run) {
  const VariantSpec* v = VariantOf(run);
  return !run.check.ok && v != nullptr && v->races && !run.launches.empty() &&
         run.main_launch().hazards.Total() > 0;
}

std::string ReplayCommand(const LessonRun& run) {
  const VariantSpec* v = VariantOf(run);
  if (v == nullptr) return {};
  std::string cmd = "warpscope-cli run " + run.lesson + " --variant " + run.variant;
  for (const auto& [name, value] : run.params) {
    if (std::find(v->ignores.begin(), v->ignores.end(), name) != v->ignores.end()) continue;
    cmd += " --set " + name + "=" + std::to_string(value);
  }
  return cmd;
}

MeasuredBandwidth ProgramBandwidth(const LessonRun& run) {
  MeasuredBandwidth bw;
  const ProgramRecord* p = run.program ? &*run.program : nullptr;
  if (run.backend != "cuda") {
    bw.missing = "it needs a GPU; this run was on the emulator";
  } else if (p == nullptr || p->kernel_times.empty()) {
    bw.missing = p != nullptr && !p->kernel_times_missing.empty() ? p->kernel_times_missing
                                                                  : "the kernels were not timed";
  } else if (p->kernel_times.size() != run.launches.size()) {
    const std::size_t n = p->kernel_times.size();
    bw.missing = "the run as written launched " + std::to_string(n) +
                 (n == 1 ? " kernel" : " kernels") + " and the recorded run " +
                 std::to_string(run.launches.size());
  } else {
    for (const ProgramRecord::KernelTime& t : p->kernel_times) bw.ms += t.ms;
    for (const LaunchTrace& t : run.launches) bw.bytes += GlobalTrafficOf(t.sites, t.stats).bytes;
    bw.kernels = run.launches.size();
    bw.gbps = GlobalTraffic{bw.bytes, 0, 0}.GigabytesPerSecond(bw.ms);
    if (bw.ms <= 0) bw.missing = "the kernels took no measurable time";
  }
  return bw;
}

}  // namespace ws
