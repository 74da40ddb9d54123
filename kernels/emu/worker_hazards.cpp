// The worker's race check (worker.h, trace/hazards.h): at each barrier, the accesses of the
// interval that ends there are paired within the block, and its global accesses go into the
// launch's shadow (shadow_order.h), which pairs them across blocks.
#include <span>

#include "emu/worker.h"

namespace ws::emu::detail {

// The race check of the current barrier interval (or a piece of one): every pair within the
// block, then its global accesses into the launch's shadow. A block that is not kept keeps
// nothing of them after.
void Worker::CheckInterval(bool block_end) {
  const auto block = static_cast<std::uint32_t>(current_.block);
  const std::vector<std::uint8_t>& kinds = SiteKinds();
  std::span<const AccessRecord> records;
  std::span<const std::uint64_t> values;
  bool pair = true;
  const bool from_logs = logging_ || kept_log_;
  if (from_logs) {
    pair = GatherLogs(block, kinds);
    records = interval_records_;
    values = interval_values_;
  } else {
    const std::size_t begin = hazards_begin_, end = current_.accesses.size();
    records = {current_.accesses.data() + begin, end - begin};
    values = {current_.values.data() + begin, end - begin};
    for (std::size_t i = 0; i < records.size(); ++i) {
      const AccessRecord& r = records[i];
      if (r.site < kinds.size() && (kinds[r.site] & kSiteSpaces) == kSiteGlobal)
        ToShadow(block, r, values[i]);
    }
  }
  // From the logs, an interval whose written words each only one thread touched has no pair
  // to look for: its accesses are only counted.
  if (pair && !records.empty() && from_logs && !written_words_.shared()) {
    IntervalPairs::Count(records, values.size() == records.size(), local_sites_, hazard_tally_);
  } else if (pair && !records.empty()) {
    syncs_.clear();
    for (const WarpOpRecord& w : current_.warp_ops) {
      if (w.site < warp_op_kinds_.size() &&
          warp_op_kinds_[w.site] == static_cast<std::uint8_t>(WarpOpKind::kSyncWarp))
        syncs_.push_back({w.warp, w.time, w.mask});
    }
    syncs_.insert(syncs_.end(), tile_syncs_.begin(), tile_syncs_.end());
    interval_pairs_.Add(block, keep_block_, records, values, syncs_, local_sites_, hazard_tally_);
  }
  if (!logging_) {
    if (keep_block_) {
      hazards_begin_ = current_.accesses.size();
    } else {
      current_.accesses.clear();
      current_.values.clear();
      hazards_begin_ = 0;
    }
  }
  if (launch_->grid) {  // a cooperative launch: paired across blocks within each grid epoch
    launch_->GridShadow(grid_epoch_)
        .Put(current_.block, shadow_batch_, block_end || grid_epoch_end_);
    if (grid_epoch_end_) ++grid_epoch_;
    grid_epoch_end_ = false;
    return;
  }
  launch_->shadow.Put(current_.block, shadow_batch_, block_end);
}

// The lanes' logs, thread after thread; pairs only where the interval wrote shared or global
// memory (its global reads still go into the shadow). The accesses that may pair go into
// interval_records_ and interval_values_; returns whether there are pairs to look for. The logs
// are emptied.
bool Worker::GatherLogs(std::uint32_t block, const std::vector<std::uint8_t>& kinds) {
  const bool pair = interval_writes_;
  const bool global = interval_global_;
  const std::uint64_t written = interval_global_written_;
  interval_writes_ = interval_global_ = false;
  interval_global_written_ = 0;
  interval_records_.clear();
  interval_values_.clear();
  // The words the interval wrote: only they, and the reads of them, can pair.
  written_words_.Clear();
  if (pair) MarkWrittenWords(kinds);
  if (simt_) {
    SimtGather(block, kinds, pair, global, written);
    return pair;
  }
  for (ThreadCtx& c : threads_) {
    if (!pair && !global) {  // nothing to pair and nothing for the shadow
      c.log.clear();
      c.formed = 0;
      continue;
    }
    for (const ThreadCtx::Logged& e : c.log)
      GatherOne(block, kinds, pair,
                {e.offset, 0, e.time, static_cast<std::uint16_t>(c.linear), e.site, c.epoch},
                e.value);
    c.log.clear();
    c.formed = 0;
  }
  return pair;
}

// One access of the interval: a record to pair where it may race (a write, or a touch of a word
// the interval wrote), and a global one into the shadow.
void Worker::GatherOne(std::uint32_t block, const std::vector<std::uint8_t>& kinds, bool pair,
                       const AccessRecord& r, std::uint64_t value) {
  const std::uint8_t kind = r.site < kinds.size() ? kinds[r.site] : 0;
  if ((kind & kSiteSpaces) == 0) return;
  if (pair) {
    const SiteInfo& site = local_sites_[r.site];
    if ((kind & kSiteWrite) != 0 ||
        written_words_.Touches(site.space, site.buffer, r.offset, site.size, r.thread)) {
      interval_records_.push_back(r);
      interval_values_.push_back(value);
    }
  }
  if ((kind & kSiteSpaces) == kSiteGlobal) ToShadow(block, r, value);
}

// The shared and global words the interval's stores and atomics wrote, into written_words_.
void Worker::MarkWrittenWords(const std::vector<std::uint8_t>& kinds) {
  for (const SimtRequest& q : simt_log_) {  // the SIMT path's interval (else empty)
    const std::uint8_t kind = q.site < kinds.size() ? kinds[q.site] : 0;
    if ((kind & kSiteWrite) == 0 || (kind & kSiteSpaces) == 0) continue;
    const SiteInfo& site = local_sites_[q.site];
    std::uint32_t k = q.at;
    for (std::uint32_t m = q.mask; m != 0; m &= m - 1, ++k)
      written_words_.Add(
          site.space, site.buffer, simt_offsets_[k], site.size,
          static_cast<std::uint16_t>(q.warp * 32u + static_cast<std::uint32_t>(__builtin_ctz(m))));
  }
  for (const ThreadCtx& c : threads_) {
    for (const ThreadCtx::Logged& e : c.log) {
      const std::uint8_t kind = e.site < kinds.size() ? kinds[e.site] : 0;
      if ((kind & kSiteWrite) == 0 || (kind & kSiteSpaces) == 0) continue;
      const SiteInfo& site = local_sites_[e.site];
      written_words_.Add(site.space, site.buffer, e.offset, site.size,
                         static_cast<std::uint16_t>(c.linear));
    }
  }
}

const std::vector<std::uint8_t>& Worker::SiteKinds() {
  if (site_kinds_.size() != local_sites_.size()) {
    site_kinds_.resize(local_sites_.size());
    for (std::size_t i = 0; i < local_sites_.size(); ++i) {
      const MemorySpace sp = local_sites_[i].space;
      site_kinds_[i] = sp == MemorySpace::kShared   ? kSiteShared
                       : sp == MemorySpace::kGlobal ? kSiteGlobal
                                                    : 0;
      if (site_kinds_[i] != 0 && local_sites_[i].op != AccessOp::kLoad)
        site_kinds_[i] |= kSiteWrite;
    }
  }
  return site_kinds_;
}

}  // namespace ws::emu::detail

namespace ws::emu::detail {

void Worker::OnlyRead(const std::uint32_t* read, std::size_t reads, const std::uint32_t* written,
                      std::size_t writes) {
  if (!hazards_) return;
  std::uint32_t most = 0;
  for (std::size_t i = 0; i < reads; ++i) most = std::max(most, read[i] + 1);
  only_read_.assign(most, 0);
  for (std::size_t i = 0; i < reads; ++i) only_read_[read[i]] = 1;
  for (std::size_t i = 0; i < writes; ++i)
    if (written[i] < only_read_.size()) only_read_[written[i]] = 0;
}

// A load of a buffer only read skips the check; a store or an atomic that lands in one after all
// (through a pointer the rewriter's rule did not follow: a __device__ pointer a helper stores
// through) marks it, and the launch counts its loads as not checked (Canonicalize). A store
// keyed by no one buffer (a site that reaches into several) is looked at lane by lane
// (OnlyReadStores).
bool Worker::OnlyReadSkips(std::uint64_t key) {
  const std::uint32_t array = KeyArray(key);
  if (KeyOpOf(key) == kKeyLoad) return array < only_read_.size() && only_read_[array] != 0;
  if (array < only_read_.size() && only_read_[array] != 0) only_read_[array] = 2;
  return false;
}

// A store of a site that reaches into several buffers: each lane's offset is its address as
// cudaMalloc lays the buffers out (BufferInfo::base); the buffer it falls in is marked.
void Worker::OnlyReadStores(std::uint32_t mask, const std::uint32_t (&offsets)[32]) {
  const std::vector<BufferInfo>& buffers = launch_->config->buffers;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t a = offsets[__builtin_ctz(m)];
    for (std::size_t i = 0; i < buffers.size() && i < only_read_.size(); ++i)
      if (only_read_[i] != 0 && a - buffers[i].base < buffers[i].bytes) only_read_[i] = 2;
  }
}

}  // namespace ws::emu::detail
