// A histogram by atomicAdd (the memory-model slides' atomic instructions): an atomic is never
// lost, but the lanes of a warp that hit the same bin are served one at a time.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Global;

// Element i falls in bin i % numBins, so the 32 lanes of a warp share 32 / numBins lanes per
// bin (for numBins dividing 32): 32-way at 1 bin, conflict free at 32 or more.
__global__ void histogram(Global<int> bins, Global<const int> data, int numBins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[data[i] % numBins], 1);
}
