// A kernel the SIMT engine runs thread by thread (a switch: docs/ENGINE.md), for the Kernels
// view's test: its row says so.
#include <cstdio>
__global__ void classify(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (in[i] % 3) {
    case 0: out[i] = 10; break;
    case 1: out[i] = 20; break;
    default: out[i] = 30;
  }
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 256 * sizeof(int));
  cudaMallocManaged(&out, 256 * sizeof(int));
  for (int i = 0; i < 256; ++i) in[i] = i;
  classify<<<2, 128>>>(in, out, 256);
  cudaDeviceSynchronize();
  long s = 0;
  for (int i = 0; i < 256; ++i) s += out[i];
  printf("%ld\n", s);
  return 0;
}
