// Where pixel (x, y) of a width x height image lives in memory under three layouts:
//   row-major  y * width + x
//   morton     bits of x and y interleaved (x in the even bits): Z-order
//   tiled      tile_w x tile_h tiles in row-major order; inside a tile, micro_w x micro_h micro
//              tiles in row-major order; inside a micro tile, row-major (micro 1x1: plain tiles)
// The memory-model slides' "reordered memory addresses" table (24 x 16, captioned Z-order) is
// the tiled layout with 8 x 8 tiles of 2 x 2 micro tiles, not Z-order: after the micro tile at
// x = 2 it goes on to x = 4, where Z-order would go down to y = 2.
// Header-only and usable in CUDA device code (kernels compute texture addresses with it); part of
// the self-contained kernel API (see ws_cuda.h), which trace/layout.h re-exports.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WS_LAYOUT_HD __host__ __device__
#else
#define WS_LAYOUT_HD
#endif

namespace ws {

enum class LayoutKind : int { kRowMajor = 0, kMorton = 1, kTiled = 2 };

struct Layout2D {
  LayoutKind kind = LayoutKind::kRowMajor;
  int width = 1, height = 1;
  int tile_w = 8, tile_h = 8, micro_w = 1, micro_h = 1;

  WS_LAYOUT_HD std::uint64_t Index(int x, int y) const {
    const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
    if (kind == LayoutKind::kRowMajor) return uy * static_cast<std::uint64_t>(width) + ux;
    if (kind == LayoutKind::kMorton) {
      std::uint64_t code = 0;
      for (int bit = 0; bit < 16; ++bit) {
        code |= ((ux >> bit) & 1u) << (2 * bit);
        code |= ((uy >> bit) & 1u) << (2 * bit + 1);
      }
      return code;
    }
    const std::uint64_t tiles_x = (static_cast<std::uint64_t>(width) + tile_w - 1) / tile_w;
    const std::uint64_t tile = (uy / tile_h) * tiles_x + ux / tile_w;
    const std::uint64_t lx = ux % tile_w, ly = uy % tile_h;
    const std::uint64_t micro_per_row = static_cast<std::uint64_t>(tile_w / micro_w);
    const std::uint64_t micro = (ly / micro_h) * micro_per_row + lx / micro_w;
    const std::uint64_t inner = (ly % micro_h) * micro_w + lx % micro_w;
    return tile * static_cast<std::uint64_t>(tile_w * tile_h) +
           micro * static_cast<std::uint64_t>(micro_w * micro_h) + inner;
  }
};

}  // namespace ws
