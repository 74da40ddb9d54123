// Warpscope's stand-in for CUDA's <cublasLt.h> when a program runs on the emulator: its handle
// only, made and destroyed, so that a program that sets cuBLASLt up beside cuBLAS (llm.c's
// dev/cuda/common.h) runs its own kernels. Every other cuBLASLt name is undeclared here, so the
// rewriter refuses a program that uses one by that name ("cublasLtMatmul is not supported (yet)").
#pragma once
#include "cublas_v2.h"  // cublasLtHandle_t, cublasLtCreate and cublasLtDestroy: ws_program_cublas.h
