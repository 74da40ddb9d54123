// Vector add, after the CSU "CUDA 1" slides: the same work split two ways between threads.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// chunked: each thread adds valuesPerThread contiguous elements. Neighbouring threads are
// valuesPerThread floats apart, so a warp's request spreads over valuesPerThread times more
// sectors than it needs: not coalesced.
__global__ void vecAddChunked(float* C, const float* A, const float* B, int valuesPerThread) {
  int start = (blockIdx.x * blockDim.x + threadIdx.x) * valuesPerThread;
  for (int i = start; i < start + valuesPerThread; ++i) {
    C[i] = A[i] + B[i];
  }
}

// interleaved: in step k, consecutive threads of a block add consecutive elements of the
// block's partition: every warp request is 32 consecutive floats, coalesced.
__global__ void vecAddInterleaved(float* C, const float* A, const float* B, int valuesPerThread) {
  int blockStart = blockIdx.x * blockDim.x * valuesPerThread;
  for (int k = 0; k < valuesPerThread; ++k) {
    int i = blockStart + k * blockDim.x + threadIdx.x;
    C[i] = A[i] + B[i];
  }
}
