// divergence: a branch by thread against a branch by warp (Optimizing CUDA).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/divergence.cuh"  // divergence.cuh, in the recording API

namespace ws::lessons::divergence {

struct Figures {
  static constexpr const char* kKind = "divergence";
  static constexpr int kVersion = 1;
  std::uint64_t divergent_warps = 0;  // warps with a request of fewer active lanes
  std::uint64_t warps = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, divergent_warps, warps)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "divergence";
    l.title = "Branch divergence: by thread against by warp";
    l.order = 80;
    l.variants = {{"by-thread", "if (threadIdx.x > 2): warp 0 of each block diverges"},
                  {"by-warp", "if (threadIdx.x / WARP_SIZE > 2): whole warps take one side"}};
    l.params = {{"threads", 256, 32, 1024, 32, "threads per block"},
                {"blocks", 4, 1, 65535, 1, "blocks in the grid"}};
    l.explanation =
        "A warp executes one instruction for all its lanes; when lanes disagree on a branch, "
        "the warp runs both sides one after the other with part of its lanes switched off. "
        "The slides contrast if (threadIdx.x > 2), which splits warp 0 of every block (lanes "
        "0-2 on one side, 3-31 on the other), with if (threadIdx.x / WARP_SIZE > 2), whose "
        "condition is the same for all 32 lanes of a warp: no divergence at all. Look at the "
        "active lanes of each store. On a real GPU this branch is too short to diverge: nvcc "
        "turns it into a select and one store per warp (Nsight Compute counts 32 store "
        "requests where the source makes 36; docs/ncu-agreement.md). Warpscope shows what the "
        "source does; divergence costs where both sides do real work.";
    l.source_file = "divergence.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks"); };
    l.front_panel = "grid";
    l.figures = {{"divergent_warps", "Divergent warps", "warps"},
                 {"warps", "Warps in the grid", "warps"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long threads = c.P("threads");
    const auto n = static_cast<std::size_t>(threads * c.P("blocks"));
    auto out = b.template Alloc<float>("out", n);
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(threads);
    const bool by_thread = c.Is("by-thread");
    Status s = by_thread ? WS_LAUNCH(b, branchByThread, grid, block, 0, out)
                         : WS_LAUNCH(b, branchByWarp, grid, block, 0, out);
    if (!s.ok()) return s;
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i % static_cast<std::size_t>(threads);
      want[i] = (by_thread ? t > 2 : t / 32 > 2) ? 1.0f : 2.0f;
    }
    c.check = CompareAt(b.Download(out), want, "divergence " + c.variant);
    const LaunchTrace& t = b.launches().back();
    c.SetFigures(Figures{t.stats.divergent_warps, t.warps()});
    return {};
  }
};

}  // namespace ws::lessons::divergence
