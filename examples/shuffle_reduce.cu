// A sum with warp shuffles: each warp adds its 32 values in 5 __shfl_down_sync steps (16, 8, 4,
// 2, 1 lanes apart), with no shared memory and no __syncthreads() inside the warp; one shared
// slot per warp then carries the warp sums to the first warp, which adds them the same way.
// Open it in the app and step the playback: each shuffle is drawn as lane-to-lane arrows.
#include <cstdio>
#include <cuda_runtime.h>

#define N 4096        // warpscope: param N 256..65536 step 256
#define BLOCK 256     // warpscope: param BLOCK 64..1024 step 64

__device__ float warpReduceSum(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void reduceShuffle(const float* in, float* out, int n)
{
    __shared__ float warpSums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;

    float v = i < n ? in[i] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0) warpSums[warp] = v;
    __syncthreads();

    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? warpSums[lane] : 0.0f;
        v = warpReduceSum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

int main()
{
    float* h = (float*)malloc(N * sizeof(float));
    for (int i = 0; i < N; ++i) h[i] = (float)(i % 10);  // small integers: an exact float sum
    float *d_in, *d_out;
    cudaMalloc((void**)&d_in, N * sizeof(float));
    cudaMalloc((void**)&d_out, sizeof(float));
    cudaMemcpy(d_in, h, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(float));
    reduceShuffle<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, N);
    float sum = 0;
    cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    double expected = 0;
    for (int i = 0; i < N; ++i) expected += h[i];
    printf("sum of %d values: %.1f (expected %.1f): %s\n", N, sum, expected,
           sum == expected ? "correct" : "WRONG");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return sum == expected ? 0 : 1;
}
