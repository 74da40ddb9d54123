// Around a toolkit header the gpu/ folder includes (#include_next): the recorded intrinsics that
// ws_program_cuda.h makes macros of are the hardware's own inside it, so that the toolkit's code
// (libcu++'s make_pipeline and quit(), for one, call __activemask()) records no meeting at the
// toolkit's lines, which the emulator's run never has. ws_toolkit_end.h puts them back. Not
// guarded: included once before each such #include_next.
#pragma push_macro("WS_IN_TOOLKIT")  // defined inside a guard (ws_toolkit_end.h)
#define WS_IN_TOOLKIT 1
#pragma push_macro("__syncthreads")
#pragma push_macro("__shfl_sync")
#pragma push_macro("__shfl_up_sync")
#pragma push_macro("__shfl_down_sync")
#pragma push_macro("__shfl_xor_sync")
#pragma push_macro("__ballot_sync")
#pragma push_macro("__any_sync")
#pragma push_macro("__all_sync")
#pragma push_macro("__activemask")
#pragma push_macro("__syncwarp")
#pragma push_macro("__syncthreads_count")
#pragma push_macro("__syncthreads_and")
#pragma push_macro("__syncthreads_or")
#pragma push_macro("__pipeline_memcpy_async")
#pragma push_macro("__pipeline_commit")
#pragma push_macro("__pipeline_wait_prior")
#undef __syncthreads
#undef __shfl_sync
#undef __shfl_up_sync
#undef __shfl_down_sync
#undef __shfl_xor_sync
#undef __ballot_sync
#undef __any_sync
#undef __all_sync
#undef __activemask
#undef __syncwarp
#undef __syncthreads_count
#undef __syncthreads_and
#undef __syncthreads_or
#undef __pipeline_memcpy_async  // the recorded dispatcher, cuda_pipeline_primitives.h
#undef __pipeline_commit        // and the noted commits and waits
#undef __pipeline_wait_prior
