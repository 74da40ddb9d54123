// Matrix multiplication P = M x N of Width x Width floats, three ways (the textbook's chapters 4
// and 5 and the CSU shared/shared slides).
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).
// Every read and write then counts in the views; nothing else in the code changes.

// naive (textbook Figure 4.7): one thread per P element, every operand from global memory:
// 2 x Width loads per thread.
__global__ void MatrixMulKernel(const float* d_M, const float* d_N, float* d_P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) {
      Pvalue += d_M[Row * Width + k] * d_N[k * Width + Col];
    }
    d_P[Row * Width + Col] = Pvalue;
  }
}

// tiled: the block loads TILE_WIDTH x TILE_WIDTH tiles of M and N into shared memory, then every
// thread reads its operands there: global loads fall by a factor of TILE_WIDTH.
template <int TILE_WIDTH>
__global__ void MatrixMulTiled(const float* Md, const float* Nd, float* Pd, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) {
      Pvalue += Mds[ty][k] * Nds[k][tx];
    }
    __syncthreads();
  }
  Pd[Row * Width + Col] = Pvalue;
}

// tiled-2x2 (the CSU slides' exercise): b_r = b_c = 2 t with t_r = t_c = t. A block of t x t
// threads computes a 2t x 2t block of P; thread (i, j) owns C[i][j], C[i][j+t], C[i+t][j] and
// C[i+t][j+t], all in one inner-product loop. Half the global loads per P element again.
template <int TILE_WIDTH>
__global__ void MatrixMulTiled2x2(const float* Md, const float* Nd, float* Pd, int Width) {
  __shared__ float Mds[2 * TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][2 * TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * 2 * TILE_WIDTH + ty;
  int Col = blockIdx.x * 2 * TILE_WIDTH + tx;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Mds[ty + TILE_WIDTH][tx] = Md[(Row + TILE_WIDTH) * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    Nds[ty][tx + TILE_WIDTH] = Nd[(m * TILE_WIDTH + ty) * Width + Col + TILE_WIDTH];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) {
      float a0 = Mds[ty][k], a1 = Mds[ty + TILE_WIDTH][k];
      float b0 = Nds[k][tx], b1 = Nds[k][tx + TILE_WIDTH];
      c00 += a0 * b0;
      c01 += a0 * b1;
      c10 += a1 * b0;
      c11 += a1 * b1;
    }
    __syncthreads();
  }
  Pd[Row * Width + Col] = c00;
  Pd[Row * Width + Col + TILE_WIDTH] = c01;
  Pd[(Row + TILE_WIDTH) * Width + Col] = c10;
  Pd[(Row + TILE_WIDTH) * Width + Col + TILE_WIDTH] = c11;
}
