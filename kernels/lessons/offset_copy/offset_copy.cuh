// Offset copy, from the "Optimizing CUDA" slides: how an offset between the buffer's start and
// thread 0's element changes the number of memory transactions per warp.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// Consecutive threads read consecutive floats, shifted by `offset` elements.
// offset 0: each warp reads 128 aligned bytes = 4 sectors. Any other offset straddles one more
// 32-byte sector (5 per request); on compute 1.0/1.1 it broke coalescing entirely.
__global__ void offsetCopy(float* odata, const float* idata, int offset) {
  int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;
  odata[xid] = idata[xid];
}
