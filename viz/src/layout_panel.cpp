// The texture & 2D layouts view: one image under three memory layouts side by side (row-major,
// Morton, tiled), each a grid of pixels with its memory order drawn as a path, and a warp's 2D
// footprint laid over all three with the 32-byte sectors it touches under each layout. A warp of
// a 2D block reads a small patch of pixels: row-major storage spreads the patch's rows far apart
// in memory, while Morton and tiled layouts keep pixels near in x and y near in memory, so the
// same patch lands in fewer sectors wherever it sits. Follows a texture-2d run's parameters when
// one is loaded; otherwise the panel's own controls pick the image.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

constexpr int kMaxShown = 64;  // cells drawn per side: at most 4096 per layout
constexpr int kWarpSize = 32;
constexpr std::uint64_t kTexelBytes = 4;  // float texels, as in the texture-2d lesson
constexpr std::uint64_t kSectorBytes = 32;
constexpr float kMinCell = 4.0f, kMaxCell = 48.0f;
constexpr float kMinNumberCell = 18.0f;  // below this a cell's memory position is unreadable
constexpr std::array<LayoutKind, 3> kKinds = {LayoutKind::kRowMajor, LayoutKind::kMorton,
                                              LayoutKind::kTiled};

// The image and the tiled layout's parameters.
struct LayoutInputs {
  int width = 24, height = 16, tile_w = 8, tile_h = 8, micro_w = 2, micro_h = 2;
  friend bool operator==(const LayoutInputs&, const LayoutInputs&) = default;

  Layout2D Make(LayoutKind kind) const {
    return {kind, width, height, tile_w, tile_h, micro_w, micro_h};
  }
  // The top-left part that is drawn.
  int shown_w() const { return std::clamp(width, 1, kMaxShown); }
  int shown_h() const { return std::clamp(height, 1, kMaxShown); }
};

// The slides' "reordered memory addresses" table: 24 x 16 in 8 x 8 tiles of 2 x 2 micro tiles.
constexpr LayoutInputs kSlidesTable{};

// One layout's memory positions for the drawn cells, rebuilt only when the inputs change.
struct LayoutCache {
  bool valid = false;
  std::vector<std::uint64_t> position;  // per drawn cell (row-major over the drawn cells)
  std::vector<int> order;               // drawn cells by memory position: the path
};

// The pixels warp 0 of a 2D block reads: thread i sits at (i % row, i / row), `row` being the
// block's width. A block narrower than 6 has fewer than 32 threads, all in the one warp.
struct Footprint {
  int row = 8, threads = kWarpSize;
  int width() const { return std::min(row, threads); }
  int height() const { return (threads + row - 1) / row; }
  // Thread at offset (dx, dy) from the footprint's top-left, or -1 when none sits there.
  int Thread(int dx, int dy) const {
    if (dx < 0 || dy < 0 || dx >= row) return -1;
    const int t = dy * row + dx;
    return t < threads ? t : -1;
  }
};

// A run's figures come from files too: keep them in a sane range; CheckLayout judges the rest.
int Sane(int v) {
  return std::clamp(v, -1, 1 << 20);
}

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

ImVec4 Highlight() {
  return palette::LightTheme() ? ImVec4(0.05f, 0.50f, 0.20f, 1.0f)
                               : ImVec4(0.40f, 0.90f, 0.50f, 1.0f);
}
ImVec4 RunMark() {
  return ImVec4(0.95f, 0.75f, 0.25f, 1.0f);
}
ImVec4 ErrorRed() {
  return ImVec4(1.0f, 0.35f, 0.35f, 1.0f);
}

class LayoutPanel : public Panel {
 public:
  explicit LayoutPanel(Session* session) : Panel("layout", "Layouts"), session_(session) {}

 protected:
  void DrawContents() override;

 private:
  void DrawOwnControls();
  void Rebuild(const LayoutInputs& in, bool tiled_ok);
  void DrawCells(ImDrawList* dl, ImVec2 origin, float cell, int sw, int sh, int kind_index,
                 const std::vector<std::uint64_t>& sectors, float number_size);
  // `under_numbers`: numbers are written over the path, so it is drawn thin and without heads.
  void DrawPath(ImDrawList* dl, ImVec2 origin, float cell, int sw, const LayoutCache& cache,
                bool under_numbers);
  void DrawTooltip(int x, int y, int sw) const;
  // The run's reads replayed through the cache model under `kind`: two lines, the fewest DRAM
  // sectors (then sectors per request) of the three marked best.
  void DrawRunCost(const Texture2DFigures& tex, LayoutKind kind) const;

  Session* session_;
  LayoutInputs own_;
  int own_row_ = 8;  // the footprint's width with the panel's own controls (32 threads)
  bool follow_run_ = true, show_numbers_ = true, show_path_ = true;
  int fx_ = 0, fy_ = 0;  // the footprint's top-left pixel
  Footprint fp_;

  LayoutInputs cached_;
  bool cache_built_ = false;
  std::array<LayoutCache, 3> caches_;

  struct PathChunk {
    int first = 0, count = 0;
    ImU32 colour = 0;
  };
  std::vector<ImVec2> points_;  // scratch for the path, kept to avoid allocating per frame
  std::vector<PathChunk> chunks_, jumps_;
};

void LayoutPanel::DrawOwnControls() {
  static const char* const kPresets[] = {"Slides' table (24x16, 8x8 tiles of 2x2)", "16x16",
                                         "32x32", "Custom"};
  int preset = own_ == kSlidesTable                      ? 0
               : (own_.width == 16 && own_.height == 16) ? 1
               : (own_.width == 32 && own_.height == 32) ? 2
                                                         : 3;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(kPresets[0]).x + ImGui::GetFrameHeight() +
                          2.0f * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Combo("Image", &preset, kPresets, IM_ARRAYSIZE(kPresets))) {
    if (preset == 0) own_ = kSlidesTable;
    if (preset == 1) own_.width = own_.height = 16;
    if (preset == 2) own_.width = own_.height = 32;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 7);
  ImGui::SliderInt("W", &own_.width, 1, kMaxShown);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 7);
  ImGui::SliderInt("H", &own_.height, 1, kMaxShown);

  int tile[2] = {own_.tile_w, own_.tile_h}, micro[2] = {own_.micro_w, own_.micro_h};
  ImGui::SetNextItemWidth(em * 10);
  if (ImGui::SliderInt2("Tile", tile, 1, 32)) {
    own_.tile_w = tile[0];
    own_.tile_h = tile[1];
  }
  ImGui::SetItemTooltip("Tiled layout: tiles in row-major order, each stored contiguously");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 10);
  if (ImGui::SliderInt2("Micro tile", micro, 1, 16)) {
    own_.micro_w = micro[0];
    own_.micro_h = micro[1];
  }
  ImGui::SetItemTooltip(
      "Inside a tile, micro tiles in row-major order (1x1: plain tiles); the "
      "micro tile must divide the tile");
  ImGui::SameLine();
  static const char* const kShapes[] = {"1x32", "2x16", "4x8", "8x4", "16x2", "32x1"};
  int shape = 0;
  while (shape < 5 && (1 << shape) < own_row_) ++shape;
  ImGui::SetNextItemWidth(em * 5);
  if (ImGui::Combo("Warp footprint", &shape, kShapes, IM_ARRAYSIZE(kShapes))) {
    own_row_ = 1 << shape;
  }
  ImGui::SetItemTooltip(
      "The 32 pixels one warp reads at once: a 2D block's warp reads a patch as wide as the "
      "block; a rotation reads down columns (2x16); one thread per row reads a column (1x32)");
}

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

void LayoutPanel::DrawTooltip(int x, int y, int sw) const {
  static const char* const kNames[] = {"row-major", "Morton", "tiled"};
  ImGui::BeginTooltip();
  ImGui::Text("pixel (%d, %d)", x, y);
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    const LayoutCache& c = caches_[k];
    if (!c.valid) {
      ImGui::Text("%-10s  (invalid tiling)", kNames[k]);
      continue;
    }
    const std::uint64_t position = c.position[static_cast<std::size_t>(y * sw + x)];
    ImGui::Text("%-10s  position %6llu   sector %llu", kNames[k],
                static_cast<unsigned long long>(position),
                static_cast<unsigned long long>(position * kTexelBytes / kSectorBytes));
  }
  const int thread = fp_.Thread(x - fx_, y - fy_);
  if (thread >= 0) ImGui::Text("read by thread %d of the warp", thread);
  ImGui::TextDisabled("sector = position x 4 B / 32 B.  Click to move the footprint here.");
  ImGui::EndTooltip();
}

void LayoutPanel::DrawRunCost(const Texture2DFigures& tex, LayoutKind kind) const {
  const TextureLayoutCost* c = tex.CostOf(ToString(kind));
  if (c == nullptr) {
    ImGui::TextDisabled("Run: -");
    ImGui::NewLine();
    return;
  }
  auto key = [](const TextureLayoutCost& x) { return std::make_pair(x.dram_sectors, x.sectors); };
  bool best = true;
  for (const TextureLayoutCost& o : tex.costs) best = best && !(key(o) < key(*c));
  char line1[96], line2[96];
  std::snprintf(line1, sizeof line1, "Run: %.1f sectors/request, %.0f%% hits",
                c->SectorsPerRequest(), c->HitPercent());
  std::snprintf(line2, sizeof line2, "DRAM: %s sectors (least %s)%s",
                FormatNumber(static_cast<double>(c->dram_sectors)).c_str(),
                FormatNumber(static_cast<double>(c->compulsory)).c_str(), best ? "  best" : "");
  ImGui::TextUnformatted(line1);
  if (best) {
    ImGui::TextColored(Highlight(), "%s", line2);
  } else {
    ImGui::TextUnformatted(line2);
  }
  ImGui::SetItemTooltip(
      "The run's reads from %s, replayed through a %llu KB cache of 128-byte lines and 32-byte "
      "sectors, least recently used out, with the texels placed by this layout "
      "(docs/CACHE-MODEL.md)",
      tex.ReplayedWhat().c_str(), static_cast<unsigned long long>(tex.cache_bytes / 1024));
}

void LayoutPanel::DrawContents() {
  const LessonRun* run = session_->run.get();
  const Texture2DFigures* tex = run != nullptr ? run->figures_as<Texture2DFigures>() : nullptr;
  const bool texture_run = tex != nullptr;
  LayoutInputs in = own_;
  fp_ = Footprint{own_row_, kWarpSize};
  int used = -1;  // the layout the run's kernel read through
  if (texture_run) {
    ImGui::Checkbox("Follow the run", &follow_run_);
    ImGui::SetItemTooltip("Take the image, tiles and block size from the texture-2d run");
    ImGui::SameLine();
  }
  if (texture_run && follow_run_) {
    in = {Sane(tex->width),       Sane(tex->height),      Sane(tex->tile_width),
          Sane(tex->tile_height), Sane(tex->micro_width), Sane(tex->micro_height)};
    const int block = std::clamp(tex->block, 1, kWarpSize);
    const int threads = std::min(kWarpSize, block * block);
    if (tex->pattern == "rotate") {
      fp_ = Footprint{threads / block, threads};  // a block-wide row of output: a column in
    } else if (tex->pattern == "row-sums") {
      fp_ = Footprint{1, std::min(kWarpSize, std::max(in.height, 1))};  // one thread per row
    } else {
      fp_ = Footprint{block, threads};
    }
    // The layout the kernel read through (the global variant: row-major from global memory).
    used = tex->layout == "morton" ? 1 : tex->layout == "tiled" ? 2 : 0;
    ImGui::TextDisabled("texture-2d / %s / %s: %dx%d image, %dx%d blocks", run->variant.c_str(),
                        tex->pattern.c_str(), in.width, in.height, block, block);
    if (tex->cache_bytes > 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("Cache model: %s, %llu KB each", tex->ReplayedWhat().c_str(),
                         static_cast<unsigned long long>(tex->cache_bytes / 1024));
      ImGui::PopStyleColor();
    }
    if (session_->running) {
      ImGui::SameLine();
      ImGui::TextDisabled("(a newer run is under way)");
    }
  } else {
    if (texture_run) ImGui::NewLine();
    DrawOwnControls();
  }
  ImGui::Checkbox("Numbers", &show_numbers_);
  ImGui::SetItemTooltip("Write each pixel's memory position in its cell");
  ImGui::SameLine();
  ImGui::Checkbox("Path", &show_path_);
  ImGui::SetItemTooltip("Memory order as a path through the cells, dark to bright");

  if (Status s = CheckLayout(in.Make(LayoutKind::kRowMajor)); !s.ok()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ErrorRed());
    ImGui::TextWrapped("%s", s.message().c_str());
    ImGui::PopStyleColor();
    return;
  }
  const Status tiled_status = CheckLayout(in.Make(LayoutKind::kTiled));
  if (!cache_built_ || !(cached_ == in)) {
    Rebuild(in, tiled_status.ok());
  }
  const int sw = in.shown_w(), sh = in.shown_h();
  fx_ = std::clamp(fx_, 0, std::max(0, sw - fp_.width()));
  fy_ = std::clamp(fy_, 0, std::max(0, sh - fp_.height()));
  const WarpFootprint warp{fx_, fy_, fp_.row, fp_.threads};
  const int inside = FootprintInside(warp, sw, sh);  // texels inside the drawn part
  const int ideal =
      static_cast<int>(FootprintIdealSectors(warp, sw, sh, kTexelBytes, kSectorBytes));
  std::array<std::vector<std::uint64_t>, 3> sectors;
  int best = 1 << 30;
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    if (caches_[k].valid)
      sectors[k] = FootprintSectors(in.Make(kKinds[k]), warp, sw, sh, kTexelBytes, kSectorBytes);
    if (caches_[k].valid) best = std::min(best, static_cast<int>(sectors[k].size()));
  }

  // Cell size: square cells fitted to the space left, three grids side by side or stacked,
  // whichever gives the bigger cells. Each grid has a title above and two lines below; two
  // info lines come first.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool costs = tex != nullptr && follow_run_ && !tex->costs.empty();
  const float extra = (costs ? 5.0f : 3.0f) * line + style.ItemSpacing.y;
  const float gap = 2.0f * ImGui::GetFontSize();
  const float room_y = avail.y - 2.0f * line;
  const float fw = static_cast<float>(sw), fh = static_cast<float>(sh);
  const float side = std::min((avail.x - 2.0f * gap) / (3.0f * fw), (room_y - extra) / fh);
  const float stack = std::min(avail.x / fw, (room_y - 3.0f * extra - 2.0f * gap) / (3.0f * fh));
  const bool side_by_side = side >= stack;
  const float cell = std::floor(std::clamp(std::max(side, stack), kMinCell, kMaxCell));

  // Numbers: as large as the cell lets the widest one be, never larger than the text font.
  float number_size = 0.0f;
  if (show_numbers_ && cell >= kMinNumberCell) {
    std::uint64_t widest = 0;
    for (const LayoutCache& c : caches_) {
      for (std::uint64_t p : c.position) widest = std::max(widest, p);
    }
    const std::string text(std::to_string(widest).size(), '8');
    number_size = std::min(ImGui::GetFontSize(), cell * 0.6f);
    const float w = ImGui::GetFont()->CalcTextSizeA(number_size, FLT_MAX, 0.0f, text.c_str()).x;
    if (w > cell - 3.0f) number_size *= (cell - 3.0f) / w;
    if (number_size < 8.0f) number_size = 0.0f;
  }

  ImGui::Text("Warp footprint %dx%d (%d threads) at (%d, %d): click or drag on a grid to move it.",
              fp_.width(), fp_.height(), fp_.threads, fx_, fy_);
  std::string notes;
  if (in.width > kMaxShown || in.height > kMaxShown) {
    notes += "Showing the top-left " + std::to_string(sw) + "x" + std::to_string(sh) + " of " +
             std::to_string(in.width) + "x" + std::to_string(in.height) + ".  ";
  }
  if (inside < fp_.threads)
    notes += std::to_string(fp_.threads - inside) + " threads fall outside the image.  ";
  if (show_numbers_ && number_size == 0.0f)
    notes += "Cells too small to write in: zoom in / smaller image for numbers.  ";
  if (notes.empty()) {
    notes = "Coloured cells: the 32-byte sectors the warp touches (pale: fetched, not read).";
  }
  ImGui::TextDisabled("%s", notes.c_str());

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float grid_w = cell * fw, grid_h = cell * fh;
  const float col_w =
      std::max(grid_w, ImGui::CalcTextSize(costs ? "Run: 00.0 sectors/request, 100% hits"
                                                 : "Sectors: 00 (ideal 00)  best")
                           .x);
  std::array<ImVec2, 3> origins{};
  int hover_x = -1, hover_y = -1;
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    const float i = static_cast<float>(k);
    ImGui::SetCursorScreenPos(side_by_side ? ImVec2(start.x + i * (col_w + gap), start.y)
                                           : ImVec2(start.x, start.y + i * (grid_h + extra + gap)));
    ImGui::BeginGroup();
    char title[64];
    if (kKinds[k] == LayoutKind::kTiled) {
      std::snprintf(title, sizeof title, "Tiled %dx%d / %dx%d", in.tile_w, in.tile_h, in.micro_w,
                    in.micro_h);
    } else {
      std::snprintf(title, sizeof title, "%s", k == 0 ? "Row-major" : "Morton (Z-order)");
    }
    if (used == static_cast<int>(k)) {
      ImGui::TextColored(RunMark(), "%s  (the run's layout)", title);
    } else {
      ImGui::TextUnformatted(title);
    }
    if (costs) DrawRunCost(*tex, kKinds[k]);  // above the grid: seen first on a short view
    origins[k] = ImGui::GetCursorScreenPos();
    if (!caches_[k].valid) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + col_w);
      ImGui::TextColored(ErrorRed(), "%s", tiled_status.message().c_str());
      ImGui::PopTextWrapPos();
      ImGui::Dummy(ImVec2(col_w, std::max(0.0f, grid_h - line)));
      ImGui::EndGroup();
      continue;
    }
    ImGui::PushID(static_cast<int>(k));
    ImGui::InvisibleButton("##cells", ImVec2(grid_w, grid_h));
    ImGui::PopID();
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
      const ImVec2 m = ImGui::GetIO().MousePos;
      const int cx =
          std::clamp(static_cast<int>(std::floor((m.x - origins[k].x) / cell)), 0, sw - 1);
      const int cy =
          std::clamp(static_cast<int>(std::floor((m.y - origins[k].y) / cell)), 0, sh - 1);
      if (ImGui::IsItemHovered()) {
        hover_x = cx;
        hover_y = cy;
      }
      if (ImGui::IsItemActive()) {
        fx_ = std::clamp(cx, 0, std::max(0, sw - fp_.width()));
        fy_ = std::clamp(cy, 0, std::max(0, sh - fp_.height()));
      }
    }
    DrawCells(dl, origins[k], cell, sw, sh, static_cast<int>(k), sectors[k], number_size);
    const int count = static_cast<int>(sectors[k].size());
    if (count == best) {
      ImGui::TextColored(Highlight(), "Sectors: %d (ideal %d)  best", count, ideal);
    } else {
      ImGui::Text("Sectors: %d (ideal %d)", count, ideal);
    }
    ImGui::TextDisabled("%d texels x 4 B / 32 B", inside);
    ImGui::EndGroup();
  }
  if (hover_x >= 0) {
    // The hovered pixel, outlined in all three grids.
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
      if (!caches_[k].valid) continue;
      const ImVec2 p(origins[k].x + static_cast<float>(hover_x) * cell,
                     origins[k].y + static_cast<float>(hover_y) * cell);
      dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), palette::Text(), 0.0f, 2.0f);
    }
    DrawTooltip(hover_x, hover_y, sw);
  }
}

}  // namespace

std::unique_ptr<Panel> MakeLayoutPanel(Session* session) {
  return std::make_unique<LayoutPanel>(session);
}

}  // namespace ws
