// CUDA graphs on the emulator (issue 50, item 3; docs/PROGRAMS.md "CUDA graphs"): stream capture
// across a fork and a join, nodes made by hand with their dependencies, cudaLaunchKernel, and
// each launch saying which graph and node it came from.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

// Line numbers matter (the launches' origins name nodes, not lines).
constexpr const char* kGraphsProgram = R"(#include <cstdio>
__global__ void add(float* a, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += v; }
__global__ void scale(float* a, float s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= s; }
void note(void* p) { printf("host node sees %g\n", *static_cast<float*>(p)); }
struct Shape { dim3 gridDim, blockDim; };  // members named as the built-ins
int main() {
  const int n = 256;
  float *d, h = 0;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  cudaGraph_t g;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(d, 0, n * sizeof(float), s1);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  add<<<2, 128, 0, s2>>>(d, 1.0f, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  scale<<<2, 128, 0, s1>>>(d, 3.0f, n);
  cudaMemcpyAsync(&h, d + 5, sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, note, &h);
  cudaStreamEndCapture(s1, &g);
  size_t nodes = 0;
  cudaGraphGetNodes(g, nullptr, &nodes);
  printf("captured %zu nodes, h = %g\n", nodes, h);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s1);
  cudaGraphLaunch(e, s1);
  cudaStreamSynchronize(s1);
  cudaGraph_t m;
  cudaGraphCreate(&m, 0);
  cudaGraphNode_t a, b;
  float two = 2.0f, half = 0.5f;
  int count = n;
  void* aargs[] = {&d, &two, &count};
  void* bargs[] = {&d, &half, &count};
  Shape shape = {dim3(2), dim3(128)};
  cudaKernelNodeParams p = {};
  p.func = (void*)scale;
  p.gridDim = shape.gridDim;
  p.blockDim = shape.blockDim;
  p.kernelParams = bargs;
  cudaGraphAddKernelNode(&b, m, nullptr, 0, &p);
  p.func = (void*)add;
  p.kernelParams = aargs;
  cudaGraphAddKernelNode(&a, m, nullptr, 0, &p);
  cudaGraphAddDependencies(m, &a, &b, 1);
  two = 100.0f;
  cudaGraphExec_t me;
  cudaGraphInstantiate(&me, m, nullptr, nullptr, 0);
  cudaGraphLaunch(me, 0);
  cudaMemcpy(&h, d + 5, sizeof(float), cudaMemcpyDeviceToHost);
  printf("manual %g\n", h);
  void* largs[] = {&d, &half, &count};
  cudaLaunchKernel((void*)scale, dim3(2), dim3(128), largs, 0, 0);
  cudaMemcpy(&h, d + 5, sizeof(float), cudaMemcpyDeviceToHost);
  printf("launched %g\n", h);
  printf("%s\n", cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
  return 0;
}
)";

TEST(CudaGraphs, CapturedAndHandMadeGraphsRunTheirNodesInOrderAndSaySo) {
  const LessonRun r = test::RunText(kGraphsProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  // Captured: memset 0, add 1 (on the forked stream), scale 3, copy d[5] back, the host node:
  // 5 nodes, as CUDA counts them (events make none); each launch gives 3. By hand: add 2 (its
  // argument copied when the node was made, not the 100 set after), then scale 0.5, made first
  // but depending on the add: 2.5. cudaLaunchKernel halves it again. The default stream cannot
  // be captured.
  EXPECT_EQ(r.program->stdout_text,
            "captured 5 nodes, h = 0\nhost node sees 3\nhost node sees 3\nmanual 2.5\n"
            "launched 1.25\ncudaErrorStreamCaptureUnsupported\n");
  ASSERT_EQ(r.launches.size(), 7u);
  const std::string origins[] = {"graph 1, node 2 of 5 (kernel add)",
                                 "graph 1, node 3 of 5 (kernel scale)",
                                 "graph 1, node 2 of 5 (kernel add)",
                                 "graph 1, node 3 of 5 (kernel scale)",
                                 "graph 2, node 1 of 2 (kernel add)",
                                 "graph 2, node 2 of 2 (kernel scale)",
                                 ""};
  const char* kernels[] = {"add", "scale", "add", "scale", "add", "scale", "scale"};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(r.launches[i].origin, origins[i]) << i;
    EXPECT_EQ(r.launches[i].kernel, kernels[i]) << i;
  }
  // Each launch is the whole grid of 256 threads: one store a thread at its site.
  for (const LaunchTrace& t : r.launches) {
    std::uint64_t stores = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i)
      if (t.sites[i].op == AccessOp::kStore) stores += t.stats.sites[i].accesses;
    EXPECT_EQ(stores, 256u) << t.kernel;
  }
}

TEST(CudaGraphs, ACycleOfDependenciesIsRefusedAtInstantiation) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t a, b;
  cudaGraphAddEmptyNode(&a, g, nullptr, 0);
  cudaGraphAddEmptyNode(&b, g, &a, 1);
  cudaGraphAddDependencies(g, &b, &a, 1);
  cudaGraphExec_t e;
  printf("%s\n", cudaGetErrorName(cudaGraphInstantiate(&e, g, 0)));
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "cudaErrorInvalidValue\n");
  EXPECT_NE(r.program->stderr_text.find("the graph's dependencies form a cycle"), std::string::npos)
      << r.program->stderr_text;
}

// A stream-ordered allocation inside a capture would be a node of CUDA's graph (allocated at each
// launch); the emulator would make it at once, so it refuses it with CUDA's capture error.
TEST(CudaGraphs, AnAllocationInACaptureIsRefused) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  float* d = nullptr;
  printf("%s\n", cudaGetErrorName(cudaMallocAsync(&d, 64, s)));
  cudaStreamEndCapture(s, &g);
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "cudaErrorStreamCaptureUnsupported\n");
  EXPECT_NE(r.program->stderr_text.find("cudaMallocAsync in a stream capture"), std::string::npos)
      << r.program->stderr_text;
}

}  // namespace
}  // namespace ws
