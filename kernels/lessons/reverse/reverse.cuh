// Reversing an array through shared memory (the memory-model slides): with a static shared
// array, and with a dynamic one sized by the launch's third parameter <<<1, n, n*sizeof(int)>>>.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::DynamicShared;
using ws::Global;
using ws::SharedArray;

// static: the size is fixed when the kernel is compiled.
__global__ void staticReverse(Global<int> d, int n) {
  __shared__ SharedArray<int, 1024> s;
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}

// dynamic: extern __shared__ int s[]; its size comes from the launch.
__global__ void dynamicReverse(Global<int> d, int n) {
  DynamicShared<int> s;
  int t = threadIdx.x;
  int tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}
