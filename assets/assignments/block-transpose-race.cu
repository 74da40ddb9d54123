// Assignment: fix exercise 4.10's race (block-transpose-race.toml). Kirk & Hwu, exercise 4.10: a
// new CUDA programmer's kernel that transposes each BLOCK_WIDTH x BLOCK_WIDTH tile of A in place.
// (The book writes BLOCK_SIZE in the body and BLOCK_WIDTH in the declaration; they are the same
// number here.)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_WIDTH 8  // warpscope: param BLOCK_WIDTH 1..20
#define BLOCK_SIZE BLOCK_WIDTH
#define A_WIDTH 64     // a multiple of BLOCK_WIDTH
#define A_HEIGHT 64

__global__ void
BlockTranspose(float* A_elements, int A_width, int A_height)
{
    __shared__ float blockA[BLOCK_WIDTH][BLOCK_WIDTH];
    int baseIdx = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    baseIdx += (blockIdx.y * BLOCK_SIZE + threadIdx.y) * A_width;
    blockA[threadIdx.y][threadIdx.x] = A_elements[baseIdx];
    A_elements[baseIdx] = blockA[threadIdx.x][threadIdx.y];  // goal: write-back
}

int main()
{
    const int w = A_WIDTH - A_WIDTH % BLOCK_WIDTH, h = A_HEIGHT - A_HEIGHT % BLOCK_WIDTH;
    size_t bytes = w * h * sizeof(float);
    float* a = (float*)malloc(bytes);
    float* out = (float*)malloc(bytes);
    for (int i = 0; i < w * h; ++i) a[i] = (float)i;
    float* A;
    cudaMalloc((void**)&A, bytes);
    cudaMemcpy(A, a, bytes, cudaMemcpyHostToDevice);
    dim3 blockDim(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 gridDim(w / blockDim.x, h / blockDim.y);
    BlockTranspose<<<gridDim, blockDim>>>(A, w, h);
    cudaMemcpy(out, A, bytes, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int tx = x % BLOCK_WIDTH, ty = y % BLOCK_WIDTH;
            int src = (y - ty + tx) * w + (x - tx + ty);  // the same tile, transposed
            wrong += out[y * w + x] != a[src];
        }
    printf("BLOCK_WIDTH %d: %d of %d elements wrong\n", BLOCK_WIDTH, wrong, w * h);
    cudaFree(A);
    free(a);
    free(out);
    return 0;
}
