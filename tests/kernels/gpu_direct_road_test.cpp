// The direct road's host side (ws_cuda_record_format.h, "The direct road"; gpu_records.h): the
// table a kernel's next run gets from the shapes an earlier run tallied (DirectTableFor), and the
// road's counters read back into the tally's shapes (AddDirectShapes). Split from
// gpu_tally_test.cpp; the suite keeps its name (bench/gpu_batch.sh's ctest -R 'GpuTally').
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "warpscope/kernels/catalog.h"
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
  const std::uint32_t load_at = ws::dev::DirectSiteSlot(direct::kLoad);
  const std::uint32_t barrier_at = ws::dev::DirectSiteSlot(barrier);
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
  auto entry = [&](std::uint64_t key) { return table.sites[ws::dev::DirectSiteSlot(key)]; };
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

// The direct road's entries (DirectSiteSlot) come from a key's line and low 16 bits alone, which
// a kernel's compiled code fixes: neither its array nor its file's tag moves them. Sites of one
// kind one line apart take consecutive entries, and 32 lines apart 11 more.
TEST(GpuTally, ADirectEntryIsTheSitesLineAndKind) {
  using ws::dev::DirectSiteSlot;
  const std::uint64_t at10 = ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
  const std::uint32_t s = DirectSiteSlot(at10);
  EXPECT_EQ(DirectSiteSlot(ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 7)), s);  // array
  EXPECT_EQ(DirectSiteSlot(
                ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, ws::kKeyLoad, 4, 0)),
            s);  // another file
  EXPECT_EQ(DirectSiteSlot(ws::MakeSiteKey(11, ws::kKeyGlobal, ws::kKeyLoad, 4, 0)), (s + 1) % 32);
  EXPECT_EQ(DirectSiteSlot(ws::MakeSiteKey(42, ws::kKeyGlobal, ws::kKeyLoad, 4, 0)),
            (s + 32 + 11) % 32);
  EXPECT_NE(DirectSiteSlot(ws::MakeSiteKey(10, ws::kKeyShared, ws::kKeyStore, 4, 0)), s);
}

// The direct road's table for a kernel's next run (DirectTableFor) from the shapes a run tallied:
// each site at its entry, the more counted of two that share one kept. 40 load sites of one kind
// on lines 10..49, counted 100 + their line: lines 10..31 take 22 entries in a row; line L of
// 32..49 takes line L - 21's entry (32 + 11 more: L + 11 = L - 21 modulo 32) and, counted more,
// keeps it. So 22 entries are held: lines 10, 29, 30, 31 and 32..49; lines 11..28 are left out.
TEST(GpuTally, TheDirectTableKeepsTheMoreCountedOfSitesThatShareAnEntry) {
  std::vector<ws::GpuCapture::TalliedShape> tallied;
  for (std::uint32_t line = 10; line < 50; ++line) {
    ws::GpuCapture::TalliedShape t;
    t.key = ws::MakeSiteKey(line, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
    t.mask = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = 4 * l;
    t.count = 100 + line;
    tallied.push_back(t);
  }
  const ws::DirectTable table = ws::DirectTableFor(tallied);
  ASSERT_EQ(table.sites.size(), ws::dev::kDirectSites);
  std::set<std::uint32_t> held;
  for (const ws::dev::DirectSite& e : table.sites) {
    if (e.key == 0) continue;
    held.insert(ws::KeyLine(e.key));
    EXPECT_EQ(&table.sites[ws::dev::DirectSiteSlot(e.key)], &e);
    EXPECT_EQ(e.step1, 4u + 1u);
  }
  std::set<std::uint32_t> expected = {10, 29, 30, 31};
  for (std::uint32_t line = 32; line < 50; ++line) expected.insert(line);
  EXPECT_EQ(held, expected);
}

// Sites of one array on 12 lines in a row and 4 barriers of one kernel: every one its own entry.
TEST(GpuTally, TheDirectTableHoldsAKernelsSitesOnLinesInARow) {
  std::vector<ws::GpuCapture::TalliedShape> tallied;
  for (std::uint32_t line = 10; line < 22; ++line) {  // 12 sites: loads of one array
    ws::GpuCapture::TalliedShape t;
    t.key = ws::MakeSiteKey(line, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
    t.mask = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = 4 * l;
    t.count = 1000 + line;
    tallied.push_back(t);
  }
  for (std::uint64_t place = 2; place < 6; ++place) {  // 4 barriers of one kernel, above them
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
  EXPECT_EQ(held, 16u);
  for (const ws::GpuCapture::TalliedShape& t : tallied) {
    EXPECT_EQ(table.sites[ws::dev::DirectSiteSlot(t.key)].key, t.key);
  }
}

// A request downwards (a negative step, the reverse lesson's) comes back with offsets that do not
// wrap past 0, at the place the device counted it.
TEST(GpuTally, TheDirectRoadsDownwardShapesDoNotWrap) {
  using ws::dev::kDirectColumn, ws::dev::kDirectPlaces, ws::dev::kTallySpread;
  const std::uint32_t step = static_cast<std::uint32_t>(-4);
  const std::uint32_t at = ws::dev::DirectSiteSlot(direct::kLoad);
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

// No two sites of a lesson's kernel share a direct entry (DirectSiteSlot), so that the lean unit's
// every whole-warp affine request and barrier pass can take the road, but sites that cannot be
// parted: one line, space, operation and size, two arrays (`a[i] + b[i]`), of which the more
// counted takes the entry. The sites are the emulator's (the same lines and kinds as the GPU's: a
// key's file tag and array, which differ there, do not move an entry), each variant run at its
// defaults (small where the emulator's work is large) and at each parameter's smallest value, its
// largest up to 64 and each of its named choices, so that every kernel a variant can launch is met.
TEST(GpuTally, NoLessonKernelsSitesShareADirectEntry) {
  int runs = 0, unparted = 0;
  std::set<std::string> seen;
  for (const ws::LessonInfo& lesson : ws::Lessons()) {
    if (!lesson.runs_kernel() || lesson.needs_gpu()) continue;
    for (const ws::VariantSpec& v : lesson.variants) {
      if (!v.gpu_refusal.empty()) continue;
      ws::Params base = lesson.DefaultParams();
      if (lesson.emulator_cost != nullptr && lesson.emulator_cost(base) > 1e6) {
        for (const ws::ParamSpec& spec : lesson.params) base[spec.name] = spec.min;
      }
      std::vector<ws::Params> sets = {base};
      for (const ws::ParamSpec& spec : lesson.params) {
        std::vector<long long> values = {spec.min};
        if (spec.max <= 64) values.push_back(spec.max);
        for (std::size_t c = 0; c < spec.choices.size(); ++c)
          values.push_back(static_cast<long long>(c));
        for (long long value : values) {
          ws::Params p = base;
          p[spec.name] = value;
          sets.push_back(p);
        }
      }
      int ran = 0;
      for (const ws::Params& p : sets) {
        auto r = ws::RunLesson(lesson.id, v.name, p, "emu", ws::RunOptions{});
        if (!r.ok()) continue;  // a value the lesson refuses with another (its rule named there)
        ++ran;
        for (const ws::LaunchTrace& t : r->launches) {
          if (!seen.insert(t.kernel).second) continue;
          // Each entry's (line, low 16 bits): the part of a key that names it.
          std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> held;
          auto place = [&](std::uint64_t key, const std::string& what) {
            const std::pair<std::uint32_t, std::uint32_t> part = {
                ws::KeyLine(key), static_cast<std::uint32_t>(key) & 0xffffu};
            const auto [it, fresh] = held.emplace(ws::dev::DirectSiteSlot(key), part);
            if (fresh) return;
            if (it->second == part) {
              ++unparted;  // the same line and kind, another array
              return;
            }
            ADD_FAILURE() << lesson.id << "/" << v.name << " " << t.kernel << ": " << what
                          << " at line " << part.first << " shares entry " << it->first
                          << " with line " << it->second.first;
          };
          for (const ws::SiteInfo& site : t.sites) {
            if (site.space == ws::MemorySpace::kLocal) continue;  // no lesson has one
            std::uint64_t key =
                ws::MakeSiteKey(site.line, static_cast<std::uint32_t>(site.space),
                                static_cast<std::uint32_t>(site.op), site.size, site.buffer);
            if (site.async_copy) key |= ws::kKeyAsyncCopy;
            place(key, "a site");
          }
          for (const ws::BarrierSite& b : t.barrier_sites) {
            place(std::uint64_t{b.line} << 32 | ws::dev::kTallyBarrier | b.tile / 32, "a barrier");
          }
        }
      }
      runs += ran;
      EXPECT_GT(ran, 0) << lesson.id << "/" << v.name << ": no run of the variant's was taken";
    }
  }
  EXPECT_GT(runs, 100);
  EXPECT_GT(seen.size(), 55u);  // 62 kernels on this tree
  // Counted on this tree: two arrays read on one line in the naive matmul (A and B), the tiled
  // one's three kernels (As and Bs, at tiles 8, 16 and 32), the chunked and interleaved vector
  // adds (a and b) and the histogram without atomics.
  EXPECT_EQ(unparted, 7);
}

}  // namespace
