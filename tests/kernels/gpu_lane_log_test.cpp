// The lane log (ws_cuda_lane_log.h) turned into warps' events on the host (LaneLogToCapture): lane
// records written by hand as each lane writes them, against the events worked out by hand that
// the event roads would have written for the same run.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda.h"

namespace lane_log_test {

const std::uint64_t kLoad = ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
const std::uint64_t kStore = ws::MakeSiteKey(11, ws::kKeyGlobal, ws::kKeyStore, 4, 1);
const std::uint64_t kOther = ws::MakeSiteKey(11, ws::kKeyGlobal, ws::kKeyStore, 4, 2);
constexpr std::uint32_t kPlace = 0x00120034;  // a barrier's or a meeting's place

using Record = std::array<std::uint32_t, 5>;  // the 4 words, then the time slot
// What an access's own row leaves in its time slot: the device writes none there (the slots are
// not cleared), so the host must not read it.
constexpr std::uint32_t kNoTime = 0xdeadbeefu;

// One launch's log: records appended lane by lane, laid out as the device lays them.
struct Log {
  std::uint32_t threads_per_block, warps, rows;
  std::vector<std::vector<Record>> lanes;  // [warp * 32 + lane]
  // Each warp's warp rows (a whole warp's access or meeting): the head, then the 32 lanes' word 2.
  std::vector<std::vector<std::array<std::uint32_t, 36>>> warp_rows;
  // Each warp's start (RecorderState::lane_starts) and the pass's time: by default every warp
  // starts at 1,000 ns and the pass ends at 2,000, the span its accesses' times are placed in.
  std::vector<std::uint32_t> starts;
  std::uint64_t pass_ns = 1000;
  Log(std::uint32_t tpb, std::uint32_t blocks, std::uint32_t row_count)
      : threads_per_block(tpb),
        warps(blocks * ((tpb + 31) / 32)),
        rows(row_count),
        lanes(warps * 32),
        warp_rows(warps),
        starts(warps, 1000) {}
  // The lanes of `mask` access `key`; `running`: every lane that ran the instruction (the mask
  // itself where 0). As the device writes it (ws_cuda_lane_log.h's LaneRow): where every lane
  // ran, lane 0's key is a warp row's head (its time 0) and the lanes with that key leave their
  // rows as cleared and write their word 2 in the warp row; the others (a later call with lane 0
  // not in `mask`) rows of their own with kLaneWarpRow in word 0. No time is written.
  void Access(std::uint32_t warp, std::uint32_t mask, std::uint64_t key,
              std::uint32_t (*offset)(std::uint32_t), std::uint32_t running = 0) {
    const std::uint32_t lanes_running = running != 0 ? running : mask;
    const std::uint32_t word0 = static_cast<std::uint32_t>(key),
                        word1 = static_cast<std::uint32_t>(key >> 32);
    if (lanes_running == ~0u && (mask & 1u) != 0) {
      WarpRow(warp, mask, word0, word1, 0, [&](std::uint32_t l) { return offset(l); });
      return;
    }
    const std::uint32_t flag = lanes_running == ~0u ? ws::dev::kLaneWarpRow : 0u;
    for (std::uint32_t l = 0; l < 32; ++l)
      if (mask >> l & 1u)
        lanes[warp * 32 + l].push_back({word0 | flag, word1, offset(l), lanes_running, kNoTime});
  }
  // A warp row with its head's words 0, 1 and time: the lanes of `mask` leave a cleared row.
  template <typename Word2>
  void WarpRow(std::uint32_t warp, std::uint32_t mask, std::uint32_t word0, std::uint32_t word1,
               std::uint32_t time, Word2 word2) {
    std::array<std::uint32_t, 36> row{word0, word1, time, ~0u};
    for (std::uint32_t l = 0; l < 32; ++l)
      if (mask >> l & 1u) {
        row[4 + l] = word2(l);
        lanes[warp * 32 + l].push_back({0, 0, 0, 0, 0});
      }
    warp_rows[warp].push_back(row);
  }
  // The records as the device lays them (`what` 4: the 4 words a slot, else the time), in a log
  // cleared before the pass.
  std::vector<std::uint32_t> Laid(int what) const {
    const std::uint32_t per = what == 4 ? 4 : 1;
    std::vector<std::uint32_t> v(std::size_t{warps} * rows * 32 * per);
    for (std::uint32_t w = 0; w < warps; ++w)
      for (std::uint32_t l = 0; l < 32; ++l) {
        const auto& col = lanes[w * 32 + l];
        for (std::uint32_t k = 0; k < col.size(); ++k) {
          const std::size_t slot = (std::size_t{w} * rows + k) * 32 + l;
          for (std::uint32_t i = 0; i < per; ++i) v[slot * per + i] = col[k][what == 4 ? i : 4];
        }
      }
    return v;
  }
  // The warp rows as the device lays them: `heads` 4 words a row, else the lanes' words 2.
  std::vector<std::uint32_t> LaidWarpRows(bool heads) const {
    const std::uint32_t per = heads ? 4 : 32;
    std::vector<std::uint32_t> v(std::size_t{warps} * rows * per);
    for (std::uint32_t w = 0; w < warps; ++w)
      for (std::uint32_t k = 0; k < warp_rows[w].size(); ++k)
        for (std::uint32_t i = 0; i < per; ++i)
          v[(std::size_t{w} * rows + k) * per + i] = warp_rows[w][k][heads ? i : 4 + i];
    return v;
  }
  // Its rows with the warp rows unpacked, its times and each thread's count, as the backend reads
  // them back; an error where they differ from what the device would give.
  std::string Read(std::vector<std::uint32_t>* words, std::vector<std::uint32_t>* times,
                   std::vector<std::uint32_t>* counts) const {
    *words = Laid(4);
    *times = Laid(1);
    const std::string unpacked = ws::LaneLogUnpackWarpRows(
        words, times, LaidWarpRows(true), LaidWarpRows(false), rows, threads_per_block, warps);
    if (!unpacked.empty()) return unpacked;
    counts->clear();
    const std::uint32_t wpb = (threads_per_block + 31) / 32;
    for (std::uint32_t t = 0; t < warps / wpb * threads_per_block; ++t) {
      const std::uint32_t w = t / threads_per_block * wpb + t % threads_per_block / 32;
      counts->push_back(static_cast<std::uint32_t>(lanes[w * 32 + t % 32].size()));
    }
    // The backend finds each column's end in the cleared log, its warp rows in
    // (LaneLogCounts): it must be the rows each lane was given here.
    if (ws::LaneLogCounts(*words, rows, threads_per_block, warps) != *counts)
      return "LaneLogCounts differs from the rows each lane wrote";
    return {};
  }
  std::string To(ws::GpuCapture* c) const {
    std::vector<std::uint32_t> words, times, counts;
    if (std::string e = Read(&words, &times, &counts); !e.empty()) return e;
    return ws::LaneLogToCapture(words, times, rows, counts, threads_per_block, warps, starts,
                                pass_ns, c);
  }
  // A loop's pattern as the lane unit writes it before the loop (ws_cuda_lane_log.h,
  // LanePatternHead): each lane of `mask` a head row (`trips` its passes, ~0u where the lanes
  // counted different ones), then a row for each site: its key, its offset in the first pass and
  // what a pass adds to it (`first`, `step`). Rows of the lanes' own (never warp rows).
  struct PatternSite {
    std::uint64_t key;
    std::uint32_t (*first)(std::uint32_t);
    std::uint32_t step;
  };
  void Pattern(std::uint32_t warp, std::uint32_t mask, std::uint32_t trips,
               const std::vector<PatternSite>& sites) {
    for (std::uint32_t l = 0; l < 32; ++l) {
      if ((mask >> l & 1u) == 0) continue;
      auto& col = lanes[warp * 32 + l];
      col.push_back(
          {ws::dev::kLanePattern, trips, static_cast<std::uint32_t>(sites.size()), mask, kNoTime});
      for (const PatternSite& s : sites)
        col.push_back({static_cast<std::uint32_t>(s.key) | ws::dev::kLanePattern,
                       static_cast<std::uint32_t>(s.key >> 32), s.first(l), s.step, kNoTime});
    }
  }
  // Read back, its patterns checked (LaneLogPatterns), then joined (LaneLogToCapture makes
  // them); `expanded` the rows the patterns make, `uneven` as the check said.
  std::string ToExpanded(ws::GpuCapture* c, std::uint64_t max_rows = 1u << 16,
                         bool* uneven = nullptr, std::uint64_t* expanded = nullptr) const {
    std::vector<std::uint32_t> words, times, counts;
    if (std::string e = Read(&words, &times, &counts); !e.empty()) return e;
    bool flag = false;
    if (std::string e = ws::LaneLogPatterns(words, times, rows, counts, threads_per_block, warps,
                                            max_rows, &flag, expanded);
        !e.empty()) {
      if (uneven != nullptr) *uneven = flag;
      return e;
    }
    if (uneven != nullptr) *uneven = flag;
    return ws::LaneLogToCapture(words, times, rows, counts, threads_per_block, warps, starts,
                                pass_ns, c);
  }
  std::string Unnamed(const std::map<std::uint16_t, std::string>& files) const {
    std::vector<std::uint32_t> words, times, counts;
    if (std::string e = Read(&words, &times, &counts); !e.empty()) return e;
    return ws::LaneLogUnnamedFile(words, rows, counts, threads_per_block, warps, files);
  }
};

std::vector<std::uint32_t> Offsets(std::uint32_t mask, std::uint32_t (*offset)(std::uint32_t)) {
  std::vector<std::uint32_t> v;
  for (std::uint32_t l = 0; l < 32; ++l)
    if (mask >> l & 1u) v.push_back(offset(l));
  return v;
}

std::vector<std::uint32_t> WarpWords(const ws::GpuCapture& c, std::size_t w) {
  return {c.words.begin() + static_cast<std::ptrdiff_t>(c.warp_base[w]),
          c.words.begin() + static_cast<std::ptrdiff_t>(c.warp_base[w] + c.warp_used[w])};
}

std::uint32_t Floats(std::uint32_t l) {
  return 4 * l;
}
std::uint32_t Eight(std::uint32_t) {
  return 8;
}
std::uint32_t Scattered(std::uint32_t l) {
  return l * l * 4;
}

TEST(LaneLog, AWholeWarpsAccessIsOneRequestAndTwoKeysAreTwo) {
  Log log(32, 1, 8);
  log.Access(0, ~0u, kLoad, Floats);
  // Lanes 0-15 store to buffer 1, lanes 16-31 to buffer 2 (one instruction, two site keys): the
  // event roads' __match_any_sync on the key makes two requests, lowest lanes first.
  log.Access(0, 0x0000ffffu, kStore, Floats, ~0u);
  // Lanes 16-31's key is not lane 0's: rows of their own (word 3 ~0u), and their next cleared
  // rows are the warp's third warp row, not its second.
  log.Access(0, 0xffff0000u, kOther, Eight, ~0u);
  log.Access(0, ~0u, kLoad, Eight);
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  // Three instructions between the warp's start (1,000) and the pass's end (2,000): 1,250, 1,500
  // (both of the store's requests) and 1,750.
  std::vector<std::uint32_t> want;
  ws::EncodeWarpEvent(kLoad, ~0u, 1250, Offsets(~0u, Floats), &want);  // affine: 6 words
  ws::EncodeWarpEvent(kStore, 0x0000ffffu, 1500, Offsets(0xffffu, Floats), &want);
  ws::EncodeWarpEvent(kOther, 0xffff0000u, 1500, Offsets(0xffff0000u, Eight), &want);
  ws::EncodeWarpEvent(kLoad, ~0u, 1750, Offsets(~0u, Eight), &want);
  EXPECT_EQ(WarpWords(c, 0), want);
  EXPECT_EQ(want.size(), 24u);             // four affine events of 6 words
  EXPECT_EQ(log.warp_rows[0].size(), 3u);  // lanes 16-31 wrote rows of their own once
}

TEST(LaneLog, ADivergentLoopsLanesRejoinForTheAccessAfterIt) {
  // Lanes 0-7 go round a loop three times, the others once; then every lane reads. The loop's
  // requests: all 32 lanes, then lanes 0-7 twice; the read after it: all 32 (4 events).
  Log log(32, 1, 8);
  log.Access(0, ~0u, kLoad, Scattered);
  log.Access(0, 0xffu, kLoad, Scattered);
  log.Access(0, 0xffu, kLoad, Scattered);
  log.Access(0, ~0u, kStore, Floats);
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  std::vector<std::uint32_t> want;  // four between 1,000 and 2,000: 200 ns apart
  ws::EncodeWarpEvent(kLoad, ~0u, 1200, Offsets(~0u, Scattered), &want);  // general: 36 words
  ws::EncodeWarpEvent(kLoad, 0xffu, 1400, Offsets(0xffu, Scattered), &want);
  ws::EncodeWarpEvent(kLoad, 0xffu, 1600, Offsets(0xffu, Scattered), &want);
  ws::EncodeWarpEvent(kStore, ~0u, 1800, Offsets(~0u, Floats), &want);
  EXPECT_EQ(WarpWords(c, 0), want);
  EXPECT_EQ(want.size(), 36u + 12 + 12 + 6);
}

TEST(LaneLog, LanesThatRanApartGoAccessesFirstThenTimedEarliestFirst) {
  // An if/else of accesses (no times): the if's lanes (0-15) first, then the else's, then
  // together.
  Log log(32, 1, 8);
  log.Access(0, 0xffff0000u, kStore, Floats);
  log.Access(0, 0xffffu, kLoad, Floats);
  log.Access(0, ~0u, kLoad, Eight);
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  std::vector<std::uint32_t> want;
  ws::EncodeWarpEvent(kLoad, 0xffffu, 1250, Offsets(0xffffu, Floats), &want);
  ws::EncodeWarpEvent(kStore, 0xffff0000u, 1500, Offsets(0xffff0000u, Floats), &want);
  ws::EncodeWarpEvent(kLoad, ~0u, 1750, Offsets(~0u, Eight), &want);
  EXPECT_EQ(WarpWords(c, 0), want);
  // An if/else of meetings (timed): the else's lanes (16-31) met first, at 1,100, the if's at
  // 1,300; then a load together, between 1,300 and the pass's end (2,000): at 1,650.
  Log met(32, 1, 8);
  for (std::uint32_t l = 0; l < 32; ++l) {
    const std::uint32_t group = l < 16 ? 0xffffu : 0xffff0000u;
    met.lanes[l].push_back({ws::dev::kEventWarpOp | 2u, kPlace, l, group, l < 16 ? 1300u : 1100u});
  }
  met.Access(0, ~0u, kLoad, Eight);
  ASSERT_EQ(met.To(&c), "");
  std::uint8_t source[32];
  for (std::uint32_t l = 0; l < 32; ++l) source[l] = static_cast<std::uint8_t>(l);
  want.clear();
  ws::EncodeWarpOpEvent(2, kPlace, 0xffff0000u, 1100, source, &want);
  ws::EncodeWarpOpEvent(2, kPlace, 0xffffu, 1300, source, &want);
  ws::EncodeWarpEvent(kLoad, ~0u, 1650, Offsets(~0u, Eight), &want);
  EXPECT_EQ(WarpWords(c, 0), want);
  // Lanes 0-15 met at 1,300; lanes 16-31 stored, then met at 1,100. The store (no time) goes
  // first, so that the meetings stay in their times' order: the store placed between the start
  // (1,000) and the meeting after it (1,100), at 1,050.
  Log apart(32, 1, 8);
  for (std::uint32_t l = 0; l < 16; ++l)
    apart.lanes[l].push_back({ws::dev::kEventWarpOp | 2u, kPlace, l, 0xffffu, 1300});
  apart.Access(0, 0xffff0000u, kStore, Floats);
  for (std::uint32_t l = 16; l < 32; ++l)
    apart.lanes[l].push_back({ws::dev::kEventWarpOp | 2u, kPlace, l, 0xffff0000u, 1100});
  ASSERT_EQ(apart.To(&c), "");
  want.clear();
  ws::EncodeWarpEvent(kStore, 0xffff0000u, 1050, Offsets(0xffff0000u, Floats), &want);
  ws::EncodeWarpOpEvent(2, kPlace, 0xffff0000u, 1100, source, &want);
  ws::EncodeWarpOpEvent(2, kPlace, 0xffffu, 1300, source, &want);
  EXPECT_EQ(WarpWords(c, 0), want);
}

TEST(LaneLog, ABarrierIsTwoRowsAndAMeetingKeepsEachLanesSource) {
  // A block of 40 threads: warp 1 has lanes 0-7. Warp 0: a shuffle down by 1 (lane l read l + 1,
  // lane 31 its own), then the barrier; warp 1: the barrier only, arriving later.
  Log log(40, 1, 8);
  log.WarpRow(0, ~0u, ws::dev::kEventWarpOp | 2u, kPlace, 50,
              [](std::uint32_t l) { return l < 31 ? l + 1 : l; });  // a warp row
  const std::uint32_t word0 = ws::dev::kEventBarrier | 40u << 16;   // 40 threads passed
  for (std::uint32_t l = 0; l < 40; ++l) {
    const std::uint32_t w = l / 32, mask = w == 0 ? ~0u : 0xffu;
    // Warp 0's arrival's low word has kEventBarrier's bit: a barrier's second row is not read
    // as a barrier's first, whatever its word 0.
    const std::uint64_t arrival = w == 0 ? 0x100000164ull : 0x1000000c8ull;
    auto& col = log.lanes[w * 32 + l % 32];
    col.push_back({word0, kPlace + 1, 0x1f4, mask, 0});
    col.push_back({static_cast<std::uint32_t>(arrival), static_cast<std::uint32_t>(arrival >> 32),
                   900, 0x80000000u | 7u, 0});
  }
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  std::uint8_t source[32];
  for (std::uint32_t l = 0; l < 32; ++l) source[l] = static_cast<std::uint8_t>(l < 31 ? l + 1 : l);
  std::vector<std::uint32_t> want0, want1;
  ws::EncodeWarpOpEvent(2, kPlace, ~0u, 50, source, &want0);
  ws::EncodeBarrierEvent(kPlace + 1, ~0u, 0x100000164ull, 0x1f4, 7, 900, &want0, 40);
  ws::EncodeBarrierEvent(kPlace + 1, 0xffu, 0x1000000c8ull, 0x1f4, 7, 900, &want1, 40);
  EXPECT_EQ(WarpWords(c, 0), want0);
  EXPECT_EQ(WarpWords(c, 1), want1);
}

TEST(LaneLog, EveryRecordMustNameAFileItsKernelNoted) {
  // A kernel notes its own file alone (LaneEntry): a warp row's meeting at kPlace (file tag 0x12),
  // a barrier at kPlace + 1 (the same tag) in both warps, whose second rows' word 1 is the
  // arrival's high word, 1 here: tag 0, which must not be read as a place.
  Log log(40, 1, 8);
  log.WarpRow(0, ~0u, ws::dev::kEventWarpOp | 2u, kPlace, 50, [](std::uint32_t l) { return l; });
  for (std::uint32_t l = 0; l < 40; ++l) {
    auto& col = log.lanes[l / 32 * 32 + l % 32];
    col.push_back({ws::dev::kEventBarrier | 40u << 16, kPlace + 1, 0x1f4, l < 32 ? ~0u : 0xffu, 0});
    col.push_back({0x164, 1, 900, 0x80000000u | 7u, 0});
  }
  EXPECT_EQ(log.Unnamed({{0x12, "k.cu"}}), "");
  // Then warp 1's 8 lanes load at place 10: file tag 0, at their third row (rows 0 and 1 the
  // barrier's), which no kernel noted.
  log.Access(1, 0xffu, kLoad, Floats);
  EXPECT_EQ(log.Unnamed({{0x12, "k.cu"}}),
            "warp 1 lane 0 row 2 names file tag 0, which its kernel did not note");
  EXPECT_EQ(log.Unnamed({{0x12, "k.cu"}, {0, "helpers.cuh"}}), "");
}

TEST(LaneLog, AWarpRowAfterABarrierIsEachLanesNextRecord) {
  // A whole warp's store (a warp row), a barrier whose arrival's low word (0x300, 768) has
  // kEventBarrier's bit, then a whole warp's load (a warp row: the lanes' fourth rows left
  // cleared): the third row is the barrier's second. The warp starts at 100 and the pass ends at
  // 1,100: the store is placed between the start and the arrival (434), the load between the
  // departure (0x1f4, 500) and the end (800).
  Log log(32, 1, 8);
  log.starts = {100};
  log.Access(0, ~0u, kStore, Eight);
  for (std::uint32_t l = 0; l < 32; ++l) {
    log.lanes[l].push_back({ws::dev::kEventBarrier | 32u << 16, kPlace, 0x1f4, ~0u, 0});
    log.lanes[l].push_back({0x300, 0x1, 900, 0x80000000u | 3u, 0});
  }
  log.Access(0, ~0u, kLoad, Floats);
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  std::vector<std::uint32_t> want;
  ws::EncodeWarpEvent(kStore, ~0u, 434, Offsets(~0u, Eight), &want);
  ws::EncodeBarrierEvent(kPlace, ~0u, 0x100000300ull, 0x1f4, 3, 900, &want, 32);
  ws::EncodeWarpEvent(kLoad, ~0u, 800, Offsets(~0u, Floats), &want);
  EXPECT_EQ(WarpWords(c, 0), want);
}

TEST(LaneLog, AWarpsLanesTakeItsWarpRowsInTheirOwnColumnsPlaces) {
  // Warp rows land at different rows of the lanes' columns: lanes 0-7 made two records of their
  // own first, the others none. Each lane's column then reads, once the warp rows are in: its own
  // rows, warp row 0, warp row 1; lanes 0-7 have 4 rows, the others 2.
  Log log(32, 1, 6);
  log.Access(0, 0xffu, kLoad, Floats);
  log.Access(0, 0xffu, kLoad, Floats);
  log.Access(0, ~0u, kStore, Eight);
  log.Access(0, ~0u, kOther, Scattered);
  std::vector<std::uint32_t> words = log.Laid(4), times = log.Laid(1);
  std::uint64_t warp_rows = 0, filled = 0;
  EXPECT_EQ(ws::LaneLogUnpackWarpRows(&words, &times, log.LaidWarpRows(true),
                                      log.LaidWarpRows(false), 6, 32, 1, &warp_rows, &filled),
            "");
  EXPECT_EQ(warp_rows, 2u);
  EXPECT_EQ(filled, 64u);  // 32 lanes, two warp rows
  std::vector<std::uint32_t> want(32, 2);
  for (int l = 0; l < 8; ++l) want[l] = 4;
  EXPECT_EQ(ws::LaneLogCounts(words, 6, 32, 1), want);
  // Lane 5's row 3 and lane 9's row 1: warp row 1 (kOther, lane l's word 2 l * l * 4).
  const auto row = [&](std::uint32_t l, std::uint32_t k) {
    return std::vector<std::uint32_t>(words.begin() + (k * 32 + l) * 4,
                                      words.begin() + (k * 32 + l) * 4 + 4);
  };
  const auto lo = static_cast<std::uint32_t>(kOther), hi = static_cast<std::uint32_t>(kOther >> 32);
  EXPECT_EQ(row(5, 3), (std::vector<std::uint32_t>{lo, hi, 100, ~0u}));
  EXPECT_EQ(row(9, 1), (std::vector<std::uint32_t>{lo, hi, 324, ~0u}));
  EXPECT_EQ(times[3 * 32 + 5], 0u);  // an access's warp row carries no time
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  std::vector<std::uint32_t> events;
  ws::EncodeWarpEvent(kLoad, 0xffu, 1200, Offsets(0xffu, Floats), &events);
  ws::EncodeWarpEvent(kLoad, 0xffu, 1400, Offsets(0xffu, Floats), &events);
  ws::EncodeWarpEvent(kStore, ~0u, 1600, Offsets(~0u, Eight), &events);
  ws::EncodeWarpEvent(kOther, ~0u, 1800, Offsets(~0u, Scattered), &events);
  EXPECT_EQ(WarpWords(c, 0), events);
}

TEST(LaneLog, EachWarpsLanesTakeTheirOwnWarpsRows) {
  // Two blocks of 64 threads (warps 0-3): every warp loads with all its lanes, warps 1 and 3 at
  // other offsets; then warp 2's lanes 0-15 and 16-31 store to two buffers in one instruction
  // (lanes 16-31 rows of their own), and every warp stores once more. Each warp's events are its
  // own warp rows'. Warp 3 starts first (at 900): the pass ends at 1,900 for all four.
  Log log(64, 2, 4);
  log.starts = {1000, 1000, 1000, 900};
  for (std::uint32_t w = 0; w < 4; ++w) log.Access(w, ~0u, kLoad, w % 2 ? Scattered : Floats);
  log.Access(2, 0xffffu, kStore, Floats, ~0u);
  log.Access(2, 0xffff0000u, kOther, Eight, ~0u);
  for (std::uint32_t w = 0; w < 4; ++w) log.Access(w, ~0u, kStore, Eight);
  ws::GpuCapture c;
  ASSERT_EQ(log.To(&c), "");
  for (std::uint32_t w = 0; w < 4; ++w) {
    SCOPED_TRACE("warp " + std::to_string(w));
    // Warps 0 and 1: two instructions between 1,000 and 1,900 (1,300 and 1,600); warp 2 three
    // (1,225, 1,450 and 1,675); warp 3 two between 900 and 1,900 (1,233 and 1,566).
    const std::uint32_t first = w == 2 ? 1225 : w == 3 ? 1233 : 1300;
    const std::uint32_t last = w == 2 ? 1675 : w == 3 ? 1566 : 1600;
    std::vector<std::uint32_t> want;
    ws::EncodeWarpEvent(kLoad, ~0u, first, Offsets(~0u, w % 2 ? Scattered : Floats), &want);
    if (w == 2) {
      ws::EncodeWarpEvent(kStore, 0xffffu, 1450, Offsets(0xffffu, Floats), &want);
      ws::EncodeWarpEvent(kOther, 0xffff0000u, 1450, Offsets(0xffff0000u, Eight), &want);
    }
    ws::EncodeWarpEvent(kStore, ~0u, last, Offsets(~0u, Eight), &want);
    EXPECT_EQ(WarpWords(c, w), want);
  }
  // Arrays shorter than the log's rows: an error, not a log read short.
  std::vector<std::uint32_t> words = log.Laid(4), times = log.Laid(1);
  EXPECT_EQ(ws::LaneLogUnpackWarpRows(&words, &times, std::vector<std::uint32_t>(8),
                                      log.LaidWarpRows(false), 4, 64, 4),
            "the lane log read back is shorter than 4 warps of 4 rows and their warp rows");
}

TEST(LaneLog, AColumnEndsAtItsFirstRowOfZerosOrAtTheLogsEnd) {
  // Two blocks of 40 threads (warps 0-1, 2-3; warps 1 and 3 have 8 lanes), 3 rows a lane: thread
  // 0 fills its column, thread 1 writes one row (a key whose bits 0..31 are 0: its word 0 is 0),
  // thread 33 (warp 1's lane 1) two rows (a barrier's, arriving at time 0: the second row's
  // word 0 is 0), block 1's thread 39 (warp 3's lane 7) one row; the others none.
  Log log(40, 2, 3);
  for (int k = 0; k < 3; ++k) log.lanes[0].push_back({1, 2, 3, 1u, 0});
  log.lanes[1].push_back({0, 3, 5, 2u, 0});
  log.lanes[33].push_back({ws::dev::kEventBarrier, kPlace, 0, 2u, 0});
  log.lanes[33].push_back({0, 0, 0, 0x80000000u, 0});
  log.lanes[3 * 32 + 7].push_back({1, 2, 3, 0x80u, 0});
  std::vector<std::uint32_t> want(80, 0);
  want[0] = 3, want[1] = 1, want[33] = 2, want[40 + 39] = 1;
  EXPECT_EQ(ws::LaneLogCounts(log.Laid(4), 3, 40, 4), want);
  EXPECT_EQ(ws::LaneLogCounts(std::vector<std::uint32_t>(10), 3, 40, 4),
            std::vector<std::uint32_t>(80, 0));  // shorter than the log: nothing read
}

TEST(LaneLog, RecordsThatDoNotFitTogetherAreAnErrorNamingTheWarp) {
  Log log(32, 2, 4);
  log.Access(1, 0x3u, kLoad, Floats);
  log.lanes[32 + 1][0][3] = 0x2u;  // lane 1 says it ran alone; lane 0 says with lane 1
  ws::GpuCapture c;
  EXPECT_EQ(log.To(&c), "warp 1: its lanes' next records make no request (lane 0 row 0)");
  Log past(32, 1, 2);
  for (int k = 0; k < 2; ++k) past.Access(0, ~0u, kLoad, Floats);
  std::vector<std::uint32_t> words(2 * 128), times(2 * 32), counts(32, 3);
  EXPECT_EQ(ws::LaneLogToCapture(words, times, 2, counts, 32, 1, {0}, 0, &c),
            "warp 0 lane 0 wrote 3 rows, past the log's 2");
  EXPECT_EQ(ws::LaneLogToCapture(words, times, 2, counts, 32, 1, {}, 0, &c),
            "the lane log read back is shorter than 1 warps of 2 rows and their starts");
}

std::uint32_t Row16(std::uint32_t l) {  // a 16 x 16 tile's row of floats, 64 bytes wide
  return 1024 + l % 16 * 4 + l / 16 * 64;
}
std::uint32_t Column(std::uint32_t l) {  // lane l's own row of the tile: one column of a warp
  return 2048 + l * 68;
}

TEST(LaneLog, ALoopsPatternGivesTheRowsItsBodyWouldHaveWritten) {
  // Two warps of a 48-thread block. Warp 0: a store, then a loop of 3 passes whose body loads at
  // two sites (Row16 and Column, 256 and 4 bytes on a pass), then a load; warp 1 (lanes 0-15) the
  // same loop with lanes 0-7 alone (a loop under a branch), its first site only. Against the same
  // run written row by row as the body wrote it before the patterns, joined the same way.
  Log patterned(48, 1, 16), plain(48, 1, 16);
  patterned.Access(0, ~0u, kStore, Floats);
  plain.Access(0, ~0u, kStore, Floats);
  patterned.Pattern(0, ~0u, 3, {{kLoad, Row16, 256}, {kOther, Column, 4}});
  patterned.Pattern(1, 0xffu, 3, {{kLoad, Row16, 256}});
  for (std::uint32_t p = 0; p < 3; ++p) {
    for (std::uint32_t l = 0; l < 32; ++l) {  // as the body's two accesses wrote them
      const std::uint32_t row = Row16(l) + 256 * p, column = Column(l) + 4 * p;
      plain.lanes[l].push_back({static_cast<std::uint32_t>(kLoad),
                                static_cast<std::uint32_t>(kLoad >> 32), row, ~0u, kNoTime});
      plain.lanes[l].push_back({static_cast<std::uint32_t>(kOther),
                                static_cast<std::uint32_t>(kOther >> 32), column, ~0u, kNoTime});
      if (l < 8)
        plain.lanes[32 + l].push_back({static_cast<std::uint32_t>(kLoad),
                                       static_cast<std::uint32_t>(kLoad >> 32), row, 0xffu,
                                       kNoTime});
    }
  }
  patterned.Access(0, ~0u, kLoad, Eight);
  plain.Access(0, ~0u, kLoad, Eight);
  ws::GpuCapture a, b;
  std::uint64_t expanded = 0;
  bool uneven = true;
  ASSERT_EQ(patterned.ToExpanded(&a, 1u << 16, &uneven, &expanded), "");
  EXPECT_FALSE(uneven);
  ASSERT_EQ(plain.To(&b), "");
  // 3 passes of 2 sites for 32 lanes, of 1 site for 8.
  EXPECT_EQ(expanded, 3u * 2 * 32 + 3u * 8);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.warp_used, b.warp_used);
  // Warp 0: the store, 6 loads, the load after: 8 instructions between its start (1,000) and the
  // pass's end (2,000), 1,000 / 9 apart: the store at 1,111, the first pass's two loads at 1,222
  // and 1,333.
  std::vector<std::uint32_t> want;
  ws::EncodeWarpEvent(kStore, ~0u, 1111, Offsets(~0u, Floats), &want);
  ws::EncodeWarpEvent(kLoad, ~0u, 1222, Offsets(~0u, Row16), &want);
  ws::EncodeWarpEvent(kOther, ~0u, 1333, Offsets(~0u, Column), &want);
  const std::vector<std::uint32_t> got = WarpWords(a, 0);
  ASSERT_GE(got.size(), want.size());
  EXPECT_EQ(std::vector<std::uint32_t>(got.begin(),
                                       got.begin() + static_cast<std::ptrdiff_t>(want.size())),
            want);
}

TEST(LaneLog, ALoopWhoseLanesCountedDifferentPassesGoesTheEventRoads) {
  Log log(32, 1, 8);
  log.Pattern(0, ~0u, ~0u, {{kLoad, Floats, 128}});
  ws::GpuCapture c;
  bool uneven = false;
  EXPECT_EQ(log.ToExpanded(&c, 1u << 16, &uneven),
            "warp 0 lane 0 row 0: the lanes that entered a loop counted different passes");
  EXPECT_TRUE(uneven);
  // A loop of 2^20 passes of 2 sites: 2^21 rows a lane once made, past 2^16 (checked by count,
  // not made); that goes the event roads too.
  Log long_loop(32, 1, 8);
  long_loop.Pattern(0, ~0u, 1u << 20, {{kLoad, Floats, 128}, {kStore, Floats, 4}});
  EXPECT_EQ(long_loop.ToExpanded(&c, 1u << 16, &uneven),
            "warp 0's loops expand to 2097152 rows a lane, past 65536");
  EXPECT_TRUE(uneven);
}

TEST(LaneLog, APatternsSitesFollowItsHeadOrTheLogIsWrong) {
  Log log(32, 1, 8);
  log.Pattern(0, ~0u, 2, {{kLoad, Floats, 128}, {kStore, Floats, 4}});
  for (std::uint32_t l = 0; l < 32; ++l) log.lanes[l].erase(log.lanes[l].begin());  // no head
  ws::GpuCapture c;
  bool uneven = true;
  EXPECT_EQ(log.ToExpanded(&c, 1u << 16, &uneven),
            "warp 0 lane 0 row 0: a loop pattern's site with no head before it");
  EXPECT_FALSE(uneven);  // a bug, not a launch for the event roads
  Log short_log(32, 1, 8);
  short_log.Pattern(0, ~0u, 2, {{kLoad, Floats, 128}, {kStore, Floats, 4}});
  for (std::uint32_t l = 0; l < 32; ++l) short_log.lanes[l].pop_back();  // its last site lost
  EXPECT_EQ(short_log.ToExpanded(&c, 1u << 16, &uneven),
            "warp 0 lane 0 row 0: a loop pattern of 2 sites past the lane's 2 rows");
  EXPECT_FALSE(uneven);
}

TEST(LaneLog, ALoopOfNoPassesMakesNoRows) {
  // Warp 0's lanes meet a loop of no passes and record nothing else: no request at all. Warp 1's
  // meet it, then load: the load alone. (The first form read a warp whose patterns made no row as
  // a warp with none, and took the head for an access.)
  Log patterned(64, 1, 8), plain(64, 1, 8);
  patterned.Pattern(0, ~0u, 0, {{kLoad, Floats, 4}});
  patterned.Pattern(1, ~0u, 0, {{kLoad, Floats, 4}, {kStore, Floats, 4}});
  patterned.Access(1, ~0u, kLoad, Eight);
  plain.Access(1, ~0u, kLoad, Eight);
  ws::GpuCapture a, b;
  std::uint64_t expanded = 1;
  bool uneven = true;
  ASSERT_EQ(patterned.ToExpanded(&a, 1u << 16, &uneven, &expanded), "");
  EXPECT_EQ(expanded, 0u);
  EXPECT_FALSE(uneven);
  ASSERT_EQ(plain.To(&b), "");
  EXPECT_EQ(a.warp_used[0], 0u);
  EXPECT_EQ(a.words, b.words);
}

}  // namespace lane_log_test
