// The tally's host half, without a GPU (ws_cuda_record_format.h): whole-warp requests the device
// counted by shape, costed once each and added as many times as counted, give the figures the
// same requests give when every one is written as an event.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include <nlohmann/json.hpp>

#include "site_stats_expect.h"
#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/trace/hazards.h"

namespace {
namespace tally {

const std::uint64_t kLoad = ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
const std::uint64_t kStore = ws::MakeSiteKey(11, ws::kKeyGlobal, ws::kKeyStore, 4, 1);
const std::uint64_t kShared = ws::MakeSiteKey(12, ws::kKeyShared, ws::kKeyLoad, 4, 0);

// Warp `wib` of block `b` (two warps of 32 threads a block): its load of in[64 b + t], its store
// of out[t * 32], lanes permuted (one 128-byte line each), and its shared load of tile[2 t].
std::vector<std::uint32_t> LoadOffsets(std::uint32_t b, std::uint32_t wib) {
  std::vector<std::uint32_t> v(32);
  for (std::uint32_t l = 0; l < 32; ++l) v[l] = 256 * b + 128 * wib + 4 * l;
  return v;
}
std::vector<std::uint32_t> StoreOffsets(std::uint32_t b, std::uint32_t wib) {
  std::vector<std::uint32_t> v(32);
  for (std::uint32_t l = 0; l < 32; ++l) v[l] = 8192 * b + 4096 * wib + 128 * ((l * 7) % 32);
  return v;
}
std::vector<std::uint32_t> SharedOffsets() {
  std::vector<std::uint32_t> v(32);
  for (std::uint32_t l = 0; l < 32; ++l) v[l] = 8 * l;
  return v;
}

// Four blocks of 64 threads; `written` blocks write their events, the others' requests are
// tallied as the device tallies them: one shape per (site, lanes, offsets less the lowest, the
// lowest's place in 256 bytes), standing for its first request, counted every time.
ws::GpuCapture Capture(const std::vector<std::uint32_t>& written) {
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {4, 1, 1};
  c.block = {64, 1, 1};
  c.buffers = {{"in", 1 << 20, 0}, {"out", 1 << 20, 0}};
  ws::PlaceBuffers(c.buffers);
  c.warp_base = {0};
  c.warp_tallied.assign(8, 0);
  // The sites' device file tag (0) names a file: events and tallied shapes alike are retagged.
  c.device_files[0] = "kernel.cu";
  auto tally = [&](std::uint64_t key, const std::vector<std::uint32_t>& offsets) {
    const std::uint32_t lo = *std::min_element(offsets.begin(), offsets.end());
    for (ws::GpuCapture::TalliedShape& s : c.tallied) {
      const std::uint32_t first = *std::min_element(s.offsets, s.offsets + 32);
      bool same = s.key == key && first % 256 == lo % 256;
      for (std::uint32_t l = 0; l < 32; ++l) same = same && s.offsets[l] - first == offsets[l] - lo;
      if (same) {
        ++s.count;
        return;
      }
    }
    ws::GpuCapture::TalliedShape s;
    s.key = key;
    s.mask = ~0u;
    std::copy(offsets.begin(), offsets.end(), s.offsets);
    s.count = 1;
    c.tallied.push_back(s);
  };
  for (std::uint32_t b = 0; b < 4; ++b) {
    for (std::uint32_t wib = 0; wib < 2; ++wib) {
      if (std::find(written.begin(), written.end(), b) != written.end()) {
        ws::EncodeWarpEvent(kLoad, ~0u, 10, LoadOffsets(b, wib), &c.words);
        ws::EncodeWarpEvent(kShared, ~0u, 20, SharedOffsets(), &c.words);
        ws::EncodeWarpEvent(kStore, ~0u, 30, StoreOffsets(b, wib), &c.words);
      } else {
        tally(kLoad, LoadOffsets(b, wib));
        tally(kShared, SharedOffsets());
        tally(kStore, StoreOffsets(b, wib));
        c.warp_tallied[b * 2 + wib] = 1;
      }
      c.warp_used.push_back(c.words.size() - c.warp_base.back());
      c.warp_base.push_back(c.words.size());
    }
  }
  return c;
}

void ExpectSameFigures(const ws::LaunchTrace& a, const ws::LaunchTrace& b) {
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) {
    SCOPED_TRACE("site " + std::to_string(i));
    ws::test_support::ExpectSameSiteStats(a.stats.sites[i], b.stats.sites[i]);
  }
  EXPECT_EQ(a.stats.access_records, b.stats.access_records);
  EXPECT_EQ(a.stats.divergent_warps, b.stats.divergent_warps);
  EXPECT_EQ(a.thread_active, b.thread_active);
}

}  // namespace tally

TEST(GpuTally, TalliedRequestsGiveTheFiguresTheirEventsWouldGive) {
  const ws::GpuCapture all = tally::Capture({0, 1, 2, 3});
  const ws::GpuCapture tallied = tally::Capture({0});
  // Blocks 1..3's two warps at three sites: the loads at two places in 256 bytes (0 and 128),
  // the stores at two (0 and 0: one shape), the shared loads at one: 2 + 1 + 1 shapes.
  ASSERT_EQ(tallied.tallied.size(), 4u);
  const ws::LaunchTrace a = ws::DecodeGpuCapture(all, {{0}, false});
  const ws::LaunchTrace b = ws::DecodeGpuCapture(tallied, {{0}, false});
  tally::ExpectSameFigures(a, b);
  // By hand: 8 warps a site. The load: 4 sectors a request (128 bytes); the store: 32 (one
  // line each); the shared load of tile[2t]: lanes l and l + 16 share a bank, 2 wavefronts.
  ASSERT_EQ(b.sites.size(), 3u);  // not 6: a tallied shape's site is its events' site
  EXPECT_EQ(b.sites[0].file_tag, ws::FileTagOf("kernel.cu"));
  for (const ws::SiteStats& s : b.stats.sites) EXPECT_EQ(s.requests, 8u);
  std::uint64_t sectors = 0, wavefronts = 0;
  for (const ws::SiteStats& s : b.stats.sites) {
    sectors += s.sectors;
    wavefronts += s.wavefronts;
  }
  EXPECT_EQ(sectors, 8u * 4 + 8u * 32);
  EXPECT_EQ(wavefronts, 8u * 2);
  EXPECT_EQ(b.stats.access_records, 3u * 8 * 32);
  // Only block 0 kept its records; every thread counts as active.
  ASSERT_EQ(b.blocks.size(), 1u);
  EXPECT_EQ(b.blocks[0].accesses.size(), 3u * 64);
  EXPECT_EQ(std::accumulate(b.thread_active.begin(), b.thread_active.end(), 0u), 256u);
}

TEST(GpuTally, ABlockThatLostItsWrittenEventsSaysItsWholeWarpRequestsAreCounted) {
  // Block 2's two warps found no room for their written events (the record budget); their
  // whole-warp requests were tallied all the same.
  ws::GpuCapture c = tally::Capture({0});
  c.warp_dropped = {0, 0, 0, 0, 1, 1, 0, 0};
  ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_EQ(t.uncovered_blocks, 1u);
  EXPECT_TRUE(t.uncovered_requests_counted);
  EXPECT_EQ(t.Coverage(),
            "the figures cover 3 of 4 blocks in full: the record budget left 1 block's warps no "
            "room on the GPU for their barriers, partial-warp requests and warp-level meetings, "
            "whose figures miss them; their whole-warp requests are counted (--record-budget; a "
            "smaller grid)");
  for (const ws::SiteStats& s : t.stats.sites) EXPECT_EQ(s.requests, 8u);  // every warp's
  // A table that filled wrote some whole-warp requests, which the lost room may have lost too.
  c.tally_full = true;
  t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_FALSE(t.uncovered_requests_counted);
  EXPECT_EQ(t.Coverage().find("in full"), std::string::npos);
}

TEST(GpuTally, TheTablesShapesComeBackWithTheirCountersSummed) {
  // Four slots: 0 and 2 free, 1 a load counted 3 + 4 by blocks 0 and 15, 3 taken but never counted.
  std::vector<unsigned long long> keys = {0, 0x1234, 0, 0x99};
  std::vector<std::uint32_t> shapes(4 * ws::dev::kTallyShapeWords, 0);
  std::uint32_t* s1 = shapes.data() + ws::dev::kTallyShapeWords;
  s1[0] = static_cast<std::uint32_t>(tally::kLoad);
  s1[1] = static_cast<std::uint32_t>(tally::kLoad >> 32);
  s1[2] = 0xffffu;
  for (std::uint32_t l = 0; l < 32; ++l) s1[ws::dev::kTallyHeaderWords + l] = 4 * l;
  shapes[3 * ws::dev::kTallyShapeWords + 2] = ~0u;
  std::vector<unsigned long long> counts(4 * ws::dev::kTallySpread, 0);
  // Spread-major (ws_cuda_record_format.h): slot 1's counter for block 15 is word 15 * 4 + 1.
  counts[0 * 4 + 1] = 3;
  counts[15 * 4 + 1] = 4;
  counts[1 * 4 + 0] = 5;  // slot 0's (free: not read) beside slot 1's
  counts[1 * 4 + 2] = 6;  // slot 2's (free)
  const auto out = ws::TalliedShapes(keys, shapes, counts);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].key, tally::kLoad);
  EXPECT_EQ(out[0].mask, 0xffffu);
  EXPECT_EQ(out[0].offsets[31], 124u);
  EXPECT_EQ(out[0].count, 7u);
  // Arrays shorter than the keys say are not read past.
  std::vector<unsigned long long> short_counts(counts.begin(), counts.end() - 1);
  EXPECT_TRUE(ws::TalliedShapes(keys, shapes, short_counts).empty());
  shapes.resize(ws::dev::kTallyShapeWords);
  EXPECT_TRUE(ws::TalliedShapes(keys, shapes, counts).empty());
}

}  // namespace

namespace {
namespace passes {

// Two blocks of 80 threads (warps of 32, 32 and 16 lanes), three passes of a block barrier at
// place 40, and two of a 64-thread tile's sync at place 41 by tile 0 (warps 0 and 1). Warp 1 passes
// the barrier's second time in two halves that arrived apart, and its third time whole again.
ws::GpuCapture Capture() {
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {2, 1, 1};
  c.block = {80, 1, 1};
  c.warp_base = {0};
  const std::uint64_t t0 = 1000;
  for (std::uint32_t b = 0; b < 2; ++b) {
    for (std::uint32_t w = 0; w < 3; ++w) {
      const std::uint32_t lanes = w == 2 ? 0xffffu : ~0u;
      for (std::uint64_t k = 0; k < 3; ++k) {
        const std::uint64_t arrival = t0 + 100 * k + 7 * w + 3 * b, departure = t0 + 100 * k + 50;
        if (w == 1 && k == 1) {
          ws::EncodeBarrierEvent(40, 0xffffu, arrival, departure, 0, 5, &c.words);
          ws::EncodeBarrierEvent(40, 0xffff0000u, arrival + 20, departure, 0, 5, &c.words);
        } else {
          ws::EncodeBarrierEvent(40, lanes, arrival, departure, 0, 5, &c.words);
        }
        if (k < 2 && w < 2) {
          const std::size_t at = c.words.size();
          ws::EncodeBarrierEvent(41, lanes, arrival + 60 + 11 * w, departure + 70, 0, 5, &c.words);
          c.words[at] |= 2;  // the tile's 2 warps
        }
      }
      c.warp_used.push_back(c.words.size() - c.warp_base.back());
      c.warp_base.push_back(c.words.size());
    }
  }
  return c;
}

}  // namespace passes

// An asynchronous copy's shared write the device tallied carries its sources' global 128-byte
// lines (the shape's fourth word): a warp's 128 contiguous bytes are one wavefront as a store,
// but copied from two lines (globalToShmemAsyncCopy's two rows, 256 bytes apart) they take two,
// the second a conflict, as an H200 counted (kernels/async/ldgsts_lines.txt); from one line, one.
TEST(GpuTally, AnAsyncCopysTalliedWriteTakesAWavefrontASourceLine) {
  const std::uint64_t write =
      ws::MakeSiteKey(13, ws::kKeyShared, ws::kKeyStore, 4, 0) | ws::kKeyAsyncCopy;
  std::vector<unsigned long long> keys = {0x77, 0x78};
  std::vector<std::uint32_t> shapes(2 * ws::dev::kTallyShapeWords, 0);
  for (std::uint32_t slot = 0; slot < 2; ++slot) {
    std::uint32_t* w = shapes.data() + slot * ws::dev::kTallyShapeWords;
    w[0] = static_cast<std::uint32_t>(write);
    w[1] = static_cast<std::uint32_t>(write >> 32);
    w[2] = ~0u;
    w[3] = slot == 0 ? 2u : 1u;  // the lines
    for (std::uint32_t l = 0; l < 32; ++l) w[ws::dev::kTallyHeaderWords + l] = 4 * l;
  }
  std::vector<unsigned long long> counts(2 * ws::dev::kTallySpread, 0);
  counts[0] = 10;  // slot 0, ten requests
  counts[1] = 3;   // slot 1, three
  const auto out = ws::TalliedShapes(keys, shapes, counts);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].lines, 2u);
  EXPECT_EQ(out[1].lines, 1u);
  const std::vector<ws::SiteInfo> sites = {ws::SiteFromKey(write)};
  ASSERT_TRUE(sites[0].async_copy);
  ws::LaunchStats stats;
  for (const auto& shape : out)
    ws::AddRequests(0, shape.mask, shape.offsets, shape.count, sites, {}, &stats, shape.lines);
  EXPECT_EQ(stats.sites[0].requests, 13u);
  EXPECT_EQ(stats.sites[0].wavefronts, 10u * 2 + 3u * 1);
  EXPECT_EQ(stats.sites[0].ideal_wavefronts, 13u);
}

// `blocks` blocks of two warps (64 threads, file tag 0 naming kernel.cu): `warp(b, wib, &c)`
// writes warp wib of block b's events into c.words, or returns false where the device tallied
// them instead (the warp's flag set).
template <typename F>
ws::GpuCapture TwoWarpBlocks(std::uint32_t blocks, F warp) {
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {blocks, 1, 1};
  c.block = {64, 1, 1};
  c.warp_base = {0};
  c.warp_tallied.assign(2 * blocks, 0);
  c.device_files[0] = "kernel.cu";
  for (std::uint32_t b = 0; b < blocks; ++b) {
    for (std::uint32_t wib = 0; wib < 2; ++wib) {
      if (!warp(b, wib, &c)) c.warp_tallied[2 * b + wib] = 1;
      c.warp_used.push_back(c.words.size() - c.warp_base.back());
      c.warp_base.push_back(c.words.size());
    }
  }
  return c;
}

// A whole warp's meeting in a block not kept is counted by the device (kTallyWarpOp in its
// shape's key), not written: the grid's meetings a site are what the events would give. Two
// blocks of two warps; each warp shuffles once at line 40; block 1's warps also meet at an
// mma_sync on line 41, which no kept block reaches (its site comes from the tally alone).
TEST(GpuTally, AWarpsTalliedMeetingsCountAsTheirEventsWould) {
  const std::uint32_t shfl = ws::MakePlace(0, 40), mma = ws::MakePlace(0, 41);
  std::uint8_t sources[32];
  for (std::uint32_t l = 0; l < 32; ++l) sources[l] = static_cast<std::uint8_t>((l + 1) % 32);
  auto capture = [&](bool tally_block_1) {
    ws::GpuCapture c = TwoWarpBlocks(2, [&](std::uint32_t b, std::uint32_t, ws::GpuCapture* g) {
      if (b == 1 && tally_block_1) return false;
      ws::EncodeWarpOpEvent(0, shfl, ~0u, 10, sources, &g->words);
      if (b == 1) ws::EncodeWarpOpEvent(12, mma, ~0u, 20, sources, &g->words);
      return true;
    });
    if (tally_block_1) {
      for (const auto& [place, kind] : {std::pair{shfl, 0u}, std::pair{mma, 12u}}) {
        ws::GpuCapture::TalliedShape t;
        t.key = std::uint64_t{place} << 32 | ws::dev::kTallyWarpOp | kind;
        t.mask = ~0u;
        t.count = 2;  // block 1's two warps
        c.tallied.push_back(t);
      }
    }
    return c;
  };
  const ws::LaunchTrace written = ws::DecodeGpuCapture(capture(false), {{0, 1}, false});
  const ws::LaunchTrace counted = ws::DecodeGpuCapture(capture(true), {{0}, false});
  ASSERT_EQ(counted.warp_op_sites.size(), 2u);
  ASSERT_EQ(written.warp_op_sites.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(counted.warp_op_sites[i].line, written.warp_op_sites[i].line);
    EXPECT_EQ(counted.warp_op_sites[i].kind, written.warp_op_sites[i].kind);
    EXPECT_EQ(counted.warp_op_sites[i].file_tag, ws::FileTagOf("kernel.cu"));
  }
  // By hand: 4 warps shuffle once, block 1's 2 warps meet at mma_sync once.
  EXPECT_EQ(counted.warp_op_counts, (std::vector<std::uint64_t>{4, 2}));
  EXPECT_EQ(written.warp_op_counts, counted.warp_op_counts);
  EXPECT_TRUE(counted.stats.sites.empty());  // no access site from a meeting's shape
}

TEST(GpuTally, ABlockNotKeptCountsItsBarrierPassesAsItsRecordsWould) {
  const ws::GpuCapture c = passes::Capture();
  const ws::LaunchTrace recorded = ws::DecodeGpuCapture(c, {{}, true});  // every block's records
  const ws::LaunchTrace counted = ws::DecodeGpuCapture(c, {{}, false});  // none kept
  ASSERT_EQ(recorded.blocks.size(), 2u);
  EXPECT_TRUE(counted.blocks.empty());
  ASSERT_EQ(counted.stats.barriers.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    SCOPED_TRACE("site " + std::to_string(s));
    const ws::BarrierStats &a = recorded.stats.barriers[s], &b = counted.stats.barriers[s];
    EXPECT_EQ(a.instances, b.instances);
    EXPECT_EQ(a.max_skew, b.max_skew);
    EXPECT_EQ(a.wait_sum, b.wait_sum);
    EXPECT_EQ(a.thread_arrivals, b.thread_arrivals);
    EXPECT_EQ(a.max_wait, b.max_wait);
  }
  EXPECT_EQ(recorded.stats.barrier_records, counted.stats.barrier_records);
  EXPECT_EQ(recorded.thread_active, counted.thread_active);
  // By hand. The barrier: 3 passes x 2 blocks = 6 instances of 80 threads; the widest skew is
  // the split pass's, warp 1's second half 20 ns after its first (7 + 20) against warp 0 (0):
  // 27 ns. The tile: 2 passes x 2 blocks = 4 instances of 64 threads; its warps 0 and 1 arrive
  // 7 + 11 = 18 ns apart.
  const ws::BarrierStats& barrier = counted.stats.barriers[0];
  EXPECT_EQ(barrier.instances, 6u);
  EXPECT_EQ(barrier.thread_arrivals, 6u * 80);
  EXPECT_EQ(barrier.max_skew, 27u);
  EXPECT_EQ(counted.stats.barriers[1].instances, 4u);
  EXPECT_EQ(counted.stats.barriers[1].max_skew, 18u);
  EXPECT_EQ(counted.stats.barrier_records, 6u * 80 + 4u * 64);
}

// A block not kept passes its barriers on the device's count (kTallyBarrier in the shape's key,
// the instance's threads in its lines word, the lanes' waits summed): the barrier's instances,
// arrivals and waits are what its events would give, and a written pass that says its count
// adds to the same instances. Three blocks of 64 threads pass the barrier at line 30 three
// times: block 0 kept (events), block 1's passes written with their count (not kept), block 2's
// counted on the device (2 warps x 3 passes, 10 ns each wait, one of 40 ns).
TEST(GpuTally, ABlockNotKeptCountsItsBarrierPassesOnTheDevice) {
  const std::uint32_t place = ws::MakePlace(0, 30);
  auto capture = [&](bool tally_block_2) {
    ws::GpuCapture c = TwoWarpBlocks(3, [&](std::uint32_t b, std::uint32_t wib, ws::GpuCapture* g) {
      if (b == 2 && tally_block_2) return false;
      for (std::uint64_t k = 0; k < 3; ++k) {
        const std::uint64_t arrival = 1000 * (k + 1) + 5 * wib;
        const std::uint64_t wait = b == 2 && wib == 1 && k == 2 ? 40 : 10;
        ws::EncodeBarrierEvent(place, ~0u, arrival, arrival + wait, 0, 20, &g->words, 64);
      }
      return true;
    });
    if (tally_block_2) {
      ws::GpuCapture::TalliedShape t;
      t.key = std::uint64_t{place} << 32 | ws::dev::kTallyBarrier;
      t.mask = ~0u;
      t.lines = 64;
      t.count = 6;
      t.wait_sum = 32 * (5 * 10 + 40);
      t.wait_max = 40;
      c.tallied.push_back(t);
    }
    return c;
  };
  const ws::LaunchTrace written = ws::DecodeGpuCapture(capture(false), {{0}, false});
  const ws::LaunchTrace counted = ws::DecodeGpuCapture(capture(true), {{0}, false});
  ASSERT_EQ(counted.barrier_sites.size(), 1u);
  EXPECT_EQ(counted.barrier_sites[0].line, 30u);
  const ws::BarrierStats &a = written.stats.barriers[0], &b = counted.stats.barriers[0];
  // By hand: 3 blocks x 3 passes; 9 x 64 arrivals; every lane waits 10 ns but block 2's warp 1's
  // third pass, 40 ns: 32 x (17 x 10 + 40) in all (18 passes of a warp, less that one).
  EXPECT_EQ(b.instances, 9u);
  EXPECT_EQ(b.thread_arrivals, 9u * 64);
  EXPECT_EQ(b.wait_sum, 32u * (17 * 10 + 40));
  EXPECT_EQ(b.max_wait, 40u);
  EXPECT_EQ(counted.stats.barrier_records, 9u * 64);
  EXPECT_EQ(a.instances, b.instances);
  EXPECT_EQ(a.thread_arrivals, b.thread_arrivals);
  EXPECT_EQ(a.wait_sum, b.wait_sum);
  EXPECT_EQ(a.max_wait, b.max_wait);
  // The skew: warps 5 ns apart in every block written; counted, the kept block 0's only.
  EXPECT_EQ(a.max_skew, 5u);
  EXPECT_EQ(b.max_skew, 5u);
  EXPECT_FALSE(written.barrier_skew_kept_only);
  EXPECT_TRUE(counted.barrier_skew_kept_only);
  EXPECT_EQ(counted.barrier_skew_blocks, 1u);  // block 0's: block 1's written passes are not all
}

// The device's hazard check (ws_cuda_hazards.h) in the report, without a GPU: where it checked
// every block and each block it flagged was kept whole, the pairs of the kept blocks are the
// grid's, and the report covers the grid (its accesses counted over every block: 4 blocks x 64
// threads, one shared load and two global accesses each); where a flagged block was not kept,
// it lists the kept blocks and says how many were flagged.
TEST(GpuHazardScan, ACheckOfEveryBlockMakesTheKeptBlocksPairsTheGrids) {
  ws::GpuCapture c = tally::Capture({0});
  ws::LaunchTrace before = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_FALSE(before.hazards.whole_grid);  // block 0 only
  EXPECT_FALSE(before.hazards.device_scanned);
  c.hazard_scan.ran = true;  // no block flagged: none has a pair
  const ws::LaunchTrace clean = ws::DecodeGpuCapture(c, {{0}, false});
  const ws::HazardReport& h = clean.hazards;
  EXPECT_TRUE(h.device_scanned);
  EXPECT_TRUE(h.whole_grid);
  EXPECT_TRUE(h.blocks.empty());
  EXPECT_EQ(h.shared_accesses, 4u * 64);
  EXPECT_EQ(h.global_accesses, 4u * 64 * 2);
  EXPECT_EQ(h.Checked(),
            "every block of 4: shared memory within each block (256 accesses), global memory "
            "within and across blocks (512 accesses); checked on the GPU, where no block's threads "
            "shared a written word");
  // Two blocks flagged, one of them kept (the record budget's kind of limit).
  c.hazard_scan.racing = {1, 2};
  c.hazard_scan.racing_kept = 1;
  const ws::LaunchTrace partial = ws::DecodeGpuCapture(c, {{0, 1}, false});
  EXPECT_FALSE(partial.hazards.whole_grid);
  EXPECT_EQ(partial.hazards.blocks, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_NE(
      partial.hazards.Checked().find("on the GPU every block was checked: 2 of 4 had "
                                     "threads sharing a written word; at most 1 of them kept"),
      std::string::npos)
      << partial.hazards.Checked();
  // Trace files keep what the check found.
  auto back = ws::HazardsFromJson(ws::HazardsJson(partial.hazards));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->device_scanned);
  EXPECT_EQ(back->racing_blocks, 2u);
  EXPECT_EQ(back->Checked(), partial.hazards.Checked());
  // Every flagged block kept: the grid again.
  c.hazard_scan.racing_kept = 2;
  const ws::LaunchTrace whole = ws::DecodeGpuCapture(c, {{0, 1, 2}, false});
  EXPECT_TRUE(whole.hazards.whole_grid);
  EXPECT_NE(whole.hazards.Checked().find("on the GPU, 2 blocks' threads shared a written word: the "
                                         "pairs counted from their records (the other blocks have "
                                         "none)"),
            std::string::npos)
      << whole.hazards.Checked();
  // A global access with no shadow on the GPU (a site over several buffers): its block is
  // flagged there, but a pair across blocks through it may be missed, and the report says so.
  c.hazard_scan.unshadowed = 64;
  const ws::LaunchTrace gap = ws::DecodeGpuCapture(c, {{0, 1, 2}, false});
  EXPECT_FALSE(gap.hazards.whole_grid);
  EXPECT_NE(gap.hazards.Checked().find("64 global accesses had no shadow on the GPU"),
            std::string::npos)
      << gap.hazards.Checked();
}

// A kept block the device found clean but whose records have pairs (the check's run and the
// recording run differ where a kernel's addresses depend on the schedule): the report is not
// the grid's and says why. Two blocks of two warps, every lane storing word 0 of shared memory.
TEST(GpuHazardScan, AKeptBlockFoundCleanThatRacesMakesTheReportPartial) {
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {2, 1, 1};
  c.block = {64, 1, 1};
  c.device_files[0] = "kernel.cu";
  const std::uint64_t store = ws::MakeSiteKey(13, ws::kKeyShared, ws::kKeyStore, 4, 0);
  c.warp_base = {0};
  for (std::uint32_t w = 0; w < 4; ++w) {
    ws::EncodeWarpEvent(store, ~0u, 10 + w, std::vector<std::uint32_t>(32, 0), &c.words);
    c.warp_used.push_back(c.words.size() - c.warp_base.back());
    c.warp_base.push_back(c.words.size());
  }
  c.hazard_scan.ran = true;  // no block flagged
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_GT(t.hazards.Total(), 0u);
  EXPECT_FALSE(t.hazards.whole_grid);
  EXPECT_NE(t.hazards.Checked().find("a kept block the check found clean has pairs"),
            std::string::npos)
      << t.hazards.Checked();
  // Both blocks flagged and kept: their pairs are the grid's.
  c.hazard_scan.racing = {0, 1};
  c.hazard_scan.racing_kept = 2;
  const ws::LaunchTrace both = ws::DecodeGpuCapture(c, {{0, 1}, false});
  EXPECT_TRUE(both.hazards.whole_grid) << both.hazards.Checked();
  EXPECT_EQ(both.hazards.Total(), 2 * t.hazards.Total());
}

}  // namespace

// A whole warp's request in a block of rows narrower than the warp is tallied by its steps where
// its offsets are affine in each row (ws_cuda_tally.h, AffineShapeKey): the device's rows are
// log2 of blockDim.x, for 2, 4, 8 or 16 threads a row and more than one row, else 0 (the warp
// is one row or less of the block, its lanes in one row: affine or not at all).
TEST(GpuTally, ABlockOfRowsNarrowerThanAWarpIsTalliedByItsRowsSteps) {
  EXPECT_EQ(ws::dev::TallyRows(16, 16, 1), 4u);  // a 16 x 16 tile: a warp is two rows of 16
  EXPECT_EQ(ws::dev::TallyRows(8, 8, 1), 3u);
  EXPECT_EQ(ws::dev::TallyRows(4, 1, 8), 2u);  // rows in z count as rows
  EXPECT_EQ(ws::dev::TallyRows(2, 64, 1), 1u);
  EXPECT_EQ(ws::dev::TallyRows(32, 32, 1), 0u);  // a row is a warp
  EXPECT_EQ(ws::dev::TallyRows(64, 4, 1), 0u);
  EXPECT_EQ(ws::dev::TallyRows(16, 1, 1), 0u);   // one row of 16: a warp of 16 lanes
  EXPECT_EQ(ws::dev::TallyRows(12, 8, 1), 0u);   // not a power of two: rows start mid-warp
  EXPECT_EQ(ws::dev::TallyRows(1, 256, 1), 0u);  // one thread a row: affine across the warp
}

// Which of the table's shapes the device hashed by their steps (ShapesTalliedBySteps): a 16 x 16
// block's capture (rows of 16 lanes) with an affine shape and a shape affine in rows, each under
// its steps' hash, a shape affine in rows under another hash (as if Tally had hashed its lanes),
// a shape of neither kind and a barrier's shape (not an access: left out). By hand: 4 access
// shapes, 3 affine either way, 2 of them by their steps.
TEST(GpuTally, TheHostTellsWhichShapesTheDeviceHashedByTheirSteps) {
  ws::GpuCapture c;
  c.block = {16, 16, 1};
  auto shape = [&](std::uint64_t key, auto offset, std::uint64_t hash) {
    ws::GpuCapture::TalliedShape s;
    s.key = key;
    s.mask = ~0u;
    s.count = 1;
    for (std::uint32_t l = 0; l < 32; ++l) s.offsets[l] = offset(l);
    s.hash = hash;
    c.tallied.push_back(s);
  };
  using ws::dev::AffineShapeHash;
  shape(
      tally::kLoad, [](std::uint32_t l) { return 8 + 4 * l; },
      AffineShapeHash(8, 4, tally::kLoad, 32));
  // A tile's row element: step 0 in a row, the two rows 64 bytes apart.
  shape(
      tally::kShared, [](std::uint32_t l) { return 12 + 64 * (l >> 4); },
      AffineShapeHash(12, 0, tally::kShared, 32, 4, 64));
  shape(
      tally::kStore, [](std::uint32_t l) { return 4 * (l & 15) + 4096 * (l >> 4); }, 12345);
  shape(
      tally::kStore, [](std::uint32_t l) { return 128 * ((l * 7) % 32); }, 777);
  shape(
      ws::dev::kTallyBarrier, [](std::uint32_t) { return 0u; }, 99);
  const ws::TallyShapeCount n = ws::ShapesTalliedBySteps(c);
  EXPECT_EQ(n.shapes, 4u);
  EXPECT_EQ(n.steps_shaped, 3u);
  EXPECT_EQ(n.by_steps, 2u);
  // The hash keeps a shape's first offset's place in 256 bytes and no more; rows 0 is the affine
  // hash, and a shape in rows hashes apart from the affine one of the same first and step.
  EXPECT_EQ(AffineShapeHash(12, 4, tally::kLoad, 32),
            AffineShapeHash(12 + 256, 4, tally::kLoad, 32));
  EXPECT_NE(AffineShapeHash(12, 4, tally::kLoad, 32), AffineShapeHash(16, 4, tally::kLoad, 32));
  EXPECT_EQ(AffineShapeHash(12, 4, tally::kLoad, 32, 0, 64),
            AffineShapeHash(12, 4, tally::kLoad, 32));
  EXPECT_NE(AffineShapeHash(12, 0, tally::kLoad, 32, 4, 64),
            AffineShapeHash(12, 0, tally::kLoad, 32));
}
