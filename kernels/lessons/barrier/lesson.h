// barrier: waiting at __syncthreads() for the slowest thread (Kirk & Hwu ch. 4).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/barrier.cuh"  // barrier.cuh, in the recording API

namespace ws::lessons::barrier {

struct Figures {
  static constexpr const char* kKind = "barrier";
  static constexpr int kVersion = 1;
  std::uint64_t max_wait = 0;  // the longest any thread waited at the barrier
  std::uint64_t max_skew = 0;  // latest arrival - earliest arrival
  std::string time_unit;       // "logical" (emulator) or "ns" (GPU)
  // The waits' share of the threads' summed times (work before the barrier + wait), in %: on
  // the emulator, whose clock counts the work units (a GPU's waits are nanoseconds, its work
  // units are not; < 0 there, and not written).
  double wait_percent = -1;
};
inline void to_json(nlohmann::json& j, const Figures& f) {
  j = {{"max_wait", f.max_wait}, {"max_skew", f.max_skew}, {"time_unit", f.time_unit}};
  if (f.wait_percent >= 0) j["wait_percent"] = f.wait_percent;
}
inline void from_json(const nlohmann::json& j, Figures& f) {
  j.at("max_wait").get_to(f.max_wait);
  j.at("max_skew").get_to(f.max_skew);
  j.at("time_unit").get_to(f.time_unit);
  f.wait_percent = j.value("wait_percent", -1.0);  // absent in older traces and GPU runs
}

// The waits' share of the threads' summed times, given the work they did before the barrier
// (in the emulator's units); -1 on a GPU.
inline double WaitPercent(const BarrierStats& st, long long work, const std::string& unit) {
  if (unit != "logical") return -1;
  return 100.0 * static_cast<double>(st.wait_sum) /
         static_cast<double>(st.wait_sum + static_cast<std::uint64_t>(work));
}

// Exercise 4.6's section times, in units of 0.1 us.
inline const std::vector<int> kSectionTimes = {20, 23, 30, 28, 24, 19, 26, 29};

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "barrier";
    l.title = "Barrier synchronization: waiting for the slowest thread";
    l.order = 70;
    VariantSpec divergent{"divergent-barrier",
                          "a __syncthreads() inside a thread-dependent if (emulator only)"};
    divergent.gpu_refusal =
        "divergent-barrier runs on the emulator only: on a GPU a __syncthreads() that some "
        "threads never reach is undefined behaviour and may hang the GPU";
    VariantSpec ex46{"exercise-4-6",
                     "Kirk & Hwu 4.6: 8 threads with the book's section times, then a barrier",
                     {"threads", "skew"}};
    ex46.gpu_refusal =
        "exercise-4-6 is the book's hypothetical block, whose times are given, not measured: "
        "on a GPU its 8 threads are one warp and arrive together (see the uneven variant)";
    l.variants = {{"uneven", "thread t works t * skew units, then all meet at __syncthreads()"},
                  divergent,
                  ex46};
    l.params = {{"threads", 32, 2, 1024, 1, "threads in the block"},
                {"skew", 10, 0, 1000, 1, "work units between consecutive threads"}};
    l.explanation =
        "All threads of a block must reach __syncthreads() before any leaves it, so the block "
        "moves at the pace of its slowest thread: the textbook's barrier figure, where early "
        "arrivals wait for the late ones. With skew units of work per thread index, thread 0 "
        "waits (threads - 1) x skew units on the emulator. On a GPU the lanes of one warp "
        "arrive together, because the warp runs until its longest lane is done: the waits "
        "show between warps, so use more than 32 threads there. The divergent-barrier "
        "variant puts the barrier inside an if that only half the threads take; the emulator "
        "stops and names the line and the threads, and a GPU run is refused (undefined "
        "behaviour that may hang).";
    l.source_file = "barrier.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * (1 + At(p, "skew") / 64); };
    l.front_panel = "grid";
    l.figures = {{"max_wait", "Longest wait at the barrier", "@time_unit"},
                 {"max_skew", "Arrival spread (last - first)", "@time_unit"},
                 {"wait_percent", "Share of the threads' time spent waiting", "%"}};
    l.presets = {
        {"4.6",
         "Kirk & Hwu 4.6: a block of 8 threads executes a section before a barrier, taking 2.0, "
         "2.3, 3.0, 2.8, 2.4, 1.9, 2.6 and 2.9 us, and spends the rest of the time waiting. "
         "What percentage of the threads' summed-up time is spent waiting?",
         "exercise-4-6",
         {},
         "",
         {"wait_percent", "max_wait"},
         "Every thread leaves at 3.0 us, the slowest's time: 8 x 3.0 = 24.0 us in all, of which "
         "the sections take 19.9 us, so the waits are 4.1 us, 4.1 / 24 = 17.1 %. (Here a unit "
         "is 0.1 us: the longest wait is thread 5's, 30 - 19 = 11 units.)"}};
    return l;
  }

  template <LessonBackend B>
  static Status SectionTimes(B& b, LessonCall& c) {
    const auto n = kSectionTimes.size();
    auto out = b.template Alloc<float>("out", n);
    auto work = b.template Upload<int>("work", kSectionTimes);
    if (Status s = WS_LAUNCH(b, sectionTimes, (Dim3{1, 1, 1}), Grid1D(static_cast<long long>(n)), 0,
                             out, work);
        !s.ok())
      return s;
    c.check = CompareAt(b.Download(out), std::vector<float>(n, 1.0f), "exercise-4-6");
    const LaunchTrace& t = b.launches().back();
    if (t.stats.barriers.empty()) return {};
    const BarrierStats& st = t.stats.barriers[0];
    // Each thread's time is its section and its wait; the waits' share of their sum.
    long long sections = 0;
    for (int w : kSectionTimes) sections += w;
    c.SetFigures(
        Figures{st.max_wait, st.max_skew, t.time_unit, WaitPercent(st, sections, t.time_unit)});
    return {};
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    if (c.Is("exercise-4-6")) return SectionTimes(b, c);
    const long long threads = c.P("threads");
    auto out = b.template Alloc<float>("out", static_cast<std::size_t>(threads));
    const Dim3 grid{1, 1, 1}, block = Grid1D(threads);
    const int sk = c.I("skew");
    if (c.Is("divergent-barrier"))
      return WS_LAUNCH(b, divergentBarrier, grid, block, 0, out, sk);  // the emulator reports it
    if (Status s = WS_LAUNCH(b, unevenWork, grid, block, 0, out, sk); !s.ok()) return s;
    c.check = CompareAt(b.Download(out),
                        std::vector<float>(static_cast<std::size_t>(threads), 1.0f), "barrier");
    const LaunchTrace& t = b.launches().back();
    // Thread t worked t x skew units: skew x threads (threads - 1) / 2 in all.
    if (!t.stats.barriers.empty())
      c.SetFigures(
          Figures{t.stats.barriers[0].max_wait, t.stats.barriers[0].max_skew, t.time_unit,
                  WaitPercent(t.stats.barriers[0], sk * threads * (threads - 1) / 2, t.time_unit)});
    return {};
  }
};

}  // namespace ws::lessons::barrier
