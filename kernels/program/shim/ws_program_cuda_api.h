// The host side of a program's GPU road: what the shim (ws_program_cuda.h) and the runtime
// (libws_program_cuda: cuda_program.cu) both declare. No device code and no macros.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <initializer_list>

#include "warpscope/kernels/ws_cuda_record_format.h"
#include "ws_program_capture.h"

namespace ws::prog {

enum : unsigned int { kOpLoad = 0, kOpStore = 1, kOpAtomic = 2, kOpSeveral = 8 };
// BadAccess::op of a grid sync outside a cooperative launch (no access: the words say so).
inline constexpr unsigned int kOpNotCooperative = 16;
// Either side of a bulk copy through the TMA (ws_gpu_async.h): keyed by BulkCopyKey.
inline constexpr unsigned int kOpBulk = 32;
// kOpSeveral: a row of a T** (ws_program.h), one site over every buffer it reaches.
inline constexpr unsigned int kSharedSlots = 64;  // slot 0: the launch's dynamic shared memory

// The first access outside every buffer, symbol and shared array (host-mapped memory).
struct BadAccess {
  unsigned int flag, place, op, bytes;
  unsigned int block[3], thread[3];
  unsigned long long address;
};

// A thread's current dynamic instance (ws_program_instance.h).
struct InstanceView {
  void* frame;
  unsigned int instance;
};

// What the runtime tells the kernels about the program's memory before each launch.
struct ProgramDeviceState {
  const unsigned long long* region_begin;  // sorted by address
  const unsigned long long* region_end;
  const unsigned int* region_key;         // buffer id | space << 16
  const unsigned long long* region_base;  // each region's virtual base (BufferInfo::base)
  unsigned int regions;
  unsigned int file_tag;  // FileTag of the program's file: barriers' and warp meetings' places
  unsigned int* shared;   // [2 * kSharedSlots]: each slot's shared offset + 1 and its bytes;
                          // then the slots in use (the highest registered + 1)
  BadAccess* bad;
  InstanceView* instances;  // one per thread of the launch (zeroed), or null
  unsigned long long instance_slots;
  // ptxas keeps the kernel's own arrays in registers: their accesses are not recorded
  // (KeepsArraysInRegisters in program_trace.h).
  unsigned int registers_only;
  // The launch's floating-point operations (the rewriter's Flops), added a warp at a time; null:
  // not counted.
  unsigned long long* flops;
  // A cooperative launch's grid barrier: its count of blocks arrived and its generation (zeroed
  // before the launch); null in any other launch, where this_grid().sync() stops it.
  unsigned int* grid_barrier;
  // The device heap (ws_program_cuda_groups.h): its buffer, bytes and allocator state
  // (ws_program_heap_blocks.h's State); null where the program does not allocate in device code.
  unsigned char* heap;
  unsigned long long heap_bytes;
  void* heap_state;
};

// The runtime's calls.
struct SiteDesc {
  unsigned int site, line, column, end_column, file;  // file: index into the table's files
};
struct SiteTable {
  SiteTable(const SiteDesc* sites, unsigned int count, const char* const* files,
            unsigned int file_count);
};
// Registers a __device__ or __constant__ variable (space: 0 global, 2 constant) by its host
// shadow; its device address is looked up at the first launch.
struct Symbol {
  Symbol(const void* shadow, std::size_t bytes, const char* name, unsigned int space);
};
int NameNext(const char* name, unsigned int line);
// Each unit's kernels by address (the rewriter registers them): the name of a launch made through
// a function pointer.
#define WS_SIMT_WARP(...) nullptr
#define WS_SIMT_NONE nullptr
#define WS_SIMT_VIA(...)
#define WS_BIND_OF(...) nullptr  // a host file's (ws_program_cuda.h binds a CUDA file's kernels)
// Marks the program as one that allocates in device code (a static of each rewritten unit that
// does): its "device heap" buffer is registered at the first launch.
int UseDeviceHeap();
// cudaDeviceSetLimit: the heap's size is fixed once its buffer is (cudaErrorInvalidValue after,
// as CUDA's after a launch that allocated).
cudaError_t DeviceSetLimit(cudaLimit limit, std::size_t value);
struct KernelTable {
  struct Entry {
    const void* address;
    const char* name;
    unsigned int static_shared = 0;  // the kernel's static __shared__ bytes
    const void* warp = nullptr;      // the emulator's SIMT path (none on a GPU)
    const char* simt = nullptr;
    Binder bind = nullptr;     // cudaLaunchKernel and graph nodes (WS_BIND_OF)
    unsigned int cluster = 0;  // __cluster_dims__ (nvcc keeps them with the kernel on a GPU)
  };
  KernelTable(std::initializer_list<Entry> entries);
};
const char* KernelNameOf(const void* kernel, const char* written);
unsigned int KernelStaticShared(const void* kernel);  // 0 where the table lacks it
cudaError_t Malloc(void** ptr, std::size_t bytes);
cudaError_t MallocManaged(void** ptr, std::size_t bytes, unsigned int flags);
// `e`, or the error a failed device assert left (what the runtime's calls return after it).
cudaError_t Sticky(cudaError_t e);
cudaError_t MallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t HostAlloc(void** ptr, std::size_t bytes, unsigned int flags);
cudaError_t MallocHost(void** ptr, std::size_t bytes);
template <typename T>
cudaError_t MallocPitch(T** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return MallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <typename T>
cudaError_t HostAlloc(T** ptr, std::size_t bytes, unsigned int flags) {
  return HostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <typename T>
cudaError_t MallocHost(T** ptr, std::size_t bytes) {
  return MallocHost(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t Free(void* ptr);
cudaError_t FreeHost(void* ptr);
// Stream-ordered allocation: buffers as cudaMalloc's are (a freed one leaves the table; a later
// one may come at its address).
cudaError_t MallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t MallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool,
                                cudaStream_t stream);
cudaError_t FreeAsync(void* ptr, cudaStream_t stream);
template <typename T>
cudaError_t MallocAsync(T** ptr, std::size_t bytes, cudaStream_t stream) {
  return MallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
template <typename T>
cudaError_t MallocFromPoolAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool,
                                cudaStream_t stream) {
  return MallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
template <typename T>
cudaError_t Malloc(T** ptr, std::size_t bytes) {
  return Malloc(reinterpret_cast<void**>(ptr), bytes);
}
template <typename T>
cudaError_t MallocManaged(T** ptr, std::size_t bytes, unsigned int flags = cudaMemAttachGlobal) {
  return MallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}

struct Config {
  dim3 grid, block;
  std::size_t shared;
  cudaStream_t stream;
  bool cooperative = false;  // cudaLaunchCooperativeKernel's
  dim3 cluster{0, 0, 0};     // cudaLaunchKernelEx's cluster attribute (0: the kernel's own)
  Config(dim3 g, dim3 b, std::size_t s = 0, cudaStream_t st = 0)
      : grid(g), block(b), shared(s), stream(st) {}
};
// Sets this program's recorder state and its memory state, then launches (one pass).
// `shadow_launcher`: the pass adds the recorder's hazard_shared_bytes to the launch's dynamic
// shared memory (the hazard check's shadow of shared memory then lives there).
using LaunchPass = cudaError_t (*)(void* context, const ::ws::dev::RecorderState& recorder,
                                   const ProgramDeviceState& program);
void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, LaunchPass pass, void* context, bool shadow_launcher = false);

}  // namespace ws::prog
