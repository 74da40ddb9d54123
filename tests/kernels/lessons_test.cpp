// The lessons' figures on the emulator, against the seeds' slides and hand calculations.
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

LessonRun RunEmu(const std::string& lesson, const std::string& variant, Params p = {}) {
  auto r = RunLesson(lesson, variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->check.ok) << r->check.message;
  return std::move(r).value();
}

// The stats of the site with this space and op (the lessons have one each on their hot line).
SiteStats Site(const LessonRun& r, MemorySpace space, AccessOp op, std::uint32_t min_line = 0) {
  const LaunchTrace& t = r.main_launch();
  for (std::size_t i = t.sites.size(); i-- > 0;) {
    if (t.sites[i].space == space && t.sites[i].op == op && t.sites[i].line >= min_line)
      return t.stats.sites[i];
  }
  ADD_FAILURE() << "no such site";
  return {};
}

TEST(BankStride, SlidesExamples) {
  // The slides: stride 1 no conflict, stride 2 2-way, stride 8 8-way.
  EXPECT_EQ(
      Site(RunEmu("bank-stride", "stride", {{"stride", 1}}), MemorySpace::kShared, AccessOp::kLoad)
          .bank_conflict_max,
      1u);
  EXPECT_EQ(
      Site(RunEmu("bank-stride", "stride", {{"stride", 2}}), MemorySpace::kShared, AccessOp::kLoad)
          .bank_conflict_max,
      2u);
  EXPECT_EQ(
      Site(RunEmu("bank-stride", "stride", {{"stride", 8}}), MemorySpace::kShared, AccessOp::kLoad)
          .bank_conflict_max,
      8u);
  // Odd strides are coprime with 32: conflict free. Stride 32: every word in bank 0.
  EXPECT_EQ(
      Site(RunEmu("bank-stride", "stride", {{"stride", 3}}), MemorySpace::kShared, AccessOp::kLoad)
          .bank_conflict_max,
      1u);
  EXPECT_EQ(
      Site(RunEmu("bank-stride", "stride", {{"stride", 32}}), MemorySpace::kShared, AccessOp::kLoad)
          .bank_conflict_max,
      32u);
}

TEST(BankStride, PermutationAndBroadcastAreConflictFree) {
  LessonRun perm = RunEmu("bank-stride", "permutation");
  EXPECT_EQ(Site(perm, MemorySpace::kShared, AccessOp::kLoad).bank_conflict_max, 1u);
  LessonRun bc = RunEmu("bank-stride", "broadcast");
  const SiteStats s = Site(bc, MemorySpace::kShared, AccessOp::kLoad);
  EXPECT_EQ(s.bank_conflict_max, 1u);
  EXPECT_EQ(s.halfwarp16_conflict_max, 1u);
  // 256 threads x 4 blocks = 32 warp requests, one wavefront each.
  EXPECT_EQ(s.requests, 32u);
  EXPECT_EQ(s.wavefronts, 32u);
}

TEST(BankStride, FillLoopIsConflictFreeAndIterates) {
  // 256 threads fill 1024 words in 4 iterations: 8 warps x 4 iterations x 4 blocks = 128 requests.
  const SiteStats fill =
      Site(RunEmu("bank-stride", "stride"), MemorySpace::kShared, AccessOp::kStore);
  EXPECT_EQ(fill.requests, 128u);
  EXPECT_EQ(fill.bank_conflict_max, 1u);
}

TEST(OffsetCopy, AlignedIsFourSectorsOffsetOneIsFive) {
  LessonRun r0 = RunEmu("offset-copy", "copy", {{"offset", 0}});
  EXPECT_DOUBLE_EQ(Site(r0, MemorySpace::kGlobal, AccessOp::kLoad).SectorsPerRequest(), 4.0);
  EXPECT_DOUBLE_EQ(Site(r0, MemorySpace::kGlobal, AccessOp::kStore).SectorsPerRequest(), 4.0);
  LessonRun r1 = RunEmu("offset-copy", "copy", {{"offset", 1}});
  EXPECT_DOUBLE_EQ(Site(r1, MemorySpace::kGlobal, AccessOp::kLoad).SectorsPerRequest(), 5.0);
  EXPECT_DOUBLE_EQ(Site(r1, MemorySpace::kGlobal, AccessOp::kStore).SectorsPerRequest(), 5.0);
  // Offset 8 floats = 32 bytes: sector-aligned again.
  EXPECT_DOUBLE_EQ(
      Site(RunEmu("offset-copy", "copy", {{"offset", 8}}), MemorySpace::kGlobal, AccessOp::kLoad)
          .SectorsPerRequest(),
      4.0);
}

TEST(OffsetCopy, ComputeOneXModels) {
  // 64 blocks x 256 threads = 512 warp requests.
  const SiteStats a =
      Site(RunEmu("offset-copy", "copy", {{"offset", 0}}), MemorySpace::kGlobal, AccessOp::kLoad);
  EXPECT_EQ(a.requests, 512u);
  EXPECT_EQ(a.cc10_transactions, 2u * 512u);  // one per half-warp
  EXPECT_EQ(a.cc12_transactions, 2u * 512u);  // one 64 B segment per half-warp
  const SiteStats b =
      Site(RunEmu("offset-copy", "copy", {{"offset", 1}}), MemorySpace::kGlobal, AccessOp::kLoad);
  EXPECT_EQ(b.cc10_transactions, 32u * 512u);  // misaligned: one per thread on compute 1.0
  // Compute 1.2: half-warp 0 spans [4, 68): one 128 B segment; half-warp 1 spans [68, 132):
  // [68, 128) shrinks to 64 B and [128, 132) to 32 B. 3 transactions per request.
  EXPECT_EQ(b.cc12_transactions, 3u * 512u);
}

TEST(StrideCopy, SectorsGrowWithStride) {
  EXPECT_DOUBLE_EQ(
      Site(RunEmu("stride-copy", "copy", {{"stride", 1}}), MemorySpace::kGlobal, AccessOp::kLoad)
          .SectorsPerRequest(),
      4.0);
  EXPECT_DOUBLE_EQ(
      Site(RunEmu("stride-copy", "copy", {{"stride", 2}}), MemorySpace::kGlobal, AccessOp::kLoad)
          .SectorsPerRequest(),
      8.0);
  EXPECT_DOUBLE_EQ(
      Site(RunEmu("stride-copy", "copy", {{"stride", 8}}), MemorySpace::kGlobal, AccessOp::kLoad)
          .SectorsPerRequest(),
      32.0);
}

TEST(Transpose, NaiveStoresNeedThirtyTwoSectors) {
  LessonRun r = RunEmu("transpose", "naive");
  EXPECT_DOUBLE_EQ(Site(r, MemorySpace::kGlobal, AccessOp::kLoad).SectorsPerRequest(), 4.0);
  EXPECT_DOUBLE_EQ(Site(r, MemorySpace::kGlobal, AccessOp::kStore).SectorsPerRequest(), 32.0);
  // 256 x 256 threads / 32 = 2048 requests per site.
  EXPECT_EQ(Site(r, MemorySpace::kGlobal, AccessOp::kStore).requests, 2048u);
  EXPECT_EQ(r.main_launch().kernel, "transposeNaive<32>");
}

TEST(Transpose, CoalescedHasAColumnBankConflictThatPaddingRemoves) {
  LessonRun c = RunEmu("transpose", "coalesced");
  EXPECT_DOUBLE_EQ(Site(c, MemorySpace::kGlobal, AccessOp::kStore).SectorsPerRequest(), 4.0);
  EXPECT_EQ(Site(c, MemorySpace::kShared, AccessOp::kStore).bank_conflict_max, 1u);
  EXPECT_EQ(Site(c, MemorySpace::kShared, AccessOp::kLoad).bank_conflict_max,
            32u);  // a 32-wide column
  LessonRun p = RunEmu("transpose", "padded");
  EXPECT_EQ(Site(p, MemorySpace::kShared, AccessOp::kLoad).bank_conflict_max, 1u);
  EXPECT_EQ(Site(p, MemorySpace::kShared, AccessOp::kStore).bank_conflict_max, 1u);
  EXPECT_EQ(c.main_launch().barrier_sites.size(), 1u);
  EXPECT_EQ(c.main_launch().stats.barriers[0].instances, 64u);  // one per block: 8 x 8 blocks
}

TEST(Transpose, SixteenWideTileIsTheSlidesSixteenWay) {
  // The slides: "16x16 shared memory tile of floats ... 16-way bank conflict reading columns",
  // counted per half-warp over 16 banks. With 32 banks a warp spans two rows: 8-way.
  LessonRun c = RunEmu("transpose", "coalesced", {{"tile", 16}});
  const SiteStats load = Site(c, MemorySpace::kShared, AccessOp::kLoad);
  EXPECT_EQ(load.halfwarp16_conflict_max, 16u);
  EXPECT_EQ(load.bank_conflict_max, 8u);
  LessonRun p = RunEmu("transpose", "padded", {{"tile", 16}});
  EXPECT_EQ(Site(p, MemorySpace::kShared, AccessOp::kLoad).halfwarp16_conflict_max, 1u);
}

// Timed at 8192x8192 (LessonInfo::timed_size), modeled by the emulator at the run's 256x256 and
// scaled: the coalesced transpose reads and writes 256 x 256 x 4 B = 256 KB each way, 16384
// sectors of 32 B = 524,288 B, at the hopper preset's 3350 GB/s: 1.565e-4 ms; 8192² is 1024
// times the work, 0.1603 ms.
TEST(Transpose, TheModelIsScaledToTheTimedSize) {
  auto r = RunLesson("transpose", "coalesced", {}, "emu", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->timing.timed_at, "8192x8192");
  EXPECT_DOUBLE_EQ(r->timing.work_scale, 1024.0);
  EXPECT_NEAR(r->timing.ms, 524288.0 / (3350 * 1e6) * 1024, 1e-9);
  EXPECT_NE(r->timing.note.find("scaled to 8192x8192 (1024x the work of this run)"),
            std::string::npos)
      << r->timing.note;
  // A run at the timed size (or past it) is timed at its own: nothing to scale.
  auto big = RunLesson("transpose", "coalesced", {{"width", 8192}, {"height", 64}}, "emu", {});
  ASSERT_TRUE(big.ok()) << big.status().message();
  EXPECT_EQ(big->timing.timed_at, "8192x8192");
  EXPECT_DOUBLE_EQ(big->timing.work_scale, 128.0);  // 8192 x 8192 / (8192 x 64)
  // stride-copy has no timed size: the model of the run itself.
  auto copy = RunLesson("stride-copy", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(copy.ok());
  EXPECT_TRUE(copy->timing.timed_at.empty());
  EXPECT_DOUBLE_EQ(copy->timing.work_scale, 1.0);
}

TEST(Lessons, EveryVariantTransposesCopiesOrReadsCorrectly) {
  for (const LessonInfo& l : Lessons()) {
    for (const VariantSpec& v : l.variants) {
      SCOPED_TRACE(l.id + " / " + v.name);
      auto r = RunLesson(l.id, v.name, {}, "emu", RunOptions{});
      if (v.name == "divergent-barrier") {  // its point is the error (see catalog_lessons_test)
        EXPECT_FALSE(r.ok());
        continue;
      }
      if (l.needs_gpu()) {  // measured on a GPU or not at all
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.status().message(), NeedsGpuMessage(l));
        continue;
      }
      if (l.id == "occupancy" || l.id == "latency") {  // a calculator, a model: no kernel
        ASSERT_TRUE(r.ok()) << r.status().message();
        EXPECT_FALSE(r->has_launch());
        continue;
      }
      ASSERT_TRUE(r.ok()) << r.status().message();
      if (v.races)  // wrong under some order, and reported: the races lesson's point
        EXPECT_GT(r->main_launch().hazards.Total(), 0u) << r->check.message;
      else
        EXPECT_TRUE(r->check.ok) << r->check.message;
      EXPECT_EQ(r->timing.kind, "modeled");
      EXPECT_GT(r->timing.ms, 0.0);
      for (const SiteInfo& s : r->main_launch().sites)
        EXPECT_FALSE(s.code.empty()) << "line " << s.line;
      // Every launch has the compiler's figures (kernels/resources/sm_90.txt), and ptxas's
      // static shared memory is what the driver declared for the launch.
      for (const LaunchTrace& t : r->launches) {
        EXPECT_TRUE(t.resources.known()) << t.kernel << " is not in the resource table";
        EXPECT_EQ(t.resources.shared_bytes, t.shared_bytes) << t.kernel;
      }
    }
  }
}

}  // namespace
}  // namespace ws
