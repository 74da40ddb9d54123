// The shadow of global memory across blocks (GlobalShadow, hazards.h): each block's global
// accesses, in block order, against what earlier blocks left in each word; a pair two blocks'
// atomics on one word put in order is no race.
#include <algorithm>
#include <bit>

#include "hazard_words.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/launch.h"

namespace ws {

using hazard_words::IsWrite;
using hazard_words::KindOf;
using hazard_words::LastWord;
using hazard_words::Rank;
using hazard_words::WordMask;

GlobalShadow::GlobalShadow() {
  std::fill(std::begin(cached_key_), std::end(cached_key_), ~0ull);
}
GlobalShadow::~GlobalShadow() = default;

GlobalShadow::Page* GlobalShadow::FindPage(std::uint64_t page_key, bool create) {
  const std::size_t slot = (page_key * 0x9e3779b97f4a7c15ull) >> 60;
  if (cached_page_[slot] != nullptr && cached_key_[slot] == page_key) return cached_page_[slot];
  auto it = pages_.find(page_key);
  if (it == pages_.end()) {
    if (!create) return nullptr;
    it = pages_.try_emplace(page_key).first;
  }
  cached_key_[slot] = page_key;
  cached_page_[slot] = &it->second;
  return &it->second;
}

bool GlobalShadow::Ordered(const Side& x, const Access& y) const {
  const auto ax = atomics_.find(x.block), ay = atomics_.find(y.block);
  if (ax == atomics_.end() || ay == atomics_.end()) return false;
  if (ax->second.size() > kMaxAtomics || ay->second.size() > kMaxAtomics) return false;
  const std::uint16_t xt = x.thread & 0x7ffu;
  const std::uint32_t xe = x.epoch & 0x1fffffffu;
  for (const AtomicAt& a : ax->second) {
    for (const AtomicAt& b : ay->second) {
      if (a.word != b.word) continue;
      const bool x_before = (a.thread == xt && x.time <= a.time) || xe < a.epoch;
      const bool y_after = (b.thread == y.thread && y.time >= b.time) || y.epoch > b.epoch;
      const bool y_before = (b.thread == y.thread && y.time <= b.time) || y.epoch < b.epoch;
      const bool x_after = (a.thread == xt && x.time >= a.time) || xe > a.epoch;
      if ((x_before && y_after) || (y_before && x_after)) return true;
    }
  }
  return false;
}

bool GlobalShadow::MayBeOrderedLater(const Side& x) const {
  const auto ax = atomics_.find(x.block);
  if (ax == atomics_.end() || ax->second.size() > kMaxAtomics) return false;
  const std::uint16_t xt = x.thread & 0x7ffu;
  const std::uint32_t xe = x.epoch & 0x1fffffffu;
  for (const AtomicAt& a : ax->second) {
    if ((a.thread == xt && x.time >= a.time) || xe > a.epoch) return true;
  }
  return false;
}

namespace {

HazardAccess AccessOfSide(std::uint32_t block, std::uint32_t time, std::uint32_t epoch,
                          std::uint16_t thread, std::uint16_t site, std::uint64_t value) {
  return HazardAccess{block,
                      static_cast<std::uint16_t>(thread & 0x7ffu),
                      site,
                      time,
                      epoch & 0x1fffffffu,
                      (epoch >> 29 & 1u) != 0,
                      value};
}

}  // namespace

void GlobalShadow::Add(HazardKind kind, const Side& x, std::uint64_t x_value, const Access& y,
                       std::uint64_t offset, HazardTally& tally) {
  const HazardAccess xa = AccessOfSide(x.block, x.time, x.epoch, x.thread, x.site, x_value);
  const HazardAccess ya{y.block, y.thread, y.site, y.time, y.epoch, y.has_value, y.value};
  tally.Add(kind, MemorySpace::kGlobal, xa, ya, offset, y.buffer,
            Rank(y.kept && (x.epoch >> 30 & 1u) != 0, y.block, true));
}

void GlobalShadow::FinishBlock(std::uint32_t block, HazardTally& tally) {
  for (const Deferred& d : deferred_) {
    if (d.y.block == block && !Ordered(d.x, d.y)) Add(d.kind, d.x, d.x_value, d.y, d.offset, tally);
  }
  deferred_.clear();
}

[[gnu::always_inline]] inline bool GlobalShadow::Quiet(const Access& y) {
  const std::uint32_t first = y.offset / 4;
  if (y.op != AccessOp::kLoad || first != LastWord(y.offset, y.size)) return false;
  const std::uint64_t key = (std::uint64_t{y.buffer} << 32) | first;
  return Quiet(y, key, FindPage(key / kPageWords, false));
}

[[gnu::always_inline]] inline bool GlobalShadow::Quiet(const Access& y, std::uint64_t key,
                                                       const Page* page) const {
  return Quiet(y.offset, y.size, y.block, key, page);
}

[[gnu::always_inline]] inline bool GlobalShadow::Quiet(std::uint32_t offset, std::uint8_t size,
                                                       std::uint32_t block, std::uint64_t key,
                                                       const Page* page) const {
  const std::uint32_t first = static_cast<std::uint32_t>(key);
  if (page == nullptr || !page->reads) return false;
  const std::size_t at = static_cast<std::size_t>(key % kPageWords);
  if ((page->reads->whole[at / 64] >> (at % 64) & 1u) != 0) {  // read before, every byte of it
    return !page->writes || page->writes->side[at].block == ~0u ||
           page->writes->side[at].block == block;
  }
  const Side& r = page->reads->side[at];
  const std::uint8_t mask = WordMask(offset, size, first);
  const std::uint32_t writer = page->writes ? page->writes->side[at].block : ~0u;
  return r.block != ~0u && ((r.thread >> 11) & mask) == mask && (writer == ~0u || writer == block);
}

namespace {

// Whether every word from `a` to `b` of a page has its bit in `bits`.
bool AllSet(const std::uint64_t* bits, std::uint32_t a, std::uint32_t b) {
  for (std::uint32_t i = a / 64; i <= b / 64; ++i) {
    std::uint64_t want = ~0ull;
    if (i == a / 64) want &= ~0ull << (a % 64);
    if (i == b / 64) want &= ~0ull >> (63 - b % 64);
    if ((bits[i] & want) != want) return false;
  }
  return true;
}

bool WholeWords(std::uint32_t offset, std::uint8_t size) {
  return size != 0 && size % 4 == 0 && offset % 4 == 0;
}

}  // namespace

bool GlobalShadow::SeenBefore(const Page* page, std::uint32_t offset, std::uint8_t size) {
  if (!WholeWords(offset, size) || page == nullptr || !page->seen) return false;
  const std::uint32_t first = offset / 4, last = LastWord(offset, size);
  if (first / kPageWords != last / kPageWords) return false;
  return AllSet(page->seen->bits, first % kPageWords, last % kPageWords);
}

bool GlobalShadow::MarkSeen(std::uint16_t buffer, std::uint32_t offset, std::uint8_t size) {
  const std::uint64_t base = std::uint64_t{buffer} << 32;
  for (std::uint32_t w = offset / 4; w <= LastWord(offset, size); ++w) {
    Page* page = FindPage((base | w) / kPageWords, true);
    if (!page->seen) {
      if (bytes_ + sizeof(Seen) > HazardReport::kMaxShadowBytes) return false;
      page->seen = std::make_unique<Seen>();
      bytes_ += sizeof(Seen);
    }
    page->seen->bits[w % kPageWords / 64] |= std::uint64_t{1} << (w % 64);
  }
  return true;
}

bool GlobalShadow::Defer(const Access& y, HazardTally& tally) {
  if (!Waiting(y.buffer)) return false;
  if (y.op != AccessOp::kLoad || !WholeWords(y.offset, y.size)) {
    Undefer(y.buffer, tally);
    return false;
  }
  // Its words' first readers came before it. (A read across two pages is kept aside all the
  // same: the one that puts it in finds it quiet.)
  const std::uint64_t key = (std::uint64_t{y.buffer} << 32) | (y.offset / 4);
  if (SeenBefore(FindPage(key / kPageWords, false), y.offset, y.size)) return true;
  if (!in_interval_ && PendingBytes() >= kMaxPendingBytes) Forget();
  if (!MarkSeen(y.buffer, y.offset, y.size)) {
    Undefer(y.buffer, tally);  // (its sides will not fit either: counted unshadowed there)
    return false;
  }
  pending_.push_back({y.block, y.offset, y.time, y.epoch, y.thread, y.site, y.buffer, y.size,
                      y.has_value, y.kept, in_interval_ ? seq_ : ++seq_});
  return true;
}

void GlobalShadow::Undefer(std::uint16_t buffer, HazardTally& tally) {
  if (eager_.size() <= buffer) eager_.resize(buffer + 1u, 0);
  eager_[buffer] = 1;
  if (buffer < forgotten_.size()) {  // their pairs with this write and later ones are lost
    tally.unshadowed_accesses += forgotten_[buffer];
    forgotten_[buffer] = 0;
  }
  const bool was_in_interval = in_interval_;
  in_interval_ = false;
  // Group by group (one seq: an interval's, in each thread's order), singles and runs' lanes.
  std::vector<Access> group;
  std::size_t i = 0, k = 0;
  while (i < pending_.size() || k < pending_runs_.size()) {
    const std::uint32_t seq = std::min(i < pending_.size() ? pending_[i].seq : ~0u,
                                       k < pending_runs_.size() ? pending_runs_[k].seq : ~0u);
    group.clear();
    for (; i < pending_.size() && pending_[i].seq == seq; ++i) {
      const Pending& p = pending_[i];
      if (p.buffer != buffer) continue;
      Access& a = group.emplace_back();
      a.block = p.block;
      a.offset = p.offset;
      a.time = p.time;
      a.epoch = p.epoch;
      a.thread = p.thread;
      a.site = p.site;
      a.buffer = p.buffer;
      a.size = p.size;
      a.op = AccessOp::kLoad;
      a.has_value = p.has_value;
      a.kept = p.kept;
    }
    for (; k < pending_runs_.size() && pending_runs_[k].seq == seq; ++k) {
      const PendingRun& r = pending_runs_[k];
      if (r.t.buffer != buffer) continue;
      std::uint32_t n = 0;
      for (std::uint32_t m = r.first; m != 0; m &= m - 1) {
        const auto l = static_cast<std::uint32_t>(__builtin_ctz(m));
        Access& a = group.emplace_back(r.t);
        a.offset = pending_offsets_[r.at + n++];
        a.value = 0;
        a.thread = static_cast<std::uint16_t>(r.t.thread + l);
      }
    }
    std::stable_sort(group.begin(), group.end(), [](const Access& x, const Access& y) {
      return std::pair(x.thread, x.time) < std::pair(y.thread, y.time);
    });
    for (const Access& a : group) Apply(a, tally);
  }
  in_interval_ = was_in_interval;
  std::erase_if(pending_, [&](const Pending& p) { return p.buffer == buffer; });
  std::vector<std::uint32_t> offsets;
  std::size_t kept = 0;
  for (PendingRun& r : pending_runs_) {
    if (r.t.buffer == buffer) continue;
    const auto n = static_cast<std::uint32_t>(std::popcount(r.first));
    offsets.insert(offsets.end(), pending_offsets_.begin() + r.at,
                   pending_offsets_.begin() + r.at + n);
    r.at = static_cast<std::uint32_t>(offsets.size() - n);
    pending_runs_[kept++] = r;
  }
  pending_runs_.resize(kept);
  pending_offsets_ = std::move(offsets);
  for (auto& [key, page] : pages_) {
    if (key >> 20 == buffer && page.seen) {
      page.seen.reset();
      bytes_ -= sizeof(Seen);
    }
  }
}

bool GlobalShadow::RunQuiet(const Access& t) {
  if (t.op != AccessOp::kLoad) return false;
  const auto lo = static_cast<std::uint32_t>(t.value),
             hi = static_cast<std::uint32_t>(t.value >> 32);
  if (hi < lo) return false;  // (a lane off a word's start)
  const std::uint32_t first = lo / 4, last = LastWord(hi, t.size);
  if (first / kPageWords != last / kPageWords || last - first >= 1024) return false;
  const Page* page = FindPage(((std::uint64_t{t.buffer} << 32) | first) / kPageWords, false);
  if (page == nullptr) return false;
  const std::uint32_t a = first % kPageWords, b = last % kPageWords;
  if (Waiting(t.buffer))
    return WholeWords(0, t.size) && page->seen && AllSet(page->seen->bits, a, b);
  return !page->writes && page->reads && AllSet(page->reads->whole, a, b);
}

void GlobalShadow::ApplyBatch(const Batch& b, HazardTally& tally) {
  const std::span<const Access> batch = b.accesses;
  for (std::size_t i = 0; i < batch.size();) {
    if (batch[i].size != 0) {
      Apply(batch[i++], tally);
      continue;
    }
    const std::span<const Access> singles = batch.subspan(i + 1, batch[i].offset);
    const std::span<const Access> runs = batch.subspan(i + 1 + singles.size(), batch[i].time);
    i += 1 + singles.size() + runs.size();
    ++seq_;
    in_interval_ = true;
    // A buffer whose reads wait, read here otherwise than by whole words, has them put in first
    // (they all came before this interval's).
    for (const Access& y : singles) {
      if (Waiting(y.buffer) && (y.op != AccessOp::kLoad || !WholeWords(y.offset, y.size)))
        Undefer(y.buffer, tally);
    }
    for (const Access& t : runs) {
      if (Waiting(t.buffer) &&
          (static_cast<std::uint32_t>(t.value >> 32) < static_cast<std::uint32_t>(t.value) ||
           !WholeWords(0, t.size)))
        Undefer(t.buffer, tally);
    }
    // A warp's runs kept aside have their words' bits set when the next warp's first run comes
    // (its runs find them read: RunQuiet, SeenBefore), where that is the order they go in: the
    // runs come by thread, and no single of their buffer is in the interval (a single of a lower
    // thread would be the first reader). Not sooner: one warp's runs go in by each lane's
    // thread, then time, so a later run's lane may read a word first (lane 30 of a[i + 2]
    // before lane 31 of a[i + 1]). The rest after the interval (FinishInterval).
    std::uint64_t single_buffers = 0;
    for (const Access& y : singles) single_buffers |= std::uint64_t{1} << (y.buffer % 64);
    bool at_once = std::is_sorted(runs.begin(), runs.end(), [](const Access& x, const Access& y) {
      return x.thread < y.thread;
    });
    std::size_t mark_from = pending_runs_.size();
    std::uint32_t warp_thread = ~0u;
    // A run's read that is quiet now stays so wherever it falls among the interval's accesses
    // (none of them writes its word: the block wrote nothing of its array in the interval, and
    // other blocks' writes come between intervals), so it is passed over; the others go into
    // each thread's order with the singles (already in it: SimtGather). A page found once serves
    // the words after it on it.
    loud_.clear();
    std::uint64_t page_key = ~0ull;
    const Page* page = nullptr;
    std::uint32_t threads = 0;
    std::uint32_t offsets[32];
    std::uint64_t values[32];
    for (const Access& t : runs) {
      if (at_once && t.thread != warp_thread) {  // a new warp: the warps' before it marked
        for (; mark_from < pending_runs_.size() && at_once; ++mark_from) {
          PendingRun& r = pending_runs_[mark_from];
          if ((single_buffers >> (r.t.buffer % 64) & 1u) == 0) at_once = MarkRun(r);
        }
        page_key = ~0ull;  // (their pages may be new)
        warp_thread = t.thread;
      }
      if (RunQuiet(t)) continue;
      b.Lanes(t.offset, t.size, offsets, values);
      if (Waiting(t.buffer)) {  // its reads of words not read before wait (their bits: below)
        // `loud`: the lanes whose words were not read before; of them, those at their
        // neighbour's address are quiet once it goes in first (in thread order): only the
        // others (`first`) are kept, their offsets in lane order.
        std::uint32_t loud = 0, first = 0, last_offset = ~0u;
        bool last_quiet = false;
        const auto at = static_cast<std::uint32_t>(pending_offsets_.size());
        for (std::uint32_t l = 0; l < 32; ++l) {
          const std::uint32_t offset = offsets[l];
          if (offset != last_offset) {
            last_offset = offset;
            const std::uint64_t key = (std::uint64_t{t.buffer} << 32) | (offset / 4);
            if (key / kPageWords != page_key) {
              page_key = key / kPageWords;
              page = FindPage(page_key, false);
            }
            last_quiet = SeenBefore(page, offset, t.size);
            if (!last_quiet) {
              first |= 1u << l;
              pending_offsets_.push_back(offset);
            }
          }
          if (!last_quiet) loud |= 1u << l;
        }
        if (loud == 0) continue;
        pending_runs_.push_back(
            {t, first, at, seq_, static_cast<std::uint8_t>(std::popcount(loud)), false});
        continue;
      }
      // A lane at its neighbour's address is as quiet as it (a broadcast, a row read twice).
      std::uint32_t last_offset = ~0u;
      bool last_quiet = false;
      for (std::uint32_t l = 0; l < 32; ++l) {
        const std::uint32_t offset = offsets[l], first = offset / 4;
        if (offset != last_offset) {
          last_offset = offset;
          last_quiet = false;
          if (t.op == AccessOp::kLoad && first == LastWord(offset, t.size)) {
            const std::uint64_t key = (std::uint64_t{t.buffer} << 32) | first;
            if (key / kPageWords != page_key) {
              page_key = key / kPageWords;
              page = FindPage(page_key, false);
            }
            last_quiet = Quiet(offset, t.size, t.block, key, page);
          }
        }
        if (last_quiet) continue;
        Access& y = loud_.emplace_back(t);
        y.offset = offset;
        y.value = values[l];
        y.thread = static_cast<std::uint16_t>(t.thread + l);
        threads = std::max<std::uint32_t>(threads, y.thread + 1u);
      }
    }
    if (loud_.empty()) {
      for (const Access& y : singles) Apply(y, tally);
      FinishInterval(tally);
      continue;
    }
    // The runs came warp by warp, each thread's in its time order: counted out by thread (a
    // stable sort), then merged with the singles.
    bucket_.assign(threads + 1u, 0u);
    for (const Access& y : loud_) ++bucket_[y.thread + 1u];
    for (std::uint32_t t = 0; t < threads; ++t) bucket_[t + 1] += bucket_[t];
    merged_.resize(loud_.size());
    for (const Access& y : loud_) merged_[bucket_[y.thread]++] = y;
    loud_.resize(merged_.size() + singles.size());
    std::merge(singles.begin(), singles.end(), merged_.begin(), merged_.end(), loud_.begin(),
               [](const Access& x, const Access& y) {
                 return std::pair(x.thread, x.time) < std::pair(y.thread, y.time);
               });
    for (const Access& y : loud_) Apply(y, tally);
    FinishInterval(tally);
  }
}

// After an interval: the bits of its runs' reads kept aside and not marked yet (after its
// singles went in: a single of a lower thread on the same word is its first reader), then the
// bound. The interval's runs are the last ones, of its seq (Undefer may have taken some out).
void GlobalShadow::FinishInterval(HazardTally& tally) {
  in_interval_ = false;
  for (bool again = true; again;) {
    again = false;
    std::size_t k = pending_runs_.size();
    while (k > 0 && pending_runs_[k - 1].seq == seq_) --k;
    for (; k < pending_runs_.size(); ++k) {
      PendingRun& r = pending_runs_[k];
      if (r.marked || !Waiting(r.t.buffer) || MarkRun(r)) continue;
      Undefer(r.t.buffer, tally);  // (its sides will not fit either), then the rest again
      again = true;
      break;
    }
  }
  if (PendingBytes() >= kMaxPendingBytes) Forget();
}

bool GlobalShadow::MarkRun(PendingRun& r) {
  const auto n = static_cast<std::uint32_t>(std::popcount(r.first));
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!MarkSeen(r.t.buffer, pending_offsets_[r.at + i], r.t.size)) return false;
  }
  r.marked = true;
  return true;
}

void GlobalShadow::Forget() {
  for (const Pending& p : pending_) {
    if (forgotten_.size() <= p.buffer) forgotten_.resize(p.buffer + 1u, 0);
    ++forgotten_[p.buffer];
  }
  for (const PendingRun& r : pending_runs_) {
    if (forgotten_.size() <= r.t.buffer) forgotten_.resize(r.t.buffer + 1u, 0);
    forgotten_[r.t.buffer] += r.reads;
  }
  pending_.clear();
  pending_runs_.clear();
  pending_offsets_.clear();
}

void GlobalShadow::Apply(const Access& y, HazardTally& tally) {
  // A read of a buffer nothing wrote yet waits (Defer).
  if (Defer(y, tally)) return;
  const std::uint32_t first = y.offset / 4, last = LastWord(y.offset, y.size);
  // The common case first: a read of a word that was read before, with no write since from
  // another block, pairs with nothing and changes nothing (a matrix read by every block).
  if (Quiet(y)) return;
  if (y.op == AccessOp::kAtomic) {  // before the pairing: it orders what comes after it
    std::vector<AtomicAt>& list = atomics_[y.block];
    // A block with more is a histogram's, not a ticket's: it orders nothing (see Ordered).
    if (list.size() <= kMaxAtomics)
      list.push_back({(std::uint64_t{y.buffer} << 32) | first, y.time, y.epoch, y.thread});
  }
  const bool write = IsWrite(y.op);
  for (std::uint32_t w = first; w <= last; ++w) {
    const std::uint64_t key = (std::uint64_t{y.buffer} << 32) | w;
    const std::uint64_t page_key = key / kPageWords;
    const std::size_t at = static_cast<std::size_t>(key % kPageWords);
    const std::uint8_t mask = WordMask(y.offset, y.size, w);
    const bool starts = w == first;
    const std::uint64_t offset = std::max<std::uint64_t>(std::uint64_t{w} * 4, y.offset);
    auto pairs_with = [&](const Side& x) {
      if (x.block == ~0u || x.block == y.block) return false;   // within a block: by interval
      if (((x.thread >> 11) & 0xfu & mask) == 0) return false;  // different bytes
      if (!starts && (x.thread >> 15) == 0) return false;  // counted at the first word both cover
      if ((x.epoch >> 31) != 0 && y.op == AccessOp::kAtomic) return false;  // two atomics
      return !Ordered(x, y);
    };
    // A pair that the block's own later atomic may still order waits for the block's end.
    auto pair = [&](HazardKind kind, const Side& x, std::uint64_t x_value) {
      if (MayBeOrderedLater(x) && deferred_.size() < kMaxDeferred)
        deferred_.push_back({kind, x, x_value, y, offset});
      else
        Add(kind, x, x_value, y, offset, tally);
    };
    Page* page = FindPage(page_key, false);
    if (page != nullptr && page->writes) {
      const Side& x = page->writes->side[at];
      if (pairs_with(x)) {
        const std::uint64_t value = page->writes->value[at];
        const AccessOp xop = (x.epoch >> 31) != 0 ? AccessOp::kAtomic : AccessOp::kStore;
        const bool same = (x.epoch >> 29 & 1u) != 0 && y.has_value && value == y.value;
        pair(KindOf(xop, y.op, same), x, value);
      }
    }
    if (write && page != nullptr && page->reads) {
      const Side& x = page->reads->side[at];
      if (pairs_with(x)) pair(HazardKind::kWar, x, 0);
    }
    // The shadow now: a write is the word's last, with no read since; a read is kept if it is
    // the first since the write.
    const std::size_t grow = (page == nullptr || (write ? !page->writes : !page->reads))
                                 ? (write ? sizeof(Writes) : sizeof(Reads))
                                 : 0;
    if (grow > 0 && bytes_ + grow > HazardReport::kMaxShadowBytes) {
      ++tally.unshadowed_accesses;
      continue;
    }
    if (page == nullptr) page = FindPage(page_key, true);
    Side mine;
    mine.block = y.block;
    mine.time = y.time;
    mine.epoch = (y.epoch & 0x1fffffffu) | (y.has_value ? 1u << 29 : 0u) |
                 (y.kept ? 1u << 30 : 0u) | (y.op == AccessOp::kAtomic ? 1u << 31 : 0u);
    mine.thread =
        static_cast<std::uint16_t>((y.thread & 0x7ffu) | (mask << 11) | (starts ? 1u << 15 : 0u));
    mine.site = y.site;
    if (write) {
      if (!page->writes) {
        page->writes = std::make_unique<Writes>();
        bytes_ += sizeof(Writes);
      }
      page->writes->side[at] = mine;
      page->writes->value[at] = y.value;
      if (page->reads) {
        page->reads->side[at] = Side{};
        page->reads->whole[at / 64] &= ~(std::uint64_t{1} << (at % 64));
      }
    } else {
      if (!page->reads) {
        page->reads = std::make_unique<Reads>();
        bytes_ += sizeof(Reads);
      }
      Side& r = page->reads->side[at];
      if (r.block == ~0u)
        r = mine;
      else
        r.thread = static_cast<std::uint16_t>(r.thread | (mask << 11));  // any reader's bytes
      if (((r.thread >> 11) & 0xfu) == 0xfu)
        page->reads->whole[at / 64] |= std::uint64_t{1} << (at % 64);
    }
  }
}

}  // namespace ws
