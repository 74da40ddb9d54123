// The host half of GPU recording, without a GPU: per-warp events written by hand the way the
// device writes them, decoded into per-thread records and figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda.h"

namespace {

const std::uint64_t kLoad = ws::MakeSiteKey(10, ws::kKeyGlobal, ws::kKeyLoad, 4, 0);
const std::uint64_t kStore = ws::MakeSiteKey(11, ws::kKeyGlobal, ws::kKeyStore, 4, 1);

std::vector<std::uint32_t> Offsets(std::uint32_t lanes, std::uint32_t first, std::uint32_t step) {
  std::vector<std::uint32_t> v(lanes);
  for (std::uint32_t k = 0; k < lanes; ++k) v[k] = first + k * step;
  return v;
}

// One block of `threads` threads, each warp given `events[w]`, ranges exactly as long.
ws::GpuCapture OneBlock(std::uint32_t threads, const std::vector<std::vector<std::uint32_t>>& ev) {
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {1, 1, 1};
  c.block = {threads, 1, 1};
  c.buffers = {{"in", 1 << 20, 0}, {"out", 1 << 20, 0}};
  ws::PlaceBuffers(c.buffers);
  c.warp_base = {0};
  for (const auto& w : ev) {
    c.words.insert(c.words.end(), w.begin(), w.end());
    c.warp_base.push_back(c.words.size());
    c.warp_used.push_back(w.size());
  }
  c.barrier_base.assign(threads + 1, 0);
  c.barrier_used.assign(threads, 0);
  return c;
}

TEST(GpuRecords, AnAffineEventIsTwoWordsOfOffsetsAndAGeneralOneAWordPerLane) {
  std::vector<std::uint32_t> w;
  // Consecutive floats: 4 header words + first offset + step = 6 words (24 bytes) for 32 lanes.
  EXPECT_EQ(ws::EncodeWarpEvent(kLoad, ~0u, 7, Offsets(32, 0, 4), &w), 6u);
  EXPECT_EQ(w[4], 0u);
  EXPECT_EQ(w[5], 4u);
  EXPECT_EQ(w[0] & ws::dev::kEventAffine, ws::dev::kEventAffine);
  // A permutation has no single step: 4 + 32 words.
  std::vector<std::uint32_t> perm = Offsets(32, 0, 4);
  std::swap(perm[3], perm[17]);
  EXPECT_EQ(ws::EncodeWarpEvent(kLoad, ~0u, 7, perm, &w), 36u);
  EXPECT_EQ(w.size(), 42u);
}

TEST(GpuRecords, EventsBecomeEachLanesRecordsWithItsOffsetAndIteration) {
  // Block of 40 threads: warp 0 full, warp 1 lanes 0..7 (threads 32..39).
  std::vector<std::uint32_t> w0, w1;
  ws::EncodeWarpEvent(kLoad, ~0u, 100, Offsets(32, 0, 4), &w0);    // in[t]
  ws::EncodeWarpEvent(kLoad, ~0u, 200, Offsets(32, 128, 4), &w0);  // in[t + 32]: iteration 1
  std::vector<std::uint32_t> scattered = Offsets(32, 0, 4);
  std::reverse(scattered.begin(), scattered.end());  // out[31 - t]
  ws::EncodeWarpEvent(kStore, ~0u, 300, scattered, &w0);
  ws::EncodeWarpEvent(kLoad, 0xffu, 150, Offsets(8, 256, 4), &w1);
  ws::GpuCapture c = OneBlock(40, {w0, w1});
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  ASSERT_EQ(t.sites.size(), 2u);  // line 10 load, line 11 store
  ASSERT_EQ(t.blocks.size(), 1u);
  const auto& a = t.blocks[0].accesses;
  ASSERT_EQ(a.size(), 32u * 3 + 8);
  EXPECT_FALSE(t.truncated);
  auto find = [&](std::uint16_t thread, std::uint16_t site, std::uint32_t iteration) {
    return std::find_if(a.begin(), a.end(), [&](const ws::AccessRecord& r) {
      return r.thread == thread && r.site == site && r.iteration == iteration;
    });
  };
  ASSERT_NE(find(5, 0, 1), a.end());
  EXPECT_EQ(find(5, 0, 1)->offset, 128u + 5 * 4);  // the second event's lane 5
  EXPECT_EQ(find(5, 0, 1)->time, 100u);            // ns after the first event (t = 100)
  EXPECT_EQ(find(5, 1, 0)->offset, (31u - 5) * 4);
  EXPECT_EQ(find(37, 0, 0)->offset, 256u + 5 * 4);  // warp 1, lane 5
  EXPECT_EQ(find(38, 0, 1), a.end());
  // The load site: 3 requests (two of warp 0, one of warp 1); 4 + 4 + 1 sectors (8 lanes x 4 B
  // from byte 256 of an aligned buffer: one 32-byte sector).
  EXPECT_EQ(t.stats.sites[0].requests, 3u);
  EXPECT_EQ(t.stats.sites[0].sectors, 9u);
  EXPECT_EQ(t.stats.sites[1].sectors, 4u);  // reversed, still 128 bytes: 4 sectors
  EXPECT_EQ(t.stats.access_records, 104u);
  ASSERT_EQ(t.thread_active.size(), 40u);
  EXPECT_EQ(std::accumulate(t.thread_active.begin(), t.thread_active.end(), 0), 40);
}

TEST(GpuRecords, LanesSplitIntoTwoEventsStillMakeOneRequest) {
  // The recording pass may see a warp's lanes reach an access in two groups; the figures are
  // per (warp, site, iteration), so they equal those of one 32-lane event: 4 sectors.
  std::vector<std::uint32_t> w;
  ws::EncodeWarpEvent(kLoad, 0x0000ffffu, 1, Offsets(16, 0, 4), &w);
  ws::EncodeWarpEvent(kLoad, 0xffff0000u, 2, Offsets(16, 64, 4), &w);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w}), {{}, false});
  EXPECT_EQ(t.stats.sites[0].requests, 1u);
  EXPECT_EQ(t.stats.sites[0].sectors, 4u);
  EXPECT_EQ(t.stats.sites[0].divergent_requests, 0u);
  EXPECT_TRUE(t.blocks.empty());  // block 0 not kept, yet analysed
}

TEST(GpuRecords, AFullRangeLosesOnlyItsTailAndTheLaunchSaysTruncated) {
  std::vector<std::uint32_t> w;
  ws::EncodeWarpEvent(kLoad, ~0u, 1, Offsets(32, 0, 4), &w);   // 6 words
  ws::EncodeWarpEvent(kStore, ~0u, 2, Offsets(32, 0, 4), &w);  // 6 more, did not fit
  ws::GpuCapture c = OneBlock(32, {w});
  c.warp_base[1] = 9;  // room for 9 words: the second event was not written...
  c.words.resize(9);
  std::fill(c.words.begin() + 6, c.words.end(), 0u);  // ...so those words are still zero
  c.warp_used[0] = 12;                                // what the warp tried to reserve
  c.overflowed = true;
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_TRUE(t.truncated);
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.blocks[0].accesses.size(), 32u);
}

TEST(GpuRecords, BuffersThatDoNotMatchTheLaunchAreNotRead) {
  ws::GpuCapture c = OneBlock(64, {{}, {}});
  c.warp_base.back() = 1000;  // past the words there are
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_TRUE(t.truncated);
  EXPECT_TRUE(t.sites.empty());
}

TEST(GpuRecords, BarrierTimesShareTheAccessesClock) {
  std::vector<std::uint32_t> w;
  const std::uint64_t arrival = (5ull << 32) + 1000;  // a 64-bit %globaltimer value
  ws::EncodeWarpEvent(kLoad, ~0u, static_cast<std::uint32_t>(arrival - 400), Offsets(32, 0, 4), &w);
  ws::GpuCapture c = OneBlock(32, {w});
  for (std::uint32_t th = 0; th < 32; ++th) {
    c.barriers.push_back({arrival + th, arrival + 500, 20, 3, 1000 - th, 0});
    c.barrier_base[th + 1] = th + 1;
    c.barrier_used[th] = 1;
  }
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  // The load came 400 ns before the first arrival, so it is time 0 and the arrivals 400..431.
  EXPECT_EQ(t.blocks[0].accesses[0].time, 0u);
  EXPECT_EQ(t.blocks[0].barriers[0].arrival, 400u);
  EXPECT_EQ(t.blocks[0].barriers[31].arrival, 431u);
  EXPECT_EQ(t.blocks[0].barriers[31].sm, 3u);
  EXPECT_EQ(t.blocks[0].barriers[31].wait_cycles, 1000u - 31);
  EXPECT_EQ(t.stats.barriers[0].max_skew, 31u);
}

}  // namespace

namespace {

// A shuffle's meeting as a warp writes it: decoded into a warp-op site, a count and a record with
// each lane's source lane; the accesses around it keep their epochs and iterations.
TEST(GpuRecords, AWarpOpEventBecomesAMeetingWithEachLanesSource) {
  std::uint8_t down16[32];
  for (std::uint32_t l = 0; l < 32; ++l) down16[l] = static_cast<std::uint8_t>(l < 16 ? l + 16 : l);
  std::uint8_t down8[32];
  for (std::uint32_t l = 0; l < 32; ++l)
    down8[l] = static_cast<std::uint8_t>(l % 16 < 8 ? l + 8 : l);
  const std::uint32_t place = ws::MakePlace(5, 40);
  std::vector<std::uint32_t> w0;
  ws::EncodeWarpEvent(kLoad, ~0u, 100, Offsets(32, 0, 4), &w0);
  EXPECT_EQ(ws::EncodeWarpOpEvent(2, place, ~0u, 110, down16, &w0), 12u);  // 4 + 8 words
  ws::EncodeWarpOpEvent(2, place, ~0u, 120, down8, &w0);
  ws::EncodeWarpEvent(kStore, 1u, 130, {0}, &w0);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w0}), {{0}, false});
  ASSERT_EQ(t.warp_op_sites.size(), 1u);
  EXPECT_EQ(t.warp_op_sites[0].kind, ws::WarpOpKind::kShflDown);
  EXPECT_EQ(t.warp_op_sites[0].line, 40u);
  ASSERT_EQ(t.warp_op_counts.size(), 1u);
  EXPECT_EQ(t.warp_op_counts[0], 2u);
  ASSERT_EQ(t.blocks.size(), 1u);
  ASSERT_EQ(t.blocks[0].warp_ops.size(), 2u);
  const ws::WarpOpRecord& first = t.blocks[0].warp_ops[0];
  EXPECT_EQ(first.iteration, 0u);
  EXPECT_EQ(first.mask, ~0u);
  EXPECT_EQ(first.source[0], 16);
  EXPECT_EQ(first.source[16], 16);
  EXPECT_EQ(t.blocks[0].warp_ops[1].iteration, 1u);
  EXPECT_EQ(t.blocks[0].warp_ops[1].source[3], 11);
  EXPECT_EQ(t.blocks[0].warp_ops[1].source[12], 12);
  // The accesses on either side are still there, 32 loads and one store.
  EXPECT_EQ(t.blocks[0].accesses.size(), 33u);
  EXPECT_EQ(t.sites.size(), 2u);
}

}  // namespace

namespace {

// CUDA's shuffle rules, shared by both recorders (ws_cuda_keys.h), worked by hand.
TEST(GpuRecords, ShuffleSourceLanesFollowCudasRules) {
  EXPECT_EQ(ws::ShuffleSourceLane(2, 3, 16, 32), 19u);   // down 16: lane 3 reads 19
  EXPECT_EQ(ws::ShuffleSourceLane(2, 20, 16, 32), 20u);  // 20 + 16 is past the warp: its own
  EXPECT_EQ(ws::ShuffleSourceLane(1, 0, 1, 32), 0u);     // up 1: lane 0 keeps its own
  EXPECT_EQ(ws::ShuffleSourceLane(1, 9, 1, 8), 8u);      // width 8: lane 9 reads 8
  EXPECT_EQ(ws::ShuffleSourceLane(1, 8, 1, 8), 8u);      // lane 8 is its segment's first
  EXPECT_EQ(ws::ShuffleSourceLane(3, 5, 1, 32), 4u);     // xor 1: 5 and 4 swap
  EXPECT_EQ(ws::ShuffleSourceLane(3, 5, 8, 8), 5u);      // xor 8 leaves an 8-lane segment
  EXPECT_EQ(ws::ShuffleSourceLane(0, 13, 7, 8), 15u);    // lane 7 of 13's segment (8-15)
  EXPECT_EQ(ws::ShuffleSourceLane(4, 13, 7, 32), 13u);   // a vote reads nothing
}

}  // namespace
