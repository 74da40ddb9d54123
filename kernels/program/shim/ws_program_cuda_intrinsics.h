// The end of ws_program_cuda.h (a program's GPU road): barriers and warp-level intrinsics as
// macros that record them at the program's lines (ws_cuda_device.h's lesson forms name the
// lesson's files). gpu/ws_toolkit_begin.h and ws_toolkit_end.h take the same names away around
// the toolkit's own headers and put them back: a name added here goes there too.
#pragma once

#undef __syncthreads
#undef __shfl_sync
#undef __shfl_up_sync
#undef __shfl_down_sync
#undef __shfl_xor_sync
#undef __ballot_sync
#undef __any_sync
#undef __all_sync
#define __syncthreads() ::ws::dev::SyncThreads(::ws::prog::Place(WS_PROGRAM_PLACE))
#define __shfl_sync(...) ::ws::prog::Shfl(0, WS_PROGRAM_PLACE, __VA_ARGS__)
#define __shfl_up_sync(...) ::ws::prog::Shfl(1, WS_PROGRAM_PLACE, __VA_ARGS__)
#define __shfl_down_sync(...) ::ws::prog::Shfl(2, WS_PROGRAM_PLACE, __VA_ARGS__)
#define __shfl_xor_sync(...) ::ws::prog::Shfl(3, WS_PROGRAM_PLACE, __VA_ARGS__)
#define __ballot_sync(...) ::ws::prog::Vote(4, WS_PROGRAM_PLACE, __VA_ARGS__)
#define __any_sync(...) static_cast<int>(::ws::prog::Vote(5, WS_PROGRAM_PLACE, __VA_ARGS__))
#define __all_sync(...) static_cast<int>(::ws::prog::Vote(6, WS_PROGRAM_PLACE, __VA_ARGS__))
#define __activemask() ::ws::prog::ActiveMask(WS_PROGRAM_PLACE)
#define __syncwarp(...) ::ws::prog::SyncWarp(WS_PROGRAM_PLACE __VA_OPT__(, ) __VA_ARGS__)
#define __syncthreads_count(p) ::ws::prog::SyncCount(WS_PROGRAM_PLACE, (p))
#define __syncthreads_and(p)                       \
  (::ws::prog::SyncCount(WS_PROGRAM_PLACE, (p)) == \
   static_cast<int>(blockDim.x * blockDim.y * blockDim.z))
#define __syncthreads_or(p) (::ws::prog::SyncCount(WS_PROGRAM_PLACE, (p)) > 0)
