// What a program's device code calls on a GPU beyond the warp intrinsics (part of
// ws_program_cuda.h, which includes it): a multi-warp tile's and the grid's syncs, the tiles'
// exchange slots (cooperative_groups.h), and the device heap (the rewriter's HeapNew and kin).
#pragma once

// The device heap (the rewriter's HeapNew and kin for new, delete, malloc and free in device
// code, ws_program_heap.h): one buffer named "device heap", of the device's
// cudaLimitMallocHeapSize bytes, registered at the first launch of a program that allocates
// (cuda_program.cu), so that accesses to its blocks are recorded against it; its blocks as
// ws_program_heap_blocks.h hands them out, under a lock (independent thread scheduling lets a
// warp's lanes take it in turn).
#define WS_HEAP_FN __device__ inline
#define WS_HEAP_LOCK(s)                                                                   \
  while (atomicCAS(const_cast<unsigned int*>(&(s)->lock), 0u, 1u) != 0u) __nanosleep(32); \
  __threadfence()
#define WS_HEAP_UNLOCK(s) \
  __threadfence();        \
  atomicExch(const_cast<unsigned int*>(&(s)->lock), 0u)
#include "ws_program_heap_blocks.h"
#undef WS_HEAP_FN
#undef WS_HEAP_LOCK
#undef WS_HEAP_UNLOCK

namespace ws::prog {

__device__ inline void* HeapMalloc(std::size_t bytes) {
  const ProgramDeviceState& p = ws_program_state;
  if (p.heap_state == nullptr) return nullptr;
  return heap::Allocate(static_cast<volatile heap::State*>(p.heap_state),
                        reinterpret_cast<volatile unsigned long long*>(p.heap), p.heap_bytes / 16,
                        bytes);
}
__device__ inline void HeapFree(void* ptr) {
  const ProgramDeviceState& p = ws_program_state;
  if (p.heap_state == nullptr) return;
  heap::Free(static_cast<volatile heap::State*>(p.heap_state),
             reinterpret_cast<volatile unsigned long long*>(p.heap), p.heap_bytes / 16, ptr);
}
// A multi-warp tile's sync: named barrier 1 + the tile's rank. A block of more than 15 such
// tiles, or not of whole tiles, stops the launch with a message (the emulator names its line).
__device__ inline void TileSync(unsigned int threads, unsigned int place) {
  const unsigned int n = blockDim.x * blockDim.y * blockDim.z;
  if (n % threads != 0 || n / threads > 15) {
    printf(
        "warpscope: line %u: a tile of %u threads in a block of %u: on a GPU Warpscope syncs "
        "a multi-warp tile at a named barrier of its own, whole tiles, at most 15 a block\n",
        place & 0xffffu, threads, n);
    __trap();
  }
  ::ws::dev::TileSync(threads, place);
}
// this_grid().sync() in a cooperative launch (cudaLaunchCooperativeKernel: every block resident
// at once): the block's barrier, then one thread a block meets the others at the launch's grid
// barrier (a count of blocks arrived and a generation the last one advances), then the block's
// barrier again; recorded as one barrier at its line, as the emulator records it. Outside a
// cooperative launch (undefined on a GPU) it stops the launch.
__device__ inline void GridSync(unsigned int place) {
  unsigned int* bar = ws_program_state.grid_barrier;
  if (bar == nullptr) {
#if defined(__CUDA_ARCH__)
    NoteBadAccess(nullptr, 0, place, kOpNotCooperative);  // the run names the line
    __trap();
#endif
  }
  // The intrinsics themselves (the lesson form's __syncthreads() macro would record a barrier).
  // The last barrier's count is the pass's result, so that the departure's stamp, which depends
  // on it, is read after the grid has met (TimedBarrier).
  auto pass = [bar] {
    (__syncthreads)();
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
      const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
      volatile unsigned int* generation = bar + 1;
      const unsigned int now = *generation;
      __threadfence();  // the block's writes before the sync, seen by every block after it
      if (atomicAdd(bar, 1u) == blocks - 1) {
        atomicExch(bar, 0u);
        __threadfence();
        atomicAdd(bar + 1, 1u);
      } else {
        while (*generation == now) __nanosleep(64);
      }
      __threadfence();
    }
    return static_cast<unsigned int>((__syncthreads_count)(1));
  };
  if (ws_recorder_state.mode == ::ws::dev::kOff) {
    pass();
    return;
  }
  ::ws::dev::TimedBarrier(place, 0, pass);
}
// A thread-block cluster's calls (cooperative_groups.h's cluster_group), the hardware's own
// (compute capability 9.0; a GPU before it has clusters of one block). The cluster's sync is
// recorded as a barrier at its line, as the emulator records it: the cluster's barrier, then the
// block's, whose count is the pass's result (the departure's stamp is read after the cluster has
// met).
__device__ inline void ClusterSync(unsigned int place) {
  auto pass = [] {
#if __CUDA_ARCH__ >= 900
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
#endif
    return static_cast<unsigned int>((__syncthreads_count)(1));
  };
  if (ws_recorder_state.mode == ::ws::dev::kOff) {
    pass();
    return;
  }
  if (::ws::dev::HazardPass(ws_recorder_state.mode)) {
    pass();
    ::ws::dev::HazardBarrierPassed(ws_recorder_state);
    return;
  }
  ::ws::dev::TimedBarrier(place, 0, pass);
}
__device__ inline unsigned int ClusterRank() {
#if __CUDA_ARCH__ >= 900
  return __clusterRelativeBlockRank();
#else
  return 0;
#endif
}
__device__ inline dim3 ClusterDims() {
#if __CUDA_ARCH__ >= 900
  return __clusterDim();
#else
  return dim3(1, 1, 1);
#endif
}
__device__ inline void* ClusterMapShared(const void* p, unsigned int rank, unsigned int) {
#if __CUDA_ARCH__ >= 900
  return __cluster_map_shared_rank(p, rank);
#else
  (void)rank;
  return const_cast<void*>(p);
#endif
}
__device__ inline unsigned int ClusterQueryRank(const void* p) {
#if __CUDA_ARCH__ >= 900
  return __cluster_query_shared_rank(p);
#else
  (void)p;
  return 0;
#endif
}

// The block's 32 slots of 8 bytes through which a multi-warp tile's threads exchange values.
__device__ inline unsigned long long* TileSlots() {
  __shared__ unsigned long long slots[32];
  return slots;
}

}  // namespace ws::prog
