// Multi-warp tiles (worker.h): cooperative groups' thread_block_tile<64..1024> syncs as a barrier
// of its tile's threads, threads [k*N, (k+1)*N) of the block. Each tile passes on its own, as on
// a GPU (CUDA's tiles meet at a word of their scratch memory, one bit a warp), so one tile's
// threads may run on while another's wait. A pass is recorded as a barrier of its threads (its
// site says its tile), and orders the tile's accesses before it against those after it in the
// race check, as a __syncwarp() orders its lanes' (WarpSync::warps), without ending the block's
// barrier interval.
#include "emu/worker.h"

namespace ws::emu::detail {

// ------------------------------------------------------------------------------------------------
// this_grid().sync() (a cooperative launch): every block on a worker of its own meets at it.
// ------------------------------------------------------------------------------------------------

GridRendezvous::Outcome GridRendezvous::Arrive(std::uint64_t b, std::uint32_t place,
                                               std::uint32_t* clock, std::string* why) {
  std::unique_lock lock(mutex_);
  auto broken = [&] {
    *why = why_;
    return failed_ ? Outcome::kStop : Outcome::kError;
  };
  if (broken_) return broken();
  if (left_ > 0) {  // a block ended before this sync: the others would wait for it for ever
    broken_ = true;
    why_ = "block " + std::to_string(b) + " waits at " + sync_ + " on line " +
           std::to_string(PlaceLine(place)) + ", which " + std::to_string(left_) +
           " block(s) ended without reaching. On a GPU " + who_ +
           " waits for ever; every block of " + whole_ + " must reach each " + sync_;
    passed_.notify_all();
    return broken();
  }
  place_ = place;
  latest_ = std::max(latest_, *clock);
  const std::uint64_t generation = generation_;
  if (++arrived_ == blocks_) {
    arrived_ = 0;
    released_ = latest_;
    latest_ = 0;
    ++generation_;
    *clock = released_;
    passed_.notify_all();
    return Outcome::kPassed;
  }
  passed_.wait(lock, [&] { return generation_ != generation || broken_; });
  if (generation_ != generation) {
    // (A block of the next generation cannot release before this one has read it: it needs this
    // block's arrival at the next sync first.)
    *clock = released_;
    return Outcome::kPassed;
  }
  return broken();
}

void GridRendezvous::Leave(std::uint64_t b, bool failed) {
  std::lock_guard lock(mutex_);
  ++left_;
  if (broken_) return;
  if (failed) {
    broken_ = failed_ = true;
  } else if (arrived_ > 0) {
    broken_ = true;
    why_ = "block " + std::to_string(b) + " ended without reaching " + sync_ + " on line " +
           std::to_string(PlaceLine(place_)) + ", at which " + std::to_string(arrived_) +
           " block(s) wait. On a GPU " + who_ + " waits for ever; every block of " + whole_ +
           " must reach each " + sync_;
  } else {
    return;
  }
  passed_.notify_all();
}

void Worker::GridBarrier(std::uint32_t place) {
  if (launch_->grid == nullptr)
    Fail(place,
         "this_grid().sync() in a launch that is not cooperative: launch the kernel with "
         "cudaLaunchCooperativeKernel (on a GPU this is undefined: the grid's blocks need not "
         "all be resident)");
  Barrier(place, kGridSync);
}

// ------------------------------------------------------------------------------------------------
// Multi-warp tiles.
// ------------------------------------------------------------------------------------------------

void Worker::TileBarrier(std::uint32_t threads, std::uint32_t place) {
  const auto n = static_cast<std::uint32_t>(launch_->config->block.count());
  if (threads < 64 || threads > 1024 || (threads & (threads - 1)) != 0)
    Fail(place, "a multi-warp tile of " + std::to_string(threads) +
                    " threads: its size is a power of two from 64 to 1024");
  if (n % threads != 0)
    Fail(place, "a tile of " + std::to_string(threads) + " threads in a block of " +
                    std::to_string(n) + ": tiled_partition needs the block's " + std::to_string(n) +
                    " threads to divide into whole tiles, as CUDA does");
  Barrier(place, threads);
}

// Every tile whose threads all wait at the same tile sync leaves it: the number of tiles that
// left, -1 when the launch stops (too many barrier sites).
int Worker::PassTileBarriers(std::uint64_t b, std::uint32_t n) {
  int passed = 0;
  for (std::uint32_t first = 0; first < n;) {
    const ThreadCtx& head = threads_[first];
    const std::uint32_t tile = head.barrier_tile;
    if (head.status != ThreadStatus::kAtBarrier || tile == 0 || first % tile != 0 ||
        first + tile > n) {
      ++first;
      continue;
    }
    bool all = true;
    for (std::uint32_t i = first; i < first + tile && all; ++i) {
      const ThreadCtx& c = threads_[i];
      all = c.status == ThreadStatus::kAtBarrier && c.barrier_tile == tile &&
            c.barrier_place == head.barrier_place;
    }
    if (!all) {
      first += tile;
      continue;
    }
    const std::uint32_t place = head.barrier_place;
    const std::uint16_t id = BarrierId(place);
    if (id >= kMaxBarrierSites) {
      ReportError(b, "line " + std::to_string(PlaceLine(place)) + ": the kernel has more than " +
                         std::to_string(kMaxBarrierSites) + " barrier sites");
      return -1;
    }
    {
      std::lock_guard lock(launch_->mutex);
      launch_->barrier_tiles[place] = tile;
    }
    std::uint32_t departure = 0;
    for (std::uint32_t i = first; i < first + tile; ++i)
      departure = std::max(departure, threads_[i].clock);
    // Always as records, each tile's pass an instance of its own (its iteration numbers the
    // tile's k-th pass: k x tiles + tile), so that its skew is within the tile, which waits for
    // no other; whichever worker ran the block and whether it is kept.
    const std::uint32_t tiles = n / tile, index = first / tile;
    for (std::uint32_t i = first; i < first + tile; ++i) {
      ThreadCtx& c = threads_[i];
      current_.barriers.push_back({c.clock, departure, c.barrier_count[id]++ * tiles + index,
                                   static_cast<std::uint16_t>(i), id, 0});
      c.touched = true;
      c.clock = departure + 1;
      c.status = ThreadStatus::kReady;
      c.barrier_tile = 0;
    }
    tile_syncs_.push_back({static_cast<std::uint16_t>(first / 32), departure, ~0u,
                           static_cast<std::uint16_t>(tile / 32)});
    ++passed;
    first += tile;
  }
  return passed;
}

}  // namespace ws::emu::detail
