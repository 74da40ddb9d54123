// A model of one multiprocessor's L1 / texture cache, and a replay of a launch's loads through
// it: how many of the sectors a kernel's warps asked for were already there (hits) and how many
// had to come from L2 / device memory (misses).
//
// The cache (documented for students in docs/CACHE-MODEL.md):
//   * lines of `line_bytes` (128) made of `sector_bytes` (32) sectors, as on every NVIDIA GPU
//     since Fermi: a line is a tag, each sector is valid or not, and a miss fetches only the
//     sector asked for (a "sector miss" when the line is there, a "tag miss" when it is not);
//   * `bytes` of lines, in sets of `ways` lines (0: one set, fully associative); a line's set is
//     its line number modulo the sets; within a set the least recently used line leaves first;
//   * loads only (global and texture): stores and atomics go around it, as L1 writes through.
//
// The replay: the grid's blocks run on multiprocessors a few at a time, in groups of
// BlocksTogether consecutive blocks (as many as 1,024 threads hold: 4 blocks of 16 x 16); each
// group runs on a multiprocessor of its own, whose cache starts empty. Within a group each
// warp's requests are put in the order it made them (by the time of their first lane), and the
// warps take turns, one request each: every warp's first request, then every warp's second, ...
// (block by block, warp by warp within a round). That is how a warp scheduler interleaves warps
// that are all ready; real schedulers are greedier, so a real cache sees somewhat shorter reuse
// distances. A request looks up each distinct sector its lanes touch once. The counts are the
// groups' added up: `distinct` is each multiprocessor's compulsory misses, summed.
//
// The emulator replays every block as the blocks end (GridCacheReplay); a trace's kept blocks
// can be replayed after (ReplayLoads), with the same groups.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "warpscope/trace/records.h"
#include "warpscope/trace/status.h"

namespace ws {

struct LaunchTrace;

struct CacheConfig {
  std::uint64_t bytes = 8 * 1024;  // 8 KB: the texture cache working set per SM, cc 1.x-3.x
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;
  std::uint32_t ways = 0;  // 0: fully associative
  std::uint64_t lines() const { return line_bytes ? bytes / line_bytes : 0; }
  std::uint64_t sets() const { return ways == 0 || lines() == 0 ? 1 : lines() / ways; }
};

// Sizes are powers of two, sectors fit lines, lines fit the cache, the ways divide the lines;
// the message names the limit and the value.
Status CheckCache(const CacheConfig& c);

struct CacheCounts {
  std::uint64_t requests = 0;  // warp-level load requests replayed
  std::uint64_t sectors = 0;   // sector lookups: each request's distinct sectors
  std::uint64_t hits = 0;      // lookups that found their sector
  std::uint64_t distinct = 0;  // distinct sectors per multiprocessor: the compulsory misses
  std::uint64_t blocks = 0;    // blocks replayed
  std::uint64_t misses() const { return sectors - hits; }  // sectors fetched from L2 / DRAM
  double HitRate() const { return sectors ? static_cast<double>(hits) / sectors : 0.0; }
  double SectorsPerRequest() const {
    return requests ? static_cast<double>(sectors) / requests : 0.0;
  }
  CacheCounts& operator+=(const CacheCounts& o) {
    requests += o.requests;
    sectors += o.sectors;
    hits += o.hits;
    distinct += o.distinct;
    blocks += o.blocks;
    return *this;
  }
  friend bool operator==(const CacheCounts&, const CacheCounts&) = default;
};

class SectorCache {
 public:
  explicit SectorCache(const CacheConfig& config);  // config must pass CheckCache
  // Looks up the sector holding byte `address`: true on a hit. A miss makes the sector valid,
  // bringing its line in (and sending the set's least recently used line out) if needed.
  bool Access(std::uint64_t address);
  const CacheConfig& config() const { return config_; }

 private:
  // A line's slot: set s owns slots [s ways, (s + 1) ways), linked most to least recently used.
  struct Slot {
    std::uint64_t tag = 0;      // line number
    std::uint32_t sectors = 0;  // valid sectors, a bit each
    std::int32_t prev = -1, next = -1;
  };
  struct Set {
    std::int32_t head = -1, tail = -1;  // most and least recently used
    std::uint32_t used = 0;
  };
  void Unlink(Set& set, std::int32_t i);
  void PushFront(Set& set, std::int32_t i);
  // The table from line numbers to slots: open addressing, linear probing, 2 x the lines or more.
  std::int32_t Find(std::uint64_t tag) const;
  void Insert(std::uint64_t tag, std::int32_t slot);
  void Erase(std::uint64_t tag);

  CacheConfig config_;
  std::uint64_t ways_ = 1;
  std::vector<Slot> slots_;
  std::vector<Set> sets_;
  std::vector<std::uint64_t> keys_;  // tag + 1; 0: empty
  std::vector<std::int32_t> values_;
  std::uint64_t mask_ = 0;
};

// Which sites to replay, and where each of their accesses is replayed: the byte offset in the
// site's buffer (the recorded one unless a remap moves it, e.g. to see the same reads under
// another texture layout).
struct ReplayChoice {
  std::function<bool(const SiteInfo&)> site = [](const SiteInfo& s) {
    return s.op == AccessOp::kLoad && s.space != MemorySpace::kShared;
  };
  std::function<std::uint64_t(const SiteInfo&, std::uint32_t offset)> remap;  // empty: as recorded
};

// What a replay looks at and through which cache.
struct CacheProbe {
  CacheConfig cache;
  ReplayChoice choice;
};

// The threads one multiprocessor holds in the replay: 1,024, as on the GPUs of the slides'
// texture cache (compute 1.2 / 1.3). BlocksTogether: how many blocks of `threads_per_block`
// that is, at least one.
inline constexpr std::uint32_t kReplayThreadsPerSm = 1024;
std::uint32_t BlocksTogether(std::uint64_t threads_per_block);

// One warp-level request of the replay: when the warp made it and the sectors it touches.
struct ReplayRequest {
  std::uint32_t time = 0;
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::vector<std::uint64_t> sectors;  // sector numbers, sorted, distinct
};
// A block's chosen loads as requests: per warp, each warp's in the order it made them.
using BlockLoads = std::vector<std::vector<ReplayRequest>>;
BlockLoads LoadsOf(std::span<const AccessRecord> records, const std::vector<SiteInfo>& sites,
                   const std::vector<BufferInfo>& buffers, const CacheConfig& config,
                   const ReplayChoice& choice);

// One group of blocks (in block order) on one multiprocessor with an empty cache.
CacheCounts ReplayGroup(std::span<const BlockLoads* const> blocks, const CacheConfig& config);

// Replays the loads of `launch`'s kept blocks (see the top of this file): the kept blocks of one
// group together. With every block kept, this is the whole grid's replay.
CacheCounts ReplayLoads(const LaunchTrace& launch, const CacheConfig& config,
                        const ReplayChoice& choice = {});

// The whole grid's replay, fed one block at a time as blocks end, from any thread and in any
// order: a group is replayed once its last block has come, so what is held is the groups in
// flight, not the grid. The counts do not depend on the order the blocks came in.
class GridCacheReplay {
 public:
  GridCacheReplay(std::vector<CacheProbe> probes, std::uint64_t blocks,
                  std::uint64_t threads_per_block);
  // Whether some probe replays `site`'s accesses (the rest need not be passed to AddBlock).
  bool Wants(const SiteInfo& site) const;
  // Block `block`'s accesses (any order; others than the probes' are skipped). `sites` and
  // `buffers` give what the records' site ids and buffers are.
  void AddBlock(std::uint64_t block, std::span<const AccessRecord> records,
                const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers);
  // Per probe, the groups replayed; a group some of whose blocks never came (a launch cut
  // short) is replayed with those it has.
  std::vector<CacheCounts> Finish();

 private:
  void Replay(const std::map<std::uint64_t, std::vector<BlockLoads>>& group);

  std::vector<CacheProbe> probes_;
  std::uint64_t blocks_ = 0;
  std::uint32_t together_ = 1;
  std::mutex mutex_;
  // Groups in flight: group -> block -> per probe, the block's loads.
  std::map<std::uint64_t, std::map<std::uint64_t, std::vector<BlockLoads>>> pending_;
  std::vector<CacheCounts> counts_;
};

}  // namespace ws
