// The memory-order table of a layout: which pixel each memory position holds, in order (the form
// of the slides' reordered-address table), and checks of the layout's parameters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/layout.h"
#include "warpscope/trace/status.h"

namespace ws {

struct LayoutCell {
  std::uint64_t position = 0;  // memory position (element index)
  int x = 0, y = 0;
};

// Refuses sizes and tiles that do not fit, naming the limit and the value.
Status CheckLayout(const Layout2D& layout);
// Every pixel, sorted by memory position (Morton and padded tiles leave gaps in positions).
Result<std::vector<LayoutCell>> MemoryOrder(const Layout2D& layout);
Result<LayoutKind> ParseLayoutKind(const std::string& name);
// The pixel at memory position `position` (element index): the inverse of Layout2D::Index.
// {-1, -1} for a position no pixel has (past the image, or a gap of Morton or padded tiles).
struct Pixel {
  int x = -1, y = -1;
  friend bool operator==(const Pixel&, const Pixel&) = default;
};
Pixel PixelAt(const Layout2D& layout, std::uint64_t position);

// A warp's 2D footprint: thread i of `threads` reads pixel (x + i % row, y + i / row), as the
// threads of a 2D block `row` wide do.
struct WarpFootprint {
  int x = 0, y = 0, row = 8, threads = 32;
};
// The distinct `sector_bytes` sectors the footprint's texels (`texel_bytes` each) fall in under
// `layout`, sorted; pixels at or past (clip_w, clip_h) are left out.
std::vector<std::uint64_t> FootprintSectors(const Layout2D& layout, const WarpFootprint& fp,
                                            int clip_w, int clip_h, std::uint64_t texel_bytes = 4,
                                            std::uint64_t sector_bytes = 32);
// How many of the footprint's texels lie before (clip_w, clip_h).
int FootprintInside(const WarpFootprint& fp, int clip_w, int clip_h);
// The fewest sectors those texels could fit in: ceil(inside * texel_bytes / sector_bytes).
std::uint64_t FootprintIdealSectors(const WarpFootprint& fp, int clip_w, int clip_h,
                                    std::uint64_t texel_bytes = 4, std::uint64_t sector_bytes = 32);
const char* ToString(LayoutKind kind);

}  // namespace ws
