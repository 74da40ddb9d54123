// The race check (see hazards.h): pairs within a block's barrier interval, the shadow of
// global memory across blocks, and FindHazards over a trace's kept blocks. Every access is cut
// into the 4-byte words it covers, with a mask of the bytes it touches in each; the accesses of
// one word are then paired, a write against every other access, so that a word read by a
// thousand threads and written by none costs nothing. (The report in words and JSON:
// hazards_text.cpp.)
#include "warpscope/trace/hazards.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/units.h"

namespace ws {

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

// Shared words are the block's; global words per buffer. 32 bits of word: 16 GiB per buffer.
std::uint64_t WordKey(MemorySpace space, std::uint16_t buffer, std::uint32_t word) {
  const std::uint64_t owner =
      space == MemorySpace::kShared ? std::uint64_t{1} << 31 : std::uint64_t{buffer};
  return (owner << 32) | word;
}

bool IsWrite(AccessOp op) {
  return op != AccessOp::kLoad;
}

// The bytes of word `w` that an access of `size` bytes at `offset` touches, a bit each.
std::uint8_t WordMask(std::uint32_t offset, std::uint32_t size, std::uint32_t w) {
  const std::uint64_t end = std::uint64_t{offset} + std::max<std::uint32_t>(size, 1);
  std::uint8_t mask = 0;
  for (std::uint32_t byte = 0; byte < 4; ++byte) {
    const std::uint64_t at = std::uint64_t{w} * 4 + byte;
    if (at >= offset && at < end) mask |= static_cast<std::uint8_t>(1u << byte);
  }
  return mask;
}

std::uint32_t LastWord(std::uint32_t offset, std::uint32_t size) {
  return static_cast<std::uint32_t>((std::uint64_t{offset} + std::max<std::uint32_t>(size, 1) - 1) /
                                    4);
}

bool Checked(MemorySpace space) {
  return space == MemorySpace::kShared || space == MemorySpace::kGlobal;
}

HazardKind KindOf(AccessOp first, AccessOp second, bool same_value) {
  if (!IsWrite(second)) return HazardKind::kRaw;
  if (!IsWrite(first)) return HazardKind::kWar;
  if (first == AccessOp::kStore && second == AccessOp::kStore && same_value)
    return HazardKind::kWawSameValue;
  return HazardKind::kWaw;
}

// An example's rank (HazardTally): kept blocks first, then the lower block, then pairs within
// a block before pairs across blocks.
std::uint64_t Rank(bool kept, std::uint32_t block, bool across) {
  return (std::uint64_t{kept ? 0u : 1u} << 40) | (std::uint64_t{block} << 1) | (across ? 1 : 0);
}

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

void WrittenWords::Clear() {
  count_ = 0;
  owners_ = 0;
  if (++generation_ == 0) {  // wrapped: entries of generation 0 would look current
    std::fill(entries_.begin(), entries_.end(), Entry{});
    generation_ = 1;
  }
}

bool WrittenWords::Has(std::uint64_t key) const {
  if (entries_.empty()) return false;
  const std::size_t mask = entries_.size() - 1;
  for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
    const Entry& e = entries_[i & mask];
    if (e.generation != generation_) return false;
    if (e.key == key) return true;
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
                       std::uint32_t size) {
  owners_ |= OwnerBit(space, buffer);
  for (std::uint32_t w = offset / 4, last = LastWord(offset, size); w <= last; ++w) {
    const std::uint64_t key = WordKey(space, buffer, w);
    if (2 * (count_ + 1) > entries_.size()) Grow();
    const std::size_t mask = entries_.size() - 1;
    for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20;; ++i) {
      Entry& e = entries_[i & mask];
      if (e.generation != generation_) {
        e = {key, generation_};
        ++count_;
        break;
      }
      if (e.key == key) break;
    }
  }
}

bool WrittenWords::TouchesWords(MemorySpace space, std::uint16_t buffer, std::uint32_t offset,
                                std::uint32_t size) const {
  for (std::uint32_t w = offset / 4, last = LastWord(offset, size); w <= last; ++w) {
    if (Has(WordKey(space, buffer, w))) return true;
  }
  return false;
}

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
      w = {key, generation_, 0, false, false};
      w.first_thread = 0xffff;
      return w;
    }
    if (w.key == key) return w;
  }
}

void IntervalPairs::Add(std::uint32_t block, bool kept, std::span<const AccessRecord> records,
                        std::span<const std::uint64_t> values, std::span<const WarpSync> syncs,
                        const std::vector<SiteInfo>& sites, HazardTally& tally) {
  const bool has_values = values.size() == records.size();
  // Which spaces have a write in this interval: without one, nothing there can race.
  bool written[2] = {false, false};  // shared, global
  std::size_t words = 0;             // words written
  for (const AccessRecord& r : records) {
    if (r.site >= sites.size()) continue;
    const SiteInfo& site = sites[r.site];
    if (!Checked(site.space)) continue;
    const bool shared = site.space == MemorySpace::kShared;
    (shared ? tally.shared_accesses : tally.global_accesses)++;
    if (!IsWrite(site.op)) continue;
    written[shared ? 0 : 1] = true;
    words += LastWord(r.offset, site.size) - r.offset / 4 + 1;
  }
  if (!has_values && !records.empty()) tally.values_known = false;
  if (!written[0] && !written[1]) return;
  auto considered = [&](const AccessRecord& r) -> const SiteInfo* {
    if (r.site >= sites.size()) return nullptr;
    const SiteInfo& site = sites[r.site];
    if (!Checked(site.space)) return nullptr;
    return written[site.space == MemorySpace::kShared ? 0 : 1] ? &site : nullptr;
  };
  // Each word's threads and whether one wrote it: only a word written by one thread and touched
  // by another can race (a word read by a thousand threads and written by none costs nothing).
  std::size_t capacity = 64;
  while (capacity < 2 * words) capacity *= 2;
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
        if (word->first_thread == 0xffff)
          word->first_thread = r.thread;
        else if (word->first_thread != r.thread)
          word->shared_by_threads = true;
        word->written = true;
        any = any || word->shared_by_threads;
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
      if (word == nullptr || !word->shared_by_threads) continue;
      touches.push_back({key, index, WordMask(r.offset, site->size, w)});
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
  // __syncwarp() orders the memory accesses of the lanes it names (as the CUDA programming guide
  // says; cooperative groups' tile.sync() is one). A lane's access before a meeting has an
  // earlier logical time, one after it a later.
  std::map<std::uint16_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> warp_syncs;
  for (const WarpSync& w : syncs) warp_syncs[w.warp].push_back({w.time, w.mask});
  for (auto& [warp, list] : warp_syncs) std::sort(list.begin(), list.end());
  auto ordered_by_syncwarp = [&](const HazardAccess& x, const HazardAccess& y) {
    if (x.thread / 32 != y.thread / 32) return false;
    const auto it = warp_syncs.find(static_cast<std::uint16_t>(x.thread / 32));
    if (it == warp_syncs.end()) return false;
    const std::uint32_t lanes = (1u << (x.thread % 32)) | (1u << (y.thread % 32));
    const std::uint32_t lo = std::min(x.time, y.time), hi = std::max(x.time, y.time);
    for (auto m = std::upper_bound(it->second.begin(), it->second.end(),
                                   std::pair<std::uint32_t, std::uint32_t>{lo, ~0u});
         m != it->second.end() && m->first < hi; ++m) {
      if ((m->second & lanes) == lanes) return true;
    }
    return false;
  };
  // Words in order; within a word, accesses in execution order.
  std::stable_sort(touches.begin(), touches.end(),
                   [](const Touch& x, const Touch& y) { return x.key < y.key; });
  auto pair = [&](const Touch& tx, const Touch& ty) {
    const Access& x = accesses[tx.access];
    const Access& y = accesses[ty.access];
    if (x.a.thread == y.a.thread) return;  // one thread: in order
    if ((tx.mask & ty.mask) == 0) return;  // different bytes
    if (x.op == AccessOp::kAtomic && y.op == AccessOp::kAtomic) return;
    if (x.a.epoch != y.a.epoch) return;         // a barrier between them
    if (ordered_by_syncwarp(x.a, y.a)) return;  // a __syncwarp() between
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
  };
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
        pair(touches[i], touches[j]);
        if (++tally.pair_checks > HazardReport::kMaxPairChecks) {
          tally.truncated = true;
          break;
        }
      }
    }
    lo = hi;
  }
}

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

void GlobalShadow::Apply(const Access& y, HazardTally& tally) {
  const std::uint32_t first = y.offset / 4, last = LastWord(y.offset, y.size);
  // The common case first: a read of a word that was read before, with no write since from
  // another block, pairs with nothing and changes nothing (a matrix read by every block).
  if (y.op == AccessOp::kLoad && first == last) {
    const std::uint64_t key = (std::uint64_t{y.buffer} << 32) | first;
    const Page* page = FindPage(key / kPageWords, false);
    if (page != nullptr && page->reads) {
      const std::size_t at = static_cast<std::size_t>(key % kPageWords);
      const Side& r = page->reads->side[at];
      const std::uint8_t mask = WordMask(y.offset, y.size, first);
      const std::uint32_t writer = page->writes ? page->writes->side[at].block : ~0u;
      if (r.block != ~0u && ((r.thread >> 11) & mask) == mask &&
          (writer == ~0u || writer == y.block))
        return;
    }
  }
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
      if (page->reads) page->reads->side[at] = Side{};
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
    }
  }
}

HazardReport FindHazards(const LaunchTrace& launch) {
  HazardTally tally;
  IntervalPairs pairs;
  GlobalShadow shadow;
  std::vector<std::uint32_t> blocks;
  std::vector<const BlockRecords*> order;
  for (const BlockRecords& b : launch.blocks) order.push_back(&b);
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
        interval.push_back(b->accesses[index[hi]]);
        if (has_values) interval_values.push_back(b->values[index[hi]]);
        ++hi;
      }
      pairs.Add(b->block, true, interval, interval_values, syncs, launch.sites, tally);
      lo = hi;
    }
    // Across blocks: the block's atomics first (any order of its records gives the same pairs).
    for (int pass = 0; pass < 2; ++pass) {
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
  return report;
}

}  // namespace ws
