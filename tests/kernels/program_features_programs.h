// Programs of issue 50's features that the emulator's tests and the GPU's run alike: CUDA graphs
// (program_graphs_test.cpp), the device heap (program_heap_test.cpp) and grid sync
// (program_grid_sync_test.cpp); program_gpu_features_test.cpp runs each on both backends.
#pragma once

#include <string>

namespace ws::test {

// Line numbers matter (the launches' origins name nodes, not lines).
inline constexpr const char* kGraphsProgram = R"(#include <cstdio>
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

inline constexpr const char* kHeapProgram = R"(#include <cstdio>
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

// Each step, block b's thread 0 writes a[b] = 10 step + b, the grid syncs, and it reads its
// neighbour's a[(b + 1) % 4] written in the same step: only a grid-wide barrier makes that the
// value of this step. `early`: block 3 returns before the first sync.
inline std::string GridSyncProgram(const char* launch, bool early) {
  // Appended piece by piece: GCC 12's -Warray-bounds misreads a chain of + at -O1.
  std::string text = R"(#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void steps(int* a, int* out, int early) {
  cg::grid_group grid = cg::this_grid();
  if (early && blockIdx.x == 3) return;
  for (int step = 1; step <= 3; ++step) {
    if (threadIdx.x == 0) a[blockIdx.x] = 10 * step + blockIdx.x;
    grid.sync();
    if (threadIdx.x == 0) out[4 * (step - 1) + blockIdx.x] = a[(blockIdx.x + 1) % 4];
    grid.sync();
  }
}
int main() {
  int *a, *out;
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaMallocManaged(&out, 12 * sizeof(int));
  int early = )";
  text += early ? "1" : "0";
  text += R"(;
  void* args[] = {&a, &out, &early};
  )";
  text += launch;
  text += R"(
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int i = 0; i < 12; ++i) printf("%d ", out[i]);
  printf("\n");
}
)";
  return text;
}

}  // namespace ws::test
