// Assignment: a faster tree (reduction.toml). A parallel sum in the style of the reduction kernels
// of NVIDIA's cuda-samples: each block adds its 256 inputs in shared memory, a tree of halving
// steps. Keep `// goal: tree` on the line that adds in the tree.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 64

// Interleaved addressing: at step s, thread tid adds word tid + s when tid is a multiple of 2s.
__global__ void reduce(const int* g_in, int* g_out)
{
    __shared__ int sdata[THREADS];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    // A solution: sequential addressing, the working threads consecutive.
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];  // goal: tree
        }
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

int main()
{
    const int n = THREADS * BLOCKS;
    int* in = (int*)malloc(n * sizeof(int));
    int* out = (int*)malloc(BLOCKS * sizeof(int));
    long long want = 0;
    for (int i = 0; i < n; ++i) {
        in[i] = (i * 7) % 13;
        want += in[i];
    }
    int *d_in, *d_out;
    cudaMalloc((void**)&d_in, n * sizeof(int));
    cudaMalloc((void**)&d_out, BLOCKS * sizeof(int));
    cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaMemcpy(out, d_out, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);
    long long got = 0;
    for (int b = 0; b < BLOCKS; ++b) got += out[b];
    printf("sum %lld, expected %lld: %s\n", got, want, got == want ? "right" : "WRONG");
    cudaFree(d_in);
    cudaFree(d_out);
    free(in);
    free(out);
    return got != want;
}
