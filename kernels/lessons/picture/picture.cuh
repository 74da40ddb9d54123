// The textbook's picture kernel (Figure 4.4): a 2D grid of 2D blocks covers an n x m image;
// threads outside the image fail the bounds test and do nothing.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

__global__ void PictureKernel(const float* d_Pin, float* d_Pout, int n, int m) {
  // Calculate the row # of the d_Pin and d_Pout element to process
  int Row = blockIdx.y * blockDim.y + threadIdx.y;

  // Calculate the column # of the d_Pin and d_Pout element to process
  int Col = blockIdx.x * blockDim.x + threadIdx.x;

  // each thread computes one element of d_Pout if in range
  if ((Row < m) && (Col < n)) {
    d_Pout[Row * n + Col] = 2 * d_Pin[Row * n + Col];
  }
}
