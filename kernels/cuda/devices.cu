// Device query through the CUDA runtime. The static runtime loads the driver at run time, so a
// machine with no NVIDIA driver gets an error code here (reported to the user), never a crash.
#include <cuda_runtime.h>

#include <string>

#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

std::string Describe(const char* call, cudaError_t err) {
  return std::string(call) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
         ")";
}

std::string CudaVersion(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// One line for the user: no device, no driver, or a driver older than this build's toolkit.
std::string WhyNoGpu(cudaError_t err) {
  if (err == cudaErrorNoDevice) return "no CUDA GPU was found";
  int driver = 0;
  (void)cudaDriverGetVersion(&driver);  // 0 when no driver is installed
  if (err == cudaErrorInsufficientDriver) {
    if (driver == 0) return "no NVIDIA driver is installed";
    return "the NVIDIA driver supports CUDA " + CudaVersion(driver) + ", older than the CUDA " +
           CudaVersion(CUDART_VERSION) + " this build needs: update the driver";
  }
  return Describe("cudaGetDeviceCount", err);
}

int Attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) return 0;
  return value;
}

}  // namespace

DeviceQuery QueryDevices() {
  DeviceQuery q;
  q.cuda_built = true;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later calls start clean
    q.why_no_gpu = WhyNoGpu(err);
    return q;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    const cudaError_t perr = cudaGetDeviceProperties(&p, i);
    if (perr != cudaSuccess) {
      q.why_no_gpu = Describe("cudaGetDeviceProperties", perr);
      continue;
    }
    GpuDevice d;
    d.index = i;
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.warp_size = p.warpSize;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    d.max_blocks_per_multiprocessor = p.maxBlocksPerMultiProcessor;
    d.registers_per_block = p.regsPerBlock;
    d.registers_per_multiprocessor = p.regsPerMultiprocessor;
    d.shared_mem_per_block = p.sharedMemPerBlock;
    d.shared_mem_per_block_optin = p.sharedMemPerBlockOptin;
    d.shared_mem_per_multiprocessor = p.sharedMemPerMultiprocessor;
    d.global_mem = p.totalGlobalMem;
    // clockRate and memoryClockRate left cudaDeviceProp in CUDA 13: ask for the attributes.
    d.clock_khz = Attribute(cudaDevAttrClockRate, i);
    d.memory_clock_khz = Attribute(cudaDevAttrMemoryClockRate, i);
    d.memory_bus_width_bits = p.memoryBusWidth;
    q.gpus.push_back(d);
  }
  if (q.gpus.empty() && q.why_no_gpu.empty()) q.why_no_gpu = "no CUDA GPU was found";
  return q;
}

}  // namespace ws
