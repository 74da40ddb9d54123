// A program's host files (.cpp) on a GPU: the real CUDA runtime, with the calls Warpscope must see
// (allocations name and register buffers, a failed device assert stays the error) made through
// libws_program_cuda, as in its CUDA files (ws_program_cuda.h includes this). nvcc force-includes
// it into each rewritten host file, whose allocations the rewriter names (NameNext).
#pragma once

#include <cuda_runtime.h>

#include "ws_program_cuda_api.h"

// The program's own calls that Warpscope must see: allocations name and register buffers.
#define cudaMalloc(...) ::ws::prog::Malloc(__VA_ARGS__)
#define cudaDeviceSynchronize() ::ws::prog::Sticky((cudaDeviceSynchronize)())
#define cudaGetLastError() ::ws::prog::Sticky((cudaGetLastError)())
#define cudaPeekAtLastError() ::ws::prog::Sticky((cudaPeekAtLastError)())
#define cudaStreamSynchronize(s) ::ws::prog::Sticky((cudaStreamSynchronize)(s))
#define cudaMallocPitch(...) ::ws::prog::MallocPitch(__VA_ARGS__)
#define cudaHostAlloc(...) ::ws::prog::HostAlloc(__VA_ARGS__)
#define cudaMallocHost(...) ::ws::prog::MallocHost(__VA_ARGS__)
#define cudaMallocManaged(...) ::ws::prog::MallocManaged(__VA_ARGS__)
#define cudaFree(...) ::ws::prog::Free(__VA_ARGS__)
#define cudaFreeHost(...) ::ws::prog::FreeHost(__VA_ARGS__)
#define cudaMallocAsync(...) ::ws::prog::MallocAsync(__VA_ARGS__)
#define cudaMallocFromPoolAsync(...) ::ws::prog::MallocFromPoolAsync(__VA_ARGS__)
#define cudaFreeAsync(...) ::ws::prog::FreeAsync(__VA_ARGS__)
#define cudaStreamBeginCapture(...) \
  ::ws::prog::RefuseOnGpu("CUDA graphs (cudaStreamBeginCapture)", __LINE__)
#define cudaGraphCreate(...) ::ws::prog::RefuseOnGpu("CUDA graphs (cudaGraphCreate)", __LINE__)
#define cudaLaunchCooperativeKernel(...) \
  ::ws::prog::RefuseOnGpu("Cooperative launches (cudaLaunchCooperativeKernel)", __LINE__)
