// Shared-memory wavefronts of nvcuda::wmma's loads and stores as Nsight Compute counts them, for
// tiles whose rows are `ldm` elements apart (issue 53: a fragment's load from shared memory is to
// be costed as the hardware's requests; cudaTensorCoreGemm pads its rows by SKEW_HALF). One warp,
// one block a launch, one load per launch, so that each launch's counters are that load's (with
// the tile's fill before it, whose stores are apart in the counters: op_st).
// scripts/gpu-ldsm-probe.sh runs it under ncu and prints a line a launch.
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
using namespace nvcuda;
template <typename L>
__global__ void LoadA(const half* g, float* out, int ldm) {
  __shared__ half s[16 * 272];
  for (int i = threadIdx.x; i < 16 * ldm; i += 32) s[i] = g[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, L> fa;
  wmma::load_matrix_sync(fa, s, ldm);
  float acc = 0;
  for (int i = 0; i < fa.num_elements; ++i) acc += __half2float(fa.x[i]);
  out[threadIdx.x] = acc;
}
__global__ void LoadAcc(float* out, int ldm) {
  __shared__ float s[16 * 272];
  for (int i = threadIdx.x; i < 16 * ldm; i += 32) s[i] = i;
  __syncthreads();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, s, ldm, wmma::mem_row_major);
  float acc = 0;
  for (int i = 0; i < fc.num_elements; ++i) acc += fc.x[i];
  out[threadIdx.x] = acc;
  __syncthreads();
  wmma::store_matrix_sync(s, fc, ldm, wmma::mem_row_major);
  __syncthreads();
  out[32 + threadIdx.x] = s[threadIdx.x * 3];
}
int main() {  // launches in this order: half A row major, column major, the float accumulator
  half* g;
  float* o;
  cudaMalloc(&g, 16 * 272 * 2);
  cudaMemset(g, 0, 16 * 272 * 2);
  cudaMalloc(&o, 4096);
  const int ldms[] = {16, 24, 32, 40, 64, 72, 128, 136, 256, 264};
  for (int ldm : ldms) {
    printf("row %d\n", ldm);
    LoadA<wmma::row_major><<<1, 32>>>(g, o, ldm);
    cudaDeviceSynchronize();
  }
  for (int ldm : ldms) {
    printf("col %d\n", ldm);
    LoadA<wmma::col_major><<<1, 32>>>(g, o, ldm);
    cudaDeviceSynchronize();
  }
  for (int ldm : ldms) {
    printf("acc %d\n", ldm);
    LoadAcc<<<1, 32>>>(o, ldm);
    cudaDeviceSynchronize();
  }
  printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
}
