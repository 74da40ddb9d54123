// The GPU backend at a program's own size (issue 51): what a run on a GPU keeps when it is
// stopped. Elsewhere the tests skip and say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

// The host prints, then launches a kernel that never ends: stopped at the time limit, the run
// keeps what the program printed before the launch, as the emulator's does
// (program_failures_test.cpp).
TEST(ScaleOnGpu, AStoppedRunKeepsWhatTheProgramPrintedBefore) {
  if (const DeviceQuery q = QueryDevices(); q.gpus.empty())
    GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(20);  // the recorded build's compile is cached after a first
  const LessonRun run = test::RunText(R"(#include <cstdio>
__global__ void forever(int* d) {
  volatile int spin = 1;
  while (spin) d[threadIdx.x] = 1;
}
int main() {
  int* d;
  cudaMalloc(&d, 128);
  printf("before the launch\n");
  forever<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  printf("never\n");
}
)",
                                      o);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("ran longer than the limit"), std::string::npos)
      << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "before the launch\n");
}

}  // namespace
}  // namespace ws
