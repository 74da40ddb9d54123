// The emulator on small kernels written here: barriers, errors, limits, determinism.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <set>

#include "emu/warp_meeting.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/emu_backend.h"

using ws::Global;
using ws::SharedArray;

namespace {

constexpr int kDivergentLine = __LINE__ + 3;
__global__ void divergentBarrier(Global<float> out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

constexpr int kEvenLine = __LINE__ + 3;
__global__ void twoBarriers(Global<float> out) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 2;
}

__global__ void earlyExit(Global<float> out, int n) {
  if (threadIdx.x >= static_cast<unsigned>(n)) return;
  __syncthreads();
  out[threadIdx.x] = 3;
}

constexpr int kOutOfBoundsLine = __LINE__ + 2;
__global__ void outOfBounds(Global<float> out) {
  out[threadIdx.x + 1] = 4;
}

__global__ void unevenWork(Global<float> out) {
  ws::emu::AddWork(threadIdx.x * 10);  // thread t works 10 t units before the barrier
  __syncthreads();
  out[threadIdx.x] = 5;
}

__global__ void loopStores(Global<float> out) {
  for (int i = 0; i < 3; ++i) out[threadIdx.x + i * blockDim.x] = static_cast<float>(i);
}

__global__ void twoSharedArrays(Global<float> out) {
  __shared__ SharedArray<float, 64> a;
  __shared__ SharedArray<float, 64> b;
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] = a[63 - threadIdx.x] + b[threadIdx.x];
}

__global__ void tooMuchShared(Global<float> out) {
  __shared__ SharedArray<float, 16384> big;  // 64 KB, over the 48 KB static limit
  big[threadIdx.x] = 1;
  out[threadIdx.x] = big[threadIdx.x];
}

__global__ void histogram(Global<int> bins) {
  atomicAdd(&bins[threadIdx.x % 4], 1);
}

__global__ void readOnlySpaces(Global<float> out, ws::Constant<float> coeff,
                               ws::Texture2D<float> image) {
  int x = threadIdx.x;
  out[x] = coeff[0] * ws::tex2D(image, x, 1) + coeff[x % 4];
}

ws::EmuBackend Backend(unsigned workers = 0) {
  ws::RunOptions o;
  o.workers = workers;
  o.keep_all_blocks = true;
  return ws::EmuBackend(o, *ws::FindDevicePreset("hopper"));
}

const ws::Dim3 kOneWarp{32, 1, 1}, kOneBlock{1, 1, 1};

TEST(Emulator, BarrierInsideAnIfIsAnErrorNamingLineAndThreads) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Status s = WS_LAUNCH_THREADS(b, divergentBarrier, kOneBlock, kOneWarp, 0, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("threads 0-15 wait at __syncthreads() on line " +
                             std::to_string(kDivergentLine)),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("threads 16-31 exited without reaching it"), std::string::npos)
      << s.message();
}

TEST(Emulator, ThreadsAtTwoDifferentBarriersAreNamed) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Status s = WS_LAUNCH_THREADS(b, twoBarriers, kOneBlock, kOneWarp, 0, out);
  ASSERT_FALSE(s.ok());
  // Even threads wait on the first line, odd ones two lines below.
  EXPECT_NE(s.message().find("on line " + std::to_string(kEvenLine)), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("on line " + std::to_string(kEvenLine + 2)), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("threads 0, 2, 4"), std::string::npos) << s.message();
}

TEST(Emulator, EarlyReturnBeforeABarrierIsAnError) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Status s = WS_LAUNCH_THREADS(b, earlyExit, kOneBlock, kOneWarp, 0, out, 20);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("threads 20-31 exited without reaching it"), std::string::npos)
      << s.message();
  // When every thread reaches it, the same kernel runs.
  EXPECT_TRUE(WS_LAUNCH_THREADS(b, earlyExit, kOneBlock, kOneWarp, 0, out, 32).ok());
}

TEST(Emulator, OutOfRangeIndexStopsTheLaunchWithLineAndThread) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Status s = WS_LAUNCH_THREADS(b, outOfBounds, kOneBlock, kOneWarp, 0, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("line " + std::to_string(kOutOfBoundsLine) +
                             ": index 32 is outside the global array of 32 elements"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("thread (31,0,0) of block (0,0,0)"), std::string::npos) << s.message();
}

TEST(Emulator, LaunchLimitsAreCheckedBeforeRunning) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 4096);
  ws::Status s = WS_LAUNCH_THREADS(b, loopStores, kOneBlock, (ws::Dim3{2048, 1, 1}), 0, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("a block of 2048 threads"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("limit of 1024 threads per block"), std::string::npos) << s.message();
  s = WS_LAUNCH_THREADS(b, loopStores, (ws::Dim3{1, 70000, 1}), kOneWarp, 0, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("grid.y = 70000 is over the limit of 65535"), std::string::npos)
      << s.message();
  s = WS_LAUNCH_THREADS(b, loopStores, kOneBlock, kOneWarp, 50000, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("50000 bytes of shared memory per block are over the limit of 49152"),
            std::string::npos)
      << s.message();
  EXPECT_TRUE(b.launches().empty());  // nothing ran
}

TEST(Emulator, SharedArraysOverTheLimitAreCaughtWhenPlaced) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Status s = WS_LAUNCH_THREADS(b, tooMuchShared, kOneBlock, kOneWarp, 0, out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("need 65536 bytes per block, over the limit of 49152"),
            std::string::npos)
      << s.message();
}

TEST(Emulator, BarrierSkewAndWaitFollowTheWork) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, unevenWork, kOneBlock, kOneWarp, 0, out).ok());
  const ws::LaunchTrace& t = b.launches().back();
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  // Thread t arrives at 10 t; the last (t = 31) at 310, so the skew is 310 and everyone leaves at
  // 310. Mean wait = mean(310 - 10 t) = 310 - 10 * 15.5 = 155.
  EXPECT_EQ(t.stats.barriers[0].instances, 1u);
  EXPECT_EQ(t.stats.barriers[0].max_skew, 310u);
  EXPECT_DOUBLE_EQ(t.stats.barriers[0].MeanWait(), 155.0);
  ASSERT_EQ(t.blocks.size(), 1u);
  ASSERT_EQ(t.blocks[0].barriers.size(), 32u);
  for (const ws::BarrierRecord& r : t.blocks[0].barriers) {
    EXPECT_EQ(r.arrival, r.thread * 10u);
    EXPECT_EQ(r.departure, 310u);
  }
}

TEST(Emulator, LoopIterationsAreSeparateRequests) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 3 * 64);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, loopStores, kOneBlock, (ws::Dim3{64, 1, 1}), 0, out).ok());
  const ws::LaunchTrace& t = b.launches().back();
  ASSERT_EQ(t.sites.size(), 1u);  // one source line, one site
  // 2 warps x 3 iterations = 6 requests, each 32 consecutive floats = 4 sectors.
  EXPECT_EQ(t.stats.sites[0].requests, 6u);
  EXPECT_EQ(t.stats.sites[0].sectors, 24u);
  auto v = b.Download(out);
  EXPECT_EQ(v[2 * 64 + 5], 2.0f);
}

TEST(Emulator, TwoSharedArraysAreTwoArraysWithTheirOwnSites) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 64);
  ASSERT_TRUE(
      WS_LAUNCH_THREADS(b, twoSharedArrays, kOneBlock, (ws::Dim3{64, 1, 1}), 512, out).ok());
  const ws::LaunchTrace& t = b.launches().back();
  int shared_loads = 0;
  std::set<int> arrays;
  for (const auto& s : t.sites) {
    if (s.space == ws::MemorySpace::kShared) arrays.insert(s.buffer);
    if (s.space == ws::MemorySpace::kShared && s.op == ws::AccessOp::kLoad) ++shared_loads;
  }
  EXPECT_EQ(arrays, (std::set<int>{0, 1}));
  EXPECT_EQ(shared_loads, 2);  // a[...] and b[...] on one line stay two sites
  auto v = b.Download(out);
  EXPECT_EQ(v[0], 3.0f);
}

TEST(Emulator, AtomicsRecordTheirConflicts) {
  auto b = Backend();
  auto bins = b.Alloc<int>("bins", 4);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, histogram, (ws::Dim3{8, 1, 1}), kOneWarp, 0, bins).ok());
  const ws::LaunchTrace& t = b.launches().back();
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.sites[0].op, ws::AccessOp::kAtomic);
  EXPECT_EQ(t.stats.sites[0].atomic_conflict_max, 8u);  // 32 lanes on 4 bins: 8 per address
  EXPECT_EQ(b.Download(bins), (std::vector<int>{64, 64, 64, 64}));  // 8 blocks x 8 each
}

TEST(Emulator, ConstantAndTextureAccessesAreRecordedInTheirSpaces) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 32);
  ws::Global<const float> coeff = b.Upload<float>("coeff", {2, 1, 1, 1});
  std::vector<float> pixels(16 * 4);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i);
  ws::Global<const float> img = b.Upload<float>("image", pixels);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, readOnlySpaces, kOneBlock, kOneWarp, 0, out,
                                ws::Constant<float>(coeff), ws::Texture2D<float>(img, 16, 4))
                  .ok());
  const ws::LaunchTrace& t = b.launches().back();
  int constant = 0, texture = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space == ws::MemorySpace::kConstant) {
      ++constant;
      // coeff[0] and coeff[x % 4] read one array on one line: one site (line, space, op, array),
      // whose two reads per thread are two requests (iterations 0 and 1).
      EXPECT_EQ(t.stats.sites[i].requests, 2u);
      EXPECT_EQ(t.stats.sites[i].accesses, 64u);
    }
    if (t.sites[i].space == ws::MemorySpace::kTexture) {
      ++texture;
      // Row 1 of a 16-wide float image, x clamped to 15 for lanes 16-31: bytes 64..127 = 2 sectors.
      EXPECT_EQ(t.stats.sites[i].sectors, 2u);
    }
  }
  EXPECT_EQ(constant, 1);
  EXPECT_EQ(texture, 1);
  auto v = b.Download(out);
  EXPECT_EQ(v[3], 2.0f * (16 + 3) + 1.0f);    // 2 * texel (3, 1) + coeff[3]
  EXPECT_EQ(v[20], 2.0f * (16 + 15) + 2.0f);  // x clamped to 15; coeff[0]
}

std::vector<std::uint8_t> Bytes(const ws::LaunchTrace& t) {
  std::vector<std::uint8_t> out;
  for (const auto& blk : t.blocks) {
    const auto* a = reinterpret_cast<const std::uint8_t*>(blk.accesses.data());
    out.insert(out.end(), a, a + blk.accesses.size() * sizeof(ws::AccessRecord));
    for (const auto& r : blk.barriers) {
      const auto* p = reinterpret_cast<const std::uint8_t*>(&r);
      out.insert(out.end(), p, p + sizeof r);
    }
  }
  for (const auto& s : t.stats.sites) {
    for (std::uint64_t v :
         {s.requests, s.sectors, s.wavefronts, s.cc12_transactions, s.bank_conflict_sum}) {
      const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
      out.insert(out.end(), p, p + 8);
    }
  }
  return out;
}

TEST(Emulator, SameLaunchSameTraceByteForByteWhateverTheWorkers) {
  std::vector<std::vector<std::uint8_t>> traces;
  for (unsigned workers : {1u, 2u, 3u, 2u}) {
    ws::RunOptions o;
    o.workers = workers;
    o.keep_all_blocks = true;
    auto run = ws::RunLesson("transpose", "coalesced",
                             {{"width", 128}, {"height", 96}, {"tile", 16}}, "emu", o);
    ASSERT_TRUE(run.ok()) << run.status().message();
    traces.push_back(Bytes(run->main_launch()));
  }
  ASSERT_GT(traces[0].size(), 100000u);  // 12288 threads x 4 accesses x 20 bytes, and more
  for (std::size_t i = 1; i < traces.size(); ++i)
    EXPECT_TRUE(traces[i] == traces[0]) << "run " << i;
}

// texture-2d's cache figures are every block's reads, replayed as the blocks end (each worker
// hands its blocks in as they finish): the same counts, for any number of workers, as replaying a
// trace with every block kept after the run. Blur, 96 x 80 in 8 x 8 blocks: 12 x 10 = 120 blocks,
// 16 to a multiprocessor (1,024 / 64 threads), so 8 groups, the last of 8 blocks.
TEST(Emulator, TheCacheReplayCoversEveryBlockWhateverTheWorkers) {
  const ws::Params params{{"pattern", 0}, {"width", 96}, {"height", 80}, {"block", 8}};
  std::vector<nlohmann::json> costs;
  for (unsigned workers : {1u, 2u, 3u}) {
    ws::RunOptions o;
    o.workers = workers;
    auto run = ws::RunLesson("texture-2d", "texture", params, "emu", o);
    ASSERT_TRUE(run.ok()) << run.status().message();
    EXPECT_EQ(run->metrics().at("replayed_blocks").get<int>(), 120);
    EXPECT_EQ(run->metrics().at("blocks_together").get<int>(), 16);
    costs.push_back(run->metrics().at("costs"));
  }
  EXPECT_EQ(costs[1], costs[0]);
  EXPECT_EQ(costs[2], costs[0]);
  // Every block kept, replayed after the run through the same probe (row-major, 8 KB).
  ws::RunOptions all;
  all.keep_all_blocks = true;
  auto kept = ws::RunLesson("texture-2d", "global", params, "emu", all);
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  const ws::LaunchTrace& t = kept->main_launch();
  ASSERT_EQ(t.blocks.size(), 120u);
  ws::ReplayChoice loads;  // the global variant reads only the image
  const ws::CacheCounts after = ws::ReplayLoads(t, ws::CacheConfig{}, loads);
  ASSERT_EQ(t.cache_replays.size(), 3u);
  EXPECT_EQ(t.cache_replays[0], after);  // row-major, the global variant's own layout
  // Every request: 8 x 8 blocks make warps of 4 rows x 8 pixels, 9 reads each; 2 warps a block.
  EXPECT_EQ(after.requests, 120u * 2 * 9);
  EXPECT_EQ(after.blocks, 120u);
  for (const auto& c : costs[0]) {
    if (c.at("layout") == "row-major") {
      EXPECT_EQ(c.at("requests").get<std::uint64_t>(), 2160u);
    }
  }
}

}  // namespace

namespace {

// A meeting of part of a warp: lanes 0-7 take part, lanes 1 and 6 vote yes (votes 0x42).
TEST(WarpMeeting, VotesCountOnlyTheLanesThatMet) {
  ws::emu::WarpLane lanes[32];
  for (int l = 0; l < 32; ++l) lanes[l] = {l == 1 || l == 6 || l == 20 ? 1u : 0u, 0xffu, 4, 32};
  const auto ballot = ws::emu::MeetWarp(ws::WarpOpKind::kBallot, 0xffu, lanes);
  EXPECT_EQ(ballot.result[0], 0x42u);  // lane 20 voted yes but did not meet
  EXPECT_EQ(ws::emu::MeetWarp(ws::WarpOpKind::kAll, 0xffu, lanes).result[3], 0u);
  EXPECT_EQ(ws::emu::MeetWarp(ws::WarpOpKind::kAny, 0xffu, lanes).result[3], 1u);
  // Down 4 in a group of 8: lanes 0-3 read 4-7; lanes 4-7 would read 8-11, not in the group, so
  // they keep their own value.
  for (int l = 0; l < 32; ++l) lanes[l].value = 100 + l;
  const auto down = ws::emu::MeetWarp(ws::WarpOpKind::kShflDown, 0xffu, lanes);
  EXPECT_EQ(down.source[2], 6);
  EXPECT_EQ(down.result[2], 106u);
  EXPECT_EQ(down.source[5], 5);
  EXPECT_EQ(down.result[5], 105u);
}

}  // namespace
