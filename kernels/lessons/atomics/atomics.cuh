// A histogram by atomicAdd (the memory-model slides' atomic instructions): an atomic is never
// lost, but the lanes of a warp that hit the same bin are served one at a time.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// Element i falls in bin i % numBins, so the 32 lanes of a warp share 32 / numBins lanes per
// bin (for numBins dividing 32): 32-way at 1 bin, conflict free at 32 or more.
__global__ void histogram(int* bins, const int* data, int numBins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[data[i] % numBins], 1);
}
