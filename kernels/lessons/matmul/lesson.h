// matmul: global memory, shared-memory tiles, and 2x2 tiles per thread (Kirk & Hwu, CSU slides).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/matmul.cuh"  // matmul.cuh, in the recording API

namespace ws::lessons::matmul {

struct Figures {
  static constexpr const char* kKind = "matmul";
  static constexpr int kVersion = 1;
  double global_loads_per_thread = 0;
  std::uint64_t global_load_elements = 0;
  double p_elements_per_thread = 0;
  double reduction_factor = 0;  // against the naive kernel's 2 x Width loads per P element
  std::uint32_t shared_bytes_per_block = 0;
  double barriers_per_thread = 0;
  double communication = 0;  // the CSU slides' m k n (b_r + b_c) / (b_r b_c)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, global_loads_per_thread, global_load_elements,
                                   p_elements_per_thread, reduction_factor, shared_bytes_per_block,
                                   barriers_per_thread, communication)

// out[i] += a * row[i] for i < n, four at a time (the CPU's check of P is 2 Width^3 flops, a
// twentieth of the whole run done one at a time: -O2 leaves such a loop scalar, but makes one
// vector operation of four written side by side). Each element is the same sum in the same
// order as one at a time.
inline void AddScaledRow(float* __restrict out, const float* __restrict row, float a,
                         std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    out[i] += a * row[i];
    out[i + 1] += a * row[i + 1];
    out[i + 2] += a * row[i + 2];
    out[i + 3] += a * row[i + 3];
  }
  for (; i < n; ++i) out[i] += a * row[i];
}

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "matmul";
    l.title = "Matrix multiplication: global, tiled, and 2x2 tiles per thread";
    l.order = 120;
    l.variants = {{"naive", "one thread per P element, every operand from global memory"},
                  {"tiled", "TILE_WIDTH x TILE_WIDTH tiles staged in shared memory"},
                  {"tiled-2x2", "b_r = b_c = 2 t: each thread computes four P elements"}};
    l.params = {{"width", 64, 8, 4096, 8, "matrix width (square matrices)"},
                {"tile", 16, 8, 32, 8, "TILE_WIDTH t (8, 16 or 32)"}};
    l.explanation =
        "The naive kernel loads 2 x Width floats from global memory for every P element. The "
        "tiled kernel has the block load each tile of M and N once into shared memory and "
        "reuse it TILE_WIDTH times, so global loads fall by a factor of TILE_WIDTH (the "
        "textbook's factor of 16 for 16x16 tiles), for 2 x TILE_WIDTH^2 x 4 bytes of shared "
        "memory per block (2 KB at 16, 8 KB at 32) and two barriers per tile. The CSU slides "
        "count the communication of the whole product as m k n (b_r + b_c) / (b_r b_c); "
        "doubling b_r and b_c (tiled-2x2) halves it again.";
    l.source_file = "matmul.cuh";
    l.read_figures = &ReadFigures<Figures>;
    // The browser CUDA simulators publish the naive SGEMM at 256 x 256.
    l.bench_cases = {{"naive-256", "naive", {{"width", 256}}}};
    l.emulator_cost = [](const Params& p) {
      return At(p, "width") * At(p, "width") * At(p, "width");
    };
    // 2048²: 2 x 2048³ = 17 GFLOP, milliseconds on any GPU against a launch's 5 us.
    l.timed_size = {{{"width", 2048}}, "2048x2048"};
    l.front_panel = "coalescing";
    l.figures = {{"global_load_elements", "Global loads", "elements"},
                 {"global_loads_per_thread", "Global loads per thread", "elements"},
                 {"reduction_factor", "Fewer global loads than naive by", "x"},
                 {"p_elements_per_thread", "P elements per thread", ""},
                 {"shared_bytes_per_block", "Shared memory per block", "B"},
                 {"barriers_per_thread", "Barriers per thread", ""},
                 {"communication", "Communication m k n (b_r + b_c) / (b_r b_c)", "elements"}};
    return l;
  }

  template <int T, LessonBackend B>
  static Status LaunchTiled(B& b, bool two_by_two, int width, Global<const float> M,
                            Global<const float> N, Global<float> P) {
    const auto w = static_cast<std::uint32_t>(width);
    if (!two_by_two) {
      return WS_LAUNCH(b, MatrixMulTiled<T>, (Dim3{w / T, w / T, 1}), (Dim3{T, T, 1}),
                       2 * T * T * 4, M, N, P, width);
    }
    return WS_LAUNCH(b, MatrixMulTiled2x2<T>, (Dim3{w / (2 * T), w / (2 * T), 1}), (Dim3{T, T, 1}),
                     2 * 2 * T * T * 4, M, N, P, width);
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long width = c.P("width"), tile = c.P("tile");
    if (tile != 8 && tile != 16 && tile != 32)
      return NotAllowed("tile", tile, "tile must be 8, 16 or 32");
    const bool naive = c.Is("naive"), two_by_two = c.Is("tiled-2x2");
    const long long b_rc = two_by_two ? 2 * tile : tile;  // the P block a thread block computes
    if (!naive && width % b_rc != 0) {
      return Status::Error("width " + std::to_string(width) + " must be a multiple of " +
                           std::to_string(b_rc) + " for " + c.variant + " with tile " +
                           std::to_string(tile));
    }
    const auto n = static_cast<std::size_t>(width * width);
    // Small whole numbers: every sum is exact in float, whatever the order or FMA.
    std::vector<float> hm(n), hn(n);
    for (std::size_t i = 0; i < n; ++i) {
      hm[i] = static_cast<float>(i % 3);
      hn[i] = static_cast<float>((i / 7) % 4);
    }
    auto M = b.template Upload<float>("M", hm);
    auto N = b.template Upload<float>("N", hn);
    auto P = b.template Alloc<float>("P", n);
    const int w = static_cast<int>(width);
    Status s;
    if (naive) {
      const auto g = static_cast<std::uint32_t>((width + tile - 1) / tile);
      const auto t = static_cast<std::uint32_t>(tile);
      s = WS_LAUNCH(b, MatrixMulKernel, (Dim3{g, g, 1}), (Dim3{t, t, 1}), 0, M, N, P, w);
    } else {
      s = tile == 8    ? LaunchTiled<8>(b, two_by_two, w, M, N, P)
          : tile == 16 ? LaunchTiled<16>(b, two_by_two, w, M, N, P)
                       : LaunchTiled<32>(b, two_by_two, w, M, N, P);
    }
    if (!s.ok()) return s;
    std::vector<float> want(n, 0.0f);
    const auto wz = static_cast<std::size_t>(width);
    for (std::size_t r = 0; r < wz; ++r) {
      for (std::size_t k = 0; k < wz; ++k)
        AddScaledRow(want.data() + r * wz, hn.data() + k * wz, hm[r * wz + k], wz);
    }
    c.check = CompareAt(b.Download(P), want, "matmul " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Figures f;
    f.global_load_elements = CountAccesses(t, MemorySpace::kGlobal, AccessOp::kLoad);
    const auto loads = static_cast<double>(f.global_load_elements);
    const auto threads = static_cast<double>(t.threads());
    f.global_loads_per_thread = loads / threads;
    f.p_elements_per_thread = static_cast<double>(n) / threads;
    f.reduction_factor = 2.0 * static_cast<double>(width) / (loads / static_cast<double>(n));
    f.shared_bytes_per_block = t.shared_bytes;
    f.barriers_per_thread = static_cast<double>(t.stats.barrier_records) / threads;
    const double br = naive ? 1.0 : static_cast<double>(b_rc), wd = static_cast<double>(width);
    f.communication = wd * wd * wd * (br + br) / (br * br);
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::matmul
