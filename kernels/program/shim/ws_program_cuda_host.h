// A program's host files (.cpp) on a GPU: the real CUDA runtime, with the calls Warpscope must see
// (allocations name and register buffers, a failed device assert stays the error) made through
// libws_program_cuda, as in its CUDA files (ws_program_cuda.h includes this). nvcc force-includes
// it into each rewritten host file, whose allocations the rewriter names (NameNext).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <type_traits>

#include "ws_program_cuda_api.h"

namespace ws::prog {
// A capturing stream's event, wait, copy or fill becomes part of its graph; else the real call.
cudaError_t StreamDestroy(cudaStream_t stream);
cudaError_t EventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t StreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t MemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                        cudaStream_t stream = 0);
cudaError_t MemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream = 0);
cudaError_t Memcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                          std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          cudaStream_t stream = 0);
cudaError_t Memcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0);
// A copy to or from a symbol, run later by a graph: the variable by reference (a __device__
// pointer variable too), a void pointer to it (`(const void*)&sym`, a temporary) by value.
template <typename T, typename F>
std::function<cudaError_t()> OnSymbol(const T& symbol, F f) {
  if constexpr (std::is_same_v<std::remove_cv_t<T>, const void*> ||
                std::is_same_v<std::remove_cv_t<T>, void*>) {
    return [=] { return f(symbol); };
  } else {
    const T* at = &symbol;
    return [=] { return f(*at); };
  }
}
template <typename T>
cudaError_t MemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes,
                                std::size_t offset = 0,
                                cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                cudaStream_t stream = 0) {
  if (detail::CaptureCopy(stream, "memcpy", OnSymbol(symbol, [=](const T& at) {
                            return (cudaMemcpyToSymbol)(at, src, bytes, offset, kind);
                          })))
    return cudaSuccess;
  return (cudaMemcpyToSymbolAsync)(symbol, src, bytes, offset, kind, stream);
}
template <typename T>
cudaError_t MemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes,
                                  std::size_t offset = 0,
                                  cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                  cudaStream_t stream = 0) {
  if (detail::CaptureCopy(stream, "memcpy", OnSymbol(symbol, [=](const T& at) {
                            return (cudaMemcpyFromSymbol)(dst, at, bytes, offset, kind);
                          })))
    return cudaSuccess;
  return (cudaMemcpyFromSymbolAsync)(dst, symbol, bytes, offset, kind, stream);
}
}  // namespace ws::prog

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
#define cudaDeviceSetLimit(...) ::ws::prog::DeviceSetLimit(__VA_ARGS__)
#define cudaStreamDestroy(...) ::ws::prog::StreamDestroy(__VA_ARGS__)
#define cudaEventRecord(...) ::ws::prog::EventRecord(__VA_ARGS__)
#define cudaStreamWaitEvent(...) ::ws::prog::StreamWaitEvent(__VA_ARGS__)
#define cudaMemcpyAsync(...) ::ws::prog::MemcpyAsync(__VA_ARGS__)
#define cudaMemsetAsync(...) ::ws::prog::MemsetAsync(__VA_ARGS__)
#define cudaMemcpy2DAsync(...) ::ws::prog::Memcpy2DAsync(__VA_ARGS__)
#define cudaMemcpy3DAsync(...) ::ws::prog::Memcpy3DAsync(__VA_ARGS__)
#define cudaMemcpyToSymbolAsync(...) ::ws::prog::MemcpyToSymbolAsync(__VA_ARGS__)
#define cudaMemcpyFromSymbolAsync(...) ::ws::prog::MemcpyFromSymbolAsync(__VA_ARGS__)

// CUDA graphs, stream capture and launches by address are Warpscope's (cuda_graphs.cpp), as on
// the emulator: the driver never sees a graph, whose kernels would run unrecorded; each kernel
// node and cudaLaunchKernel runs through the recorded launch (the kernels' table binds it).
// The real cudaKernelNodeParams' members, which the rewriter renames as the emulator's built-ins
// require (WS_BUILTIN_MEMBER).
#define ws_user_gridDim gridDim
#define ws_user_blockDim blockDim
namespace ws::prog::gpu {
#include "ws_program_graph_calls.h"
}  // namespace ws::prog::gpu
#define cudaGraphAddDependencies(...) ::ws::prog::gpu::cudaGraphAddDependencies(__VA_ARGS__)
#define cudaGraphAddEmptyNode(...) ::ws::prog::gpu::cudaGraphAddEmptyNode(__VA_ARGS__)
#define cudaGraphAddHostNode(...) ::ws::prog::gpu::cudaGraphAddHostNode(__VA_ARGS__)
#define cudaGraphAddKernelNode(...) ::ws::prog::gpu::cudaGraphAddKernelNode(__VA_ARGS__)
#define cudaGraphAddMemcpyNode(...) ::ws::prog::gpu::cudaGraphAddMemcpyNode(__VA_ARGS__)
#define cudaGraphAddMemcpyNode1D(...) ::ws::prog::gpu::cudaGraphAddMemcpyNode1D(__VA_ARGS__)
#define cudaGraphAddMemsetNode(...) ::ws::prog::gpu::cudaGraphAddMemsetNode(__VA_ARGS__)
#define cudaGraphClone(...) ::ws::prog::gpu::cudaGraphClone(__VA_ARGS__)
#define cudaGraphCreate(...) ::ws::prog::gpu::cudaGraphCreate(__VA_ARGS__)
#define cudaGraphDestroy(...) ::ws::prog::gpu::cudaGraphDestroy(__VA_ARGS__)
#define cudaGraphExecDestroy(...) ::ws::prog::gpu::cudaGraphExecDestroy(__VA_ARGS__)
#define cudaGraphExecKernelNodeSetParams(...) \
  ::ws::prog::gpu::cudaGraphExecKernelNodeSetParams(__VA_ARGS__)
#define cudaGraphExecUpdate(...) ::ws::prog::gpu::cudaGraphExecUpdate(__VA_ARGS__)
#define cudaGraphKernelNodeSetParams(...) ::ws::prog::gpu::cudaGraphKernelNodeSetParams(__VA_ARGS__)
#define cudaGraphGetNodes(...) ::ws::prog::gpu::cudaGraphGetNodes(__VA_ARGS__)
#define cudaGraphGetRootNodes(...) ::ws::prog::gpu::cudaGraphGetRootNodes(__VA_ARGS__)
#define cudaGraphInstantiate(...) ::ws::prog::gpu::cudaGraphInstantiate(__VA_ARGS__)
#define cudaGraphInstantiateWithFlags(...) \
  ::ws::prog::gpu::cudaGraphInstantiateWithFlags(__VA_ARGS__)
#define cudaGraphLaunch(...) ::ws::prog::gpu::cudaGraphLaunch(__VA_ARGS__)
#define cudaGraphNodeGetType(...) ::ws::prog::gpu::cudaGraphNodeGetType(__VA_ARGS__)
#define cudaGraphUpload(...) ::ws::prog::gpu::cudaGraphUpload(__VA_ARGS__)
#define cudaLaunchCooperativeKernel(...) ::ws::prog::gpu::cudaLaunchCooperativeKernel(__VA_ARGS__)
#define cudaLaunchHostFunc(...) ::ws::prog::gpu::cudaLaunchHostFunc(__VA_ARGS__)
#define cudaLaunchKernel(...) ::ws::prog::gpu::cudaLaunchKernel(__VA_ARGS__)
#define cudaLaunchKernelEx(...) ::ws::prog::gpu::cudaLaunchKernelEx(__VA_ARGS__)
#define cudaLaunchKernelExC(...) ::ws::prog::gpu::cudaLaunchKernelExC(__VA_ARGS__)
#define cudaStreamAddCallback(...) ::ws::prog::gpu::cudaStreamAddCallback(__VA_ARGS__)
#define cudaStreamBeginCapture(...) ::ws::prog::gpu::cudaStreamBeginCapture(__VA_ARGS__)
#define cudaStreamEndCapture(...) ::ws::prog::gpu::cudaStreamEndCapture(__VA_ARGS__)
#define cudaStreamIsCapturing(...) ::ws::prog::gpu::cudaStreamIsCapturing(__VA_ARGS__)
#define cudaThreadExchangeStreamCaptureMode(...) \
  ::ws::prog::gpu::cudaThreadExchangeStreamCaptureMode(__VA_ARGS__)
