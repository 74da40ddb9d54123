// The cache model (trace/cache_model.h) against sequences worked out by hand, and the layouts'
// inverse (PixelAt) against Layout2D::Index.
#include "warpscope/trace/cache_model.h"

#include <gtest/gtest.h>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/layout_table.h"

namespace ws {
namespace {

CacheConfig Lines(std::uint64_t lines, std::uint32_t ways = 0) {
  CacheConfig c;
  c.bytes = lines * 128;
  c.ways = ways;
  return c;
}

TEST(CacheModel, ASectorMissFetchesOnlyItsSector) {
  SectorCache cache(Lines(4));
  EXPECT_FALSE(cache.Access(0));   // tag miss: line 0 comes in with sector 0
  EXPECT_TRUE(cache.Access(31));   // same sector
  EXPECT_FALSE(cache.Access(32));  // same line, sector 1 not there yet: a sector miss
  EXPECT_TRUE(cache.Access(63));
  EXPECT_FALSE(cache.Access(127));  // sector 3
  EXPECT_TRUE(cache.Access(96));
}

TEST(CacheModel, TheLeastRecentlyUsedLineLeavesFirst) {
  SectorCache cache(Lines(2));  // two lines, fully associative
  EXPECT_FALSE(cache.Access(0 * 128));
  EXPECT_FALSE(cache.Access(1 * 128));
  EXPECT_TRUE(cache.Access(0));         // line 0 is now the most recent
  EXPECT_FALSE(cache.Access(2 * 128));  // evicts line 1, the least recent
  EXPECT_TRUE(cache.Access(0));
  EXPECT_FALSE(cache.Access(1 * 128));  // line 1 was evicted; line 2 leaves now
  EXPECT_FALSE(cache.Access(2 * 128));
}

TEST(CacheModel, ASetHoldsOnlyItsWays) {
  // 4 lines in 2 sets of 2 ways: lines 0, 2, 4 all map to set 0 and thrash it, while set 1
  // keeps line 1.
  SectorCache cache(Lines(4, 2));
  EXPECT_FALSE(cache.Access(1 * 128));
  for (int round = 0; round < 3; ++round) {
    for (int line : {0, 2, 4}) EXPECT_FALSE(cache.Access(line * 128ull)) << round << " " << line;
  }
  EXPECT_TRUE(cache.Access(1 * 128));
  // Fully associative, the same 4 lines all fit: the second round hits.
  SectorCache full(Lines(4));
  for (int line : {1, 0, 2, 4}) EXPECT_FALSE(full.Access(line * 128ull));
  for (int line : {1, 0, 2, 4}) EXPECT_TRUE(full.Access(line * 128ull));
}

TEST(CacheModel, BadSizesAreRefusedByName) {
  CacheConfig c;
  EXPECT_TRUE(CheckCache(c).ok());
  c.bytes = 100;
  EXPECT_EQ(CheckCache(c).message(),
            "the cache is 100 bytes; it must be a whole number of 128-byte lines, at most "
            "67108864");
  c = {};
  c.sector_bytes = 24;
  EXPECT_EQ(CheckCache(c).message(),
            "the cache's sector is 24 bytes; it must be a power of two from 4 to 4096");
  c = {};
  c.ways = 3;  // 64 lines
  EXPECT_EQ(CheckCache(c).message(),
            "the cache has 64 lines, which 3 ways do not divide into sets");
}

// A launch of one block of two warps; each lane reads 4 bytes at `offset(warp, lane, k)` for
// k = 0 .. steps - 1, the record's time being k (so request k of both warps comes in round k).
template <typename F>
LaunchTrace TwoWarps(int steps, F offset) {
  LaunchTrace t;
  t.block = {64, 1, 1};
  t.buffers = {{"in", 1 << 20, 0}};
  t.sites.push_back(SiteInfo{});  // a global 4-byte load of buffer 0
  BlockRecords b;
  for (int k = 0; k < steps; ++k) {
    for (std::uint16_t thread = 0; thread < 64; ++thread) {
      AccessRecord r;
      r.thread = thread;
      r.iteration = static_cast<std::uint32_t>(k);
      r.time = static_cast<std::uint32_t>(k);
      r.offset = offset(thread / 32, thread % 32, k);
      b.accesses.push_back(r);
    }
  }
  t.blocks.push_back(std::move(b));
  return t;
}

// Each thread walks its own row of 64 floats (256 bytes): at step k lane l of warp w reads row
// 32 w + l, column k. A request is 32 sectors in 32 lines; a sector serves 8 steps.
TEST(CacheModel, ColumnWalkFitsOrThrashes) {
  const LaunchTrace t = TwoWarps(64, [](int w, int l, int k) {
    return static_cast<std::uint32_t>((32 * w + l) * 256 + 4 * k);
  });
  // 64 lines alive (2 warps x 32 rows), 8 KB holds them: one miss in 8, the 64 x 64 x 4 / 32 =
  // 512 compulsory sectors.
  CacheCounts fits = ReplayLoads(t, Lines(64));
  EXPECT_EQ(fits.requests, 128u);
  EXPECT_EQ(fits.sectors, 128u * 32);
  EXPECT_EQ(fits.misses(), 512u);
  EXPECT_EQ(fits.hits, 128u * 32 - 512);
  EXPECT_EQ(fits.distinct, 512u);
  // 63 lines: the cycle of 64 lines beats LRU, every lookup misses.
  CacheCounts thrash = ReplayLoads(t, Lines(63));
  EXPECT_EQ(thrash.hits, 0u);
  EXPECT_EQ(thrash.misses(), 128u * 32);
  EXPECT_EQ(thrash.distinct, 512u);
}

TEST(CacheModel, ARemapMovesTheReplayedAddresses) {
  // Lane l reads bytes 4 l .. 4 l + 3 at every step: a request is the 4 sectors of line 0.
  const LaunchTrace t =
      TwoWarps(3, [](int, int l, int) { return static_cast<std::uint32_t>(4 * l); });
  CacheCounts same = ReplayLoads(t, Lines(1));
  EXPECT_EQ(same.sectors, 6u * 4);  // 2 warps x 3 steps
  EXPECT_EQ(same.hits, 6u * 4 - 4);
  // Remapped 128 bytes a lane apart: 32 lines a request. One line cycles them all out; 32 lines
  // keep them from one request to the next.
  ReplayChoice spread;
  spread.remap = [](const SiteInfo&, std::uint32_t offset) -> std::uint64_t { return 32 * offset; };
  EXPECT_EQ(ReplayLoads(t, Lines(1), spread).hits, 0u);
  CacheCounts kept = ReplayLoads(t, Lines(32), spread);
  EXPECT_EQ(kept.sectors, 6u * 32);
  EXPECT_EQ(kept.hits, 6u * 32 - 32);
  ReplayChoice none;
  none.site = [](const SiteInfo&) { return false; };
  EXPECT_EQ(ReplayLoads(t, Lines(1), none).requests, 0u);
}

// Blocks of 256 threads: 1,024 / 256 = 4 share a multiprocessor; 1,024 and more run alone.
TEST(CacheModel, BlocksShareAMultiprocessorUpTo1024Threads) {
  EXPECT_EQ(BlocksTogether(256), 4u);
  EXPECT_EQ(BlocksTogether(64), 16u);
  EXPECT_EQ(BlocksTogether(384), 2u);  // 2 x 384 = 768; a third would be 1,152
  EXPECT_EQ(BlocksTogether(1024), 1u);
  EXPECT_EQ(BlocksTogether(0), 1u);
}

// One warp (32 threads, so 32 blocks share a multiprocessor) per block; block b's lanes each
// read bytes 4 l of line `line(b)` once: one request of 4 sectors.
std::vector<AccessRecord> OneRequest(std::uint32_t line) {
  std::vector<AccessRecord> r;
  for (std::uint16_t l = 0; l < 32; ++l) {
    AccessRecord a;
    a.thread = l;
    a.offset = line * 128 + 4u * l;
    r.push_back(a);
  }
  return r;
}

// 40 blocks of one warp: blocks 0..31 are one group, 32..39 another, each with an empty cache.
// Every block reads line 0: the first group misses its 4 sectors once (31 x 4 hits), the second
// again (7 x 4 hits); compulsory is per multiprocessor, 4 + 4. Given in any order, from any
// thread, the counts are the same.
TEST(CacheModel, TheGridReplaysEachGroupOfBlocksOnAnEmptyCache) {
  const std::vector<SiteInfo> sites(1);
  const std::vector<BufferInfo> buffers = {{"in", 1 << 20, 0}};
  CacheProbe probe;
  probe.cache = Lines(8);
  auto run = [&](bool reversed) {
    GridCacheReplay grid({probe}, 40, 32);
    for (int i = 0; i < 40; ++i) {
      const std::uint64_t b = reversed ? 39 - i : i;
      grid.AddBlock(b, OneRequest(0), sites, buffers);
    }
    return grid.Finish();
  };
  const std::vector<CacheCounts> in_order = run(false);
  ASSERT_EQ(in_order.size(), 1u);
  EXPECT_EQ(in_order[0].requests, 40u);
  EXPECT_EQ(in_order[0].sectors, 160u);
  EXPECT_EQ(in_order[0].hits, 31u * 4 + 7 * 4);
  EXPECT_EQ(in_order[0].distinct, 8u);
  EXPECT_EQ(in_order[0].blocks, 40u);
  EXPECT_EQ(run(true), in_order);
  // A launch cut short after 20 blocks: the partial group is replayed with what it has.
  GridCacheReplay cut({probe}, 40, 32);
  for (std::uint64_t b = 0; b < 20; ++b) cut.AddBlock(b, OneRequest(0), sites, buffers);
  EXPECT_EQ(cut.Finish()[0].hits, 19u * 4);
}

// With every block kept, ReplayLoads over the trace is the grid's replay: the same groups.
TEST(CacheModel, TheKeptBlocksReplayLikeTheGridWhenAllAreKept) {
  LaunchTrace t;
  t.grid = {40, 1, 1};
  t.block = {32, 1, 1};
  t.buffers = {{"in", 1 << 20, 0}};
  t.sites.push_back(SiteInfo{});
  GridCacheReplay grid({CacheProbe{Lines(8), {}}}, 40, 32);
  for (std::uint32_t b = 0; b < 40; ++b) {
    BlockRecords r;
    r.block = b;
    r.accesses = OneRequest(b % 3);  // lines 0, 1, 2, 0, ...
    grid.AddBlock(b, r.accesses, t.sites, t.buffers);
    t.blocks.push_back(std::move(r));
  }
  const CacheCounts kept = ReplayLoads(t, Lines(8));
  EXPECT_EQ(kept, grid.Finish()[0]);
  // Group 0: 32 blocks on 3 lines, 12 sectors missed; group 1 (blocks 32..39): 3 lines again.
  EXPECT_EQ(kept.misses(), 12u + 12);
  EXPECT_EQ(kept.distinct, 24u);
}

TEST(LayoutInverse, PixelAtUndoesIndex) {
  for (LayoutKind kind : {LayoutKind::kRowMajor, LayoutKind::kMorton, LayoutKind::kTiled}) {
    const Layout2D l{kind, 24, 16, 8, 8, 2, 2};
    for (int y = 0; y < l.height; ++y) {
      for (int x = 0; x < l.width; ++x) {
        EXPECT_EQ(PixelAt(l, l.Index(x, y)), (Pixel{x, y}))
            << ToString(kind) << " " << x << "," << y;
      }
    }
  }
  // Morton of a 24-wide image: position 16 is (4, 0); x = 24 lies past the image.
  const Layout2D morton{LayoutKind::kMorton, 24, 16};
  EXPECT_EQ(PixelAt(morton, 16), (Pixel{4, 0}));
  EXPECT_EQ(PixelAt(morton, morton.Index(24, 0)), Pixel{});
  // A layout CheckLayout refuses has no pixels: a micro tile of 3 in a tile of 8, an empty image.
  EXPECT_EQ(PixelAt(Layout2D{LayoutKind::kTiled, 24, 16, 8, 8, 3, 2}, 5), Pixel{});
  EXPECT_EQ(PixelAt(Layout2D{LayoutKind::kRowMajor, 0, 16}, 0), Pixel{});
  // Row-major past the last row.
  EXPECT_EQ(PixelAt(Layout2D{LayoutKind::kRowMajor, 24, 16}, 24 * 16), Pixel{});
}

}  // namespace
}  // namespace ws
