#include "warpscope/trace/run_compare.h"

#include <map>
#include <utility>

#include "warpscope/trace/units.h"

namespace ws {
namespace {

const char* Arrow() {
  return " \u2192 ";
}

// Per (space, op): the sites' stats summed.
std::map<std::pair<MemorySpace, AccessOp>, SiteStats> ByKind(const LessonRun& run) {
  std::map<std::pair<MemorySpace, AccessOp>, SiteStats> kinds;
  if (!run.has_launch()) return kinds;
  const LaunchTrace& t = run.main_launch();
  for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i)
    kinds[{t.sites[i].space, t.sites[i].op}].Merge(t.stats.sites[i]);
  return kinds;
}

std::string Plural(AccessOp op) {
  return op == AccessOp::kLoad ? "loads" : op == AccessOp::kStore ? "stores" : "atomics";
}

}  // namespace

std::string DescribeRun(const LessonRun& run) {
  std::string text = run.lesson;
  if (run.program) text = run.program->file;
  if (!run.variant.empty()) text += " " + run.variant;
  std::string params;
  for (const auto& [name, value] : run.params) {
    const ParamSpec* spec = run.info != nullptr ? run.info->FindParam(name) : nullptr;
    const bool named =
        spec != nullptr && value >= 0 && static_cast<std::size_t>(value) < spec->choices.size();
    params += (params.empty() ? "" : " ") + name + "=" +
              (named ? spec->choices[static_cast<std::size_t>(value)] : std::to_string(value));
  }
  if (!params.empty()) text += " (" + params + ")";
  text += run.capture             ? ", trace from " + run.device
          : run.backend == "cuda" ? ", " + run.device
                                  : ", emulator";
  if (run.what_if) text += "; what-if: " + run.what_if->label + " (not run)";
  return text;
}

std::vector<std::string> CompareRuns(const LessonRun& a, const LessonRun& b) {
  std::vector<std::string> lines;
  const auto ka = ByKind(a), kb = ByKind(b);
  std::map<std::pair<MemorySpace, AccessOp>, int> kinds;
  for (const auto& [k, s] : ka) kinds[k] = 0;
  for (const auto& [k, s] : kb) kinds[k] = 0;
  for (const auto& [k, unused] : kinds) {
    const auto ia = ka.find(k), ib = kb.find(k);
    const std::string what = std::string(ToString(k.first)) + " " + Plural(k.second) + ": ";
    if (k.first == MemorySpace::kShared) {
      // The worst request's n-way conflict (1-way: none).
      auto ways = [](const auto& it, const auto& end) {
        return it == end || it->second.requests == 0
                   ? std::string("none")
                   : std::to_string(it->second.bank_conflict_max) + "-way";
      };
      const std::string wa = ways(ia, ka.end()), wb = ways(ib, kb.end());
      if (wa != wb) lines.push_back(what + wa + Arrow() + wb + " bank conflicts");
    } else {
      auto spr = [](const auto& it, const auto& end) {
        return it == end || it->second.requests == 0 ? std::string("none")
                                                     : FormatNumber(it->second.SectorsPerRequest());
      };
      const std::string sa = spr(ia, ka.end()), sb = spr(ib, kb.end());
      if (sa != sb) lines.push_back(what + sa + Arrow() + sb + " sectors per request");
    }
  }
  if (a.has_launch() && b.has_launch()) {
    const LaunchTrace &ta = a.main_launch(), &tb = b.main_launch();
    // Divergence: warp requests made with some of the warp's lanes switched off.
    auto divergent = [](const LaunchTrace& t) {
      std::uint64_t n = 0, all = 0;
      for (const SiteStats& s : t.stats.sites) {
        n += s.divergent_requests;
        all += s.requests;
      }
      return std::make_pair(n, all);
    };
    const auto da = divergent(ta), db = divergent(tb);
    if (da.first != db.first)
      lines.push_back("requests with idle lanes: " + FormatNumber(static_cast<double>(da.first)) +
                      " of " + FormatNumber(static_cast<double>(da.second)) + Arrow() +
                      FormatNumber(static_cast<double>(db.first)) + " of " +
                      FormatNumber(static_cast<double>(db.second)));
    if (ta.shared_bytes != tb.shared_bytes)
      lines.push_back("shared memory: " + FormatNumber(ta.shared_bytes) + " B" + Arrow() +
                      FormatNumber(tb.shared_bytes) + " B per block");
    if (ta.barrier_sites.size() != tb.barrier_sites.size())
      lines.push_back("__syncthreads() in the kernel: " + std::to_string(ta.barrier_sites.size()) +
                      Arrow() + std::to_string(tb.barrier_sites.size()));
  }
  if (a.timing.kind == b.timing.kind && a.timing.kind != "none" && a.timing.ms > 0 &&
      b.timing.ms > 0 && a.timing.timed_at == b.timing.timed_at &&
      FormatDuration(a.timing.ms) != FormatDuration(b.timing.ms)) {
    const double ratio = a.timing.ms / b.timing.ms;
    char times[32];
    std::snprintf(times, sizeof times, "%.2fx", ratio >= 1 ? ratio : 1 / ratio);
    lines.push_back("time: " + FormatDuration(a.timing.ms) + Arrow() + FormatDuration(b.timing.ms) +
                    " (" + a.timing.kind +
                    (a.timing.timed_at.empty() ? "" : ", at " + a.timing.timed_at) + "; " + times +
                    (ratio >= 1 ? " faster" : " slower") + ")");
  }
  if (a.has_launch() && b.has_launch() && a.check.ok != b.check.ok)
    lines.push_back(std::string("output: ") + (a.check.ok ? "correct" : "WRONG") + Arrow() +
                    (b.check.ok ? "correct" : "WRONG"));
  return lines;
}

}  // namespace ws
