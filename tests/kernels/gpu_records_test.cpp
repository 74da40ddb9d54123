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

TEST(GpuRecords, EveryBlocksLoadsGoThroughTheCacheProbes) {
  // Two blocks of one warp; each reads in[0..31] (128 bytes: 4 sectors) and writes out[t].
  std::vector<std::uint32_t> w;
  ws::EncodeWarpEvent(kLoad, ~0u, 1, Offsets(32, 0, 4), &w);
  ws::EncodeWarpEvent(kStore, ~0u, 2, Offsets(32, 0, 4), &w);
  ws::GpuCapture c = OneBlock(32, {w, w});
  c.grid = {2, 1, 1};
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false}, {ws::CacheProbe{}});
  EXPECT_EQ(t.blocks.size(), 1u);  // block 0 kept, both replayed
  ASSERT_EQ(t.cache_replays.size(), 1u);
  // 1,024 / 32 threads: both blocks on one multiprocessor. The loads only: 2 requests of 4
  // sectors, block 1's all hits; 4 sectors compulsory.
  const ws::CacheCounts& k = t.cache_replays[0];
  EXPECT_EQ(k.blocks, 2u);
  EXPECT_EQ(k.requests, 2u);
  EXPECT_EQ(k.sectors, 8u);
  EXPECT_EQ(k.hits, 4u);
  EXPECT_EQ(k.distinct, 4u);
  EXPECT_TRUE(ws::DecodeGpuCapture(c, {{0}, false}).cache_replays.empty());  // no probe
}

TEST(GpuRecords, EachEventIsOneRequestAsTheHardwareRanIt) {
  // An event is the lanes that ran the access together: lanes the GPU ran in two groups (a
  // diverged warp) are two requests, as Nsight Compute counts them. Lanes 0-15 read 64 bytes
  // (2 sectors), lanes 16-31 the next 64 (2 sectors): 2 requests, 4 sectors, both partial.
  std::vector<std::uint32_t> w;
  ws::EncodeWarpEvent(kLoad, 0x0000ffffu, 1, Offsets(16, 0, 4), &w);
  ws::EncodeWarpEvent(kLoad, 0xffff0000u, 2, Offsets(16, 64, 4), &w);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w}), {{0}, false});
  EXPECT_EQ(t.stats.sites[0].requests, 2u);
  EXPECT_EQ(t.stats.sites[0].sectors, 4u);
  EXPECT_EQ(t.stats.sites[0].divergent_requests, 2u);
  // Each lane's record names its request: the first event's lanes 0, the second's 1.
  ASSERT_EQ(t.blocks.size(), 1u);
  for (const ws::AccessRecord& a : t.blocks[0].accesses)
    EXPECT_EQ(a.iteration, a.thread < 16 ? 0u : 1u) << a.thread;
}

// A program's events carry their lanes' dynamic instance: lanes of one instance that recorded
// apart (the recorder's own code keeps them apart after a divergent branch, where the kernel as
// written runs them together) are one request, as the emulator's InstanceTable makes it, and
// Nsight Compute counts it. Warp 0: lanes 0-15 and 16-31 of instance 7 record apart (one
// request, 4 sectors of 32 floats), then instance 8's lanes 0-31 (a second), then lanes 0-15
// bring instance 7 again (a site reached twice in one instance: a third).
TEST(GpuRecords, EventsOfOneDynamicInstanceAreOneRequest) {
  const std::uint64_t seven = (1ull << 32) | 7u, eight = (1ull << 32) | 8u;
  std::vector<std::uint32_t> w;
  // With an instance, a header is 5 words: an affine event 7.
  EXPECT_EQ(ws::EncodeWarpEvent(kLoad, 0x0000ffffu, 100, Offsets(16, 0, 4), &w, seven), 7u);
  ws::EncodeWarpEvent(kLoad, 0xffff0000u, 110, Offsets(16, 64, 4), &w, seven);
  ws::EncodeWarpEvent(kLoad, ~0u, 120, Offsets(32, 128, 4), &w, eight);
  ws::EncodeWarpEvent(kLoad, 0x0000ffffu, 130, Offsets(16, 256, 4), &w, seven);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w}), {{0}, false});
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.stats.sites[0].requests, 3u);
  EXPECT_EQ(t.stats.sites[0].sectors, 4u + 4u + 2u);  // 128 B, 128 B, 64 B
  const auto& a = t.blocks[0].accesses;
  ASSERT_EQ(a.size(), 16u + 16u + 32u + 16u);
  EXPECT_EQ(a[0].offset, 0u);
  EXPECT_EQ(a[16].offset, 64u);                // lane 16: the second event's first lane
  EXPECT_EQ(a[16].iteration, a[0].iteration);  // one request
  EXPECT_NE(a[32].iteration, a[0].iteration);  // instance 8: the next
  EXPECT_NE(a[64].iteration, a[0].iteration);  // instance 7 again: a third
  EXPECT_NE(a[64].iteration, a[32].iteration);
}

// A loop whose every pass has one instance (an unrolled one): each whole-warp pass is a request
// of its own, and lanes that record apart after them still join one. 2,000 passes of instance 7,
// then lanes 0-15 and 16-31 apart: 2,001 requests. (Every pass once scanned the passes before it:
// cudaTensorCoreGemm's kept blocks were still decoding after 120 s.)
TEST(GpuRecords, ManyPassesOfOneInstanceAreARequestEach) {
  const std::uint64_t seven = (1ull << 32) | 7u;
  std::vector<std::uint32_t> w;
  for (std::uint32_t k = 0; k < 2000; ++k)
    ws::EncodeWarpEvent(kLoad, ~0u, 100 + k, Offsets(32, 0, 4), &w, seven);
  ws::EncodeWarpEvent(kLoad, 0x0000ffffu, 5000, Offsets(16, 0, 4), &w, seven);
  ws::EncodeWarpEvent(kLoad, 0xffff0000u, 5001, Offsets(16, 64, 4), &w, seven);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w}), {{0}, false});
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.stats.sites[0].requests, 2001u);
  const auto& a = t.blocks[0].accesses;
  ASSERT_EQ(a.size(), 2000u * 32u + 32u);
  EXPECT_EQ(a[2000 * 32].iteration, 2000u);       // lane 0 of the split pass
  EXPECT_EQ(a[2000 * 32 + 16].iteration, 2000u);  // lane 16: the same request
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

// Past the record budget a warp that counted events may get no room: its block's figures are
// missing, and the launch says how many blocks its figures cover (not silently partial).
TEST(GpuRecords, BlocksWithAWarpLeftWithoutRoomAreCountedAsUncovered) {
  std::vector<std::uint32_t> w;
  ws::EncodeWarpEvent(kLoad, ~0u, 1, Offsets(32, 0, 4), &w);
  // Three blocks of two warps: block 0 whole, block 1's second warp and block 2's first dropped.
  ws::GpuCapture c = OneBlock(64, {w, w, w, {}, {}, w});
  c.grid = {3, 1, 1};
  c.overflowed = true;
  c.warp_dropped = {0, 0, 0, 1, 1, 0};
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  EXPECT_EQ(t.uncovered_blocks, 2u);
  EXPECT_EQ(t.Coverage(),
            "the figures cover 1 of 3 blocks: the record budget left 2 blocks' warps no room on "
            "the GPU (--record-budget; a smaller grid)");
  // Four warps recorded their load: 4 requests where the grid made 6.
  ASSERT_EQ(t.stats.sites.size(), 1u);
  EXPECT_EQ(t.stats.sites[0].requests, 4u);
  c.warp_dropped.clear();  // a pass that fitted
  EXPECT_EQ(ws::DecodeGpuCapture(c, {{0}, false}).Coverage(), "");
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
  // Lanes that arrived apart write an event each (here lane k arrived k ns after lane 0);
  // the departure's high word comes from the arrival's.
  for (std::uint32_t th = 0; th < 32; ++th)
    EXPECT_EQ(ws::EncodeBarrierEvent(20, 1u << th, arrival + th, arrival + 500, 3, 1000 - th, &w),
              8u);
  ws::GpuCapture c = OneBlock(32, {w});
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  // The load came 400 ns before the first arrival, so it is time 0 and the arrivals 400..431.
  EXPECT_EQ(t.blocks[0].accesses[0].time, 0u);
  ASSERT_EQ(t.blocks[0].barriers.size(), 32u);
  EXPECT_EQ(t.blocks[0].barriers[0].arrival, 400u);
  EXPECT_EQ(t.blocks[0].barriers[31].arrival, 431u);
  EXPECT_EQ(t.blocks[0].barriers[31].departure, 900u);
  EXPECT_EQ(t.blocks[0].barriers[31].thread, 31u);
  EXPECT_EQ(t.blocks[0].barriers[31].sm, 3u);
  EXPECT_EQ(t.blocks[0].barriers[31].wait_cycles, 1000u - 31);
  EXPECT_EQ(t.stats.barriers[0].max_skew, 31u);
}

TEST(GpuRecords, AConvergedWarpPassesABarrierInOneEventForAllItsThreads) {
  // Block of 64 threads passing one barrier twice; warp 0 converged (one event of 8 words per
  // pass, not 32 records of 32 bytes), warp 1 split into two halves that arrived apart on the
  // second pass. The departure's low word wrapped past 2^32 (arrival 0x1'ffff'ff00, departure
  // 0x2'0000'0100): unwrapped next to the arrival.
  const std::uint64_t a = 0x1ffffff00ull, d = 0x200000100ull;
  std::vector<std::uint32_t> w0, w1;
  ws::EncodeBarrierEvent(7, ~0u, a, d, 1, 50, &w0);
  ws::EncodeBarrierEvent(7, ~0u, a + 1000, d + 1000, 1, 60, &w0);
  ws::EncodeBarrierEvent(7, ~0u, a + 10, d, 2, 40, &w1);
  ws::EncodeBarrierEvent(7, 0x0000ffffu, a + 1000, d + 1000, 2, 60, &w1);
  ws::EncodeBarrierEvent(7, 0xffff0000u, a + 1200, d + 1000, 2, 20, &w1);
  EXPECT_EQ(w0.size(), 16u);
  ws::GpuCapture c = OneBlock(64, {w0, w1});
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  ASSERT_EQ(t.blocks.size(), 1u);
  const auto& b = t.blocks[0].barriers;
  ASSERT_EQ(b.size(), 128u);  // 64 threads x 2 passes, thread by thread
  EXPECT_EQ(t.stats.barrier_records, 128u);
  // Thread 0: time 0 is its first arrival; departure 0x200 ns later; second pass iteration 1.
  EXPECT_EQ(b[0].thread, 0u);
  EXPECT_EQ(b[0].arrival, 0u);
  EXPECT_EQ(b[0].departure, 0x200u);
  EXPECT_EQ(b[1].iteration, 1u);
  EXPECT_EQ(b[1].arrival, 1000u);
  // Thread 48 (warp 1, lane 16): the second half's arrival, 1200 ns, on SM 2.
  EXPECT_EQ(b[96].thread, 48u);
  EXPECT_EQ(b[96].arrival, 10u);
  EXPECT_EQ(b[97].arrival, 1200u);
  EXPECT_EQ(b[97].departure, 0x200u + 1000);
  EXPECT_EQ(b[97].sm, 2u);
  EXPECT_EQ(b[97].wait_cycles, 20u);
  // The second pass: arrivals 1000 (threads 0..47) and 1200 (48..63): a skew of 200 ns.
  EXPECT_EQ(t.stats.barriers[0].max_skew, 200u);
}

// A pool pass as the GPU leaves it: two super-chunks of 256 words, SM 0's closed (its header
// holds 132 used words) and SM 1's open (its state word holds 36); in them warps took chunks of
// 32 and 64 words in the order they needed them. A closed chunk's header holds its used count,
// an open one's is in its warp's state word.
TEST(GpuRecords, ChunksOfThePoolBecomeEachWarpsStreamInOrder) {
  namespace dev = ws::dev;
  std::vector<std::uint32_t> pool(512, 0xdeadbeefu);  // words never written keep old contents
  std::vector<unsigned long long> state(3, 0), sm_state(2 * dev::kSmSlotStride, 0);
  auto put = [&](std::uint64_t at, std::uint64_t warp, std::uint32_t size, std::uint32_t used,
                 const std::vector<std::uint32_t>& events) {
    const std::uint32_t header[] = {static_cast<std::uint32_t>(warp), 0u, used, size};
    std::copy(std::begin(header), std::end(header), pool.begin() + at);
    std::copy(events.begin(), events.end(), pool.begin() + at + 4);
  };
  std::vector<std::uint32_t> a, b, c, d;
  for (std::uint32_t k = 0; k < 4; ++k)  // 4 affine loads of 6 words: 28 words with the header
    ws::EncodeWarpEvent(kLoad, ~0u, k, Offsets(32, 128 * k, 4), &a);
  ws::EncodeWarpEvent(kStore, ~0u, 9, Offsets(32, 0, 4), &b);
  ws::EncodeWarpEvent(kLoad, ~0u, 5, Offsets(32, 4096, 4), &c);
  ws::EncodeWarpEvent(kLoad, ~0u, 6, Offsets(32, 8192, 4), &d);
  pool[0] = 132;          // super-chunk 0: closed, 4 + 32 + 32 + 64 words used
  put(4, 2, 32, 28, a);   // warp 2's first chunk, closed with 28 words used (4 unused)
  put(36, 0, 32, 0, c);   // warp 0's only chunk, open
  put(68, 2, 64, 0, b);   // warp 2's second chunk, open
  pool[256] = 0;          // super-chunk 1: open
  put(260, 1, 32, 0, d);  // warp 1's chunk, open
  sm_state[dev::kSmSlotStride] = dev::ChunkState(256, 0, 36);
  state[0] = dev::ChunkState(36, 0, 10);  // one event: 4 + 6 words
  state[1] = dev::ChunkState(260, 0, 10);
  state[2] = dev::ChunkState(68, 1, 10);
  const std::vector<ws::SuperChunk> supers =
      ws::SuperChunks({pool[0], pool[256]}, 0, 256, sm_state);
  ASSERT_EQ(supers.size(), 2u);
  EXPECT_EQ(supers[0].used, 132u);
  EXPECT_EQ(supers[1].first, 256u);
  EXPECT_EQ(supers[1].used, 36u);
  // What comes back from the GPU: each super-chunk's used words, one after the other.
  std::vector<std::uint32_t> words(pool.begin(), pool.begin() + 132);
  words.insert(words.end(), pool.begin() + 256, pool.begin() + 292);
  const std::vector<ws::PoolChunk> chunks = ws::PoolChunks(words, 0, supers, 3);
  ASSERT_EQ(chunks.size(), 4u);
  EXPECT_EQ(chunks[2].first, 68u);
  EXPECT_EQ(chunks[2].size, 64u);
  EXPECT_EQ(chunks[3].first, 136u);
  EXPECT_EQ(chunks[3].device_first, 260u);
  ws::GpuCapture cap = OneBlock(96, {{}, {}, {}});
  ws::GatherChunks(words, chunks, state, false, &cap);
  EXPECT_EQ(cap.warp_used, (std::vector<std::uint64_t>{6, 6, 30}));
  EXPECT_EQ(cap.warp_base, (std::vector<std::uint64_t>{0, 6, 12, 42}));
  EXPECT_TRUE(std::equal(c.begin(), c.end(), cap.words.begin()));
  EXPECT_TRUE(std::equal(d.begin(), d.end(), cap.words.begin() + 6));
  EXPECT_TRUE(std::equal(a.begin(), a.end(), cap.words.begin() + 12));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), cap.words.begin() + 36));
  const ws::LaunchTrace t = ws::DecodeGpuCapture(cap, {{0}, false});
  // Warp 2 (threads 64..95): 4 loads then a store; warps 0 and 1 one load each.
  EXPECT_EQ(t.stats.access_records, 7u * 32);
  ASSERT_EQ(t.blocks.size(), 1u);
  EXPECT_EQ(t.blocks[0].accesses.size(), 7u * 32);
  // A chunk of a size the pool never hands out (here 48) ends its super-chunk's walk: what
  // follows in it is not read, the next super-chunk is.
  words[68 + 3] = 48;
  EXPECT_EQ(ws::PoolChunks(words, 0, supers, 3).size(), 3u);
  // So does a header naming a warp the launch does not have.
  words[68 + 3] = 64;
  words[36] = 3;
  EXPECT_EQ(ws::PoolChunks(words, 0, supers, 3).size(), 2u);
}

// Where the pool has room, each warp's first chunk is its own: 32 words at warp * 32, before the
// super-chunks. Warp 0 filled its own (4 events, 28 words) and went on in a super-chunk; warp 1
// is still in its own (state word: no chunk, 6 words used).
TEST(GpuRecords, AWarpsOwnFirstChunkComesBeforeTheChunksItTookLater) {
  namespace dev = ws::dev;
  std::vector<std::uint32_t> pool(64 + 256, 0u);
  std::vector<std::uint32_t> a, b, c;
  for (std::uint32_t k = 0; k < 4; ++k)
    ws::EncodeWarpEvent(kLoad, ~0u, k, Offsets(32, 128 * k, 4), &a);
  ws::EncodeWarpEvent(kStore, ~0u, 9, Offsets(32, 0, 4), &b);
  ws::EncodeWarpEvent(kLoad, ~0u, 5, Offsets(32, 4096, 4), &c);
  pool[2] = 28;  // warp 0's own chunk, closed: 4 + 24 words
  std::copy(a.begin(), a.end(), pool.begin() + 4);
  std::copy(c.begin(), c.end(), pool.begin() + 32 + 4);  // warp 1's own chunk, open
  // The super-chunk at word 64 (open, 4 + 64 words used) holds warp 0's second chunk.
  const std::uint32_t header[] = {0u, 0u, 0u, 64u};
  std::copy(std::begin(header), std::end(header), pool.begin() + 68);
  std::copy(b.begin(), b.end(), pool.begin() + 72);
  std::vector<unsigned long long> sm_state(dev::kSmSlotStride, 0);
  sm_state[0] = dev::ChunkState(64, 0, 68);
  const std::vector<unsigned long long> state = {dev::ChunkState(68, 1, 10), 6};
  const std::vector<ws::SuperChunk> supers = ws::SuperChunks({pool[64]}, 64, 256, sm_state);
  ASSERT_EQ(supers.size(), 1u);
  EXPECT_EQ(supers[0].first, 64u);
  EXPECT_EQ(supers[0].used, 68u);
  std::vector<ws::PoolChunk> chunks = {{0, 0, 32, 0}, {1, 32, 32, 32}};
  const std::vector<ws::PoolChunk> more = ws::PoolChunks(pool, 64, supers, 2);
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].device_first, 68u);
  chunks.insert(chunks.end(), more.begin(), more.end());
  ws::GpuCapture cap = OneBlock(64, {{}, {}});
  ws::GatherChunks(pool, chunks, state, true, &cap);
  EXPECT_EQ(cap.warp_used, (std::vector<std::uint64_t>{30, 6}));
  EXPECT_TRUE(std::equal(a.begin(), a.end(), cap.words.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), cap.words.begin() + 24));
  EXPECT_TRUE(std::equal(c.begin(), c.end(), cap.words.begin() + 30));
  // Without first chunks the same state word 6 (no chunk) means nothing was written there.
  ws::GatherChunks(pool, chunks, state, false, &cap);
  EXPECT_EQ(cap.warp_used, (std::vector<std::uint64_t>{30, 0}));
}

TEST(GpuRecords, SuperChunksAreAQuarterOfAnSmsShareAndHoldFourOfTheLargestChunks) {
  // 1 GiB = 2^28 words over 132 SMs: 2^28 / 528 = 508,400 -> 2^18 (the cap, 1 MB).
  EXPECT_EQ(ws::SuperChunkWords(1ull << 28, 132), 1u << 18);
  // 16 MB = 2^22 words over 132 SMs: 7943 -> 4096.
  EXPECT_EQ(ws::SuperChunkWords(1ull << 22, 132), 4096u);
  EXPECT_EQ(ws::SuperChunkWords(100, 132), 256u);  // the floor; the first one will not fit
  // 2^18 words: 32 << 11 = 65536, x 4 + 4 > 2^18, so class 10 (32768 words).
  EXPECT_EQ(ws::MaxChunkClass(1u << 18), 10u);
  EXPECT_EQ(ws::MaxChunkClass(256), 0u);  // 64 x 4 + 4 > 256
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

namespace {

// The events of `thread` as (kind, group, time).
std::vector<std::tuple<ws::AsyncEventKind, std::uint32_t, std::uint32_t>> ThreadsAsync(
    const ws::BlockRecords& b, std::uint32_t thread) {
  std::vector<std::tuple<ws::AsyncEventKind, std::uint32_t, std::uint32_t>> v;
  for (const ws::AsyncEvent& e : b.async_events)
    if (e.thread == thread) v.emplace_back(e.kind, e.group, e.time);
  return v;
}

// A kept block's asynchronous copy calls on the GPU, replayed as the emulator runs them
// (emu_async.cpp), worked by hand. Warp 0: two copies, a commit, a copy, a commit, then
// __pipeline_wait_prior(1), which lands group 0's two copies where it ends (the GPU does not say
// when a copy lands), then wait_prior(0), which lands group 1's. Warp 1's lanes 0-15: a thread's
// cuda::pipeline started after no group, a copy, a commit, consumer_wait (lands group 0),
// consumer_release; lanes 16-31 a cuda::barrier's copy landed at arrive_and_wait. Warps 2 and 3:
// a group's cuda::pipeline of 2 stages, warp 2 producing stage use 0 (acquire, a copy, commit),
// warp 3 consuming it (wait, release): the copy lands where the consumers' wait ended.
TEST(GpuRecords, AsyncCopyCallsAreReplayedThreadByThreadAsTheEmulatorRunsThem) {
  using K = ws::AsyncEventKind;
  std::vector<std::uint32_t> w0, w1, w2, w3;
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyGrouped, ~0u, 100, 0, &w0);
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyGrouped, ~0u, 110, 0, &w0);
  ws::EncodeAsyncCall(ws::dev::kAsyncCommit, 0, ~0u, 120, 0, &w0);
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyGrouped, ~0u, 130, 0, &w0);
  ws::EncodeAsyncCall(ws::dev::kAsyncCommit, 0, ~0u, 140, 0, &w0);
  EXPECT_EQ(ws::EncodeAsyncCall(ws::dev::kAsyncWaitPrior, 1, ~0u, 400, 150, &w0), 12u);
  ws::EncodeAsyncCall(ws::dev::kAsyncWaitPrior, 0, ~0u, 600, 410, &w0);
  ws::EncodeAsyncCall(ws::dev::kAsyncPipeStart, 0, 0x0000ffffu, 100, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyGrouped, 0x0000ffffu, 110, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncCommit, 0, 0x0000ffffu, 120, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncPipeWait, 0, 0x0000ffffu, 300, 130, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncPipeRelease, 0, 0x0000ffffu, 310, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyBarrier, 0xffff0000u, 320, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncBarrierWait, 0, 0xffff0000u, 500, 0, &w1);
  ws::EncodeAsyncCall(ws::dev::kAsyncGroupAcquire, 2, ~0u, 710, 700, &w2);
  ws::EncodeAsyncCall(ws::dev::kAsyncIssue, ws::dev::kCopyGroupPipeline, ~0u, 720, 0, &w2);
  ws::EncodeAsyncCall(ws::dev::kAsyncGroupCommit, 2, ~0u, 730, 0, &w2);
  ws::EncodeAsyncCall(ws::dev::kAsyncGroupWait, 2, ~0u, 900, 705, &w3);
  ws::EncodeAsyncCall(ws::dev::kAsyncGroupRelease, 2, ~0u, 910, 0, &w3);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(128, {w0, w1, w2, w3}), {{0}, false});
  EXPECT_TRUE(t.sites.empty());  // calls, not accesses
  EXPECT_TRUE(t.warp_op_sites.empty());
  ASSERT_EQ(t.blocks.size(), 1u);
  const ws::BlockRecords& b = t.blocks[0];
  // Times from the launch's first event (100 ns): 0, 10, 20, ... The second wait began at 410,
  // 10 ns after the first ended.
  using E = std::vector<std::tuple<K, std::uint32_t, std::uint32_t>>;
  const E warp0 = {{K::kIssue, 0, 0},       {K::kIssue, 0, 10},  {K::kCommit, 0, 20},
                   {K::kIssue, 1, 30},      {K::kCommit, 1, 40}, {K::kWaitBegin, 0, 50},
                   {K::kLand, 0, 300},      {K::kLand, 0, 300},  {K::kWaitEnd, 0, 300},
                   {K::kWaitBegin, 1, 310}, {K::kLand, 1, 500},  {K::kWaitEnd, 1, 500}};
  EXPECT_EQ(ThreadsAsync(b, 0), warp0);
  EXPECT_EQ(ThreadsAsync(b, 31), warp0);
  const E pipe = {{K::kIssue, 0, 10}, {K::kCommit, 0, 20},   {K::kWaitBegin, 0, 30},
                  {K::kLand, 0, 200}, {K::kWaitEnd, 0, 200}, {K::kRelease, 0, 210}};
  EXPECT_EQ(ThreadsAsync(b, 32), pipe);
  EXPECT_EQ(ThreadsAsync(b, 47), pipe);
  // The barrier's wait is not timed: no length, where it ended.
  const E barrier = {
      {K::kIssue, 0, 220}, {K::kWaitBegin, 0, 400}, {K::kLand, 0, 400}, {K::kWaitEnd, 0, 400}};
  EXPECT_EQ(ThreadsAsync(b, 48), barrier);
  EXPECT_EQ(ThreadsAsync(b, 63), barrier);
  // The group pipeline: the producer's copy lands where warp 3's wait ended (800), not at its
  // commit (630) as the emulator lands it.
  const E producer = {{K::kAcquireBegin, 0, 600},
                      {K::kAcquireEnd, 0, 610},
                      {K::kIssue, 0, 620},
                      {K::kCommit, 0, 630},
                      {K::kLand, 0, 800}};
  EXPECT_EQ(ThreadsAsync(b, 64), producer);
  EXPECT_EQ(ThreadsAsync(b, 95), producer);
  const E consumer = {{K::kWaitBegin, 0, 605}, {K::kWaitEnd, 0, 800}, {K::kRelease, 0, 810}};
  EXPECT_EQ(ThreadsAsync(b, 96), consumer);
  EXPECT_EQ(ThreadsAsync(b, 127), consumer);
  std::size_t staged = 0;  // the group pipeline's calls carry its 2 stages; copies none
  for (const ws::AsyncEvent& e : b.async_events) {
    if (e.thread < 64) {
      EXPECT_EQ(e.stages, 0u);
    } else if (e.kind != K::kIssue && e.kind != K::kLand) {
      EXPECT_EQ(e.stages, 2u);
      ++staged;
    }
  }
  EXPECT_EQ(staged, 32u * 3 + 32u * 3);
  EXPECT_EQ(b.async_events.size(), 32u * 12 + 16u * 6 + 16u * 4 + 32u * 5 + 32u * 3);
}

// The device writes a call's event a lane at a time (ws_gpu_async.h's NoteAsync: lanes may reach
// a call apart), so a warp's stream holds 32 events of each call, and %globaltimer gives them one
// tick. Each lane's calls are ordered among its own: every thread's wait begins where it began
// (130 ns, 30 from the first event) and ends at 300 (200), whatever the lanes before it wrote. As
// the warp's, lane k's times were pushed k ns later and its wait clamped to start at lane k - 1's
// end: 1 ns long.
TEST(GpuRecords, AsyncCallsWrittenALaneAtATimeKeepEachLanesTimes) {
  using K = ws::AsyncEventKind;
  std::vector<std::uint32_t> w;
  struct Call {
    std::uint32_t call, arg, time, began;
  };
  for (const Call& c :
       {Call{ws::dev::kAsyncPipeStart, 0, 100, 0},
        Call{ws::dev::kAsyncIssue, ws::dev::kCopyGrouped, 110, 0},
        Call{ws::dev::kAsyncCommit, 0, 120, 0}, Call{ws::dev::kAsyncPipeWait, 0, 300, 130}})
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      ws::EncodeAsyncCall(c.call, c.arg, 1u << lane, c.time, c.began, &w);
  const ws::LaunchTrace t = ws::DecodeGpuCapture(OneBlock(32, {w}), {{0}, false});
  ASSERT_EQ(t.blocks.size(), 1u);
  using E = std::vector<std::tuple<K, std::uint32_t, std::uint32_t>>;
  const E each = {{K::kIssue, 0, 10},
                  {K::kCommit, 0, 20},
                  {K::kWaitBegin, 0, 30},
                  {K::kLand, 0, 200},
                  {K::kWaitEnd, 0, 200}};
  for (std::uint32_t thread : {0u, 1u, 17u, 31u})
    EXPECT_EQ(ThreadsAsync(t.blocks[0], thread), each) << thread;
  EXPECT_EQ(t.blocks[0].async_events.size(), 32u * 5);
}

}  // namespace
