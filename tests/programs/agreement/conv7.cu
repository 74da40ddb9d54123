// Agreement (issue 21): a 7x7 convolution whose taps skip the image's edges (a bounds test inside
// the loop). Each tap's read of the mask in __constant__ memory is one request of 1 sector for
// the lanes that take it; the image reads coalesce by row.
#include <cstdio>
#define W 128
#define H 64
#define R 3
__constant__ float mask[2 * R + 1][2 * R + 1];
__global__ void conv(const float* in, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  float s = 0;
  for (int j = -R; j <= R; ++j) {
    for (int i = -R; i <= R; ++i) {
      const int xx = x + i, yy = y + j;
      if (xx >= 0 && xx < W && yy >= 0 && yy < H) s += in[yy * W + xx] * mask[j + R][i + R];
    }
  }
  out[y * W + x] = s;
}
int main() {
  float *in, *out, m[2 * R + 1][2 * R + 1];
  for (int j = 0; j < 2 * R + 1; ++j)
    for (int i = 0; i < 2 * R + 1; ++i) m[j][i] = 1.0f / 49;
  cudaMemcpyToSymbol(mask, m, sizeof m);
  cudaMalloc(&in, W * H * sizeof(float));
  cudaMalloc(&out, W * H * sizeof(float));
  cudaMemset(in, 0, W * H * sizeof(float));
  conv<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(in, out);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
