// A parallel sum, after the "Floating point math is not associative" and "GPU results may not
// match CPU" slides: each block adds its elements pairwise in shared memory; the block sums are
// then added in block order (tree) or by atomicAdd, in whatever order the blocks finish (atomic).
// Change the block size and the additions happen in another order: another float result.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).
// The helper takes the block's shared array by reference: float (&s)[1024].

// Leaves the sum of block b's blockDim.x elements in s[0] (a power of two: halve the stride).
static __device__ void blockReduce(float (&s)[1024], const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0.0f;
  if (i < n) x = in[i];
  s[threadIdx.x] = x;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + stride];
    __syncthreads();
  }
}

// tree: every block writes its sum; the host adds them in block order.
__global__ void blockSums(float* partial, const float* in, int n) {
  __shared__ float s[1024];
  blockReduce(s, in, n);
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

// atomic: every block adds its sum to one total as it finishes.
__global__ void atomicSum(float* total, const float* in, int n) {
  __shared__ float s[1024];
  blockReduce(s, in, n);
  if (threadIdx.x == 0) atomicAdd(&total[0], static_cast<float>(s[0]));
}
