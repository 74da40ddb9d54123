// What a program's device code calls on a GPU beyond the warp intrinsics (part of
// ws_program_cuda.h, which includes it): a multi-warp tile's and the grid's syncs, the tiles'
// exchange slots (cooperative_groups.h), and the device heap (the rewriter's HeapNew and kin).
#pragma once

namespace ws::prog {

// The device heap (the rewriter's HeapNew and kin for new, delete, malloc and free in device
// code): the hardware's own on a GPU.
template <typename T, typename... A>
__device__ inline T* HeapNew(A&&... args) {
  return new T(static_cast<A&&>(args)...);
}
template <typename T>
__device__ inline T* HeapNewArray(std::size_t n) {
  return new T[n];
}
template <typename T>
__device__ inline void HeapDelete(T* p) {
  delete p;
}
template <typename T>
__device__ inline void HeapDeleteArray(T* p) {
  delete[] p;
}
__device__ inline void* HeapMalloc(std::size_t bytes) {
  return malloc(bytes);
}
__device__ inline void HeapFree(void* p) {
  free(p);
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
// this_grid().sync(): cooperative launches are refused on a GPU (RefuseOnGpu at the launch), so
// a grid sync here is in a launch that is not one, as on a GPU undefined: it stops the launch.
__device__ inline void GridSync(unsigned int place) {
  printf(
      "warpscope: line %u: this_grid().sync() in a launch that is not cooperative "
      "(cudaLaunchCooperativeKernel)\n",
      place & 0xffffu);
  __trap();
}
// The block's 32 slots of 8 bytes through which a multi-warp tile's threads exchange values.
__device__ inline unsigned long long* TileSlots() {
  __shared__ unsigned long long slots[32];
  return slots;
}

}  // namespace ws::prog
