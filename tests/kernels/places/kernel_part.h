// A kernel whose store is on the same line number as helper_part.h's load (see places_test.cpp):
// only the file tells the two sites apart.
#pragma once

#include "warpscope/kernels/ws_cuda.h"

namespace places {

constexpr int kKernelAccessLine = __LINE__ + 5;
__device__ float HelperLoad(ws::Global<const float> in, int i);
__global__ void copyThroughHelper(ws::Global<float> out, ws::Global<const float> in) {
  const int i = threadIdx.x;
  const float v = HelperLoad(in, i);
  out[i] = v;
}

}  // namespace places
