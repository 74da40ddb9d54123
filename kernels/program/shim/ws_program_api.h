// The CUDA runtime API as a program on the emulator sees it (part of ws_program.h, which includes
// it after the CUDA keywords and the C library): vector types, errors, device properties and
// attributes, memory, copies, streams, events, occupancy, texture objects, and the template forms
// cuda_runtime.h has. libws_program_emu implements it (emu_cuda_api.cpp, emu_textures.cpp).
#pragma once
// ------------------------------------------------------------------------------------------------
// Vector types, as CUDA's vector_types.h declares them (alignment included).
// ------------------------------------------------------------------------------------------------
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  WS_PD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  WS_PD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}  // NOLINT: as CUDA's
  WS_PD constexpr operator uint3() const { return uint3{x, y, z}; }
};
// Every CUDA vector type, N1 to N4, with make_N: alignment as vector_types.h gives it (N2 twice
// the element, N4 four times up to 16 bytes, N1 and N3 the element's).
#define WS_VEC(T, N, A1, A2, A4)                      \
  struct alignas(A1) N##1 {                           \
    T x;                                              \
  };                                                  \
  struct alignas(A2) N##2 {                           \
    T x, y;                                           \
  };                                                  \
  struct alignas(A4) N##4 {                           \
    T x, y, z, w;                                     \
  };                                                  \
  WS_PD inline N##1 make_##N##1(T x) {                \
    return N##1 {x};                                  \
  }                                                   \
  WS_PD inline N##2 make_##N##2(T x, T y) {           \
    return N##2 {x, y};                               \
  }                                                   \
  WS_PD inline N##4 make_##N##4(T x, T y, T z, T w) { \
    return N##4 {x, y, z, w};                         \
  }
#define WS_VEC3(T, N)                            \
  struct N##3 {                                  \
    T x, y, z;                                   \
  };                                             \
  WS_PD inline N##3 make_##N##3(T x, T y, T z) { \
    return N##3 {x, y, z};                       \
  }
WS_VEC(char, char, 1, 2, 4)
WS_VEC3(char, char)
WS_VEC(unsigned char, uchar, 1, 2, 4)
WS_VEC3(unsigned char, uchar)
WS_VEC(short, short, 2, 4, 8)
WS_VEC3(short, short)
WS_VEC(unsigned short, ushort, 2, 4, 8)
WS_VEC3(unsigned short, ushort)
WS_VEC(int, int, 4, 8, 16)
WS_VEC3(int, int)
WS_VEC(unsigned int, uint, 4, 8, 16)
WS_VEC(long, long, 8, 16, 16)
WS_VEC3(long, long)
WS_VEC(unsigned long, ulong, 8, 16, 16)
WS_VEC3(unsigned long, ulong)
WS_VEC(long long, longlong, 8, 16, 16)
WS_VEC3(long long, longlong)
WS_VEC(unsigned long long, ulonglong, 8, 16, 16)
WS_VEC3(unsigned long long, ulonglong)
WS_VEC(float, float, 4, 8, 16)
WS_VEC3(float, float)
WS_VEC(double, double, 8, 16, 16)
WS_VEC3(double, double)
#undef WS_VEC
#undef WS_VEC3
WS_PD inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  return uint3{x, y, z};
}

// The channel format of a texel type (cudaCreateChannelDesc<T>()): its components' bits and kind.
struct cudaChannelFormatDesc;
namespace ws::prog {
template <typename T>
struct Channel {  // a scalar: one component
  static constexpr int count = 1, bits = 8 * sizeof(T);
  static constexpr int kind = std::is_floating_point<T>::value ? 2
                              : std::is_signed<T>::value       ? 0
                                                               : 1;
};
#define WS_CHANNEL(V, T, N)                               \
  template <>                                             \
  struct Channel<V> {                                     \
    static constexpr int count = N, bits = 8 * sizeof(T); \
    static constexpr int kind = Channel<T>::kind;         \
  };
#define WS_CHANNELS(N, T) WS_CHANNEL(N##1, T, 1) WS_CHANNEL(N##2, T, 2) WS_CHANNEL(N##4, T, 4)
WS_CHANNELS(char, char)
WS_CHANNELS(uchar, unsigned char)
WS_CHANNELS(short, short)
WS_CHANNELS(ushort, unsigned short)
WS_CHANNELS(int, int)
WS_CHANNELS(uint, unsigned int)
WS_CHANNELS(float, float)
#undef WS_CHANNELS
#undef WS_CHANNEL
template <typename T>
cudaChannelFormatDesc ChannelDescOf();
}  // namespace ws::prog

// ------------------------------------------------------------------------------------------------
// The runtime API (the part programs use; docs/PROGRAMS.md lists it).
// ------------------------------------------------------------------------------------------------
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureWrongThread = 908,
  cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
typedef struct WsStream* cudaStream_t;
typedef struct WsEvent* cudaEvent_t;
enum : unsigned int { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum : unsigned int {
  cudaEventDefault = 0,
  cudaEventBlockingSync = 1,
  cudaEventDisableTiming = 2,
  cudaEventInterprocess = 4
};
enum : unsigned int {
  cudaHostAllocDefault = 0,
  cudaHostAllocPortable = 1,
  cudaHostAllocMapped = 2,
  cudaHostAllocWriteCombined = 4,
  cudaHostRegisterDefault = 0,
  cudaHostRegisterMapped = 2,
  cudaMemAttachGlobal = 1,
  cudaMemAttachHost = 2,
  cudaDeviceScheduleAuto = 0,
  cudaDeviceScheduleSpin = 1,
  cudaDeviceScheduleYield = 2,
  cudaDeviceScheduleBlockingSync = 4,
  cudaDeviceMapHost = 8,
  cudaDeviceLmemResizeToMax = 16,
};
#define cudaStreamPerThread (reinterpret_cast<cudaStream_t>(2))
#define cudaStreamLegacy (reinterpret_cast<cudaStream_t>(1))
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
#include "ws_program_launch_ex.h"  // cudaLaunchKernelEx's configuration and attributes
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};
// The attributes cudaDeviceGetAttribute answers (driver_types.h's numbers).
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrCooperativeMultiDeviceLaunch = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMemoryPoolsSupported = 115,
};

struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  std::size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerMultiprocessor, totalConstMem;
  int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3],
      maxGridSize[3], clockRate, major, minor, multiProcessorCount, maxThreadsPerMultiProcessor,
      maxBlocksPerMultiProcessor, memoryClockRate, memoryBusWidth, l2CacheSize, concurrentKernels,
      asyncEngineCount, unifiedAddressing, managedMemory;
  std::size_t memPitch, textureAlignment, sharedMemPerBlockOptin;
  int computeMode, integrated, canMapHostMemory, deviceOverlap, kernelExecTimeoutEnabled,
      ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, isMultiGpuBoard,
      multiGpuBoardGroupID, concurrentManagedAccess, pageableMemoryAccess, cooperativeLaunch,
      cooperativeMultiDeviceLaunch, persistingL2CacheMaxSize, streamPrioritiesSupported,
      globalL1CacheSupported, localL1CacheSupported, computePreemptionSupported,
      canUseHostPointerForRegisteredMem, directManagedMemAccessFromHost, maxTexture1D,
      maxTexture1DLinear, maxTexture2D[2], maxTexture3D[3], maxSurface1D, maxSurface2D[2],
      hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, accessPolicyMaxWindowSize,
      reservedSharedMemPerBlock, memoryPoolsSupported;
};
// What cudaFuncGetAttributes fills (the emulator knows the kernel's static shared memory only
// after a launch; registers it does not know: 0).
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout;
};
struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch, xsize, ysize;
};

cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned int flags = 1);
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t bytes,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = 0);
cudaError_t cudaMemset2D(void* dst, std::size_t pitch, int value, std::size_t width,
                         std::size_t height);
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, std::size_t bytes,
                                    std::size_t offset, cudaMemcpyKind kind,
                                    cudaStream_t stream = 0);
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, std::size_t bytes,
                                      std::size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream = 0);
cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol);
cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags);
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
// Every preset's banks are 4 bytes wide (Kepler's 8-byte mode is none of them): what CUDA gives
// where the bank size cannot be configured.
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config);
cudaError_t cudaDeviceSetLimit(int limit, std::size_t value);  // cudaLimit
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaThreadSynchronize();
cudaError_t cudaThreadExit();
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaFuncGetAttributesOf(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetAttributeOf(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncSetCacheConfigOf(const void* func, cudaFuncCache config);
cudaError_t cudaOccupancyOf(int* blocks, const void* func, int block_size,
                            std::size_t dynamic_shared);
cudaError_t cudaOccupancyMaxPotentialBlockSizeOf(int* min_grid, int* block_size, const void* func,
                                                 std::size_t dynamic_shared, int limit);
enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5,
  cudaLimitPersistingL2CacheSize = 6
};
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
#define cudaCpuDeviceId (-1)
#define cudaInvalidDeviceId (-2)
// Managed memory's hints: the emulator has one memory, so they change nothing.
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes = 0,
                                     unsigned int flags = cudaMemAttachGlobal);
// Stream-ordered allocation: at once, as every stream's work runs in program order here.
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
template <typename T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();
// The forms that take a kernel: any function.
template <typename F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F* func) {
  return cudaFuncGetAttributesOf(attr, reinterpret_cast<const void*>(func));
}
template <typename F>
cudaError_t cudaFuncSetAttribute(F* func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttributeOf(reinterpret_cast<const void*>(func), attr, value);
}
template <typename F>
cudaError_t cudaFuncSetCacheConfig(F* func, cudaFuncCache config) {
  return cudaFuncSetCacheConfigOf(reinterpret_cast<const void*>(func), config);
}
// A kernel's bank size: taken, as the device's (cudaDeviceSetSharedMemConfig), changing nothing.
template <typename F>
cudaError_t cudaFuncSetSharedMemConfig(F*, cudaSharedMemConfig) {
  return cudaSuccess;
}
template <typename F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F func, int block_size,
                                                          std::size_t dynamic_shared) {
  return cudaOccupancyOf(blocks, reinterpret_cast<const void*>(func), block_size, dynamic_shared);
}
template <typename F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, F func,
                                               std::size_t dynamic_shared = 0, int limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeOf(
      min_grid, block_size, reinterpret_cast<const void*>(func), dynamic_shared, limit);
}
template <typename T>
cudaError_t cudaMallocPitch(T** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <typename T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <typename T>
cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
}
template <typename T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync(static_cast<const void*>(&symbol), src, bytes, offset, kind,
                                 stream);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t stream = 0) {
  return cudaMemcpyFromSymbolAsync(dst, static_cast<const void*>(&symbol), bytes, offset, kind,
                                   stream);
}
template <typename T, typename S>
cudaError_t cudaGetSymbolAddress(T** ptr, const S& symbol) {
  return cudaGetSymbolAddress(reinterpret_cast<void**>(ptr), static_cast<const void*>(&symbol));
}
template <typename S>
cudaError_t cudaGetSymbolSize(std::size_t* size, const S& symbol) {
  return cudaGetSymbolSize(size, static_cast<const void*>(&symbol));
}
// ------------------------------------------------------------------------------------------------
// Texture objects (docs/PROGRAMS.md): linear, pitched and array resources, point or linear
// filtering, the four address modes; each fetch is a recorded texture read.
// ------------------------------------------------------------------------------------------------
typedef unsigned long long cudaTextureObject_t;
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};
struct cudaArray;
typedef cudaArray* cudaArray_t;
typedef const cudaArray* cudaArray_const_t;
struct cudaMipmappedArray;
typedef cudaMipmappedArray* cudaMipmappedArray_t;
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
struct cudaResourceViewDesc;
struct cudaExtent {
  std::size_t width, height, depth;
};
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
template <typename T>
cudaChannelFormatDesc ws::prog::ChannelDescOf() {
  using C = ::ws::prog::Channel<T>;
  return {C::bits, C::count >= 2 ? C::bits : 0, C::count >= 3 ? C::bits : 0,
          C::count >= 4 ? C::bits : 0, static_cast<cudaChannelFormatKind>(C::kind)};
}
template <typename T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  return ::ws::prog::ChannelDescOf<T>();
}
cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                            std::size_t width, std::size_t height = 0, unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                              const void* src, std::size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                                const void* src, std::size_t spitch, std::size_t width,
                                std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t w_offset,
                                std::size_t h_offset, std::size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src,
                                  std::size_t w_offset, std::size_t h_offset, std::size_t width,
                                  std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* object, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* texture,
                                    const cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object);

// The template forms, as cuda_runtime.h has them.
template <typename T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
template <typename T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned int flags = 1) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <typename T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
template <typename T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, bytes, offset, kind);
}
template <typename T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), bytes, offset, kind);
}
