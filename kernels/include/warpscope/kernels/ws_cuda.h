// The kernel-facing API: what a lesson kernel includes so that one source compiles both with
// nvcc (a real __global__ kernel that writes records into device buffers) and with the host
// compiler (code the CPU emulator runs, one fiber per GPU thread).
//
//   template <int TILE_DIM>
//   __global__ void transposeCoalesced(Global<float> odata, Global<const float> idata,
//                                      int width, int height) {
//     __shared__ SharedArray<float, TILE_DIM, TILE_DIM> tile;
//     int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
//     ...
//     tile[threadIdx.y][threadIdx.x] = idata[index_in];   // a global load and a shared store
//     __syncthreads();                                     // a barrier record
//     odata[index_out] = tile[threadIdx.x][threadIdx.y];   // a shared load and a global store
//   }
//
// - Global<T> / Global<const T>: a kernel's array parameter (a buffer the backend allocated).
// - SharedArray<T, N> / SharedArray<T, ROWS, COLS>: a __shared__ array.
// - a[i] returns a small proxy: reading it records a load, assigning records a store. The
//   index's conversion to ws::Index captures __builtin_LINE(), tying the access to its source
//   line (the site) without any noise in the kernel body.
// - atomicAdd(&a[i], v) records an atomic.
// - __syncthreads() records each thread's arrival and departure.
// Pitfall: `out[i] = in[j]` between two proxies of one type must load then store, so the proxies
// define their own copy assignment; never copy a proxy into a variable with `auto`.
//
// Self-contained (no Warpscope headers beyond this one's siblings), so that kernels compiled at
// run time (NVRTC, or the system compiler for the emulator) can use it too. C++17.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WS_HD __host__ __device__
#define WS_DEVICE_CODE 1
#else
#define WS_HD
#define WS_DEVICE_CODE 0
#endif

namespace ws {

// Site key: which source line, memory space, operation, size and array an access belongs to.
// Both backends record it; the host turns keys into the launch's site table.
//   bits 32..63 line | 16..31 array (global: buffer id; shared: array base / 4) |
//   14..15 space | 12..13 op | 0..7 size in bytes
enum KeySpace : std::uint32_t { kKeyGlobal = 0, kKeyShared = 1, kKeyConstant = 2, kKeyTexture = 3 };
enum KeyOp : std::uint32_t { kKeyLoad = 0, kKeyStore = 1, kKeyAtomic = 2 };

WS_HD constexpr std::uint64_t MakeSiteKey(std::uint32_t line, std::uint32_t space, std::uint32_t op,
                                          std::uint32_t size, std::uint32_t array) {
  return (std::uint64_t{line} << 32) | (std::uint64_t{array & 0xffffu} << 16) |
         (std::uint64_t{space & 3u} << 14) | (std::uint64_t{op & 3u} << 12) | (size & 0xffu);
}
WS_HD constexpr std::uint32_t KeyLine(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 32);
}
WS_HD constexpr std::uint32_t KeyArray(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 16) & 0xffffu;
}
WS_HD constexpr std::uint32_t KeySpaceOf(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 14) & 3u;
}
WS_HD constexpr std::uint32_t KeyOpOf(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 12) & 3u;
}
WS_HD constexpr std::uint32_t KeySize(std::uint64_t k) {
  return static_cast<std::uint32_t>(k) & 0xffu;
}

// An array index that remembers the source line where it was written.
struct Index {
  long long value;
  std::uint32_t line;
  template <typename I>
  WS_HD Index(I i, std::uint32_t l = __builtin_LINE())  // NOLINT: implicit on purpose
      : value(static_cast<long long>(i)), line(l) {}
};

}  // namespace ws

#if WS_DEVICE_CODE
#include "warpscope/kernels/ws_cuda_device.h"
#else
#include "warpscope/kernels/ws_cuda_emu.h"
#endif

#include "warpscope/kernels/ws_cuda_arrays.h"
