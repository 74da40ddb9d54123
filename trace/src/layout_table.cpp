#include "warpscope/trace/layout_table.h"

#include <algorithm>

namespace ws {

const char* ToString(LayoutKind kind) {
  switch (kind) {
    case LayoutKind::kRowMajor:
      return "row-major";
    case LayoutKind::kMorton:
      return "morton";
    case LayoutKind::kTiled:
      return "tiled";
  }
  return "?";
}

Result<LayoutKind> ParseLayoutKind(const std::string& name) {
  for (LayoutKind k : {LayoutKind::kRowMajor, LayoutKind::kMorton, LayoutKind::kTiled}) {
    if (name == ToString(k)) return k;
  }
  return Status::Error("unknown layout '" + name + "'; layouts are: row-major, morton, tiled");
}

Pixel PixelAt(const Layout2D& l, std::uint64_t p) {
  if (!CheckLayout(l).ok()) return {};
  std::uint64_t x = 0, y = 0;
  if (l.kind == LayoutKind::kRowMajor) {
    if (l.width < 1) return {};
    x = p % static_cast<std::uint64_t>(l.width);
    y = p / static_cast<std::uint64_t>(l.width);
  } else if (l.kind == LayoutKind::kMorton) {
    if (p >> 32 != 0) return {};  // Index interleaves 16 bits of each coordinate
    for (int bit = 0; bit < 16; ++bit) {
      x |= ((p >> (2 * bit)) & 1u) << bit;
      y |= ((p >> (2 * bit + 1)) & 1u) << bit;
    }
  } else {
    if (l.tile_w < 1 || l.tile_h < 1 || l.micro_w < 1 || l.micro_h < 1) return {};
    const auto tw = static_cast<std::uint64_t>(l.tile_w), th = static_cast<std::uint64_t>(l.tile_h);
    const auto mw = static_cast<std::uint64_t>(l.micro_w),
               mh = static_cast<std::uint64_t>(l.micro_h);
    const std::uint64_t tiles_x = (static_cast<std::uint64_t>(l.width) + tw - 1) / tw;
    const std::uint64_t tile = p / (tw * th), in_tile = p % (tw * th);
    const std::uint64_t micro = in_tile / (mw * mh), inner = in_tile % (mw * mh);
    const std::uint64_t micro_per_row = tw / mw;
    if (tiles_x == 0 || micro_per_row == 0) return {};
    x = (tile % tiles_x) * tw + (micro % micro_per_row) * mw + inner % mw;
    y = (tile / tiles_x) * th + (micro / micro_per_row) * mh + inner / mw;
  }
  if (x >= static_cast<std::uint64_t>(std::max(l.width, 0)) ||
      y >= static_cast<std::uint64_t>(std::max(l.height, 0)))
    return {};
  return {static_cast<int>(x), static_cast<int>(y)};
}

Status CheckLayout(const Layout2D& l) {
  constexpr int kMaxSide = 16384;
  if (l.width < 1 || l.width > kMaxSide || l.height < 1 || l.height > kMaxSide) {
    return Status::Error("the image is " + std::to_string(l.width) + "x" +
                         std::to_string(l.height) + "; each side must be 1.." +
                         std::to_string(kMaxSide));
  }
  if (l.kind != LayoutKind::kTiled) return {};
  if (l.tile_w < 1 || l.tile_h < 1 || l.micro_w < 1 || l.micro_h < 1) {
    return Status::Error("tile and micro tile sizes must be at least 1");
  }
  if (l.tile_w % l.micro_w != 0 || l.tile_h % l.micro_h != 0) {
    return Status::Error("the micro tile " + std::to_string(l.micro_w) + "x" +
                         std::to_string(l.micro_h) + " must divide the tile " +
                         std::to_string(l.tile_w) + "x" + std::to_string(l.tile_h));
  }
  return {};
}

Result<std::vector<LayoutCell>> MemoryOrder(const Layout2D& layout) {
  if (Status s = CheckLayout(layout); !s.ok()) return s;
  std::vector<LayoutCell> cells;
  cells.reserve(static_cast<std::size_t>(layout.width) * layout.height);
  for (int y = 0; y < layout.height; ++y) {
    for (int x = 0; x < layout.width; ++x) cells.push_back({layout.Index(x, y), x, y});
  }
  std::sort(cells.begin(), cells.end(),
            [](const LayoutCell& a, const LayoutCell& b) { return a.position < b.position; });
  return cells;
}

std::vector<std::uint64_t> FootprintSectors(const Layout2D& layout, const WarpFootprint& fp,
                                            int clip_w, int clip_h, std::uint64_t texel_bytes,
                                            std::uint64_t sector_bytes) {
  std::vector<std::uint64_t> sectors;
  if (fp.row <= 0) return sectors;
  for (int t = 0; t < fp.threads; ++t) {
    const int x = fp.x + t % fp.row, y = fp.y + t / fp.row;
    if (x >= clip_w || y >= clip_h) continue;
    sectors.push_back(layout.Index(x, y) * texel_bytes / sector_bytes);
  }
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  return sectors;
}

int FootprintInside(const WarpFootprint& fp, int clip_w, int clip_h) {
  int inside = 0;
  for (int t = 0; fp.row > 0 && t < fp.threads; ++t) {
    if (fp.x + t % fp.row < clip_w && fp.y + t / fp.row < clip_h) ++inside;
  }
  return inside;
}

std::uint64_t FootprintIdealSectors(const WarpFootprint& fp, int clip_w, int clip_h,
                                    std::uint64_t texel_bytes, std::uint64_t sector_bytes) {
  const auto inside = static_cast<std::uint64_t>(FootprintInside(fp, clip_w, clip_h));
  return (inside * texel_bytes + sector_bytes - 1) / sector_bytes;
}

}  // namespace ws
