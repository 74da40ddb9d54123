// What a program's device code calls on a GPU beyond the warp intrinsics (part of
// ws_program_cuda.h, which includes it): a multi-warp tile's and the grid's syncs, the tiles'
// exchange slots (cooperative_groups.h), and the device heap (the rewriter's HeapNew and kin).
#pragma once

namespace ws::prog {

// The device heap (the rewriter's HeapNew and kin for new, delete, malloc and free in device
// code, ws_program_heap.h): one buffer named "device heap", of the device's
// cudaLimitMallocHeapSize bytes, registered at the first launch of a program that allocates
// (cuda_program.cu), so that accesses to its blocks are recorded against it. Blocks are 16-byte
// aligned and handed out upwards; the heap's word holds the blocks alive (high half) and the top
// (low half, in 16-byte units), so the whole heap is reused once every block is freed. A block
// that does not fit gives null, as the hardware's heap does.
__device__ inline void* HeapMalloc(std::size_t bytes) {
  unsigned long long* word = ws_program_state.heap_word;
  if (word == nullptr) return nullptr;
  const unsigned long long units = bytes == 0 ? 1 : (bytes + 15) / 16;
  unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(word);
  for (;;) {
    const unsigned long long top = old & 0xffffffffull;
    if ((top + units) * 16 > ws_program_state.heap_bytes) return nullptr;
    const unsigned long long now = atomicCAS(word, old, old + (1ull << 32) + units);
    if (now == old) return ws_program_state.heap + top * 16;
    old = now;
  }
}
__device__ inline void HeapFree(void* p) {
  unsigned long long* word = ws_program_state.heap_word;
  if (p == nullptr || word == nullptr) return;
  unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(word);
  for (;;) {
    const unsigned long long live = old >> 32;
    if (live == 0) return;  // a block freed twice: CUDA's behaviour is undefined
    const unsigned long long next = live == 1 ? 0ull : old - (1ull << 32);
    const unsigned long long now = atomicCAS(word, old, next);
    if (now == old) return;
    old = now;
  }
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
  auto pass = [bar] {
    const unsigned int arrived = __syncthreads_count(1);
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
    (__syncthreads)();  // the intrinsic: the lesson form's macro would record a barrier
    return arrived;
  };
  if (ws_recorder_state.mode == ::ws::dev::kOff) {
    pass();
    return;
  }
  ::ws::dev::TimedBarrier(place, 0, pass);
}
// The block's 32 slots of 8 bytes through which a multi-warp tile's threads exchange values.
__device__ inline unsigned long long* TileSlots() {
  __shared__ unsigned long long slots[32];
  return slots;
}

}  // namespace ws::prog
