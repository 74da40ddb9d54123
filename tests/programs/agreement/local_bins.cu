// Agreement (issue 21, item 12): a per-thread histogram in a local array indexed by the data, so
// the compiler puts it in local memory, which interleaves a warp's lanes word by word. Lane l of
// every warp counts bins (7 l + k) % 32 over 8 steps: 32 different bins a step, each request 32
// sectors (one per lane), where the zeroing and the read-out (every lane on one bin) take 4.
#include <cstdio>
__global__ void bins(const int* in, int* out) {
  int h[32];
  for (int b = 0; b < 32; ++b) h[b] = 0;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; ++k) h[in[k * 4096 + t] & 31]++;
  for (int b = 0; b < 32; ++b) out[b * 4096 + t] = h[b];
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 8 * 4096 * sizeof(int));
  cudaMallocManaged(&out, 32 * 4096 * sizeof(int));
  for (int k = 0; k < 8; ++k)
    for (int t = 0; t < 4096; ++t) in[k * 4096 + t] = 7 * (t % 32) + k;
  bins<<<16, 256>>>(in, out);
  cudaDeviceSynchronize();
  int total = 0;
  for (int b = 0; b < 32; ++b) total += out[b * 4096 + 5];
  printf("%d\n", total);  // 8: thread 5 counted 8 values
  return 0;
}
