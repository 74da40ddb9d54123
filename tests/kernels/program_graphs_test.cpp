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
