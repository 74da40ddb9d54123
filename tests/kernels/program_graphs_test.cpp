// CUDA graphs on the emulator (issue 50, item 3; docs/PROGRAMS.md "CUDA graphs"): stream capture
// across a fork and a join, nodes made by hand with their dependencies, cudaLaunchKernel, and
// each launch saying which graph and node it came from.
#include <gtest/gtest.h>

#include <string>

#include "program_features_programs.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

TEST(CudaGraphs, CapturedAndHandMadeGraphsRunTheirNodesInOrderAndSaySo) {
  const LessonRun r = test::RunText(test::kGraphsProgram);
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

// An instantiated graph updated (cuda-samples' jacobiCudaGraphs captures a graph each iteration
// and updates one instantiation with it, or sets its kernel node's parameters): the same kernel
// with another argument is an update (the launch writes 2, then 3 by the node's new parameters);
// another kernel, or another number of nodes, is refused with CUDA's result codes (4: function
// changed, 2: topology changed) and cudaErrorGraphExecUpdateFailure, the instantiation kept.
TEST(CudaGraphs, AnInstantiatedGraphIsUpdatedWhereOnlyParametersChange) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
__global__ void set(int* a, int v) { a[threadIdx.x] = v; }
__global__ void other(int* a, int v) { a[threadIdx.x] = -v; }
cudaGraph_t Capture(cudaStream_t s, int* d, int v, bool two, bool swap) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (swap) other<<<1, 32, 0, s>>>(d, v); else set<<<1, 32, 0, s>>>(d, v);
  if (two) set<<<1, 32, 0, s>>>(d, v);
  cudaStreamEndCapture(s, &g);
  return g;
}
int main() {
  int* d; cudaMallocManaged(&d, 32 * sizeof(int));
  cudaStream_t s; cudaStreamCreate(&s);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, Capture(s, d, 1, false, false), nullptr, nullptr, 0);
  cudaGraphExecUpdateResult why;
  cudaGraphNode_t at;
  cudaError_t err = cudaGraphExecUpdate(e, Capture(s, d, 2, false, false), &at, &why);
  cudaGraphLaunch(e, s); cudaStreamSynchronize(s);
  printf("%s %d %d\n", cudaGetErrorName(err), (int)why, d[31]);
  err = cudaGraphExecUpdate(e, Capture(s, d, 5, false, true), &at, &why);
  printf("%s %d %s\n", cudaGetErrorName(err), (int)why, at != nullptr ? "node" : "none");
  cudaGraphExecUpdateResultInfo info;
  err = cudaGraphExecUpdate(e, Capture(s, d, 5, true, false), &info);
  printf("%s %d\n", cudaGetErrorName(err), (int)info.result);
  cudaGraph_t g = Capture(s, d, 7, false, false);
  cudaGraphExec_t e2;
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphNode_t node; size_t n = 1;
  cudaGraphGetNodes(g, &node, &n);
  int v = 3;
  void* args[] = {&d, &v};
  cudaKernelNodeParams p = {};
  p.func = (void*)set; p.gridDim = dim3(1); p.blockDim = dim3(32); p.kernelParams = args;
  err = cudaGraphExecKernelNodeSetParams(e2, node, &p);
  v = 100;  // copied when set, as CUDA copies them
  cudaGraphLaunch(e2, s); cudaStreamSynchronize(s);
  printf("%s %d\n", cudaGetErrorName(err), d[0]);
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure
                               << (r.program->errors.empty() ? "" : r.program->errors[0].message);
  EXPECT_EQ(r.program->stdout_text,
            "cudaSuccess 0 2\n"
            "cudaErrorGraphExecUpdateFailure 4 node\n"
            "cudaErrorGraphExecUpdateFailure 2\n"
            "cudaSuccess 3\n");
  ASSERT_EQ(r.launches.size(), 2u);  // the updated graph's launch and the second graph's
  EXPECT_EQ(r.launches[0].kernel, "set");
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
