// transpose: coalescing through shared memory, and the bank conflicts padding removes.
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/transpose.cuh"  // transpose.cuh, in the recording API

namespace ws::lessons::transpose {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "transpose";
    l.title = "Matrix transpose: coalescing through shared memory";
    l.order = 40;
    l.opens_first = true;
    l.variants = {{"naive", "loads coalesced, stores strided by the height"},
                  {"coalesced", "tile staged in shared memory: coalesced, but bank conflicts"},
                  {"padded", "tile padded to TILE_DIM+1 columns: coalesced and conflict free"}};
    l.params = {{"tile", 32, 8, 32, 8, "TILE_DIM: threads per block side (8, 16 or 32)"},
                {"width", 256, 8, 8192, 8, "matrix width (a multiple of tile)"},
                {"height", 256, 8, 8192, 8, "matrix height (a multiple of tile)"}};
    l.explanation =
        "The naive kernel reads rows (coalesced) but writes columns: each lane's store "
        "lands `height` floats from its neighbour's, so a warp's store needs 32 sectors "
        "instead of 4. The coalesced kernel reads a tile into shared memory, waits at "
        "__syncthreads(), and writes it out by rows; now global memory is coalesced both "
        "ways, but reading a tile column puts every word in the same bank (32-way with a "
        "32-wide tile; the slides' 16-way is the 16x16 tile under the half-warp model). "
        "Padding the tile to TILE_DIM+1 columns turns that column into a diagonal across "
        "all banks. Compare the three in the bank view and the timing plot.";
    l.source_file = "transpose.cuh";
    // The engine issue's target: 1M threads, 2M global and 2M shared accesses, 1M barrier
    // arrivals in at most 1 s on a 2-core machine.
    l.bench_cases = {{"coalesced-1024", "coalesced", {{"width", 1024}, {"height", 1024}}},
                     {"naive-1024", "naive", {{"width", 1024}, {"height", 1024}}}};
    l.emulator_cost = [](const Params& p) { return At(p, "width") * At(p, "height"); };
    // 8192² floats: 256 MB each way, about 0.2 ms on an H100 against a launch's 5 us.
    l.timed_size = {{{"width", 8192}, {"height", 8192}}, "8192x8192"};
    l.front_panel = "coalescing";
    return l;
  }

  template <int TILE, LessonBackend B>
  static Status Launch(B& b, const std::string& variant, Dim3 grid, Dim3 block, Global<float> odata,
                       Global<const float> idata, int width, int height) {
    Status s;
    if (variant == "naive") {
      s = WS_LAUNCH(b, transposeNaive<TILE>, grid, block, 0, odata, idata, width, height);
    } else if (variant == "coalesced") {
      s = WS_LAUNCH(b, transposeCoalesced<TILE>, grid, block, TILE * TILE * 4, odata, idata, width,
                    height);
    } else {  // padded
      s = WS_LAUNCH(b, transposePadded<TILE>, grid, block, TILE * (TILE + 1) * 4, odata, idata,
                    width, height);
    }
    if (s.ok()) {  // name the instance the student picked: transposeNaive<32>, not <TILE>
      std::string& name = b.launches().back().kernel;
      name = name.substr(0, name.find('<')) + "<" + std::to_string(TILE) + ">";
    }
    return s;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long tile = c.P("tile"), width = c.P("width"), height = c.P("height");
    if (tile != 8 && tile != 16 && tile != 32)
      return NotAllowed("tile", tile, "tile must be 8, 16 or 32");
    if (width % tile != 0 || height % tile != 0) {
      return Status::Error("width " + std::to_string(width) + " and height " +
                           std::to_string(height) + " must be multiples of tile " +
                           std::to_string(tile));
    }
    const auto n = static_cast<std::size_t>(width * height);
    const std::vector<float> in = Ramp(n);
    auto idata = b.template Upload<float>("idata", in);
    auto odata = b.template Alloc<float>("odata", n);
    const Dim3 grid{static_cast<std::uint32_t>(width / tile),
                    static_cast<std::uint32_t>(height / tile), 1};
    const Dim3 block{static_cast<std::uint32_t>(tile), static_cast<std::uint32_t>(tile), 1};
    const int w = static_cast<int>(width), h = static_cast<int>(height);
    Status s = tile == 8    ? Launch<8>(b, c.variant, grid, block, odata, idata, w, h)
               : tile == 16 ? Launch<16>(b, c.variant, grid, block, odata, idata, w, h)
                            : Launch<32>(b, c.variant, grid, block, odata, idata, w, h);
    if (!s.ok()) return s;
    // The CPU's transpose, a tile at a time (as the kernels do, and for the same reason: a
    // column written element by element misses the cache at every store).
    std::vector<float> want(n);
    constexpr long long kBlock = 8;  // (width and height are multiples of 8: of the tile)
    for (long long x0 = 0; x0 < width; x0 += kBlock) {
      for (long long y0 = 0; y0 < height; y0 += kBlock) {
        for (long long x = x0; x < x0 + kBlock; ++x) {
          for (long long y = y0; y < y0 + kBlock; ++y)
            want[static_cast<std::size_t>(x * height + y)] =
                in[static_cast<std::size_t>(y * width + x)];
        }
      }
    }
    c.check = CompareAt(b.Download(odata), want, "transpose " + c.variant);
    return {};
  }
};

}  // namespace ws::lessons::transpose
