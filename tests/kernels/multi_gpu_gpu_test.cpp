// The multi-gpu lesson on real GPUs (issue 20; ctest label "gpu"): the N-GPU path runs with as
// many GPUs as the machine has, down to one, and its field must equal one GPU's bit for bit.
#include <gtest/gtest.h>

#include <algorithm>

#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws {
namespace {

int GpuCount() {
  const DeviceQuery q = QueryDevices();
  return static_cast<int>(q.gpus.size());
}

// Counts the segments of `kind` on GPU `gpu`.
int Segments(const MultiGpuMeasurement& m, int gpu, GpuWork kind) {
  return static_cast<int>(std::count_if(m.timeline.begin(), m.timeline.end(), [&](const auto& s) {
    return s.gpu == gpu && s.kind == kind;
  }));
}

MultiGpuMeasurement Measure(const std::string& variant, int gpus, int nz) {
  auto run = RunLesson("multi-gpu", variant, {{"gpus", gpus}, {"nz", nz}}, "cuda", {});
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  EXPECT_TRUE(run->check.ok) << run->check.message;
  const MultiGpuFigures f = run->metrics().get<MultiGpuFigures>();
  EXPECT_TRUE(f.measured.has_value());
  EXPECT_EQ(run->timing.kind, "measured");
  return f.measured.value_or(MultiGpuMeasurement{});
}

TEST(MultiGpuOnGpus, OneGpuComputesAndNeverExchanges) {
  if (GpuCount() < 1) GTEST_SKIP() << "no GPU: " << QueryDevices().why_no_gpu;
  const MultiGpuMeasurement m = Measure("overlap", 1, 64);
  EXPECT_EQ(m.gpus, 1);
  EXPECT_TRUE(m.matches_one_gpu);
  // 3 timed steps shown, one compute each; nothing to send or receive, no link timed.
  EXPECT_EQ(Segments(m, 0, GpuWork::kCompute), 3);
  EXPECT_EQ(Segments(m, 0, GpuWork::kSend), 0);
  EXPECT_EQ(Segments(m, 0, GpuWork::kReceive), 0);
  EXPECT_TRUE(m.links.empty());
  EXPECT_TRUE(m.scaling.empty());
  // 512 x 512 planes (the timed size), 64 of them: the speed is points over the step.
  EXPECT_EQ(m.nx, 512);
  EXPECT_DOUBLE_EQ(m.mpoints, 512.0 * 512 * 64 / m.single_us);
  // One GPU: the model is compute only, nz planes at the measured speed, which is the measured
  // one-GPU step itself.
  EXPECT_NEAR(m.model_us, m.single_us, 1e-6 * m.single_us);
}

TEST(MultiGpuOnGpus, TwoGpusAskedOfOneMeasureOneAndSaySo) {
  if (GpuCount() != 1) GTEST_SKIP() << "this machine has " << GpuCount() << " GPUs, not 1";
  const MultiGpuMeasurement m = Measure("serial", 2, 64);
  EXPECT_EQ(m.gpus, 1);
  EXPECT_NE(m.note.find("asked for 2 GPUs; this machine has 1"), std::string::npos) << m.note;
}

TEST(MultiGpuOnGpus, TwoGpusExchangeEveryStepAndAgreeWithOne) {
  if (GpuCount() < 2) GTEST_SKIP() << "this machine has " << GpuCount() << " GPU(s); 2 needed";
  for (const char* variant : {"serial", "overlap"}) {
    SCOPED_TRACE(variant);
    const MultiGpuMeasurement m = Measure(variant, 2, 64);
    EXPECT_EQ(m.gpus, 2);
    EXPECT_TRUE(m.matches_one_gpu);
    // Each GPU, each of 3 steps: one compute, one message out and one in (one neighbour).
    for (int g : {0, 1}) {
      EXPECT_EQ(Segments(m, g, GpuWork::kCompute), 3);
      EXPECT_EQ(Segments(m, g, GpuWork::kSend), 3);
      EXPECT_EQ(Segments(m, g, GpuWork::kReceive), 3);
    }
    // Peer copies: GPU 1 receives exactly what GPU 0 sends, the same interval.
    if (m.transport == "peer") {
      std::vector<double> sent, received;
      for (const GpuSegment& s : m.timeline) {
        if (s.gpu == 0 && s.kind == GpuWork::kSend) sent.push_back(s.start_us);
        if (s.gpu == 1 && s.kind == GpuWork::kReceive) received.push_back(s.start_us);
      }
      std::sort(sent.begin(), sent.end());
      std::sort(received.begin(), received.end());
      EXPECT_EQ(sent, received);
    }
    // The sweep: nz = 32 .. 2048 doubling (7 sizes), each on every transport timed.
    EXPECT_EQ(m.scaling.size(), 7 * m.links.size());
    // A message is 4 planes of 512 x 512 floats: 4 MiB.
    for (const MeasuredLink& l : m.links) EXPECT_GT(l.gbps, 0) << l.transport;
  }
}

}  // namespace
}  // namespace ws
