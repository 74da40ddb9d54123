// One block's records reorganised for the views: its warp-level requests (the lanes of a warp at
// one site and iteration, with their addresses) and its barrier instances, plus a time-ordered
// list of steps for playback. Built from a LaunchTrace's kept records; no GL, no ImGui.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/request.h"

namespace ws {

struct BlockRequest {
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::uint32_t warp = 0;
  std::uint64_t time = 0;         // the earliest lane's time
  std::vector<LaneAccess> lanes;  // sorted by lane; address as the analyses see it
};

// One (barrier site, iteration) meeting of the block's threads.
struct BarrierInstance {
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::uint64_t first_arrival = 0, last_arrival = 0, departure = 0;
  std::vector<std::uint64_t> arrival;  // per thread of the block (missing: UINT64_MAX)
  std::vector<std::uint64_t> leave;    // per thread
};

struct PlaybackStep {
  bool barrier = false;  // false: requests[index]; true: barriers[index]
  int index = 0;
  std::uint64_t time = 0;
};

struct BlockView {
  bool kept = false;  // false: the block's records were not kept (only stats)
  std::uint32_t block = 0;
  std::uint32_t threads = 0;              // threads per block
  std::vector<BlockRequest> requests;     // sorted by (site, iteration, warp)
  std::vector<BarrierInstance> barriers;  // sorted by (time, site)
  std::vector<PlaybackStep> steps;        // requests and barriers by time
  std::vector<std::uint64_t> thread_end;  // per thread: its last recorded time
  std::uint64_t end_time = 0;             // the block's last recorded time

  // Index of the first request of `site` (and `warp`, if >= 0); -1 if none.
  int FindRequest(int site, int warp) const;
};

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

BlockView BuildBlockView(const LaunchTrace& trace, std::uint32_t block);

// Distinct 4-byte words per bank (32 banks) of one request: the heatmap's cell values. The
// largest is the conflict degree (BankConflictDegree).
std::vector<std::uint32_t> WordsPerBank(const std::vector<LaneAccess>& lanes, int banks = 32);

}  // namespace ws
