// The texture & 2D layouts view: one image under three memory layouts side by side (row-major,
// Morton, tiled), each a grid of pixels with its memory order drawn as a path, and a warp's 2D
// footprint laid over all three with the 32-byte sectors it touches under each layout. A warp of
// a 2D block reads a small patch of pixels: row-major storage spreads the patch's rows far apart
// in memory, while Morton and tiled layouts keep pixels near in x and y near in memory, so the
// same patch lands in fewer sectors wherever it sits. Follows a texture-2d run's parameters when
// one is loaded; otherwise the panel's own controls pick the image. One grid's drawing is in
// layout_panel_cells.cpp. Index:
//   [SECTION] Helpers: sane inputs from a file, the highlight colours
//   [SECTION] Controls and text: the panel's own inputs, the hover tooltip, the run's cost
//   [SECTION] Inputs and fit: the run's or the panel's inputs, the cell size, the numbers' size
//   [SECTION] The three grids: one column per layout, the hovered pixel
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "layout_panel.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace layout_view {
namespace {

// [SECTION] Helpers -------------------------------------------------------------------------------

// A run's figures come from files too: keep them in a sane range; CheckLayout judges the rest.
int Sane(int v) {
  return std::clamp(v, -1, 1 << 20);
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

}  // namespace

// [SECTION] Controls and text ---------------------------------------------------------------------

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

// [SECTION] Inputs and fit ------------------------------------------------------------------------

// The image, tiles and footprint: the texture-2d run's when following it (its lines above the
// controls), else the panel's own controls'. Sets `used` to the layout the run's kernel read
// through (-1: none).
LayoutInputs LayoutPanel::ChooseInputs(const LessonRun* run, const Texture2DFigures* tex,
                                       int* used) {
  const bool texture_run = tex != nullptr;
  LayoutInputs in = own_;
  fp_ = Footprint{own_row_, kWarpSize};
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
    *used = tex->layout == "morton" ? 1 : tex->layout == "tiled" ? 2 : 0;
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
  return in;
}

// Cell size: square cells fitted to the space left, three grids side by side or stacked,
// whichever gives the bigger cells. Each grid has a title above and two lines below; two
// info lines come first.
GridFrame LayoutPanel::FitGrids(int sw, int sh, bool costs) const {
  GridFrame g;
  g.sw = sw;
  g.sh = sh;
  const ImGuiStyle& style = ImGui::GetStyle();
  g.line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  g.extra = (costs ? 5.0f : 3.0f) * g.line + style.ItemSpacing.y;
  g.gap = 2.0f * ImGui::GetFontSize();
  const float room_y = avail.y - 2.0f * g.line;
  const float fw = static_cast<float>(sw), fh = static_cast<float>(sh);
  const float side = std::min((avail.x - 2.0f * g.gap) / (3.0f * fw), (room_y - g.extra) / fh);
  const float stack =
      std::min(avail.x / fw, (room_y - 3.0f * g.extra - 2.0f * g.gap) / (3.0f * fh));
  g.side_by_side = side >= stack;
  g.cell = std::floor(std::clamp(std::max(side, stack), kMinCell, kMaxCell));
  g.grid_w = g.cell * fw;
  g.grid_h = g.cell * fh;
  g.col_w = std::max(g.grid_w, ImGui::CalcTextSize(costs ? "Run: 00.0 sectors/request, 100% hits"
                                                         : "Sectors: 00 (ideal 00)  best")
                                   .x);
  return g;
}

// Numbers: as large as the cell lets the widest one be, never larger than the text font (0: none).
float LayoutPanel::NumberSize(float cell) const {
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
  return number_size;
}

// The footprint's line, then what is not shown (or what the colours mean).
void LayoutPanel::DrawNotes(const LayoutInputs& in, const GridFrame& g, int inside) const {
  ImGui::Text("Warp footprint %dx%d (%d threads) at (%d, %d): click or drag on a grid to move it.",
              fp_.width(), fp_.height(), fp_.threads, fx_, fy_);
  std::string notes;
  if (in.width > kMaxShown || in.height > kMaxShown) {
    notes += "Showing the top-left " + std::to_string(g.sw) + "x" + std::to_string(g.sh) + " of " +
             std::to_string(in.width) + "x" + std::to_string(in.height) + ".  ";
  }
  if (inside < fp_.threads)
    notes += std::to_string(fp_.threads - inside) + " threads fall outside the image.  ";
  if (show_numbers_ && g.number_size == 0.0f)
    notes += "Cells too small to write in: zoom in / smaller image for numbers.  ";
  if (notes.empty()) {
    notes = "Coloured cells: the 32-byte sectors the warp touches (pale: fetched, not read).";
  }
  ImGui::TextDisabled("%s", notes.c_str());
}

// [SECTION] The three grids -----------------------------------------------------------------------

void LayoutPanel::DrawGrid(std::size_t k, const GridFrame& g, const SectorCounts& counts,
                           ImDrawList* dl, ImVec2* origin, int* hover_x, int* hover_y) {
  const LayoutInputs& in = g.in;
  ImGui::BeginGroup();
  char title[64];
  if (kKinds[k] == LayoutKind::kTiled) {
    std::snprintf(title, sizeof title, "Tiled %dx%d / %dx%d", in.tile_w, in.tile_h, in.micro_w,
                  in.micro_h);
  } else {
    std::snprintf(title, sizeof title, "%s", k == 0 ? "Row-major" : "Morton (Z-order)");
  }
  if (g.used == static_cast<int>(k)) {
    ImGui::TextColored(RunMark(), "%s  (the run's layout)", title);
  } else {
    ImGui::TextUnformatted(title);
  }
  // Above the grid: seen first on a short view.
  if (g.costs != nullptr) DrawRunCost(*g.costs, kKinds[k]);
  *origin = ImGui::GetCursorScreenPos();
  if (!caches_[k].valid) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + g.col_w);
    ImGui::TextColored(ErrorRed(), "%s", g.tiled_status->message().c_str());
    ImGui::PopTextWrapPos();
    ImGui::Dummy(ImVec2(g.col_w, std::max(0.0f, g.grid_h - g.line)));
    ImGui::EndGroup();
    return;
  }
  ImGui::PushID(static_cast<int>(k));
  ImGui::InvisibleButton("##cells", ImVec2(g.grid_w, g.grid_h));
  ImGui::PopID();
  if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int cx =
        std::clamp(static_cast<int>(std::floor((m.x - origin->x) / g.cell)), 0, g.sw - 1);
    const int cy =
        std::clamp(static_cast<int>(std::floor((m.y - origin->y) / g.cell)), 0, g.sh - 1);
    if (ImGui::IsItemHovered()) {
      *hover_x = cx;
      *hover_y = cy;
    }
    if (ImGui::IsItemActive()) {
      fx_ = std::clamp(cx, 0, std::max(0, g.sw - fp_.width()));
      fy_ = std::clamp(cy, 0, std::max(0, g.sh - fp_.height()));
    }
  }
  DrawCells(dl, *origin, g.cell, g.sw, g.sh, static_cast<int>(k), counts.sectors[k], g.number_size);
  const int count = static_cast<int>(counts.sectors[k].size());
  if (count == counts.best) {
    ImGui::TextColored(Highlight(), "Sectors: %d (ideal %d)  best", count, counts.ideal);
  } else {
    ImGui::Text("Sectors: %d (ideal %d)", count, counts.ideal);
  }
  ImGui::TextDisabled("%d texels x 4 B / 32 B", counts.inside);
  ImGui::EndGroup();
}

void LayoutPanel::DrawContents() {
  const LessonRun* run = session_->run.get();
  const Texture2DFigures* tex = run != nullptr ? run->figures_as<Texture2DFigures>() : nullptr;
  int used = -1;  // the layout the run's kernel read through
  const LayoutInputs in = ChooseInputs(run, tex, &used);
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
  SectorCounts counts;
  counts.inside = FootprintInside(warp, sw, sh);  // texels inside the drawn part
  counts.ideal = static_cast<int>(FootprintIdealSectors(warp, sw, sh, kTexelBytes, kSectorBytes));
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    if (caches_[k].valid)
      counts.sectors[k] =
          FootprintSectors(in.Make(kKinds[k]), warp, sw, sh, kTexelBytes, kSectorBytes);
    if (caches_[k].valid)
      counts.best = std::min(counts.best, static_cast<int>(counts.sectors[k].size()));
  }

  const bool costs = tex != nullptr && follow_run_ && !tex->costs.empty();
  GridFrame g = FitGrids(sw, sh, costs);
  g.in = in;
  g.costs = costs ? tex : nullptr;
  g.used = used;
  g.tiled_status = &tiled_status;
  g.number_size = NumberSize(g.cell);
  DrawNotes(in, g, counts.inside);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  std::array<ImVec2, 3> origins{};
  int hover_x = -1, hover_y = -1;
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    const float i = static_cast<float>(k);
    ImGui::SetCursorScreenPos(g.side_by_side
                                  ? ImVec2(start.x + i * (g.col_w + g.gap), start.y)
                                  : ImVec2(start.x, start.y + i * (g.grid_h + g.extra + g.gap)));
    DrawGrid(k, g, counts, dl, &origins[k], &hover_x, &hover_y);
  }
  if (hover_x >= 0) {
    // The hovered pixel, outlined in all three grids.
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
      if (!caches_[k].valid) continue;
      const ImVec2 p(origins[k].x + static_cast<float>(hover_x) * g.cell,
                     origins[k].y + static_cast<float>(hover_y) * g.cell);
      dl->AddRect(p, ImVec2(p.x + g.cell, p.y + g.cell), palette::Text(), 0.0f, 2.0f);
    }
    DrawTooltip(hover_x, hover_y, sw);
  }
}

}  // namespace layout_view

std::unique_ptr<Panel> MakeLayoutPanel(Session* session) {
  return std::make_unique<layout_view::LayoutPanel>(session);
}

}  // namespace ws
