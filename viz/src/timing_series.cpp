// The timing view's model (timing_series.h): points from runs, series from a lesson's history,
// the axes' ticks, labels and limits.
#include "timing_series.h"

#include <implot.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

namespace ws::timing_view {

bool OwnSize(const LessonInfo* info, const std::string& x) {
  return info != nullptr && info->timed_size.params.count(x) > 0;
}

TimingPoint MakePoint(const LessonRun& run) {
  TimingPoint p;
  p.variant = run.variant;
  p.backend = run.backend;
  p.kind = run.timing.kind.empty() ? "unknown" : run.timing.kind;
  p.params = run.params;
  p.ms = run.timing.ms;
  const LaunchTrace& t = run.main_launch();
  const GlobalTraffic g = GlobalTrafficOf(t.sites, t.stats);
  // A time taken at a larger size (Timing::timed_at) moved work_scale times the run's bytes.
  if (p.ms > 0) p.gbps = g.GigabytesPerSecond(p.ms / run.timing.work_scale);
  p.own_ms = run.timing.timed_at.empty() || run.timing.own_ms <= 0 ? p.ms : run.timing.own_ms;
  if (p.own_ms > 0) p.own_gbps = g.GigabytesPerSecond(p.own_ms);
  if (g.requests > 0) p.sectors_per_request = g.SectorsPerRequest();
  return p;
}

std::vector<std::string> ParamNames(const LessonInfo* info, const LessonHistory& h) {
  std::vector<std::string> names;
  if (info != nullptr) {
    for (const ParamSpec& spec : info->params) names.push_back(spec.name);
  }
  for (const TimingPoint& p : h.points) {
    for (const auto& [name, value] : p.params) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

const ParamSpec* FindParam(const LessonInfo* info, const std::string& name) {
  return info != nullptr ? info->FindParam(name) : nullptr;
}

bool SameExcept(const Params& a, const Params& b, const std::string& except) {
  auto ia = a.begin(), ib = b.begin();
  while (true) {
    while (ia != a.end() && ia->first == except) ++ia;
    while (ib != b.end() && ib->first == except) ++ib;
    if (ia == a.end() || ib == b.end()) return ia == a.end() && ib == b.end();
    if (ia->first != ib->first || ia->second != ib->second) return false;
    ++ia;
    ++ib;
  }
}

double XValue(const TimingPoint& p, const std::string& x) {
  if (x == kRunOrder) return static_cast<double>(p.run);
  const auto it = p.params.find(x);
  return it == p.params.end() ? kNaN : static_cast<double>(it->second);
}

double YValue(const TimingPoint& p, int measure, bool own) {
  switch (measure) {
    case kBandwidth:
      return own ? p.own_gbps : p.gbps;
    case kSectors:
      return p.sectors_per_request;
    default:  // drawn in microseconds: the emulator's modeled times are tiny
      return (own ? p.own_ms : p.ms) * 1000.0;
  }
}

std::string FormatNumber(double v) {
  if (v != v) return "";  // NaN: an empty CSV cell
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

std::vector<Series> BuildSeries(const LessonRun& run, const LessonHistory& h,
                                const LessonInfo* info, const std::string& x, int measure, bool own,
                                SeriesCounts* counts) {
  *counts = SeriesCounts{};
  std::map<std::pair<std::string, std::string>, std::map<double, const TimingPoint*>> groups;
  for (const TimingPoint& p : h.points) {
    if (x != kRunOrder && !SameExcept(p.params, run.params, x)) {
      ++counts->hidden;
      continue;
    }
    const double px = XValue(p, x);
    if (px != px) {
      ++counts->hidden;
      continue;
    }
    auto& group = groups[{p.variant, p.kind}];
    auto [it, inserted] = group.try_emplace(px, &p);
    if (!inserted) {  // the same parameters again: the latest run stands for them
      it->second = &p;
      ++counts->repeated;
    }
  }
  std::vector<Series> series;
  for (const auto& [key, group] : groups) {
    Series s;
    s.kind = key.second;
    s.label = key.first + " (" + key.second + ")";
    s.variant_index = info != nullptr ? info->variants.size() : 0;
    if (info != nullptr) {
      for (std::size_t i = 0; i < info->variants.size(); ++i) {
        if (info->variants[i].name == key.first) s.variant_index = i;
      }
    }
    for (const auto& [px, point] : group) {  // std::map: sorted by x
      const double py = YValue(*point, measure, own);
      if (py != py) {
        ++counts->no_value;
        continue;
      }
      s.xs.push_back(px);
      s.ys.push_back(py);
    }
    if (!s.xs.empty()) series.push_back(std::move(s));
  }
  std::stable_sort(series.begin(), series.end(), [](const Series& a, const Series& b) {
    return a.variant_index < b.variant_index;
  });
  return series;
}

std::string YLabel(const std::vector<Series>& series, int measure) {
  bool modeled = false, measured = false, other = false;
  for (const Series& s : series) {
    if (s.kind == "modeled") {
      modeled = true;
    } else if (s.kind == "measured") {
      measured = true;
    } else {
      other = true;
    }
  }
  const int kinds = int{modeled} + int{measured} + int{other};
  if (measure == kSectors) return "sectors per request (global memory)";
  const char* from = kinds > 1  ? "modeled and measured times"
                     : modeled  ? "modeled time"
                     : measured ? "measured time"
                                : "time";
  if (measure == kBandwidth) return std::string("effective bandwidth (GB/s, from ") + from + ")";
  if (kinds > 1) return "µs: modeled (emulator) and measured (GPU)";
  if (modeled) return "modeled µs (emulator)";
  if (measured) return "measured µs (GPU)";
  return "time (µs)";
}

XTicks MakeXTicks(const ParamSpec* spec, const std::vector<double>& distinct) {
  XTicks ticks;
  if (spec != nullptr && !spec->choices.empty()) {
    for (std::size_t i = 0; i < spec->choices.size(); ++i) {
      ticks.values.push_back(static_cast<double>(i));
      ticks.text.push_back(spec->choices[i]);
    }
  } else if (!distinct.empty() && distinct.size() <= kMaxLabelledTicks) {
    ticks.values = distinct;
    for (double v : distinct) ticks.text.push_back(FormatNumber(v));
  }
  return ticks;
}

void FitAxes(const std::vector<Series>& series, const std::vector<double>& distinct, bool log_x) {
  if (distinct.empty()) {
    ImPlot::SetNextAxesToFit();
    return;
  }
  double lo = distinct.front(), hi = distinct.back();
  if (log_x) {
    lo /= 1.5;
    hi *= 1.5;
  } else {
    const double pad = hi > lo ? std::max(0.05 * (hi - lo), 0.5) : std::max(1.0, 0.1 * lo);
    lo -= pad;
    hi += pad;
  }
  ImPlot::SetNextAxisLimits(ImAxis_X1, lo, hi, ImPlotCond_Always);
  double y_lo = 0, y_hi = 0;
  for (const Series& s : series) {
    for (double y : s.ys) {
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  if (y_hi <= y_lo) y_hi = y_lo + 1;
  ImPlot::SetNextAxisLimits(ImAxis_Y1, y_lo, y_hi + 0.12 * (y_hi - y_lo), ImPlotCond_Always);
}

}  // namespace ws::timing_view
