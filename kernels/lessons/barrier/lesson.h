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
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, max_wait, max_skew, time_unit)

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
    l.variants = {{"uneven", "thread t works t * skew units, then all meet at __syncthreads()"},
                  divergent};
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
                 {"max_skew", "Arrival spread (last - first)", "@time_unit"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
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
    if (!t.stats.barriers.empty())
      c.SetFigures(
          Figures{t.stats.barriers[0].max_wait, t.stats.barriers[0].max_skew, t.time_unit});
    return {};
  }
};

}  // namespace ws::lessons::barrier
