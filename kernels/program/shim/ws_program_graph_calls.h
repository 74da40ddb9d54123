// The CUDA graph and stream-capture calls Warpscope runs itself (cuda_graphs.cpp), declared for
// both roads: at global scope on the emulator (ws_program_graphs.h), as CUDA's own are; inside
// ws::prog::gpu on a GPU (ws_program_cuda_host.h), where the program's calls are macros to them,
// so that the driver never sees a graph whose kernels would run unrecorded. Included once, after
// the types it names (the real runtime's on a GPU). No include guard of its own beyond the
// includer's: it is included inside a namespace. (A parenthesized name: no argument-dependent
// lookup of the runtime's own through dim3.)
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
// An instantiated graph made the graph's again where their nodes match one for one (the same
// kinds, dependencies and kernels: only parameters change), as CUDA updates one.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo* info);
// CUDA 11's form, which cuda_runtime.h still offers C++ programs (cuda-samples' jacobiCudaGraphs).
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphNode_t* error_node, cudaGraphExecUpdateResult* result);
// A kernel node's launch given new parameters: in an instantiated graph (the node is the graph's
// it was instantiated from), or in the graph itself.
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params);
// cudaLaunchKernel: a kernel by its address, its arguments as pointers (the kernels' table binds
// them to the kernel's parameters).
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                             std::size_t shared = 0, cudaStream_t stream = 0);
template <typename... P>
cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void** args,
                             std::size_t shared = 0, cudaStream_t stream = 0) {
  return (cudaLaunchKernel)(reinterpret_cast<const void*>(func), grid, block, args, shared, stream);
}
// cudaLaunchKernelEx: cudaLaunchKernel with attributes, of which a thread-block cluster's
// dimension (its blocks resident together: cluster.sync(), map_shared_rank) and a cooperative
// launch are honoured. The typed form converts each argument to its parameter's type, as CUDA's.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);
template <typename... P, typename... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*func)(P...), A&&... args) {
  return [&](P... converted) {
    void* argv[] = {static_cast<void*>(&converted)..., nullptr};
    return (cudaLaunchKernelExC)(config, reinterpret_cast<const void*>(func), argv);
  }(static_cast<A&&>(args)...);
}
// A cooperative launch: every block resident at once, so this_grid().sync() can wait for all. A
// grid larger than the device could hold at once fails with cudaErrorCooperativeLaunchTooLarge
// (by the preset's occupancy), as on a GPU.
cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                        std::size_t shared = 0, cudaStream_t stream = 0);
template <typename... P>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void** args,
                                        std::size_t shared = 0, cudaStream_t stream = 0) {
  return (cudaLaunchCooperativeKernel)(reinterpret_cast<const void*>(func), grid, block, args,
                                       shared, stream);
}
