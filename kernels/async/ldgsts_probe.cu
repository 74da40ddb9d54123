// How an H200 serves the shared side of cp.async (LDGSTS): one warp, one
// __pipeline_memcpy_async a lane, in the patterns below; Nsight Compute's wavefronts per kernel
// (scripts: bench/gpu_batch.sh's ldgsts step) are kept in ldgsts_wavefronts.txt beside this file,
// and the emulator runs the same program (CoursePrograms.ACpAsyncWriteCostsWhatTheH200Counted).
#include <cuda_pipeline.h>
#include <cstdio>

// Lane l copies `bytes` from g[l * bytes] into the shared word at (l * stride) * 4 bytes.
template <int kBytes, int kStride, int kLanes>
__global__ void copy(const float* g, float* out) {
  __shared__ __align__(16) float sh[32 * 32 * 4];
  const int l = threadIdx.x;
  for (int i = l; i < 32 * 32 * 4; i += 32) sh[i] = 0;
  __syncthreads();
  if (l < kLanes) {
    __pipeline_memcpy_async(&sh[l * kStride], &g[l * (kBytes / 4)], kBytes);
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __syncthreads();
  out[l] = sh[l * kStride];
}

int main() {
  float *g, *out;
  cudaMalloc(&g, 32 * 16 * 4);
  cudaMalloc(&out, 32 * 4);
  cudaMemset(g, 0, 32 * 16 * 4);
  copy<4, 1, 32><<<1, 32>>>(g, out);   // a: 4 B contiguous
  copy<4, 2, 32><<<1, 32>>>(g, out);   // b: 4 B, every other word (2 lanes a bank)
  copy<4, 32, 32><<<1, 32>>>(g, out);  // c: 4 B, one bank
  copy<4, 1, 16><<<1, 32>>>(g, out);   // d: 4 B contiguous, 16 lanes
  copy<8, 2, 32><<<1, 32>>>(g, out);   // e: 8 B contiguous
  copy<16, 4, 32><<<1, 32>>>(g, out);  // f: 16 B contiguous
  copy<16, 4, 8><<<1, 32>>>(g, out);   // g: 16 B contiguous, 8 lanes
  copy<8, 4, 32><<<1, 32>>>(g, out);   // h: 8 B, every other 8 bytes
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
