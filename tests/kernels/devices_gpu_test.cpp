// Runs on the GPU machine; elsewhere it skips and says why (ctest label "gpu").
#include "warpscope/kernels/devices.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(Devices, EveryGpuReportsSaneProperties) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU to query: " << q.why_no_gpu;
  for (const GpuDevice& g : q.gpus) {
    SCOPED_TRACE(g.name);
    EXPECT_FALSE(g.name.empty());
    EXPECT_EQ(g.warp_size, 32);                // every CUDA GPU so far
    EXPECT_EQ(g.max_threads_per_block, 1024);  // since compute 2.0
    EXPECT_GE(g.cc_major, 7);                  // we build for sm_75 and up
    EXPECT_GT(g.multiprocessors, 0);
    EXPECT_GE(g.shared_mem_per_block, 48u * 1024u);  // the default limit since Fermi
    EXPECT_GT(g.clock_khz, 0);
  }
  EXPECT_EQ(DefaultBackendLabel(q), q.gpus.front().name);
}

TEST(Devices, WithoutGpuTheEmulatorIsTheBackend) {
  const DeviceQuery q = QueryDevices();
  if (!q.gpus.empty()) GTEST_SKIP() << "a GPU is present: " << q.gpus.front().name;
  EXPECT_FALSE(q.why_no_gpu.empty());
  // One line, saying which of: no runner built, no driver, a driver too old, no device.
  EXPECT_EQ(q.why_no_gpu.find('\n'), std::string::npos) << q.why_no_gpu;
  const bool names_it = q.why_no_gpu.find("driver") != std::string::npos ||
                        q.why_no_gpu.find("no CUDA GPU") != std::string::npos ||
                        q.why_no_gpu.find("no CUDA runner") != std::string::npos;
  EXPECT_TRUE(names_it) << q.why_no_gpu;
  EXPECT_EQ(DefaultBackendLabel(q), "CPU emulator");
}

}  // namespace
}  // namespace ws
