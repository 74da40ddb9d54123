// The CUDA runner on kernels written here (ctest label "gpu"; skips without a GPU).
#include <gtest/gtest.h>

#include "warpscope/kernels/cuda_backend.h"
#include "warpscope/kernels/devices.h"

using ws::Global;

namespace {

__global__ void histogram(Global<int> bins) {
  atomicAdd(&bins[threadIdx.x % 4], 1);
}

__global__ void accumulate(Global<float> data) {
  data[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

__global__ void addTwo(Global<float> out, Global<const float> a, Global<const float> b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

// Which buffers a launch names only through Global<const T> (the hazard check gives them no
// shadow): host code, no GPU needed.
TEST(CudaRunner, ABufferOnlyReadByALaunchIsKnownFromTheKernelsParameters) {
  const Global<float> x(nullptr, 4, 0), y(nullptr, 4, 1), z(nullptr, 4, 2);
  EXPECT_EQ(ws::ReadOnlyBuffers(&addTwo, x, y, z, 4), (std::vector<std::uint32_t>{1, 2}));
  // The output passed again as an input: a store reaches it.
  EXPECT_EQ(ws::ReadOnlyBuffers(&addTwo, x, x, z, 4), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(ws::ReadOnlyBuffers(&addTwo, x, y, x, 4), (std::vector<std::uint32_t>{1}));
  const Global<int> bins(nullptr, 4, 3);
  EXPECT_EQ(ws::ReadOnlyBuffers(&histogram, bins), (std::vector<std::uint32_t>{}));
}

#define REQUIRE_GPU()                                               \
  do {                                                              \
    const ws::DeviceQuery q = ws::QueryDevices();                   \
    if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu; \
  } while (0)

TEST(CudaRunner, AccumulatingKernelsSeeOneRunNotSeven) {
  REQUIRE_GPU();
  ws::CudaBackend b(ws::RunOptions{});
  ASSERT_TRUE(b.Init().ok());
  // The runner launches a kernel several times (count, record, timing); each run starts from
  // the buffers as they were, so the output is that of one run.
  auto bins = b.Alloc<int>("bins", 4);
  ASSERT_TRUE(WS_LAUNCH(b, histogram, (ws::Dim3{8, 1, 1}), (ws::Dim3{32, 1, 1}), 0, bins).ok());
  EXPECT_EQ(b.Download(bins), (std::vector<int>{64, 64, 64, 64}));  // 8 blocks x 8 lanes per bin
  const ws::LaunchTrace& t = b.launches().back();
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.sites[0].op, ws::AccessOp::kAtomic);
  EXPECT_EQ(t.stats.sites[0].atomic_conflict_max, 8u);
  EXPECT_FALSE(t.truncated);

  auto data = b.Upload<float>("data", std::vector<float>(64, 1.0f));
  ASSERT_TRUE(WS_LAUNCH(b, accumulate, (ws::Dim3{2, 1, 1}), (ws::Dim3{32, 1, 1}), 0, data).ok());
  EXPECT_EQ(b.Download(data), std::vector<float>(64, 2.0f));
  // += is a load and a store: two sites on one line, 2 warps each, 4 sectors per request.
  const ws::LaunchTrace& a = b.launches().back();
  ASSERT_EQ(a.sites.size(), 2u);
  EXPECT_EQ(a.stats.sites[0].requests, 2u);
  EXPECT_EQ(a.stats.sites[0].sectors, 8u);
}

TEST(CudaRunner, ALaunchOverTheDeviceLimitIsRefusedWithTheLimit) {
  REQUIRE_GPU();
  ws::CudaBackend b(ws::RunOptions{});
  ASSERT_TRUE(b.Init().ok());
  auto bins = b.Alloc<int>("bins", 4);
  ws::Status s = WS_LAUNCH(b, histogram, (ws::Dim3{1, 1, 1}), (ws::Dim3{2048, 1, 1}), 0, bins);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("over the limit of 1024 threads per block"), std::string::npos)
      << s.message();
}

}  // namespace
