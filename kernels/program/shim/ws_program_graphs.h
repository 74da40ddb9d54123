// CUDA graphs as a program on the emulator sees them (part of ws_program.h, after
// ws_program_arrays3d.h; libws_program_emu: cuda_graphs.cpp). A graph is built by stream
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
// cudaGraphExecUpdate's outcome (driver_types.h's numbers).
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8
};
struct cudaGraphExecUpdateResultInfo {
  cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
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

#include "ws_program_graph_calls.h"

#include "ws_program_capture.h"
