// Agreement (issue 21): a 1D stencil whose halo lanes load under `if (threadIdx.x < RADIUS)` just
// before the barrier. Every thread passes the barrier once: 4096 passes for 4096 threads.
#include <cstdio>
#define RADIUS 3
#define BLOCK 256
#define N 4096
__global__ void stencil(const int* in, int* out) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  const int g = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  const int l = threadIdx.x + RADIUS;
  temp[l] = in[g];
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = in[g - RADIUS];
    temp[l + BLOCK] = in[g + BLOCK];
  }
  __syncthreads();
  int result = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) result += temp[l + o];
  out[g - RADIUS] = result;
}
int main() {
  int *in, *out;
  cudaMalloc(&in, (N + 2 * RADIUS) * sizeof(int));
  cudaMalloc(&out, N * sizeof(int));
  int h[N + 2 * RADIUS];
  for (int i = 0; i < N + 2 * RADIUS; ++i) h[i] = 1;
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stencil<<<N / BLOCK, BLOCK>>>(in, out);
  cudaMemcpy(h, out, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s\n", h[0] == 2 * RADIUS + 1 && h[N - 1] == 2 * RADIUS + 1 ? "PASS" : "FAIL");
  return 0;
}
