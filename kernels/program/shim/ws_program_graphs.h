// CUDA graphs as a program on the emulator sees them (part of ws_program.h, after
// ws_program_arrays3d.h; libws_program_emu: emu_cuda_graphs.cpp). A graph is built by stream
// capture (cudaStreamBeginCapture ... cudaStreamEndCapture: the work a capturing stream, and
// every stream that waits on one of its events, is given becomes nodes instead of running) or
// node by node (kernel, memcpy, memset, host and empty nodes with their dependencies).
// cudaGraphLaunch runs an instantiated graph's nodes at once, in an order its dependencies allow
// (each node after those it depends on, ties in the order the nodes were made), as every stream
// runs in program order on the emulator; each launch is recorded saying which graph and node it
// came from.
#pragma once

#include <functional>
#include <memory>
#include <tuple>
#include <utility>

typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef void (*cudaHostFn_t)(void* userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* userData);

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05
};
enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8
};
// A member named as a built-in (gridDim) is ws_user_gridDim once rewritten, as the rewriter
// renames every member of those names (the built-ins are macros on the emulator).
#if defined(WS_PROGRAM_PARSE)
#define WS_BUILTIN_MEMBER(name) name
#else
#define WS_BUILTIN_MEMBER(name) ws_user_##name
#endif
struct cudaKernelNodeParams {
  void* func;
  dim3 WS_BUILTIN_MEMBER(gridDim);
  dim3 WS_BUILTIN_MEMBER(blockDim);
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct cudaMemsetParams {
  void* dst;
  std::size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  std::size_t width;
  std::size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* userData, unsigned int flags);
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t graph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaKernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* dependencies, std::size_t count,
                                     void* dst, const void* src, std::size_t bytes,
                                     cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaMemsetParams* params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* dependencies, std::size_t count,
                                 const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies, std::size_t count);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, std::size_t count);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 unsigned long long flags = 0);
// CUDA 11's form, which cuda_runtime.h still offers C++ programs.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t* error,
                                 char* log, std::size_t log_size);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
// cudaLaunchKernel: a kernel by its address, its arguments as pointers (the kernels' table binds
// them to the kernel's parameters).
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                             std::size_t shared = 0, cudaStream_t stream = 0);
template <typename... P>
cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void** args,
                             std::size_t shared = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, shared, stream);
}
// A cooperative launch: every block resident at once, so this_grid().sync() can wait for all. A
// grid larger than the device could hold at once fails with cudaErrorCooperativeLaunchTooLarge
// (by the preset's occupancy), as on a GPU.
cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                        std::size_t shared = 0, cudaStream_t stream = 0);
template <typename... P>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void** args,
                                        std::size_t shared = 0, cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(func), grid, block, args, shared,
                                     stream);
}

namespace ws::prog {
// A launch's configuration, its stream included (a capturing stream's launch becomes a node).
struct Config;
// A kernel bound to copies of its arguments: run with a configuration and the launch's line.
using BoundLaunch = std::function<void(const Config&, unsigned int)>;
using Binder = BoundLaunch (*)(const void* kernel, void** args);
// Is `stream` capturing? Then a launch on it (`run`, its arguments copied) becomes a kernel node
// of its graph, named `name`.
bool Capturing(cudaStream_t stream);
void CaptureLaunch(cudaStream_t stream, const char* name, std::function<void()> run);
// Which graph and node the running launch came from ("" outside a graph's launch).
const char* LaunchOrigin();
}  // namespace ws::prog
