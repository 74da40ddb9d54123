#include "warpscope/viz/grid_layout.h"

#include <algorithm>
#include <cmath>

namespace ws {

GridLayout MakeGridLayout(Dim3 grid, Dim3 block, float aspect) {
  GridLayout g;
  g.grid = grid;
  g.block = block;
  g.wrapped_1d = block.y == 1 && block.z == 1 && block.x > 32;
  g.block_w = static_cast<int>(g.wrapped_1d ? 32 : block.x);
  g.block_h = static_cast<int>(g.wrapped_1d ? (block.x + 31) / 32 : block.y * block.z);
  const std::uint64_t blocks = grid.count();
  if (grid.y == 1 && grid.z == 1) {
    // Columns so that cols * block_w : rows * block_h is close to the aspect asked for.
    const double want = std::sqrt(static_cast<double>(blocks) * aspect * g.block_h / g.block_w);
    g.cols =
        static_cast<int>(std::clamp<double>(std::round(want), 1.0, static_cast<double>(blocks)));
    g.rows = static_cast<int>((blocks + static_cast<std::uint64_t>(g.cols) - 1) /
                              static_cast<std::uint64_t>(g.cols));
  } else {
    g.cols = static_cast<int>(grid.x);
    g.rows = static_cast<int>(grid.y * grid.z);
  }
  const std::uint64_t cells = static_cast<std::uint64_t>(g.cells_x()) * g.cells_y();
  if (cells > GridLayout::kMaxCells || g.cells_x() > 8192 || g.cells_y() > 8192) {
    g.summary = true;
    g.block_w = g.block_h = 1;
  }
  return g;
}

void GridLayout::CellOf(std::uint64_t b, std::uint32_t thread, int* x, int* y) const {
  int bx, by;
  if (grid.y == 1 && grid.z == 1) {
    bx = static_cast<int>(b % static_cast<std::uint64_t>(cols));
    by = static_cast<int>(b / static_cast<std::uint64_t>(cols));
  } else {
    bx = static_cast<int>(b % grid.x);
    by = static_cast<int>(b / grid.x);  // y + z * grid.y: z slices of the grid stacked downwards
  }
  int tx = 0, ty = 0;
  if (!summary) {
    if (wrapped_1d) {
      tx = static_cast<int>(thread % 32);
      ty = static_cast<int>(thread / 32);
    } else {
      tx = static_cast<int>(thread % block.x);
      ty = static_cast<int>(thread / block.x);  // y + z * block.y
    }
  }
  *x = bx * block_w + tx;
  *y = by * block_h + ty;
}

bool GridLayout::ThreadAt(int x, int y, std::uint64_t* b, std::uint32_t* thread) const {
  if (x < 0 || y < 0 || x >= cells_x() || y >= cells_y()) return false;
  const int bx = x / block_w, by = y / block_h, tx = x % block_w, ty = y % block_h;
  const std::uint64_t linear = grid.y == 1 && grid.z == 1
                                   ? static_cast<std::uint64_t>(by) * cols + bx
                                   : static_cast<std::uint64_t>(by) * grid.x + bx;
  if (linear >= grid.count()) return false;
  *b = linear;
  *thread = summary ? 0
                    : static_cast<std::uint32_t>(ty) * static_cast<std::uint32_t>(block_w) +
                          static_cast<std::uint32_t>(tx);
  if (*thread >= block.count()) return false;  // the last row of a wrapped 1D block
  return true;
}

}  // namespace ws
