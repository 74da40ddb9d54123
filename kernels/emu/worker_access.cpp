// The worker's memory accesses (worker.h; the per-access path, Record, is inline there): the
// lanes' logs formed into warp requests after each round of a warp, or replayed through the
// per-access path; the records of a kept block.
#include "emu/worker.h"

namespace ws::emu::detail {

// The lane logs hold more of a barrier interval than kMaxLogged: every lane's log goes into
// requests by the per-access path and is checked now (the report counts the cut interval).
void Worker::CutInterval() {
  ++hazard_tally_.cut_intervals;
  for (ThreadCtx& c : threads_) {
    if (c.pending_where != nullptr) FlushValue(&c);
    if (c.log.size() > c.formed) ReplayLog(c);
  }
  CheckInterval();
}

// A lane's log through the per-access path, and its warp's later logs too (once a warp's
// requests have rows, its lanes' later accesses may join them).
void Worker::ReplayLog(ThreadCtx& c) {
  replay_[c.linear / 32] = 1;
  for (std::size_t k = c.formed; k < c.log.size(); ++k)
    RecordNow(c, c.log[k].site, c.log[k].offset, c.log[k].instance);
  Formed(c);
}

// Did every lane of the warp that is still running stop at a barrier? Then no lane can bring
// an access of a dynamic instance in this round's logs in a later round, and the round's logs
// are whole requests. Lanes stopped at warp-level meetings may go on in different rounds (the
// groups of a cooperative groups' labeled partition each reduce by shuffles of their own, and
// their leaders' atomic is one request on a GPU): their logs replay.
bool Worker::WarpStopsTogether(std::uint32_t first, std::uint32_t end) const {
  for (std::uint32_t i = first; i < end; ++i) {
    const ThreadStatus s = threads_[i].status;
    if (s != ThreadStatus::kExited && s != ThreadStatus::kAtBarrier) return false;
  }
  return true;
}

// After a round of warp `w`'s threads (each ran until it stopped): its logs into requests.
void Worker::FormWarpRequests(std::uint32_t w, std::uint32_t n) {
  const std::uint32_t first = w * 32, end = std::min(n, first + 32);
  std::uint32_t mask = 0;
  const ThreadCtx* lead = nullptr;
  bool same = replay_[w] == 0 && WarpStopsTogether(first, end);
  for (std::uint32_t i = first; i < end; ++i) {
    const ThreadCtx& c = threads_[i];
    if (c.log.size() == c.formed) continue;
    mask |= 1u << (i - first);
    if (lead == nullptr) {
      lead = &c;
    } else if (same) {
      same = c.log.size() - c.formed == lead->log.size() - lead->formed &&
             std::equal(c.log.begin() + static_cast<std::ptrdiff_t>(c.formed), c.log.end(),
                        lead->log.begin() + static_cast<std::ptrdiff_t>(lead->formed),
                        [](const ThreadCtx::Logged& a, const ThreadCtx::Logged& b) {
                          return a.site == b.site && a.instance == b.instance;
                        });
    }
  }
  if (lead == nullptr) return;
  // By each lane's k-th arrival (the lessons): a lane that logged nothing this round may still
  // arrive later and join a request of this round, as its k-th; so every lane still running
  // must have logged.
  if (same && !instances_) {
    for (std::uint32_t i = first; i < end; ++i) {
      const ThreadCtx& c = threads_[i];
      if (c.status != ThreadStatus::kExited && c.log.size() == c.formed) same = false;
    }
  }
  if (!same) {
    for (std::uint32_t i = first; i < end; ++i) {
      if (threads_[i].log.size() > threads_[i].formed) ReplayLog(threads_[i]);
    }
    return;
  }
  std::uint32_t offsets[32] = {};
  const std::size_t count = lead->log.size() - lead->formed;
  for (std::size_t k = 0; k < count; ++k) {
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
      const ThreadCtx& c = threads_[first + lane];
      offsets[lane] = c.log[c.formed + k].offset;
    }
    requests_.AddWhole(lead->log[lead->formed + k].site, w, mask, offsets, local_sites_,
                       launch_->config->buffers, &stats_);
  }
  for (std::uint32_t i = first; i < end; ++i) Formed(threads_[i]);
}

// A kept access and its value: a load's is there now; a store's (and an atomic's result) once
// it has happened, at the thread's next stop.
void Worker::Keep(const AccessRecord& r, std::uint64_t key, const void* where) {
  current_.accesses.push_back(r);
  std::uint64_t value = 0;
  const auto bytes = std::min<std::uint32_t>(static_cast<std::uint32_t>(key & 0xffu), 8);
  if (where != nullptr && KeyOpOf(key) == kKeyLoad) {
    value = ::ws::simt::ValueAt(where, bytes);
  } else if (where != nullptr) {
    t_ctx->pending_where = where;
    t_ctx->pending_bytes = bytes;
    t_ctx->pending_index = current_.values.size();
    t_ctx->pending_in_log = false;
  }
  current_.values.push_back(value);
}

// A warp whose threads have all exited adds no lane to any request: its requests are added up
// now, while its rows are still in the cache.
void Worker::FinishWarpIfExited(std::uint32_t w, std::uint32_t n) {
  const std::uint32_t end = std::min(n, (w + 1) * 32);
  for (std::uint32_t i = w * 32; i < end; ++i) {
    if (threads_[i].status != ThreadStatus::kExited) return;
  }
  warp_done_[w] = 1;
  requests_.FinishWarp(w, local_sites_, launch_->config->buffers, &stats_);
}

void Worker::ForCache(const AccessRecord& r) {
  if (cache_wants_.size() <= r.site) {
    const std::size_t from = cache_wants_.size();
    cache_wants_.resize(local_sites_.size());
    for (std::size_t i = from; i < cache_wants_.size(); ++i)
      cache_wants_[i] = launch_->cache->Wants(local_sites_[i]) ? 1 : 0;
  }
  if (!cache_wants_[r.site]) return;
  if (cache_records_.size() < kMaxCacheRecords)
    cache_records_.push_back(r);
  else
    launch_->truncated = true;
}

}  // namespace ws::emu::detail
