// Asynchronous copies on the GPU backend (issue 53): the toolkit's own copies (cp.async, through
// <cuda_pipeline_primitives.h>, <cuda/pipeline> and <cuda/barrier>), each recorded as the
// emulator records it (ws_program_async.h, emu_async.cpp): a global read of its bytes less any
// zero-fill, and a shared write of its bytes at the same site whose key says an asynchronous
// copy's (kKeyAsyncCopy), costed as the hardware serves it (a global line at a time). A
// cuda::memcpy_async is the pieces the emulator cuts it into (16, 8 or 4 bytes, as the size's
// alignment allows: shim/cuda/pipeline's ws_detail::Copy).
// On the GPU the write is recorded where the copy is issued, not where a wait lands it as on
// the emulator: the figures are the same (a write is paired with its read by rank), but the GPU's
// hazard check takes the destination as written at the issue, so a read of it before the wait
// is not reported as the emulator reports it. docs/PROGRAMS.md, "Asynchronous copies".
// A group's copy (cooperative_groups::memcpy_async, cuda::memcpy_async(group, ...)) is not
// recorded on the GPU yet: the build says so.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ws::prog::async_gpu {

__device__ inline void RecordCopy(const void* dst, const void* src, std::size_t bytes,
                                  std::size_t zfill, unsigned int place) {
#if defined(__CUDA_ARCH__)
  const auto read = static_cast<unsigned int>(bytes - zfill);
  if (read > 0) RecordDevice(src, read, place, kOpLoad);
  // The global 128-byte lines the lanes copying together read (the write takes a wavefront a
  // line, at least: docs/ncu-agreement.md, "Asynchronous copies"); one for a copy that reads
  // nothing (all zero-fill).
  // (The intrinsics in parentheses: the program's are recorded meetings, ws_program_cuda.h.)
  const unsigned int active = (__activemask)();
  const unsigned int same =
      (__match_any_sync)(active,
                         static_cast<unsigned int>(reinterpret_cast<unsigned long long>(src) >> 7));
  const bool first = ::ws::dev::LaneId() == static_cast<unsigned int>(__ffs(same) - 1);
  const unsigned int lines = read > 0 ? __popc((__ballot_sync)(active, first)) : 1u;
  RecordDevice(dst, static_cast<unsigned int>(bytes), place, kOpStore, lines);
#else
  (void)dst, (void)src, (void)bytes, (void)zfill, (void)place;
#endif
}

// A cuda::memcpy_async of `bytes` promised `align`-aligned: its pieces, as the emulator cuts it.
__device__ inline void RecordPieces(const void* dst, const void* src, std::size_t bytes,
                                    std::size_t align, unsigned int place) {
  const std::size_t piece = align >= 16 ? 16 : align >= 8 ? 8 : align >= 4 ? 4 : 0;
  if (piece == 0) return;
  for (std::size_t at = 0; at + piece <= bytes; at += piece)
    RecordCopy(static_cast<const unsigned char*>(dst) + at,
               static_cast<const unsigned char*>(src) + at, piece, 0, place);
}

// A size's promised alignment: an aligned_size_t's, else 1.
template <typename Size, typename = void>
struct SizeAlign {
  static constexpr std::size_t value = 1;
};
template <typename Size>
struct SizeAlign<Size, std::void_t<decltype(Size::align)>> {
  static constexpr std::size_t value = Size::align;
};

template <typename>
inline constexpr bool kNoGroupCopy = false;

// A group as libcu++'s make_pipeline meets it (size, thread_rank, sync), its syncs recorded at the
// program's call (shim/gpu/cuda/pipeline).
template <typename Group>
struct PlacedGroup {
  const Group& group;
  unsigned int line;
  const char* file;
  __device__ auto size() const { return group.size(); }
  __device__ auto thread_rank() const { return group.thread_rank(); }
  __device__ void sync() const { group.sync(line, file); }
};

}  // namespace ws::prog::async_gpu
