// latency: warps hiding memory latency, a model of one multiprocessor's warp scheduler.
#pragma once

#include <cmath>

#include "warpscope/kernels/lesson.h"
#include "warpscope/trace/latency_model.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws::lessons::latency {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "latency";
    l.title = "Warps hiding memory latency (a model)";
    l.order = 180;
    l.kind = LessonKind::kModel;
    l.variants = {{"scheduler",
                   "one multiprocessor issuing one warp instruction at a time, hiding loads",
                   {"dependency_latency"}},
                  {"register-dependency",
                   "each instruction reads the previous one's result, ~24 cycles later",
                   {"instructions_between_loads", "latency"}}};
    l.params = {{"warps", 8, 1, 48, 1, "warps resident on the multiprocessor"},
                {"instructions_between_loads", 4, 1, 32, 1, "instructions per global load"},
                {"latency", 200, 0, 1000, 10, "cycles from a load to its data"},
                {"issue_cycles", 4, 1, 16, 1, "cycles to issue one instruction for a warp"},
                {"dependency_latency", 24, 1, 64, 1,
                 "cycles until an instruction's result can be read (the slides: ~24)"}};
    l.explanation =
        "A model of one multiprocessor's warp scheduler, not a measurement. Each warp runs "
        "instructions_between_loads - 1 instructions and a global load, then waits for the "
        "load's data; meanwhile the scheduler issues another ready warp, at no cost in cycles "
        "(zero-overhead warp scheduling). The G80 slides: one load every 4 instructions, 4 "
        "cycles per instruction, 200 cycles of latency, so 200 / (4 x 4) = 12.5: at least 13 "
        "warps. The model saturates at 14: while one warp waits 200 cycles, the other warps "
        "must issue for 200 cycles (12.5 warps' worth of 16 cycles), and the waiting warp "
        "itself spends 16 cycles issuing before it waits, so each warp's period is 16 + 200 = "
        "216 cycles and 216 / 16 = 13.5 warps are needed. The slide counts the others, not "
        "the waiting warp. With 13 warps the model is busy 13 x 16 / 216 = 96 % of the time. "
        "The register-dependency variant is the Optimizing CUDA slides' second stall: "
        "x = y + 5; z = x + 3; the add that reads x waits for the one that wrote it, whose "
        "result can be read ~24 cycles after it issues (a shared load feeding an add, s_data[0] "
        "+= 3, waits the same way). A warp then issues 4 cycles in every 24, and 24 / 4 = 6 "
        "warps keep the issue slots busy: the slides' 192 threads per multiprocessor, 25 % "
        "occupancy of compute 1.0/1.1's 768 threads and 18.75 % of 1.2/1.3's 1,024. The "
        "threads need not be in one block. The wait is counted from the issue's start, as the "
        "slides count it, so the model and the slide agree: 5 warps are busy 20 / 24 = 83 % "
        "of the time.";
    l.front_panel = "latency";
    l.read_figures = &ReadFigures<LatencyFigures>;
    // The model simulates 48 curve points of up to warps x 8 loads x instructions each.
    l.emulator_cost = [](const Params& p) {
      return At(p, "warps") * At(p, "instructions_between_loads") * 1024;
    };
    l.figures = {{"warps_to_saturate", "Warps to hide the latency", "warps"},
                 {"slide_estimate", "Slide estimate", "warps"},
                 {"utilisation", "Issue slots busy", "%", 100},
                 {"cycles", "Cycles", "cycles"},
                 {"busy_cycles", "Busy cycles", "cycles"},
                 {"issue_cycles_per_load", "Issue cycles per load", "cycles"}};
    return l;
  }

  static Status Model(LessonCall& c) {
    LatencyParams lp;
    lp.warps = c.I("warps");
    lp.instructions_between_loads = c.I("instructions_between_loads");
    lp.latency = c.I("latency");
    lp.issue_cycles = c.I("issue_cycles");
    const bool dependency = c.Is("register-dependency");
    if (dependency) {  // arithmetic only, each instruction on the one before
      lp.loads = false;
      lp.latency = 0;
      lp.instructions_between_loads = 4;
      lp.dependency_latency = c.I("dependency_latency");
    }
    auto r = SimulateLatency(lp);
    if (!r.ok()) return r.status();
    c.device = "model of one multiprocessor's warp scheduler";
    c.check = {true, "a model: no kernel output to check"};
    c.timing = Timing{"none", 0, "a model of the scheduler runs no kernel (its time is in cycles)"};
    const double group = lp.instructions_between_loads * lp.issue_cycles;
    LatencyFigures f;
    f.utilisation = r->utilisation;
    // The slides' arithmetic: the other warps must fill the latency with their issue cycles.
    f.slide_estimate = static_cast<int>(std::ceil(lp.latency / group));
    if (dependency) {  // the warps whose issue cycles fill one dependency: 24 / 4 = 6
      f.slide_estimate =
          static_cast<int>(std::ceil(static_cast<double>(lp.dependency_latency) / lp.issue_cycles));
      f.dependency_latency = lp.dependency_latency;
    }
    f.issue_cycles_per_load = group;
    f.warps = lp.warps;
    f.period_cycles =
        dependency ? lp.instructions_between_loads * lp.dependency_latency : group + lp.latency;
    f.cycles = r->cycles;
    f.busy_cycles = r->busy_cycles;
    for (int n = 1; n <= 48; ++n) {  // the first point at 100 %, else searched up to 64 warps
      LatencyParams q = lp;
      q.warps = n;
      auto point = SteadyUtilisation(q);
      const double u = point.ok() ? *point : 0.0;
      if (f.warps_to_saturate == 0 && u >= 1.0 - 1e-9) f.warps_to_saturate = n;
      f.vary_warps.push_back({n, u});
    }
    // None of 1 to 48 saturates: the search goes on from 49.
    if (f.warps_to_saturate == 0) f.warps_to_saturate = WarpsToSaturate(lp, 64, 49);
    for (const WarpSegment& s : r->segments)
      f.timeline.push_back({s.warp, s.start, s.end, static_cast<int>(s.kind)});
    c.SetFigures(std::move(f));
    return {};
  }
};

}  // namespace ws::lessons::latency
