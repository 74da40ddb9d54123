// The direct road's host side (ws_cuda_record_format.h, "The direct road"; gpu_records.h): the
// table a kernel's next run gets from the shapes an earlier run tallied (DirectTableFor), and the
// road's counters read back into the tally's shapes (AddDirectShapes). Split from
// gpu_tally_test.cpp; the suite keeps its name (bench/gpu_batch.sh's ctest -R 'GpuTally').
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda.h"

namespace {
namespace direct {
// A global load's site, as gpu_tally_test.cpp's.
const std::uint64_t kLoad = ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
}  // namespace direct

// The direct road's counters (ws_cuda_record_format.h, "The direct road") come back as the
// tally's shapes: a load site of step 4 counted at places 0 and 128 of 256 bytes by blocks of two
// spread columns, a barrier's pass with its waits, and the load's place 128 counted by the tally
// too (a warp of another step at first, say), whose counts add up.
TEST(GpuTally, TheDirectRoadsCountersAreAddedIntoTheTalliesShapes) {
  using ws::dev::kDirectColumn, ws::dev::kDirectPlaces, ws::dev::kTallySpread;
  const std::uint64_t barrier = std::uint64_t{40} << 32 | ws::dev::kTallyBarrier;
  const std::uint32_t load_at = ws::dev::DirectSiteSlot(direct::kLoad, 0);
  const std::uint32_t barrier_at = ws::dev::DirectSiteSlot(barrier, 0);
  ASSERT_NE(load_at, barrier_at);
  std::vector<ws::dev::DirectSite> sites(ws::dev::kDirectSites);
  sites[load_at] = {direct::kLoad, 4 + 1, 0};
  sites[barrier_at] = {barrier, 64 + 1, 0};  // 64 threads a pass
  const std::size_t words = std::size_t{kTallySpread} * kDirectColumn;
  std::vector<unsigned long long> counts(words, 0), waits(words, 0), most(words, 0);
  auto at = [&](std::size_t column, std::uint32_t site, std::uint32_t place) {
    return column * kDirectColumn + std::size_t{site} * kDirectPlaces + place;
  };
  counts[at(0, load_at, 0)] = 3;
  counts[at(5, load_at, 0)] = 4;
  counts[at(5, load_at, 128)] = 6;
  counts[at(2, barrier_at, 0)] = 2;
  counts[at(3, barrier_at, 0)] = 1;
  waits[at(2, barrier_at, 0)] = 640;  // two passes' lanes' waits
  waits[at(3, barrier_at, 0)] = 320;
  most[at(2, barrier_at, 0)] = 9;
  most[at(3, barrier_at, 0)] = 11;
  // The tally's own shape of the load at place 128 (first offset 0x1080: 128 in 256 bytes).
  std::vector<ws::GpuCapture::TalliedShape> tallied(1);
  tallied[0].key = direct::kLoad;
  tallied[0].mask = ~0u;
  for (std::uint32_t l = 0; l < 32; ++l) tallied[0].offsets[l] = 0x1080 + 4 * l;
  tallied[0].count = 5;
  ws::AddDirectShapes(sites, counts, waits, most, &tallied);
  ASSERT_EQ(tallied.size(), 3u);
  EXPECT_EQ(tallied[0].count, 5u + 6u);       // place 128: the tally's and the direct road's
  EXPECT_EQ(tallied[0].offsets[0], 0x1080u);  // the tally's offsets kept
  const auto& load0 = tallied[1].key == direct::kLoad ? tallied[1] : tallied[2];
  const auto& pass = tallied[1].key == barrier ? tallied[1] : tallied[2];
  EXPECT_EQ(load0.count, 3u + 4u);  // place 0, two columns
  EXPECT_EQ(load0.offsets[0], 0u);
  EXPECT_EQ(load0.offsets[31], 31u * 4u);
  EXPECT_EQ(load0.hash, ws::dev::AffineShapeHash(0, 4, direct::kLoad, 32));
  EXPECT_EQ(pass.key, barrier);
  EXPECT_EQ(pass.count, 3u);
  EXPECT_EQ(pass.lines, 64u);
  EXPECT_EQ(pass.offsets[31], 0u);
  EXPECT_EQ(pass.wait_sum, 960u);
  EXPECT_EQ(pass.wait_max, 11u);
  // An entry with no step word is left out, and so are arrays too short.
  sites[load_at].step1 = 0;
  std::vector<ws::GpuCapture::TalliedShape> none;
  ws::AddDirectShapes(sites, counts, waits, most, &none);
  EXPECT_EQ(none.size(), 1u);  // the barrier alone
  counts.pop_back();
  none.clear();
  ws::AddDirectShapes(sites, counts, waits, most, &none);
  EXPECT_TRUE(none.empty());
}

// The direct road's table for a kernel's next run (DirectTableFor) from the shapes a run tallied:
// per site key the step most of its whole warps' affine requests made, a barrier's count of
// threads, and none of what the road cannot count (a partial warp's, a warp meeting's, an
// asynchronous copy's write, lanes not affine, a step of ~0u). Every site its own entry.
TEST(GpuTally, TheDirectTableHoldsEachSitesMostCountedStep) {
  auto shape = [](std::uint64_t key, std::uint32_t first, std::uint32_t step, std::uint64_t count) {
    ws::GpuCapture::TalliedShape t;
    t.key = key;
    t.mask = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = first + l * step;
    t.count = count;
    return t;
  };
  const std::uint64_t barrier = std::uint64_t{40} << 32 | ws::dev::kTallyBarrier;
  const std::uint64_t padded = direct::kLoad + (std::uint64_t{1} << 40);  // another site
  std::vector<ws::GpuCapture::TalliedShape> tallied = {
      shape(direct::kLoad, 0, 4, 10), shape(direct::kLoad, 128, 4, 10),  // step 4: 20 requests
      shape(direct::kLoad, 0, 8, 15),                                    // step 8: 15
      shape(padded, 0, 132, 7),                                          // a padded tile's column
  };
  ws::GpuCapture::TalliedShape pass;
  pass.key = barrier;
  pass.mask = ~0u;
  pass.lines = 1024;  // threads that passed
  pass.count = 32;
  tallied.push_back(pass);
  // Left out: a partial warp, a meeting, a copy's write, lanes not affine, a step of ~0u.
  ws::GpuCapture::TalliedShape partial = shape(direct::kLoad + (std::uint64_t{2} << 40), 0, 4, 99);
  partial.mask = 0xffffu;
  ws::GpuCapture::TalliedShape meeting =
      shape(std::uint64_t{41} << 32 | ws::dev::kTallyWarpOp, 0, 0, 99);
  ws::GpuCapture::TalliedShape copy = shape(direct::kLoad + (std::uint64_t{3} << 40), 0, 4, 99);
  copy.lines = 2;
  ws::GpuCapture::TalliedShape scattered =
      shape(direct::kLoad + (std::uint64_t{4} << 40), 0, 4, 99);
  scattered.offsets[7] = 1000;
  ws::GpuCapture::TalliedShape down = shape(direct::kLoad + (std::uint64_t{5} << 40), 64, ~0u, 99);
  tallied.insert(tallied.end(), {partial, meeting, copy, scattered, down});
  const ws::DirectTable table = ws::DirectTableFor(tallied);
  ASSERT_EQ(table.sites.size(), ws::dev::kDirectSites);
  auto entry = [&](std::uint64_t key) {
    return table.sites[ws::dev::DirectSiteSlot(key, table.seed)];
  };
  EXPECT_EQ(entry(direct::kLoad).key, direct::kLoad);
  EXPECT_EQ(entry(direct::kLoad).step1, 4u + 1u);  // 20 requests of step 4 against 15 of step 8
  EXPECT_EQ(entry(padded).key, padded);
  EXPECT_EQ(entry(padded).step1, 132u + 1u);
  EXPECT_EQ(entry(barrier).key, barrier);
  EXPECT_EQ(entry(barrier).step1, 1024u + 1u);
  std::size_t held = 0;
  for (const ws::dev::DirectSite& e : table.sites) held += e.key != 0 ? 1 : 0;
  EXPECT_EQ(held, 3u);  // the three sites and nothing left out above
  EXPECT_TRUE(ws::DirectTableFor({partial, meeting, copy, scattered, down}).sites.empty());
}

// Past kDirectTableSites sites the most counted are kept, each in its own entry.
TEST(GpuTally, TheDirectTableKeepsTheMostCountedSitesApart) {
  std::vector<ws::GpuCapture::TalliedShape> tallied;
  for (std::uint64_t i = 0; i < 40; ++i) {
    ws::GpuCapture::TalliedShape t;
    t.key = direct::kLoad + (i << 40);
    t.mask = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = 4 * l;
    t.count = 100 + i;  // site 39 the most counted
    tallied.push_back(t);
  }
  const ws::DirectTable table = ws::DirectTableFor(tallied);
  ASSERT_EQ(table.sites.size(), ws::dev::kDirectSites);
  std::set<std::uint64_t> held;
  for (const ws::dev::DirectSite& e : table.sites) {
    if (e.key != 0) held.insert(e.key);
  }
  ASSERT_FALSE(held.empty());
  EXPECT_LE(held.size(), ws::kDirectTableSites);
  // The kept are the most counted: sites 39, 38, ... down to 40 less their number.
  for (std::uint64_t i = 40 - held.size(); i < 40; ++i)
    EXPECT_EQ(held.count(direct::kLoad + (i << 40)), 1u) << i;
  for (const ws::dev::DirectSite& e : table.sites) {
    if (e.key != 0) {
      EXPECT_EQ(&table.sites[ws::dev::DirectSiteSlot(e.key, table.seed)], &e);
    }
  }
}

// Sites of one array differ only in their key's high word (their lines), barriers only in their
// places: the seed must part them too (a review found a seed mixed into the low word alone left
// such pairs in one entry under every seed, and the table then lost every site after them).
TEST(GpuTally, TheDirectTablePartsSitesThatDifferOnlyInTheirLines) {
  std::vector<ws::GpuCapture::TalliedShape> tallied;
  for (std::uint32_t line = 10; line < 22; ++line) {  // 12 sites: loads of one array
    ws::GpuCapture::TalliedShape t;
    t.key = ws::MakeSiteKey(line, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
    t.mask = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = 4 * l;
    t.count = 1000 + line;
    tallied.push_back(t);
  }
  for (std::uint64_t place = 40; place < 44; ++place) {  // 4 barriers of one kernel
    ws::GpuCapture::TalliedShape t;
    t.key = place << 32 | ws::dev::kTallyBarrier;
    t.mask = ~0u;
    t.lines = 256;
    t.count = 500 + place;
    tallied.push_back(t);
  }
  const ws::DirectTable table = ws::DirectTableFor(tallied);
  ASSERT_EQ(table.sites.size(), ws::dev::kDirectSites);
  std::size_t held = 0;
  for (const ws::dev::DirectSite& e : table.sites) held += e.key != 0 ? 1 : 0;
  EXPECT_EQ(held, 16u);  // all 16 (kDirectTableSites), each in its own entry
  for (const ws::GpuCapture::TalliedShape& t : tallied) {
    EXPECT_EQ(table.sites[ws::dev::DirectSiteSlot(t.key, table.seed)].key, t.key);
  }
}

// A request downwards (a negative step, the reverse lesson's) comes back with offsets that do not
// wrap past 0, at the place the device counted it.
TEST(GpuTally, TheDirectRoadsDownwardShapesDoNotWrap) {
  using ws::dev::kDirectColumn, ws::dev::kDirectPlaces, ws::dev::kTallySpread;
  const std::uint32_t step = static_cast<std::uint32_t>(-4);
  const std::uint32_t at = ws::dev::DirectSiteSlot(direct::kLoad, 0);
  std::vector<ws::dev::DirectSite> sites(ws::dev::kDirectSites);
  sites[at] = {direct::kLoad, step + 1, 0};
  const std::size_t words = std::size_t{kTallySpread} * kDirectColumn;
  std::vector<unsigned long long> counts(words, 0), none;
  counts[std::size_t{at} * kDirectPlaces + 60] = 2;  // column 0, place 60
  std::vector<ws::GpuCapture::TalliedShape> tallied;
  ws::AddDirectShapes(sites, counts, none, none, &tallied);
  ASSERT_EQ(tallied.size(), 1u);
  EXPECT_EQ(tallied[0].count, 2u);
  EXPECT_EQ(tallied[0].offsets[0] % 256u, 60u);  // its place kept
  // Lane 31 is 124 bytes below lane 0: lane 0 raised to 60 + 256 = 316, lane 31 at 192.
  EXPECT_EQ(tallied[0].offsets[0], 316u);
  EXPECT_EQ(tallied[0].offsets[31], 316u - 124u);
  for (std::uint32_t l = 1; l < 32; ++l)
    EXPECT_EQ(tallied[0].offsets[l - 1] - 4u, tallied[0].offsets[l]);
}

}  // namespace
