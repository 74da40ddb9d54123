// Warpscope's stand-in for CUDA's <cublas_v2.h> when a program runs on the emulator
// (docs/PROGRAMS.md, "cuBLAS"): the handle, the status, operation, math and compute types with
// the toolkit's values, and the common BLAS calls, run by the runtime (emu_cublas.cpp) on the
// emulator's processor over the device buffers, as the library would on a GPU, in column-major
// order. They are not the program's kernels: none is recorded as a launch (no figures), and the
// run says which calls ran and how many. In cudaEventElapsedTime each takes the model's time of
// its floating-point operations at the preset's peak or its bytes at the preset's bandwidth,
// whichever is longer, plus a launch's. A pointer that is not device memory stops the program,
// naming the call and the argument. On the GPU backend cuBLAS is refused (yet).
#pragma once
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"
#include "library_types.h"

#include "ws_program_cublas.h"

// C = alpha op(A) op(B) + beta C in half precision (the compute type 16F): cublasGemmEx's work.
inline cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const __half* alpha, const __half* A, int lda, const __half* B,
                                  int ldb, const __half* beta, __half* C, int ldc) {
  return WsCublasHgemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
