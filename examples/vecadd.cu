// Vector add, after the CSU "CUDA 1" slides (cs475, Wim Bohm): the same work split two ways.
// Each thread adds ValuesPerThread elements; GridWidth blocks of BlockWidth threads.
//   chunked:     a thread adds a contiguous chunk: neighbouring threads are ValuesPerThread
//                floats apart, so each warp request spreads over many sectors (not coalesced)
//   interleaved: in step k, consecutive threads add consecutive elements (coalesced)
// Run it: warpscope-cli run --file examples/vecadd.cu --arg 8
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Defines
#define GridWidth 60    // warpscope: param GridWidth 1..120
#define BlockWidth 128  // warpscope: param BlockWidth 32..512 step 32

__global__ void AddVectorsChunked(const float* A, const float* B, float* C, int N)
{
    int valuesPerThread = N / (gridDim.x * blockDim.x);
    int start = (blockIdx.x * blockDim.x + threadIdx.x) * valuesPerThread;
    for (int i = start; i < start + valuesPerThread; ++i) {
        C[i] = A[i] + B[i];
    }
}

__global__ void AddVectorsInterleaved(const float* A, const float* B, float* C, int N)
{
    int valuesPerThread = N / (gridDim.x * blockDim.x);
    int blockStart = blockIdx.x * blockDim.x * valuesPerThread;
    for (int k = 0; k < valuesPerThread; ++k) {
        int i = blockStart + k * blockDim.x + threadIdx.x;
        C[i] = A[i] + B[i];
    }
}

// Host code performs setup and calls the kernel.
int main(int argc, char** argv)
{
    int ValuesPerThread = 4;  // number of values per thread
    if (argc > 1) sscanf(argv[1], "%d", &ValuesPerThread);
    if (ValuesPerThread < 1 || ValuesPerThread > 64) {
        printf("ValuesPerThread must be 1..64, not %d\n", ValuesPerThread);
        return 1;
    }
    int N = GridWidth * BlockWidth * ValuesPerThread;  // total vector size
    size_t size = N * sizeof(float);

    float *h_A = (float*)malloc(size), *h_B = (float*)malloc(size), *h_C = (float*)malloc(size);
    for (int i = 0; i < N; ++i) {
        h_A[i] = (float)i;
        h_B[i] = (float)(N - i);
    }
    float *d_A, *d_B, *d_C;
    cudaMalloc((void**)&d_A, size);
    cudaMalloc((void**)&d_B, size);
    cudaMalloc((void**)&d_C, size);
    cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);

    dim3 dimGrid(GridWidth);
    dim3 dimBlock(BlockWidth);
    int errors = 0;
    for (int pass = 0; pass < 2; ++pass) {
        cudaEvent_t start, stop;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        cudaEventRecord(start);
        if (pass == 0)
            AddVectorsChunked<<<dimGrid, dimBlock>>>(d_A, d_B, d_C, N);
        else
            AddVectorsInterleaved<<<dimGrid, dimBlock>>>(d_A, d_B, d_C, N);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
        for (int i = 0; i < N; ++i)
            if (h_C[i] != (float)N) ++errors;
        printf("%s: %d values, %s (%.3f ms)\n", pass == 0 ? "chunked" : "interleaved", N,
               errors == 0 ? "correct" : "WRONG", ms);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return errors == 0 ? 0 : 1;
}
