// WS_CUDA_CHECK(call): for the standalone CUDA programs built with nvcc alone (the recorder's
// micro, bench/gpu_tally_micro.cu; the fragment probe, kernels/tensor/fragment_probe.cu): a CUDA
// runtime call that fails prints where and why and ends the program (exit 1). The backend keeps a
// status instead (WS_CUDA, cuda_backend.h). Here in bench/, not kernels/api/, which is installed
// for users' programs to compile against.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define WS_CUDA_CHECK(x)                                                              \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)
