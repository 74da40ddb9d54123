// The texture & 2D layouts view, one grid: each layout's memory positions for the drawn cells,
// the cells coloured by the sectors the warp's footprint touches, the memory order drawn as a
// path, the numbers, and the footprint's outline (the panel is in layout_panel.cpp).
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "layout_panel.h"
#include "warpscope/viz/palette.h"

namespace ws::layout_view {
namespace {

ImU32 Mix(ImU32 a, ImU32 b, float t) {
  auto channel = [&](int shift) {
    const float x = static_cast<float>((a >> shift) & 0xFF),
                y = static_cast<float>((b >> shift) & 0xFF);
    return static_cast<ImU32>(x + (y - x) * t + 0.5f) << shift;
  };
  return channel(IM_COL32_R_SHIFT) | channel(IM_COL32_G_SHIFT) | channel(IM_COL32_B_SHIFT) |
         (0xFFu << IM_COL32_A_SHIFT);
}

// Black or white, whichever reads on `fill`.
ImU32 TextOn(ImU32 fill) {
  const float r = static_cast<float>((fill >> IM_COL32_R_SHIFT) & 0xFF);
  const float g = static_cast<float>((fill >> IM_COL32_G_SHIFT) & 0xFF);
  const float b = static_cast<float>((fill >> IM_COL32_B_SHIFT) & 0xFF);
  return 0.299f * r + 0.587f * g + 0.114f * b > 140.0f ? IM_COL32(0, 0, 0, 255)
                                                       : IM_COL32(255, 255, 255, 255);
}

}  // namespace

void LayoutPanel::Rebuild(const LayoutInputs& in, bool tiled_ok) {
  const int sw = in.shown_w(), sh = in.shown_h();
  const std::size_t n = static_cast<std::size_t>(sw) * static_cast<std::size_t>(sh);
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    LayoutCache& c = caches_[k];
    c.valid = kKinds[k] != LayoutKind::kTiled || tiled_ok;
    c.position.assign(c.valid ? n : 0, 0);
    c.order.resize(c.position.size());
    if (!c.valid) continue;
    const Layout2D layout = in.Make(kKinds[k]);
    for (int y = 0; y < sh; ++y) {
      for (int x = 0; x < sw; ++x)
        c.position[static_cast<std::size_t>(y * sw + x)] = layout.Index(x, y);
    }
    std::iota(c.order.begin(), c.order.end(), 0);
    std::sort(c.order.begin(), c.order.end(), [&](int a, int b) {
      return c.position[static_cast<std::size_t>(a)] < c.position[static_cast<std::size_t>(b)];
    });
  }
  cached_ = in;
  cache_built_ = true;
}

void LayoutPanel::DrawPath(ImDrawList* dl, ImVec2 origin, float cell, int sw,
                           const LayoutCache& cache, bool under_numbers) {
  const int n = static_cast<int>(cache.order.size());
  if (n < 2) return;
  auto centre = [&](int i) {
    return ImVec2(origin.x + (static_cast<float>(i % sw) + 0.5f) * cell,
                  origin.y + (static_cast<float>(i / sw) + 0.5f) * cell);
  };
  auto heat = [&](float rank) { return palette::Heat(rank / static_cast<float>(n - 1)); };
  // Steps to a neighbouring cell (diagonals included) are drawn as a heat-coloured line in
  // chunks of up to 8 steps; jumps further away as faint thin lines, so the order still reads.
  points_.clear();
  chunks_.clear();
  jumps_.clear();
  int chunk_first = 0;
  auto flush = [&](int last_rank) {
    const int count = static_cast<int>(points_.size()) - chunk_first;
    if (count >= 2) {
      chunks_.push_back({chunk_first, count, heat(static_cast<float>(last_rank) - 0.5f * count)});
    }
  };
  points_.push_back(centre(cache.order[0]));
  for (int j = 1; j < n; ++j) {
    const int a = cache.order[static_cast<std::size_t>(j - 1)];
    const int b = cache.order[static_cast<std::size_t>(j)];
    const bool near = std::abs(a % sw - b % sw) <= 1 && std::abs(a / sw - b / sw) <= 1;
    if (!near) {
      flush(j - 1);
      const int first = static_cast<int>(points_.size());
      points_.push_back(centre(a));
      points_.push_back(centre(b));
      jumps_.push_back(
          {first, 2,
           (heat(static_cast<float>(j)) & ~IM_COL32_A_MASK) | (110u << IM_COL32_A_SHIFT)});
      chunk_first = static_cast<int>(points_.size());
      points_.push_back(centre(b));
      continue;
    }
    points_.push_back(centre(b));
    if (static_cast<int>(points_.size()) - chunk_first == 9 || j == n - 1) {
      flush(j);
      chunk_first = static_cast<int>(points_.size());
      points_.push_back(centre(b));
    }
  }
  const float thick = under_numbers ? 1.5f : std::clamp(cell * 0.12f, 1.0f, 3.5f);
  const ImU32 halo =
      palette::LightTheme() ? IM_COL32(255, 255, 255, 190) : IM_COL32(235, 235, 240, 120);
  auto translucent = [&](ImU32 c) {
    return under_numbers ? (c & ~IM_COL32_A_MASK) | (170u << IM_COL32_A_SHIFT) : c;
  };
  for (const PathChunk& j : jumps_) {
    dl->AddPolyline(&points_[static_cast<std::size_t>(j.first)], 2, j.colour, 1.0f);
  }
  for (const PathChunk& c : chunks_) {
    if (under_numbers || cell < 8.0f) break;  // small cells: the halo would hide them
    dl->AddPolyline(&points_[static_cast<std::size_t>(c.first)], c.count, halo, thick + 2.0f);
  }
  for (const PathChunk& c : chunks_) {
    dl->AddPolyline(&points_[static_cast<std::size_t>(c.first)], c.count, translucent(c.colour),
                    thick);
  }
  // Arrow heads on the steps (every step on big cells, every 4th on small ones) and a dot where
  // memory starts.
  const int stride = under_numbers ? 0 : cell >= 14.0f ? 1 : cell >= 8.0f ? 4 : 0;
  const float size = std::max(cell * 0.2f, 3.0f);
  for (int j = 1; stride > 0 && j < n; j += stride) {
    const ImVec2 a = centre(cache.order[static_cast<std::size_t>(j - 1)]);
    const ImVec2 b = centre(cache.order[static_cast<std::size_t>(j)]);
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len <= 0.0f || len > cell * 1.5f) continue;  // no heads on jumps
    const float ux = dx / len, uy = dy / len;
    const ImVec2 mid((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
    const ImVec2 tip(mid.x + ux * size, mid.y + uy * size);
    const ImVec2 left(mid.x - ux * size * 0.6f - uy * size * 0.7f,
                      mid.y - uy * size * 0.6f + ux * size * 0.7f);
    const ImVec2 right(mid.x - ux * size * 0.6f + uy * size * 0.7f,
                       mid.y - uy * size * 0.6f - ux * size * 0.7f);
    dl->AddTriangleFilled(tip, right, left, heat(static_cast<float>(j)));
  }
  const ImVec2 start = centre(cache.order[0]);
  dl->AddCircleFilled(start, thick * 1.8f + 1.0f, halo);
  dl->AddCircleFilled(start, thick * 1.8f, palette::Heat(0.0f));
}

void LayoutPanel::DrawCells(ImDrawList* dl, ImVec2 origin, float cell, int sw, int sh,
                            int kind_index, const std::vector<std::uint64_t>& sectors,
                            float number_size) {
  const LayoutCache& cache = caches_[static_cast<std::size_t>(kind_index)];
  const ImU32 neutral =
      palette::LightTheme() ? IM_COL32(228, 230, 235, 255) : IM_COL32(52, 54, 60, 255);
  // Cells in a sector the footprint touches take that sector's colour: solid where a thread
  // reads, pale where the sector brings bytes no thread of the warp asked for.
  auto fill_of = [&](int x, int y, std::uint64_t position) {
    const std::uint64_t sector = position * kTexelBytes / kSectorBytes;
    const auto it = std::lower_bound(sectors.begin(), sectors.end(), sector);
    if (it == sectors.end() || *it != sector) return neutral;
    const ImU32 colour = palette::WarpU32(static_cast<std::uint32_t>(it - sectors.begin()));
    return Mix(neutral, colour, fp_.Thread(x - fx_, y - fy_) >= 0 ? 0.9f : 0.35f);
  };
  auto corner = [&](int x, int y) {
    return ImVec2(origin.x + static_cast<float>(x) * cell, origin.y + static_cast<float>(y) * cell);
  };
  const float inset = cell >= 6.0f ? 1.0f : 0.0f;  // a gap between cells reads as grid lines
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      const ImVec2 p0 = corner(x, y);
      dl->AddRectFilled(p0, ImVec2(p0.x + cell - inset, p0.y + cell - inset),
                        fill_of(x, y, cache.position[static_cast<std::size_t>(y * sw + x)]));
    }
  }
  const float gw = cell * static_cast<float>(sw), gh = cell * static_cast<float>(sh);
  if (kKinds[static_cast<std::size_t>(kind_index)] == LayoutKind::kTiled) {
    // Tile borders: each tile is one contiguous run of memory.
    const ImU32 line = palette::TextDim();
    for (int x = cached_.tile_w; x < sw; x += cached_.tile_w) {
      const float px = origin.x + static_cast<float>(x) * cell - inset * 0.5f;
      dl->AddLine(ImVec2(px, origin.y), ImVec2(px, origin.y + gh), line, 1.5f);
    }
    for (int y = cached_.tile_h; y < sh; y += cached_.tile_h) {
      const float py = origin.y + static_cast<float>(y) * cell - inset * 0.5f;
      dl->AddLine(ImVec2(origin.x, py), ImVec2(origin.x + gw, py), line, 1.5f);
    }
  }
  if (show_path_) DrawPath(dl, origin, cell, sw, cache, number_size > 0.0f);
  if (number_size > 0.0f) {
    ImFont* font = ImGui::GetFont();
    char text[24];
    for (int y = 0; y < sh; ++y) {
      for (int x = 0; x < sw; ++x) {
        const std::uint64_t position = cache.position[static_cast<std::size_t>(y * sw + x)];
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(position));
        const ImVec2 size = font->CalcTextSizeA(number_size, FLT_MAX, 0.0f, text);
        const ImVec2 p0 = corner(x, y);
        dl->AddText(font, number_size,
                    ImVec2(p0.x + (cell - size.x) * 0.5f, p0.y + (cell - size.y) * 0.5f),
                    TextOn(fill_of(x, y, position)), text);
      }
    }
  }
  // The footprint's outline: edges of its cells that border a cell outside it.
  const ImU32 edge = palette::Text();
  const float w = std::max(2.0f, cell * 0.08f);
  for (int dy = 0; dy < fp_.height(); ++dy) {
    for (int dx = 0; dx < fp_.width(); ++dx) {
      const int x = fx_ + dx, y = fy_ + dy;
      if (fp_.Thread(dx, dy) < 0 || x >= sw || y >= sh) continue;
      auto outside = [&](int ddx, int ddy) {
        return fp_.Thread(dx + ddx, dy + ddy) < 0 || x + ddx >= sw || y + ddy >= sh;
      };
      const ImVec2 p0 = corner(x, y);
      const float x0 = p0.x, y0 = p0.y, x1 = p0.x + cell, y1 = p0.y + cell;
      if (outside(-1, 0)) dl->AddLine(ImVec2(x0, y0), ImVec2(x0, y1), edge, w);
      if (outside(1, 0)) dl->AddLine(ImVec2(x1, y0), ImVec2(x1, y1), edge, w);
      if (outside(0, -1)) dl->AddLine(ImVec2(x0, y0), ImVec2(x1, y0), edge, w);
      if (outside(0, 1)) dl->AddLine(ImVec2(x0, y1), ImVec2(x1, y1), edge, w);
    }
  }
}

}  // namespace ws::layout_view
