// The emulator's side of ws_cuda.h: CUDA's keywords and built-in variables for the host
// compiler. Each GPU thread is a fiber; `threadIdx` and friends read the running fiber's state,
// and `__shared__` makes a variable per worker thread (a worker runs one block at a time, so
// that is one copy per block, as on a GPU).
#pragma once

#include <cstdint>

#include "warpscope/trace/ws_cuda_keys.h"

namespace ws::emu {

struct uint3 {
  unsigned int x, y, z;
};
using dim3 = uint3;

// What kernel code reads directly, for the running fiber.
struct ThreadState {
  uint3 thread_idx, block_idx;
  dim3 block_dim, grid_dim;
  // A program's dynamic instance (ws_program.h's Loop, Iter and Frame): the innermost open loop
  // iteration or call of this thread, and its key. An access's request is the lanes of its warp
  // that reach the same site with the same key (LaunchConfig::instances).
  void* frame;
  std::uint32_t instance;
};
// constinit: no dynamic initialization, so every file reads it at its thread-local address, not
// through a wrapper that may call an initializer (GCC 12's null check of the wrapper's result
// under -fsanitize=null read the flags of the initializer's test and reported a null store).
extern constinit thread_local ThreadState* t_thread;

// Implemented by the emulator runtime (kernels/emu/runtime.cpp).
// `where` (may be null): the element, whose value a kept block's record carries.
void RecordAccess(std::uint64_t key, std::uint32_t offset, const void* where = nullptr);
// Throws the launch's error (ends this thread) when `index` is outside [0, count).
// `place` is MakePlace(file tag, line) (ws_cuda.h).
void CheckIndex(long long index, unsigned long long count, std::uint32_t place, const char* what);
// The buffer a lesson's __constant__ array `symbol` is bound to in the running launch (its run's
// CopyToSymbol), its id in `buffer`; ends the thread with a message where none is.
const void* ConstantSymbol(const void* symbol, std::uint32_t* buffer, std::uint32_t place);
void SyncThreads(std::uint32_t place);
// __syncthreads_count(): a barrier that also counts the threads whose predicate is non-zero.
int SyncThreadsCount(std::uint32_t place, int predicate);
// A multi-warp tile's sync (cooperative groups' thread_block_tile<64..1024>): a barrier of the
// `threads` threads of the caller's tile, threads [k*threads, (k+1)*threads) of the block.
void TileSync(std::uint32_t threads, std::uint32_t place);
// The block's 32 slots of 8 bytes, one per warp, through which a multi-warp tile's threads
// exchange values between two of its barriers (CUDA's tiles use their scratch memory so).
std::uint64_t* TileSlots();
// this_grid().sync(): in a cooperative launch, a barrier of every thread of the grid.
void GridSync(std::uint32_t place);
// A warp-level intrinsic (WarpOpKind in trace/records.h: 0 __shfl_sync, 1 up, 2 down, 3 xor,
// 4 __ballot_sync, 5 __any_sync, 6 __all_sync, 7 __activemask, 8 __syncwarp): the lanes of the
// warp meet; `value` is the lane's value or predicate, `arg` the source lane, delta or lane mask.
std::uint64_t WarpOp(std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                     int width, std::uint32_t place);
// The shared-memory offset of a __shared__ array in this launch (allocated at first use).
// `data` (may be null): the array's storage, filled with 0xff bytes before each block (a GPU
// leaves it undefined; a fixed fill keeps a racy kernel's output the same whichever worker ran
// the block before, and a slot read before it is written is a NaN or -1, never a right answer).
std::uint32_t SharedArrayBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                              void* data = nullptr);
// The launch's dynamic shared memory for this block: its size and its offset in the block's
// shared window (after the declared static arrays).
unsigned char* DynamicSharedMemory(std::uint32_t* bytes, std::uint32_t* offset);
// Adds modeled work to the thread's logical clock (the barrier lesson's uneven work).
void AddWork(std::uint32_t units);
// The block's SM and the modeled time (block start + the thread's logical clock); see smid() and
// globaltimer() in ws_cuda_arrays.h.
unsigned int SmId();
unsigned long long GlobalTimer();
// The calling thread's logical clock (one tick per recorded access; barriers bring a block's
// threads to the latest arrival): what clock() and clock64() read in a program on the emulator.
unsigned long long ThreadClock();
// A program's own read of a clock (clock(), clock64(), %globaltimer; not the runtime's): the
// launch took that long at least (LaunchStats::thread_clock).
void NoteClockRead();

}  // namespace ws::emu

#define __global__ static  // internal linkage: the .cu build defines the same names
#define __device__ inline
#define __host__
#define __forceinline__ inline
// A hint to the GPU compiler (most threads a block, fewest blocks a multiprocessor, so fewest
// registers): the emulator runs any launch the preset allows.
#define __launch_bounds__(...)
#define __shared__ static thread_local
#define __constant__  // (a lesson's constant array is `static __constant__`: one per build)
#define threadIdx (::ws::emu::t_thread->thread_idx)
#define blockIdx (::ws::emu::t_thread->block_idx)
#define blockDim (::ws::emu::t_thread->block_dim)
#define gridDim (::ws::emu::t_thread->grid_dim)
#define __syncthreads() \
  ::ws::emu::SyncThreads(::ws::MakePlace(::ws::RecorderFileTag(__FILE__), __LINE__))

// Warp-level intrinsics for lesson kernels on the emulator (nvcc has its own): the lanes meet at
// the call (ws::emu::WarpOp), which records the meeting for the views. (The program runtime,
// which declares the program's own, leaves these out.)
#if !defined(WS_NO_LESSON_INTRINSICS)
namespace ws::emu {
template <typename T>
inline T WarpShuffle(std::uint32_t kind, unsigned mask, T var, int arg, int width,
                     std::uint32_t place) {
  static_assert(sizeof(T) <= 8, "a shuffle moves at most 8 bytes");
  std::uint64_t bits = 0;
  __builtin_memcpy(&bits, &var, sizeof(T));
  bits = WarpOp(kind, mask, bits, arg, width, place);
  T out;
  __builtin_memcpy(&out, &bits, sizeof(T));
  return out;
}
inline std::uint32_t HerePlace(unsigned line, const char* file) {
  return ::ws::MakePlace(::ws::RecorderFileTag(file), line);
}
}  // namespace ws::emu
template <typename T>
inline T __shfl_sync(unsigned mask, T var, int src, int width = 32,
                     unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return ::ws::emu::WarpShuffle(0, mask, var, src, width, ::ws::emu::HerePlace(line, file));
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                        unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return ::ws::emu::WarpShuffle(1, mask, var, static_cast<int>(delta), width,
                                ::ws::emu::HerePlace(line, file));
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                          unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return ::ws::emu::WarpShuffle(2, mask, var, static_cast<int>(delta), width,
                                ::ws::emu::HerePlace(line, file));
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                         unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return ::ws::emu::WarpShuffle(3, mask, var, lane_mask, width, ::ws::emu::HerePlace(line, file));
}
inline unsigned __ballot_sync(unsigned mask, int pred, unsigned line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
  return static_cast<unsigned>(
      ::ws::emu::WarpOp(4, mask, pred != 0, 0, 32, ::ws::emu::HerePlace(line, file)));
}
inline int __any_sync(unsigned mask, int pred, unsigned line = __builtin_LINE(),
                      const char* file = __builtin_FILE()) {
  return static_cast<int>(
      ::ws::emu::WarpOp(5, mask, pred != 0, 0, 32, ::ws::emu::HerePlace(line, file)));
}
inline int __all_sync(unsigned mask, int pred, unsigned line = __builtin_LINE(),
                      const char* file = __builtin_FILE()) {
  return static_cast<int>(
      ::ws::emu::WarpOp(6, mask, pred != 0, 0, 32, ::ws::emu::HerePlace(line, file)));
}
inline unsigned __activemask(unsigned line = __builtin_LINE(),
                             const char* file = __builtin_FILE()) {
  return static_cast<unsigned>(
      ::ws::emu::WarpOp(7, 0xffffffffu, 0, 0, 32, ::ws::emu::HerePlace(line, file)));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, unsigned line = __builtin_LINE(),
                       const char* file = __builtin_FILE()) {
  ::ws::emu::WarpOp(8, mask, 0, 0, 32, ::ws::emu::HerePlace(line, file));
}
#endif
