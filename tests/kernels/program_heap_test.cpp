// The device heap on the emulator (issue 50, item 6; docs/PROGRAMS.md "The device heap"): new,
// new[], delete, delete[], malloc and free in device code over one buffer named "device heap",
// objects living across launches, virtual calls, a full heap giving null, and the heap's size
// fixed at the first launch.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

constexpr const char* kHeapProgram = R"(#include <cstdio>
struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual int Area() const = 0;
};
struct Square : Shape {
  int side;
  __device__ explicit Square(int s) : side(s) {}
  __device__ int Area() const override { return side * side; }
};
__global__ void make(Shape** out, int** arrays) {
  const int t = threadIdx.x;
  out[t] = new Square(t + 1);
  arrays[t] = new int[4];
  for (int k = 0; k < 4; ++k) arrays[t][k] = t * 10 + k;
}
__global__ void use(Shape** in, int** arrays, int* areas) {
  const int t = threadIdx.x;
  areas[t] = in[t]->Area() + arrays[t][3];
  delete in[t];
  delete[] arrays[t];
}
__global__ void big(int* got) {
  void* p = malloc(6u << 20);  // 6 MB of the 8 MB heap
  void* q = malloc(6u << 20);  // no room left: null, as on a GPU
  got[0] = p != nullptr;
  got[1] = q != nullptr;
  free(p);
  void* r = malloc(6u << 20);  // room again
  got[2] = r != nullptr;
  free(r);
}
int main() {
  Shape** shapes;
  int** arrays;
  int *areas, *got;
  cudaMalloc(&shapes, 64 * sizeof(Shape*));
  cudaMalloc(&arrays, 64 * sizeof(int*));
  cudaMallocManaged(&areas, 64 * sizeof(int));
  cudaMallocManaged(&got, 3 * sizeof(int));
  make<<<1, 64>>>(shapes, arrays);
  use<<<1, 64>>>(shapes, arrays, areas);
  big<<<1, 1>>>(got);
  cudaDeviceSynchronize();
  printf("%d %d %d | %d %d %d\n", areas[0], areas[5], areas[63], got[0], got[1], got[2]);
  printf("%s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20)));
}
)";

TEST(DeviceHeap, ObjectsLiveAcrossLaunchesAndAFullHeapGivesNull) {
  const LessonRun r = test::RunText(kHeapProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  // Thread t's Square(t + 1) has area (t + 1)^2, its array's element 3 is 10 t + 3: thread 0
  // 1 + 3, thread 5 36 + 53, thread 63 4096 + 633. 6 MB fits the default 8 MB heap once, not
  // twice, and again once freed. The heap's size cannot change after the first launch.
  EXPECT_EQ(r.program->stdout_text, "4 89 4729 | 1 0 1\ncudaErrorInvalidValue\n");
  ASSERT_EQ(r.launches.size(), 3u);
  // The heap is one of the program's buffers, and the objects' accesses are recorded in it: the
  // virtual Area() reads `side` (line 9) of 64 objects.
  const LaunchTrace& use = r.launches[1];
  bool heap = false;
  for (const BufferInfo& b : use.buffers)
    heap = heap || (b.name == "device heap" && b.bytes == (8u << 20));
  EXPECT_TRUE(heap);
  std::size_t i = 0;
  ASSERT_NE(test::SiteAt(use, 9, 49, &i), nullptr);
  EXPECT_EQ(use.sites[i].op, AccessOp::kLoad);
  EXPECT_EQ(use.stats.sites[i].accesses, 64u);
  ASSERT_LT(use.sites[i].buffer, use.buffers.size());
  EXPECT_EQ(use.buffers[use.sites[i].buffer].name, "device heap");
  // Kernels that allocate run thread by thread, and say why.
  EXPECT_NE(r.launches[0].engine_reason.find("the device heap (new) on line 13"), std::string::npos)
      << r.launches[0].engine_reason;
}

}  // namespace
}  // namespace ws
