// The GPU's side of ws_cuda.h: accesses and barriers append raw records to device buffers that
// the CUDA runner prepared. Each thread owns a contiguous slot range (sized by a first, counting
// pass), so no atomics are needed and the records come back in each thread's program order.
#pragma once

#include <cstdint>

namespace ws::dev {

struct RawAccess {  // 16 bytes; the thread is implied by the slot
  std::uint64_t key;
  std::uint32_t offset;
  std::uint32_t time;  // %globaltimer's low 32 bits (ns); the host unwraps them
};

struct RawBarrier {          // 24 bytes
  std::uint64_t arrival_ns;  // %globaltimer
  std::uint64_t departure_ns;
  std::uint32_t line;
  std::uint32_t sm;  // %smid
};

enum RecorderMode : int { kOff = 0, kCount = 1, kRecord = 2 };

struct RecorderState {
  int mode;
  unsigned int threads_per_block;
  unsigned long long* access_cursor;      // [thread]: count (pass 1) or next slot index (pass 2)
  const unsigned long long* access_base;  // [thread + 1]
  RawAccess* accesses;
  unsigned long long* barrier_cursor;
  const unsigned long long* barrier_base;
  RawBarrier* barriers;
  unsigned int* overflow;  // set to 1 if a slot range was too small (never overwrites)
};

}  // namespace ws::dev

// The launch's dynamic shared memory (extern __shared__), sized by <<<grid, block, bytes>>>.
extern __shared__ __align__(16) unsigned char ws_dynamic_shared[];

// One per translation unit (no relocatable device code): the runner sets it before each launch.
static __constant__ ws::dev::RecorderState ws_recorder_state;

namespace ws::dev {

// The "memory" clobber keeps the read where it is written: a departure stamp must not move
// above the __syncthreads() before it.
__device__ __forceinline__ std::uint64_t GlobalTimer() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
  return t;
}

__device__ __forceinline__ unsigned long long GlobalThread() {
  const unsigned long long block = blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                                                    (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return block * ws_recorder_state.threads_per_block + tid;
}

__device__ __forceinline__ void RecordAccess(std::uint64_t key, std::uint32_t offset) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff) return;
  const unsigned long long t = GlobalThread();
  const unsigned long long k = r.access_cursor[t]++;
  if (r.mode == kCount) return;
  const unsigned long long slot = r.access_base[t] + k;
  if (slot < r.access_base[t + 1]) {
    r.accesses[slot] = RawAccess{key, offset, static_cast<std::uint32_t>(GlobalTimer())};
  } else {
    *r.overflow = 1;
  }
}

__device__ __forceinline__ std::uint32_t SmId() {
  std::uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

__device__ __forceinline__ void SyncThreads(std::uint32_t line) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff) {
    (__syncthreads)();
    return;
  }
  const std::uint64_t arrival = GlobalTimer();
  // The departure stamp must be read after the barrier releases. ptxas schedules special-
  // register reads freely (a plain __syncthreads() between two reads gave departure == arrival
  // on an H100), so the read depends on the barrier's result: __syncthreads_count is the same
  // block-wide barrier and returns the block's thread count, never 0.
  const int arrived = __syncthreads_count(1);
  std::uint64_t departure = 0;
  if (arrived > 0) departure = GlobalTimer();
  const unsigned long long t = GlobalThread();
  const unsigned long long k = r.barrier_cursor[t]++;
  if (r.mode == kCount) return;
  const unsigned long long slot = r.barrier_base[t] + k;
  if (slot < r.barrier_base[t + 1]) {
    r.barriers[slot] = RawBarrier{arrival, departure, line, SmId()};
  } else {
    *r.overflow = 1;
  }
}

}  // namespace ws::dev

#define __syncthreads() ::ws::dev::SyncThreads(__LINE__)
