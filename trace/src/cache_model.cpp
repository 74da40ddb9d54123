#include "warpscope/trace/cache_model.h"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>
#include <unordered_set>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/launch.h"

namespace ws {
namespace {

bool PowerOfTwo(std::uint64_t v) {
  return v != 0 && std::has_single_bit(v);
}

// One warp-level request of the replay: when the warp made it and the sectors it touches.
struct Request {
  std::uint32_t time = 0;
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::vector<std::uint64_t> sectors;  // sector numbers, sorted, distinct
};

// Block `b`'s chosen loads as requests, per warp, each warp's in the order it made them.
std::vector<std::vector<Request>> RequestsOf(const LaunchTrace& launch, const BlockRecords& b,
                                             const CacheConfig& config,
                                             const ReplayChoice& choice) {
  std::vector<const AccessRecord*> loads;
  for (const AccessRecord& r : b.accesses) {
    if (r.site < launch.sites.size() && choice.site(launch.sites[r.site])) loads.push_back(&r);
  }
  std::sort(loads.begin(), loads.end(), [](const AccessRecord* x, const AccessRecord* y) {
    return std::make_tuple(x->thread / 32u, x->site, x->iteration) <
           std::make_tuple(y->thread / 32u, y->site, y->iteration);
  });
  std::vector<std::vector<Request>> warps;
  for (std::size_t i = 0; i < loads.size();) {
    const AccessRecord& head = *loads[i];
    const std::uint32_t warp = head.thread / 32u;
    const SiteInfo& site = launch.sites[head.site];
    Request req{head.time, head.site, head.iteration, {}};
    for (; i < loads.size() && loads[i]->thread / 32u == warp && loads[i]->site == head.site &&
           loads[i]->iteration == head.iteration;
         ++i) {
      const AccessRecord& r = *loads[i];
      req.time = std::min(req.time, r.time);
      const std::uint64_t offset = choice.remap ? choice.remap(site, r.offset) : r.offset;
      const std::uint64_t first = AccessAddress(site, launch.buffers, 0) + offset;
      const std::uint64_t last = first + std::max<std::uint64_t>(site.size, 1) - 1;
      for (std::uint64_t s = first / config.sector_bytes; s <= last / config.sector_bytes; ++s)
        req.sectors.push_back(s);
    }
    std::sort(req.sectors.begin(), req.sectors.end());
    req.sectors.erase(std::unique(req.sectors.begin(), req.sectors.end()), req.sectors.end());
    if (warps.size() <= warp) warps.resize(warp + 1);
    warps[warp].push_back(std::move(req));
  }
  for (std::vector<Request>& w : warps) {
    std::stable_sort(w.begin(), w.end(), [](const Request& x, const Request& y) {
      return std::tie(x.time, x.site, x.iteration) < std::tie(y.time, y.site, y.iteration);
    });
  }
  return warps;
}

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
      sectors_per_line_(config.line_bytes / config.sector_bytes),
      sets_(config.sets()) {}

bool SectorCache::Access(std::uint64_t address) {
  const std::uint64_t line = address / config_.line_bytes;
  const std::uint32_t bit = 1u << ((address % config_.line_bytes) / config_.sector_bytes);
  Set& set = sets_[line % sets_.size()];
  if (auto it = where_.find(line); it != where_.end()) {
    set.splice(set.begin(), set, it->second);  // most recently used now
    Line& l = set.front();
    const bool hit = (l.sectors & bit) != 0;
    l.sectors |= bit;
    return hit;
  }
  const std::uint64_t ways = config_.ways == 0 ? config_.lines() : config_.ways;
  if (set.size() >= ways) {
    where_.erase(set.back().tag);
    set.pop_back();
  }
  set.push_front(Line{line, bit});
  where_[line] = set.begin();
  return false;
}

CacheCounts ReplayLoads(const LaunchTrace& launch, const CacheConfig& config,
                        const ReplayChoice& choice) {
  CacheCounts counts;
  if (!CheckCache(config).ok()) return counts;
  std::vector<std::vector<std::vector<Request>>> blocks;  // [kept block][warp][k]
  std::size_t rounds = 0;
  for (const BlockRecords& b : launch.blocks) {
    blocks.push_back(RequestsOf(launch, b, config, choice));
    for (const std::vector<Request>& w : blocks.back()) rounds = std::max(rounds, w.size());
  }
  SectorCache cache(config);
  std::unordered_set<std::uint64_t> seen;
  for (std::size_t k = 0; k < rounds; ++k) {
    for (const auto& warps : blocks) {
      for (const std::vector<Request>& w : warps) {
        if (k >= w.size()) continue;
        ++counts.requests;
        for (std::uint64_t s : w[k].sectors) {
          ++counts.sectors;
          if (cache.Access(s * config.sector_bytes)) ++counts.hits;
          seen.insert(s);
        }
      }
    }
  }
  counts.distinct = seen.size();
  return counts;
}

}  // namespace ws
