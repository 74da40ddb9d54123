// reverse: an array reversed through static and dynamic shared memory (the memory-model slides).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/reverse.cuh"  // reverse.cuh, in the recording API

namespace ws::lessons::reverse {

struct Figures {
  static constexpr const char* kKind = "reverse";
  static constexpr int kVersion = 1;
  std::uint64_t shared_bytes = 0;  // what one block reserves
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, shared_bytes)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "reverse";
    l.title = "Array reversal through static and dynamic shared memory";
    l.order = 110;
    l.variants = {{"static", "__shared__ int s[1024]: size fixed at compile time"},
                  {"dynamic", "extern __shared__ int s[]: size from <<<1, n, n*sizeof(int)>>>"}};
    l.params = {{"n", 64, 1, 1024, 1, "elements (and threads)"}};
    l.explanation =
        "Each thread copies one element into shared memory, waits at __syncthreads() so that "
        "every element is there, then reads its mirror element: without the barrier a thread "
        "could read a slot nobody has written yet. The memory-model slides show the same "
        "kernel with a static array and with a dynamic one whose size is the launch's third "
        "parameter; the records and the result are the same, only the shared memory a block "
        "reserves differs.";
    l.source_file = "reverse.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "n"); };
    l.front_panel = "banks";
    l.figures = {{"shared_bytes", "Shared memory per block", "B"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long n = c.P("n");
    std::vector<int> a(static_cast<std::size_t>(n)), r(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i)] = static_cast<int>(i);
      r[static_cast<std::size_t>(i)] = static_cast<int>(n - i - 1);
    }
    auto d_d = b.template Upload<int>("d", a);
    const Dim3 grid{1, 1, 1}, block = Grid1D(n);
    const int ni = static_cast<int>(n);
    const auto dyn = static_cast<std::uint32_t>(n * sizeof(int));
    const bool is_static = c.Is("static");
    Status s = is_static ? WS_LAUNCH(b, staticReverse, grid, block, 1024 * sizeof(int), d_d, ni)
                         : WS_LAUNCH_DYNAMIC(b, dynamicReverse, grid, block, 0, dyn, d_d, ni);
    if (!s.ok()) return s;
    c.check = CompareAt(b.Download(d_d), r, "reverse " + c.variant);
    c.SetFigures(Figures{is_static ? 1024 * sizeof(int) : dyn});
    return {};
  }
};

}  // namespace ws::lessons::reverse
