// Stride copy, from the "Optimizing CUDA" slides: how a stride between consecutive threads'
// addresses changes the number of memory transactions per warp.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// Thread i reads float i * stride. Stride 2 already doubles the sectors a warp touches (half of
// every sector is wasted); from stride 8 on, every lane needs its own sector.
__global__ void strideCopy(float* odata, const float* idata, int stride) {
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid];
}
