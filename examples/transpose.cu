// Matrix transpose, from the "Optimizing CUDA" slides: the naive kernel, the one that coalesces
// through a shared-memory tile, and the padded tile that removes its bank conflicts.
// Run it: warpscope examples/transpose.cu   or   warpscope-cli run --file examples/transpose.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_DIM 16  // warpscope: param TILE_DIM 8..32 step 8
#define N 256        // warpscope: param N 64..1024 step 64

__global__ void transposeNaive(float *odata, float *idata, int width, int height)
{
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;

    int index_in  = xIndex + width * yIndex;
    int index_out = yIndex + height * xIndex;

    odata[index_out] = idata[index_in];
}

__global__ void transposeCoalesced(float *odata, float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + (yIndex)*width;

    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + (yIndex)*height;

    tile[threadIdx.y][threadIdx.x] = idata[index_in];

    __syncthreads();

    odata[index_out] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposePadded(float *odata, float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + (yIndex)*width;

    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + (yIndex)*height;

    tile[threadIdx.y][threadIdx.x] = idata[index_in];

    __syncthreads();

    odata[index_out] = tile[threadIdx.x][threadIdx.y];
}

static int check(const float *in, const float *out, const char *name)
{
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x)
            if (out[x * N + y] != in[y * N + x]) {
                printf("%s: wrong at (%d, %d)\n", name, x, y);
                return 1;
            }
    printf("%s: transposed %dx%d correctly\n", name, N, N);
    return 0;
}

int main()
{
    const size_t bytes = N * N * sizeof(float);
    float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
    for (int i = 0; i < N * N; ++i) h_in[i] = (float)i;

    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, bytes);
    cudaMalloc((void **)&d_out, bytes);
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);

    dim3 grid(N / TILE_DIM, N / TILE_DIM), threads(TILE_DIM, TILE_DIM);
    int failed = 0;

    transposeNaive<<<grid, threads>>>(d_out, d_in, N, N);
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    failed |= check(h_in, h_out, "transposeNaive");

    transposeCoalesced<<<grid, threads>>>(d_out, d_in, N, N);
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    failed |= check(h_in, h_out, "transposeCoalesced");

    transposePadded<<<grid, threads>>>(d_out, d_in, N, N);
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    failed |= check(h_in, h_out, "transposePadded");

    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return failed;
}
