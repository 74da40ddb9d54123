// A block's records into per-site figures (AnalyzeBlock): requests whose shape repeats, shifted by
// a multiple of 256 bytes, reuse the cost of the one before (analysis.cpp's memo); any other
// shift must be costed again. Expected figures by hand.
#include "warpscope/trace/analysis.h"

#include <gtest/gtest.h>

#include <vector>

namespace ws {
namespace {

TEST(AnalyzeBlock, RepeatedShapesCostTheSameAndShiftedOnesAreCostedAgain) {
  std::vector<SiteInfo> sites(2);
  sites[0].space = MemorySpace::kGlobal;  // float loads from buffer 0
  sites[1].space = MemorySpace::kShared;  // float loads from shared memory
  std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
  std::vector<AccessRecord> records;
  // One warp of 32 threads. Global (offset of lane t in each iteration):
  //   0: 4t        128 aligned bytes: 4 sectors, 1 line
  //   1: 256 + 4t  the same shifted by 256: 4 sectors, 1 line
  //   2: 260 + 4t  shifted by 4 more: 5 sectors, 2 lines
  //   3: 512 + 32t one float per 32-byte sector: 32 sectors over 1024 bytes, 8 lines
  //   4: 768 + 32t the same shifted by 256: 32 sectors, 8 lines
  const std::uint32_t global_base[] = {0, 256, 260, 512, 768};
  const std::uint32_t global_step[] = {4, 4, 4, 32, 32};
  // Shared, stride 2 words (lanes t and t + 16 share a bank: 2-way), at 0, then 128 (not a
  // multiple of 256: costed again, still 2-way), then 384 (256 after 128): 2 + 2 + 2 wavefronts.
  const std::uint32_t shared_base[] = {0, 128, 384};
  for (std::uint32_t it = 0; it < 5; ++it)
    for (std::uint16_t t = 0; t < 32; ++t)
      records.push_back({global_base[it] + global_step[it] * t, it, 0, t, 0, 0});
  for (std::uint32_t it = 0; it < 3; ++it)
    for (std::uint16_t t = 0; t < 32; ++t)
      records.push_back({shared_base[it] + 8u * t, it, 0, t, 1, 0});
  LaunchStats stats;
  AnalyzeBlock(records, {}, sites, buffers, 32, &stats);
  ASSERT_EQ(stats.sites.size(), 2u);
  EXPECT_EQ(stats.sites[0].requests, 5u);
  EXPECT_EQ(stats.sites[0].sectors, 4u + 4 + 5 + 32 + 32);
  EXPECT_EQ(stats.sites[0].lines128, 1u + 1 + 2 + 8 + 8);
  EXPECT_EQ(stats.sites[0].sectors_histogram[4], 2u);
  EXPECT_EQ(stats.sites[0].sectors_histogram[5], 1u);
  EXPECT_EQ(stats.sites[0].sectors_histogram[32], 2u);
  EXPECT_EQ(stats.sites[1].requests, 3u);
  EXPECT_EQ(stats.sites[1].wavefronts, 6u);
  EXPECT_EQ(stats.sites[1].bank_conflict_max, 2u);
}

// Records out of thread order (thread 1 ran first) and more (site, iteration) pairs than one
// counting pass takes (2 sites x 40000 iterations): the sort must still put each iteration's two
// lanes into one request. Thread t, iteration i reads offset 8i + 4t: both lanes in one sector.
TEST(AnalyzeBlock, ManyIterationsOutOfThreadOrderStillMakeOneRequestEach) {
  std::vector<SiteInfo> sites(2);
  std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
  std::vector<AccessRecord> records;
  const std::uint32_t n = 40000;
  for (std::uint16_t t : {1, 0}) {
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint16_t site : {0, 1}) records.push_back({8 * i + 4u * t, i, 0, t, site, 0});
    }
  }
  LaunchStats stats;
  AnalyzeBlock(records, {}, sites, buffers, 2, &stats);
  for (int site = 0; site < 2; ++site) {
    EXPECT_EQ(stats.sites[site].requests, n) << site;
    EXPECT_EQ(stats.sites[site].accesses, 2u * n) << site;
    EXPECT_EQ(stats.sites[site].sectors, n) << site;  // one sector per request
    EXPECT_EQ(stats.sites[site].divergent_requests, 0u) << site;
  }
}

// WarpRequests, as the emulator feeds it: a block of 48 threads (warp 0 full, warp 1 of 16 lanes)
// whose threads each run 1500 iterations of one float load, lane t of iteration i at 128i + 4t.
// Iterations from 1024 on leave the rows for the sorted list; warp 0 is finished early, as the
// emulator does when its threads exit. By hand: warp 0 reads 128 aligned bytes per request (4
// sectors), warp 1 64 bytes (2 sectors); 16 lanes are warp 1's whole width, so nothing diverges.
TEST(WarpRequests, RowsEarlyFinishAndLongLoopsMakeTheSameRequests) {
  std::vector<SiteInfo> sites(1);
  std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
  const std::uint32_t n = 1500;
  static_assert(WarpRequests::kRowIterations < 1500);
  WarpRequests requests;
  LaunchStats stats;
  requests.Begin(48, 1);
  for (std::uint16_t t = 0; t < 48; ++t) {
    for (std::uint32_t i = 0; i < n; ++i) requests.Add(0, i, t, 128 * i + 4u * t);
    if (t == 31) requests.FinishWarp(0, sites, buffers, &stats);
  }
  requests.End(sites, buffers, &stats);
  EXPECT_EQ(stats.sites[0].requests, 2u * n);
  EXPECT_EQ(stats.sites[0].accesses, 48u * n);
  EXPECT_EQ(stats.sites[0].sectors, 4u * n + 2u * n);
  EXPECT_EQ(stats.sites[0].divergent_requests, 0u);
  EXPECT_EQ(stats.divergent_warps, 0u);
  EXPECT_EQ(stats.access_records, 48u * n);
}

// A block that failed part way (Begin again without End) must leave nothing behind: the next
// block's one request, lanes 8-31 at 4t (bytes 32-127: 3 sectors), is not merged with the failed
// block's lanes 0-6 (at 4096t: 7 more sectors).
TEST(WarpRequests, ABlockThatNeverEndedLeavesNoRows) {
  std::vector<SiteInfo> sites(1);
  std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
  WarpRequests requests;
  LaunchStats stats;
  requests.Begin(32, 1);
  for (std::uint16_t t = 0; t < 7; ++t) requests.Add(0, 0, t, 4096u * t);
  requests.Begin(32, 1);
  for (std::uint16_t t = 8; t < 32; ++t) requests.Add(0, 0, t, 4u * t);
  requests.End(sites, buffers, &stats);
  EXPECT_EQ(stats.sites[0].requests, 1u);
  EXPECT_EQ(stats.sites[0].accesses, 24u);
  EXPECT_EQ(stats.sites[0].sectors, 3u);
  EXPECT_EQ(stats.sites[0].divergent_requests, 1u);
}

// Two shapes that alternate (lane t at 4t, then at 4t + 4: 4 sectors, then 5 straddling one more)
// must each keep their own cost in the shape cache: 50 x 4 + 50 x 5 sectors over 100 requests. A
// lane missing from the mask changes the shape too: 31 lanes at 4t need 4 sectors and diverge.
TEST(WarpRequests, AlternatingShapesAndMasksEachKeepTheirCost) {
  std::vector<SiteInfo> sites(1);
  std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
  WarpRequests requests;
  LaunchStats stats;
  requests.Begin(32, 1);
  for (std::uint16_t t = 0; t < 32; ++t) {
    for (std::uint32_t i = 0; i < 100; ++i) requests.Add(0, i, t, 1024 * i + 4u * t + (i % 2) * 4);
    if (t != 5) requests.Add(0, 100, t, 4u * t);  // lane 5 sits the last one out
  }
  requests.End(sites, buffers, &stats);
  EXPECT_EQ(stats.sites[0].requests, 101u);
  EXPECT_EQ(stats.sites[0].sectors, 50u * 4 + 50u * 5 + 4);
  EXPECT_EQ(stats.sites[0].sectors_histogram[5], 50u);
  EXPECT_EQ(stats.sites[0].divergent_requests, 1u);
  EXPECT_EQ(stats.divergent_warps, 1u);
}

// A whole warp's request in rows (AddAffine, counted by shape and costed at the end) costs what
// the same lanes cost given one by one (AddWhole). By hand, 4-byte loads: two rows of 16 lanes,
// 64 bytes each, 1024 bytes apart: 2 + 2 sectors from an aligned start, 3 + 3 from 16 bytes in;
// the second row 1024 bytes below the first (from 4096): 4; two half-warp broadcasts: 2; rows of
// 8 lanes 256 bytes apart (an 8 x 8 block): 4 rows of 32 bytes, 4 sectors.
TEST(WarpRequests, ARequestInRowsCostsWhatItsLanesCostOneByOne) {
  struct Shape {
    std::uint32_t first;
    std::int32_t step, delta;
    std::uint32_t group, sectors;
  };
  for (const Shape& sh :
       {Shape{0, 4, 1024, 16, 4}, Shape{16, 4, 1024, 16, 6}, Shape{4096, 4, -1024, 16, 4},
        Shape{0, 0, 1024, 16, 2}, Shape{0, 4, 256, 8, 4}}) {
    std::vector<SiteInfo> sites(2);
    std::vector<BufferInfo> buffers = {{"a", 1 << 20, 1 << 20}};
    WarpRequests requests;
    LaunchStats stats;
    requests.Begin(32, 2);
    std::uint32_t offsets[32];
    for (std::uint32_t l = 0; l < 32; ++l)
      offsets[l] = sh.first + (l / sh.group) * static_cast<std::uint32_t>(sh.delta) +
                   (l % sh.group) * static_cast<std::uint32_t>(sh.step);
    for (int i = 0; i < 3; ++i) {
      requests.AddAffine(0, sh.first, sh.step, sh.delta, sh.group, sites, buffers, &stats);
      requests.AddWhole(1, 0, ~0u, offsets, sites, buffers, &stats);
    }
    requests.End(sites, buffers, &stats);
    EXPECT_EQ(stats.sites[0].requests, 3u) << sh.first << " " << sh.delta;
    EXPECT_EQ(stats.sites[0].sectors, 3u * sh.sectors) << sh.first << " " << sh.delta;
    EXPECT_EQ(stats.sites[1].sectors, 3u * sh.sectors) << sh.first << " " << sh.delta;
    EXPECT_EQ(stats.sites[0].lines128, stats.sites[1].lines128);
    EXPECT_EQ(stats.sites[0].cc10_transactions, stats.sites[1].cc10_transactions);
    EXPECT_EQ(stats.sites[0].cc12_bytes, stats.sites[1].cc12_bytes);
  }
}

}  // namespace
}  // namespace ws
