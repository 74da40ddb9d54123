// CUDA's 16-byte vector type for the host compiler (nvcc has its own): a lesson kernel that reads
// four floats at once (the swizzle lesson's float4 tile) compiles for the emulator as written.
// Aligned to 16 bytes as on a GPU, so that an array of them lies on the same banks.
#pragma once

#if !defined(__CUDACC__)
struct alignas(16) float4 {
  float x, y, z, w;
};
#endif
