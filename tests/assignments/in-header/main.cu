// A goal whose marker is in a header (kern.cuh, as course programs keep their kernels) and whose
// kernel is not the launch the views show: zero, scale, zero (the views show the last).
#include <cstdio>
#include "kern.cuh"

__global__ void zero(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 0.0f;
}

int main() {
    const int n = 1024;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    zero<<<n / 256, 256>>>(in, n);
    scale<<<n / 256, 256>>>(out, in, n);
    zero<<<n / 256, 256>>>(in, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
