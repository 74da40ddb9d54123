// The GPU's side of ws_cuda.h: accesses, barriers and warp-level intrinsics write events into
// their warp's stream, in chunks the warp takes from a pool as it goes (format and chunks:
// ws_cuda_record_format.h), so that one pass records.
//
// With WS_PLAIN_BUILD defined (the uninstrumented build the timings come from) nothing is
// recorded, __syncthreads() is the plain barrier and kernels get internal linkage, so that the
// same kernels can be compiled once with and once without recording into one program. For the
// same reason a lesson header's __device__ helper functions must be static (or templates).
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_record_format.h"
#include "warpscope/trace/ws_cuda_keys.h"  // MakePlace, RecorderFileTag, ShuffleSourceLane

// The launch's dynamic shared memory (extern __shared__), sized by <<<grid, block, bytes>>>.
extern __shared__ __align__(16) unsigned char ws_dynamic_shared[];

#if defined(WS_PLAIN_BUILD)

#undef __global__
#define __global__ static __location__(global)

namespace ws::dev {
__device__ __forceinline__ void RecordAccess(std::uint64_t, std::uint32_t) {}
__device__ __forceinline__ void RecordSiteAccess(std::uint64_t, std::uint32_t, const char*) {}
__device__ inline void NoteFile(std::uint32_t, const char*) {}
}  // namespace ws::dev

#else

// A unit that builds the lessons' kernels for one pass (WS_PASS_UNIT, cuda_pass_units.h) gives
// them internal linkage too, as the plain build does: the recorded unit has kernels of the same
// names.
#if defined(WS_PASS_UNIT)
#undef __global__
#define __global__ static __location__(global)
#endif

// One per translation unit (no relocatable device code): the runner sets it before each launch.
static __constant__ ws::dev::RecorderState ws_recorder_state;

namespace ws::dev {

// Which passes this unit's kernels can run. A unit built for one pass leaves the other's code
// out, and its registers with it: WS_HAZARD_BUILD, the hazard check's kernels only (kHazards, or
// kOff); WS_RECORD_BUILD, the counting and recording passes only (kCount, kRecord, or kOff). A
// unit with neither runs every pass (a program's recorded build).
#if defined(WS_HAZARD_BUILD) && defined(WS_RECORD_BUILD)
#error "WS_HAZARD_BUILD and WS_RECORD_BUILD leave nothing to build"
#endif
// Static: their values differ between the units of one program (no -rdc: each unit's device code
// is its own).
#if defined(WS_HAZARD_BUILD)
static constexpr bool kBuildsHazards = true, kBuildsRecords = false;
#elif defined(WS_RECORD_BUILD)
static constexpr bool kBuildsHazards = false, kBuildsRecords = true;
#else
static constexpr bool kBuildsHazards = true, kBuildsRecords = true;
#endif

// Whether this launch is a hazard pass (kHazards) or a recording one (kCount, kRecord), as far as
// this unit's build allows: a constant where it builds one kind only.
static __device__ __forceinline__ bool HazardPass(int mode) {
  return kBuildsRecords ? kBuildsHazards && mode == kHazards : true;
}

// The "memory" clobber keeps the read where it is written; see SyncThreads (ws_cuda_barrier.h)
// for the case where that was not enough.
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

// The block's number modulo 2^32, where a wrapped number does no harm (the tally's tests).
__device__ __forceinline__ unsigned LinearBlock32() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ __forceinline__ unsigned int LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

}  // namespace ws::dev

#include "warpscope/kernels/ws_cuda_hazards.h"  // HazardAccess, HazardBarrierPassed

namespace ws::dev {

// Which file literal a device file tag stands for, so that the runner can name the sites' files.
// Called by a leader where the host will meet the site (an event written or counted, a shape new
// to the tally), not at every access. Written once: it reads the word and stores only when it
// differs; storing every time made every warp of the grid store to one address (3.4x slower on a
// 2^24-float copy). Not on a hazard pass: the recording pass after it runs the same accesses.
__device__ inline void NoteFile(std::uint32_t tag, const char* file) {
  const RecorderState& r = ws_recorder_state;
  if ((r.mode == kCount || r.mode == kRecord) && r.files[tag] != file) r.files[tag] = file;
}

__device__ __forceinline__ unsigned long long LinearWarp(const RecorderState& r) {
  return LinearBlock() * r.warps_per_block + LinearThread() / 32u;
}

// Takes `size` words for a chunk from the super-chunk of the SM this warp runs on, the SM taking
// the next super-chunk from the pool when its own is full (the same protocol as a warp's chunks
// in Reserve). Returns the chunk's first word, or ~0 when the pool is spent.
__device__ inline unsigned long long TakeChunk(const RecorderState& r, unsigned size) {
  unsigned long long* state = r.sm_state + (SmId() % kSmSlots) * kSmSlotStride;
  for (;;) {
    const unsigned long long old = atomicAdd(state, static_cast<unsigned long long>(size));
    const unsigned super = StateChunk(old);
    const unsigned used = StateUsed(old);
    if (super == kDeadChunk) {
      if (used > kUsedMask / 2) atomicExch(state, kDeadState);
      return ~0ull;
    }
    const unsigned long long first = StateFirstWord(old);
    const unsigned capacity = super == 0 ? 0u : r.super_words;
    if (used + size <= capacity) return first + used;
    if (used > capacity) {  // another warp of this SM is taking the next super-chunk
      while (StateChunk(atomicAdd(state, 0ull)) == super) __nanosleep(64);
      continue;
    }
    if (super != 0) r.words[first] = used;  // close the full super-chunk
    const unsigned long long at =
        kChunkHeaderWords + size <= r.super_words
            ? atomicAdd(r.pool_next, static_cast<unsigned long long>(r.super_words))
            : r.pool_words;
    if (at + r.super_words > r.pool_words) {
      atomicExch(state, kDeadState);
      return ~0ull;
    }
    r.words[at] = 0;  // open
    atomicExch(state, ChunkState(at, 0, kChunkHeaderWords + size));
    return at + kChunkHeaderWords;
  }
}

// Reserve's slow road, out of line (inlined at every access site it made a lesson's kernels
// twice as large and their registers too many for full occupancy). It reads this unit's
// ws_recorder_state itself (every caller passes that), not its parameter through a generic
// pointer, which the call would otherwise load field by field: `old` is the state word
// before this reservation's own atomic add. Takes the next chunk, waits for another group that
// is taking it, or finds the warp out of room.
static __device__ __noinline__ unsigned* ReserveSlowly(const RecorderState&,
                                                       unsigned long long warp, unsigned words,
                                                       unsigned long long old) {
  const RecorderState& r = ws_recorder_state;
  unsigned long long* state = r.warp_state + warp;
  for (bool added = true;; added = false) {
    if (!added) old = atomicAdd(state, static_cast<unsigned long long>(words));
    const unsigned chunk = StateChunk(old);
    unsigned used = StateUsed(old);
    if (chunk == kDeadChunk) {
      // Keep the used bits from ever carrying into the chunk's.
      if (used > kUsedMask / 2) atomicExch(state, kDeadState);
      return nullptr;
    }
    // A warp's first chunk is its own kFirstChunkWords at warp * kFirstChunkWords when the pool
    // has room for one per warp (r.first_chunks): the warp's first events cost no allocation.
    const bool own_first = chunk == 0 && r.first_chunks;
    const unsigned long long first = own_first ? warp * kFirstChunkWords : StateFirstWord(old);
    if (own_first) used += kChunkHeaderWords;
    const unsigned size = own_first           ? kFirstChunkWords
                          : chunk == 0        ? 0u
                          : r.plan != nullptr ? static_cast<unsigned>(r.plan[warp + 1] - first)
                                              : kFirstChunkWords << StateClass(old);
    if (used + words <= size) return r.words + first + used;
    if (used > size) {  // another group of this warp is taking the next chunk: wait, try again
      while (StateChunk(atomicAdd(state, 0ull)) == chunk) __nanosleep(64);
      continue;
    }
    // This reservation crossed the chunk's end: close the chunk and take the next.
    if (chunk != 0 || own_first) r.words[first + 2] = used;
    unsigned size_class =
        chunk == 0 && !own_first ? 0u : min(StateClass(old) + 1u, r.max_chunk_class);
    while ((kFirstChunkWords << size_class) < kChunkHeaderWords + words) ++size_class;
    const unsigned long long at =
        r.plan == nullptr ? TakeChunk(r, kFirstChunkWords << size_class) : ~0ull;
    if (at == ~0ull) {
      atomicExch(state, kDeadState);
      *r.overflow = 1;
      return nullptr;
    }
    unsigned* c = r.words + at;
    c[0] = static_cast<unsigned>(warp);
    c[1] = static_cast<unsigned>(warp >> 32);
    c[2] = 0;
    c[3] = kFirstChunkWords << size_class;
    atomicExch(state, ChunkState(at, size_class, kChunkHeaderWords + words));
    return c + kChunkHeaderWords;
  }
}

// Called by one lane of a group (its leader; a program's asynchronous copy call, ws_gpu_async.h,
// by each lane making it): reserves `words` in warp `warp`'s stream and returns
// where they are, or null when there is no room (or on the counting pass, which only counts).
// See ws_cuda_record_format.h for the chunks and the state word. One atomic add on the warp's
// state word; the rest is ReserveSlowly's, when the event does not fit where the warp is.
__device__ __forceinline__ unsigned* Reserve(const RecorderState& r, unsigned long long warp,
                                             unsigned words) {
  unsigned long long* state = r.warp_state + warp;
  const unsigned long long old = atomicAdd(state, static_cast<unsigned long long>(words));
  if (r.mode == kCount) return nullptr;
  const unsigned chunk = StateChunk(old);
  const unsigned used = StateUsed(old);
  if (chunk == 0 && r.first_chunks && used + kChunkHeaderWords + words <= kFirstChunkWords)
    return r.words + warp * kFirstChunkWords + kChunkHeaderWords + used;
  if (chunk != 0 && chunk != kDeadChunk && r.plan == nullptr &&
      used + words <= (kFirstChunkWords << StateClass(old)))
    return r.words + StateFirstWord(old) + used;
  return ReserveSlowly(r, warp, words, old);
}

// The group's leader reserves, the others learn where. `active`: every lane running this code
// now, all groups; they meet again before the shuffle. Leaders of several groups may wait for
// each other inside Reserve, and a group's shuffle while another group's lanes were still
// waiting for their leader at the same instruction was refused on an H100 (compute-sanitizer's
// synccheck: "Barrier error detected. Invalid arguments", then cudaErrorIllegalInstruction).
__device__ __forceinline__ unsigned* ReserveForGroup(const RecorderState& r, unsigned active,
                                                     unsigned group, bool leader, unsigned words) {
  unsigned* w = nullptr;
  if (leader) w = Reserve(r, LinearWarp(r), words);
  if (r.mode == kCount) return nullptr;
  __syncwarp(active);
  return reinterpret_cast<unsigned*>(
      __shfl_sync(group, reinterpret_cast<unsigned long long>(w), __ffs(group) - 1));
}

}  // namespace ws::dev

#include "warpscope/kernels/ws_cuda_lane_log.h"  // LaneAccess, LaneMeeting, LaneBarrier
#include "warpscope/kernels/ws_cuda_tally.h"     // Tally

namespace ws::dev {

// One group's event, the lanes' shape known (RecordGroup): `group` the lanes that
// run this access together, `leader` its lowest lane, `rank` this lane's place among them,
// `affine` whether their offsets are first + rank x step; `active` every lane running this code
// now. The leader notes the site's file first (the counting pass writes nothing, and the host
// meets the site in this event or in a shape the tally took).
__device__ __forceinline__ void WriteEvent(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset, std::uint64_t instance,
                                           unsigned active, unsigned group, int leader,
                                           unsigned lane, unsigned rank, bool affine,
                                           unsigned first_offset, unsigned step, const char* file) {
  const bool instanced = (instance >> 32) != 0;
  const unsigned payload = kEventHeaderWords + (instanced ? 1u : 0u);
  const unsigned words = payload + (affine ? 2u : __popc(group));
  if (file != nullptr && static_cast<int>(lane) == leader) NoteFile(KeyFile(key), file);
  unsigned* w = ReserveForGroup(r, active, group, static_cast<int>(lane) == leader, words);
  if (w == nullptr) return;
  if (static_cast<int>(lane) == leader) {
    w[0] = static_cast<std::uint32_t>(key) | (affine ? kEventAffine : 0u) |
           (instanced ? kEventInstance : 0u);
    w[1] = static_cast<std::uint32_t>(key >> 32);
    w[2] = group;
    w[3] = static_cast<std::uint32_t>(GlobalTimer());
    if (instanced) w[kEventHeaderWords] = static_cast<std::uint32_t>(instance);
    if (affine) {
      w[payload] = first_offset;
      w[payload + 1] = step;
    }
  }
  if (!affine) w[payload + rank] = offset;
}

// One group's request (RecordAccess): `group` the lanes that run this access together, `leader`
// its lowest lane and `second` its next (the leader where it is alone); `active` every lane
// running this code now. Counted by the tally where it takes it, else written as an event.
__device__ __forceinline__ void RecordGroup(const RecorderState& r, std::uint64_t key,
                                            std::uint32_t offset, std::uint64_t instance,
                                            unsigned active, unsigned group, int leader, int second,
                                            const char* file, unsigned lines = 0) {
  const unsigned lane = LaneId();
  const unsigned first_offset = __shfl_sync(group, offset, leader);
  const unsigned step = __shfl_sync(group, offset, second) - first_offset;
  const unsigned rank = __popc(group & ((1u << lane) - 1u));
  const bool affine = __all_sync(group, offset == first_offset + rank * step) != 0;
  if (r.tally_keys != nullptr &&
      Tally(r, key, group, lane, leader, offset, affine, first_offset, step, file, lines) != ~0u)
    return;
  WriteEvent(r, key, offset, instance, active, group, leader, lane, rank, affine, first_offset,
             step, file);
}

// A whole warp's request at one site (every lane running, one key and instance), counted here
// where the tally takes it at once: an affine request (or affine in rows), in a block not kept,
// whose shape is at its first slot (TallyWholeAffine), with constant masks (about 40 warp
// instructions against 125 through RecordGroup and Tally; docs/GPU.md). Returns false for
// anything else, which the general road records. Without a tally the host keeps every block
// (kept_last ~0u): TallyWholeAffine returns at its kept test, and no pointer test is made here.
__device__ __forceinline__ bool CountedWhole(const RecorderState& r, std::uint64_t key,
                                             std::uint32_t offset) {
  const unsigned lane = LaneId();
  const unsigned first_offset = __shfl_sync(~0u, offset, 0);
  const unsigned step = __shfl_sync(~0u, offset, 1) - first_offset;
#if defined(WS_WARP_STATE_BUILD)
  if (CountDirect(r, key, lane, offset, first_offset, step)) return true;
#endif
  if (__all_sync(~0u, offset == first_offset + lane * step) != 0)
    return TallyWholeAffine(r, key, lane, first_offset, step);
  // Affine in rows (tally_rows), counted by its steps; tested only where the affine test failed.
  unsigned row_step = 0;
  const unsigned rows = r.tally_rows;
  if (rows == 0 || !AffineInRows(~0u, offset, lane, first_offset, step, rows, &row_step))
    return false;
  return TallyWholeAffine(r, key, lane, first_offset, step, rows, row_step);
}

// One event per group of lanes that run this access together with the same site key (and the
// same dynamic instance: `instance`, where bit 32 is set, is a program's instance key in its low
// 32 bits, written after the header). The leader (lowest lane) reserves the group's words and
// writes the header; in a general event each lane writes its own offset.
// Most requests are a whole warp's at one site: unless WS_NO_WHOLE_WARP_ROAD (below) they take a
// road of their own (CountedWhole), where the group is every lane by construction and each
// shuffle and vote has a constant full mask; what it does not count goes the general road.
// With the group's mask only known at run time, ptxas compiled every shuffle to a
// WARPSYNC.COLLECTIVE before the SHFL (Nsight Compute on transpose 4096²'s recorded build, H200:
// 10 % of the recording pass's stall samples).
// The road measured before it was taken (bench/gpu_tally_micro.sh, H200): a 2^24-float copy
// 0.381 ms with it against 0.414 without. WS_NO_WHOLE_WARP_ROAD builds without it.
// `file`: the site's file literal where the caller has it (a lesson's Index), noted only where
// the host will meet the site (WriteEvent, a shape new to the tally): noting it at every access
// was a load and a compare there, and its wait 5 % of transpose 4096²'s recording-pass stalls.
#if defined(WS_NO_WHOLE_WARP_ROAD)
inline constexpr bool kWholeWarpRoad = false;
#else
inline constexpr bool kWholeWarpRoad = true;
#endif

// The general road: any group of lanes, and what the whole warp's count did not take (inlined:
// out of line it took the recorded copy from 48 registers to 45 and no further, ptxas -v).
__device__ __forceinline__ void RecordGeneral(std::uint64_t key, std::uint32_t offset,
                                              std::uint64_t instance, const char* file,
                                              unsigned lines = 0) {
  const RecorderState& r = ws_recorder_state;
  const unsigned active = __activemask();
  const bool instanced = (instance >> 32) != 0;
  const unsigned group =
      __match_any_sync(active, key) &
      (instanced ? __match_any_sync(active, static_cast<std::uint32_t>(instance)) : active);
  const int leader = __ffs(group) - 1;
  const unsigned rest = group & (group - 1);  // the group without its leader
  const int second = rest != 0 ? __ffs(rest) - 1 : leader;
  RecordGroup(r, key, offset, instance, active, group, leader, second, file, lines);
}

// The general road out of line (WS_OUT_OF_LINE_ROADS, the lean unit's build): inlined, its code
// (the tally's lanes' hash and probes, the event's reservation and words) shared the kernel's 32
// registers with the whole warp's road, and ptxas spilled for it on every request (the lean
// unit's transposes 48 bytes of local memory, 32 out of line; the tiled matmuls 80, 48). Out of
// line only a request that takes it (a kept block's, part of a warp's, a shape the short road did
// not count) pays for the call: on an H200 (bench/gpu_tally_micro.sh, docs/GPU.md) the micro's
// copy 0.136 -> 0.131 ms, its padded transpose 0.285 -> 0.278, its tile rows 1.94 -> 1.71, and the
// lanes' hash road 4.3 -> 5.05, the tally off 0.236 -> 0.285 (the roads taken out of line). It
// reads no register of the kernel's (the warp's tally state is the kernel's own, ws_cuda_tally.h,
// and a function out of line cannot name it): Tally finds the block's column itself.
#if defined(WS_OUT_OF_LINE_ROADS)
static __device__ __noinline__ void RecordGeneralOutOfLine(std::uint64_t key, std::uint32_t offset,
                                                           std::uint64_t instance,
                                                           const char* file) {
  RecordGeneral(key, offset, instance, file);
}
inline constexpr bool kOutOfLineRoads = true;
#else
__device__ __forceinline__ void RecordGeneralOutOfLine(std::uint64_t key, std::uint32_t offset,
                                                       std::uint64_t instance, const char* file) {
  RecordGeneral(key, offset, instance, file);
}
inline constexpr bool kOutOfLineRoads = false;
#endif

template <bool kInstanced>
__device__ __forceinline__ void RecordAccessAs(std::uint64_t key, std::uint32_t offset,
                                               std::uint64_t instance, const char* file) {
  const RecorderState& r = ws_recorder_state;
  if constexpr (!kInstanced && kLaneLogOnly) return LaneAccess(r, key, offset);  // no mode
  if (r.mode == kOff) return;
  if (HazardPass(r.mode)) {
    if (!HazardSkips(r, key)) HazardAccess(r, key, offset);
    return;
  }
  if (kWholeWarpRoad && __activemask() == ~0u) {
    // A program's instance as a whole (bit 32 says whether it has one), so that lanes that
    // disagree on having one go the general road together.
    int same_key = 0, same_instance = 1;
    (void)__match_all_sync(~0u, key, &same_key);
    if (kInstanced) (void)__match_all_sync(~0u, instance, &same_instance);
    if (same_key != 0 && same_instance != 0 && CountedWhole(r, key, offset)) return;
  }
  RecordGeneralOutOfLine(key, offset, instance, file);
}
__device__ __forceinline__ void RecordAccess(std::uint64_t key, std::uint32_t offset) {
  RecordAccessAs<false>(key, offset, 0, nullptr);
}
__device__ __forceinline__ void RecordAccess(std::uint64_t key, std::uint32_t offset,
                                             std::uint64_t instance) {
  RecordAccessAs<true>(key, offset, instance, nullptr);
}
// A lesson's access (ws_cuda_arrays.h): its file literal beside the key.
__device__ __forceinline__ void RecordSiteAccess(std::uint64_t key, std::uint32_t offset,
                                                 const char* file) {
  RecordAccessAs<false>(key, offset, 0, file);
}

// An asynchronous copy's shared write (a program's, shim/gpu/ws_gpu_async.h): `lines`, the global
// 128-byte lines its lanes' sources lie in, goes with its shape where the tally takes it, so that
// the host costs it by the lines rule (WarpRequests::AddCopyWrite) without its read; a written
// event is paired with its read by the host. Not on a hazard pass (HazardAccess leaves it out).
__device__ __forceinline__ void RecordCopyWrite(std::uint64_t key, std::uint32_t offset,
                                                std::uint64_t instance, unsigned lines) {
  const RecorderState& r = ws_recorder_state;
  if (r.mode == kOff || HazardPass(r.mode)) return;
  RecordGeneral(key, offset, instance, nullptr, lines);
}

// After a warp-level intrinsic: the lanes that met write one warp-op event (the leader the
// header and every lane's identity, then each lane the lane it read). `whole`: the meeting is
// every lane of `mask` (a __syncwarp(mask): its lanes need not run on together after it, and a
// meeting split by them would no longer order their accesses in the hazard search).
__device__ __forceinline__ void RecordWarpOp(std::uint32_t kind, std::uint32_t place, unsigned mask,
                                             unsigned source, bool whole = false,
                                             const char* file = nullptr) {
  const RecorderState& r = ws_recorder_state;
  if (!kLaneLogOnly && (r.mode == kOff || HazardPass(r.mode))) return;
  const unsigned group = whole ? mask : __activemask() & mask;
  const unsigned lane = LaneId();
  if ((group >> lane & 1u) == 0) return;  // a lane the intrinsic's mask leaves out
  if constexpr (kLaneLogOnly) return LaneMeeting(r, kind, place, group, source);
  const bool leader = static_cast<int>(lane) == __ffs(group) - 1;
  // A whole warp's meeting in a block not kept: counted in the tally, not written (the short
  // road first, with constant masks, where every lane met).
  if (r.tally_keys != nullptr) {
    const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | kTallyWarpOp | kind;
    if (group == ~0u) {
      const unsigned block = kWarpState ? 0u : LinearBlock32();
      if (TallyColumnOf(r, block) != ~0u && TallyWholeMeeting(r, key, lane, 0, block) != ~0u)
        return;
    }
    if (Tally(r, key, group, lane, __ffs(group) - 1, 0, true, 0, 0, file) != ~0u) return;
  }
  if (leader && file != nullptr) NoteFile(PlaceFile(place), file);
  unsigned* w = ReserveForGroup(r, group, group, leader, kWarpOpEventWords);
  if (w == nullptr) return;
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
  RecordWarpOp(kind, MakePlace(RecorderFileTag(file), line), mask,
               ShuffleSourceLane(kind, LaneId(), arg, width), false, file);
  return out;
}

__device__ __forceinline__ unsigned Vote(std::uint32_t kind, const char* file, unsigned line,
                                         unsigned mask, int pred) {
  const unsigned out = kind == 4   ? (__ballot_sync)(mask, pred)
                       : kind == 5 ? static_cast<unsigned>((__any_sync)(mask, pred))
                                   : static_cast<unsigned>((__all_sync)(mask, pred));
  RecordWarpOp(kind, MakePlace(RecorderFileTag(file), line), mask, LaneId(), false, file);
  return out;
}

}  // namespace ws::dev

#include "warpscope/kernels/ws_cuda_barrier.h"  // SyncThreads, TileSync

#define __syncthreads() \
  ::ws::dev::SyncThreads(::ws::MakePlace(::ws::RecorderFileTag(__FILE__), __LINE__), __FILE__)
   // Lesson kernels' shuffles and votes record their meetings (WarpOpKind numbers).
#define __shfl_sync(...) ::ws::dev::Shuffle(0, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::ws::dev::Shuffle(1, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::ws::dev::Shuffle(2, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::ws::dev::Shuffle(3, __FILE__, __LINE__, __VA_ARGS__)
#define __ballot_sync(...) ::ws::dev::Vote(4, __FILE__, __LINE__, __VA_ARGS__)
#define __any_sync(...) static_cast<int>(::ws::dev::Vote(5, __FILE__, __LINE__, __VA_ARGS__))
#define __all_sync(...) static_cast<int>(::ws::dev::Vote(6, __FILE__, __LINE__, __VA_ARGS__))

#endif  // WS_PLAIN_BUILD
