// The lane log: a small launch's recording pass where every lane writes its own record of each
// access, barrier and warp meeting, with no shuffle, vote or atomic on the warp's path, and the
// host groups a warp's lanes into its requests (LaneLogToCapture, gpu_records.h) as the warp's
// events would have said. Included by ws_cuda_device.h (it uses that file's helpers); built in the
// lane unit alone (WS_LANE_LOG_BUILD, below), which is started only with a log
// (RecorderState::lane_rows set: cuda_backend_lane_log.h, a lesson's launch whose log fits).
//
// Why: the event roads cost a kept warp about 0.9 us an access on its path (a reservation, then
// shuffles and votes that each wait for the one before), and a lesson at its default size is a
// few such warps in a row of accesses: matmul tiled at 64² recorded at about 20x its 3.3 us.
// Written by each lane alone, a record is a store the warp does not wait for
// (bench/gpu_lane_log_micro.cu, H200, with the counter tagged in shared memory as it first was:
// 0.06 us an access over the kernel's own in a chain of 160; the tiled matmul at 64² with every
// access and barrier so logged 2.5-3.1x its plain time, against 20x; docs/GPU.md).
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
// An access's or a meeting's time (%globaltimer's low 32 bits): where its lanes are the whole
// warp, word 3 is the time and word 0 has kLaneWholeWarp; else every lane writes it at the same
// slot of lane_times (the host reads the lowest lane's): a warp's times are then one whole line,
// where the lowest lane's alone were 4 bytes of one (bench/gpu_lane_log_micro.cu, H200, matmul
// tiled 256²: 216 us with the lowest lane's times, 120 with every lane's, 85 for the tagged
// record with no time at all). No record has words 0 and 3 both 0, so that the host finds a
// column's end in the log it cleared before the pass (LaneLogCounts).
//
// The lane's place in its column is kept in registers of the kernel's own, which PTX lets a
// kernel declare by name (WS_KERNEL_ENTRY, which the lesson form puts first in every lesson
// kernel's body, declares and sets them; every record after names them): its row 0's address
// (ws_lane_row0), its time slot's (ws_lane_time0), its count's (ws_lane_count), the number of its
// next row (ws_lane_next) and the file tag it noted last (ws_lane_file). Kept in shared memory
// before (the counter behind a tag, read and written at every record, with the thread's count
// stored to device memory each time), a record was some 50 instructions, and the tiled matmul's
// pass at 64² executed 33 times the plain kernel's instructions (Nsight Compute, H200).
// A record has no branch: the file's note and the column's end are predicated, and the lane unit
// tests no mode. A load is issued before its record (detail::Loaded, ws_cuda_arrays.h). With the
// record a block of its own between branches, and before the load, the load waited for it, and a
// lesson of one warp an SM (the matmuls at 64²) paid every record's instructions in full.
// A lane past its rows writes nothing more and stores the rows it has needed so far in
// lane_counts[thread of the grid] (cleared before the pass), so that the host can run the pass
// again with room for them. A record made in a function the kernel did not inline names
// registers its PTX function does not declare: ptxas stops the build there.
#pragma once

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws::dev {

// The lane units (lessons_cuda_lane.cu, lessons_cuda_lane_wide.cu: WS_LANE_LOG_BUILD, the same
// code with and without a register cap) are the only builds with the lane log:
// started only with a log (WS_LAUNCH_OTHER_UNIT), its kernels leave every other road's code out,
// so that a site is the log's few instructions rather than those among the event roads' and the
// tally's. Static: the value differs between the units of one program.
#if defined(WS_LANE_LOG_BUILD)
#if !defined(WS_RECORD_BUILD)
#error "WS_LANE_LOG_BUILD is a recording build with the lane log (WS_RECORD_BUILD)"
#endif
static constexpr bool kLaneLogOnly = true;
#define WS_KERNEL_ENTRY ::ws::dev::LaneEntry(ws_recorder_state);
#else
static constexpr bool kLaneLogOnly = false;
#endif

__device__ __forceinline__ unsigned LaneTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<unsigned>(t);
}

// First in a lesson kernel's body (WS_KERNEL_ENTRY): declares the column's registers and points
// them at this lane's row 0 of its warp's rows, its time's slot there and its count.
__device__ __forceinline__ void LaneEntry(const RecorderState& r) {
  const unsigned long long slot = LinearWarp(r) * r.lane_cap * 32u + LaneId();
  const unsigned long long grid_thread = LinearBlock() * r.threads_per_block + LinearThread();
  asm volatile(
      ".reg .u64 ws_lane_row0, ws_lane_time0, ws_lane_count;\n\t"
      ".reg .u32 ws_lane_next, ws_lane_file;\n\t"
      "mov.u64 ws_lane_row0, %0;\n\t"
      "mov.u64 ws_lane_time0, %1;\n\t"
      "mov.u64 ws_lane_count, %2;\n\t"
      "mov.u32 ws_lane_next, 0;\n\t"
      "mov.u32 ws_lane_file, -1;" ::"l"(r.lane_rows + slot * 4u),
      "l"(r.lane_times + slot), "l"(r.lane_counts + grid_thread));
}

// Notes the file where this lane's last record named another: stores the literal at its tag's
// slot of the files (with no read first: a lane stores at each change of file, and every lane of
// the grid may store the same value at its first record), predicated
// rather than branched around, so that the record's code is one block the compiler schedules with
// the kernel's own. A null `file` notes nothing.
__device__ __forceinline__ void LaneNote(const RecorderState& r, std::uint32_t tag,
                                         const char* file) {
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %0, ws_lane_file;\n\t"
      "setp.ne.and.u64 p, %2, 0, p;\n\t"
      "@p st.global.u64 [%1], %2;\n\t"
      "@p mov.u32 ws_lane_file, %0;\n\t}" ::"r"(tag),
      "l"(r.files + tag), "l"(file));
}

// One row and its time at the lane's next, where it fits in its column; the column moves on
// either way, and a lane past its rows stores the rows it has needed so far (its next row) in
// its count. Where `d` (the lanes) is the whole warp, the row says so in word 0
// (kLaneWholeWarp) and carries the time in word 3, and no time is stored apart: a fifth of a
// warp's bytes (bench/gpu_lane_log_micro.cu, H200, the tiled matmul at 256²: 101 us against 125
// with the time apart). Addressed from the row's number, so that ptxas gets each address as one
// wide multiply-add (kept as addresses and added to, each was two adds and two moves into a
// register pair, nvcc 13, sm_90). No branch: see LaneNote.
__device__ __forceinline__ void LaneRow(const RecorderState& r, unsigned a, unsigned b, unsigned c,
                                        unsigned d, unsigned t) {
  asm volatile(
      "{\n\t.reg .pred ok, whole, apart;\n\t.reg .u64 row, time;\n\t.reg .u32 w0, w3;\n\t"
      "setp.lt.u32 ok, ws_lane_next, %5;\n\t"
      "setp.eq.u32 whole, %3, -1;\n\t"
      "or.b32 w0, %0, %6;\n\t"
      "selp.u32 w0, w0, %0, whole;\n\t"
      "selp.u32 w3, %4, %3, whole;\n\t"
      "mad.wide.u32 row, ws_lane_next, 512, ws_lane_row0;\n\t"
      "mad.wide.u32 time, ws_lane_next, 128, ws_lane_time0;\n\t"
      "add.u32 ws_lane_next, ws_lane_next, 1;\n\t"
      "@ok st.global.v4.u32 [row], {w0, %1, %2, w3};\n\t"
      "setp.ne.and.u32 apart, %3, -1, ok;\n\t"
      "@apart st.global.u32 [time], %4;\n\t"
      "@!ok st.global.u32 [ws_lane_count], ws_lane_next;\n\t}" ::"r"(a),
      "r"(b), "r"(c), "r"(d), "r"(t), "r"(r.lane_cap), "n"(kLaneWholeWarp));
}

__device__ __forceinline__ void LaneAccess(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset, const char* file) {
  const unsigned active = __activemask();
  const unsigned t = LaneTime();
  LaneNote(r, KeyFile(key), file);
  LaneRow(r, static_cast<unsigned>(key), static_cast<unsigned>(key >> 32), offset, active, t);
}

__device__ __forceinline__ void LaneMeeting(const RecorderState& r, std::uint32_t kind,
                                            std::uint32_t place, unsigned group, unsigned source,
                                            const char* file) {
  const unsigned t = LaneTime();
  LaneNote(r, PlaceFile(place), file);
  LaneRow(r, kEventWarpOp | kind, place, source, group, t);
}

// After the barrier: `word0` the barrier event's word 0, the times as TimedBarrier took them.
// Two rows (no time slot of their own), both or neither. A lane that had one row left stores its
// count, and so does every later record of it (its next row is past its rows from then on): the
// host runs the pass again with room, and decodes no column of a pass where a lane ran out.
__device__ __forceinline__ void LaneBarrier(const RecorderState& r, std::uint32_t word0,
                                            std::uint32_t place, unsigned group,
                                            std::uint64_t arrival, std::uint64_t departure,
                                            unsigned cycles, const char* file) {
  LaneNote(r, PlaceFile(place), file);
  asm volatile(
      "{\n\t.reg .pred ok;\n\t.reg .u64 row;\n\t"
      "add.u32 ws_lane_next, ws_lane_next, 2;\n\t"
      "setp.le.u32 ok, ws_lane_next, %8;\n\t"
      "mad.wide.u32 row, ws_lane_next, 512, ws_lane_row0;\n\t"
      "@ok st.global.v4.u32 [row+-1024], {%0, %1, %2, %3};\n\t"
      "@ok st.global.v4.u32 [row+-512], {%4, %5, %6, %7};\n\t"
      "@!ok st.global.u32 [ws_lane_count], ws_lane_next;\n\t}" ::"r"(word0),
      "r"(place), "r"(static_cast<unsigned>(departure)), "r"(group),
      "r"(static_cast<unsigned>(arrival)), "r"(static_cast<unsigned>(arrival >> 32)), "r"(cycles),
      "r"(SmId() | 0x80000000u), "r"(r.lane_cap));
}

}  // namespace ws::dev
