// What-if layouts (what_if.h), part 3: a what-if applied to a run. The main launch's kept records
// are re-addressed (or merged into wider accesses), and its figures derived from them again with
// the same analysis the backends run block by block (AnalyzeBlock).
#include <algorithm>
#include <map>

#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/units.h"
#include "warpscope/trace/what_if.h"

namespace ws {
namespace {

// The launch's figures over its kept blocks, from their records.
LaunchStats Reanalyze(const LaunchTrace& t) {
  LaunchStats stats;
  stats.Resize(t.sites.size(), t.barrier_sites.size());
  const auto threads = static_cast<std::uint32_t>(t.block.count());
  for (const BlockRecords& b : t.blocks) {
    std::vector<AccessRecord> records = b.accesses;
    AnalyzeBlock(records, b.barriers, t.sites, t.buffers, threads, &stats);
  }
  return stats;
}

std::uint64_t GlobalSectors(const LaunchTrace& t, const LaunchStats& s) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < t.sites.size() && i < s.sites.size(); ++i) {
    if (t.sites[i].space != MemorySpace::kShared) n += s.sites[i].sectors;
  }
  return n;
}

// Element (i, j)'s accesses moved where the layout puts it; others keep their offset.
std::uint32_t Readdress(const WhatIf& w, std::uint32_t offset) {
  const WhatIfArray& a = w.array;
  if (offset < a.base) return offset;
  const std::uint32_t rel = offset - a.base, e = rel / a.elem, byte = rel % a.elem;
  const std::uint32_t i = e / a.row_pitch(), j = e % a.row_pitch();
  if (i >= a.rows || j >= a.cols) return offset;
  const std::uint64_t moved = a.base + PlaceOf(w, i, j) * a.elem + byte;
  return moved > UINT32_MAX ? offset : static_cast<std::uint32_t>(moved);
}

// A site's accesses by thread, in iteration order: (thread) -> indices into b.accesses.
std::map<std::uint16_t, std::vector<std::size_t>> ByThread(const BlockRecords& b,
                                                           std::uint16_t site) {
  std::map<std::uint16_t, std::vector<std::size_t>> by;
  for (std::size_t k = 0; k < b.accesses.size(); ++k) {
    if (b.accesses[k].site == site) by[b.accesses[k].thread].push_back(k);
  }
  for (auto& [thread, list] : by) {
    std::sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) {
      return b.accesses[x].iteration < b.accesses[y].iteration;
    });
  }
  return by;
}

// Whether every thread's accesses at `site` come `n` at a time as n consecutive elements starting
// on a multiple of `width` bytes (in the same barrier interval): "" if so, else where not.
std::string CannotMerge(const LaunchTrace& t, std::uint16_t site, std::uint32_t width) {
  const SiteInfo& info = t.sites[site];
  const std::uint32_t n = width / info.size;
  for (const BlockRecords& b : t.blocks) {
    for (const auto& [thread, list] : ByThread(b, site)) {
      const std::string at =
          "thread " + std::to_string(thread) + " of block " + std::to_string(b.block);
      if (list.size() % n != 0)
        return at + " makes " + std::to_string(list.size()) + " access" +
               (list.size() == 1 ? "" : "es") + ", not a multiple of " + std::to_string(n);
      for (std::size_t g = 0; g < list.size(); g += n) {
        const AccessRecord& head = b.accesses[list[g]];
        if (head.offset % width != 0)
          return at + " starts a group at byte " + std::to_string(head.offset) +
                 ", not on a multiple of " + std::to_string(width);
        for (std::uint32_t m = 1; m < n; ++m) {
          const AccessRecord& r = b.accesses[list[g + m]];
          if (r.offset != head.offset + m * info.size || r.epoch != head.epoch)
            return at + " reads byte " + std::to_string(head.offset) + ", then " +
                   std::to_string(r.offset) + ": not consecutive elements";
        }
      }
    }
  }
  return "";
}

// Each thread's accesses at `site`, n at a time, as one access of `width` bytes.
void MergeSite(std::uint16_t site, std::uint32_t width, LaunchTrace* t) {
  const std::uint32_t n = width / t->sites[site].size;
  for (BlockRecords& b : t->blocks) {
    std::vector<char> drop(b.accesses.size(), 0);
    for (const auto& [thread, list] : ByThread(b, site)) {
      for (std::size_t g = 0; g < list.size(); g += n) {
        for (std::uint32_t m = 1; m < n; ++m) drop[list[g + m]] = 1;
        b.accesses[list[g]].iteration = static_cast<std::uint32_t>(g / n);
      }
    }
    std::size_t out = 0;
    const bool values = b.values.size() == b.accesses.size();
    for (std::size_t k = 0; k < b.accesses.size(); ++k) {
      if (drop[k]) continue;
      if (values) b.values[out] = b.values[k];
      b.accesses[out++] = b.accesses[k];
    }
    b.accesses.resize(out);
    if (values) b.values.resize(out);
  }
  t->sites[site].size = static_cast<std::uint8_t>(width);
}

// The vector what-if: every site of the array whose accesses can be read `width` bytes at a time
// is; the others keep their width and `left` says why. Refused when no site can be.
Status MergeVector(const WhatIf& w, LaunchTrace* t, std::string* left) {
  std::string first_reason;
  int merged = 0;
  for (std::uint16_t s : w.array.sites) {
    const std::string why = CannotMerge(*t, s, w.width);
    const std::string where =
        "line " + std::to_string(t->sites[s].line) + " " + ToString(t->sites[s].op);
    if (why.empty()) {
      MergeSite(s, w.width, t);
      ++merged;
    } else {
      *left += (left->empty() ? "" : "; ") + where + " left as written (" + why + ")";
      if (first_reason.empty()) first_reason = where + ": " + why;
    }
  }
  if (merged == 0)
    return Status::Error("no access to " + w.array.name + " can be read " +
                         std::to_string(w.width) + " bytes at a time: " + first_reason);
  return {};
}

// The code to write: the declaration (pad), else each line's index expression, once per line.
std::string CodeOf(const WhatIf& w, const LaunchTrace& t) {
  std::string code;
  std::vector<std::uint32_t> lines;
  for (std::uint16_t s : w.array.sites) {
    const SiteInfo& site = t.sites[s];
    if (w.kind == WhatIfKind::kVector && site.size != w.width) continue;  // left as written
    if (std::find(lines.begin(), lines.end(), site.line) != lines.end()) continue;
    lines.push_back(site.line);
    if (w.kind == WhatIfKind::kPad) return ProposedCode(w, site);
    code += (code.empty() ? "" : "; ") + std::string("line ") + std::to_string(site.line) + ": " +
            ProposedCode(w, site);
  }
  return code;
}

std::string Scope(const LaunchTrace& t, bool whole) {
  const std::string n = FormatNumber(static_cast<double>(t.blocks.size()));
  if (whole) return "the whole grid (" + n + (t.blocks.size() == 1 ? " block)" : " blocks)");
  return "the " + n + " kept block" + (t.blocks.size() == 1 ? "" : "s") + " of " +
         FormatNumber(static_cast<double>(t.grid.count())) + " (the others' records were not kept)";
}

}  // namespace

Result<LessonRun> ApplyWhatIf(const LessonRun& run, const WhatIf& w) {
  if (Status s = CheckWhatIf(w); !s.ok()) return s;
  if (!run.has_launch()) return Status::Error("what-if: the run has no kernel launch");
  if (run.what_if)
    return Status::Error("what-if: the run is already a what-if (" + run.what_if->label +
                         "); apply it to the run as written");
  // The launch the what-if was parsed against (a kernel's, when the spec named one).
  const std::size_t index = w.launch < run.launches.size() ? w.launch : run.main_launch_index();
  if (!run.program && index != run.main_launch_index())
    return Status::Error("what-if: a lesson's what-if applies to the launch its views show");
  if (run.launches[index].blocks.empty())
    return Status::Error("what-if: launch " + std::to_string(index + 1) + " (" +
                         run.launches[index].kernel + ") kept no block's records to re-address");
  LessonRun out = run;
  if (out.program) out.program->launch = index;  // the views show the launch it re-addressed
  LaunchTrace& t = out.launches[index];
  std::vector<char> mine(t.sites.size(), 0);
  for (std::uint16_t s : w.array.sites) {
    if (s >= t.sites.size())
      return Status::Error("what-if: site " + std::to_string(s) + " is not in the launch");
    mine[s] = 1;
  }
  // A layout the compiled code was not made for: the array's accesses as the source makes them,
  // before and after (nvcc's wide loads of the written layout need not survive a new one).
  for (std::size_t s = 0; s < t.sites.size(); ++s) {
    if (mine[s]) t.sites[s].compiled_width = 0;
  }
  const LaunchStats before = Reanalyze(t);
  const std::pair<std::uint64_t, bool> before_flops = {t.stats.flops, t.stats.flops_counted};
  const std::uint64_t before_clock = t.stats.thread_clock;
  std::string left;
  if (w.kind == WhatIfKind::kVector) {
    if (Status s = MergeVector(w, &t, &left); !s.ok())
      return Status::Error("what-if " + Describe(w) + ": " + s.message());
  } else {
    for (BlockRecords& b : t.blocks) {
      for (AccessRecord& r : b.accesses) {
        if (mine[r.site]) r.offset = Readdress(w, r.offset);
      }
    }
  }
  t.stats = Reanalyze(t);
  t.stats.flops = before_flops.first;  // a layout moves no arithmetic
  t.stats.flops_counted = before_flops.second;
  t.stats.thread_clock = before_clock;  // the run's threads' clocks: a layout is not re-timed
  t.cache_replays.clear();
  const bool whole = t.blocks.size() == t.grid.count();

  // The emulator's time models global sectors: scaled by the what-if's; a measured time is of
  // the code as written.
  const std::uint64_t was = GlobalSectors(t, before), now = GlobalSectors(t, t.stats);
  if (out.program && out.timing.kind == "modeled") {
    // A program's time is its kernels' summed (kernel_table.h): made again with this launch's
    // new figures, the others' as they ran.
    auto preset = FindDevicePreset(PresetOf(out));
    out.timing.ms = 0;
    for (const KernelRow& k : KernelTable(out, preset.ok() ? *preset : DevicePreset{}))
      out.timing.ms += k.total_ms();
    out.timing.note += "; what-if: this launch's time modeled again from its new figures";
  } else if (out.timing.kind == "modeled" && was > 0 && was != now) {
    const double k = static_cast<double>(now) / static_cast<double>(was);
    out.timing.ms *= k;
    out.timing.own_ms *= k;
    out.timing.note += "; what-if: scaled by its global sectors (" +
                       FormatNumber(static_cast<double>(was)) + " -> " +
                       FormatNumber(static_cast<double>(now)) + ")";
  } else if (out.timing.kind == "measured") {
    out.timing.note += "; measured for the code as written (a what-if changes no measurement)";
  }
  // The lesson's own figures are of the code as written.
  out.figures = nullptr;

  WhatIfNote note;
  note.spec = SpecOf(w);
  note.label = Describe(w);
  note.formula = FormulaOf(w);
  note.code = CodeOf(w, t);
  note.scope = Scope(t, whole) + (left.empty() ? "" : "; " + left);
  note.whole_grid = whole;
  note.launch = index;
  note.kernel = t.kernel;
  note.where = "launch " + std::to_string(index + 1) + " of " +
               std::to_string(run.launches.size()) + " (" + t.kernel + ")";
  out.what_if = std::move(note);
  return out;
}

Result<LessonRun> ApplyWhatIf(const LessonRun& run, const std::string& spec) {
  Result<WhatIf> w = ParseWhatIf(spec, run);
  if (!w.ok()) return w.status();
  return ApplyWhatIf(run, *w);
}

}  // namespace ws
