// What an ordinary CUDA program sees in place of the CUDA toolkit when Warpscope runs it on the
// CPU emulator (docs/PROGRAMS.md). Force-included (-include) before the program, in two builds:
//
// - WS_PROGRAM_PARSE: clang parses the unmodified program as CUDA (-x cuda --cuda-host-only
//   -nocudainc) to find its memory accesses and launches (program_rewrite.h); the CUDA keywords
//   are clang's attributes.
// - otherwise: the host compiler builds the rewritten program as C++ for the emulator; the
//   keywords vanish, a __shared__ variable is one per worker thread (a worker runs one block at a
//   time), and the runtime calls, launches and recorded accesses go to libws_program_emu.
//
// Self-contained (C++17) but for the emulator's ThreadState, so that it compiles fast.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(WS_PROGRAM_PARSE)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define WS_PD __host__ __device__
#else
#define __global__
#define __device__
#define __host__
#define __shared__ static thread_local
#define __constant__
#define __managed__
#define WS_PD
#endif
#define __forceinline__ inline __attribute__((always_inline))
// Empty: libstdc++ writes __attribute__((__noinline__)) in its own headers, which a definition
// as an attribute would break for any header included after this one.
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define CUDART_VERSION 13000
#define __CUDA_WARPSCOPE__ 1  // a program can tell it runs on Warpscope's emulator

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
#define WS_VEC2(T, N, A)                    \
  struct alignas(A) N##2 {                  \
    T x, y;                                 \
  };                                        \
  WS_PD inline N##2 make_##N##2(T x, T y) { \
    return N##2 {x, y};                     \
  }
#define WS_VEC3(T, N)                            \
  struct N##3 {                                  \
    T x, y, z;                                   \
  };                                             \
  WS_PD inline N##3 make_##N##3(T x, T y, T z) { \
    return N##3 {x, y, z};                       \
  }
#define WS_VEC4(T, N, A)                              \
  struct alignas(A) N##4 {                            \
    T x, y, z, w;                                     \
  };                                                  \
  WS_PD inline N##4 make_##N##4(T x, T y, T z, T w) { \
    return N##4 {x, y, z, w};                         \
  }
WS_VEC2(float, float, 8)
WS_VEC3(float, float)
WS_VEC4(float, float, 16)
WS_VEC2(int, int, 8)
WS_VEC3(int, int)
WS_VEC4(int, int, 16)
WS_VEC2(unsigned int, uint, 8)
WS_VEC4(unsigned int, uint, 16)
WS_VEC2(double, double, 16)
WS_VEC4(unsigned char, uchar, 4)
WS_VEC4(char, char, 4)
#undef WS_VEC2
#undef WS_VEC3
#undef WS_VEC4
WS_PD inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  return uint3{x, y, z};
}

// ------------------------------------------------------------------------------------------------
// The runtime API (the part programs use; docs/PROGRAMS.md lists it).
// ------------------------------------------------------------------------------------------------
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidSymbol = 13,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
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

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerMultiprocessor, totalConstMem;
  int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3],
      maxGridSize[3], clockRate, major, minor, multiProcessorCount, maxThreadsPerMultiProcessor,
      maxBlocksPerMultiProcessor, memoryClockRate, memoryBusWidth, l2CacheSize, concurrentKernels,
      asyncEngineCount, unifiedAddressing, managedMemory;
  std::size_t memPitch, textureAlignment, sharedMemPerBlockOptin;
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

// ------------------------------------------------------------------------------------------------
// Device-side built-ins.
// ------------------------------------------------------------------------------------------------
#if defined(WS_PROGRAM_PARSE)
// The parser needs only their declarations.
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared = 0,
                                                cudaStream_t stream = 0);
__device__ void __syncthreads();
// assert() in device code: the parser needs a device-side __assert_fail (the emulator calls
// glibc's, which names the file, the line and the expression).
__device__ static inline void __assert_fail(const char*, const char*, unsigned int,
                                            const char*) noexcept {}
// The helpers a built-in lesson's plain kernel may call (ws_cuda_arrays.h: the barrier and
// scalability lessons' modelled work, %smid, %globaltimer); read by warpscope-rewrite
// --lesson-form only, programs have no such names.
namespace ws {
__device__ void work(long long units);
__device__ unsigned int smid();
__device__ unsigned long long globaltimer();
}  // namespace ws
#else
namespace ws::emu {
struct ThreadState;
extern thread_local ThreadState* t_thread;
}  // namespace ws::emu
namespace ws::prog {
// The running GPU thread's threadIdx, blockIdx, blockDim and gridDim (ws::emu::ThreadState's
// layout: four triples). A program's own variable of one of these names (a `dim3 blockDim` in
// main()) is renamed by the rewriter, so these macros meet only the built-ins.
inline const uint3* Builtins() {
  return reinterpret_cast<const uint3*>(::ws::emu::t_thread);
}
void SyncThreads(unsigned int line);
}  // namespace ws::prog
#define threadIdx (::ws::prog::Builtins()[0])
#define blockIdx (::ws::prog::Builtins()[1])
#define blockDim (::dim3(::ws::prog::Builtins()[2]))
#define gridDim (::dim3(::ws::prog::Builtins()[3]))
#define __syncthreads() ::ws::prog::SyncThreads(__LINE__)
#endif
inline constexpr int warpSize = 32;

#include "ws_program_device.h"  // math, warp intrinsics, atomics

// ------------------------------------------------------------------------------------------------
// What the rewriter inserts (program_rewrite.h). Each recorded access names its site: a number
// the rewriter gave the access (bits 16..31) and its line (bits 0..15).
// ------------------------------------------------------------------------------------------------
namespace ws::prog {

enum : unsigned int { kOpLoad = 0, kOpStore = 1, kOpAtomic = 2 };

#if defined(WS_PROGRAM_PARSE)
template <typename T>
WS_PD T* Ld(T* p, unsigned int) {
  return p;
}
#else
// Records one access of `bytes` at `p` (runtime: classifies the address, or stops the launch
// with a message when it is in no buffer).
void Record(const void* p, unsigned int bytes, unsigned int place, unsigned int op);
void RecordLoadStore(const void* p, unsigned int bytes, unsigned int place);
struct SharedSlot {
  unsigned int tag = 0, base = 0;
};
void RegisterShared(const void* p, unsigned int bytes, SharedSlot* slot);
void* DynamicShared();
// Registers a __device__ or __constant__ variable (space: 0 global, 2 constant).
struct Symbol {
  Symbol(const void* p, std::size_t bytes, const char* name, unsigned int space);
};
struct SiteDesc {
  unsigned int site, line, column, end_column;
};
struct SiteTable {
  SiteTable(const SiteDesc* sites, unsigned int count, const char* file);
};

template <typename T>
inline T* Ld(T* p, unsigned int place) {
  Record(p, sizeof(T), place, kOpLoad);
  return p;
}
template <typename T>
inline T* St(T* p, unsigned int place) {
  Record(p, sizeof(T), place, kOpStore);
  return p;
}
template <typename T>
inline T* LdSt(T* p, unsigned int place) {
  RecordLoadStore(p, sizeof(T), place);
  return p;
}
template <typename T>
inline T* At(T* p, unsigned int place) {
  Record(p, sizeof(T), place, kOpAtomic);
  return p;
}
template <typename T>
inline T* Dyn() {
  return static_cast<T*>(DynamicShared());
}
// A __shared__ array's declaration (the rewriter puts it after each): one slot per worker thread
// remembers where the running launch placed the array.
#define WS_PROGRAM_SHARED(name, slot)                                                       \
  {                                                                                         \
    static thread_local ::ws::prog::SharedSlot ws_slot;                                     \
    ::ws::prog::RegisterShared(&(name), static_cast<unsigned int>(sizeof(name)), &ws_slot); \
  }

struct Config {
  dim3 grid, block;
  std::size_t shared;
  Config(dim3 g, dim3 b, std::size_t s = 0, cudaStream_t = 0) : grid(g), block(b), shared(s) {}
};
// Runs one launch (the runtime): `body` is called once per GPU thread.
// `static_shared`: the bytes of the kernel's own __shared__ arrays (the rewriter counts them).
void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, void (*body)(void*), void* context);
// Names the buffer the next cudaMalloc of this thread allocates (the rewriter puts it before
// each cudaMalloc call, with the variable it fills).
int NameNext(const char* name, unsigned int line);

template <typename... P>
struct Launcher {
  const char* name;
  unsigned int line, static_shared;
  void (*kernel)(P...);
  Config config;
  template <typename... A>
  void Run(A&&... args) {
    static_assert(sizeof...(A) == sizeof...(P), "a kernel launch passes every parameter");
    std::tuple<std::decay_t<P>...> values(std::forward<A>(args)...);
    struct Context {
      void (*kernel)(P...);
      std::tuple<std::decay_t<P>...>* values;
    } context{kernel, &values};
    RunKernel(
        name, line, static_shared, config,
        [](void* c) {
          auto* ctx = static_cast<Context*>(c);
          std::apply(ctx->kernel, *ctx->values);  // each thread gets its own copies
        },
        &context);
  }
};
template <typename... P>
Launcher<P...> Launch(const char* name, unsigned int line, unsigned int static_shared,
                      void (*kernel)(P...), Config config) {
  return Launcher<P...>{name, line, static_shared, kernel, config};
}
#endif

}  // namespace ws::prog
