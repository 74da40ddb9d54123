// The latency lesson: the warp-scheduler model (trace/latency_model.h), no kernel. Its figures,
// the utilisation curve and the timeline go to the metrics, which the Latency view draws.
#include <cmath>

#include "lesson_entry_points.h"
#include "warpscope/trace/latency_model.h"

namespace ws {

Status RunLatencyLesson(const Params& p, LessonRun* run) {
  LatencyParams lp;
  lp.warps = static_cast<int>(p.at("warps"));
  lp.instructions_between_loads = static_cast<int>(p.at("instructions_between_loads"));
  lp.latency = static_cast<int>(p.at("latency"));
  lp.issue_cycles = static_cast<int>(p.at("issue_cycles"));
  auto r = SimulateLatency(lp);
  if (!r.ok()) return r.status();
  run->device = "model of one multiprocessor's warp scheduler";
  run->check = {true, "a model: no kernel output to check"};
  run->timing = {"none", 0, "a model of the scheduler runs no kernel (its time is in cycles)"};
  const double group = lp.instructions_between_loads * lp.issue_cycles;
  nlohmann::json& m = run->metrics;
  m["utilisation"] = r->utilisation;
  // The slides' arithmetic: the other warps must fill the latency with their issue cycles.
  m["slide_estimate"] = static_cast<int>(std::ceil(lp.latency / group));
  m["issue_cycles_per_load"] = group;
  m["cycles"] = r->cycles;
  m["busy_cycles"] = r->busy_cycles;
  int saturate = 0;  // the first point of the curve at 100 %, else searched up to 64 warps
  for (int n = 1; n <= 48; ++n) {
    LatencyParams q = lp;
    q.warps = n;
    auto c = SimulateLatency(q);
    const double u = c.ok() ? c->utilisation : 0.0;
    if (saturate == 0 && u >= 1.0 - 1e-9) saturate = n;
    m["vary_warps"].push_back({{"warps", n}, {"utilisation", u}});
  }
  if (saturate == 0) {
    LatencyParams q = lp;
    saturate = WarpsToSaturate(q, 64);
  }
  m["warps_to_saturate"] = saturate;
  nlohmann::json& segments = m["timeline"];
  segments = nlohmann::json::array();
  for (const WarpSegment& s : r->segments)
    segments.push_back({s.warp, s.start, s.end, static_cast<int>(s.kind)});
  return {};
}

}  // namespace ws
