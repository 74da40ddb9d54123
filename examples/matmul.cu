// Tiled matrix multiplication, as the G80 slides print MatrixMulKernel: each block computes one
// TILE_WIDTH x TILE_WIDTH tile of Pd, staging tiles of Md and Nd in shared memory.
// (The slides' text lost its underscores and `__` in extraction: "TILE WIDTH", "shared",
// "syncthreads()"; this is the code as written for nvcc.)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_WIDTH 16  // warpscope: param TILE_WIDTH 4..32 step 4
#define WIDTH 128      // warpscope: param WIDTH 32..1024 step 32

__global__ void MatrixMulKernel(float* Md, float* Nd, float* Pd, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x; int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    // Identify the row and column of the Pd element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    // Loop over the Md and Nd tiles required to compute the Pd element
    for (int m = 0; m < Width / TILE_WIDTH; ++m) {
        // Collaborative loading of Md and Nd tiles into shared memory
        Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
        Nds[ty][tx] = Nd[Col + (m * TILE_WIDTH + ty) * Width];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    Pd[Row * Width + Col] = Pvalue;
}

int main()
{
    const int Width = WIDTH;
    if (Width % TILE_WIDTH != 0) {
        printf("WIDTH (%d) must be a multiple of TILE_WIDTH (%d)\n", Width, TILE_WIDTH);
        return 1;
    }
    size_t size = Width * Width * sizeof(float);
    float *M = (float*)malloc(size), *N = (float*)malloc(size), *P = (float*)malloc(size);
    for (int i = 0; i < Width * Width; ++i) {
        M[i] = (float)(i % 7) - 3.0f;
        N[i] = (float)(i % 5) - 2.0f;
    }
    float *Md, *Nd, *Pd;
    cudaMalloc((void**)&Md, size);
    cudaMalloc((void**)&Nd, size);
    cudaMalloc((void**)&Pd, size);
    cudaMemcpy(Md, M, size, cudaMemcpyHostToDevice);
    cudaMemcpy(Nd, N, size, cudaMemcpyHostToDevice);

    // Setup the execution configuration
    dim3 dimGrid(Width / TILE_WIDTH, Width / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    // Launch the device computation threads!
    MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
    cudaMemcpy(P, Pd, size, cudaMemcpyDeviceToHost);

    // The check, a row at a time: each sum is added over k in the same order as the kernel's
    // (N's rows read in order: at WIDTH=1024 the column-by-column loop took 7 s of the 19 s of
    // the whole `warpscope-cli run` on a 2-core machine, this one well under 1 s).
    int wrong = 0;
    float* sum = (float*)malloc(Width * sizeof(float));
    for (int r = 0; r < Width && wrong == 0; ++r) {
        for (int c = 0; c < Width; ++c) sum[c] = 0;
        for (int k = 0; k < Width; ++k)
            for (int c = 0; c < Width; ++c) sum[c] += M[r * Width + k] * N[k * Width + c];
        for (int c = 0; c < Width; ++c)
            if (sum[c] != P[r * Width + c]) {  // small integers: exact in float
                printf("Pd[%d][%d] = %g, expected %g\n", r, c, P[r * Width + c], sum[c]);
                wrong = 1;
                break;
            }
    }
    free(sum);
    if (!wrong) printf("multiplied two %dx%d matrices correctly\n", Width, Width);
    cudaFree(Md);
    cudaFree(Nd);
    cudaFree(Pd);
    free(M);
    free(N);
    free(P);
    return wrong;
}
