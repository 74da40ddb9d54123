// The rest of the catalogue on the emulator: each lesson's figures against the seeds' slides and
// hand calculations.
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

LessonRun Lesson(const std::string& id, const std::string& variant, Params p = {}) {
  auto r = RunLesson(id, variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return {};
  EXPECT_TRUE(r->check.ok) << r->check.message;
  return std::move(r).value();
}

SiteStats FirstSite(const LessonRun& r, AccessOp op) {
  const LaunchTrace& t = r.main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].op == op && t.sites[i].space == MemorySpace::kGlobal) return t.stats.sites[i];
  }
  ADD_FAILURE() << "no global site with that op";
  return {};
}

TEST(VecAdd, ChunkedIsNotCoalescedInterleavedIs) {
  // 4 values per thread: neighbours are 16 B apart, a warp's load spans 512 B = 16 sectors for
  // 128 B of data (4 sectors). Interleaved: 32 consecutive floats, 4 sectors.
  LessonRun c = Lesson("vecadd", "chunked", {{"values_per_thread", 4}});
  EXPECT_DOUBLE_EQ(FirstSite(c, AccessOp::kLoad).SectorsPerRequest(), 16.0);
  EXPECT_DOUBLE_EQ(c.metrics()["load_sectors_per_request"].get<double>(), 16.0);
  LessonRun i = Lesson("vecadd", "interleaved", {{"values_per_thread", 4}});
  EXPECT_DOUBLE_EQ(FirstSite(i, AccessOp::kLoad).SectorsPerRequest(), 4.0);
  // 32 blocks x 128 threads / 32 = 128 warps, 4 loads of A each: 512 requests on A's site.
  EXPECT_EQ(FirstSite(i, AccessOp::kLoad).requests, 512u);
  // From 8 values per thread the 32 lanes are 32 B apart: one sector each.
  EXPECT_DOUBLE_EQ(
      FirstSite(Lesson("vecadd", "chunked", {{"values_per_thread", 8}}), AccessOp::kLoad)
          .SectorsPerRequest(),
      32.0);
}

TEST(Picture, TextbookFigureNumbers) {
  // 76 x 62 pixels in 16 x 16 blocks: a 5 x 4 grid of 80 x 64 = 5120 threads, 4712 with a pixel.
  LessonRun r = Lesson("picture", "picture");
  EXPECT_EQ(r.metrics()["active_threads"], 4712);
  EXPECT_EQ(r.metrics()["idle_threads"], 408);
  // Row-major over blocks: inside 16 x 16, right column 12 x 16, bottom row 16 x 14, corner 12
  // x 14.
  std::vector<int> want;
  for (int by = 0; by < 4; ++by) {
    for (int bx = 0; bx < 5; ++bx) want.push_back((bx == 4 ? 12 : 16) * (by == 3 ? 14 : 16));
  }
  EXPECT_EQ(r.metrics()["active_per_block"].get<std::vector<int>>(), want);
  EXPECT_EQ(r.metrics()["regions"]["inside"], 12);
  EXPECT_EQ(r.metrics()["regions"]["right_edge"], 3);
  EXPECT_EQ(r.metrics()["regions"]["bottom_edge"], 4);
  EXPECT_EQ(r.metrics()["regions"]["corner"], 1);
}

TEST(Barrier, TheFirstThreadWaitsForTheLast) {
  // Thread t loads (clock 1), works 10 t, arrives at 1 + 10 t; all leave at 1 + 310. Thread 0
  // waits (32 - 1) x 10 = 310 units.
  LessonRun r = Lesson("barrier", "uneven", {{"threads", 32}, {"skew", 10}});
  EXPECT_EQ(r.metrics()["max_wait"], 310);
  EXPECT_EQ(r.metrics()["max_skew"], 310);
  LessonRun flat = Lesson("barrier", "uneven", {{"threads", 64}, {"skew", 0}});
  EXPECT_EQ(flat.metrics()["max_wait"], 0);
}

TEST(Barrier, DivergentBarrierIsAnErrorWithLineAndThreads) {
  auto r = RunLesson("barrier", "divergent-barrier", {{"threads", 32}}, "emu", RunOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("threads 0-15 wait at __syncthreads() on line 24"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("threads 16-31 exited without reaching it"),
            std::string::npos);
}

TEST(Divergence, ByThreadSplitsOneWarpPerBlockByWarpNone) {
  LessonRun t = Lesson("divergence", "by-thread", {{"threads", 256}, {"blocks", 4}});
  EXPECT_EQ(t.metrics()["divergent_warps"], 4);  // warp 0 of each of the 4 blocks
  LessonRun w = Lesson("divergence", "by-warp", {{"threads", 256}, {"blocks", 4}});
  EXPECT_EQ(w.metrics()["divergent_warps"], 0);
}

TEST(Constant, BroadcastIsOneReadSerializedIsThirtyTwo) {
  EXPECT_EQ(Lesson("constant", "broadcast").metrics()["serialized_reads_max"], 1);
  EXPECT_EQ(Lesson("constant", "serialized").metrics()["serialized_reads_max"], 32);
}

TEST(Atomics, ConflictDegreeRunsFromThirtyTwoToOne) {
  // Element i goes to bin i % bins: 32 / bins lanes of a warp per bin.
  for (auto [bins, degree] :
       std::vector<std::pair<int, int>>{{1, 32}, {2, 16}, {8, 4}, {32, 1}, {100, 1}}) {
    LessonRun r = Lesson("atomics", "histogram", {{"bins", bins}});
    EXPECT_EQ(r.metrics()["conflict_degree_max"], degree) << bins << " bins";
    // 8 blocks x 256 threads = 64 warp requests, all of that degree.
    EXPECT_EQ(r.metrics()["conflict_degree_hist"][static_cast<std::size_t>(degree)], 64)
        << bins << " bins";
  }
}

TEST(Reverse, StaticAndDynamicAgree) {
  LessonRun s = Lesson("reverse", "static", {{"n", 64}});
  LessonRun d = Lesson("reverse", "dynamic", {{"n", 64}});
  EXPECT_EQ(s.metrics()["shared_bytes"], 4096);  // int s[1024]
  EXPECT_EQ(d.metrics()["shared_bytes"], 256);   // n * sizeof(int)
  // The same accesses: 2 warps each store, sync, load.
  EXPECT_EQ(s.main_launch().stats.access_records, d.main_launch().stats.access_records);
}

TEST(Matmul, TilingCutsGlobalLoadsByTheTileWidth) {
  const Params p = {{"width", 64}, {"tile", 16}};
  LessonRun n = Lesson("matmul", "naive", p);
  LessonRun t = Lesson("matmul", "tiled", p);
  LessonRun q = Lesson("matmul", "tiled-2x2", p);
  // Naive: 2 x Width = 128 loads per thread; 64^2 threads -> 2 W^3 = 524288 loads in all.
  EXPECT_DOUBLE_EQ(n.metrics()["global_loads_per_thread"].get<double>(), 128.0);
  EXPECT_EQ(n.metrics()["global_load_elements"], 524288);
  // Tiled: 2 W / t = 8 per thread, the slides' factor of 16; 2 KB of shared memory per block;
  // 2 barriers per tile x 4 tiles.
  EXPECT_DOUBLE_EQ(t.metrics()["global_loads_per_thread"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(t.metrics()["reduction_factor"].get<double>(), 16.0);
  EXPECT_EQ(t.metrics()["shared_bytes_per_block"], 2048);
  EXPECT_DOUBLE_EQ(t.metrics()["barriers_per_thread"].get<double>(), 8.0);
  // The CSU count m k n (b_r + b_c) / (b_r b_c) = 64^3 x 32 / 256 = 32768 = the loads made.
  EXPECT_DOUBLE_EQ(t.metrics()["communication"].get<double>(), 32768.0);
  EXPECT_EQ(t.metrics()["global_load_elements"], 32768);
  // 2x2: b_r = b_c = 32: half again (16384), 4 P elements and 16 loads per thread.
  EXPECT_EQ(q.metrics()["global_load_elements"], 16384);
  EXPECT_DOUBLE_EQ(q.metrics()["communication"].get<double>(), 16384.0);
  EXPECT_DOUBLE_EQ(q.metrics()["p_elements_per_thread"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(q.metrics()["reduction_factor"].get<double>(), 32.0);
  // 8 KB of shared memory per block at tile 32.
  EXPECT_EQ(
      Lesson("matmul", "tiled", {{"width", 64}, {"tile", 32}}).metrics()["shared_bytes_per_block"],
      8192);
}

TEST(Matmul, SizesThatDoNotFitAreRefused) {
  auto r = RunLesson("matmul", "tiled-2x2", {{"width", 48}, {"tile", 16}}, "emu", RunOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "matmul: width 48 must be a multiple of 32 for tiled-2x2 with tile 16");
  EXPECT_TRUE(
      RunLesson("matmul", "naive", {{"width", 48}, {"tile", 16}}, "emu", RunOptions{}).ok());
}

TEST(Texture2D, FetchesAreRecordedAtTheLayoutsAddresses) {
  // A 32 x 8 image read by 8 x 8 blocks (warps of 8 x 4 pixels). Row-major: the fetch at
  // (dx, dy) = (0, 0) of warp 0 covers rows 0-3, x 0-7: 4 rows x 32 B = 4 sectors.
  LessonRun rm =
      Lesson("texture-2d", "texture", {{"width", 32}, {"height", 8}, {"block", 8}, {"layout", 0}});
  LessonRun mo =
      Lesson("texture-2d", "texture", {{"width", 32}, {"height", 8}, {"block", 8}, {"layout", 1}});
  LessonRun gl = Lesson("texture-2d", "global", {{"width", 32}, {"height", 8}, {"block", 8}});
  EXPECT_EQ(rm.metrics()["read_space"], "texture");
  EXPECT_EQ(gl.metrics()["read_space"], "global");
  // Row-major texture addresses equal the global kernel's: same sectors.
  EXPECT_DOUBLE_EQ(rm.metrics()["read_sectors_per_request"].get<double>(),
                   gl.metrics()["read_sectors_per_request"].get<double>());
  // Under Morton the same fetches land elsewhere, so the count differs.
  EXPECT_NE(mo.metrics()["read_sectors_per_request"].get<double>(),
            rm.metrics()["read_sectors_per_request"].get<double>());
  auto bad =
      RunLesson("texture-2d", "texture", {{"layout", 2}, {"micro_width", 3}}, "emu", RunOptions{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "texture-2d: micro tile 3x2 must divide the tile 8x8");
}

TEST(Occupancy, TheSlidesG80ExampleThroughTheLesson) {
  LessonRun r =
      Lesson("occupancy", "calculator");  // defaults: 192 threads, 20 registers, 68 B, cc1.0
  EXPECT_EQ(r.metrics()["active_blocks"], 2);
  EXPECT_EQ(r.metrics()["active_warps"], 12);
  EXPECT_EQ(r.metrics()["active_threads"], 384);
  EXPECT_DOUBLE_EQ(r.metrics()["occupancy"].get<double>(), 0.5);
  EXPECT_EQ(r.metrics()["limiter"], "registers");
  EXPECT_EQ(r.metrics()["blocks_per_gpu"],
            32);  // the slide's "Maximum Simultaneous Blocks per GPU"
  EXPECT_GE(r.metrics()["vary_threads"].size(), 16u);
  EXPECT_FALSE(r.has_launch());
}

TEST(Catalogue, ListsEveryLessonOfTheIssue) {
  std::vector<std::string> ids;
  for (const LessonInfo& l : Lessons()) ids.push_back(l.id);
  for (const char* id :
       {"vecadd", "offset-copy", "stride-copy", "bank-stride", "transpose", "matmul", "picture",
        "barrier", "divergence", "constant", "atomics", "reverse", "texture-2d", "occupancy"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
}

}  // namespace
}  // namespace ws
