// Does an H200 serve a warp's cp.async (LDGSTS) shared write one global line at a time? One warp,
// one __pipeline_memcpy_async of 4 (or 16) bytes a lane, into contiguous shared words, from
// sources that span 1, 2 or 4 global lines (docs/ncu-agreement.md, "Asynchronous copies"; the
// counts are kept in ldgsts_lines.txt beside this file, which
// CoursePrograms.ACpAsyncWriteTakesAWavefrontASourceLineOnTheH200 reads).
#include <cuda_pipeline.h>
#include <cstdio>

// Lane l copies kBytes into shared byte l * kBytes, from global float index src(l).
template <int kBytes, int kLanes, int kGroup, int kGap>
__global__ void copy(const float* g, float* out) {
  __shared__ __align__(16) float sh[32 * 4];
  const int l = threadIdx.x;
  if (l < kLanes) {
    // Lanes in groups of kGroup read contiguous sources; groups kGap floats apart.
    const int src = (l / kGroup) * kGap + (l % kGroup) * (kBytes / 4);
    __pipeline_memcpy_async(&sh[l * (kBytes / 4)], &g[src], kBytes);
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __syncthreads();
  out[l] = sh[l];
}

template <int kLanes>
__global__ void reversed(const float* g, float* out) {
  __shared__ float sh[32];
  const int l = threadIdx.x;
  __pipeline_memcpy_async(&sh[l], &g[31 - l], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[l] = sh[l];
}

int main() {
  float *g, *out;
  cudaMalloc(&g, 4096 * 4);
  cudaMalloc(&out, 32 * 4);
  cudaMemset(g, 0, 4096 * 4);
  copy<4, 32, 32, 0><<<1, 32>>>(g, out);   // i: one line
  copy<4, 32, 16, 64><<<1, 32>>>(g, out);  // j: two lines (halves 256 B apart)
  copy<4, 32, 8, 32><<<1, 32>>>(g, out);   // k: four lines (quarters 128 B apart)
  copy<4, 32, 8, 256><<<1, 32>>>(g, out);  // l: four lines 1 KB apart
  copy<4, 32, 16, 16><<<1, 32>>>(g, out);  // m: one line, halves side by side (a plain copy)
  copy<16, 8, 4, 64><<<1, 32>>>(g, out);   // n: 16 B, two lines
  copy<4, 32, 1, 32><<<1, 32>>>(g, out);   // o: 32 lines (each lane its own line)
  reversed<32><<<1, 32>>>(g, out);         // p: one line, lanes reversed
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
