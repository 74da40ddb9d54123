// The SIMT path's race-check log (worker.h; docs/ENGINE.md, "Races over the whole grid"): a
// warp's requests kept in one arena in the order the warps made them (SimtLog), shared loads kept
// as shapes until a store (SimtMaterialize), and at the interval's end gathered into each
// thread's order for the pairs and the shadow (SimtGather).
#include "emu/worker.h"

namespace ws::emu::detail {

// The race check's log of one request of the running warp (RecordWarp): its lanes' entries, or a
// shared load's shape (its values read later). `rows`: a whole warp's lanes lie in rows
// ({first, step, delta, group}: RowOffsets; RecordWarpAffine), and `given` is not filled in;
// null: every lane's offset is given.
void Worker::SimtLog(std::uint16_t id, std::uint64_t key, std::uint32_t mask,
                     const std::uint32_t (&given)[32], const std::uint32_t (&times)[32],
                     const std::uint64_t* values, const void* const* ptrs,
                     const std::uint32_t* rows) {
  const std::uint32_t w = simt_warp_;
  // A warp's interval holds at most kMaxLogged requests (a lane log's bound) before the check
  // takes it so far. A kept block's is not cut there: the per-thread path checks a kept block's
  // interval whole from its records (up to kMaxKept of them, past which the launch says it is
  // truncated), and both engines must report the same (hardware-effects-gpu's one-warp loops of
  // 8,000 accesses a lane were one cut interval here and none there).
  const bool full = keep_block_ ? simt_offsets_.size() >= kMaxKept : simt_logged_[w] >= kMaxLogged;
  ++simt_logged_[w];
  if (full) [[unlikely]] {
    CutInterval();
    ++simt_logged_[w];
  }
  const bool load = KeyOpOf(key) == kKeyLoad;
  if (!load) interval_writes_ = true;
  if (KeySpaceOf(key) == kKeyGlobal) {
    interval_global_ = true;
    if (!load) interval_global_written_ |= ArrayBit(KeyArray(key));
  }
  std::uint32_t made[32];
  const std::uint32_t* offsets = given;
  auto make_offsets = [&] {
    if (rows != nullptr && offsets != made) {
      RowOffsets(rows[0], rows[1], rows[2], rows[3], made);
      offsets = made;
    }
  };
  // A shared load at one time whose lanes lie in rows (RecordWarpAffine: a whole warp, one row
  // or a 2D block's rows), or step evenly: kept without values (read later, SimtMaterialize).
  const bool shared_load =
      ptrs != nullptr && KeySpaceOf(key) == kKeyShared && KeyOpOf(key) == kKeyLoad;
  if (shared_load && rows != nullptr) {
    std::uint32_t off = 0;
    for (std::uint32_t l = 0; l < 32; ++l) off |= times[l] ^ times[0];
    if (off == 0) {
      simt_log_.push_back({id, static_cast<std::uint16_t>(w), mask,
                           kSimtShape | static_cast<std::uint32_t>(simt_shapes_.size())});
      simt_shapes_.push_back({static_cast<const char*>(ptrs[0]), rows[0], times[0],
                              static_cast<std::int32_t>(rows[1]),
                              static_cast<std::int32_t>(rows[2]), rows[3]});
      t_reads_pending = true;
      return;
    }
  } else if (shared_load) {
    const int l0 = __builtin_ctz(mask);
    const std::uint32_t rest = mask & (mask - 1);
    const std::int32_t step =
        rest == 0 ? 0
                  : static_cast<std::int32_t>(offsets[__builtin_ctz(rest)] - offsets[l0]) /
                        (__builtin_ctz(rest) - l0);
    std::uint32_t off = 0;
    const std::uint32_t o0 = offsets[l0], t0 = times[l0];
    if (mask == ~0u) {  // a loop the compiler vectorizes
      for (std::uint32_t l = 0; l < 32; ++l)
        off |= (offsets[l] - o0 - l * static_cast<std::uint32_t>(step)) | (times[l] ^ t0);
    } else {
      for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        const int l = __builtin_ctz(m);
        off |= (offsets[l] - o0 - static_cast<std::uint32_t>((l - l0) * step)) | (times[l] ^ t0);
      }
    }
    if (off == 0) {
      simt_log_.push_back({id, static_cast<std::uint16_t>(w), mask,
                           kSimtShape | static_cast<std::uint32_t>(simt_shapes_.size())});
      simt_shapes_.push_back({static_cast<const char*>(ptrs[l0]), o0, t0, step});
      t_reads_pending = true;
      return;
    }
  }
  // A whole warp's global load at one time: one run for the shadow (ApplyBatch), straight into
  // the batch that goes there: its rows' four numbers (or its 32 offsets) and its values, two
  // lanes to a number where they are of 4 bytes or fewer.
  if (mask == ~0u && load && local_sites_[id].space == MemorySpace::kGlobal) {
    std::uint32_t off = 0;
    for (std::uint32_t l = 0; l < 32; ++l) off |= times[l] ^ times[0];
    if (off == 0) {
      const std::uint32_t size = local_sites_[id].size;
      const bool packed = size <= 4;
      std::uint64_t span = rows != nullptr ? GlobalShadow::Batch::RowSpan(rows) : ~0ull;
      if (span == ~0ull) {
        make_offsets();
        span = GlobalShadow::Batch::Span(offsets);
      }
      const std::uint32_t at = shadow_batch_.AddRun(offsets, rows, packed);
      std::uint64_t* out = shadow_batch_.RunValues(at);
      if (values != nullptr) {
        if (packed) {
          for (std::uint32_t l = 0; l < 32; l += 2)
            out[l / 2] = (values[l] & ~0u) | (values[l + 1] << 32);
        } else {
          std::copy(values, values + 32, out);
        }
      } else if (ptrs != nullptr && rows != nullptr && size == 4 &&
                 (rows[1] == 4 || rows[1] == 0)) {
        // Rows of 4-byte lanes side by side, or each row one word: a row's values are its
        // first lane's bytes on, or that word again (packed, lane l at bytes 4 l: Batch::AddRun).
        const std::uint32_t group = rows[3];
        for (std::uint32_t r = 0; r < 32; r += group) {
          if (rows[1] == 4) {
            std::memcpy(reinterpret_cast<char*>(out) + 4 * r, ptrs[r], 4 * group);
          } else {
            const std::uint64_t v = ::ws::simt::ValueAt(ptrs[r], 4);
            for (std::uint32_t l = r; l < r + group; l += 2) out[l / 2] = v | (v << 32);
          }
        }
      } else if (ptrs != nullptr) {
        ReadWarp(size, ptrs, out, packed);
      }
      simt_log_.push_back(
          {id, static_cast<std::uint16_t>(w), mask, at, true, true, times[0], span});
      return;
    }
  }
  make_offsets();
  std::uint64_t read[32];
  if (values == nullptr && ptrs != nullptr) values = ReadLanes(id, mask, ptrs, read);
  const auto at = static_cast<std::uint32_t>(simt_offsets_.size());
  simt_log_.push_back({id, static_cast<std::uint16_t>(w), mask, at});
  if (mask == ~0u) {
    simt_offsets_.insert(simt_offsets_.end(), offsets, offsets + 32);
    simt_times_.insert(simt_times_.end(), times, times + 32);
    if (values != nullptr)
      simt_values_.insert(simt_values_.end(), values, values + 32);
    else
      simt_values_.resize(simt_values_.size() + 32, 0);
  } else {
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
      simt_offsets_.push_back(offsets[lane]);
      simt_times_.push_back(times[lane]);
      simt_values_.push_back(values != nullptr ? values[lane] : 0);
    }
  }
}

// The values of a request's loads that did not keep them (a statement that stores nothing:
// memory still holds them), into `out`.
const std::uint64_t* Worker::ReadLanes(std::uint16_t id, std::uint32_t mask,
                                       const void* const* ptrs, std::uint64_t (&out)[32]) const {
  const std::uint32_t bytes = std::min<std::uint32_t>(local_sites_[id].size, 8);
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    out[l] = ::ws::simt::ValueAt(ptrs[l], bytes);
  }
  return out;
}

// The same for a whole warp, into `out`: for the common sizes a loop of 32 plain loads.
// `packed` (loads of 4 bytes or fewer): two lanes to a number, lane l in bits 32 (l % 2) on
// (GlobalShadow::Batch::AddRun).
void Worker::ReadWarp(std::uint32_t size, const void* const* ptrs, std::uint64_t* out,
                      bool packed) {
  if (packed) {
    for (std::uint32_t l = 0; l < 32; l += 2)
      out[l / 2] =
          ::ws::simt::ValueAt(ptrs[l], size) | (::ws::simt::ValueAt(ptrs[l + 1], size) << 32);
    return;
  }
  if (size == 4) {
    for (std::uint32_t l = 0; l < 32; ++l) out[l] = ::ws::simt::ValueAt(ptrs[l], 4);
  } else if (size >= 8) {
    for (std::uint32_t l = 0; l < 32; ++l) out[l] = ::ws::simt::ValueAt(ptrs[l], 8);
  } else {
    for (std::uint32_t l = 0; l < 32; ++l) out[l] = ::ws::simt::ValueAt(ptrs[l], size);
  }
}

// The shared loads kept without values since the last call: their values read from memory now
// (nothing wrote it since: a store first calls this), and each becomes a request with its lanes'
// entries, in its place in the interval.
void Worker::SimtMaterialize() {
  t_reads_pending = false;
  for (std::size_t i = simt_shaped_from_; i < simt_log_.size(); ++i) {
    SimtRequest& q = simt_log_[i];
    if (q.in_batch || (q.at & kSimtShape) == 0) continue;
    const SimtShape& s = simt_shapes_[q.at & ~kSimtShape];
    const std::uint32_t bytes = std::min<std::uint32_t>(local_sites_[q.site].size, 8);
    const int l0 = __builtin_ctz(q.mask);
    const int g = static_cast<int>(s.group);  // (below 32: a whole warp, l0 0)
    q.at = static_cast<std::uint32_t>(simt_offsets_.size());
    for (std::uint32_t m = q.mask; m != 0; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int d = g == 32 ? (l - l0) * s.step : (l / g) * s.delta + (l % g) * s.step;
      simt_offsets_.push_back(s.offset + static_cast<std::uint32_t>(d));
      simt_times_.push_back(s.time);
      simt_values_.push_back(::ws::simt::ValueAt(s.at + d, bytes));
    }
  }
  simt_shaped_from_ = simt_log_.size();
  simt_shapes_.clear();
}

// GatherLogs on the SIMT path: the arena's accesses in each thread's order (by thread, then by
// the thread's clock: the order its lane log would hold them in), as records for the pairs and
// the shadow. The arena is emptied.
void Worker::SimtGather(std::uint32_t block, const std::vector<std::uint8_t>& kinds, bool pair,
                        bool global, std::uint64_t written) {
  const std::size_t n = threads_.size();
  if (!pair && !global) {
    SimtClearLog();
    return;
  }
  if (t_reads_pending) SimtMaterialize();
  // Every thread of the block has passed the same barriers (PassBarrier counts them for all,
  // exited or not): one epoch, read once rather than from each lane's thread.
  const std::uint32_t epoch = threads_[0].epoch;
  // The whole warps' global loads that step evenly at one time, of an array the interval did not
  // write, go to the shadow as they came, after the rest (each thread's in its order), under a
  // header (GlobalShadow::ApplyBatch): they are not sorted here, nor looked at one by one there
  // where each reads a word already read. (No word they read was written in the interval by the
  // block: their order among its accesses does not matter.)
  std::size_t run_lanes = 0;
  for (SimtRequest& q : simt_log_) {
    q.run = q.run && (written & ArrayBit(local_sites_[q.site].buffer)) == 0;
    run_lanes += q.run ? 32 : 0;
  }
  // A request that GatherOne would pass over is left out before the sort: a shared load that
  // can touch no word the interval wrote (none of its shared words was written), or an access
  // of neither shared nor global memory.
  const bool shared_written = pair && written_words_.MayTouch(MemorySpace::kShared, 0);
  auto passed_over = [&](const SimtRequest& q) {
    const std::uint8_t kind = q.site < kinds.size() ? kinds[q.site] : 0;
    return (kind & kSiteSpaces) == 0 ||
           ((kind & kSiteSpaces) == kSiteShared && (kind & kSiteWrite) == 0 && !shared_written);
  };
  // Where each shared word the interval wrote had one writer and no shared load is looked at,
  // a shared store or atomic can pair with nothing: it is only counted, as IntervalPairs::Count
  // would count it, and not sorted.
  bool shared_loads_kept = false;
  for (const SimtRequest& q : simt_log_) {
    const std::uint8_t kind = q.site < kinds.size() ? kinds[q.site] : 0;
    shared_loads_kept = shared_loads_kept || (kind == kSiteShared && !passed_over(q));
  }
  const bool count_shared_writes = pair && !written_words_.shared() && !shared_loads_kept;
  std::vector<GlobalShadow::Access>& batch = shadow_batch_.accesses;
  const std::size_t header = batch.size();
  if (run_lanes > 0) batch.emplace_back().size = 0;
  simt_bucket_.assign(n + 1, 0u);
  std::size_t left_out = 0;
  for (SimtRequest& q : simt_log_) {
    if (run_lanes > 0 && q.run) continue;
    const bool counted =
        count_shared_writes && q.site < kinds.size() && kinds[q.site] == (kSiteShared | kSiteWrite);
    if (!q.in_batch && (counted || passed_over(q))) {
      const auto lanes = static_cast<std::uint32_t>(__builtin_popcount(q.mask));
      left_out += lanes;
      if (counted) hazard_tally_.shared_accesses += lanes;
      q.mask = 0;  // (its entries stay in the arrays, unread)
      continue;
    }
    for (std::uint32_t m = q.mask; m != 0; m &= m - 1)
      ++simt_bucket_[q.warp * 32u + static_cast<std::uint32_t>(__builtin_ctz(m)) + 1u];
  }
  for (std::size_t i = 0; i < n; ++i) simt_bucket_[i + 1] += simt_bucket_[i];
  std::size_t sorted = simt_offsets_.size() - left_out;
  for (const SimtRequest& q : simt_log_) sorted += q.in_batch && !q.run ? 32 : 0;
  simt_sorted_.resize(sorted);
  for (const SimtRequest& q : simt_log_) {
    if (run_lanes > 0 && q.run) continue;
    std::uint32_t k = q.at;
    if (q.in_batch) {  // a run of an array the interval wrote: into its threads' order
      std::uint32_t offsets[32];
      std::uint64_t values[32];
      shadow_batch_.Lanes(q.at, static_cast<std::uint8_t>(local_sites_[q.site].size), offsets,
                          values);
      for (std::uint32_t l = 0; l < 32; ++l)
        simt_sorted_[simt_bucket_[q.warp * 32u + l]++] = {
            offsets[l], q.time, values[l], q.site, static_cast<std::uint16_t>(q.warp * 32u + l)};
      continue;
    }
    for (std::uint32_t m = q.mask; m != 0; m &= m - 1, ++k) {
      const std::uint32_t thread = q.warp * 32u + static_cast<std::uint32_t>(__builtin_ctz(m));
      simt_sorted_[simt_bucket_[thread]++] = {simt_offsets_[k], simt_times_[k], simt_values_[k],
                                              q.site, static_cast<std::uint16_t>(thread)};
    }
  }
  // Within a thread the entries are in request order, which differs from its clock's only
  // inside one statement (its slots in source order): nearly sorted runs.
  std::size_t begin = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t end = simt_bucket_[i];
    for (std::size_t a = begin + 1; a < end; ++a) {
      const SimtLogged e = simt_sorted_[a];
      std::size_t b = a;
      while (b > begin && simt_sorted_[b - 1].time > e.time) {
        simt_sorted_[b] = simt_sorted_[b - 1];
        --b;
      }
      simt_sorted_[b] = e;
    }
    begin = end;
  }
  for (const SimtLogged& e : simt_sorted_)
    GatherOne(block, kinds, pair, {e.offset, 0, e.time, e.thread, e.site, epoch}, e.value);
  if (run_lanes > 0) {
    // Each run: its lane 0 as an access, the 32 lanes' offsets and values beside the batch.
    const std::size_t singles = batch.size() - header - 1;
    std::uint32_t runs = 0;
    for (const SimtRequest& q : simt_log_) {
      if (!q.run) continue;
      const std::uint32_t thread = q.warp * 32u;
      GlobalShadow::Access::Fill(
          batch.emplace_back(), block,
          {q.at, 0, q.time, static_cast<std::uint16_t>(thread), q.site, epoch},
          local_sites_[q.site], q.span, true, keep_block_);
      ++runs;
    }
    GlobalShadow::Access& h = batch[header];
    h.offset = static_cast<std::uint32_t>(singles);
    h.time = runs;
  }
  SimtClearLog();
}

}  // namespace ws::emu::detail
