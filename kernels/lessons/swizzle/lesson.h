// swizzle: the layouts that keep a warp's column read of a shared tile off one bank (padding, an
// XOR swizzle), for 4-byte floats and for 16-byte float4 chunks.
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/swizzle.cuh"  // swizzle.cuh, in the recording API

namespace ws::lessons::swizzle {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "swizzle";
    l.title = "Shared-memory layouts: padding and XOR swizzles";
    l.order = 42;
    l.variants = {
        {"as-written", "32x32 float tile read by columns: 32-way"},
        {"padded", "rows of 33 floats: 1-way, 128 bytes per tile unused"},
        {"swizzled", "column j ^ i (Swizzle<5,0,5>): 1-way, nothing unused"},
        {"float4-columns", "float4 chunks read by chunk columns: 32 wavefronts, 4 needed"},
        {"float4-padded", "rows of 9 chunks: 4 wavefronts, 512 bytes per tile unused"},
        {"float4-swizzled", "chunk c ^ (row & 7) (Swizzle<3,2,3> in floats): 4 wavefronts"}};
    l.params = {
        {"size", 256, 32, 4096, 32, "matrix side n: an n x n float matrix (a multiple of 32)"}};
    l.explanation =
        "Shared memory has 32 banks of 4 bytes; a warp's request takes as many wavefronts as "
        "the most different words it needs from one bank. Reading a column of a 32x32 float "
        "tile puts all 32 words in one bank (32-way). Padding each row by one float shifts row "
        "l by l banks; an XOR swizzle (element (i, j) kept at column j ^ i, CuTe's "
        "Swizzle<5,0,5>) permutes each row instead, so no memory is wasted. 16-byte accesses "
        "(float4) are served a quarter-warp at a time, 8 lanes x 16 bytes = 128 bytes per "
        "wavefront: 4 wavefronts is the least, and conflicts are the wavefronts beyond those 4, "
        "as Nsight Compute counts them. Try the what-if in the banks view on as-written: pad "
        "and swizzle give the figures of the other variants without running them.";
    l.source_file = "swizzle.cuh";
    l.emulator_cost = [](const Params& p) { return At(p, "size") * At(p, "size"); };
    l.timed_size = {{{"size", 4096}}, "4096x4096"};
    l.front_panel = "banks";
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long n = c.P("size");
    if (n % 32 != 0) return NotAllowed("size", n, "size must be a multiple of 32");
    const auto count = static_cast<std::size_t>(n * n);
    const std::vector<float> in = Ramp(count);
    std::vector<float> want(count);
    Status s;
    if (c.variant.rfind("float4", 0) == 0) {
      // Each block moves 256 chunks: out chunk (warp y, lane x) = in chunk (row x, column y).
      std::vector<float4> in4(count / 4);
      std::memcpy(in4.data(), in.data(), count * sizeof(float));
      auto idata = b.template Upload<float4>("in", in4);
      auto odata = b.template Alloc<float4>("out", count / 4);
      const Dim3 grid{static_cast<std::uint32_t>(count / 1024), 1, 1}, block{32, 8, 1};
      s = c.variant == "float4-columns"
              ? WS_LAUNCH(b, chunksAsWritten, grid, block, 32 * 8 * 16, odata, idata)
          : c.variant == "float4-padded"
              ? WS_LAUNCH(b, chunksPadded, grid, block, 32 * 9 * 16, odata, idata)
              : WS_LAUNCH(b, chunksSwizzled, grid, block, 32 * 8 * 16, odata, idata);
      if (!s.ok()) return s;
      for (std::size_t base = 0; base < count / 4; base += 256) {
        for (std::size_t y = 0; y < 8; ++y) {
          for (std::size_t x = 0; x < 32; ++x)
            std::memcpy(&want[4 * (base + y * 32 + x)], &in[4 * (base + x * 8 + y)], 16);
        }
      }
      const std::vector<float4> got4 = b.Download(odata);
      std::vector<float> got(count);
      std::memcpy(got.data(), got4.data(), count * sizeof(float));
      c.check = CompareAt(got, want, "swizzle " + c.variant);
      return {};
    }
    auto idata = b.template Upload<float>("in", in);
    auto odata = b.template Alloc<float>("out", count);
    const Dim3 grid{static_cast<std::uint32_t>(n / 32), static_cast<std::uint32_t>(n / 32), 1},
        block{32, 32, 1};
    const int side = static_cast<int>(n);
    s = c.variant == "as-written"
            ? WS_LAUNCH(b, tileAsWritten, grid, block, 32 * 32 * 4, odata, idata, side)
        : c.variant == "padded"
            ? WS_LAUNCH(b, tilePadded, grid, block, 32 * 33 * 4, odata, idata, side)
            : WS_LAUNCH(b, tileSwizzled, grid, block, 32 * 32 * 4, odata, idata, side);
    if (!s.ok()) return s;
    for (long long y = 0; y < n; ++y) {
      for (long long x = 0; x < n; ++x)
        want[static_cast<std::size_t>(x * n + y)] = in[static_cast<std::size_t>(y * n + x)];
    }
    c.check = CompareAt(b.Download(odata), want, "swizzle " + c.variant);
    return {};
  }
};

}  // namespace ws::lessons::swizzle
