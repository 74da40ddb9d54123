// Assignment: remove the bank conflicts (transpose-banks.toml). Keep both `// goal:` comments: the
// goals find the tile read and the store by them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_DIM 32
#define N 256

// The coalesced transpose: a tile read by rows and written out by rows. Reading a column of the
// tile puts all 32 words a warp needs in one bank.
__global__ void transpose(float* odata, const float* idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // a solution: padded
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = idata[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    float v = tile[threadIdx.x][threadIdx.y];  // goal: tile-read
    odata[y * height + x] = v;  // goal: store
}

int main()
{
    const size_t bytes = N * N * sizeof(float);
    float* in = (float*)malloc(bytes);
    float* out = (float*)malloc(bytes);
    for (int i = 0; i < N * N; ++i) in[i] = (float)i;
    float *d_in, *d_out;
    cudaMalloc((void**)&d_in, bytes);
    cudaMalloc((void**)&d_out, bytes);
    cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
    dim3 grid(N / TILE_DIM, N / TILE_DIM), threads(TILE_DIM, TILE_DIM);
    transpose<<<grid, threads>>>(d_out, d_in, N, N);
    cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) wrong += out[x * N + y] != in[y * N + x];
    // The output goal looks for ": 0 of 65536 elements wrong": printed only when every element
    // is the CPU's transpose.
    printf("transpose %dx%d: %d of %d elements wrong\n", N, N, wrong, N * N);
    cudaFree(d_in);
    cudaFree(d_out);
    free(in);
    free(out);
    return wrong != 0;
}
