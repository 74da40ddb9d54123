// The launch's shadow of global memory (trace/hazards.h's GlobalShadow) fed by several workers:
// it takes the blocks in index order. The worker whose block is next puts its accesses in as
// they come; another keeps them (Put returns at once) until its block ends, then leaves them
// waiting, or, past kBacklog accesses held, waits for its turn. A block's end puts in the waiting
// blocks that now come next too, the lock let go while each goes in. When the launch fails, Abandon
// lets every waiting worker go.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "warpscope/trace/hazards.h"

namespace ws::emu {

class ShadowOrder {
 public:
  // At most this many global accesses are held for the shadow (40 bytes each, or 16 a run's
  // lane: 80 MB).
  static constexpr std::size_t kBacklog = std::size_t{1} << 21;

  // Block `block`'s accesses in `batch` (in execution order; emptied when they went in, or moved
  // into the waiting blocks). `block_end`: the block has no more.
  void Put(std::uint64_t block, GlobalShadow::Batch& batch, bool block_end);
  void Abandon();
  // A cooperative launch's shadow of one grid epoch: every block is resident and waits for the
  // others at the grid sync that ends the epoch, so no worker may wait for its turn here (a block
  // held back would hold the sync): each keeps its accesses, however many, until its turn.
  // Past its share of kBacklog, a block's held accesses are left out of the check across blocks
  // (counted as not checked: unshadowed_accesses), rather than held without bound.
  // `blocks`: the grid's, each holding its own batch; the bound is shared among them.
  void NeverWait(std::uint64_t blocks) {
    never_wait_ = true;
    per_block_ = std::max<std::size_t>(kBacklog / std::max<std::uint64_t>(blocks, 1), 4096);
  }
  // What the shadow found (after every worker finished), with the accesses a never-waiting
  // shadow left out past its bound counted as not checked across blocks.
  HazardTally tally() const {
    HazardTally t = tally_;
    t.unshadowed_accesses += dropped_.load();
    return t;
  }

 private:
  void Drop(GlobalShadow::Batch& batch);  // counted as left out of the check across blocks
  std::mutex mutex_;
  std::condition_variable turn_;
  GlobalShadow shadow_;
  HazardTally tally_;
  std::atomic<std::uint64_t> next_{0};  // the block whose accesses go in next
  bool abandoned_ = false;
  bool never_wait_ = false;
  std::size_t per_block_ = kBacklog;  // a never-waiting shadow's bound on one block's batch
  std::atomic<std::uint64_t> dropped_{0};
  std::map<std::uint64_t, GlobalShadow::Batch> waiting_;
  std::size_t waiting_accesses_ = 0;
  // Emptied batches of waiting blocks, handed back to the workers whose batches wait (a fresh
  // vector each time cost its pages' zeroing by the kernel: 8 % of a matmul's time).
  std::vector<GlobalShadow::Batch> spare_;
};

}  // namespace ws::emu
