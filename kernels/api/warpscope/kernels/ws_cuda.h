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
//   index's conversion to ws::Index captures __builtin_FILE() and __builtin_LINE(), tying the
//   access to its place in the source (the site) without any noise in the kernel body.
// - atomicAdd(&a[i], v) records an atomic.
// - __syncthreads() records each thread's arrival and departure.
// Pitfall: `out[i] = in[j]` between two proxies of one type must load then store, so the proxies
// define their own copy assignment; never copy a proxy into a variable with `auto`.
// A built-in lesson's kernels are written as plain CUDA and turned into this form at build time
// (program/rewrite/lesson_form.cpp), which also puts WS_KERNEL_ENTRY first in each kernel's body:
// the GPU's lane unit needs it there (ws_cuda_lane_log.h).
//
// Self-contained (no Warpscope headers beyond this one's siblings), so that kernels compiled at
// run time (NVRTC, or the system compiler for the emulator) can use it too. C++17 for nvcc; the
// emulator's side needs C++20 (std::atomic_ref).
#pragma once

#include "warpscope/trace/ws_cuda_keys.h"

#if WS_DEVICE_CODE
#include "warpscope/kernels/ws_cuda_device.h"
#else
#include "warpscope/kernels/ws_cuda_emu.h"
#endif

#include "warpscope/kernels/ws_cuda_arrays.h"
#include "warpscope/kernels/ws_cuda_vector.h"
