// Sites carry their file (a helper header's line cannot merge with the kernel's line of the same
// number) and access records carry their epoch (the barriers their thread had passed), on the
// emulator, in the GPU record decoder and through trace files of both versions.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "places/helper_part.h"
#include "places/kernel_part.h"
#include "warpscope/kernels/emu_backend.h"
#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/lesson_sources.h"
#include "warpscope/trace/trace_file.h"

using ws::Global;
using ws::SharedArray;

namespace {

static_assert(places::kKernelAccessLine == places::kHelperAccessLine,
              "the two accesses must share a line number for this test to mean anything");

// Three barrier intervals: a store before the first barrier (epoch 0), a load and a store
// between them (epoch 1), a load after the second (epoch 2); a loop adds one barrier per turn.
constexpr int kFirst = __LINE__ + 3;  // the line of `s[threadIdx.x] = 1;`
__global__ void threeIntervals(Global<float> out, int turns) {
  __shared__ SharedArray<float, 64> s;
  s[threadIdx.x] = 1;  // epoch 0
  __syncthreads();
  s[threadIdx.x] = s[63 - threadIdx.x];  // epoch 1 (load, then store)
  __syncthreads();
  float v = s[threadIdx.x];  // epoch 2
  for (int k = 0; k < turns; ++k) {
    __syncthreads();
    v += s[(threadIdx.x + k) % 64];  // epochs 3, 4, ...
  }
  out[threadIdx.x] = v;
}

const ws::Dim3 kOneBlock{1, 1, 1}, kTwoBlocks{2, 1, 1}, kOneWarp{32, 1, 1}, kTwoWarps{64, 1, 1};

ws::EmuBackend Backend() {
  ws::RunOptions o;
  o.keep_all_blocks = true;
  return ws::EmuBackend(o, *ws::FindDevicePreset("hopper"));
}

TEST(Places, AHelperInAHeaderIsItsOwnSiteOnTheSameLine) {
  auto b = Backend();
  auto in = b.Alloc<float>("in", 32);
  auto out = b.Alloc<float>("out", 32);
  ASSERT_TRUE(
      WS_LAUNCH_THREADS(b, places::copyThroughHelper, kOneBlock, kOneWarp, 0, out, in).ok());
  const ws::LaunchTrace& t = b.launches().back();
  // Two sites on one line number, told apart by their files' tags.
  ASSERT_EQ(t.sites.size(), 2u);
  std::set<std::uint16_t> tags;
  for (const ws::SiteInfo& s : t.sites) {
    EXPECT_EQ(s.line, static_cast<std::uint32_t>(places::kKernelAccessLine));
    tags.insert(s.file_tag);
  }
  EXPECT_EQ(tags, (std::set<std::uint16_t>{ws::FileTagOf("helper_part.h"),
                                           ws::FileTagOf("kernel_part.h")}));
  for (const ws::SiteInfo& s : t.sites) {
    const bool helper = s.file_tag == ws::FileTagOf("helper_part.h");
    EXPECT_EQ(s.op, helper ? ws::AccessOp::kLoad : ws::AccessOp::kStore);
  }
  // Each site saw one request of the warp: 32 lanes, 4 sectors of consecutive floats.
  for (const ws::SiteStats& st : t.stats.sites) {
    EXPECT_EQ(st.requests, 1u);
    EXPECT_EQ(st.sectors, 4u);
  }
}

TEST(Places, EveryEmbeddedLessonSourceHasItsOwnTag) {
  // Two files with one tag would merge their sites: no shipped pair may (nor tag 0, "unknown").
  std::map<std::uint16_t, std::string> seen;
  for (const ws::lesson_sources::File& f : ws::lesson_sources::Files()) {
    const std::uint16_t tag = ws::FileTagOf(std::string(f.name));
    EXPECT_NE(tag, 0u) << f.name;
    const auto [it, fresh] = seen.emplace(tag, std::string(f.name));
    EXPECT_TRUE(fresh) << f.name << " and " << it->second << " share tag " << tag;
  }
  EXPECT_GE(seen.size(), 18u);  // a kernel file per kernel lesson
}

// A bulk copy's two sides (ws_cuda_keys.h): op 3 in the spaces no other op-3 key has, read back
// as a global load and a shared store of the same place, array and size; only the write is an
// asynchronous copy's write, and a cp.async write (op 3, shared) is no bulk copy.
TEST(Places, ABulkCopysKeysReadBackAsAGlobalLoadAndASharedStore) {
  using namespace ws;
  const std::uint32_t place = MakePlace(0x1234, 77);
  const std::uint64_t read = BulkCopyKey(MakeSiteKey(place, kKeyGlobal, kKeyLoad, 16, 5));
  const std::uint64_t write = BulkCopyKey(MakeSiteKey(place, kKeyShared, kKeyStore, 32, 0x40));
  EXPECT_EQ(KeySpaceOf(read), std::uint32_t{kKeyGlobal});
  EXPECT_EQ(KeyOpOf(read), std::uint32_t{kKeyLoad});
  EXPECT_EQ(KeySpaceOf(write), std::uint32_t{kKeyShared});
  EXPECT_EQ(KeyOpOf(write), std::uint32_t{kKeyStore});
  EXPECT_TRUE(KeyIsBulkCopy(read) && KeyIsBulkCopy(write));
  EXPECT_FALSE(KeyIsAsyncCopy(read));
  EXPECT_TRUE(KeyIsAsyncCopy(write));
  EXPECT_EQ(KeyPlace(read), place);
  EXPECT_EQ(KeyArray(read), 5u);
  EXPECT_EQ(KeyArray(write), 0x40u);
  EXPECT_EQ(KeySize(write), 32u);
  const std::uint64_t ldgsts = MakeSiteKey(place, kKeyShared, kKeyStore, 16, 0x40) | kKeyAsyncCopy;
  EXPECT_TRUE(KeyIsAsyncCopy(ldgsts));
  EXPECT_FALSE(KeyIsBulkCopy(ldgsts));
  EXPECT_EQ(KeySpaceOf(ldgsts), std::uint32_t{kKeyShared});
}

TEST(Places, FileTagsHashTheBaseNameOnly) {
  EXPECT_EQ(ws::FileTag("/a/b/transpose.cuh"), ws::FileTag("transpose.cuh"));
  EXPECT_EQ(ws::FileTag("C:\\lessons\\transpose.cuh"), ws::FileTag("transpose.cuh"));
  EXPECT_NE(ws::FileTag("transpose.cuh"), ws::FileTag("reduce.cuh"));
  EXPECT_EQ(ws::FileTagOf(""), 0u);
  // A place keeps 16 bits of line; past that it saturates rather than wrapping into the tag.
  EXPECT_EQ(ws::PlaceLine(ws::MakePlace(7, 70000)), 65535u);
  EXPECT_EQ(ws::PlaceFile(ws::MakePlace(7, 70000)), 7u);
  const std::uint64_t key =
      ws::MakeSiteKey(ws::MakePlace(0xbeef, 42), ws::kKeyShared, ws::kKeyStore, 8, 3);
  EXPECT_EQ(ws::KeyLine(key), 42u);
  EXPECT_EQ(ws::KeyFile(key), 0xbeefu);
  EXPECT_EQ(ws::KeyArray(key), 3u);
  EXPECT_EQ(key & 0xf00u, 0u);  // bits 8..11 stay free for the GPU event flags
}

// (site op, epoch) -> how many records; the sites are told apart by their (space, op) and line.
std::map<std::pair<std::uint32_t, std::uint32_t>, int> EpochsByLine(const ws::LaunchTrace& t) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> m;
  for (const ws::BlockRecords& b : t.blocks)
    for (const ws::AccessRecord& a : b.accesses) ++m[{t.sites[a.site].line, a.epoch}];
  return m;
}

TEST(Places, EmulatorAccessesCarryTheirEpoch) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 64);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, threeIntervals, kOneBlock, kTwoWarps, 0, out, 2).ok());
  const ws::LaunchTrace& t = b.launches().back();
  const auto m = EpochsByLine(t);
  const auto at = [&](int line, std::uint32_t epoch) {
    auto it = m.find({static_cast<std::uint32_t>(line), epoch});
    return it == m.end() ? 0 : it->second;
  };
  EXPECT_EQ(at(kFirst, 0), 64);       // the first store, before any barrier
  EXPECT_EQ(at(kFirst + 2, 1), 128);  // load and store between the two barriers
  EXPECT_EQ(at(kFirst + 4, 2), 64);   // after the second
  EXPECT_EQ(at(kFirst + 7, 3), 64);   // the loop's first turn, after the third barrier
  EXPECT_EQ(at(kFirst + 7, 4), 64);   // its second turn
  EXPECT_EQ(at(kFirst + 9, 4), 64);   // the global store, in the last interval
  EXPECT_EQ(m.size(), 6u);            // nothing in any other (line, epoch)
  // The barrier table names the barriers' file as well as their lines.
  ASSERT_EQ(t.barrier_sites.size(), 3u);
  EXPECT_EQ(t.barrier_sites[0].line, static_cast<std::uint32_t>(kFirst + 1));
  EXPECT_EQ(t.barrier_sites[0].file_tag, ws::FileTagOf("places_test.cpp"));
}

TEST(Places, TheGpuDecoderCountsBarrierEventsPerLane) {
  // One warp of 32 threads: an access by all lanes, a barrier passed by lanes 0-15 and then by
  // lanes 16-31 (two events: they left the barrier apart), and an access by all lanes again.
  ws::GpuCapture c;
  c.kernel = "k";
  c.grid = {1, 1, 1};
  c.block = {32, 1, 1};
  c.buffers = {{"out", 128, 1u << 20}};
  // The GPU tags files by their literal's address (here 0x1234) and the runner names them.
  c.device_files = {{0x1234, "k.cu"}};
  const std::uint32_t place = ws::MakePlace(0x1234, 20);
  const std::uint64_t key =
      ws::MakeSiteKey(ws::MakePlace(0x1234, 21), ws::kKeyGlobal, ws::kKeyStore, 4, 0);
  std::vector<std::uint32_t> lanes(32);
  for (std::uint32_t k = 0; k < 32; ++k) lanes[k] = 4 * k;
  ws::EncodeWarpEvent(key, ~0u, 100, lanes, &c.words);
  ws::EncodeBarrierEvent(place, 0x0000ffffu, 105, 110, 0, 5, &c.words);
  ws::EncodeBarrierEvent(place, 0xffff0000u, 105, 111, 0, 6, &c.words);
  ws::EncodeWarpEvent(key, ~0u, 120, lanes, &c.words);
  c.warp_base = {0, c.words.size()};
  c.warp_used = {c.words.size()};
  const ws::LaunchTrace t = ws::DecodeGpuCapture(c, {{0}, false});
  ASSERT_EQ(t.sites.size(), 1u);  // barrier events are not access sites
  EXPECT_EQ(t.sites[0].file_tag, ws::FileTagOf("k.cu"));
  EXPECT_EQ(t.sites[0].line, 21u);
  ASSERT_EQ(t.blocks.size(), 1u);
  ASSERT_EQ(t.blocks[0].accesses.size(), 64u);
  std::map<std::uint32_t, int> per_epoch;
  for (const ws::AccessRecord& a : t.blocks[0].accesses) {
    ++per_epoch[a.epoch];
    EXPECT_EQ(a.epoch, a.iteration) << "thread " << a.thread;  // 2nd run of the site: epoch 1
  }
  EXPECT_EQ(per_epoch, (std::map<std::uint32_t, int>{{0, 32}, {1, 32}}));
  EXPECT_EQ(t.stats.sites[0].requests, 2u);
  ASSERT_EQ(t.barrier_sites.size(), 1u);  // retagged like the sites
  EXPECT_EQ(t.barrier_sites[0].file_tag, ws::FileTagOf("k.cu"));
  EXPECT_EQ(t.barrier_sites[0].line, 20u);
}

TEST(Places, EpochsSurviveATraceFileAndAreCountedForVersionOne) {
  auto b = Backend();
  auto out = b.Alloc<float>("out", 64);
  ASSERT_TRUE(WS_LAUNCH_THREADS(b, threeIntervals, kTwoBlocks, kTwoWarps, 0, out, 3).ok());
  ws::TraceContents c;
  c.launches.push_back(b.launches().back());
  const auto bytes = ws::SerializeTrace(c);
  auto back = ws::ParseTrace(bytes);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const ws::LaunchTrace& t = back->launches.at(0);
  ASSERT_EQ(t.blocks.size(), 2u);
  for (std::size_t k = 0; k < t.blocks.size(); ++k) {
    const auto& want = c.launches[0].blocks[k].accesses;
    const auto& got = t.blocks[k].accesses;
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].epoch, want[i].epoch);
  }
  EXPECT_EQ(t.sites[0].file, c.launches[0].sites[0].file);
}

TEST(Places, VersionOneTracesGetTheirEpochsFromTheBarrierTimes) {
  // The shipped barrier trace predates epochs. barrier.cuh's unevenWork loads out[t] before its
  // one __syncthreads() and stores after it: every load is in epoch 0, every store in epoch 1.
  auto r = ws::ReadTraceFile(std::string(WARPSCOPE_SOURCE_DIR) +
                             "/assets/traces/barrier-uneven.wstrace");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const ws::LaunchTrace& t = r->launches.at(0);
  ASSERT_FALSE(t.blocks.empty());
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  int loads = 0, stores = 0;
  for (const ws::AccessRecord& a : t.blocks[0].accesses) {
    const bool store = t.sites[a.site].op == ws::AccessOp::kStore;
    EXPECT_EQ(a.epoch, store ? 1u : 0u) << "thread " << a.thread;
    ++(store ? stores : loads);
  }
  EXPECT_EQ(loads, static_cast<int>(t.block.count()));
  EXPECT_EQ(stores, static_cast<int>(t.block.count()));
}

}  // namespace
