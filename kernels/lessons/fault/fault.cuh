// A kernel that writes far past the end of its array: the tests' way to make a kernel fault (a
// hidden lesson, not in the lesson list). On the emulator the bounds check names the line and
// the thread; on a GPU the write lands 4 GiB past a 128-byte buffer, on no mapped page, and the
// kernel faults with an illegal address.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Global;

__global__ void writePastTheEnd(Global<float> out, int distance) {
  out[threadIdx.x + distance] = 1.0f;
}
