// Shared-memory bank conflicts, after the "Optimizing CUDA" slides' bank addressing examples.
// Shared memory is split into 32 banks of 4-byte words (16 on compute 1.x); the threads of a warp
// that hit different words of one bank are served one after another.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Global;
using ws::SharedArray;

constexpr int kWords = 1024;  // a 4 KB shared array

// stride: thread t reads word t * stride. Stride 1 is conflict free; stride 2 puts two distinct
// words in every even bank (2-way); stride 8 eight (8-way). Any odd stride is conflict free.
__global__ void bankStride(Global<float> out, int stride) {
  __shared__ SharedArray<float, kWords> words;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  int t = threadIdx.x;
  out[blockIdx.x * blockDim.x + t] = words[(t * stride) % kWords];
}

// permutation: each warp reads its own 32 words in a random 1:1 order: every thread still hits a
// different bank, so there is no conflict.
__global__ void bankPermutation(Global<float> out, Global<const int> perm) {
  __shared__ SharedArray<float, kWords> words;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  int t = threadIdx.x;
  int p = perm[t % 32];
  out[blockIdx.x * blockDim.x + t] = words[(t / 32 * 32 + p) % kWords];
}

// broadcast: every thread reads the same word: one bank, one word, served once for all.
__global__ void bankBroadcast(Global<float> out, int word) {
  __shared__ SharedArray<float, kWords> words;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[word % kWords];
}
