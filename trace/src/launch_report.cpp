// A launch's sites, barriers and warp meetings as JSON and as text, and what its figures cover
// (run_report.h; split from run_report.cpp, which writes the runs around them).
#include "warpscope/trace/run_report.h"

#include <algorithm>
#include <sstream>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/units.h"

namespace ws {

nlohmann::json SitesJson(const LaunchTrace& t) {
  nlohmann::json sites = nlohmann::json::array();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    nlohmann::json o = {{"id", i},
                        {"line", s.line},
                        {"column", s.column},
                        {"file", s.file},
                        {"code", s.code},
                        {"space", ToString(s.space)},
                        {"op", ToString(s.op)},
                        {"size", s.size},
                        {"requests", st.requests},
                        {"bytes", st.bytes}};
    // Every site carries every figure; those that do not apply to its space are null.
    const bool shared = s.space == MemorySpace::kShared;
    const nlohmann::json na = nullptr;
    o["sectors"] = shared ? na : nlohmann::json(st.sectors);
    o["ideal_sectors"] = shared ? na : nlohmann::json(st.ideal_sectors);
    o["sectors_per_request"] = shared ? na : nlohmann::json(RoundForJson(st.SectorsPerRequest()));
    o["lines128"] = shared ? na : nlohmann::json(st.lines128);
    o["cc10_transactions"] = shared ? na : nlohmann::json(st.cc10_transactions);
    o["cc12_transactions"] = shared ? na : nlohmann::json(st.cc12_transactions);
    o["wavefronts"] = shared ? nlohmann::json(st.wavefronts) : na;
    o["ideal_wavefronts"] = shared ? nlohmann::json(st.ideal_wavefronts) : na;
    // As Nsight Compute counts them: the wavefronts beyond those the access width needs.
    o["bank_conflicts"] = shared ? nlohmann::json(st.wavefronts - st.ideal_wavefronts) : na;
    if (s.async_copy) o["async_copy"] = true;  // an asynchronous copy's write, where it lands
    // Either side of a bulk copy through the TMA: no LSU request (its sectors the TMA's).
    if (s.bulk_copy) o["bulk_copy"] = true;
    // Served wider by the compiled code (its SASS by line): the bytes a lane's instruction
    // moves, and the source's requests folded into another's or left as the source's.
    if (CompiledRunsMet(s, st)) {
      o["compiled_width"] = s.compiled_width;
      o["source_requests"] = st.requests + st.compiled_parts;
      o["compiled_mixed"] = st.compiled_mixed;
    }
    if (!s.fragment.empty()) o["fragment"] = s.fragment;  // a wmma fragment's load or store
    o["bank_conflict_max"] = shared ? nlohmann::json(st.bank_conflict_max) : na;
    o["bank_conflict_avg"] = shared ? nlohmann::json(RoundForJson(st.BankConflictAvg())) : na;
    o["halfwarp16_conflict_max"] = shared ? nlohmann::json(st.halfwarp16_conflict_max) : na;
    if (s.op == AccessOp::kAtomic) o["atomic_conflict_max"] = st.atomic_conflict_max;
    o["divergent_requests"] = st.divergent_requests;
    sites.push_back(o);
  }
  return sites;
}

nlohmann::json BarriersJson(const LaunchTrace& t) {
  nlohmann::json barriers = nlohmann::json::array();
  for (std::size_t i = 0; i < t.barrier_sites.size(); ++i) {
    const BarrierStats& b = t.stats.barriers[i];
    barriers.push_back({{"line", t.barrier_sites[i].line},
                        {"file", t.barrier_sites[i].file},
                        {"code", t.barrier_sites[i].code},
                        {"tile", t.barrier_sites[i].tile},
                        {"instances", b.instances},
                        {"max_skew", b.max_skew},
                        {"mean_wait", RoundForJson(b.MeanWait())},
                        {"time_unit", t.time_unit}});
    // The skew of the kept blocks only (a GPU's blocks not kept counted their passes).
    if (t.barrier_skew_kept_only) barriers.back()["skew_blocks"] = t.barrier_skew_blocks;
  }
  return barriers;
}

nlohmann::json WarpOpsJson(const LaunchTrace& t) {
  nlohmann::json ops = nlohmann::json::array();
  for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i) {
    const WarpOpSite& w = t.warp_op_sites[i];
    ops.push_back({{"line", w.line},
                   {"file", w.file},
                   {"code", w.code},
                   {"kind", ToString(w.kind)},
                   {"meetings", i < t.warp_op_counts.size() ? t.warp_op_counts[i] : 0}});
  }
  return ops;
}

// (launch.h) What a launch's figures cover, said where they are shown.
std::string LaunchTrace::Coverage() const {
  if (uncovered_blocks == 0) return "";
  const auto n = [](std::uint64_t v) { return FormatNumber(static_cast<double>(v)); };
  const std::uint64_t all = grid.count(), out = std::min(uncovered_blocks, all);
  if (uncovered_requests_counted)
    return "the figures cover " + n(all - out) + " of " + n(all) +
           " blocks in full: the record budget left " + n(out) +
           (out == 1 ? " block's" : " blocks'") +
           " warps no room on the GPU for their barriers, partial-warp requests and warp-level "
           "meetings, whose figures miss them; their whole-warp requests are counted "
           "(--record-budget; a smaller grid)";
  return "the figures cover " + n(all - out) + " of " + n(all) + " blocks: the record budget " +
         "left " + n(out) + (out == 1 ? " block's" : " blocks'") +
         " warps no room on the GPU (--record-budget; a smaller grid)";
}

// Every launch of a program with its sites (line:column), barriers and warp-level intrinsics.
std::string LaunchesText(const std::vector<LaunchTrace>& launches, const std::string& main_file) {
  std::ostringstream o;
  std::size_t n = 0;
  for (const LaunchTrace& t : launches) {
    o << "\nlaunch " << ++n << ": " << t.kernel << " <<<(" << t.grid.x << "," << t.grid.y << ","
      << t.grid.z << "), (" << t.block.x << "," << t.block.y << "," << t.block.z << ")>>>";
    if (t.shared_bytes > 0) o << ", " << t.shared_bytes << " B shared";
    if (!t.origin.empty()) o << ", from " << t.origin;
    o << "\n";
    if (t.uncovered_blocks > 0) o << "  " << t.Coverage() << "\n";
    if (t.ClusterBlocks() > 1) o << "  " << ClusterText(t) << "\n";
    if (t.resources.known())
      o << "  compiler: " << ResourceSummary(t.resources) << " (" << t.resources.source << ")\n";
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      const SiteStats& st = t.stats.sites[i];
      // A site in another of the program's files is named by it ("kern.cuh:3:63").
      if (!main_file.empty() && !s.file.empty() && s.file != main_file)
        o << "  " << s.file << ":" << s.line << ":" << s.column << " ";
      else
        o << "  line " << s.line << ":" << s.column << " ";
      o << ToString(s.space) << " " << ToString(s.op) << " " << int(s.size) << " B: ";
      if (s.bulk_copy && s.space == MemorySpace::kShared)
        o << "a bulk copy's write through the TMA, " << st.accesses << " pieces, no wavefront";
      else if (s.bulk_copy)
        o << "a bulk copy's read through the TMA, " << st.accesses << " pieces, " << st.sectors
          << " sectors, no LSU request";
      else
        o << st.requests << " requests, ";
      if (s.bulk_copy) {
      } else if (s.space == MemorySpace::kShared)
        o << st.wavefronts << " wavefronts (worst " << st.bank_conflict_max << "-way)";
      else
        o << st.sectors << " sectors (" << RoundForJson(st.SectorsPerRequest()) << " per request)";
      if (CompiledRunsMet(s, st)) o << ", " << CompiledWidthText(s, st);
      o << "   " << s.code << "\n";
    }
    for (std::size_t i = 0; i < t.barrier_sites.size(); ++i) {
      const BarrierSite& b = t.barrier_sites[i];
      o << "  barrier "
        << (!main_file.empty() && !b.file.empty() && b.file != main_file ? b.file + ":"
                                                                         : std::string("line "))
        << b.line << ": " << t.stats.barriers[i].instances << " instances"
        << (b.tile != 0 ? ", the sync of a tile of " + std::to_string(b.tile) + " threads" : "")
        << "\n";
    }
    for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i) {
      o << "  warp line " << t.warp_op_sites[i].line << ": " << ToString(t.warp_op_sites[i].kind)
        << ", " << (i < t.warp_op_counts.size() ? t.warp_op_counts[i] : 0) << " warp meetings   "
        << t.warp_op_sites[i].code << "\n";
    }
    // Races, indented under the launch (HazardsText puts one group per line).
    std::string h = "hazards: " + HazardsText(t.hazards, t);
    for (std::size_t at = h.find('\n'); at != std::string::npos && at + 1 < h.size();
         at = h.find('\n', at + 3))
      h.insert(at + 1, "  ");
    o << "  " << h << (h.ends_with('\n') ? "" : "\n");
  }
  return o.str();
}

}  // namespace ws
