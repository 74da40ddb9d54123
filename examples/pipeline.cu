// Asynchronous copies into shared memory, one stage against two (issue 53's lesson; open it in
// Warpscope and look at the Pipeline view). Each block sums 8 tiles of 128 floats. one_stage
// copies a tile with cuda::memcpy_async and waits for it at once: nothing overlaps the copy.
// two_stage copies tile k + 1 while it adds tile k, so that a tile is in flight while the block
// works. Each thread adds its neighbour's element, so the block syncs after each wait (the copy
// lands in the thread's own slot) and before the stage is copied into again.
#include <cstdio>
#include <cuda/pipeline>

constexpr int kThreads = 128, kTiles = 8;

__global__ void one_stage(const float* in, float* out) {
  __shared__ float tile[kThreads];
  auto pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  const float* base = in + blockIdx.x * kThreads * kTiles;
  float sum = 0;
  for (int k = 0; k < kTiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[t], &base[k * kThreads + t], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += tile[(t + 1) % kThreads];
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * kThreads + t] = sum;
}

__global__ void two_stage(const float* in, float* out) {
  __shared__ float tile[2][kThreads];
  auto pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  const float* base = in + blockIdx.x * kThreads * kTiles;
  float sum = 0;
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[0][t], &base[t], sizeof(float), pipe);
  pipe.producer_commit();
  for (int k = 0; k < kTiles; ++k) {
    if (k + 1 < kTiles) {  // the next tile, into the other stage, while this one is added
      pipe.producer_acquire();
      cuda::memcpy_async(&tile[(k + 1) % 2][t], &base[(k + 1) * kThreads + t], sizeof(float), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();  // tile k has landed
    __syncthreads();
    sum += tile[k % 2][(t + 1) % kThreads];
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * kThreads + t] = sum;
}

int main() {
  const int blocks = 4, n = blocks * kThreads * kTiles;
  static float h[blocks * kThreads * kTiles], r1[blocks * kThreads], r2[blocks * kThreads];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 7);
  float *in, *out1, *out2;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out1, sizeof r1);
  cudaMalloc(&out2, sizeof r2);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  one_stage<<<blocks, kThreads>>>(in, out1);
  two_stage<<<blocks, kThreads>>>(in, out2);
  cudaMemcpy(r1, out1, sizeof r1, cudaMemcpyDeviceToHost);
  cudaMemcpy(r2, out2, sizeof r2, cudaMemcpyDeviceToHost);
  int same = 0;
  for (int i = 0; i < blocks * kThreads; ++i) same += r1[i] == r2[i];
  printf("%d of %d sums agree; block 0 thread 0: %g\n", same, blocks * kThreads, r1[0]);
  return same == blocks * kThreads ? 0 : 1;
}
