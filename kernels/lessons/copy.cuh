// Copy kernels from the "Optimizing CUDA" slides: how an offset or a stride between consecutive
// threads' addresses changes the number of memory transactions per warp.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Global;

// offset-copy: consecutive threads read consecutive floats, shifted by `offset` elements.
// offset 0: each warp reads 128 aligned bytes = 4 sectors. Any other offset straddles one more
// 32-byte sector (5 per request); on compute 1.0/1.1 it broke coalescing entirely.
__global__ void offsetCopy(Global<float> odata, Global<const float> idata, int offset) {
  int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;
  odata[xid] = idata[xid];
}

// stride-copy: thread i reads float i * stride. Stride 2 already doubles the sectors a warp
// touches (half of every sector is wasted); from stride 8 on, every lane needs its own sector.
__global__ void strideCopy(Global<float> odata, Global<const float> idata, int stride) {
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid];
}
