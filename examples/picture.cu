// The picture kernel from Kirk & Hwu, chapter 4 (Figure 4.4): a 2D grid of 16x16 blocks scales
// every pixel of an n x m picture by 2. The grid covers more pixels than the picture has, so
// the `if` leaves the extra threads idle. (The book names it PictureKernell, with a stray "l".)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define WIDTH 76   // warpscope: param WIDTH 16..256 (n: pixels in a row)
#define HEIGHT 62  // warpscope: param HEIGHT 16..256 (m: rows)

__global__ void PictureKernel(float* d_Pin, float* d_Pout, int n, int m) {
    // Calculate the row # of the d_Pin and d_Pout element to process
    int Row = blockIdx.y*blockDim.y + threadIdx.y;

    // Calculate the column # of the d_Pin and d_Pout element to process
    int Col = blockIdx.x*blockDim.x + threadIdx.x;

    // each thread computes one element of d_Pout if in range
    if ((Row < m) && (Col < n)) {
        d_Pout[Row*n+Col] = 2*d_Pin[Row*n+Col];
    }
}

int main() {
    const int n = WIDTH, m = HEIGHT;
    size_t bytes = n * m * sizeof(float);
    float* h = (float*)malloc(bytes);
    for (int i = 0; i < n * m; ++i) h[i] = (float)(i % 256);
    float *d_Pin, *d_Pout;
    cudaMalloc((void**)&d_Pin, bytes);
    cudaMalloc((void**)&d_Pout, bytes);
    cudaMemcpy(d_Pin, h, bytes, cudaMemcpyHostToDevice);
    // The book's launch: ceil(n/16.0) x ceil(m/16.0) blocks of 16x16 threads.
    dim3 DimGrid((n - 1) / 16 + 1, (m - 1) / 16 + 1, 1);
    dim3 DimBlock(16, 16, 1);
    PictureKernel<<<DimGrid, DimBlock>>>(d_Pin, d_Pout, n, m);
    float* out = (float*)malloc(bytes);
    cudaMemcpy(out, d_Pout, bytes, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n * m; ++i) wrong += out[i] != 2 * h[i];
    printf("%dx%d picture scaled by 2: %s (%d blocks of 256 threads for %d pixels)\n", n, m,
           wrong ? "WRONG" : "correct", DimGrid.x * DimGrid.y, n * m);
    cudaFree(d_Pin);
    cudaFree(d_Pout);
    free(h);
    free(out);
    return wrong != 0;
}
