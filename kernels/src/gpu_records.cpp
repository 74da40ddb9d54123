// A GPU capture's words (gpu_records.h) into a launch trace: the events of each warp's stream
// (gathered from the pool by gpu_pool.cpp) decoded into the same records the emulator makes (the
// encoders that write events as the device does, and the tally's table read back:
// gpu_records_words.cpp).
//
// Index of this file:
// [SECTION] Events: a warp's stream of words
// [SECTION] Decoding a capture
#include "warpscope/kernels/gpu_records.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "gpu_async_replay.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/trace/analysis.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {

//-------------------------------------------------------------------------------------------------
// [SECTION] Events: a warp's stream of words
//-------------------------------------------------------------------------------------------------

namespace {

// An asynchronous copy call's kind lies past every warp-level intrinsic's (word 0's low byte).
static_assert(kWarpOpKinds <= static_cast<int>(dev::kAsyncCallBase));

struct Event {
  std::uint64_t key;
  std::uint32_t mask, time;
  const std::uint32_t* words;  // the event's first word
  bool affine;
  bool barrier;            // the lanes of `mask` passed a barrier (no offsets)
  std::uint32_t size;      // words
  bool warp_op = false;    // the lanes of `mask` met at a warp-level intrinsic (words[1]: place)
  bool instanced = false;  // words[4] is the lanes' dynamic instance
  bool async = false;      // an asynchronous copy call (warp_op's size; word 0's kind past them)
  std::uint32_t payload = dev::kEventHeaderWords;  // the first offset word

  std::uint32_t Instance() const { return words[dev::kEventHeaderWords]; }

  std::uint32_t WarpOpKindOf() const { return words[0] & 0xffu; }
  std::uint8_t Source(std::uint32_t lane) const {
    return reinterpret_cast<const std::uint8_t*>(words + dev::kEventHeaderWords)[lane];
  }

  // A barrier event's times (ws_cuda_record_format.h): the departure, unwrapped near the arrival.
  std::uint64_t Arrival() const { return std::uint64_t{words[5]} << 32 | words[4]; }
  std::uint64_t Departure() const;
  std::uint32_t Sm() const { return words[6]; }
  std::uint32_t WaitCycles() const { return words[7]; }
  // A barrier event of a multi-warp tile's sync: its tile's warps (word 0's low bits), else 0.
  std::uint32_t TileWarps() const { return barrier ? words[0] & 0xffu : 0u; }
  // The threads that passed its instance (word 0's bits 16..26; 0 from an older recorder).
  std::uint32_t Arrived() const { return barrier ? words[0] >> 16 & 0x7ffu : 0u; }

  std::uint32_t Offset(std::uint32_t rank) const {
    return affine ? words[payload] + rank * words[payload + 1] : words[payload + rank];
  }
};

// Device file tag -> FileTag of the file's name (identity for tags the capture does not name).
std::vector<std::uint16_t> Retags(const GpuCapture& c) {
  std::vector<std::uint16_t> to(dev::kDeviceFileTags);
  for (std::uint32_t t = 0; t < to.size(); ++t) to[t] = static_cast<std::uint16_t>(t);
  for (const auto& [tag, name] : c.device_files) to[tag] = FileTagOf(name);
  return to;
}

std::uint32_t Retag(const std::vector<std::uint16_t>& to, std::uint32_t place) {
  return MakePlace(to[PlaceFile(place)], PlaceLine(place));
}

// A site key with its place's file tag retagged (the events' keys and the tallied shapes' alike).
std::uint64_t RetagKey(const std::vector<std::uint16_t>& to, std::uint64_t key) {
  return (std::uint64_t{Retag(to, KeyPlace(key))} << 32) | (key & 0xffffffffull);
}

// Walks warp `w`'s events, calling f(event) for each one that is whole (keys retagged).
template <typename F>
void ForEachEvent(const GpuCapture& c, const std::vector<std::uint16_t>& retag, std::size_t w,
                  F&& f) {
  const std::uint64_t begin = c.warp_base[w];
  const std::uint64_t end = begin + std::min(c.warp_used[w], c.warp_base[w + 1] - begin);
  std::uint64_t at = begin;
  while (at + dev::kEventHeaderWords <= end) {
    const std::uint32_t* p = c.words.data() + at;
    Event e{(std::uint64_t{p[1]} << 32) | (p[0] & ~(dev::kEventAffine | dev::kEventBarrier |
                                                    dev::kEventWarpOp | dev::kEventInstance)),
            p[2],
            p[3],
            p,
            (p[0] & dev::kEventAffine) != 0,
            (p[0] & dev::kEventBarrier) != 0,
            0,
            (p[0] & dev::kEventWarpOp) != 0};
    if (e.mask == 0) break;  // never written
    e.instanced = !e.warp_op && !e.barrier && (p[0] & dev::kEventInstance) != 0;
    e.payload = dev::kEventHeaderWords + (e.instanced ? 1u : 0u);
    e.size = e.warp_op ? dev::kWarpOpEventWords
             : e.barrier
                 ? dev::kBarrierEventWords
                 : e.payload + (e.affine ? 2u : static_cast<std::uint32_t>(std::popcount(e.mask)));
    if (at + e.size > end) break;
    e.async = e.warp_op && e.WarpOpKindOf() >= dev::kAsyncCallBase &&
              e.WarpOpKindOf() < dev::kAsyncCallBase + dev::kAsyncCalls;
    if (e.warp_op && !e.async && e.WarpOpKindOf() >= static_cast<std::uint32_t>(kWarpOpKinds))
      break;
    if (e.async)
      e.key = 0;
    else if (e.warp_op)  // the key's high word is the place; keep the kind in the low bits
      e.key = (std::uint64_t{Retag(retag, p[1])} << 32) | e.WarpOpKindOf();
    else
      e.key = RetagKey(retag, e.key);
    f(e);
    at += e.size;
  }
}

// %globaltimer's low 32 bits, unwrapped to the 64-bit time nearest `ref` (valid within +-2.1 s).
std::uint64_t Unwrap(std::uint64_t ref, std::uint32_t low) {
  std::uint64_t full = (ref & ~0xffffffffull) | low;
  if (full > ref + (1ull << 31))
    full -= 1ull << 32;
  else if (full + (1ull << 31) < ref)
    full += 1ull << 32;
  return full;
}

std::uint64_t Event::Departure() const {
  return Unwrap(Arrival(), time);
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] Decoding a capture
//-------------------------------------------------------------------------------------------------

namespace {

// What the first walk over every warp's events finds: the site table, the barrier and warp-op
// sites, and the clock's origin.
struct CaptureSites {
  SiteTable table;
  std::map<std::uint64_t, std::uint16_t> warp_op_ids;  // (place << 32 | kind) -> site
  std::map<std::uint32_t, std::uint16_t> barrier_ids;
  std::map<std::uint32_t, std::uint32_t> barrier_tiles;  // place -> a multi-warp tile's threads
  std::uint64_t ref = 0;  // the time near which %globaltimer's low words are unwrapped
  std::uint64_t t0 = 0;   // the earliest record: time 0
};

// The site table and the clock's origin, from every event and barrier; the trace's sites,
// barrier and warp-op sites and figures sized to them.
CaptureSites ScanSites(const GpuCapture& c, const std::vector<std::uint16_t>& retag,
                       std::size_t warps, LaunchTrace* t) {
  CaptureSites s;
  std::vector<std::uint64_t> keys;
  std::uint64_t first_arrival = ~0ull;
  std::uint32_t first_low = 0;
  bool any_event = false;
  for (std::size_t w = 0; w < warps; ++w) {
    ForEachEvent(c, retag, w, [&](const Event& e) {
      if (e.barrier) {
        s.barrier_ids.emplace(Retag(retag, e.words[1]), 0);
        if (e.TileWarps() != 0) s.barrier_tiles[Retag(retag, e.words[1])] = e.TileWarps() * 32;
        first_arrival = std::min(first_arrival, e.Arrival());
        return;
      }
      if (e.async) return;  // a kept block's copy call: no site
      if (e.warp_op) {
        s.warp_op_ids.emplace(e.key, 0);
        return;
      }
      if (keys.empty() || keys.back() != e.key) keys.push_back(e.key);
      if (!any_event) first_low = e.time;
      any_event = true;
    });
  }
  for (const GpuCapture::TalliedShape& shape : c.tallied) {
    const std::uint64_t key = RetagKey(retag, shape.key);
    if ((key & dev::kTallyWarpOp) != 0) {  // a warp's meeting, counted
      s.warp_op_ids.emplace(key & ~dev::kTallyWarpOp, 0);
    } else if ((key & dev::kTallyBarrier) != 0) {  // a barrier's pass, counted
      s.barrier_ids.emplace(KeyPlace(key), 0);
      if ((key & 0xffu) != 0)
        s.barrier_tiles[KeyPlace(key)] = static_cast<std::uint32_t>(key & 0xffu) * 32;
    } else {
      keys.push_back(key);
    }
  }
  s.table = BuildSiteTable(keys);
  t->sites = s.table.sites;
  for (auto& [place, id] : s.barrier_ids) {
    id = static_cast<std::uint16_t>(t->barrier_sites.size());
    const auto tile = s.barrier_tiles.find(place);
    t->barrier_sites.push_back({PlaceLine(place), "", static_cast<std::uint16_t>(PlaceFile(place)),
                                "", tile == s.barrier_tiles.end() ? 0u : tile->second});
  }
  for (auto& [key, id] : s.warp_op_ids) {  // sorted by (place, kind), as the emulator sorts them
    id = static_cast<std::uint16_t>(t->warp_op_sites.size());
    WarpOpSite site;
    site.line = PlaceLine(static_cast<std::uint32_t>(key >> 32));
    site.file_tag = static_cast<std::uint16_t>(PlaceFile(static_cast<std::uint32_t>(key >> 32)));
    site.kind = static_cast<WarpOpKind>(key & 0xffu);
    t->warp_op_sites.push_back(site);
  }
  t->warp_op_counts.assign(t->warp_op_sites.size(), 0);
  t->stats.Resize(t->sites.size(), t->barrier_sites.size());
  // Access times share the barriers' clock: unwrapped near the first arrival (else the first
  // event), then everything is measured from the earliest record.
  s.ref = first_arrival != ~0ull ? first_arrival : (1ull << 32) | first_low;
  s.t0 = first_arrival;
  for (std::size_t w = 0; w < warps; ++w)
    ForEachEvent(c, retag, w,
                 [&](const Event& e) { s.t0 = std::min(s.t0, Unwrap(s.ref, e.time)); });
  return s;
}

// One block's events into its records, warp after warp: its accesses as the requests the
// hardware made, its barriers per thread in the order passed, its warp-level meetings.
class BlockDecoder {
 public:
  BlockDecoder(const GpuCapture& c, const std::vector<std::uint16_t>& retag, CaptureSites& sites,
               std::uint32_t tpb, LaunchTrace* t)
      : c_(c),
        retag_(retag),
        s_(sites),
        tpb_(tpb),
        t_(t),
        epoch_(tpb),
        passed_(tpb),
        passes_(tpb) {}

  // With `counted`, the block's barrier passes are counted into the launch's figures, not
  // recorded per thread (a block whose records are not kept; its threads that passed one are
  // marked active here).
  void Decode(std::uint64_t b, std::uint32_t wpb, BlockRecords* rec,
              BarrierPasses* counted = nullptr) {
    block_ = b;
    counted_ = counted;
    if (counted_ != nullptr) counted_->Begin(tpb_, t_->barrier_sites.size());
    rec->block = static_cast<std::uint32_t>(b);
    rec->accesses.clear();
    rec->barriers.clear();
    rec->warp_ops.clear();
    rec->async_events.clear();
    async_.clear();
    meetings_.clear();
    requests_.clear();
    joined_.clear();
    for (auto& p : passed_) p.clear();
    for (auto& p : passes_) p.clear();
    std::fill(epoch_.begin(), epoch_.end(), 0u);
    for (std::uint32_t wib = 0; wib < wpb; ++wib) {
      // The warp's accesses and meetings in the order its stream holds them, which is the order
      // they ran: %globaltimer ticks coarsely (an access and the __syncwarp() after it can read
      // one tick), so where it did not tick the next event is 1 ns later. The hazard search
      // orders a warp's lanes by these times across a __syncwarp().
      // An event's time from the launch's first, at least 1 ns past `last` where there is one.
      auto after = [&](const Event& e, bool any, std::uint32_t last) {
        const auto time = static_cast<std::uint32_t>(Unwrap(s_.ref, e.time) - s_.t0);
        return any && time <= last ? last + 1 : time;
      };
      std::uint32_t last = 0;
      bool any = false;
      auto in_order = [&](const Event& e) {
        last = after(e, any, last);
        any = true;
        return last;
      };
      // Each lane's asynchronous copy calls are its own events (ws_gpu_async.h's NoteAsync), in
      // its order: a call's time at least 1 ns past the lane's call before it, a wait's start
      // between that call and its end. They are not ordered with the warp's other events (the
      // Pipeline view alone reads them): taken as the warp's, a lane's wait was clamped to start
      // at the lane before it's end of the same wait, about 1 ns long.
      std::array<std::uint32_t, 32> lane_last{};
      std::uint32_t lanes_seen = 0;
      ForEachEvent(c_, retag_, b * wpb + wib, [&](const Event& e) {
        if (e.async) {
          // A kept block's only (without a tally every block writes them).
          if (counted_ != nullptr) return;
          std::uint32_t before = 0;
          for (std::uint32_t m = e.mask & lanes_seen; m != 0; m &= m - 1)
            before = std::max(before, lane_last[std::countr_zero(m)]);
          const std::uint32_t time = after(e, (e.mask & lanes_seen) != 0, before);
          for (std::uint32_t m = e.mask; m != 0; m &= m - 1) lane_last[std::countr_zero(m)] = time;
          lanes_seen |= e.mask;
          const std::uint64_t raw = e.words[5] == 0 ? 0 : Unwrap(s_.ref, e.words[5]);
          const std::uint32_t began = e.words[5] == 0
                                          ? time
                                          : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
                                                raw > s_.t0 ? raw - s_.t0 : 0, before, time));
          async_.push_back(
              {wib, e.mask, e.WarpOpKindOf() - dev::kAsyncCallBase, e.words[4], time, began});
          return;
        }
        if (e.warp_op) {
          WarpOp(e, wib, in_order(e), rec);
          return;
        }
        if (e.barrier) {
          Barrier(e, wib);
          return;
        }
        Access(e, wib, in_order(e), rec);
      });
    }
    for (const auto& mine : passed_)
      rec->barriers.insert(rec->barriers.end(), mine.begin(), mine.end());
    if (!async_.empty()) rec->async_events = ReplayAsyncCalls(async_, tpb_);
    if (counted_ != nullptr) counted_->End(&t_->stats);
  }

 private:
  void WarpOp(const Event& e, std::uint32_t wib, std::uint32_t time, BlockRecords* rec) {
    WarpOpRecord w;
    w.site = s_.warp_op_ids[e.key];
    w.warp = static_cast<std::uint16_t>(wib);
    w.mask = e.mask;
    w.time = time;
    w.iteration = meetings_[{wib, w.site}]++;
    for (std::uint32_t l = 0; l < 32; ++l)
      w.source[l] =
          (e.mask >> l & 1u) && e.Source(l) < 32 ? e.Source(l) : static_cast<std::uint8_t>(l);
    ++t_->warp_op_counts[w.site];
    rec->warp_ops.push_back(w);
  }

  void Barrier(const Event& e, std::uint32_t wib) {
    const std::uint32_t place = Retag(retag_, e.words[1]);
    const std::uint16_t id = s_.barrier_ids[place];
    if (counted_ != nullptr) {
      counted_->Pass(id, wib, e.mask, e.TileWarps() * 32, e.Arrival() - s_.t0,
                     e.Departure() - s_.t0, &t_->stats, e.Arrived());
      for (std::uint32_t m = e.mask; m != 0 && !t_->thread_active.empty(); m &= m - 1) {
        const std::uint32_t thread = wib * 32 + static_cast<std::uint32_t>(std::countr_zero(m));
        if (thread < tpb_) t_->thread_active[block_ * tpb_ + thread] = 1;
      }
      return;
    }
    for (std::uint32_t m = e.mask; m != 0; m &= m - 1) {
      const std::uint32_t thread = wib * 32 + static_cast<std::uint32_t>(std::countr_zero(m));
      if (thread >= tpb_) break;
      if (e.TileWarps() == 0) ++epoch_[thread];  // a tile's sync ends no interval of the block
      auto& times = passes_[thread];             // how often this thread passed this barrier before
      auto it = std::find_if(times.begin(), times.end(), [&](auto& p) { return p.first == id; });
      if (it == times.end()) it = times.insert(times.end(), {id, 0});
      // A tile's pass is an instance of its own, as on the emulator: k x tiles + tile.
      const std::uint32_t tile = e.TileWarps() * 32;
      const std::uint32_t iteration =
          tile == 0 ? it->second : it->second * (tpb_ / tile) + thread / tile;
      ++it->second;
      passed_[thread].push_back({e.Arrival() - s_.t0, e.Departure() - s_.t0, iteration,
                                 static_cast<std::uint16_t>(thread), id, e.Sm(), e.WaitCycles()});
    }
  }

  void Access(const Event& e, std::uint32_t wib, std::uint32_t time, BlockRecords* rec) {
    const auto site = s_.table.id_of_key.find(e.key);
    // The event is the lanes that ran the access together: one request, as the hardware
    // made it. Its lanes share the request's number among the warp's at this site (the
    // emulator numbers a program's requests by dynamic instance, the same grouping).
    std::uint32_t request = 0;
    if (e.instanced) {
      // The first repeat none of these lanes brought yet; repeats every lane of the warp brought
      // are passed over for good (`open`), so that a loop whose every pass has the same instance
      // (an unrolled one: cudaTensorCoreGemm's k steps) costs a step an event, not a step a pass.
      const std::uint32_t first = wib * 32;
      const std::uint32_t all = tpb_ - first >= 32 ? ~0u : (1u << (tpb_ - first)) - 1u;
      if ((e.mask & all) == 0) return;  // no lane of the block: nothing to join
      Repeats& r = joined_[{wib, site->second, e.Instance()}];
      std::size_t k = r.open;
      while (k < r.joined.size() && (r.joined[k].lanes & e.mask) != 0) ++k;
      if (k == r.joined.size()) r.joined.push_back({requests_[{wib, site->second}]++, 0u});
      r.joined[k].lanes |= e.mask;
      request = r.joined[k].request;
      while (r.open < r.joined.size() && (r.joined[r.open].lanes & all) == all) ++r.open;
    } else {
      request = requests_[{wib, site->second}]++;
    }
    std::uint32_t rank = 0;
    for (std::uint32_t m = e.mask; m != 0; m &= m - 1, ++rank) {
      const std::uint32_t thread = wib * 32 + static_cast<std::uint32_t>(std::countr_zero(m));
      if (thread >= tpb_) break;  // lanes past the block's last thread do not exist
      rec->accesses.push_back({e.Offset(rank), request, time, static_cast<std::uint16_t>(thread),
                               site->second, epoch_[thread]});
    }
  }

  const GpuCapture& c_;
  const std::vector<std::uint16_t>& retag_;
  CaptureSites& s_;
  std::uint64_t block_ = 0;
  BarrierPasses* counted_ = nullptr;
  std::uint32_t tpb_;
  LaunchTrace* t_;
  std::vector<std::uint32_t> epoch_;                // per thread: barrier events seen so far
  std::vector<std::vector<BarrierRecord>> passed_;  // per thread, in the order passed
  std::vector<std::vector<std::pair<std::uint16_t, std::uint32_t>>> passes_;
  std::map<std::pair<std::uint32_t, std::uint16_t>, std::uint32_t> meetings_;  // (warp, site)
  std::vector<AsyncCall> async_;  // the block's asynchronous copy calls (a kept block's)
  std::map<std::pair<std::uint32_t, std::uint16_t>, std::uint32_t> requests_;  // (warp, site)
  // A program's events by (warp, site, instance) and repeat: the request they join and the lanes
  // in it so far. The lanes of one dynamic instance that recorded apart (the recorder's own
  // code can keep a warp's lanes apart after a divergent branch, where the kernel as written
  // runs them together) make one request, as the emulator's InstanceTable makes it; a lane
  // that brings an instance twice starts its next request.
  struct Joined {
    std::uint32_t request, lanes;
  };
  struct Repeats {
    std::vector<Joined> joined;  // by repeat
    std::size_t open = 0;        // the first repeat not every lane of the warp brought
  };
  std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint32_t>, Repeats> joined_;
};

}  // namespace

// What the device's hazard check adds to the report of the kept blocks' pairs: every block was
// checked there, and where every block it flagged was kept whole, the pairs are the grid's.
void AddHazardScan(const HazardScan& scan, bool flagged_dropped, bool clean_raced, LaunchTrace* t) {
  if (!scan.ran) return;
  HazardReport& h = t->hazards;
  h.device_scanned = true;
  h.racing_blocks = scan.racing.size();
  h.unshadowed_accesses += scan.unshadowed;
  // Why the pairs may not be the grid's: the first that applies.
  if (clean_raced)
    h.device_gap =
        "a kept block the check found clean has pairs on the recording run (the kernel's "
        "addresses changed between the runs: a work queue, an atomic ticket), so others may too";
  else if (scan.racing_kept < scan.racing.size())
    h.device_gap = "at most " + std::to_string(scan.racing_kept) + " of them kept";
  else if (flagged_dropped)
    h.device_gap =
        "not all of them kept whole (the record budget: --record-budget; a smaller grid)";
  else if (scan.unshadowed > 0)
    h.device_gap = std::to_string(scan.unshadowed) +
                   " global accesses had no shadow on the GPU (a site over several buffers, or "
                   "buffers past its room): their pairs across blocks may be missed";
  if (h.device_gap.empty()) HazardsOverEveryBlock(t);
}

void HazardsOverEveryBlock(LaunchTrace* t) {
  HazardReport& h = t->hazards;
  h.whole_grid = true;
  h.blocks.clear();
  h.shared_accesses = h.global_accesses = 0;
  for (std::size_t s = 0; s < t->sites.size() && s < t->stats.sites.size(); ++s) {
    if (t->sites[s].space == MemorySpace::kShared) h.shared_accesses += t->stats.sites[s].accesses;
    if (t->sites[s].space == MemorySpace::kGlobal) h.global_accesses += t->stats.sites[s].accesses;
  }
}

LaunchTrace DecodeGpuCapture(const GpuCapture& c, const KeepBlocks& keep,
                             const std::vector<CacheProbe>& cache) {
  LaunchTrace t;
  t.kernel = c.kernel;
  t.grid = c.grid;
  t.block = c.block;
  t.shared_bytes = c.shared_bytes;
  t.buffers = c.buffers;
  t.time_unit = "ns";
  t.truncated = c.overflowed;
  const std::uint32_t tpb = static_cast<std::uint32_t>(c.block.count());
  const std::uint32_t wpb = (tpb + 31) / 32;
  const bool dropped_known = c.warp_dropped.size() == c.grid.count() * wpb;
  for (std::size_t w = 0; dropped_known && w < c.warp_dropped.size(); w += wpb) {
    bool dropped = false;
    for (std::size_t k = w; k < w + wpb && k < c.warp_dropped.size(); ++k)
      dropped = dropped || c.warp_dropped[k] != 0;
    t.uncovered_blocks += dropped ? 1 : 0;
  }
  const std::size_t warps = c.grid.count() * wpb;
  const std::size_t threads = c.grid.count() * tpb;
  if (c.warp_base.size() != warps + 1 || c.warp_used.size() != warps ||
      c.warp_base.back() > c.words.size()) {
    t.truncated = true;  // inconsistent buffers: keep nothing rather than read past them
    return t;
  }

  const std::vector<std::uint16_t> retag = Retags(c);
  CaptureSites sites = ScanSites(c, retag, warps, &t);
  if (threads <= LaunchTrace::kMaxActivityThreads) t.thread_active.assign(threads, 0);
  std::optional<GridCacheReplay> replay;
  if (!cache.empty()) replay.emplace(cache, c.grid.count(), tpb);
  BlockDecoder decoder(c, retag, sites, tpb, &t);
  BlockRecords rec;
  BarrierPasses passes;
  // Where blocks not kept passed barriers on the device's count, their written passes are only
  // some of theirs: the skew is the kept blocks' alone then (their instances' arrivals known).
  t.barrier_skew_kept_only = std::any_of(
      c.tallied.begin(), c.tallied.end(),
      [](const GpuCapture::TalliedShape& s) { return (s.key & dev::kTallyBarrier) != 0; });
  if (t.barrier_skew_kept_only) passes.NoSkew();
  std::vector<std::uint32_t> kept_blocks = keep.blocks;  // sorted: up to 4,100 with the check's
  std::sort(kept_blocks.begin(), kept_blocks.end());
  for (std::uint64_t b = 0; b < c.grid.count(); ++b) {
    const bool kept = keep.all || std::binary_search(kept_blocks.begin(), kept_blocks.end(), b);
    // Only a kept block's barriers become records (its views and hazards need them).
    decoder.Decode(b, wpb, &rec, kept ? nullptr : &passes);
    if (!t.thread_active.empty()) {
      for (const AccessRecord& a : rec.accesses) t.thread_active[b * tpb + a.thread] = 1;
      for (const BarrierRecord& r : rec.barriers) t.thread_active[b * tpb + r.thread] = 1;
    }
    if (replay) replay->AddBlock(rec.block, rec.accesses, t.sites, t.buffers);
    if (kept) t.blocks.push_back(rec);
    if (kept && t.barrier_skew_kept_only) ++t.barrier_skew_blocks;
    AnalyzeBlock(rec.accesses, rec.barriers, t.sites, t.buffers, tpb, &t.stats);
  }
  if (replay) t.cache_replays = replay->Finish();
  for (const GpuCapture::TalliedShape& shape : c.tallied) {
    if ((shape.key & dev::kTallyBarrier) != 0) {  // a barrier's passes by whole warps
      const auto bar = sites.barrier_ids.find(KeyPlace(RetagKey(retag, shape.key)));
      if (bar != sites.barrier_ids.end())
        passes.AddCounted(bar->second, static_cast<std::uint32_t>(std::popcount(shape.mask)),
                          shape.lines, shape.count, shape.wait_sum, shape.wait_max, &t.stats);
      continue;
    }
    if ((shape.key & dev::kTallyWarpOp) != 0) {  // a site's meetings of whole warps
      const auto op = sites.warp_op_ids.find(RetagKey(retag, shape.key) & ~dev::kTallyWarpOp);
      if (op != sites.warp_op_ids.end()) t.warp_op_counts[op->second] += shape.count;
      continue;
    }
    const auto site = sites.table.id_of_key.find(RetagKey(retag, shape.key));
    if (site == sites.table.id_of_key.end() || shape.mask == 0) continue;
    AddRequests(site->second, shape.mask, shape.offsets, shape.count, t.sites, t.buffers, &t.stats,
                shape.lines);
  }
  passes.Finish(&t.stats);  // the instances counted by their threads, written and tallied
  // A tallied request is every lane of its warp: they were all active.
  for (std::size_t w = 0; w < c.warp_tallied.size() && w < warps && !t.thread_active.empty(); ++w) {
    if (c.warp_tallied[w] == 0) continue;
    const std::size_t b = w / wpb, first = (w % wpb) * 32;
    for (std::size_t k = first; k < std::min<std::size_t>(first + 32, tpb); ++k)
      t.thread_active[b * tpb + k] = 1;
  }
  // Threads of warps that recorded nothing are not known to be idle: no activity map.
  if (t.uncovered_blocks > 0) t.thread_active.clear();
  // Their whole-warp requests were tallied, unless the table filled and some were written.
  t.uncovered_requests_counted = t.uncovered_blocks > 0 && !c.tallied.empty() && !c.tally_full;
  // An asynchronous copy's shared write is recorded where it was issued (shim/gpu/ws_gpu_async.h)
  // and the waits that order it are not: left out, and counted (the device's check leaves it out
  // too, HazardAccess).
  t.hazards = FindHazards(t, true, nullptr, false);
  // A flagged block that lost events (the record budget) has not all its pairs counted.
  bool flagged_dropped = false;
  for (std::size_t k = 0; k < c.hazard_scan.racing_kept && dropped_known; ++k) {
    const std::size_t w = std::size_t{c.hazard_scan.racing[k]} * wpb;
    for (std::size_t i = w; i < w + wpb && i < c.warp_dropped.size(); ++i)
      flagged_dropped = flagged_dropped || c.warp_dropped[i] != 0;
  }
  // The kept blocks the device found clean must have no pair: the check's run and the recording
  // run differ only where a kernel's addresses depend on the schedule (a work queue, a ticket).
  bool clean_raced = false;
  if (c.hazard_scan.ran) {
    const std::vector<std::uint32_t>& racing = c.hazard_scan.racing;
    std::vector<std::uint32_t> clean;
    for (const BlockRecords& b : t.blocks) {
      if (!std::binary_search(racing.begin(), racing.end(), b.block)) clean.push_back(b.block);
    }
    if (clean.size() == t.blocks.size())
      clean_raced = t.hazards.Total() > 0;
    else if (!clean.empty())
      clean_raced = FindHazards(t, true, &clean, false).Total() > 0;
  }
  AddHazardScan(c.hazard_scan, flagged_dropped, clean_raced, &t);
  return t;
}

}  // namespace ws
