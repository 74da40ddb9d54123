// Parallel reduction: each block sums its blockDim.x elements in shared memory with a tree of
// additions, halving the active threads at every step (M. Harris, "Optimizing Parallel
// Reduction in CUDA", kernels 1-3). The three kernels add the same numbers in the same tree;
// only which thread does which addition, and which words it touches, differ.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).
// Every read and write then counts in the views; nothing else in the code changes.

// interleaved addressing with divergent branching: at step s the threads whose index is a
// multiple of 2s add. Slow: every warp holds active and idle lanes at every step, so every
// warp request is divergent and all 8 warps of a 256-thread block keep issuing while only a
// few lanes work (and % is a slow instruction).
__global__ void reduceDivergent(float* g_odata, const float* g_idata) {
  __shared__ float sdata[1024];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// interleaved addressing with a strided index: the first threads of the block do the additions,
// so whole warps are active or idle (no divergence until fewer than 32 add). Slow: thread t
// touches word 2 s t, so the lanes of a warp pile onto a few banks (2-way at s = 1, 8-way from
// s = 4): bank conflicts.
__global__ void reduceStrided(float* g_odata, const float* g_idata) {
  __shared__ float sdata[1024];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// sequential addressing: at step s the first s threads add word tid + s to word tid.
// Consecutive lanes touch consecutive words: no bank conflicts, whole warps idle. Still slow:
// half of the threads never add anything (idle from the first step), and the last five steps
// run in one divergent warp.
__global__ void reduceSequential(float* g_odata, const float* g_idata) {
  __shared__ float sdata[1024];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// warp shuffle: sequential addressing while more than a warp's worth of sums is left, then the
// first warp finishes in registers: each lane takes two of the last 64 sums and five
// __shfl_down_sync steps (16, 8, 4, 2, 1 lanes apart) add them with no shared memory and no
// __syncthreads(). The slides' "unroll the last warp" relied on the lanes of a warp running in
// lockstep over volatile shared memory; since Volta a warp's lanes may run apart, and the
// shuffle (with its mask of the lanes that meet) is the way to exchange values in a warp.
__global__ void reduceShuffle(float* g_odata, const float* g_idata) {
  __shared__ float sdata[1024];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid];
    if (blockDim.x >= 64) v += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid == 0) g_odata[blockIdx.x] = v;
  }
}
