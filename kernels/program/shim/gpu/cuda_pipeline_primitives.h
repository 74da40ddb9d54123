// <cuda_pipeline_primitives.h> on the GPU backend: the toolkit's, and __pipeline_memcpy_async
// with the site the rewriter adds as a last argument (ws_gpu_async.h); its commits and waits
// noted for the Pipeline view.
#pragma once

// The toolkit's header between these two (their order matters).
// clang-format off
#include "ws_toolkit_begin.h"
#include_next <cuda_pipeline_primitives.h>
#include "ws_toolkit_end.h"
// clang-format on

#include "ws_gpu_async.h"

namespace ws::prog::async_gpu {
// __pipeline_memcpy_async as the program calls it (the macro below): the toolkit's copy, recorded.
// Written with three arguments, the rewriter adds the site as the fourth; a call it left alone
// (inside a macro) has three, or four with its zero-fill there, under 65,536; five: the zero-fill
// and the site. As on the emulator (ws_program_async.h).
__device__ inline void PipelineCopy(void* dst, const void* src, size_t size_and_align) {
  (__pipeline_memcpy_async)(dst, src, size_and_align);
  RecordCopy(dst, src, size_and_align, 0, 0);
}
__device__ inline void PipelineCopy(void* dst, const void* src, size_t size_and_align,
                                    size_t fourth) {
  const size_t zfill = fourth < 65536u ? fourth : 0;
  (__pipeline_memcpy_async)(dst, src, size_and_align, zfill);
  RecordCopy(dst, src, size_and_align, zfill,
             fourth < 65536u ? 0u : static_cast<unsigned int>(fourth));
}
__device__ inline void PipelineCopy(void* dst, const void* src, size_t size_and_align, size_t zfill,
                                    unsigned int place) {
  (__pipeline_memcpy_async)(dst, src, size_and_align, zfill);
  RecordCopy(dst, src, size_and_align, zfill, place);
}
// __pipeline_commit() and __pipeline_wait_prior(N): the toolkit's, and the calls noted for the
// Pipeline view (NoteAsync), the wait with its start.
__device__ inline void PipelineCommit() {
  (__pipeline_commit)();
  NoteAsync(::ws::dev::kAsyncCommit, 0);
}
__device__ inline void PipelineWaitPrior(size_t prior) {
  const unsigned long long began = AsyncNow();
  (__pipeline_wait_prior)(prior);
  NoteAsync(::ws::dev::kAsyncWaitPrior, static_cast<unsigned int>(prior), began);
}
}  // namespace ws::prog::async_gpu

// The same three in ws_toolkit_end.h, where a guard around a toolkit header took them away.
#define WS_GPU_PRIMITIVES_MACROS 1
#define __pipeline_memcpy_async(...) ::ws::prog::async_gpu::PipelineCopy(__VA_ARGS__)
#define __pipeline_commit() ::ws::prog::async_gpu::PipelineCommit()
#define __pipeline_wait_prior(prior) ::ws::prog::async_gpu::PipelineWaitPrior(prior)
