// Constant memory, after the memory-model slides: one read is broadcast to every thread that
// asks for the same address; different addresses are served one after another.
#pragma once
#include "warpscope/kernels/ws_cuda.h"
using ws::Constant;
using ws::Global;

// broadcast: every thread of a block reads the same coefficient: one read serves the warp.
__global__ void constantBroadcast(Global<float> out, Constant<float> coeffs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[blockIdx.x % 64] * 2.0f;
}

// serialized: each lane reads a different coefficient: 32 reads, one after another.
__global__ void constantSerialized(Global<float> out, Constant<float> coeffs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeffs[threadIdx.x % 64] * 2.0f;
}

#if defined(WS_LESSON_SIMT)
// Written against the recording API (its Constant<T> proxy), not as plain CUDA: the build's SIMT
// rewrite reads plain CUDA only, so these run thread by thread on the emulator (docs/ENGINE.md).
namespace ws_simt {
inline constexpr ::ws::simt::NoWarp constantBroadcast{
    "written against the recording API's Constant<T>, not as plain CUDA (yet)"};
inline constexpr ::ws::simt::NoWarp constantSerialized{constantBroadcast};
}  // namespace ws_simt
#endif
