// offset-copy: misaligned accesses (Optimizing CUDA).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/offset_copy.cuh"  // offset_copy.cuh, in the recording API

namespace ws::lessons::offset_copy {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "offset-copy";
    l.title = "Offset copy: misaligned accesses";
    l.order = 10;
    l.variants = {{"copy", "consecutive threads copy consecutive floats, shifted by `offset`"}};
    l.params = {{"offset", 1, 0, 32, 1, "elements between the buffer start and thread 0's element"},
                {"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"},
                {"blocks", 64, 1, 65535, 1, "blocks in the grid (gridDim.x)"}};
    l.explanation =
        "Each warp copies 32 consecutive floats: 128 bytes. With offset 0 they fill four "
        "aligned 32-byte sectors; with any other offset they straddle a fifth, so every "
        "request moves 5 sectors for 4 sectors of data, back to 4 at multiples of 8. The "
        "slides' GTX 280 (compute 1.3) lost bandwidth with the offset and compute 1.0 lost "
        "coalescing altogether (one transaction per thread, the cc1.0 column). A modern GPU "
        "hardly notices: on an H200 the measured bandwidth moved by about 5 %, because the "
        "fifth sector is the next warp's first and the L2 cache serves it.";
    l.source_file = "offset_copy.cuh";
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks"); };
    l.front_panel = "coalescing";
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long n = c.P("threads") * c.P("blocks"), offset = c.P("offset");
    const auto size = static_cast<std::size_t>(n + offset);
    const std::vector<float> in = Ramp(size);
    auto idata = b.template Upload<float>("idata", in);
    auto odata = b.template Alloc<float>("odata", size);
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(c.P("threads"));
    const int arg = static_cast<int>(offset);
    if (Status s = WS_LAUNCH(b, offsetCopy, grid, block, 0, odata, idata, arg); !s.ok()) return s;
    std::vector<float> want(size, 0.0f);
    for (long long i = 0; i < n; ++i) {
      const auto x = static_cast<std::size_t>(i + offset);
      want[x] = in[x];
    }
    c.check = CompareAt(b.Download(odata), want, "offset-copy");
    return {};
  }
};

}  // namespace ws::lessons::offset_copy
