// A __device__ helper in its own header; its load is on the same line number as the store in
// kernel_part.h (see places_test.cpp).
#pragma once

#include "warpscope/kernels/ws_cuda.h"

namespace places {

constexpr int kHelperAccessLine = __LINE__ + 5;
__device__ float HelperLoad(ws::Global<const float> in, int i) {
  float v = 0;
  v += 1.0f;
  (void)v;
  return in[i];
}

}  // namespace places
