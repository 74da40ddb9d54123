// The emulator's side of ws_cuda.h: CUDA's keywords and built-in variables for the host
// compiler. Each GPU thread is a fiber; `threadIdx` and friends read the running fiber's state,
// and `__shared__` makes a variable per worker thread (a worker runs one block at a time, so
// that is one copy per block, as on a GPU).
#pragma once

#include <cstdint>

namespace ws::emu {

struct uint3 {
  unsigned int x, y, z;
};
using dim3 = uint3;

// What kernel code reads directly, for the running fiber.
struct ThreadState {
  uint3 thread_idx, block_idx;
  dim3 block_dim, grid_dim;
};
extern thread_local ThreadState* t_thread;

// Implemented by the emulator runtime (kernels/emu/runtime.cpp).
void RecordAccess(std::uint64_t key, std::uint32_t offset);
// Throws the launch's error (ends this thread) when `index` is outside [0, count).
// `place` is MakePlace(file tag, line) (ws_cuda.h).
void CheckIndex(long long index, unsigned long long count, std::uint32_t place, const char* what);
void SyncThreads(std::uint32_t place);
// The shared-memory offset of a __shared__ array in this launch (allocated at first use).
std::uint32_t SharedArrayBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base);
// The launch's dynamic shared memory for this block: its size and its offset in the block's
// shared window (after the declared static arrays).
unsigned char* DynamicSharedMemory(std::uint32_t* bytes, std::uint32_t* offset);
// Adds modeled work to the thread's logical clock (the barrier lesson's uneven work).
void AddWork(std::uint32_t units);
// The block's SM and the modeled time (block start + the thread's logical clock); see smid() and
// globaltimer() in ws_cuda_arrays.h.
unsigned int SmId();
unsigned long long GlobalTimer();

}  // namespace ws::emu

#define __global__ static  // internal linkage: the .cu build defines the same names
#define __device__ inline
#define __host__
#define __forceinline__ inline
#define __shared__ static thread_local
#define threadIdx (::ws::emu::t_thread->thread_idx)
#define blockIdx (::ws::emu::t_thread->block_idx)
#define blockDim (::ws::emu::t_thread->block_dim)
#define gridDim (::ws::emu::t_thread->grid_dim)
#define __syncthreads() \
  ::ws::emu::SyncThreads(::ws::MakePlace(::ws::RecorderFileTag(__FILE__), __LINE__))
