// What cuda_graphs.cpp and cuda_launches.cpp share: the road they are built for. On a GPU
// (WS_GRAPHS_GPU, libws_program_cuda) the calls are ws::prog::gpu's, over the real runtime, and
// the program's calls are macros to them (ws_program_cuda_host.h); on the emulator they are the
// runtime's own (libws_program_emu). WS_GRAPHS_BEGIN and WS_GRAPHS_END put a file's calls where
// the road wants them; Fail says why a call failed.
#pragma once

#include <string>

#if defined(WS_GRAPHS_GPU)
#include <cuda_runtime.h>

#include <iostream>

#include "../shim/ws_program_cuda_api.h"  // not -I shim: it holds the emulator's cuda_runtime.h
#include "program_trace.h"
namespace ws::prog::gpu {
#include "../shim/ws_program_graph_calls.h"
}
#define ws_user_gridDim gridDim  // the real cudaKernelNodeParams' members
#define ws_user_blockDim blockDim
// The program's copies and fills go to the real runtime; the graph's calls are Warpscope's own.
#define WS_GRAPHS_BEGIN namespace ws::prog::gpu {
#define WS_GRAPHS_END }
namespace ws::prog::detail {
// Prints "warpscope: WHAT" and returns `e` (the real runtime keeps its own last error).
inline cudaError_t Fail(cudaError_t e, const std::string& what) {
  std::cerr << "warpscope: " << what << "\n";
  return e;
}
}  // namespace ws::prog::detail
#else
#include "emu_program_state.h"
#include "program_trace.h"
#define WS_GRAPHS_BEGIN
#define WS_GRAPHS_END
#endif
