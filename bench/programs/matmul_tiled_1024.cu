// The engine's benchmark (docs/ENGINE.md, bench/program_bench.sh): a course's tiled matrix
// multiplication at the size course repositories ship, 1024 x 1024 with 32 x 32 tiles (1M
// threads, 1,024 blocks, 2.3 G recorded accesses). Its own check recomputes 4,096 sampled
// elements on the host (exact: small integers).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define N 1024
#define TILE 32

__global__ void matmulTiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main() {
  const size_t bytes = size_t{N} * N * sizeof(float);
  float* a = (float*)malloc(bytes);
  float* b = (float*)malloc(bytes);
  float* c = (float*)malloc(bytes);
  for (int i = 0; i < N * N; ++i) {
    a[i] = (float)(i % 5) - 2.0f;
    b[i] = (float)(i % 3) - 1.0f;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
  matmulTiled<<<grid, block>>>(da, db, dc, N);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int s = 0; s < 4096; ++s) {
    const int r = (s * 7919) % N, col = (s * 104729) % N;
    float want = 0.0f;
    for (int k = 0; k < N; ++k) want += a[r * N + k] * b[k * N + col];
    if (want != c[r * N + col]) ++wrong;
  }
  printf("%d of 4096 sampled elements wrong\n", wrong);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return wrong != 0;
}
