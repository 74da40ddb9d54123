// Races: shared memory read before another thread has written it, because a __syncthreads() is
// missing (Kirk & Hwu, exercises 4.8 and 4.10; the memory-model slides' reverse; the Optimizing
// CUDA transpose). Each kernel is one a student might write; the hazards view shows where the
// missing barrier belongs, and the schedule (Run menu, --schedule) makes the race happen.
#pragma once
// Plain CUDA. The build turns the pointer parameters and __shared__ arrays into Warpscope's
// recording types, line for line (program/rewrite/lesson_form.cpp); no statement changes.

// Exercise 4.10, as the book prints it. The book's listing sizes the tile with BLOCK_WIDTH and
// indexes with BLOCK_SIZE: one constant under two names (the exercise's own text says BLOCK_SIZE
// is the tile's width). Here BLOCK_SIZE is BLOCK_WIDTH, so the body reads exactly as printed.
#define BLOCK_SIZE BLOCK_WIDTH
template <int BLOCK_WIDTH>
__global__ void BlockTranspose(float* A_elements, int A_width, int A_height) {
  __shared__ float blockA[BLOCK_WIDTH][BLOCK_WIDTH];
  int baseIdx = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  baseIdx += (blockIdx.y * BLOCK_SIZE + threadIdx.y) * A_width;
  blockA[threadIdx.y][threadIdx.x] = A_elements[baseIdx];
  A_elements[baseIdx] = blockA[threadIdx.x][threadIdx.y];
}

// Exercise 4.10 b: the fix. Every thread's element is in the tile before any thread reads its
// mirror, whatever BLOCK_WIDTH is.
template <int BLOCK_WIDTH>
__global__ void BlockTransposeFixed(float* A_elements, int A_width, int A_height) {
  __shared__ float blockA[BLOCK_WIDTH][BLOCK_WIDTH];
  int baseIdx = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  baseIdx += (blockIdx.y * BLOCK_SIZE + threadIdx.y) * A_width;
  blockA[threadIdx.y][threadIdx.x] = A_elements[baseIdx];
  __syncthreads();
  A_elements[baseIdx] = blockA[threadIdx.x][threadIdx.y];
}
#undef BLOCK_SIZE

// The Optimizing CUDA slides' coalesced transpose with its __syncthreads() deleted: a thread
// reads the tile column another warp may not have written yet.
template <int TILE_DIM>
__global__ void transposeNoSync(float* odata, const float* idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;

  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;

  tile[threadIdx.y][threadIdx.x] = idata[index_in];

  odata[index_out] = tile[threadIdx.x][threadIdx.y];
}

// Exercise 4.8: "with only 32 threads in each block, leave out the __syncthreads()". Each
// thread passes its value to its left neighbour through shared memory, with no barrier.
__global__ void warpExchange(float* out, const float* in) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  out[i] = s[(t + 1) % blockDim.x];
}

// The memory-model slides' reverse without its barrier: a thread may read its mirror slot
// before the mirror thread has filled it.
__global__ void reverseNoSync(int* d, int n) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  d[t] = s[tr];
}

// The memory-model slides' race condition, in global memory: a histogram whose increment is a
// load, an add and a store. Two threads with the same bin may both load the old count, and one
// increment is lost. No barrier fixes it (every increment falls between the same two, and
// blocks have none between them): the fix is an atomic instruction (the atomics lesson's
// atomicAdd).
__global__ void histogramNoAtomic(int* bins, const int* data, int numBins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bins[data[i] % numBins] += 1;
}
