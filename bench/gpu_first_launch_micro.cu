// Why does a lesson's first instrumented launch cost 10-15 us more than its later ones? Measured
// on an H200 (docs/GPU.md, eighteenth session): a 16,384-thread copy's recording pass 0.022 ms by
// the lane log against 0.014 by the event roads, whose first instrumented kernel (the hazard pass,
// with its shadow in shared memory) took the same 0.022. Two suspects, each a kernel the product
// launches after the plain timing runs:
//  - shared memory: the first launch needing shared memory after kernels that used none makes
//    the SMs change their L1/shared split (the lane log's counters as they were until 2026-12-02,
//    the hazard pass's shadow);
//  - local memory: the first launch needing more local memory a thread than the context holds
//    makes the driver grow it (the recorded unit's kernels spill and keep a stack);
// and two to tell them apart: a kernel with neither (a second plain kernel), and one with much
// code (the instruction cache).
// Each launch is timed alone after a synchronisation, as CudaBackend's passes are (an event
// recorded right before it, one after). Usage: gpu_first_launch_micro [stack bytes]; with a stack
// size, cudaDeviceSetLimit(cudaLimitStackSize) is called first (does pre-sizing take the local
// memory suspect's cost out of the kernel's time?). Built and run by bench/gpu_batch.sh's
// first-launch step (nvcc -std=c++17 -O3 -arch=sm_90).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "ws_cuda_check.h"

namespace {

__global__ void CopyPlain(float* out, const float* in) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void CopyPlainToo(float* out, const float* in) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 0.0f * static_cast<float>(blockIdx.y);
}
// 16 bytes a thread of dynamic shared memory, as the lane log's counters took until 2026-12-02.
__global__ void CopyShared(float* out, const float* in) {
  extern __shared__ uint4 counters[];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  counters[threadIdx.x] = make_uint4(i, 0, 0, 0);
  out[i] = in[i] + static_cast<float>(counters[threadIdx.x].y);
}
// 1 KB a thread of local memory (an array indexed at run time stays in local memory).
__global__ void CopyLocal(float* out, const float* in, int k) {
  float a[256];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 256; ++j) a[j] = in[(i + j) & 16383u];
  out[i] = a[(i + k) & 255u];
}

// An unrolled chain of 2,048 multiply-adds and loads, 197 KB of code (readelf: .text 0x30200),
// run once: is the instruction cache, cold at a kernel's first launch, the cost? (The recorded
// unit's MatrixMulTiled<16> has 142 KB of code, every road's at every site; the lane unit's 11 KB.)
__global__ void CopyBigCode(float* out, const float* in) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
#pragma unroll
  for (int j = 0; j < 2048; ++j) x = x * 1.0001f + in[(i + j * 7u) & 16383u];
  out[i] = x;
}

float TimeOne(cudaEvent_t start, cudaEvent_t stop, int which, float* out, const float* in) {
  WS_CUDA_CHECK(cudaDeviceSynchronize());
  WS_CUDA_CHECK(cudaEventRecord(start));
  switch (which) {
    case 0:
      CopyPlain<<<64, 256>>>(out, in);
      break;
    case 1:
      CopyPlainToo<<<64, 256>>>(out, in);
      break;
    case 2:
      CopyShared<<<64, 256, 256 * 16>>>(out, in);
      break;
    case 3:
      CopyLocal<<<64, 256>>>(out, in, 3);
      break;
    default:
      CopyBigCode<<<64, 256>>>(out, in);
      break;
  }
  WS_CUDA_CHECK(cudaGetLastError());
  WS_CUDA_CHECK(cudaEventRecord(stop));
  WS_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  WS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms * 1000.0f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    const size_t stack = std::strtoul(argv[1], nullptr, 10);
    WS_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, stack));
    std::printf("stack limit set to %zu bytes before any launch\n", stack);
  }
  float *in = nullptr, *out = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&in, 16384 * 4));
  WS_CUDA_CHECK(cudaMalloc(&out, 16384 * 4));
  WS_CUDA_CHECK(cudaMemset(in, 0, 16384 * 4));
  cudaEvent_t start, stop;
  WS_CUDA_CHECK(cudaEventCreate(&start));
  WS_CUDA_CHECK(cudaEventCreate(&stop));
  const char* names[] = {"plain", "plain, a second kernel", "16 B/thread shared",
                         "1 KB/thread local", "about 200 KB of code"};
  // The product's order: the plain kernel timed several times, then an instrumented one once.
  const int order[] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 0,
                       2, 0, 3, 3, 3, 0, 3, 2, 3, 0, 4, 4, 4, 0, 4};
  for (int which : order)
    std::printf("%-26s %7.2f us\n", names[which], TimeOne(start, stop, which, out, in));
  return 0;
}
