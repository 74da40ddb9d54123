// The lane log: a small launch's recording pass where every lane writes its own record of each
// access, barrier and warp meeting, with no vote or atomic on the warp's path (an access's key is
// shuffled from lane 0: a whole warp's record, below), and the host groups a warp's lanes into its
// requests (LaneLogToCapture, gpu_records.h) as the warp's events would have said. Included by
// ws_cuda_device.h (it uses that file's helpers); built in the lane unit alone (WS_LANE_LOG_BUILD,
// below), which is started only with a log (RecorderState::lane_rows set: cuda_backend_lane_log.h,
// a lesson's launch whose log fits).
//
// Why: the event roads cost a kept warp about 0.9 us an access on its path (a reservation, then
// shuffles and votes that each wait for the one before), and a lesson at its default size is a
// few such warps in a row of accesses: matmul tiled at 64² recorded at about 20x its 3.3 us.
// Written by each lane alone, a record is a store the warp does not wait for (but for the shuffle)
// (bench/gpu_lane_log_micro.cu, H200, with the counter tagged in shared memory as it first was:
// 0.06 us an access over the kernel's own in a chain of 160; the tiled matmul at 64² with every
// access and barrier so logged 2.5-3.1x its plain time, against 20x; docs/GPU.md).
//
// A record, 4 words, in the lane's own column of its warp's rows (a warp's k-th records are one
// 512-byte row; a whole warp's access or meeting is a warp row instead, below):
//   access   word 0 the site key's bits 0..31 (bits 8..11 zero), word 1 its bits 32..63, word 2
//            the offset, word 3 the lanes running (__activemask: the host groups by it and the key)
//   meeting  word 0 kEventWarpOp | kind, word 1 the place, word 2 the lane this lane read,
//            word 3 the lanes that met
//   barrier  two rows: word 0 kEventBarrier | tile warps | threads passed << 16, word 1 the
//            place, word 2 the departure's low 32 bits, word 3 the lanes that arrived together;
//            then the arrival (64 bits), the SM clock's cycles between them, and the SM | 1 << 31
// A meeting's time (%globaltimer's low 32 bits): every lane writes it at the same slot of
// lane_times (the host reads the lowest lane's): a warp's times are then one whole line, where the
// lowest lane's alone were 4 bytes of one (bench/gpu_lane_log_micro.cu, H200, matmul tiled 256²:
// 216 us with the lowest lane's times, 120 with every lane's). An access reads no clock: ptxas
// moves no instruction across a read of %globaltimer or %clock, so a read at each access kept
// the kernel's own loads from overlapping (the naive matmul's FFMA waited for each load before
// the next one was issued: SASS of bench/gpu_lane_product_micro.cu). On an H200 at 64² (µs a
// launch, the twenty-fifth session) the naive, tiled and tiled-2x2 matmuls' passes took 18.5,
// 12.4 and 23.5 with a time at each access, 11.6, 11.1 and 18.9 with none, and %clock in place of
// %globaltimer saved nothing. The host places a warp's accesses between the points it has times
// for: its start (lane_starts, LaneEntry), its meetings and barriers, and the pass's end
// (LaneLogToCapture). No record has words 0 and 3 both 0 (once the warp rows below are filled
// in), so that the host finds a column's end in the log it cleared before the pass
// (LaneLogCounts).
//
// A whole warp's access or meeting (its lanes all 32) is a warp row instead: its lanes' rows are
// left as cleared (their column moves on), each lane writes its word 2 alone at its slot of the
// warp's row in lane_offsets (the 32 lanes one 128-byte line) and lane 0 writes the head, word 0
// and word 1, the time (a meeting's; 0 for an access) and ~0u (never 0: the warp's rows end at the
// first head whose word 3 is), in lane_heads: 144 bytes a warp where its 32 rows were 512. A lane
// of a whole warp's access whose key is not lane 0's (one instruction on two buffers) writes a row
// of its own with kLaneWarpRow in word 0, and the warp row's word 2 at its slot is left unread. The
// rows' stores were the pass's whole cost: the lane unit's tiled matmul at 64², its records' stores
// left out, ran as fast as the plain kernel (5.0 against 5.0 us a launch), and with its 16-byte
// rows 13.6 us; a prototype of warp rows (4 bytes a lane and lane 0's head, no note, no cap test,
// no shuffle) 8.4, this form 12.9 (bench/gpu_lane_product_micro.cu, H200, twenty-third session). A
// warp's rows are counted apart (ws_lane_warp_next), only where all 32 lanes run the record (for a
// meeting its group and __activemask both all 32), so that the count is the warp's: a lane's k-th
// row before its column's end that is cleared, or its own with kLaneWarpRow, is the warp's k-th
// row, and the host fills the cleared ones in from there (LaneLogUnpackWarpRows) before it reads
// the lanes' columns.
//
// The lane's place in its column is kept in registers of the kernel's own, which PTX lets a
// kernel declare by name (WS_KERNEL_ENTRY, which the lesson form puts first in every lesson
// kernel's body, declares and sets them; every record after names them): its row 0's address
// (ws_lane_row0), its time slot's (ws_lane_time0), its count's (ws_lane_count), the number of its
// next row (ws_lane_next), whether it is lane 0 (ws_lane_lead), and for the warp's rows its
// slot of row 0's offsets (ws_lane_offset0), row 0's head (ws_lane_head0) and the number of the
// warp's next row (ws_lane_warp_next). Kept in shared memory before (the counter behind a tag,
// read and written at every record, with the thread's count stored to device memory each time), a
// record was some 50 instructions, and the tiled matmul's pass at 64² executed 33 times the plain
// kernel's instructions (Nsight Compute, H200).
// A record has no branch: the column's end is predicated, and the lane unit tests no mode. A load
// is issued before its record (detail::Loaded, ws_cuda_arrays.h). With the record a block of its
// own between branches, and before the load, the load waited for it, and a lesson of one warp an SM
// (the matmuls at 64²) paid every record's instructions in full. A lane past its rows writes
// nothing more and stores the rows it has needed so far in lane_counts[thread of the grid] (cleared
// before the pass), so that the host can run the pass again with room for them. A record made in a
// function the kernel did not inline names registers its PTX function does not declare: ptxas stops
// the build there.
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
#define WS_KERNEL_ENTRY ::ws::dev::LaneEntry(ws_recorder_state, __FILE__);
#else
static constexpr bool kLaneLogOnly = false;
#endif

__device__ __forceinline__ unsigned LaneTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<unsigned>(t);
}

// First in a lesson kernel's body (WS_KERNEL_ENTRY): declares the column's registers and points
// them at this lane's row 0 of its warp's rows, its time's slot there and its count; lane 0
// writes the warp's start and notes the kernel's file (`file`, its __FILE__) at the file's tag.
// That is the only note: a lesson's form is one file (its `#line` names it), whose literal nvcc
// keeps once in a unit (the lane unit's PTX: one string a lesson), so every record of the kernel
// names that tag; the host checks it (LaneLogUnnamedFile) and records the launch by the event
// roads where a record names another. A note at each record (a compare, a predicated store and
// a move) cost the naive matmul's pass at 64² 3.1 of its 13.6 us (H200, twenty-seventh session).
__device__ __forceinline__ void LaneEntry(const RecorderState& r, const char* file) {
  const unsigned long long warp = LinearWarp(r), warp_row0 = warp * r.lane_cap;
  if (LaneId() == 0) {
    r.lane_starts[warp] = LaneTime();
    r.files[RecorderFileTag(file)] = file;
  }
  const unsigned long long slot = warp_row0 * 32u + LaneId();
  const unsigned long long grid_thread = LinearBlock() * r.threads_per_block + LinearThread();
  asm volatile(
      ".reg .u64 ws_lane_row0, ws_lane_time0, ws_lane_count, ws_lane_offset0, ws_lane_head0;\n\t"
      ".reg .u32 ws_lane_next, ws_lane_warp_next;\n\t"
      ".reg .pred ws_lane_lead;\n\t"
      "mov.u32 ws_lane_next, %%laneid;\n\t"
      "setp.eq.u32 ws_lane_lead, ws_lane_next, 0;\n\t"
      "mov.u64 ws_lane_row0, %0;\n\t"
      "mov.u64 ws_lane_time0, %1;\n\t"
      "mov.u64 ws_lane_count, %2;\n\t"
      "mov.u64 ws_lane_offset0, %3;\n\t"
      "mov.u64 ws_lane_head0, %4;\n\t"
      "mov.u32 ws_lane_next, 0;\n\t"
      "mov.u32 ws_lane_warp_next, 0;" ::"l"(r.lane_rows + slot * 4u),
      "l"(r.lane_times + slot), "l"(r.lane_counts + grid_thread), "l"(r.lane_offsets + slot),
      "l"(r.lane_heads + warp_row0 * 4u));
}

// One record at the lane's next row, where it fits in its column: a row (and where `kTimed`, its
// time `t`; an access passes none, see above), or where
// `whole` (the whole warp runs this record and `d`, its lanes, are all 32) and `same` (the
// lane's words 0 and 1 are lane 0's), the lane's word 2 in the warp's next row and lane 0's head
// (above); where `whole` and not `same`, a row with kLaneWarpRow in word 0 (its warp row taken).
// The column moves on either way, and the warp's rows wherever `whole`, and a lane past its rows
// stores the rows it has needed so far (its next row) in its count. Addressed from the row's
// number, so that ptxas gets each address as one wide multiply-add (kept as addresses and added
// to, each was two adds and two moves into a register pair, nvcc 13, sm_90). No branch: a
// record is one block the compiler schedules with the kernel's own.
template <bool kTimed>
__device__ __forceinline__ void LaneRow(const RecorderState& r, unsigned a, unsigned b, unsigned c,
                                        unsigned d, unsigned t, unsigned whole, unsigned same) {
  // TIME_AT and TIME_STORE: a timed row's time slot and its store, empty for an access's.
#define WS_LANE_ROW(TIME_AT, TIME_STORE)                                  \
  asm volatile(                                                           \
      "{\n\t.reg .pred ok, whole, warp, mark, apart, lead;\n\t"           \
      ".reg .u64 row, time, offset, head;\n\t.reg .u32 w0;\n\t"           \
      "setp.lt.u32 ok, ws_lane_next, %5;\n\t"                             \
      "setp.ne.u32 whole, %6, 0;\n\t"                                     \
      "@whole add.u32 ws_lane_warp_next, ws_lane_warp_next, 1;\n\t"       \
      "setp.ne.and.u32 warp, %7, 0, whole;\n\t"                           \
      "and.pred mark, whole, !warp;\n\t"                                  \
      "or.b32 w0, %0, %8;\n\t"                                            \
      "selp.u32 w0, w0, %0, mark;\n\t"                                    \
      "mad.wide.u32 row, ws_lane_next, 512, ws_lane_row0;\n\t" TIME_AT    \
      "mad.wide.u32 offset, ws_lane_warp_next, 128, ws_lane_offset0;\n\t" \
      "mad.wide.u32 head, ws_lane_warp_next, 16, ws_lane_head0;\n\t"      \
      "add.u32 ws_lane_next, ws_lane_next, 1;\n\t"                        \
      "and.pred apart, ok, !warp;\n\t"                                    \
      "@apart st.global.v4.u32 [row], {w0, %1, %2, %3};\n\t" TIME_STORE   \
      "and.pred warp, warp, ok;\n\t"                                      \
      "@warp st.global.u32 [offset+-128], %2;\n\t"                        \
      "and.pred lead, ws_lane_lead, warp;\n\t"                            \
      "@lead st.global.v4.u32 [head+-16], {%0, %1, %4, %3};\n\t"          \
      "@!ok st.global.u32 [ws_lane_count], ws_lane_next;\n\t}" ::"r"(a),  \
      "r"(b), "r"(c), "r"(d), "r"(t), "r"(r.lane_cap), "r"(whole), "r"(same), "n"(kLaneWarpRow))
  if constexpr (kTimed) {
    WS_LANE_ROW("mad.wide.u32 time, ws_lane_next, 128, ws_lane_time0;\n\t",
                "@apart st.global.u32 [time], %4;\n\t");
  } else {
    WS_LANE_ROW("", "");
  }
#undef WS_LANE_ROW
}

__device__ __forceinline__ void LaneAccess(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset) {
  const unsigned active = __activemask();
  const auto lo = static_cast<unsigned>(key), hi = static_cast<unsigned>(key >> 32);
  // Lane 0's key's low word (the warp row's head), where the whole warp runs: a lane whose key is
  // another (lanes of one instruction on different buffers) writes a row of its own. The high
  // word is the place, the instruction's own, so the same in every lane that runs it together.
  unsigned same;
  asm volatile(
      "{\n\t.reg .u32 lo0;\n\t.reg .pred p;\n\t"
      "shfl.sync.idx.b32 lo0, %1, 0, 0x1f, %2;\n\t"
      "setp.eq.u32 p, lo0, %1;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(same)
      : "r"(lo), "r"(active));
  LaneRow<false>(r, lo, hi, offset, active, 0u, active == ~0u ? 1u : 0u, same);
}

// A loop's accesses as a pattern (the lesson form's, lesson_patterns.cpp): where a loop's body has
// no branch, barrier or call and every access's offset is affine in the loop's counter, the lesson
// form writes before the loop, in the lane unit alone, a head row (`trips`, the loop's count of
// passes, and `sites`, the accesses a pass makes) and a row for each access of a pass in the
// order the body makes them (its key, its offset in the first pass and what a pass adds to it),
// and the body's accesses record nothing there (ws::Unrecorded). LaneLogToCapture makes the rows
// the body would have written of them on the host (LaneLogPatterns checks them first). Why: a
// lesson's inner product loop is most of its rows (the tiled-2x2 matmul's lanes 256 of 308 at
// 64^2), and a row stored at each access was the lane log's whole cost (above). The head says
// `lanes`, those that reached the loop together (__activemask before the passes are counted: lanes
// that count different passes part in the counting loop; with no branch in the body they run every
// pass together), and their count of passes where every one of them counted the same, else ~0u (the
// host then records the launch by the event roads). They meet again first, so that the match sees
// all of them.
__device__ __forceinline__ void LanePatternHead(const RecorderState& r, unsigned trips,
                                                unsigned sites, unsigned lanes) {
  __syncwarp(lanes);
  int same = 0;
  (void)__match_all_sync(lanes, trips, &same);
  LaneRow<false>(r, kLanePattern, same != 0 ? trips : ~0u, sites, lanes, 0u, 0u, 0u);
}
__device__ __forceinline__ void LanePatternSite(const RecorderState& r, std::uint64_t key,
                                                std::uint32_t first, std::uint32_t second) {
  LaneRow<false>(r, static_cast<unsigned>(key) | kLanePattern, static_cast<unsigned>(key >> 32),
                 first, second - first, 0u, 0u, 0u);
}

__device__ __forceinline__ void LaneMeeting(const RecorderState& r, std::uint32_t kind,
                                            std::uint32_t place, unsigned group, unsigned source) {
  const unsigned t = LaneTime();
  LaneRow<true>(r, kEventWarpOp | kind, place, source, group, t,
                group == ~0u && __activemask() == ~0u ? 1u : 0u, 1u);
}

// After the barrier: `word0` the barrier event's word 0, the times as TimedBarrier took them.
// Two rows (no time slot of their own), both or neither. A lane that had one row left stores its
// count, and so does every later record of it (its next row is past its rows from then on): the
// host runs the pass again with room, and decodes no column of a pass where a lane ran out.
__device__ __forceinline__ void LaneBarrier(const RecorderState& r, std::uint32_t word0,
                                            std::uint32_t place, unsigned group,
                                            std::uint64_t arrival, std::uint64_t departure,
                                            unsigned cycles) {
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
