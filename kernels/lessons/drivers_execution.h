// Drivers of the execution lessons: picture, barrier, divergence, matmul (see drivers.h).
#pragma once

#include <nlohmann/json.hpp>

#include "barrier.cuh"
#include "divergence.cuh"
#include "matmul.cuh"
#include "picture.cuh"
#include "warpscope/kernels/lesson_api.h"

namespace ws::lessons {

// Accesses of one space and op in the main launch, over the whole grid.
inline std::uint64_t CountAccesses(const LaunchTrace& t, MemorySpace space, AccessOp op) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space == space && t.sites[i].op == op) n += t.stats.sites[i].accesses;
  }
  return n;
}

// picture -------------------------------------------------------------------------------------
template <typename B>
Status RunPicture(B& b, const Params& p, OutputCheck* check, nlohmann::json* metrics) {
  const long long n = p.at("width"), m = p.at("height"), bs = p.at("block");
  std::vector<float> in(static_cast<std::size_t>(n * m));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 251);
  auto d_Pin = b.template Upload<float>("d_Pin", in);
  auto d_Pout = b.template Alloc<float>("d_Pout", in.size());
  const Dim3 grid{static_cast<std::uint32_t>((n + bs - 1) / bs),
                  static_cast<std::uint32_t>((m + bs - 1) / bs), 1};
  const Dim3 block{static_cast<std::uint32_t>(bs), static_cast<std::uint32_t>(bs), 1};
  const int ni = static_cast<int>(n), mi = static_cast<int>(m);
  if (Status s = WS_LAUNCH(b, PictureKernel, grid, block, 0, d_Pin, d_Pout, ni, mi); !s.ok())
    return s;
  std::vector<float> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = 2 * in[i];
  *check = CompareAt(b.Download(d_Pout), want, "picture");
  // Which threads passed the bounds test: the stores each block made (every block is kept).
  const LaunchTrace& t = b.launches().back();
  std::vector<std::uint64_t> per_block(grid.count(), 0);
  for (const BlockRecords& rec : t.blocks) {
    for (const AccessRecord& a : rec.accesses) {
      if (t.sites[a.site].op == AccessOp::kStore) ++per_block[rec.block];
    }
  }
  std::uint64_t active = 0;
  int full = 0, right = 0, bottom = 0, corner = 0;
  for (std::uint32_t by = 0; by < grid.y; ++by) {
    for (std::uint32_t bx = 0; bx < grid.x; ++bx) {
      active += per_block[by * grid.x + bx];
      const bool cut_x = (bx + 1) * bs > n, cut_y = (by + 1) * bs > m;
      (cut_x && cut_y ? corner : cut_x ? right : cut_y ? bottom : full) += 1;
    }
  }
  (*metrics)["active_threads"] = active;
  (*metrics)["idle_threads"] = t.threads() - active;
  (*metrics)["active_per_block"] = per_block;
  (*metrics)["grid"] = {grid.x, grid.y};
  // The textbook's four regions: blocks wholly inside, cut by the right edge, by the bottom
  // edge, and the corner block cut by both.
  (*metrics)["regions"] = {
      {"inside", full}, {"right_edge", right}, {"bottom_edge", bottom}, {"corner", corner}};
  return {};
}

// barrier -------------------------------------------------------------------------------------
template <typename B>
Status RunBarrier(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                  nlohmann::json* metrics) {
  const long long threads = p.at("threads"), skew = p.at("skew");
  auto out = b.template Alloc<float>("out", static_cast<std::size_t>(threads));
  const Dim3 grid{1, 1, 1}, block{static_cast<std::uint32_t>(threads), 1, 1};
  const int sk = static_cast<int>(skew);
  if (variant == "divergent-barrier") {
    if (std::string(B::kName) == "cuda") {
      return Status::Error(
          "divergent-barrier runs on the emulator only: on a GPU a __syncthreads() that some "
          "threads never "
          "reach is undefined behaviour and may hang the GPU");
    }
    return WS_LAUNCH(b, divergentBarrier, grid, block, 0, out, sk);  // reports the error
  }
  if (Status s = WS_LAUNCH(b, unevenWork, grid, block, 0, out, sk); !s.ok()) return s;
  *check = CompareAt(b.Download(out), std::vector<float>(static_cast<std::size_t>(threads), 1.0f),
                     "barrier");
  const LaunchTrace& t = b.launches().back();
  if (!t.stats.barriers.empty()) {
    (*metrics)["max_wait"] = t.stats.barriers[0].max_wait;
    (*metrics)["max_skew"] = t.stats.barriers[0].max_skew;
    (*metrics)["time_unit"] = t.time_unit;
  }
  return {};
}

// divergence ----------------------------------------------------------------------------------
template <typename B>
Status RunDivergence(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                     nlohmann::json* metrics) {
  const long long threads = p.at("threads"), blocks = p.at("blocks");
  const std::size_t n = static_cast<std::size_t>(threads * blocks);
  auto out = b.template Alloc<float>("out", n);
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  Status s = variant == "by-thread" ? WS_LAUNCH(b, branchByThread, grid, block, 0, out)
                                    : WS_LAUNCH(b, branchByWarp, grid, block, 0, out);
  if (!s.ok()) return s;
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t t = i % static_cast<std::size_t>(threads);
    want[i] = (variant == "by-thread" ? t > 2 : t / 32 > 2) ? 1.0f : 2.0f;
  }
  *check = CompareAt(b.Download(out), want, "divergence " + variant);
  const LaunchTrace& t = b.launches().back();
  (*metrics)["divergent_warps"] = t.stats.divergent_warps;
  (*metrics)["warps"] = t.warps();
  return {};
}

// matmul --------------------------------------------------------------------------------------
template <int T, typename B>
Status LaunchMatmul(B& b, const std::string& variant, int width, Global<const float> M,
                    Global<const float> N, Global<float> P) {
  const auto w = static_cast<std::uint32_t>(width);
  if (variant == "tiled") {
    return WS_LAUNCH(b, MatrixMulTiled<T>, (Dim3{w / T, w / T, 1}), (Dim3{T, T, 1}), 2 * T * T * 4,
                     M, N, P, width);
  }
  return WS_LAUNCH(b, MatrixMulTiled2x2<T>, (Dim3{w / (2 * T), w / (2 * T), 1}), (Dim3{T, T, 1}),
                   2 * 2 * T * T * 4, M, N, P, width);
}

template <typename B>
Status RunMatmul(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                 nlohmann::json* metrics) {
  const long long width = p.at("width"), tile = p.at("tile");
  if (tile != 8 && tile != 16 && tile != 32) {
    return Status::Error("tile = " + std::to_string(tile) +
                         " is not allowed: tile must be 8, 16 or 32");
  }
  const long long b_rc =
      variant == "tiled-2x2" ? 2 * tile : tile;  // the P block a thread block computes
  if (variant != "naive" && width % b_rc != 0) {
    return Status::Error("width " + std::to_string(width) + " must be a multiple of " +
                         std::to_string(b_rc) + " for " + variant + " with tile " +
                         std::to_string(tile));
  }
  const std::size_t n = static_cast<std::size_t>(width * width);
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
  if (variant == "naive") {
    const auto g = static_cast<std::uint32_t>((width + tile - 1) / tile);
    const auto t = static_cast<std::uint32_t>(tile);
    s = WS_LAUNCH(b, MatrixMulKernel, (Dim3{g, g, 1}), (Dim3{t, t, 1}), 0, M, N, P, w);
  } else {
    s = tile == 8    ? LaunchMatmul<8>(b, variant, w, M, N, P)
        : tile == 16 ? LaunchMatmul<16>(b, variant, w, M, N, P)
                     : LaunchMatmul<32>(b, variant, w, M, N, P);
  }
  if (!s.ok()) return s;
  std::vector<float> want(n, 0.0f);
  for (long long r = 0; r < width; ++r) {
    for (long long k = 0; k < width; ++k) {
      const float a = hm[static_cast<std::size_t>(r * width + k)];
      for (long long c = 0; c < width; ++c)
        want[static_cast<std::size_t>(r * width + c)] +=
            a * hn[static_cast<std::size_t>(k * width + c)];
    }
  }
  *check = CompareAt(b.Download(P), want, "matmul " + variant);
  const LaunchTrace& t = b.launches().back();
  const std::uint64_t loads = CountAccesses(t, MemorySpace::kGlobal, AccessOp::kLoad);
  const double per_thread = static_cast<double>(loads) / static_cast<double>(t.threads());
  const double per_element = static_cast<double>(loads) / static_cast<double>(n);
  (*metrics)["global_loads_per_thread"] = per_thread;
  (*metrics)["global_load_elements"] = loads;
  (*metrics)["p_elements_per_thread"] = static_cast<double>(n) / static_cast<double>(t.threads());
  // Against the naive kernel's 2 x Width loads per P element: the slides' "factor of 16" at 16.
  (*metrics)["reduction_factor"] = 2.0 * static_cast<double>(width) / per_element;
  (*metrics)["shared_bytes_per_block"] = t.shared_bytes;
  (*metrics)["barriers_per_thread"] =
      static_cast<double>(t.stats.barrier_records) / static_cast<double>(t.threads());
  // The CSU slides: the whole multiplication communicates m k n (b_r + b_c) / (b_r b_c) values.
  const double br = variant == "naive" ? 1.0 : static_cast<double>(b_rc);
  const double wd = static_cast<double>(width);
  (*metrics)["communication"] = wd * wd * wd * (br + br) / (br * br);
  return {};
}

}  // namespace ws::lessons
