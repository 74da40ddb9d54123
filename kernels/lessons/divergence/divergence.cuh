// Branch divergence, after the "Optimizing CUDA" slides: when the lanes of one warp take
// different sides of a branch, the warp runs both sides one after the other, each with only its
// own lanes active.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

constexpr int WARP_SIZE = 32;

// by-thread: if (threadIdx.x > 2) splits warp 0 of every block (lanes 0-2 against 3-31).
__global__ void branchByThread(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x > 2) {
    out[i] = 1.0f;
  } else {
    out[i] = 2.0f;
  }
}

// by-warp: if (threadIdx.x / WARP_SIZE > 2) gives the same answer to every lane of a warp, so
// no warp diverges: branch granularity is a whole multiple of the warp size.
__global__ void branchByWarp(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x / WARP_SIZE > 2) {
    out[i] = 1.0f;
  } else {
    out[i] = 2.0f;
  }
}
