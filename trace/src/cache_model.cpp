#include "warpscope/trace/cache_model.h"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/launch.h"

namespace ws {
namespace {

bool PowerOfTwo(std::uint64_t v) {
  return v != 0 && std::has_single_bit(v);
}

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finaliser: neighbouring lines spread out
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The distinct sectors a replay touched: an open-addressing set of sector numbers (+ 1; 0 is
// empty) that doubles when half full.
class SectorSet {
 public:
  void Insert(std::uint64_t sector) {
    if (2 * (count_ + 1) > keys_.size()) Grow();
    if (Place(keys_, sector + 1)) ++count_;
  }
  std::uint64_t size() const { return count_; }

 private:
  static bool Place(std::vector<std::uint64_t>& keys, std::uint64_t key) {
    const std::uint64_t mask = keys.size() - 1;
    for (std::uint64_t i = Mix(key) & mask;; i = (i + 1) & mask) {
      if (keys[i] == key) return false;
      if (keys[i] == 0) {
        keys[i] = key;
        return true;
      }
    }
  }
  void Grow() {
    std::vector<std::uint64_t> bigger(std::max<std::size_t>(64, 2 * keys_.size()), 0);
    for (std::uint64_t k : keys_) {
      if (k != 0) Place(bigger, k);
    }
    keys_.swap(bigger);
  }
  std::vector<std::uint64_t> keys_;
  std::uint64_t count_ = 0;
};

}  // namespace

Status CheckCache(const CacheConfig& c) {
  constexpr std::uint64_t kMaxBytes = 64ull << 20;  // 64 MB: larger than any GPU's L1
  if (!PowerOfTwo(c.sector_bytes) || c.sector_bytes < 4 || c.sector_bytes > 4096)
    return Status::Error("the cache's sector is " + std::to_string(c.sector_bytes) +
                         " bytes; it must be a power of two from 4 to 4096");
  if (!PowerOfTwo(c.line_bytes) || c.line_bytes < c.sector_bytes ||
      c.line_bytes / c.sector_bytes > 32)
    return Status::Error("the cache's line is " + std::to_string(c.line_bytes) +
                         " bytes; it must be a power of two of 1 to 32 sectors of " +
                         std::to_string(c.sector_bytes) + " bytes");
  if (c.bytes < c.line_bytes || c.bytes > kMaxBytes || c.bytes % c.line_bytes != 0)
    return Status::Error("the cache is " + std::to_string(c.bytes) +
                         " bytes; it must be a whole number of " + std::to_string(c.line_bytes) +
                         "-byte lines, at most " + std::to_string(kMaxBytes));
  if (c.ways != 0 && (c.ways > c.lines() || c.lines() % c.ways != 0))
    return Status::Error("the cache has " + std::to_string(c.lines()) + " lines, which " +
                         std::to_string(c.ways) + " ways do not divide into sets");
  return {};
}

SectorCache::SectorCache(const CacheConfig& config)
    : config_(config),
      ways_(config.ways == 0 ? config.lines() : config.ways),
      slots_(config.lines()),
      sets_(config.sets()) {
  std::uint64_t size = 16;
  while (size < 2 * config.lines()) size *= 2;
  keys_.assign(size, 0);
  values_.assign(size, -1);
  mask_ = size - 1;
}

std::int32_t SectorCache::Find(std::uint64_t tag) const {
  for (std::uint64_t i = Mix(tag) & mask_;; i = (i + 1) & mask_) {
    if (keys_[i] == 0) return -1;
    if (keys_[i] == tag + 1) return values_[i];
  }
}

void SectorCache::Insert(std::uint64_t tag, std::int32_t slot) {
  std::uint64_t i = Mix(tag) & mask_;
  while (keys_[i] != 0) i = (i + 1) & mask_;
  keys_[i] = tag + 1;
  values_[i] = slot;
}

void SectorCache::Erase(std::uint64_t tag) {
  std::uint64_t i = Mix(tag) & mask_;
  while (keys_[i] != tag + 1) i = (i + 1) & mask_;
  // Backward-shift deletion: later entries of the probe run move into the hole when their home
  // slot does not lie between the hole and them.
  for (std::uint64_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
    const std::uint64_t home = Mix(keys_[j] - 1) & mask_;
    if (((j - home) & mask_) >= ((j - i) & mask_)) {
      keys_[i] = keys_[j];
      values_[i] = values_[j];
      i = j;
    }
  }
  keys_[i] = 0;
  values_[i] = -1;
}

void SectorCache::Unlink(Set& set, std::int32_t i) {
  Slot& s = slots_[static_cast<std::size_t>(i)];
  if (s.prev >= 0) {
    slots_[static_cast<std::size_t>(s.prev)].next = s.next;
  } else {
    set.head = s.next;
  }
  if (s.next >= 0) {
    slots_[static_cast<std::size_t>(s.next)].prev = s.prev;
  } else {
    set.tail = s.prev;
  }
  s.prev = s.next = -1;
}

void SectorCache::PushFront(Set& set, std::int32_t i) {
  Slot& s = slots_[static_cast<std::size_t>(i)];
  s.prev = -1;
  s.next = set.head;
  if (set.head >= 0) slots_[static_cast<std::size_t>(set.head)].prev = i;
  set.head = i;
  if (set.tail < 0) set.tail = i;
}

bool SectorCache::Access(std::uint64_t address) {
  const std::uint64_t line = address / config_.line_bytes;
  const std::uint32_t bit = 1u << ((address % config_.line_bytes) / config_.sector_bytes);
  const std::uint64_t set_index = line % sets_.size();
  Set& set = sets_[set_index];
  if (const std::int32_t i = Find(line); i >= 0) {
    if (set.head != i) {  // most recently used now
      Unlink(set, i);
      PushFront(set, i);
    }
    Slot& s = slots_[static_cast<std::size_t>(i)];
    const bool hit = (s.sectors & bit) != 0;
    s.sectors |= bit;
    return hit;
  }
  std::int32_t i = 0;
  if (set.used < ways_) {  // a free slot of the set
    i = static_cast<std::int32_t>(set_index * ways_ + set.used++);
  } else {  // the least recently used line leaves
    i = set.tail;
    Unlink(set, i);
    Erase(slots_[static_cast<std::size_t>(i)].tag);
  }
  slots_[static_cast<std::size_t>(i)].tag = line;
  slots_[static_cast<std::size_t>(i)].sectors = bit;
  PushFront(set, i);
  Insert(line, i);
  return false;
}

std::uint32_t BlocksTogether(std::uint64_t threads_per_block) {
  if (threads_per_block == 0 || threads_per_block >= kReplayThreadsPerSm) return 1;
  return static_cast<std::uint32_t>(kReplayThreadsPerSm / threads_per_block);
}

BlockLoads LoadsOf(std::span<const AccessRecord> records, const std::vector<SiteInfo>& sites,
                   const std::vector<BufferInfo>& buffers, const CacheConfig& config,
                   const ReplayChoice& choice) {
  // The chosen loads by (warp, site, iteration): one 64-bit key each, sorted with its index.
  std::vector<std::int8_t> chosen(sites.size(), -1);  // -1: not asked yet
  std::vector<std::pair<std::uint64_t, std::uint32_t>> loads;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const AccessRecord& r = records[i];
    if (r.site >= sites.size()) continue;
    if (chosen[r.site] < 0) chosen[r.site] = choice.site(sites[r.site]) ? 1 : 0;
    if (chosen[r.site] == 0) continue;
    const std::uint64_t key =
        (std::uint64_t{r.thread / 32u} << 48) | (std::uint64_t{r.site} << 32) | r.iteration;
    loads.emplace_back(key, static_cast<std::uint32_t>(i));
  }
  std::sort(loads.begin(), loads.end());
  BlockLoads warps;
  for (std::size_t i = 0; i < loads.size();) {
    const std::uint64_t key = loads[i].first;
    const AccessRecord& head = records[loads[i].second];
    const std::uint32_t warp = head.thread / 32u;
    const SiteInfo& site = sites[head.site];
    ReplayRequest req{head.time, head.site, head.iteration, {}};
    req.sectors.reserve(32);
    for (; i < loads.size() && loads[i].first == key; ++i) {
      const AccessRecord& r = records[loads[i].second];
      req.time = std::min(req.time, r.time);
      const std::uint64_t offset = choice.remap ? choice.remap(site, r.offset) : r.offset;
      const std::uint64_t first = AccessAddress(site, buffers, 0) + offset;
      const std::uint64_t last = first + std::max<std::uint64_t>(site.size, 1) - 1;
      for (std::uint64_t s = first / config.sector_bytes; s <= last / config.sector_bytes; ++s)
        req.sectors.push_back(s);
    }
    std::sort(req.sectors.begin(), req.sectors.end());
    req.sectors.erase(std::unique(req.sectors.begin(), req.sectors.end()), req.sectors.end());
    if (warps.size() <= warp) warps.resize(warp + 1);
    warps[warp].push_back(std::move(req));
  }
  // In the order each warp made them; at one time, by the site's place in the source (the
  // emulator's site ids depend on which worker met a site first).
  for (std::vector<ReplayRequest>& w : warps) {
    std::stable_sort(w.begin(), w.end(), [&](const ReplayRequest& x, const ReplayRequest& y) {
      const SiteInfo &sx = sites[x.site], &sy = sites[y.site];
      return std::tie(x.time, sx.line, sx.column, x.iteration) <
             std::tie(y.time, sy.line, sy.column, y.iteration);
    });
  }
  return warps;
}

CacheCounts ReplayGroup(std::span<const BlockLoads* const> blocks, const CacheConfig& config) {
  CacheCounts counts;
  std::size_t rounds = 0;
  for (const BlockLoads* b : blocks) {
    for (const std::vector<ReplayRequest>& w : *b) rounds = std::max(rounds, w.size());
  }
  counts.blocks = blocks.size();
  SectorCache cache(config);
  SectorSet seen;
  for (std::size_t k = 0; k < rounds; ++k) {
    for (const BlockLoads* warps : blocks) {
      for (const std::vector<ReplayRequest>& w : *warps) {
        if (k >= w.size()) continue;
        ++counts.requests;
        for (std::uint64_t s : w[k].sectors) {
          ++counts.sectors;
          if (cache.Access(s * config.sector_bytes)) ++counts.hits;
          seen.Insert(s);
        }
      }
    }
  }
  counts.distinct = seen.size();
  return counts;
}

CacheCounts ReplayLoads(const LaunchTrace& launch, const CacheConfig& config,
                        const ReplayChoice& choice) {
  CacheCounts counts;
  if (!CheckCache(config).ok()) return counts;
  const std::uint32_t together = BlocksTogether(launch.block.count());
  std::map<std::uint64_t, std::vector<BlockLoads>> groups;  // by group, its kept blocks in order
  std::vector<const BlockRecords*> kept;
  for (const BlockRecords& b : launch.blocks) kept.push_back(&b);
  std::stable_sort(kept.begin(), kept.end(), [](const BlockRecords* x, const BlockRecords* y) {
    return x->block < y->block;
  });
  for (const BlockRecords* b : kept) {
    groups[b->block / together].push_back(
        LoadsOf(b->accesses, launch.sites, launch.buffers, config, choice));
  }
  for (const auto& [group, loads] : groups) {
    std::vector<const BlockLoads*> blocks;
    for (const BlockLoads& l : loads) blocks.push_back(&l);
    counts += ReplayGroup(blocks, config);
  }
  return counts;
}

GridCacheReplay::GridCacheReplay(std::vector<CacheProbe> probes, std::uint64_t blocks,
                                 std::uint64_t threads_per_block)
    : probes_(std::move(probes)),
      blocks_(blocks),
      together_(BlocksTogether(threads_per_block)),
      counts_(probes_.size()) {}

bool GridCacheReplay::Wants(const SiteInfo& site) const {
  for (const CacheProbe& p : probes_) {
    if (p.choice.site(site)) return true;
  }
  return false;
}

void GridCacheReplay::AddBlock(std::uint64_t block, std::span<const AccessRecord> records,
                               const std::vector<SiteInfo>& sites,
                               const std::vector<BufferInfo>& buffers) {
  std::vector<BlockLoads> loads;
  for (const CacheProbe& p : probes_) {
    loads.push_back(CheckCache(p.cache).ok() ? LoadsOf(records, sites, buffers, p.cache, p.choice)
                                             : BlockLoads{});
  }
  const std::uint64_t group = block / together_;
  const std::uint64_t size = std::min<std::uint64_t>(together_, blocks_ - group * together_);
  std::map<std::uint64_t, std::vector<BlockLoads>> whole;
  {
    std::lock_guard lock(mutex_);
    auto& blocks = pending_[group];
    blocks[block] = std::move(loads);
    if (blocks.size() < size) return;
    whole = std::move(blocks);
    pending_.erase(group);
  }
  Replay(whole);  // outside the lock: other workers' blocks go on coming
}

void GridCacheReplay::Replay(const std::map<std::uint64_t, std::vector<BlockLoads>>& group) {
  std::vector<CacheCounts> counts(probes_.size());
  for (std::size_t p = 0; p < probes_.size(); ++p) {
    if (!CheckCache(probes_[p].cache).ok()) continue;
    std::vector<const BlockLoads*> blocks;
    for (const auto& [block, loads] : group) blocks.push_back(&loads[p]);
    counts[p] = ReplayGroup(blocks, probes_[p].cache);
  }
  std::lock_guard lock(mutex_);
  for (std::size_t p = 0; p < probes_.size(); ++p) counts_[p] += counts[p];
}

std::vector<CacheCounts> GridCacheReplay::Finish() {
  std::map<std::uint64_t, std::map<std::uint64_t, std::vector<BlockLoads>>> left;
  {
    std::lock_guard lock(mutex_);
    left.swap(pending_);
  }
  for (const auto& [group, blocks] : left) Replay(blocks);
  std::lock_guard lock(mutex_);
  return counts_;
}

}  // namespace ws
