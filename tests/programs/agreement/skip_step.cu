// Agreement (issue 21): a four-step loop reading one row of 32 floats a step, where lane 0 of
// every warp skips step 1. A GPU makes one request a step: 4 sectors each (16 a warp), not 7.
#include <cstdio>
__global__ void four(const float* in, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 4; ++k) {
    if (threadIdx.x % 32 == 0 && k == 1) continue;
    s += in[k * 4096 + t];
  }
  out[t] = s;
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 4 * 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMemset(in, 0, 4 * 4096 * sizeof(float));
  four<<<16, 256>>>(in, out);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
