// How libcu++ cuts a cuda::memcpy_async into copies, for both roads: the emulator's
// (shim/cuda/pipeline, shim/cuda/barrier), which makes the copies so, and the GPU's
// (gpu/ws_gpu_async.h), which records the copies libcu++ made. One cut, so that the two record the
// same requests. Read in CUDA 13's cuda/pipeline (__memcpy_async_pipeline: the alignment is the
// larger of the element's and an aligned_size_t's) and cuda/__memcpy_async/cp_async_shared_global.h
// (__cp_async_shared_global_mechanism: pieces of at most 16 bytes, rank r of a group taking pieces
// r, r + size, r + 2 x size, ...). __host__ and __device__ are the toolkit's on a GPU and the
// shim's (ws_program.h) on the emulator.
#pragma once

#include <cstddef>
#include <type_traits>

namespace ws::prog::async_pieces {

// A size's promised alignment: an aligned_size_t's, else 1.
template <typename Size, typename = void>
struct SizeAlign {
  static constexpr std::size_t value = 1;
};
template <typename Size>
struct SizeAlign<Size, std::void_t<decltype(Size::align)>> {
  static constexpr std::size_t value = Size::align;
};

// The bytes of each copy for an alignment: 16, 8 or 4; 0 under 4 (libcu++ then copies with plain
// loads and stores).
__host__ __device__ constexpr std::size_t PieceOf(std::size_t align) {
  return align >= 16 ? 16 : align >= 8 ? 8 : align >= 4 ? 4 : 0;
}

// `f(at)` for each piece of `bytes` that thread `rank` of a group of `size` copies (a thread's
// own copy: rank 0 of 1, every piece).
template <typename F>
__host__ __device__ void ForEachPiece(std::size_t rank, std::size_t size, std::size_t bytes,
                                      std::size_t piece, F&& f) {
  for (std::size_t at = rank * piece; at < bytes; at += size * piece) f(at);
}

// A bulk copy through the TMA (cp.async.bulk: libcu++ on compute 9.0 makes one of a
// cuda::memcpy_async of 16-byte alignment bound to a block's cuda::barrier in shared memory;
// docs/ncu-agreement.md) reads each 32-byte sector its source spans, per copy (an H200 counted
// 1, 1, 2, 8 and 32 sectors for 16, 32, 64, 256 and 1,024 bytes from a sector's start and 2 for
// 32 bytes from 16 past one: kernels/async/bulk_copy.txt). Both recorders cut it at its source's
// sectors, `f(at, bytes)` a piece of 16 or 32 bytes, so that a piece is a sector and every byte
// is recorded.
template <typename F>
__host__ __device__ void ForEachBulkPiece(unsigned long long source, std::size_t bytes, F&& f) {
  for (std::size_t at = 0; at < bytes;) {
    const std::size_t sector_end = static_cast<std::size_t>(32 - (source + at) % 32);
    const std::size_t n = sector_end < bytes - at ? sector_end : bytes - at;
    f(at, n);
    at += n;
  }
}
}  // namespace ws::prog::async_pieces
