// Launches by a kernel's address on both roads (ws_program_graph_calls.h): cudaLaunchKernel,
// cudaLaunchKernelEx and cudaLaunchCooperativeKernel, each bound to copies of its arguments
// through the kernels' table and run as the program's own launch (on a capturing stream, a kernel
// node of its graph: CaptureLaunch). Split from cuda_graphs.cpp, whose road it shares.
#include "cuda_graphs_road.h"

namespace {
using ws::prog::detail::Fail;

// `call` found no kernel at `func` in the kernels' table.
cudaError_t Unbound(const char* call) {
  return Fail(cudaErrorInvalidDeviceFunction,
              std::string(call) +
                  ": the function is not one of the program's kernels the rewriter could bind (a "
                  "kernel template launched only so? name its specialization with <<<>>> once)");
}

// The kernel at `func` bound to copies of `args` and launched with `config` (on a capturing
// stream: its graph's next kernel node); `call` names the CUDA call where there is none.
cudaError_t LaunchBound(const char* call, const void* func, void** args,
                        const ws::prog::Config& config, cudaStream_t stream) {
  const auto bind = reinterpret_cast<ws::prog::Binder>(ws::prog::KernelBindAt(func));
  if (bind == nullptr) return Unbound(call);
  const ws::prog::BoundLaunch launch = bind(func, args);
  ws::prog::CaptureLaunch(stream, ws::prog::KernelNameAt(func, "kernel"),
                          [launch, config] { launch(config, 0); });
  return cudaSuccess;
}
}  // namespace

WS_GRAPHS_BEGIN

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                             std::size_t shared, cudaStream_t stream) {
  return LaunchBound("cudaLaunchKernel", func, args, ws::prog::Config(grid, block, shared, 0),
                     stream);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return Fail(cudaErrorInvalidValue, "cudaLaunchKernelEx: no configuration");
  bool cooperative = false;
  dim3 cluster(0, 0, 0);
  for (unsigned int i = 0; i < config->numAttrs && config->attrs != nullptr; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id == cudaLaunchAttributeClusterDimension)
      cluster = dim3(a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
    else if (a.id == cudaLaunchAttributeCooperative)
      cooperative = a.val.cooperative != 0;
  }
  if (cooperative && cluster.x * cluster.y * cluster.z > 1)
    return Fail(cudaErrorInvalidValue,
                "cudaLaunchKernelEx: a cooperative launch in clusters is not supported (yet)");
  if (cooperative)  // this road's (the GPU road's beside the runtime's own: named)
#if defined(WS_GRAPHS_GPU)
    return ws::prog::gpu::cudaLaunchCooperativeKernel(
#else
    return ::cudaLaunchCooperativeKernel(
#endif
        func, config->ws_user_gridDim, config->ws_user_blockDim, args, config->dynamicSmemBytes,
        config->stream);
  ws::prog::Config c(config->ws_user_gridDim, config->ws_user_blockDim, config->dynamicSmemBytes,
                     0);
  c.cluster = cluster;
  return LaunchBound("cudaLaunchKernelEx", func, args, c, config->stream);
}

#if !defined(WS_GRAPHS_GPU)
// The emulator's own bound on a cooperative launch: each block is resident at once on a thread of
// its own, its threads' stacks with it. Each resident block holds an OS thread (its stack reserved)
// and its threads' fiber stacks, all under the run's 4 GiB of address space: 64 blocks and 8,192
// threads fit with room to spare.
constexpr unsigned long long kMaxCooperativeBlocks = 64, kMaxCooperativeThreads = 8192;
#endif

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                        std::size_t shared, cudaStream_t stream) {
  if (ws::prog::KernelBindAt(func) == nullptr) return Unbound("cudaLaunchCooperativeKernel");
  const unsigned long long blocks = 1ull * grid.x * grid.y * grid.z;
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  cudaDeviceProp prop;
  int device = 0;
  cudaGetDevice(&device);
  cudaGetDeviceProperties(&prop, device);
  if (blocks == 0 || threads == 0 || threads > static_cast<unsigned>(prop.maxThreadsPerBlock))
    return Fail(cudaErrorInvalidConfiguration,
                "cudaLaunchCooperativeKernel: blocks of " + std::to_string(threads) +
                    " threads in a grid of " + std::to_string(blocks) + " (1 to " +
                    std::to_string(prop.maxThreadsPerBlock) + " threads a block)");
  // Every block resident at once: as many as the device holds (its multiprocessors times the
  // blocks of this size and shared memory, static and dynamic, one holds), as CUDA checks. On a
  // GPU the recorded build's kernel, whose registers are those the driver checks.
  int per_sm = 0;
#if defined(WS_GRAPHS_GPU)
  if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, func, static_cast<int>(threads), shared);
      e != cudaSuccess)
    return e;
#else
  if (cudaError_t e = cudaOccupancyOf(&per_sm, func, static_cast<int>(threads),
                                      shared + ws::prog::KernelStaticSharedAt(func));
      e != cudaSuccess)
    return e;
#endif
  const unsigned long long most = 1ull * per_sm * prop.multiProcessorCount;
  if (blocks > most)
    return Fail(cudaErrorCooperativeLaunchTooLarge,
                "cudaLaunchCooperativeKernel: a grid of " + std::to_string(blocks) + " blocks of " +
                    std::to_string(threads) + " threads; the device holds at most " +
                    std::to_string(most) + " at once (" + std::to_string(per_sm) +
                    " a multiprocessor x " + std::to_string(prop.multiProcessorCount) + ")");
#if !defined(WS_GRAPHS_GPU)
  if (blocks > kMaxCooperativeBlocks || blocks * threads > kMaxCooperativeThreads)
    return Fail(cudaErrorCooperativeLaunchTooLarge,
                "cudaLaunchCooperativeKernel: a grid of " + std::to_string(blocks) + " blocks of " +
                    std::to_string(threads) + " threads; the emulator keeps at most " +
                    std::to_string(kMaxCooperativeBlocks) + " blocks and " +
                    std::to_string(kMaxCooperativeThreads) +
                    " threads of a cooperative launch resident at once");
#endif
  ws::prog::Config config(grid, block, shared, 0);
  config.cooperative = true;
  return LaunchBound("cudaLaunchCooperativeKernel", func, args, config, stream);
}

WS_GRAPHS_END
