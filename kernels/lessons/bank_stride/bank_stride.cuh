// Shared-memory bank conflicts, after the "Optimizing CUDA" slides' bank addressing examples.
// Shared memory is split into 32 banks of 4-byte words (16 on compute 1.x); the threads of a warp
// that hit different words of one bank are served one after another.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).
// Every read and write then counts in the views; nothing else in the code changes.

constexpr int kWords = 1024;  // a 4 KB shared array

// stride: thread t reads word t * stride. Stride 1 is conflict free; stride 2 puts two distinct
// words in every even bank (2-way); stride 8 eight (8-way). Any odd stride is conflict free.
__global__ void bankStride(float* out, int stride) {
  __shared__ float words[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  int t = threadIdx.x;
  out[blockIdx.x * blockDim.x + t] = words[(t * stride) % kWords];
}

// permutation: each warp reads its own 32 words in a random 1:1 order: every thread still hits a
// different bank, so there is no conflict.
__global__ void bankPermutation(float* out, const int* perm) {
  __shared__ float words[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  int t = threadIdx.x;
  int p = perm[t % 32];
  out[blockIdx.x * blockDim.x + t] = words[(t / 32 * 32 + p) % kWords];
}

// broadcast: every thread reads the same word: one bank, one word, served once for all.
__global__ void bankBroadcast(float* out, int word) {
  __shared__ float words[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[word % kWords];
}
