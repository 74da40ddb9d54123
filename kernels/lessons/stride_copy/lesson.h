// stride-copy: strided accesses (Optimizing CUDA).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/stride_copy.cuh"  // stride_copy.cuh, in the recording API

namespace ws::lessons::stride_copy {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "stride-copy";
    l.title = "Stride copy: strided accesses";
    l.order = 20;
    l.variants = {{"copy", "thread i copies float i * stride"}};
    l.params = {{"stride", 2, 1, 64, 1, "elements between consecutive threads' elements"},
                {"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"},
                {"blocks", 64, 1, 65535, 1, "blocks in the grid (gridDim.x)"}};
    l.explanation =
        "Thread i copies element i * stride. At stride 1 a warp's 32 floats fill 4 sectors; "
        "at stride 2 they spread over 8, half of every sector wasted; from stride 8 on each "
        "lane needs a sector of its own (32 per request), and effective bandwidth falls "
        "toward 1/8 of the peak, as in the slides' bandwidth-versus-stride figure. Strided "
        "access is natural in multidimensional data; staging through shared memory avoids "
        "it (see transpose).";
    l.source_file = "stride_copy.cuh";
    l.emulator_cost = [](const Params& p) {
      return At(p, "threads") * At(p, "blocks") * At(p, "stride") / 8;
    };
    l.front_panel = "coalescing";
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long n = c.P("threads") * c.P("blocks"), stride = c.P("stride");
    const auto size = static_cast<std::size_t>(n * stride);
    const std::vector<float> in = Ramp(size);
    auto idata = b.template Upload<float>("idata", in);
    auto odata = b.template Alloc<float>("odata", size);
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(c.P("threads"));
    const int arg = static_cast<int>(stride);
    if (Status s = WS_LAUNCH(b, strideCopy, grid, block, 0, odata, idata, arg); !s.ok()) return s;
    std::vector<float> want(size, 0.0f);
    for (long long i = 0; i < n; ++i) {
      const auto x = static_cast<std::size_t>(i * stride);
      want[x] = in[x];
    }
    c.check = CompareAt(b.Download(odata), want, "stride-copy");
    return {};
  }
};

}  // namespace ws::lessons::stride_copy
