// Where the grid view draws each thread of a launch (cells, not pixels); no GL, no ImGui.
#pragma once

#include <cstdint>

#include "warpscope/trace/records.h"

namespace ws {

// Where the grid view draws each thread: blocks in their true 2D shape (a 3D block's z slices
// stacked downwards), 1D blocks of more than 32 threads wrapped one warp per row, and a 1D grid
// wrapped into rows of blocks so the picture fits `aspect` (width / height). Past kMaxCells it
// summarises: one cell per block.
struct GridLayout {
  static constexpr std::uint64_t kMaxCells = 1ull << 22;  // 4M cells, 2048 x 2048
  Dim3 grid, block;
  int block_w = 1, block_h = 1;  // cells per block
  int cols = 1, rows = 1;        // blocks across and down
  bool wrapped_1d = false;       // 1D blocks drawn 32 threads (one warp) per row
  bool summary = false;          // one cell per block
  int cells_x() const { return cols * block_w; }
  int cells_y() const { return rows * block_h; }
  // The cell of thread `thread` (linear in its block) of block `block` (linear).
  void CellOf(std::uint64_t block, std::uint32_t thread, int* x, int* y) const;
  // The block and thread drawn at a cell; false for cells past the last block (or summary
  // cells, which give thread 0).
  bool ThreadAt(int x, int y, std::uint64_t* block, std::uint32_t* thread) const;
};
GridLayout MakeGridLayout(Dim3 grid, Dim3 block, float aspect);

}  // namespace ws
