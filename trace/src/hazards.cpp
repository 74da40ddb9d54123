// The race check (see hazards.h): pairs within a block's barrier interval, and FindHazards over
// a trace's kept blocks (the shadow of global memory across blocks: global_shadow.cpp). Every
// access is cut into the 4-byte words it covers, with a mask of the bytes it touches in each
// (hazard_words.h); the accesses of one word are then paired, a write against every other
// access, so that a word read by a thousand threads and written by none costs nothing. (The
// report in words and JSON: hazards_text.cpp.)
//
// Index of this file:
// [SECTION] Hazard kinds and the tally
// [SECTION] WrittenWords
// [SECTION] IntervalPairs: the pairs within a barrier interval
// [SECTION] FindHazards
#include "warpscope/trace/hazards.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/units.h"

#include "hazard_words.h"

namespace ws {

using hazard_words::Checked;
using hazard_words::IsWrite;
using hazard_words::KindOf;
using hazard_words::LastWord;
using hazard_words::Rank;
using hazard_words::WordKey;
using hazard_words::WordMask;

//-------------------------------------------------------------------------------------------------
// [SECTION] Hazard kinds and the tally
//-------------------------------------------------------------------------------------------------

const char* ToString(HazardKind k) {
  switch (k) {
    case HazardKind::kRaw:
      return "RAW";
    case HazardKind::kWar:
      return "WAR";
    case HazardKind::kWaw:
      return "WAW";
    case HazardKind::kWawSameValue:
      return "WAW (same value)";
    case HazardKind::kEarlyRead:
      return "read before its copy landed";
  }
  return "?";
}

std::uint64_t HazardReport::Count(HazardKind k) const {
  std::uint64_t n = 0;
  for (const HazardGroup& g : groups) n += g.kind == k ? g.count : 0;
  return n;
}

std::uint64_t HazardReport::Total() const {
  std::uint64_t n = 0;
  for (const HazardGroup& g : groups) n += g.count;
  return n;
}

namespace {

// One access of an interval being paired.
struct Access {
  HazardAccess a;
  AccessOp op = AccessOp::kLoad;
  std::uint32_t first_word = 0;  // the first word the access covers
  std::uint32_t offset = 0;
  std::uint32_t line = 0;
  std::uint16_t buffer = 0;
};

// One word touched by one access.
struct Touch {
  std::uint64_t key = 0;  // (space, buffer, word): see WordKey
  std::uint32_t access = 0;
  std::uint8_t mask = 0;  // the bytes of the word it touches
};
}  // namespace

void HazardTally::Add(HazardKind kind, MemorySpace space, const HazardAccess& first,
                      const HazardAccess& second, std::uint64_t offset, std::uint16_t buffer,
                      std::uint64_t rank) {
  auto [it, fresh] = groups_.try_emplace(
      Key{static_cast<int>(kind), static_cast<int>(space), first.site, second.site});
  Found& f = it->second;
  HazardGroup& g = f.group;
  if (fresh) {
    g.kind = kind;
    g.space = space;
    g.first_site = first.site;
    g.second_site = second.site;
  }
  if (rank < f.rank) {
    f.rank = rank;
    g.example_first = first;
    g.example_second = second;
    g.example_offset = offset;
    g.example_buffer = buffer;
  }
  ++g.count;
  if (first.block == second.block && first.thread / 32 == second.thread / 32) ++g.same_warp;
}

void HazardTally::Merge(const HazardTally& other) {
  for (const auto& [key, f] : other.groups_) {
    auto [it, fresh] = groups_.try_emplace(key, f);
    if (fresh) continue;
    Found& mine = it->second;
    mine.group.count += f.group.count;
    mine.group.same_warp += f.group.same_warp;
    if (f.rank < mine.rank) {
      mine.rank = f.rank;
      mine.group.example_first = f.group.example_first;
      mine.group.example_second = f.group.example_second;
      mine.group.example_offset = f.group.example_offset;
      mine.group.example_buffer = f.group.example_buffer;
    }
  }
  shared_accesses += other.shared_accesses;
  global_accesses += other.global_accesses;
  pair_checks += other.pair_checks;
  truncated = truncated || other.truncated;
  unshadowed_accesses += other.unshadowed_accesses;
  cut_intervals += other.cut_intervals;
  values_known = values_known && other.values_known;
}

HazardReport HazardTally::Report(const std::vector<SiteInfo>& sites,
                                 const std::vector<BufferInfo>& buffers,
                                 const std::vector<std::uint16_t>& remap) const {
  HazardReport r;
  auto map = [&](std::uint16_t id) { return id < remap.size() ? remap[id] : id; };
  for (const auto& [key, f] : groups_) {
    HazardGroup g = f.group;
    g.first_site = map(g.first_site);
    g.second_site = map(g.second_site);
    g.example_first.site = map(g.example_first.site);
    g.example_second.site = map(g.example_second.site);
    if (g.first_site < sites.size()) g.first_line = sites[g.first_site].line;
    if (g.second_site < sites.size()) g.second_line = sites[g.second_site].line;
    g.example_address = g.example_offset;
    if (g.space == MemorySpace::kGlobal && g.example_buffer < buffers.size())
      g.example_address += buffers[g.example_buffer].base;
    r.groups.push_back(g);
  }
  std::sort(r.groups.begin(), r.groups.end(), [](const HazardGroup& x, const HazardGroup& y) {
    return std::tie(x.kind, x.first_line, x.second_line, x.first_site, x.second_site) <
           std::tie(y.kind, y.first_line, y.second_line, y.first_site, y.second_site);
  });
  r.shared_accesses = shared_accesses;
  r.global_accesses = global_accesses;
  r.values_known = values_known && shared_accesses + global_accesses > 0;
  r.truncated = truncated;
  r.unshadowed_accesses = unshadowed_accesses;
  r.cut_intervals = cut_intervals;
  return r;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] WrittenWords
//-------------------------------------------------------------------------------------------------

void WrittenWords::Clear() {
  count_ = 0;
  hashed_ = 0;
  owners_ = 0;
  shared_ = false;
  if (++generation_ == 0) {  // wrapped: entries of generation 0 would look current
    std::fill(entries_.begin(), entries_.end(), Entry{});
    std::fill(flat_generation_.begin(), flat_generation_.end(), 0u);
    generation_ = 1;
  }
}

bool WrittenWords::FlatAdd(std::uint32_t word, std::uint16_t thread) {
  if (word >= kFlatWords) return false;
  if (word >= flat_generation_.size()) {
    const std::size_t n = std::min<std::size_t>(
        kFlatWords, std::max<std::size_t>(word + 1u, 2 * flat_generation_.size()));
    flat_generation_.resize(n, 0u);
    flat_thread_.resize(n, 0);
  }
  if (flat_generation_[word] == generation_) {
    shared_ = shared_ || flat_thread_[word] != thread;
  } else {
    flat_generation_[word] = generation_;
    flat_thread_[word] = thread;
    ++count_;
  }
  return true;
}

const WrittenWords::Entry* WrittenWords::Find(std::uint64_t key) const {
  if (entries_.empty()) return nullptr;
  const std::size_t mask = entries_.size() - 1;
  for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
    const Entry& e = entries_[i & mask];
    if (e.generation != generation_) return nullptr;
    if (e.key == key) return &e;
  }
}

void WrittenWords::Grow() {
  std::vector<Entry> old;
  old.swap(entries_);
  entries_.assign(std::max<std::size_t>(64, 2 * old.size()), Entry{});
  const std::size_t mask = entries_.size() - 1;
  for (const Entry& e : old) {
    if (e.generation != generation_) continue;
    std::size_t i = (e.key * 0x9e3779b97f4a7c15ull) >> 20;
    while (entries_[i & mask].generation == generation_) ++i;
    entries_[i & mask] = e;
  }
}

void WrittenWords::Add(MemorySpace space, std::uint16_t buffer, std::uint32_t offset,
                       std::uint32_t size, std::uint16_t thread) {
  owners_ |= OwnerBit(space, buffer);
  for (std::uint32_t w = offset / 4, last = LastWord(offset, size); w <= last; ++w) {
    if (space == MemorySpace::kShared && FlatAdd(w, thread)) continue;
    const std::uint64_t key = WordKey(space, buffer, w);
    if (2 * (hashed_ + 1) > entries_.size()) Grow();
    const std::size_t mask = entries_.size() - 1;
    for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
      Entry& e = entries_[i & mask];
      if (e.generation != generation_) {
        e = {key, generation_, thread};
        ++count_;
        ++hashed_;
        break;
      }
      if (e.key == key) {
        shared_ = shared_ || e.thread != thread;
        break;
      }
    }
  }
}

bool WrittenWords::TouchesWords(MemorySpace space, std::uint16_t buffer, std::uint32_t offset,
                                std::uint32_t size, std::uint16_t thread) {
  bool touches = false;
  for (std::uint32_t w = offset / 4, last = LastWord(offset, size); w <= last; ++w) {
    if (space == MemorySpace::kShared && w < kFlatWords) {
      if (w < flat_generation_.size() && flat_generation_[w] == generation_) {
        touches = true;
        shared_ = shared_ || flat_thread_[w] != thread;
      }
      continue;
    }
    const Entry* e = Find(WordKey(space, buffer, w));
    if (e == nullptr) continue;
    touches = true;
    shared_ = shared_ || e->thread != thread;
  }
  return touches;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] IntervalPairs: the pairs within a barrier interval
//-------------------------------------------------------------------------------------------------

IntervalPairs::Word* IntervalPairs::FindWritten(std::uint64_t key) {
  const std::size_t mask = words_.size() - 1;
  for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
    Word& w = words_[i & mask];
    if (w.generation != generation_) return nullptr;
    if (w.key == key) return &w;
  }
}

IntervalPairs::Word& IntervalPairs::Find(std::uint64_t key) {
  const std::size_t mask = words_.size() - 1;
  for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
    Word& w = words_[i & mask];
    if (w.generation != generation_) {
      w = Word{};
      w.key = key;
      w.generation = generation_;
      return w;
    }
    if (w.key == key) return w;
  }
}
namespace {

// Which spaces have a write in an interval (without one, nothing there can race), and how many
// words it writes; every checked access is counted in the tally.
struct IntervalWrites {
  bool written[2] = {false, false};  // shared, global
  std::size_t words = 0;             // words written
};

IntervalWrites CountWrites(std::span<const AccessRecord> records,
                           const std::vector<SiteInfo>& sites, HazardTally& tally) {
  IntervalWrites iw;
  for (const AccessRecord& r : records) {
    if (r.site >= sites.size()) continue;
    const SiteInfo& site = sites[r.site];
    if (!Checked(site.space)) continue;
    const bool shared = site.space == MemorySpace::kShared;
    (shared ? tally.shared_accesses : tally.global_accesses)++;
    if (!IsWrite(site.op)) continue;
    iw.written[shared ? 0 : 1] = true;
    iw.words += LastWord(r.offset, site.size) - r.offset / 4 + 1;
  }
  return iw;
}

// __syncwarp() orders the memory accesses of the lanes it names (as the CUDA programming guide
// says; cooperative groups' tile.sync() is one). A lane's access before a meeting has an
// earlier logical time, one after it a later.
class SyncwarpOrder {
 public:
  explicit SyncwarpOrder(std::span<const WarpSync> syncs) {
    for (const WarpSync& w : syncs) {
      if (w.warps > 1)
        tiles_.push_back(w);
      else
        warp_syncs_[w.warp].push_back({w.time, w.mask});
    }
    for (auto& [warp, list] : warp_syncs_) std::sort(list.begin(), list.end());
  }

  // Is there a __syncwarp() naming both lanes between x and y, or a multi-warp tile's sync
  // naming both threads?
  bool Orders(const HazardAccess& x, const HazardAccess& y) const {
    const std::uint32_t lo = std::min(x.time, y.time), hi = std::max(x.time, y.time);
    for (const WarpSync& t : tiles_) {
      const std::uint32_t begin = t.warp * 32u, end = begin + t.warps * 32u;
      if (x.thread >= begin && x.thread < end && y.thread >= begin && y.thread < end &&
          t.time > lo && t.time < hi)
        return true;
    }
    if (x.thread / 32 != y.thread / 32) return false;
    const auto it = warp_syncs_.find(static_cast<std::uint16_t>(x.thread / 32));
    if (it == warp_syncs_.end()) return false;
    const std::uint32_t lanes = (1u << (x.thread % 32)) | (1u << (y.thread % 32));
    for (auto m = std::upper_bound(it->second.begin(), it->second.end(),
                                   std::pair<std::uint32_t, std::uint32_t>{lo, ~0u});
         m != it->second.end() && m->first < hi; ++m) {
      if ((m->second & lanes) == lanes) return true;
    }
    return false;
  }

 private:
  std::map<std::uint16_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> warp_syncs_;
  std::vector<WarpSync> tiles_;  // few: a block's tile passes
};

// The accesses of one interval that touch a word written by one thread and touched by another,
// paired word by word into the tally.
struct WordPairing {
  const std::vector<Access>& accesses;
  const SyncwarpOrder& syncwarp;
  const std::vector<SiteInfo>& sites;
  std::uint32_t block;
  bool kept;
  HazardTally& tally;

  void Pair(const Touch& tx, const Touch& ty) const {
    const Access& x = accesses[tx.access];
    const Access& y = accesses[ty.access];
    if (x.a.thread == y.a.thread) return;  // one thread: in order
    if ((tx.mask & ty.mask) == 0) return;  // different bytes
    if (x.op == AccessOp::kAtomic && y.op == AccessOp::kAtomic) return;
    if (x.a.epoch != y.a.epoch) return;     // a barrier between them
    if (syncwarp.Orders(x.a, y.a)) return;  // a __syncwarp() between
    // Count the pair once: at the first word both cover.
    const std::uint32_t word = static_cast<std::uint32_t>(tx.key & 0xffffffffu);
    if (word != std::max(x.first_word, y.first_word)) return;
    const bool x_first = std::tie(x.a.time, x.line, x.a.site, x.a.thread) <=
                         std::tie(y.a.time, y.line, y.a.site, y.a.thread);
    const Access& f = x_first ? x : y;
    const Access& s = x_first ? y : x;
    const bool same_value = f.a.has_value && s.a.has_value && f.a.value == s.a.value;
    const MemorySpace space = sites[f.a.site].space;
    tally.Add(KindOf(f.op, s.op, same_value), space, f.a, s.a, std::max(f.offset, s.offset),
              f.buffer, Rank(kept, block, false));
  }

  // Words in order; within a word, accesses in execution order.
  void PairWords(std::vector<Touch>& touches) const {
    std::stable_sort(touches.begin(), touches.end(),
                     [](const Touch& x, const Touch& y) { return x.key < y.key; });
    for (std::size_t lo = 0; lo < touches.size() && !tally.truncated;) {
      std::size_t hi = lo;
      while (hi < touches.size() && touches[hi].key == touches[lo].key) ++hi;
      // Only atomics (a histogram's bin): no pair races.
      bool plain = false, loads = false;
      for (std::size_t i = lo; i < hi; ++i) {
        const AccessOp op = accesses[touches[i].access].op;
        plain |= op == AccessOp::kStore;
        loads |= op == AccessOp::kLoad;
      }
      if (!plain && !loads) {
        lo = hi;
        continue;
      }
      // A write against every access after it, and every read before it: each pair once.
      for (std::size_t i = lo; i < hi && !tally.truncated; ++i) {
        if (!IsWrite(accesses[touches[i].access].op)) continue;
        for (std::size_t j = lo; j < hi; ++j) {
          if (j == i || (j < i && IsWrite(accesses[touches[j].access].op))) continue;
          Pair(touches[i], touches[j]);
          if (++tally.pair_checks > HazardReport::kMaxPairChecks) {
            tally.truncated = true;
            break;
          }
        }
      }
      lo = hi;
    }
  }
};

}  // namespace

void IntervalPairs::Count(std::span<const AccessRecord> records, bool has_values,
                          const std::vector<SiteInfo>& sites, HazardTally& tally) {
  CountWrites(records, sites, tally);
  if (!has_values && !records.empty()) tally.values_known = false;
}

void IntervalPairs::Add(std::uint32_t block, bool kept, std::span<const AccessRecord> records,
                        std::span<const std::uint64_t> values, std::span<const WarpSync> syncs,
                        const std::vector<SiteInfo>& sites, HazardTally& tally) {
  const bool has_values = values.size() == records.size();
  // Which spaces have a write in this interval: without one, nothing there can race.
  const IntervalWrites iw = CountWrites(records, sites, tally);
  if (!has_values && !records.empty()) tally.values_known = false;
  if (!iw.written[0] && !iw.written[1]) return;
  auto considered = [&](const AccessRecord& r) -> const SiteInfo* {
    if (r.site >= sites.size()) return nullptr;
    const SiteInfo& site = sites[r.site];
    if (!Checked(site.space)) return nullptr;
    return iw.written[site.space == MemorySpace::kShared ? 0 : 1] ? &site : nullptr;
  };
  // Each written byte's threads: only a byte written by one thread and touched by another can race
  // (a word read by a thousand threads and written by none costs nothing).
  std::size_t capacity = 64;
  while (capacity < 2 * iw.words) capacity *= 2;
  if (words_.size() < capacity) {
    words_.assign(capacity, Word{});
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: every entry of generation 0 would look current
    std::fill(words_.begin(), words_.end(), Word{});
    generation_ = 1;
  }
  // The written words first (few, as a rule), then the reads of those words: a read of a word
  // nobody wrote is not looked up twice.
  bool any = false;
  for (const bool writes : {true, false}) {
    for (const AccessRecord& r : records) {
      const SiteInfo* site = considered(r);
      if (site == nullptr || IsWrite(site->op) != writes) continue;
      for (std::uint32_t w = r.offset / 4, last = LastWord(r.offset, site->size); w <= last; ++w) {
        const std::uint64_t key = WordKey(site->space, site->buffer, w);
        Word* word = writes ? &Find(key) : FindWritten(key);
        if (word == nullptr) continue;
        const std::uint8_t bytes = WordMask(r.offset, site->size, w);
        if (bytes != 0xf && word->whole) {  // the first access to part of it: byte by byte now
          for (std::uint32_t b = 1; b < 4; ++b) {
            word->stores[b] = word->stores[0];
            word->atomics[b] = word->atomics[0];
          }
          word->whole = false;
        }
        for (std::uint32_t b = 0; b < 4; ++b) {
          if ((bytes & (1u << b)) == 0) continue;
          Writers& stores = word->stores[b];
          Writers& atomics = word->atomics[b];
          if (writes) (site->op == AccessOp::kAtomic ? atomics : stores).Add(r.thread);
          // Every write is in before the first read. A store against another thread's store or
          // atomic; an atomic against another's store; a read against another's write.
          const bool race = writes ? stores.BySeveral() ||
                                         (stores.bits != 0 && atomics.ByOtherThan(stores.First()))
                                   : stores.ByOtherThan(r.thread) || atomics.ByOtherThan(r.thread);
          if (race) word->racy |= static_cast<std::uint8_t>(word->whole ? 0xf : 1u << b);
          if (word->whole) break;  // byte 0 stands for the word
        }
        any = any || word->racy != 0;
      }
    }
  }
  if (!any) return;
  std::vector<Access> accesses;
  std::vector<Touch> touches;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const AccessRecord& r = records[i];
    const SiteInfo* site = considered(r);
    if (site == nullptr) continue;
    const auto index = static_cast<std::uint32_t>(accesses.size());
    bool used = false;
    for (std::uint32_t w = r.offset / 4, last = LastWord(r.offset, site->size); w <= last; ++w) {
      const std::uint64_t key = WordKey(site->space, site->buffer, w);
      const Word* word = FindWritten(key);
      const std::uint8_t bytes = WordMask(r.offset, site->size, w);
      if (word == nullptr || (word->racy & bytes) == 0) continue;
      touches.push_back({key, index, bytes});
      used = true;
    }
    if (!used) continue;
    Access x;
    x.a = {block, r.thread, r.site, r.time, r.epoch, has_values, has_values ? values[i] : 0};
    x.op = site->op;
    x.offset = r.offset;
    x.first_word = r.offset / 4;
    x.line = site->line;
    x.buffer = site->buffer;
    accesses.push_back(x);
  }
  const SyncwarpOrder syncwarp(syncs);
  WordPairing{accesses, syncwarp, sites, block, kept, tally}.PairWords(touches);
}

void AddTileSyncs(std::span<const BarrierRecord> barriers, const std::vector<BarrierSite>& sites,
                  std::vector<WarpSync>* syncs) {
  // (site, pass, tile) -> the earliest departure: no thread of the tile leaves before the last
  // arrived (on the emulator all leave at once; on a GPU each warp reads the clock after). A
  // tile's pass has an iteration of its own (k x tiles + tile), the tile named again here.
  std::map<std::tuple<std::uint16_t, std::uint32_t, std::uint32_t>, std::uint64_t> passes;
  for (const BarrierRecord& r : barriers) {
    if (r.site >= sites.size() || sites[r.site].tile < 64) continue;
    const std::uint32_t tile = sites[r.site].tile;
    auto [it, fresh] = passes.try_emplace({r.site, r.iteration, r.thread / tile}, r.departure);
    if (!fresh) it->second = std::min(it->second, r.departure);
  }
  for (const auto& [key, departure] : passes) {
    const std::uint32_t tile = sites[std::get<0>(key)].tile;
    syncs->push_back({static_cast<std::uint16_t>(std::get<2>(key) * tile / 32),
                      static_cast<std::uint32_t>(departure), ~0u,
                      static_cast<std::uint16_t>(tile / 32)});
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] FindHazards
//-------------------------------------------------------------------------------------------------

HazardReport FindHazards(const LaunchTrace& launch, bool across_blocks,
                         const std::vector<std::uint32_t>* only, bool async_writes) {
  std::uint64_t unchecked_async = 0;
  HazardTally tally;
  IntervalPairs pairs;
  GlobalShadow shadow;
  std::vector<std::uint32_t> blocks;
  std::vector<const BlockRecords*> order;
  for (const BlockRecords& b : launch.blocks) {
    if (only == nullptr || std::find(only->begin(), only->end(), b.block) != only->end())
      order.push_back(&b);
  }
  std::sort(order.begin(), order.end(),
            [](const BlockRecords* x, const BlockRecords* y) { return x->block < y->block; });
  std::vector<WarpSync> syncs;
  std::vector<AccessRecord> interval;
  std::vector<std::uint64_t> interval_values;
  for (const BlockRecords* b : order) {
    blocks.push_back(b->block);
    const bool has_values = b->values.size() == b->accesses.size();
    syncs.clear();
    for (const WarpOpRecord& w : b->warp_ops) {
      if (w.site < launch.warp_op_sites.size() &&
          launch.warp_op_sites[w.site].kind == WarpOpKind::kSyncWarp)
        syncs.push_back({w.warp, w.time, w.mask});
    }
    AddTileSyncs(b->barriers, launch.barrier_sites, &syncs);
    // The block's barrier intervals, each in record order.
    std::vector<std::size_t> index(b->accesses.size());
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
    std::stable_sort(index.begin(), index.end(), [&](std::size_t x, std::size_t y) {
      return b->accesses[x].epoch < b->accesses[y].epoch;
    });
    for (std::size_t lo = 0; lo < index.size();) {
      std::size_t hi = lo;
      interval.clear();
      interval_values.clear();
      while (hi < index.size() && b->accesses[index[hi]].epoch == b->accesses[index[lo]].epoch) {
        const AccessRecord& r = b->accesses[index[hi++]];
        const bool left_out =
            !async_writes && r.site < launch.sites.size() && launch.sites[r.site].async_copy;
        unchecked_async += left_out ? 1 : 0;
        if (left_out) continue;
        interval.push_back(r);
        if (has_values) interval_values.push_back(b->values[index[hi - 1]]);
      }
      pairs.Add(b->block, true, interval, interval_values, syncs, launch.sites, tally);
      lo = hi;
    }
    // Across blocks: the block's atomics first (any order of its records gives the same pairs).
    for (int pass = 0; pass < (across_blocks ? 2 : 0); ++pass) {
      for (std::size_t i = 0; i < b->accesses.size(); ++i) {
        const AccessRecord& r = b->accesses[i];
        if (r.site >= launch.sites.size()) continue;
        const SiteInfo& site = launch.sites[r.site];
        if (site.space != MemorySpace::kGlobal) continue;
        if ((site.op == AccessOp::kAtomic) != (pass == 0)) continue;
        const GlobalShadow::Access a = GlobalShadow::Access::Of(
            b->block, r, site, has_values ? b->values[i] : 0, has_values, true);
        shadow.Apply(a, tally);
      }
    }
    shadow.FinishBlock(b->block, tally);
  }
  HazardReport report = tally.Report(launch.sites, launch.buffers, {});
  report.blocks = std::move(blocks);
  report.blocks_in_grid = launch.grid.count();
  report.grid_synced = !across_blocks;
  report.unchecked_async_writes = unchecked_async;
  return report;
}

}  // namespace ws
