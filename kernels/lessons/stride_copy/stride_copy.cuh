// Stride copy, from the "Optimizing CUDA" slides: how a stride between consecutive threads'
// addresses changes the number of memory transactions per warp.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Global;

// Thread i reads float i * stride. Stride 2 already doubles the sectors a warp touches (half of
// every sector is wasted); from stride 8 on, every lane needs its own sector.
__global__ void strideCopy(Global<float> odata, Global<const float> idata, int stride) {
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid];
}
