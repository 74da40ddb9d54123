// Warpscope's stand-in for CUDA's <cublas_api.h>: the same as <cublas_v2.h> (docs/PROGRAMS.md,
// "cuBLAS").
#pragma once
#include "cublas_v2.h"
