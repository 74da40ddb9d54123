// On a GPU, every lesson must produce the same per-site figures as the emulator: same sites,
// requests, sectors, 128-byte lines, compute 1.x transactions and bank conflicts. Elsewhere the
// test skips and says why (ctest label "gpu").
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

struct Case {
  std::string lesson, variant;
  Params params;
};

std::vector<Case> Cases() {
  return {{"offset-copy", "copy", {{"offset", 0}}},
          {"offset-copy", "copy", {{"offset", 1}}},
          {"offset-copy", "copy", {{"offset", 13}}},
          {"stride-copy", "copy", {{"stride", 2}}},
          {"stride-copy", "copy", {{"stride", 8}}},
          {"bank-stride", "stride", {{"stride", 1}}},
          {"bank-stride", "stride", {{"stride", 2}}},
          {"bank-stride", "stride", {{"stride", 8}}},
          {"bank-stride", "permutation", {}},
          {"bank-stride", "broadcast", {}},
          {"transpose", "naive", {}},
          {"transpose", "coalesced", {}},
          {"transpose", "padded", {}},
          {"transpose", "coalesced", {{"tile", 16}}},
          {"reduce", "divergent", {{"blocks", 4}}},
          {"reduce", "strided", {{"blocks", 4}}},
          {"reduce", "sequential", {{"blocks", 4}}},
          // 1,024-thread blocks of a kernel that needed 96 registers recorded (86, 116 for the 2x2
          // form) before the recorded unit was capped at 64: they could not launch.
          {"matmul", "tiled", {{"tile", 32}}},
          {"matmul", "tiled-2x2", {{"tile", 32}}}};
}

TEST(GpuAgreement, DivergentBarrierIsRefusedOnTheGpu) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  auto r = RunLesson("barrier", "divergent-barrier", {}, "cuda", RunOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("emulator only"), std::string::npos) << r.status().message();
}

TEST(GpuAgreement, OccupancyOfTheRealGpu) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  // 256 threads, 32 registers, no shared memory: 8 warps per block; 32 x 32 = 1024 registers per
  // warp, 65536 / 1024 = 64 warps -> 8 blocks; 64 warps is the most an SM of compute 7.0-9.0 runs.
  auto r = RunLesson("occupancy", "",
                     {{"threads", 256}, {"registers", 32}, {"shared_bytes", 0}, {"device", 7}},
                     "emu", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->metrics()["active_warps"], 64);
  EXPECT_DOUBLE_EQ(r->metrics()["occupancy"].get<double>(), 1.0);
}

TEST(GpuAgreement, EveryLessonMatchesTheEmulatorSiteBySite) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.lesson + " / " + c.variant);
    RunOptions options;
    auto emu = RunLesson(c.lesson, c.variant, c.params, "emu", options);
    auto gpu = RunLesson(c.lesson, c.variant, c.params, "cuda", options);
    if (!emu.ok() || !gpu.ok()) {
      ADD_FAILURE() << (emu.ok() ? gpu.status().message() : emu.status().message());
      continue;
    }
    EXPECT_TRUE(gpu->check.ok) << gpu->check.message;
    const LaunchTrace& e = emu->main_launch();
    const LaunchTrace& g = gpu->main_launch();
    EXPECT_FALSE(g.truncated);
    if (e.sites.size() != g.sites.size()) {
      ADD_FAILURE() << "site count " << e.sites.size() << " vs " << g.sites.size();
      continue;
    }
    for (std::size_t i = 0; i < e.sites.size(); ++i) {
      SCOPED_TRACE("line " + std::to_string(e.sites[i].line) + " " + ToString(e.sites[i].space) +
                   " " + ToString(e.sites[i].op));
      EXPECT_EQ(e.sites[i].line, g.sites[i].line);
      EXPECT_EQ(e.sites[i].file, g.sites[i].file);  // the GPU's address tags, named and retagged
      EXPECT_FALSE(g.sites[i].file.empty());
      EXPECT_EQ(e.sites[i].space, g.sites[i].space);
      EXPECT_EQ(e.sites[i].op, g.sites[i].op);
      const SiteStats& a = e.stats.sites[i];
      const SiteStats& b = g.stats.sites[i];
      EXPECT_EQ(a.requests, b.requests);
      EXPECT_EQ(a.accesses, b.accesses);
      EXPECT_EQ(a.sectors, b.sectors);
      EXPECT_EQ(a.ideal_sectors, b.ideal_sectors);
      EXPECT_EQ(a.lines128, b.lines128);
      EXPECT_EQ(a.cc10_transactions, b.cc10_transactions);
      EXPECT_EQ(a.cc12_transactions, b.cc12_transactions);
      EXPECT_EQ(a.wavefronts, b.wavefronts);
      EXPECT_EQ(a.bank_conflict_max, b.bank_conflict_max);
      EXPECT_EQ(a.halfwarp16_conflict_max, b.halfwarp16_conflict_max);
    }
    EXPECT_EQ(e.stats.divergent_warps, g.stats.divergent_warps);
    // The lesson's own figures agree too, except times (logical units against nanoseconds).
    for (auto it = emu->metrics().begin(); it != emu->metrics().end(); ++it) {
      if (it.key() == "max_wait" || it.key() == "max_skew" || it.key() == "time_unit") continue;
      EXPECT_EQ(*it, gpu->metrics()[it.key()]) << it.key();
    }
    if (e.barrier_sites.size() != g.barrier_sites.size()) {
      ADD_FAILURE() << "barrier site count";
      continue;
    }
    for (std::size_t i = 0; i < e.barrier_sites.size(); ++i) {
      EXPECT_EQ(e.barrier_sites[i].line, g.barrier_sites[i].line);
      EXPECT_EQ(e.barrier_sites[i].file, g.barrier_sites[i].file);
      EXPECT_EQ(e.stats.barriers[i].instances, g.stats.barriers[i].instances);
    }
    // Every kept access falls in the same barrier interval on both: (block, thread, site,
    // iteration) -> epoch.
    std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint16_t, std::uint32_t>, std::uint32_t>
        epochs;
    for (const BlockRecords& b : e.blocks)
      for (const AccessRecord& a : b.accesses)
        epochs[{b.block, a.thread, a.site, a.iteration}] = a.epoch;
    std::size_t compared = 0, differ = 0;
    for (const BlockRecords& b : g.blocks) {
      for (const AccessRecord& a : b.accesses) {
        auto it = epochs.find({b.block, a.thread, a.site, a.iteration});
        if (it == epochs.end()) continue;
        ++compared;
        differ += it->second != a.epoch;
      }
    }
    EXPECT_GT(compared, 0u);
    EXPECT_EQ(differ, 0u) << "of " << compared << " accesses";
  }
}

}  // namespace
}  // namespace ws
