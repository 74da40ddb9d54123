// Exercise 4.10 from Kirk & Hwu: a new CUDA programmer's kernel that transposes each
// BLOCK_WIDTH x BLOCK_WIDTH tile of A in place. (The book writes BLOCK_SIZE in the body and
// BLOCK_WIDTH in the declaration; they are the same number here.)
//
// The kernel has a race: a thread reads blockA[threadIdx.x][threadIdx.y], which another thread
// wrote, with no __syncthreads() in between. On a G80 it happens to work while a whole block is
// one warp (BLOCK_WIDTH * BLOCK_WIDTH <= 32: the warp's store finishes before its load); since
// Volta the lanes of a warp may run apart, so only BLOCK_WIDTH 1 is right by the rules. The fix
// (part b) is a __syncthreads() between the two lines. Warpscope's hazards view lists the racing
// pairs (lines 30 -> 31) at every size but 1. The engine decides the output: the SIMT engine (the
// default) runs a warp's lanes together, as a G80 does, so BLOCK_WIDTH 4 (one warp) comes out
// right by luck and 8 (two warps: warp 0 reads rows 4-7 before warp 1 wrote them) does not;
// --engine fiber runs each thread to its end before the next, so threads read tile entries no
// one has written yet at every size but 1.
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
    A_elements[baseIdx] = blockA[threadIdx.x][threadIdx.y];
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
