// The shadow's block order (shadow_order.h).
#include "emu/shadow_order.h"

namespace ws::emu {

void ShadowOrder::Put(std::uint64_t block, GlobalShadow::Batch& batch, bool block_end) {
  // Not this block's turn yet: its accesses wait with its worker, without taking the lock (the
  // worker whose turn it is holds it while it puts blocks in).
  if (!block_end && batch.size() < kBacklog && next_.load(std::memory_order_acquire) != block)
    return;
  std::unique_lock lock(mutex_);
  if (next_ != block && !abandoned_) {
    const std::size_t backlog = batch.size() + waiting_accesses_;
    if (!block_end && backlog < kBacklog) return;  // later
    if (block_end && backlog < kBacklog) {
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
  shadow_.ApplyBatch(batch, tally_);
  batch.clear();
  if (!block_end) return;
  shadow_.FinishBlock(static_cast<std::uint32_t>(block), tally_);
  ++next_;
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
       it = waiting_.erase(it)) {
    shadow_.ApplyBatch(it->second, tally_);
    shadow_.FinishBlock(static_cast<std::uint32_t>(it->first), tally_);
    waiting_accesses_ -= it->second.size();
    ++next_;
    if (spare_.size() < 4) {
      it->second.clear();
      spare_.push_back(std::move(it->second));
    }
  }
  turn_.notify_all();
}

void ShadowOrder::Abandon() {
  std::lock_guard lock(mutex_);
  abandoned_ = true;
  turn_.notify_all();
}

}  // namespace ws::emu
