// A block's cuda::pipeline with roles (the lecture "async-copies"): warp 4 produces, copying each
// tile of 128 floats into the next free stage; warps 0-3 consume, each adding its lanes' floats
// of the tile. kStages stages (a slider): the producer may run kStages tiles ahead of the
// consumers, and waits in producer_acquire() when every stage is still held. Look at the
// Pipeline view: with one stage the producer and the consumers take turns; with two or more the
// copy of the next tile is in flight while the consumers add this one.
#include <cooperative_groups.h>

#include <cstdio>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

constexpr int kConsumers = 128, kTiles = 8;
constexpr int kStages = 2;  // warpscope: param kStages 1..4

__global__ void staged(const float* in, float* out) {
  __shared__ float tile[kStages][kConsumers];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x >= kConsumers;
  auto pipe = cuda::make_pipeline(
      block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const float* base = in + blockIdx.x * kTiles * kConsumers;
  float sum = 0;
  for (int k = 0; k < kTiles; ++k) {
    if (producer) {  // 32 lanes copy the tile's 128 floats, 4 each
      pipe.producer_acquire();
      for (int i = threadIdx.x - kConsumers; i < kConsumers; i += 32)
        cuda::memcpy_async(&tile[k % kStages][i], &base[k * kConsumers + i], sizeof(float), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += tile[k % kStages][threadIdx.x];
      pipe.consumer_release();
    }
  }
  if (!producer) out[blockIdx.x * kConsumers + threadIdx.x] = sum;
}

int main() {
  const int blocks = 2;
  static float h[blocks * kTiles * kConsumers], r[blocks * kConsumers];
  for (int i = 0; i < blocks * kTiles * kConsumers; ++i) h[i] = static_cast<float>(i % 5);
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  staged<<<blocks, kConsumers + 32>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < kConsumers; ++t) {
      float sum = 0;
      for (int k = 0; k < kTiles; ++k) sum += h[(b * kTiles + k) * kConsumers + t];
      right += r[b * kConsumers + t] == sum;
    }
  }
  printf("%d stage(s): %d of %d sums right\n", kStages, right, blocks * kConsumers);
  return right == blocks * kConsumers ? 0 : 1;
}
