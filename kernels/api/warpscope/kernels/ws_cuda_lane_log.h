// The lane log: a small launch's recording pass where every lane writes its own record of each
// access, barrier and warp meeting, with no shuffle, vote or atomic on the warp's path, and the
// host groups a warp's lanes into its requests (LaneLogToCapture, gpu_records.h) as the warp's
// events would have said. Included by ws_cuda_device.h (it uses that file's helpers); on when
// RecorderState::lane_rows is set (cuda_backend_record.h: a lesson's launch whose log fits), and
// always in the lane unit (WS_LANE_LOG_BUILD, below), which is started only with a log.
//
// Why: the event roads cost a kept warp about 0.9 us an access on its path (a reservation, then
// shuffles and votes that each wait for the one before), and a lesson at its default size is a
// few such warps in a row of accesses: matmul tiled at 64² recorded at about 20x its 3.3 us.
// Written by each lane alone, a record is a store the warp does not wait for
// (bench/gpu_lane_log_micro.cu, H200, this design, the counter tagged in shared memory: 0.06 us
// an access over the kernel's own in a chain of 160; the tiled matmul at 64² with every access
// and barrier so logged 2.5-3.1x its plain time, against 20x; docs/GPU.md).
//
// A record, 4 words, in the lane's own column of its warp's rows (a warp's k-th records are one
// 512-byte row, four whole lines when the warp runs together):
//   access   word 0 the site key's bits 0..31 (bits 8..11 zero), word 1 its bits 32..63, word 2
//            the offset, word 3 the lanes running (__activemask: the host groups by it and the key)
//   meeting  word 0 kEventWarpOp | kind, word 1 the place, word 2 the lane this lane read,
//            word 3 the lanes that met
//   barrier  two rows: word 0 kEventBarrier | tile warps | threads passed << 16, word 1 the
//            place, word 2 the departure's low 32 bits, word 3 the lanes that arrived together;
//            then the arrival (64 bits), the SM clock's cycles between them, and the SM | 1 << 31
// An access's or a meeting's time (%globaltimer's low 32 bits) is written by every lane at the
// same slot of lane_times (the host reads the lowest lane's): a warp's times are then one whole
// line, where the lowest lane's alone were 4 bytes of one (bench/gpu_lane_log_micro.cu, H200,
// matmul tiled 256², without the count's store: 216 us with the lowest lane's times, 120 with
// every lane's, 85 for the tagged record with no time at all). Each thread's count of rows
// (lane_counts, cleared before the pass) says where its column ends: the rows past it are not
// cleared.
#pragma once

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws::dev {

// The lean unit (lessons_cuda_lean.cu) leaves the lane log out (WS_NO_LANE_LOG): it runs the large
// launches, and the log's code took its transposes' spills from 52 to 80 bytes (ptxas -v, 32
// registers). Static: the value differs between the units of one program.
#if defined(WS_NO_LANE_LOG)
static constexpr bool kLaneLogBuilt = false;
#else
static constexpr bool kLaneLogBuilt = true;
#endif
// The lane unit (lessons_cuda_lane.cu, WS_LANE_LOG_BUILD) is the lane log alone: started only
// with a log (WS_LAUNCH_OTHER_UNIT), its kernels leave every other road's code out, so that a
// site is the log's few instructions rather than those among the event roads' and the tally's.
#if defined(WS_LANE_LOG_BUILD)
#if defined(WS_NO_LANE_LOG) || !defined(WS_RECORD_BUILD)
#error "WS_LANE_LOG_BUILD is a recording build with the lane log (WS_RECORD_BUILD)"
#endif
static constexpr bool kLaneLogOnly = true;
#else
static constexpr bool kLaneLogOnly = false;
#endif

// Static: its body differs between the units of one program (kLaneLogOnly).
static __device__ __forceinline__ bool LaneLogOn(const RecorderState& r) {
  return kLaneLogOnly || (kLaneLogBuilt && r.lane_rows != nullptr);
}

// Stores the record with no "memory" clobber: nothing in the kernel reads the log, and so the
// compiler may keep a lane's row counter in a register between its records.
__device__ __forceinline__ void LaneStore(unsigned* p, unsigned a, unsigned b, unsigned c,
                                          unsigned d) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(a), "r"(b), "r"(c), "r"(d));
}
__device__ __forceinline__ void LaneStoreTime(unsigned* p, unsigned t) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(t));
}
__device__ __forceinline__ unsigned LaneTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<unsigned>(t);
}

// Takes `rows` rows of this lane's column and returns the first (the next is 128 words on), or
// null past lane_cap (the count goes on, so that the host knows what the launch needed); `time`
// the first row's time slot. The counter: 4 words of the block's shared memory for each thread,
// its tag (the launch's and the block's: no prologue clears them, so a stale word is told by its
// tag), its rows used, and the file it noted last, so that a lane notes a file only where its
// file changes (NoteFile reads a word of device memory).
__device__ __forceinline__ unsigned* LaneRows(const RecorderState& r, unsigned rows,
                                              std::uint32_t file_tag, const char* file,
                                              unsigned** time) {
  const unsigned thread = LinearThread();
  uint4* mine = reinterpret_cast<uint4*>(ws_dynamic_shared + r.hazard_shared_offset) + thread;
  const uint4 seen = *mine;
  const unsigned tag = (r.hazard_tag ^ LinearBlock32() * 0x9e3779b9u) | 1u;
  const bool fresh = seen.x != tag;
  const unsigned used = fresh ? 0u : seen.y, noted = fresh ? ~0u : seen.z;
  if (file != nullptr && file_tag != noted) NoteFile(file_tag, file);
  *mine = make_uint4(tag, used + rows, file != nullptr ? file_tag : noted, 0u);
  const unsigned long long grid_thread = LinearBlock() * r.threads_per_block + thread;
  LaneStoreTime(r.lane_counts + grid_thread, used + rows);
  if (used + rows > r.lane_cap) return nullptr;
  const unsigned long long slot = (LinearWarp(r) * r.lane_cap + used) * 32u + LaneId();
  *time = r.lane_times + slot;
  return r.lane_rows + slot * 4u;
}

__device__ __forceinline__ void LaneAccess(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset, const char* file) {
  const unsigned active = __activemask();
  const unsigned t = LaneTime();
  unsigned* time = nullptr;
  unsigned* row = LaneRows(r, 1, KeyFile(key), file, &time);
  if (row == nullptr) return;
  LaneStore(row, static_cast<unsigned>(key), static_cast<unsigned>(key >> 32), offset, active);
  LaneStoreTime(time, t);
}

__device__ __forceinline__ void LaneMeeting(const RecorderState& r, std::uint32_t kind,
                                            std::uint32_t place, unsigned group, unsigned source,
                                            const char* file) {
  const unsigned t = LaneTime();
  unsigned* time = nullptr;
  unsigned* row = LaneRows(r, 1, PlaceFile(place), file, &time);
  if (row == nullptr) return;
  LaneStore(row, kEventWarpOp | kind, place, source, group);
  LaneStoreTime(time, t);
}

// After the barrier: `word0` the barrier event's word 0, the times as TimedBarrier took them.
__device__ __forceinline__ void LaneBarrier(const RecorderState& r, std::uint32_t word0,
                                            std::uint32_t place, unsigned group,
                                            std::uint64_t arrival, std::uint64_t departure,
                                            unsigned cycles, const char* file) {
  unsigned* time = nullptr;
  unsigned* row = LaneRows(r, 2, PlaceFile(place), file, &time);
  if (row == nullptr) return;
  LaneStore(row, word0, place, static_cast<unsigned>(departure), group);
  LaneStore(row + 128, static_cast<unsigned>(arrival), static_cast<unsigned>(arrival >> 32), cycles,
            SmId() | 0x80000000u);
}

}  // namespace ws::dev
