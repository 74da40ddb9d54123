// Reversing an array through shared memory (the memory-model slides): with a static shared
// array, and with a dynamic one sized by the launch's third parameter <<<1, n, n*sizeof(int)>>>.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).
// Every read and write then counts in the views; nothing else in the code changes.
// The extern __shared__ array is the launch's dynamic shared memory, as on a GPU.

// static: the size is fixed when the kernel is compiled.
__global__ void staticReverse(int* d, int n) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}

// dynamic: extern __shared__ int s[]; its size comes from the launch.
__global__ void dynamicReverse(int* d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}
