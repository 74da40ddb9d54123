// Asynchronous-copy programs the emulator's tests (program_async_test.cpp,
// program_block_pipeline_test.cpp) and the GPU's (program_tensor_gpu_test.cpp) share: their
// outputs are worked out by hand below.
#pragma once

#include <string>

namespace ws::test {

// cuda-samples' AsyncCopyLargeChunkAWBarrier shape: a block's cuda::barrier that every thread
// arrives at; a quarter of the threads copy a float4 each with cuda::memcpy_async(..., bar), which
// lands at their arrive_and_wait, and after it each thread reads another row. in[k] = k, 16 x 16:
// C[0] = As[15][0] = 240, C[255] = As[0][15] = 15, the sum of all 0..255 = 32,640. The copy's
// line (11) is a global read and a shared write of 16 bytes a lane: 8 warps of 2 rows, 4 lanes a
// row copying, a request a warp each way. No race: the reads come after the barrier.
inline constexpr const char* kBarrierCopy = R"(#include <cstdio>
#include <cuda/barrier>
__global__ void k(float* C, const float* A) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float As[16][16];
  if (threadIdx.x == 0 && threadIdx.y == 0) init(&bar, EXPECTED);
  __syncthreads();
  const int t4x = threadIdx.x * 4;
  if (t4x < 16) {
    float4* const d = reinterpret_cast<float4*>(&As[threadIdx.y][t4x]);
    cuda::memcpy_async(d, reinterpret_cast<const float4*>(&A[threadIdx.y * 16 + t4x]), sizeof(float4), bar);
  }
  bar.arrive_and_wait();
  C[threadIdx.y * 16 + threadIdx.x] = As[15 - threadIdx.y][threadIdx.x];
}
int main() {
  float h[256], *A, *C;
  for (int i = 0; i < 256; ++i) h[i] = i;
  cudaMalloc(&A, sizeof h); cudaMalloc(&C, sizeof h);
  cudaMemcpy(A, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, dim3(16, 16)>>>(C, A);
  cudaMemcpy(h, C, sizeof h, cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 256; ++i) s += h[i];
  printf("%g %g %g\n", h[0], h[255], s);
  return 0;
}
)";

// One block of 64 threads: warp 1 produces (a float a lane into stage k % 2), warp 0 consumes
// (adds stage k % 2's float at its lane). With 6 uses of 2 stages the producers wait at uses 2-5
// for the consumers' releases. in[i] = i: lane t sums 32k + t over k = 0..5, 480 + 6t.
inline constexpr const char* kStaged = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
__global__ void staged(const float* in, float* out, int uses) {
  constexpr int kStages = 2;
  __shared__ float tile[kStages][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x >= 32;
  auto pipe = cuda::make_pipeline(block, &state,
      producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  float sum = 0;
  for (int k = 0; k < uses + EXTRA; ++k) {
    if (producer) {
      if (k >= uses) break;
      pipe.producer_acquire();
      cuda::memcpy_async(&tile[k % kStages][threadIdx.x - 32], &in[k * 32 + threadIdx.x - 32], sizeof(float), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += tile[k % kStages][threadIdx.x];
      pipe.consumer_release();
    }
  }
  if (!producer) out[threadIdx.x] = sum;
}
int main() {
  float h[6 * 32], r[32], *in, *out;
  for (int i = 0; i < 6 * 32; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  staged<<<1, 64>>>(in, out, 6);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g %g %g\n", r[0], r[1], r[31]);
  return 0;
}
)";

// A block's copy into each thread's pipeline, cut as libcu++ cuts it (rank r takes pieces r,
// r + size, ...): 64 floats in pieces of 4 bytes (one a thread), then 256 bytes promised 16-aligned
// in pieces of 16 (threads 0-15). in[k] = k: out[t] = tile[63 - t] + wide[t] = 63 - t + t = 63,
// and out sums to 64 x 63 = 4,032. By hand: the first copy (line 9) is 2 read requests of 128
// contiguous bytes (4 sectors each) and 2 one-wavefront writes; the second (line 10) one request of
// threads 0-15, 256 contiguous bytes (8 sectors, two lines) and a write of two wavefronts.
inline constexpr const char* kGroupIntoPipeline = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  __shared__ alignas(16) float tile[64], wide[64];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline();
  cuda::memcpy_async(block, tile, in, sizeof(float) * 64, pipe);
  cuda::memcpy_async(block, wide, in, cuda::aligned_size_t<16>(sizeof(float) * 64), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x] + wide[threadIdx.x];
}
int main() {
  float h[64], *in, *out;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 64>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 64; ++i) s += h[i];
  printf("%g %g %g\n", h[0], h[63], s);
  return 0;
}
)";

// cuda-samples' globalToShmemAsyncCopy kernel 0 (AsyncCopyMultiStageLargeChunk) shape: a 16 x 16
// block whose threads with t4x = 4 x < 16 copy 16 bytes each into a thread's pipeline (lanes 0-3
// and 16-19 of every warp), and every lane commits right after, the warp apart there; four stages
// ahead, then four waits. in[k] = k: out[16 y + x] is the sum over s of tile[s][15 - y][15 - x]
// = in[256 s + 16 (15 - y) + 15 - x], 256 (0 + 1 + 2 + 3) + 4 (255 - 16 y - x) = 2556 - 64 y - 4 x:
// out[0] = 2556, out[255] = 1536. A warp's copies are two rows of 64 bytes, one 128-byte line: a
// request a warp a stage each way, 8 warps x 4 stages = 32. Threads with x < 4 issue a copy a stage
// (4 in all); every thread commits 4 groups and waits 4 times.
inline constexpr const char* kQuarterCopies = R"(#include <cstdio>
#include <cuda/pipeline>
__global__ void stages(const float* in, float* out) {
  __shared__ alignas(16) float tile[4][16][16];
  const int x = threadIdx.x, y = threadIdx.y, t4x = x * 4;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 4; ++s) {
    pipe.producer_acquire();
    if (t4x < 16)
      cuda::memcpy_async(&tile[s][y][t4x], &in[s * 256 + y * 16 + t4x], cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
  }
  float sum = 0;
  for (int s = 0; s < 4; ++s) {
    pipe.consumer_wait();
    __syncthreads();
    sum += tile[s][15 - y][15 - x];
    pipe.consumer_release();
  }
  out[y * 16 + x] = sum;
}
int main() {
  float h[1024], *in, *out;
  for (int i = 0; i < 1024; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stages<<<1, dim3(16, 16)>>>(in, out);
  cudaMemcpy(h, out, 256 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("out %g %g\n", h[0], h[255]);
  return 0;
}
)";

inline std::string Staged(const char* extra) {
  std::string text = kStaged;
  text.replace(text.find("EXTRA"), 5, extra);
  return text;
}

}  // namespace ws::test
