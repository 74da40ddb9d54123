// The GPU's side of ws_cuda.h: accesses and barriers write raw records into device buffers that
// the CUDA runner prepared (format: ws_cuda_record_format.h). Accesses go into per-warp word
// ranges, barriers into per-thread slot ranges; both are sized by a first, counting pass.
//
// With WS_PLAIN_BUILD defined (the uninstrumented build the timings come from) nothing is
// recorded, __syncthreads() is the plain barrier and kernels get internal linkage, so that the
// same kernels can be compiled once with and once without recording into one program. For the
// same reason a lesson header's __device__ helper functions must be static (or templates).
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_keys.h"  // MakePlace, RecorderFileTag, ShuffleSourceLane
#include "warpscope/kernels/ws_cuda_record_format.h"

// The launch's dynamic shared memory (extern __shared__), sized by <<<grid, block, bytes>>>.
extern __shared__ __align__(16) unsigned char ws_dynamic_shared[];

#if defined(WS_PLAIN_BUILD)

#undef __global__
#define __global__ static __location__(global)

namespace ws::dev {
__device__ __forceinline__ void RecordAccess(std::uint64_t, std::uint32_t) {}
__device__ inline void NoteFile(std::uint32_t, const char*) {}
}  // namespace ws::dev

#else

// One per translation unit (no relocatable device code): the runner sets it before each launch.
static __constant__ ws::dev::RecorderState ws_recorder_state;

namespace ws::dev {

// The "memory" clobber keeps the read where it is written; see SyncThreads for the case where
// that was not enough.
__device__ __forceinline__ std::uint64_t GlobalTimer() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
  return t;
}

__device__ __forceinline__ std::uint32_t LaneId() {
  std::uint32_t lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ std::uint32_t SmId() {
  std::uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

__device__ __forceinline__ unsigned long long LinearBlock() {
  return blockIdx.x +
         static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ __forceinline__ unsigned int LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Which file literal a device file tag stands for, so that the runner can name the sites' files.
// Noted on the counting pass, which runs the same accesses, so that the recording pass (the time
// the recording costs is measured on it) does no extra memory work. Written once: every access
// reads the word (one L1-cached load for the warp) and stores only when it differs; storing every
// time made every warp of the grid store to one address (3.4x slower on a 2^24-float copy).
__device__ inline void NoteFile(std::uint32_t tag, const char* file) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kCount && r.files[tag] != file) r.files[tag] = file;
}

// One event per group of lanes that run this access together with the same site key. The
// leader (lowest lane) reserves the group's words and writes the header; in a general event
// each lane writes its own offset.
__device__ __forceinline__ void RecordAccess(std::uint64_t key, std::uint32_t offset) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff) return;
  const unsigned active = __activemask();
  const unsigned group = __match_any_sync(active, key);
  const unsigned lane = LaneId();
  const int leader = __ffs(group) - 1;
  const unsigned rest = group & (group - 1);  // the group without its leader
  const int second = rest != 0 ? __ffs(rest) - 1 : leader;
  const unsigned first_offset = __shfl_sync(group, offset, leader);
  const unsigned step = __shfl_sync(group, offset, second) - first_offset;
  const unsigned rank = __popc(group & ((1u << lane) - 1u));
  const bool affine = __all_sync(group, offset == first_offset + rank * step) != 0;
  const unsigned words = affine ? kAffineEventWords : kEventHeaderWords + __popc(group);
  const unsigned long long warp = LinearBlock() * r.warps_per_block + LinearThread() / 32u;
  unsigned long long at = 0;
  if (static_cast<int>(lane) == leader) at = atomicAdd(&r.warp_cursor[warp], words);
  if (r.mode == kCount) return;
  at = r.warp_base[warp] + __shfl_sync(group, at, leader);
  if (at + words > r.warp_base[warp + 1]) {  // the warp's range is full: record nothing
    if (static_cast<int>(lane) == leader) *r.overflow = 1;
    return;
  }
  unsigned* w = r.words + at;
  if (static_cast<int>(lane) == leader) {
    w[0] = static_cast<std::uint32_t>(key) | (affine ? kEventAffine : 0u);
    w[1] = static_cast<std::uint32_t>(key >> 32);
    w[2] = group;
    w[3] = static_cast<std::uint32_t>(GlobalTimer());
    if (affine) {
      w[4] = first_offset;
      w[5] = step;
    }
  }
  if (!affine) w[kEventHeaderWords + rank] = offset;
}

// After a barrier: the lanes that passed it together write one barrier event into their warp's
// stream (see ws_cuda_record_format.h). The other lanes wait for the leader's reservation, so
// that none of their later accesses can be ordered before the event.
__device__ __forceinline__ void RecordBarrierPassed(std::uint32_t place, std::uint64_t departure) {
  const RecorderState& r = ws_recorder_state;
  const unsigned group = __activemask();
  const bool leader = static_cast<int>(LaneId()) == __ffs(group) - 1;
  const unsigned long long warp = LinearBlock() * r.warps_per_block + LinearThread() / 32u;
  unsigned long long at = 0;
  if (leader) at = atomicAdd(&r.warp_cursor[warp], kEventHeaderWords);
  __syncwarp(group);
  if (!leader || r.mode == kCount) return;
  at += r.warp_base[warp];
  if (at + kEventHeaderWords > r.warp_base[warp + 1]) {
    *r.overflow = 1;
    return;
  }
  unsigned* w = r.words + at;
  w[0] = kEventBarrier;
  w[1] = place;
  w[2] = group;
  w[3] = static_cast<std::uint32_t>(departure);
}

// After a warp-level intrinsic: the lanes that met write one warp-op event (the leader the
// header and every lane's identity, then each lane the lane it read).
__device__ __forceinline__ void RecordWarpOp(std::uint32_t kind, std::uint32_t place, unsigned mask,
                                             unsigned source) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff) return;
  const unsigned group = __activemask() & mask;
  const unsigned lane = LaneId();
  const bool leader = static_cast<int>(lane) == __ffs(group) - 1;
  const unsigned long long warp = LinearBlock() * r.warps_per_block + LinearThread() / 32u;
  unsigned long long at = 0;
  if (leader) at = atomicAdd(&r.warp_cursor[warp], kWarpOpEventWords);
  if (r.mode == kCount) return;
  at = r.warp_base[warp] + __shfl_sync(group, at, __ffs(group) - 1);
  if (at + kWarpOpEventWords > r.warp_base[warp + 1]) {
    if (leader) *r.overflow = 1;
    return;
  }
  unsigned* w = r.words + at;
  if (leader) {
    w[0] = kEventWarpOp | kind;
    w[1] = place;
    w[2] = group;
    w[3] = static_cast<std::uint32_t>(GlobalTimer());
    for (unsigned k = 0; k < 8; ++k) w[kEventHeaderWords + k] = 0x03020100u + 0x04040404u * k;
  }
  __syncwarp(group);
  reinterpret_cast<unsigned char*>(w + kEventHeaderWords)[lane] =
      static_cast<unsigned char>(source);
}

template <typename T>
__device__ __forceinline__ T Shuffle(std::uint32_t kind, const char* file, unsigned line,
                                     unsigned mask, T var, int arg, int width = 32) {
  T out = kind == 0   ? (__shfl_sync)(mask, var, arg, width)
          : kind == 1 ? (__shfl_up_sync)(mask, var, static_cast<unsigned>(arg), width)
          : kind == 2 ? (__shfl_down_sync)(mask, var, static_cast<unsigned>(arg), width)
                      : (__shfl_xor_sync)(mask, var, arg, width);
  const std::uint32_t tag = RecorderFileTag(file);
  NoteFile(tag, file);
  RecordWarpOp(kind, MakePlace(tag, line), mask, ShuffleSourceLane(kind, LaneId(), arg, width));
  return out;
}

__device__ __forceinline__ unsigned Vote(std::uint32_t kind, const char* file, unsigned line,
                                         unsigned mask, int pred) {
  const unsigned out = kind == 4   ? (__ballot_sync)(mask, pred)
                       : kind == 5 ? static_cast<unsigned>((__any_sync)(mask, pred))
                                   : static_cast<unsigned>((__all_sync)(mask, pred));
  const std::uint32_t tag = RecorderFileTag(file);
  NoteFile(tag, file);
  RecordWarpOp(kind, MakePlace(tag, line), mask, LaneId());
  return out;
}

__device__ __forceinline__ void SyncThreads(std::uint32_t place) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff) {
    (__syncthreads)();
    return;
  }
  const std::uint64_t arrival = GlobalTimer();
  const long long arrival_clock = clock64();
  // The departure stamp must be read after the barrier releases. ptxas schedules special-
  // register reads freely (a plain __syncthreads() between two reads gave departure == arrival
  // on an H100), so the read depends on the barrier's result: __syncthreads_count is the same
  // block-wide barrier and returns the block's thread count, never 0.
  const int arrived = __syncthreads_count(1);
  std::uint64_t departure = 0;
  long long departure_clock = arrival_clock;
  if (arrived > 0) {
    departure = GlobalTimer();
    departure_clock = clock64();
  }
  RecordBarrierPassed(place, departure);
  const unsigned long long t = LinearBlock() * r.threads_per_block + LinearThread();
  const unsigned long long k = r.barrier_cursor[t]++;
  if (r.mode == kCount) return;
  const unsigned long long slot = r.barrier_base[t] + k;
  if (slot < r.barrier_base[t + 1]) {
    r.barriers[slot] = RawBarrier{arrival,
                                  departure,
                                  place,
                                  SmId(),
                                  static_cast<std::uint32_t>(departure_clock - arrival_clock),
                                  0};
  } else {
    *r.overflow = 1;
  }
}

}  // namespace ws::dev

#define __syncthreads()                                            \
  (::ws::dev::NoteFile(::ws::RecorderFileTag(__FILE__), __FILE__), \
   ::ws::dev::SyncThreads(::ws::MakePlace(::ws::RecorderFileTag(__FILE__), __LINE__)))
   // Lesson kernels' shuffles and votes record their meetings (WarpOpKind numbers).
#define __shfl_sync(...) ::ws::dev::Shuffle(0, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::ws::dev::Shuffle(1, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::ws::dev::Shuffle(2, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::ws::dev::Shuffle(3, __FILE__, __LINE__, __VA_ARGS__)
#define __ballot_sync(...) ::ws::dev::Vote(4, __FILE__, __LINE__, __VA_ARGS__)
#define __any_sync(...) static_cast<int>(::ws::dev::Vote(5, __FILE__, __LINE__, __VA_ARGS__))
#define __all_sync(...) static_cast<int>(::ws::dev::Vote(6, __FILE__, __LINE__, __VA_ARGS__))

#endif  // WS_PLAIN_BUILD
