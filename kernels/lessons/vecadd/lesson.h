// vecadd: chunked against interleaved threads (the CSU "CUDA 1" slides).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/vecadd.cuh"  // vecadd.cuh, in the recording API

namespace ws::lessons::vecadd {

struct Figures {
  static constexpr const char* kKind = "vecadd";
  static constexpr int kVersion = 1;
  double load_sectors_per_request = 0;  // of the loads of A and B (the same at both)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, load_sectors_per_request)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "vecadd";
    l.title = "Vector add: chunked against interleaved threads";
    l.order = 50;
    l.variants = {
        {"chunked", "each thread adds values_per_thread contiguous elements (not coalesced)"},
        {"interleaved", "consecutive threads add consecutive elements (coalesced)"}};
    l.params = {{"values_per_thread", 4, 1, 64, 1, "elements each thread adds"},
                {"block", 128, 32, 1024, 32, "threads per block (blockDim.x)"},
                {"grid", 32, 1, 65535, 1, "blocks in the grid (gridDim.x)"}};
    l.explanation =
        "Both kernels add the same vectors; only the mapping of elements to threads differs. "
        "In the chunked kernel (the CSU slides' first version) neighbouring threads are "
        "values_per_thread floats apart, so one warp load touches values_per_thread times "
        "more 32-byte sectors than it needs. In the interleaved kernel the threads of a warp "
        "read 32 consecutive floats at every step: 4 sectors, fully coalesced. Raise "
        "values_per_thread and watch the chunked kernel's sectors per request grow to 32 while "
        "the interleaved one stays at 4.";
    l.source_file = "vecadd.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) {
      return At(p, "values_per_thread") * At(p, "block") * At(p, "grid");
    };
    l.front_panel = "coalescing";
    l.figures = {{"load_sectors_per_request", "Sectors per load request (A and B)", "sectors"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long vpt = c.P("values_per_thread");
    const auto n = static_cast<std::size_t>(vpt * c.P("block") * c.P("grid"));
    std::vector<float> ha = Ramp(n), hb(n);
    for (std::size_t i = 0; i < n; ++i) hb[i] = static_cast<float>(i % 7);
    auto A = b.template Upload<float>("A", ha);
    auto B_ = b.template Upload<float>("B", hb);
    auto C = b.template Alloc<float>("C", n);
    const Dim3 grid = Grid1D(c.P("grid")), block = Grid1D(c.P("block"));
    const int v = static_cast<int>(vpt);
    Status s = c.Is("chunked") ? WS_LAUNCH(b, vecAddChunked, grid, block, 0, C, A, B_, v)
                               : WS_LAUNCH(b, vecAddInterleaved, grid, block, 0, C, A, B_, v);
    if (!s.ok()) return s;
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = ha[i] + hb[i];
    c.check = CompareAt(b.Download(C), want, "vecadd " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Figures f;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].op == AccessOp::kLoad)
        f.load_sectors_per_request = t.stats.sites[i].SectorsPerRequest();
    }
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::vecadd
