// <cuda_pipeline_primitives.h> on the GPU backend: the toolkit's, and __pipeline_memcpy_async
// with the site the rewriter adds as a last argument (ws_gpu_async.h).
#pragma once

#include_next <cuda_pipeline_primitives.h>

#include "ws_gpu_async.h"

// Written with three arguments, the site is the fourth; a call the rewriter left alone (inside a
// macro) with four has its zero-fill there, under 65,536 (as on the emulator).
static __device__ inline void __pipeline_memcpy_async(void* __restrict__ dst,
                                                      const void* __restrict__ src,
                                                      size_t size_and_align, unsigned int place) {
  const size_t zfill = place < 65536u ? place : 0;
  (__pipeline_memcpy_async)(dst, src, size_and_align, zfill);
  ::ws::prog::async_gpu::RecordCopy(dst, src, size_and_align, zfill, place < 65536u ? 0u : place);
}
static __device__ inline void __pipeline_memcpy_async(void* __restrict__ dst,
                                                      const void* __restrict__ src,
                                                      size_t size_and_align, size_t zfill,
                                                      unsigned int place) {
  (__pipeline_memcpy_async)(dst, src, size_and_align, zfill);
  ::ws::prog::async_gpu::RecordCopy(dst, src, size_and_align, zfill, place);
}
