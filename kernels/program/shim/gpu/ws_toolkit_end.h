// After a toolkit header the gpu/ folder includes: the recorded intrinsics again
// (ws_toolkit_begin.h).
#pragma pop_macro("__syncthreads")
#pragma pop_macro("__shfl_sync")
#pragma pop_macro("__shfl_up_sync")
#pragma pop_macro("__shfl_down_sync")
#pragma pop_macro("__shfl_xor_sync")
#pragma pop_macro("__ballot_sync")
#pragma pop_macro("__any_sync")
#pragma pop_macro("__all_sync")
#pragma pop_macro("__activemask")
#pragma pop_macro("__syncwarp")
#pragma pop_macro("__syncthreads_count")
#pragma pop_macro("__syncthreads_and")
#pragma pop_macro("__syncthreads_or")
#pragma pop_macro("__pipeline_memcpy_async")
#pragma pop_macro("__pipeline_commit")
#pragma pop_macro("__pipeline_wait_prior")
#pragma pop_macro("WS_IN_TOOLKIT")
// The shim's own macros that a toolkit header may have brought in inside a guard (libcu++'s
// <cuda/pipeline> includes <cuda/barrier>, whose shim includes <cuda_pipeline.h>, whose shim
// defines the primitives' macros): the pops above would leave them undefined, and #pragma once
// keeps their headers from defining them again. Defined again here, once outside every guard (a
// guard inside another leaves WS_IN_TOOLKIT defined: the toolkit's own text must not meet them).
#if !defined(WS_IN_TOOLKIT)
#if defined(WS_GPU_PRIMITIVES_MACROS)
#define __pipeline_memcpy_async(...) ::ws::prog::async_gpu::PipelineCopy(__VA_ARGS__)
#define __pipeline_commit() ::ws::prog::async_gpu::PipelineCommit()
#define __pipeline_wait_prior(prior) ::ws::prog::async_gpu::PipelineWaitPrior(prior)
#endif
#endif
