// Constant memory, after the memory-model slides: one read is broadcast to every thread that
// asks for the same address; different addresses are served one after another.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Constant;
using ws::Global;

// broadcast: every thread of a block reads the same coefficient: one read serves the warp.
__global__ void constantBroadcast(Global<float> out, Constant<float> coeffs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[blockIdx.x % 64] * 2.0f;
}

// serialized: each lane reads a different coefficient: 32 reads, one after another.
__global__ void constantSerialized(Global<float> out, Constant<float> coeffs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[threadIdx.x % 64] * 2.0f;
}
