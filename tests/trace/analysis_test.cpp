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

}  // namespace
}  // namespace ws
