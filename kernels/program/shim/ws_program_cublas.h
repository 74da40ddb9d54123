// cuBLAS's types and calls for the emulator (cublas_v2.h includes this after the CUDA headers
// a program gets with it; the runtime, emu_cublas.cpp, includes it alone).
#pragma once
#include <cstddef>

#include "library_types.h"
#include "ws_program.h"

// The toolkit's include guards, which code tests to see cuBLAS (cuda-samples' helper_cuda.h names
// cuBLAS's statuses only `#ifdef CUBLAS_API_H_`).
#define CUBLAS_API_H_
#define CUBLAS_V2_H_

typedef struct cublasContext* cublasHandle_t;

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2,
  CUBLAS_OP_HERMITAN = 2,
  CUBLAS_OP_CONJG = 3
} cublasOperation_t;

typedef enum {
  CUBLAS_FILL_MODE_LOWER = 0,
  CUBLAS_FILL_MODE_UPPER = 1,
  CUBLAS_FILL_MODE_FULL = 2
} cublasFillMode_t;

typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

typedef enum {
  CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_ALGO0 = 0,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100
} cublasGemmAlgo_t;

#define CUBLAS_GEMM_DFALT CUBLAS_GEMM_DEFAULT
#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

// The handle.
cublasStatus_t cublasCreate(cublasHandle_t* handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode);
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode);
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void* workspace, std::size_t bytes);
const char* cublasGetStatusName(cublasStatus_t status);
const char* cublasGetStatusString(cublasStatus_t status);

// Copies between the host and the device, a vector's or a column-major matrix's elements.
cublasStatus_t cublasSetVector(int n, int elem, const void* x, int incx, void* y, int incy);
cublasStatus_t cublasGetVector(int n, int elem, const void* x, int incx, void* y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b,
                               int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b,
                               int ldb);
cublasStatus_t cublasSetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasGetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b,
                                    int ldb, cudaStream_t stream);
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b,
                                    int ldb, cudaStream_t stream);

// Level 1.
#define WS_CUBLAS_LEVEL1(P, p, T)                                                                  \
  cublasStatus_t cublas##P##axpy(cublasHandle_t, int n, const T* alpha, const T* x, int incx,      \
                                 T* y, int incy);                                                  \
  cublasStatus_t cublas##P##scal(cublasHandle_t, int n, const T* alpha, T* x, int incx);           \
  cublasStatus_t cublas##P##copy(cublasHandle_t, int n, const T* x, int incx, T* y, int incy);     \
  cublasStatus_t cublas##P##swap(cublasHandle_t, int n, T* x, int incx, T* y, int incy);           \
  cublasStatus_t cublas##P##dot(cublasHandle_t, int n, const T* x, int incx, const T* y, int incy, \
                                T* result);                                                        \
  cublasStatus_t cublas##P##nrm2(cublasHandle_t, int n, const T* x, int incx, T* result);          \
  cublasStatus_t cublas##P##asum(cublasHandle_t, int n, const T* x, int incx, T* result);          \
  cublasStatus_t cublasI##p##amax(cublasHandle_t, int n, const T* x, int incx, int* result);       \
  cublasStatus_t cublasI##p##amin(cublasHandle_t, int n, const T* x, int incx, int* result);       \
  cublasStatus_t cublas##P##gemv(cublasHandle_t, cublasOperation_t trans, int m, int n,            \
                                 const T* alpha, const T* A, int lda, const T* x, int incx,        \
                                 const T* beta, T* y, int incy);                                   \
  cublasStatus_t cublas##P##gemm(                                                                  \
      cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,     \
      const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc);     \
  cublasStatus_t cublas##P##gemmStridedBatched(                                                    \
      cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,     \
      const T* alpha, const T* A, int lda, long long strideA, const T* B, int ldb,                 \
      long long strideB, const T* beta, T* C, int ldc, long long strideC, int batchCount);         \
  cublasStatus_t cublas##P##gemmBatched(                                                           \
      cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,     \
      const T* alpha, const T* const A[], int lda, const T* const B[], int ldb, const T* beta,     \
      T* const C[], int ldc, int batchCount);                                                      \
  cublasStatus_t cublas##P##geam(                                                                  \
      cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n,            \
      const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc);
WS_CUBLAS_LEVEL1(S, s, float)
WS_CUBLAS_LEVEL1(D, d, double)
#undef WS_CUBLAS_LEVEL1

// A GEMM of any of the toolkit's real types: A and B of CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F or
// CUDA_R_64F, C of theirs or CUDA_R_32F; alpha and beta of the compute type's (float for the
// 32F ones, double for 64F, __half for 16F).
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long strideA, const void* B,
                                          cudaDataType Btype, int ldb, long long strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);

// cublasHgemm's work, its halves as their bits (cublas_v2.h's cublasHgemm, over __half, calls it:
// the runtime is built without cuda_fp16.h).
cublasStatus_t WsCublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, int m, int n, int k, const void* alpha,
                             const void* A, int lda, const void* B, int ldb, const void* beta,
                             void* C, int ldc);

// cuBLASLt's handle alone (cublasLt.h): made and destroyed, nothing else.
typedef struct cublasLtContext* cublasLtHandle_t;
cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle);
