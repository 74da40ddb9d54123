// Asynchronous copies into shared memory, one stage against two (the lecture "async-copies";
// open it in Warpscope and look at the Pipeline view; kStages is a slider). Each block sums 8
// tiles of 128 floats. one_stage copies a tile with cuda::memcpy_async and waits for it at once:
// nothing overlaps the copy. two_stage copies tile k + 1 while it adds tile k, so that a tile is
// in flight while the block works. Each thread adds its neighbour's element, so the block syncs
// after each wait (the copy lands in the thread's own slot) and before the stage is copied into
// again.
#include <cstdio>
#include <cuda/pipeline>

constexpr int kThreads = 128, kTiles = 8;
constexpr int kStages = 2;  // warpscope: param kStages 1..2

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
  static float h[blocks * kThreads * kTiles], r[blocks * kThreads];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 7);
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  if (kStages == 1)
    one_stage<<<blocks, kThreads>>>(in, out);
  else
    two_stage<<<blocks, kThreads>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int right = 0;  // each thread's sum, added on the host
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < kThreads; ++t) {
      float sum = 0;
      for (int k = 0; k < kTiles; ++k) sum += h[(b * kTiles + k) * kThreads + (t + 1) % kThreads];
      right += r[b * kThreads + t] == sum;
    }
  }
  printf("%d stage(s): %d of %d sums right; block 0 thread 0: %g\n", kStages, right,
         blocks * kThreads, r[0]);
  return right == blocks * kThreads ? 0 : 1;
}
