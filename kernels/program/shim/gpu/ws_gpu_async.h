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
// A group's copy into a pipeline (cuda::memcpy_async(group, ...)) is recorded in libcu++'s
// pieces; cooperative_groups::memcpy_async is not recorded on the GPU yet: the build says so.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../ws_async_pieces.h"

namespace ws::prog::async_gpu {

// The Pipeline view's events on the GPU (ws_cuda_record_format.h, "asynchronous copy calls"): in
// a kept block, each lane that makes `call` writes an event of its own (its lane the event's mask),
// its time the call's return and `began` (a wait's start, %globaltimer) beside it. The host replays
// each thread's calls as the emulator runs them: which commit group a copy is in, and which wait
// landed it (the GPU does not say when a copy lands: by that wait's end).
// A lane at a time, with no shuffle, vote or warp barrier: the lanes of a warp may reach a call
// apart. cuda-samples' globalToShmemAsyncCopy (kernel 0) copies in a quarter of the lanes and
// commits in all of them right after; with the lanes grouped by __activemask and __match_any_sync
// and meeting at __syncwarp before the leader's words were shared, its recorded run hung on an
// H200 (stopped at 150 s; the same program with a __syncwarp() before the commit ran in 34 s).
// Several lanes reserving in one warp's stream at once is Reserve's own case (a group's leaders).
__device__ inline void NoteAsync(unsigned int call, unsigned int arg,
                                 unsigned long long began = 0) {
#if defined(__CUDA_ARCH__)
  const ::ws::dev::RecorderState& r = ws_recorder_state;
  if (r.mode == ::ws::dev::kOff || ::ws::dev::HazardPass(r.mode)) return;
  if (!::ws::dev::KeptBlock(r, ::ws::dev::LinearBlock32())) return;
  unsigned int* w = ::ws::dev::Reserve(r, ::ws::dev::LinearWarp(r), ::ws::dev::kWarpOpEventWords);
  if (w == nullptr) return;
  w[0] = ::ws::dev::kEventWarpOp | (::ws::dev::kAsyncCallBase + call);
  w[1] = 0;
  w[2] = 1u << ::ws::dev::LaneId();
  w[3] = static_cast<unsigned int>(::ws::dev::GlobalTimer());
  w[4] = arg;
  w[5] = static_cast<unsigned int>(began);
  for (unsigned int k = 6; k < ::ws::dev::kWarpOpEventWords; ++k) w[k] = 0;
#else
  (void)call, (void)arg, (void)began;
#endif
}
__device__ inline unsigned long long AsyncNow() {  // a wait's start, where recording
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff) return 0;
  return ::ws::dev::GlobalTimer();
#else
  return 0;
#endif
}

__device__ inline void RecordCopy(const void* dst, const void* src, std::size_t bytes,
                                  std::size_t zfill, unsigned int place,
                                  unsigned int kind = ::ws::dev::kCopyGrouped) {
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff) return;  // the run as written
  const auto read = static_cast<unsigned int>(bytes - zfill);
  if (read > 0) RecordDevice(src, read, place, kOpLoad);
  // The global 128-byte lines the lanes copying together read (the write takes a wavefront a
  // line, at least: docs/ncu-agreement.md, "Asynchronous copies"), counted over the lanes that
  // read (as the host pairs a write with its read); at least one. Every lane takes part in each
  // vote, so that all hold one count. (The intrinsics in parentheses: the program's are recorded
  // meetings, ws_program_cuda.h.)
  const unsigned int active = (__activemask)();
  const unsigned int line =
      read > 0 ? static_cast<unsigned int>(reinterpret_cast<unsigned long long>(src) >> 7) : ~0u;
  const unsigned int same = (__match_any_sync)(active, line);
  const bool first = ::ws::dev::LaneId() == static_cast<unsigned int>(__ffs(same) - 1);
  const unsigned int lines =
      max(1u, static_cast<unsigned int>(__popc((__ballot_sync)(active, first && read > 0))));
  RecordDevice(dst, static_cast<unsigned int>(bytes), place, kOpStore, lines);
  NoteAsync(::ws::dev::kAsyncIssue, kind);
#else
  (void)dst, (void)src, (void)bytes, (void)zfill, (void)place, (void)kind;
#endif
}

// A cuda::memcpy_async of `bytes` promised kAlign-aligned: its pieces, as the emulator cuts it.
// Under 4 bytes libcu++ copies with plain loads and stores, which the recording would not see: the
// build stops (the emulator stops the launch). A tail short of a piece is not recorded (the
// emulator stops the launch there).
template <std::size_t kAlign>
__device__ inline void RecordPieces(const void* dst, const void* src, std::size_t bytes,
                                    unsigned int place,
                                    unsigned int kind = ::ws::dev::kCopyGrouped) {
  static_assert(kAlign >= 4,
                "Warpscope: a cuda::memcpy_async promised less than 4 bytes of alignment is plain "
                "loads and stores in libcu++, not recorded: give its size as cuda::aligned_size_t");
  constexpr std::size_t piece = async_pieces::PieceOf(kAlign);
  async_pieces::ForEachPiece(0, 1, bytes / piece * piece, piece, [&](std::size_t at) {
    RecordCopy(static_cast<const unsigned char*>(dst) + at,
               static_cast<const unsigned char*>(src) + at, piece, 0, place, kind);
  });
}

// A bulk copy through the TMA, as libcu++ makes one (IsBulkCopy): cut at its source's 32-byte
// sectors (ws_async_pieces.h, the emulator's cut too), each piece a global read and a shared write
// keyed as the TMA's (kOpBulk: no LSU request, no shared wavefront; its read a sector).
__device__ inline void RecordBulk(const void* dst, const void* src, std::size_t bytes,
                                  unsigned int place) {
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff) return;  // the run as written
  async_pieces::ForEachBulkPiece(
      reinterpret_cast<unsigned long long>(src), bytes, [&](std::size_t at, std::size_t n) {
        RecordDevice(static_cast<const unsigned char*>(src) + at, static_cast<unsigned int>(n),
                     place, kOpLoad | kOpBulk);
        RecordDevice(static_cast<const unsigned char*>(dst) + at, static_cast<unsigned int>(n),
                     place, kOpStore | kOpBulk);
        NoteAsync(::ws::dev::kAsyncIssue, ::ws::dev::kCopyBarrier);
      });
#else
  (void)dst, (void)src, (void)bytes, (void)place;
#endif
}

// A size's promised alignment (ws_async_pieces.h, the emulator's too).
using async_pieces::SizeAlign;

// This thread's pieces of a group's copy of `bytes` promised `align`-aligned, as libcu++ cuts it
// (__cp_async_shared_global_mechanism: rank r takes pieces r, r + size, ...).
template <typename Group>
__device__ void RecordGroupPieces(const Group& group, const void* dst, const void* src,
                                  std::size_t bytes, std::size_t align, unsigned int place,
                                  unsigned int kind = ::ws::dev::kCopyGrouped) {
  const std::size_t piece = async_pieces::PieceOf(align);
  async_pieces::ForEachPiece(group.thread_rank(), group.size(), bytes, piece, [&](std::size_t at) {
    RecordCopy(static_cast<const unsigned char*>(dst) + at,
               static_cast<const unsigned char*>(src) + at, piece, 0, place, kind);
  });
}

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
