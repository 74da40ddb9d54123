// The texture & 2D layouts view's private header: its inputs, caches and the panel class, split
// over layout_panel.cpp (inputs, the three grids, their text) and layout_panel_cells.cpp (one
// grid's cells, its memory path and the warp's footprint).
#pragma once

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpscope/trace/layout.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/status.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws::layout_view {

inline constexpr int kMaxShown = 64;  // cells drawn per side: at most 4096 per layout
inline constexpr int kWarpSize = 32;
inline constexpr std::uint64_t kTexelBytes = 4;  // float texels, as in the texture-2d lesson
inline constexpr std::uint64_t kSectorBytes = 32;
inline constexpr float kMinCell = 4.0f, kMaxCell = 48.0f;
inline constexpr float kMinNumberCell = 18.0f;  // below this a cell's memory position is unreadable
inline constexpr std::array<LayoutKind, 3> kKinds = {LayoutKind::kRowMajor, LayoutKind::kMorton,
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
inline constexpr LayoutInputs kSlidesTable{};

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

// Where the three grids go and how big their cells are (LayoutPanel::FitGrids), and what they
// show: the inputs, the run whose costs are drawn (null: none), the layout the run read through.
struct GridFrame {
  LayoutInputs in;
  int sw = 0, sh = 0;  // the drawn cells
  float cell = 0, number_size = 0;
  bool side_by_side = true;
  float line = 0, extra = 0, gap = 0;  // a text line, the text around a grid, between grids
  float grid_w = 0, grid_h = 0, col_w = 0;
  const Texture2DFigures* costs = nullptr;
  int used = -1;
  const Status* tiled_status = nullptr;
};

// The sectors the footprint touches under each layout, the fewest of the three, the fewest any
// layout could, and the footprint's texels inside the drawn part.
struct SectorCounts {
  std::array<std::vector<std::uint64_t>, 3> sectors;
  int best = 1 << 30, ideal = 0, inside = 0;
};

class LayoutPanel : public Panel {
 public:
  explicit LayoutPanel(Session* session) : Panel("layout", "Layouts"), session_(session) {}

 protected:
  void DrawContents() override;

 private:
  // layout_panel.cpp: the inputs (a run's or the panel's own), the three grids and their text.
  LayoutInputs ChooseInputs(const LessonRun* run, const Texture2DFigures* tex, int* used);
  void DrawOwnControls();
  GridFrame FitGrids(int sw, int sh, bool costs) const;
  float NumberSize(float cell) const;
  void DrawNotes(const LayoutInputs& in, const GridFrame& g, int inside) const;
  void DrawTooltip(int x, int y, int sw) const;
  // The run's reads replayed through the cache model under `kind`: two lines, the fewest DRAM
  // sectors (then sectors per request) of the three marked best.
  void DrawRunCost(const Texture2DFigures& tex, LayoutKind kind) const;
  // One layout's column: its title, the run's cost, the grid (a click moves the footprint), and
  // the sectors the footprint touches. Sets `origin` to the grid's top-left; `hover_x`/`hover_y`
  // to the hovered cell.
  void DrawGrid(std::size_t k, const GridFrame& g, const SectorCounts& counts, ImDrawList* dl,
                ImVec2* origin, int* hover_x, int* hover_y);
  // layout_panel_cells.cpp: memory positions, and a grid's cells, path and footprint.
  void Rebuild(const LayoutInputs& in, bool tiled_ok);
  void DrawCells(ImDrawList* dl, ImVec2 origin, float cell, int sw, int sh, int kind_index,
                 const std::vector<std::uint64_t>& sectors, float number_size);
  // `under_numbers`: numbers are written over the path, so it is drawn thin and without heads.
  void DrawPath(ImDrawList* dl, ImVec2 origin, float cell, int sw, const LayoutCache& cache,
                bool under_numbers);

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

}  // namespace ws::layout_view
