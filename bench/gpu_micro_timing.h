// Timing for the standalone micro-benchmarks built with nvcc alone (bench/gpu_lane_log_micro.cu):
// a launch timed back to back and alone, each against the first case's (the plain kernel's); and
// the device arrays they set up (bench/gpu_tally_micro.cu, bench/gpu_hazard_micro.cu).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "ws_cuda_check.h"

// `count` elements of device memory, zeroed.
template <typename T>
T* Alloc(std::size_t count) {
  T* p = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
  WS_CUDA_CHECK(cudaMemset(p, 0, count * sizeof(T)));
  return p;
}

// One call of `launch()` timed by CUDA events (ms), its errors checked.
template <typename F>
inline float EventMs(F launch) {
  cudaEvent_t a, b;
  WS_CUDA_CHECK(cudaEventCreate(&a));
  WS_CUDA_CHECK(cudaEventCreate(&b));
  WS_CUDA_CHECK(cudaEventRecord(a));
  launch();
  WS_CUDA_CHECK(cudaEventRecord(b));
  WS_CUDA_CHECK(cudaEventSynchronize(b));
  WS_CUDA_CHECK(cudaGetLastError());
  float t = 0;
  WS_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
  WS_CUDA_CHECK(cudaEventDestroy(a));
  WS_CUDA_CHECK(cudaEventDestroy(b));
  return t;
}

// Median over `repeats` of (20 launches back to back) / 20, and of single launches.
template <typename F>
inline void Time(const char* label, F launch, int repeats, float* plain_batch, float* plain_one) {
  cudaEvent_t a, b;
  WS_CUDA_CHECK(cudaEventCreate(&a));
  WS_CUDA_CHECK(cudaEventCreate(&b));
  launch();  // warm: module load
  WS_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> batch, one;
  for (int r = 0; r < repeats; ++r) {
    float t = 0;
    WS_CUDA_CHECK(cudaEventRecord(a));
    for (int i = 0; i < 20; ++i) launch();
    WS_CUDA_CHECK(cudaEventRecord(b));
    WS_CUDA_CHECK(cudaEventSynchronize(b));
    WS_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
    batch.push_back(t / 20 * 1000);
    WS_CUDA_CHECK(cudaEventRecord(a));
    launch();
    WS_CUDA_CHECK(cudaEventRecord(b));
    WS_CUDA_CHECK(cudaEventSynchronize(b));
    WS_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
    one.push_back(t * 1000);
  }
  WS_CUDA_CHECK(cudaGetLastError());
  std::sort(batch.begin(), batch.end());
  std::sort(one.begin(), one.end());
  const float mb = batch[batch.size() / 2], mo = one[one.size() / 2];
  if (*plain_batch == 0) *plain_batch = mb, *plain_one = mo;
  std::printf("%-44s %10.2f us/launch (x%.2f)   alone %8.2f us (x%.2f)\n", label, mb,
              mb / *plain_batch, mo, mo / *plain_one);
  std::fflush(stdout);
  WS_CUDA_CHECK(cudaEventDestroy(a));
  WS_CUDA_CHECK(cudaEventDestroy(b));
}
