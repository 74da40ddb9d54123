// atomics: a histogram whose lanes collide on one bin (the memory-model slides).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/atomics.cuh"  // atomics.cuh, in the recording API

namespace ws::lessons::atomics {

struct Figures {
  static constexpr const char* kKind = "atomics";
  static constexpr int kVersion = 1;
  std::uint32_t conflict_degree_max = 0;
  std::vector<std::uint64_t> conflict_degree_hist;  // [d] = warp requests of degree d
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, conflict_degree_max, conflict_degree_hist)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "atomics";
    l.title = "Atomic histogram: lanes that collide on one bin";
    l.order = 100;
    l.variants = {{"histogram", "atomicAdd(&bins[data[i] % bins], 1)"}};
    l.params = {{"bins", 8, 1, 1024, 1, "number of histogram bins"},
                {"threads", 256, 32, 1024, 32, "threads per block"},
                {"blocks", 8, 1, 65535, 1, "blocks in the grid"}};
    l.explanation =
        "An atomic read-modify-write never loses an update, but the lanes of a warp that hit "
        "the same address are served one at a time. Element i goes to bin i % bins, so a warp "
        "puts 32 / bins lanes on each bin: 32-way with one bin, 4-way with eight, conflict "
        "free with 32 or more. The conflict histogram counts warp requests by their degree.";
    l.source_file = "atomics.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks"); };
    l.front_panel = "coalescing";
    l.figures = {
        {"conflict_degree_max", "Atomic conflict degree, worst request", "threads per address"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long bins = c.P("bins");
    const auto n = static_cast<std::size_t>(c.P("threads") * c.P("blocks"));
    std::vector<int> data(n);
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
    Global<const int> d = b.template Upload<int>("data", data);
    auto h = b.template Alloc<int>("bins", static_cast<std::size_t>(bins));
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(c.P("threads"));
    const int nb = static_cast<int>(bins);
    if (Status s = WS_LAUNCH(b, histogram, grid, block, 0, h, d, nb); !s.ok()) return s;
    std::vector<int> want(static_cast<std::size_t>(bins), 0);
    for (std::size_t i = 0; i < n; ++i) ++want[i % static_cast<std::size_t>(bins)];
    c.check = CompareAt(b.Download(h), want, "atomics histogram");
    const LaunchTrace& t = b.launches().back();
    Figures f;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].op != AccessOp::kAtomic) continue;
      f.conflict_degree_max = t.stats.sites[i].atomic_conflict_max;
      f.conflict_degree_hist = t.stats.sites[i].atomic_conflict_histogram;
    }
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::atomics
