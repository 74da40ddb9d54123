// The multi-GPU decomposition: the time model (trace/multi_gpu.h) against steps worked out by
// hand, and the multi-gpu lesson, whose emulated GPUs must together compute what one does.
#include "warpscope/trace/multi_gpu.h"

#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

// 10 x 10 points a plane at 100 million points a second: 1 us a plane. A message of 4 planes is
// 1,600 bytes; at 1 GB/s (1,000 bytes a microsecond) with 2 us latency it takes 3.6 us.
DecompositionParams Small(int gpus, int nz, bool overlap) {
  DecompositionParams p;
  p.nx = p.ny = 10;
  p.nz = nz;
  p.gpus = gpus;
  p.mpoints = 100;
  p.link = {"test", "test link", 1.0, 2.0, ""};
  p.overlap = overlap;
  return p;
}

TEST(MultiGpuModel, SlabsAreDealtEvenly) {
  EXPECT_EQ(SlabPlanes(10, 4, 0), 3);
  EXPECT_EQ(SlabPlanes(10, 4, 1), 3);
  EXPECT_EQ(SlabPlanes(10, 4, 2), 2);
  EXPECT_EQ(SlabPlanes(10, 4, 3), 2);
  EXPECT_EQ(CheckDecomposition(Small(4, 12, false)).message(),
            "12 planes over 4 GPUs leave 3 planes to a GPU, and each needs the 4 its neighbours "
            "take as ghost planes: nz must be at least 16");
  EXPECT_TRUE(CheckDecomposition(Small(4, 16, false)).ok());
  EXPECT_TRUE(CheckDecomposition(Small(1, 1, false)).ok());  // one GPU exchanges nothing
}

// 3 GPUs of 10 planes: compute 10 us each. Serial: the end GPUs exchange 1 message (10 to
// 13.6), the middle one 2 (10 to 17.2); the step is 17.2 and the ends idle 3.6.
TEST(MultiGpuModel, SerialStepByHand) {
  const DecompositionStep s = ModelStep(Small(3, 30, false));
  EXPECT_DOUBLE_EQ(s.step_us, 17.2);
  EXPECT_DOUBLE_EQ(s.compute_us, 10.0);
  EXPECT_DOUBLE_EQ(s.comm_us, 7.2);
  int idle = 0;
  for (const GpuSegment& g : s.segments) {
    if (g.kind == GpuWork::kSend && g.gpu == 1) {
      EXPECT_DOUBLE_EQ(g.start_us, 10.0);
      EXPECT_DOUBLE_EQ(g.end_us, 17.2);
    }
    if (g.kind == GpuWork::kIdle) {
      ++idle;
      EXPECT_NE(g.gpu, 1);
      EXPECT_DOUBLE_EQ(g.start_us, 13.6);
      EXPECT_DOUBLE_EQ(g.end_us, 17.2);
    }
  }
  EXPECT_EQ(idle, 2);
  EXPECT_DOUBLE_EQ(Speedup(Small(3, 30, false)), 30.0 / 17.2);
}

// Overlap: the middle GPU computes its 2 x 4 edge planes first (8 us), exchanges 8 to 15.2
// while the interior runs to 10: the step is 15.2. An end GPU sends after 4 planes: 4 to 7.6.
TEST(MultiGpuModel, OverlapStepByHand) {
  const DecompositionStep s = ModelStep(Small(3, 30, true));
  EXPECT_DOUBLE_EQ(s.step_us, 15.2);
  for (const GpuSegment& g : s.segments) {
    if (g.kind != GpuWork::kReceive) continue;
    EXPECT_DOUBLE_EQ(g.start_us, g.gpu == 1 ? 8.0 : 4.0) << g.gpu;
    EXPECT_DOUBLE_EQ(g.end_us, g.gpu == 1 ? 15.2 : 7.6) << g.gpu;
  }
  // One GPU: 30 planes, no exchange.
  EXPECT_DOUBLE_EQ(ModelStep(Small(1, 30, true)).step_us, 30.0);
}

// Linear scaling begins where a middle GPU's planes cover 2 x (4 + 3.6) = 15.2 planes of work:
// 16 planes a GPU, nz = 48 for 3 GPUs. There the speedup is exactly 3; at nz = 45 it is 45 / 15.2.
TEST(MultiGpuModel, LinearFromTheCrossover) {
  EXPECT_EQ(CrossoverZ(Small(3, 30, true)), 48);
  EXPECT_DOUBLE_EQ(Speedup(Small(3, 48, true)), 3.0);
  EXPECT_DOUBLE_EQ(Speedup(Small(3, 45, true)), 45.0 / 15.2);
  EXPECT_EQ(CrossoverZ(Small(1, 30, true)), 0);
  // Two GPUs have one neighbour each: 4 + 3.6 = 7.6, 8 planes, nz = 16.
  EXPECT_EQ(CrossoverZ(Small(2, 30, true)), 16);
}

// The slides: 8 GPUs of the 3DFD at ~3,000 Mpoints/s scale 8x "at z > 1,300". With the slides'
// link (0.6 GB/s, 10 us) and big planes (4096 x 4096), a middle GPU needs 2 x (4 + 16 x 3000 /
// 600 + 10 x 3000 / 4096^2) = 168.004 planes of work: 169 planes, nz = 1,352.
TEST(MultiGpuModel, TheSlidesCrossover) {
  DecompositionParams p;
  p.nx = p.ny = 4096;
  p.gpus = 8;
  p.nz = 2048;
  p.link = Links().at(0);
  p.overlap = true;
  EXPECT_EQ(p.link.name, "infiniband-sdr");
  EXPECT_EQ(CrossoverZ(p), 8 * 169);
}

// The lesson: every split, even or not, gives one GPU's two steps to the bit; its figures are the
// model's.
TEST(MultiGpuLesson, TheGpusTogetherComputeWhatOneDoes) {
  for (long long gpus : {1, 3, 4}) {
    auto r = RunLesson("multi-gpu", "overlap",
                       {{"gpus", gpus}, {"nz", 14 + 2 * gpus}, {"nx", 12}, {"ny", 10}}, "emu", {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->check.ok) << r->check.message;
    EXPECT_EQ(r->launches.size(), static_cast<std::size_t>(2 * gpus));  // 2 steps a GPU
    const auto& m = r->metrics();
    EXPECT_EQ(m.at("slab_planes").size(), static_cast<std::size_t>(gpus));
    EXPECT_DOUBLE_EQ(m.at("speedup").get<double>(),
                     m.at("single_us").get<double>() / m.at("step_us").get<double>());
  }
  auto bad = RunLesson("multi-gpu", "serial", {{"gpus", 8}, {"nz", 24}}, "emu", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "multi-gpu: 24 planes over 8 GPUs leave 3 planes to a GPU, and each needs the 4 its "
            "neighbours take as ghost planes: nz must be at least 32");
}

}  // namespace
}  // namespace ws
