// Constant memory, after the memory-model slides: one read is broadcast to every thread that
// asks for the same address; different addresses are served one after another.
#pragma once
// Plain CUDA, as the slides print it: the table lives in __constant__ memory and the host fills
// it with cudaMemcpyToSymbol. The build turns the declarations into Warpscope's recording types,
// line for line (program/rewrite/lesson_form.cpp); every read then counts in the views.

__constant__ float coeffs[64];

// broadcast: every thread of a block reads the same coefficient: one read serves the warp.
__global__ void constantBroadcast(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[blockIdx.x % 64] * 2.0f;
}

// serialized: each lane reads a different coefficient: 32 reads, one after another.
__global__ void constantSerialized(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[threadIdx.x % 64] * 2.0f;
}
