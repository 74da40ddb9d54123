// libws_program_emu's CUDA runtime API, the device: the emulator's one GPU, its properties and
// attributes (the preset's, the rest as an H100 reports them), flags, limits and versions, and
// what it says of a kernel before any launch (attributes, occupancy).
#include <algorithm>
#include <cstdio>
#include <string>

#include "emu_program_state.h"

using ws::prog::detail::Fail;
using ws::prog::detail::P;

namespace {

// A device attribute, from the properties cudaGetDeviceProperties gives.
int AttributeOf(const cudaDeviceProp& p, cudaDeviceAttr attr) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      return p.maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX:
      return p.maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY:
      return p.maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ:
      return p.maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX:
      return p.maxGridSize[0];
    case cudaDevAttrMaxGridDimY:
      return p.maxGridSize[1];
    case cudaDevAttrMaxGridDimZ:
      return p.maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock:
      return static_cast<int>(p.sharedMemPerBlock);
    case cudaDevAttrTotalConstantMemory:
      return static_cast<int>(p.totalConstMem);
    case cudaDevAttrWarpSize:
      return p.warpSize;
    case cudaDevAttrMaxPitch:
      return 2147483647;
    case cudaDevAttrMaxRegistersPerBlock:
      return p.regsPerBlock;
    case cudaDevAttrClockRate:
      return p.clockRate;
    case cudaDevAttrTextureAlignment:
      return static_cast<int>(p.textureAlignment);
    case cudaDevAttrMultiProcessorCount:
      return p.multiProcessorCount;
    case cudaDevAttrComputeMode:
      return cudaComputeModeDefault;
    case cudaDevAttrComputeCapabilityMajor:
      return p.major;
    case cudaDevAttrComputeCapabilityMinor:
      return p.minor;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      return p.maxThreadsPerMultiProcessor;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      return static_cast<int>(p.sharedMemPerMultiprocessor);
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      return static_cast<int>(p.sharedMemPerBlockOptin);
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      return p.regsPerMultiprocessor;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      return p.maxBlocksPerMultiProcessor;
    case cudaDevAttrMemoryClockRate:
      return p.memoryClockRate;
    case cudaDevAttrGlobalMemoryBusWidth:
      return p.memoryBusWidth;
    case cudaDevAttrL2CacheSize:
      return p.l2CacheSize;
    case cudaDevAttrAsyncEngineCount:
      return p.asyncEngineCount;
    case cudaDevAttrConcurrentKernels:
      return p.concurrentKernels;
    case cudaDevAttrUnifiedAddressing:
    case cudaDevAttrManagedMemory:
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrGpuOverlap:
    case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrGlobalL1CacheSupported:
    case cudaDevAttrLocalL1CacheSupported:
    case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrMemoryPoolsSupported:
      return 1;
    default:
      return 0;  // not integrated, no ECC, no TCC, PCI ids 0, not a multi-GPU board
  }
}

}  // namespace

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return Fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: null value");
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess)
    return Fail(cudaErrorInvalidDevice, "cudaDeviceGetAttribute: device " + std::to_string(device) +
                                            ": the emulator has one device, 0");
  *value = AttributeOf(p, attr);
  return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned int) {
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags != nullptr) *flags = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return cudaErrorInvalidValue;
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(int limit, std::size_t value) {
  if (limit == cudaLimitMallocHeapSize) return ws::prog::detail::SetDeviceHeapLimit(value);
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  if (version != nullptr) *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version != nullptr) *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize() {
  return P().sticky_error;
}
cudaError_t cudaThreadExit() {
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  if (device != nullptr) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) return Fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: null value");
  *value = limit == cudaLimitStackSize        ? 1024
           : limit == cudaLimitPrintfFifoSize ? std::size_t{1} << 20
           : limit == cudaLimitMallocHeapSize ? ws::prog::detail::DeviceHeapLimit()
                                              : 0;
  return cudaSuccess;
}
// A kernel's attributes: what the emulator knows before any launch (no registers: 0).
cudaError_t cudaFuncGetAttributesOf(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr || func == nullptr)
    return Fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes: a null kernel");
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = static_cast<int>(P().preset.max_threads_per_block);
  const std::uint32_t fixed = ws::prog::KernelStaticSharedAt(func);
  const std::uint32_t plain = P().preset.shared_per_block;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(plain > fixed ? plain - fixed : 0);
  {
    std::lock_guard lock(P().mutex);
    const auto asked = P().max_dynamic_shared.find(func);
    if (asked != P().max_dynamic_shared.end())
      attr->maxDynamicSharedSizeBytes = static_cast<int>(asked->second);
  }
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}
// cudaFuncAttributeMaxDynamicSharedMemorySize: the kernel's launches may take that much dynamic
// shared memory, up to the preset's opt-in limit (227 KB on hopper), as on the GPU
// (cudaTensorCoreGemm's compute_gemm asks for 64 KB); more fails with cudaErrorInvalidValue.
cudaError_t cudaFuncSetAttributeOf(const void* func, cudaFuncAttribute attr, int value) {
  if (func == nullptr)
    return Fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: a null kernel");
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return cudaSuccess;
  // CUDA's rule: the kernel's static shared memory and the dynamic it asks for within the limit.
  const ws::DevicePreset& d = P().preset;
  const std::uint32_t most = std::max(d.shared_per_block, d.shared_per_block_optin);
  const std::uint32_t fixed = ws::prog::KernelStaticSharedAt(func);
  if (value < 0 || fixed + static_cast<std::uint32_t>(value) > most)
    return Fail(cudaErrorInvalidValue,
                "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, " +
                    std::to_string(value) + "): with the kernel's " + std::to_string(fixed) +
                    " bytes of static shared memory, over the " + std::to_string(most) +
                    " bytes a block may have on " + d.name);
  std::lock_guard lock(P().mutex);
  P().max_dynamic_shared[func] = static_cast<std::uint32_t>(value);
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfigOf(const void*, cudaFuncCache) {
  return cudaSuccess;
}
// Blocks of `block_size` threads that fit on one multiprocessor by threads, blocks and shared
// memory (the emulator does not know a kernel's registers or static shared memory here).
cudaError_t cudaOccupancyOf(int* blocks, const void*, int block_size, std::size_t dynamic_shared) {
  if (blocks == nullptr || block_size <= 0)
    return Fail(cudaErrorInvalidValue,
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor: block "
                "size " +
                    std::to_string(block_size));
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int warps = (block_size + 31) / 32;
  int n = std::min(p.maxBlocksPerMultiProcessor, p.maxThreadsPerMultiProcessor / 32 / warps);
  if (dynamic_shared > 0)
    n = std::min<int>(n, static_cast<int>(p.sharedMemPerMultiprocessor / dynamic_shared));
  *blocks = block_size > p.maxThreadsPerBlock ? 0 : n;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxPotentialBlockSizeOf(int* min_grid, int* block_size, const void* func,
                                                 std::size_t dynamic_shared, int limit) {
  if (min_grid == nullptr || block_size == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: null output");
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int most = limit > 0 ? std::min(limit, p.maxThreadsPerBlock) : p.maxThreadsPerBlock;
  int best = 0, best_size = 32;
  for (int size = most / 32 * 32; size >= 32; size -= 32) {
    int n = 0;
    cudaOccupancyOf(&n, func, size, dynamic_shared);
    if (n * size > best) {
      best = n * size;
      best_size = size;
    }
  }
  *block_size = best_size;
  int n = 0;
  cudaOccupancyOf(&n, func, best_size, dynamic_shared);
  *min_grid = n * p.multiProcessorCount;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  return P().sticky_error;
}
cudaError_t cudaDeviceReset() {
  P().sticky_error = P().last_error = cudaSuccess;
  std::lock_guard lock(P().mutex);
  P().failed_allocation.clear();
  P().failed_bytes = 0;
  P().max_dynamic_shared.clear();
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess
                     : Fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) +
                                                        "): the emulator has one device, 0");
}
cudaError_t cudaGetDevice(int* device) {
  if (device != nullptr) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (count != nullptr) *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr || device != 0) return cudaErrorInvalidDevice;
  const ws::DevicePreset& d = P().preset;
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "Warpscope emulator (%s: %s)", d.name.c_str(),
                d.description.c_str());
  prop->totalGlobalMem = std::size_t{16} << 30;
  prop->sharedMemPerBlock = d.shared_per_block;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->totalConstMem = 64 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  prop->maxThreadsDim[0] = static_cast<int>(d.max_block.x);
  prop->maxThreadsDim[1] = static_cast<int>(d.max_block.y);
  prop->maxThreadsDim[2] = static_cast<int>(d.max_block.z);
  prop->maxGridSize[0] = static_cast<int>(d.max_grid.x);
  prop->maxGridSize[1] = static_cast<int>(d.max_grid.y);
  prop->maxGridSize[2] = static_cast<int>(d.max_grid.z);
  prop->clockRate = static_cast<int>(d.clock_ghz * 1e6);
  prop->multiProcessorCount = static_cast<int>(d.multiprocessors);
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->major = static_cast<int>(d.compute_capability / 10);  // the preset's, as __CUDA_ARCH__
  prop->minor = static_cast<int>(d.compute_capability % 10);
  prop->warpSize = 32;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  // The rest as an H100 SXM reports them (cudaGetDeviceProperties on the lab's H100).
  prop->sharedMemPerBlockOptin = std::max(d.shared_per_block, d.shared_per_block_optin);
  prop->textureAlignment = 512;
  prop->memPitch = 2147483647;
  prop->memoryClockRate = 2619000;
  prop->memoryBusWidth = 5120;
  prop->l2CacheSize = 50 * 1024 * 1024;
  prop->persistingL2CacheMaxSize = 32 * 1024 * 1024;
  prop->concurrentKernels = 1;
  prop->asyncEngineCount = 3;
  prop->canMapHostMemory = 1;
  prop->deviceOverlap = 1;
  prop->computeMode = cudaComputeModeDefault;
  prop->concurrentManagedAccess = 1;
  prop->cooperativeLaunch = 1;
  prop->streamPrioritiesSupported = 1;
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->computePreemptionSupported = 1;
  prop->maxTexture1D = 131072;
  prop->maxTexture1DLinear = 268435456;
  prop->maxTexture2D[0] = 131072;
  prop->maxTexture2D[1] = 65536;
  prop->maxTexture3D[0] = prop->maxTexture3D[1] = prop->maxTexture3D[2] = 16384;
  prop->memoryPoolsSupported = 1;
  prop->reservedSharedMemPerBlock = 1024;
  return cudaSuccess;
}
