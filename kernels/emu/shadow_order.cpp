// The shadow's block order (shadow_order.h).
#include "emu/shadow_order.h"

namespace ws::emu {

void ShadowOrder::Put(std::uint64_t block, GlobalShadow::Batch& batch, bool block_end) {
  // Not this block's turn yet: its accesses wait with its worker, without taking the lock (the
  // worker whose turn it is holds it while it puts blocks in).
  if (!block_end && next_.load(std::memory_order_acquire) != block) {
    if (batch.size() < (never_wait_ ? per_block_ : kBacklog)) return;
    if (never_wait_) {  // past the bound: left out of the check across blocks, and counted
      Drop(batch);
      return;
    }
  }
  std::unique_lock lock(mutex_);
  if (next_ != block && !abandoned_) {
    if (never_wait_ && (batch.size() >= per_block_ || batch.size() + waiting_accesses_ >= kBacklog))
      Drop(batch);
    const std::size_t backlog = batch.size() + waiting_accesses_;
    const bool room = backlog < kBacklog || never_wait_;
    if (!block_end && room) return;  // later
    if (block_end && room) {
      waiting_accesses_ += batch.size();
      GlobalShadow::Batch& moved = waiting_[block] = std::move(batch);
      batch = {};
      if (!spare_.empty()) {
        batch = std::move(spare_.back());
        spare_.pop_back();
      } else {  // room for as much again, made once rather than doubled up to
        batch.accesses.reserve(moved.accesses.size());
        batch.offsets.reserve(moved.offsets.size());
        batch.values.reserve(moved.values.size());
      }
      return;
    }
    turn_.wait(lock, [&] { return next_ == block || abandoned_; });
  }
  if (abandoned_) {
    batch.clear();
    return;
  }
  // The block's turn: no other worker puts accesses in until next_ passes it, so the lock is let
  // go while they go in (a worker whose block ends meanwhile leaves its batch waiting, rather
  // than wait for the lock: a quarter of a matmul's second core idled so).
  lock.unlock();
  shadow_.ApplyBatch(batch, tally_);
  batch.clear();
  if (!block_end) return;
  shadow_.FinishBlock(static_cast<std::uint32_t>(block), tally_);
  lock.lock();
  ++next_;
  // The waiting blocks that now come next, each put in with the lock let go.
  for (auto it = waiting_.find(next_); it != waiting_.end() && !abandoned_;
       it = waiting_.find(next_)) {
    GlobalShadow::Batch waited = std::move(it->second);
    waiting_.erase(it);
    const std::uint64_t next = next_;
    const std::size_t held = waited.size();
    lock.unlock();
    shadow_.ApplyBatch(waited, tally_);
    shadow_.FinishBlock(static_cast<std::uint32_t>(next), tally_);
    waited.clear();
    lock.lock();
    waiting_accesses_ -= held;
    ++next_;
    if (spare_.size() < 4) spare_.push_back(std::move(waited));
  }
  turn_.notify_all();
}

void ShadowOrder::Drop(GlobalShadow::Batch& batch) {
  // The accesses themselves (an entry of size 0 heads an interval; a cooperative launch runs
  // thread by thread, so no entry is a warp's run).
  std::uint64_t n = 0;
  for (const GlobalShadow::Access& a : batch.accesses) n += a.size != 0 ? 1 : 0;
  dropped_ += n;
  batch.clear();
}

void ShadowOrder::Abandon() {
  std::lock_guard lock(mutex_);
  abandoned_ = true;
  turn_.notify_all();
}

}  // namespace ws::emu
