// The lane log: a small launch's recording pass where every lane writes its own record of each
// access, barrier and warp meeting, with no vote, shuffle or atomic on the warp's path (a whole
// warp's record kept in registers and written in batches, below), and the host groups a warp's lanes into its
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
// A whole warp's access or meeting (its lanes all 32: __activemask, and for a meeting its group)
// is a warp row instead: the lanes' own rows are left as cleared (the column moves on), and the
// warp's j-th such row (ws_lane_warp_next, the same in every lane, since each lane of the warp
// ran each) is kept in registers and written in batches:
//   word 2   each lane keeps its last four in ws_b0..ws_b3 and writes them as one 16-byte store
//            at every fourth (lane l's words 2 of warp rows 4g..4g+3 at words [g * 128 + l * 4,
//            +4) of the warp's part of lane_offsets): 512 bytes a warp for four rows;
//   words 0, 1 (the key, or a meeting's kind and place) striped over the lanes: lane l keeps warp
//            row j's where j mod 32 is l (ws_s0, ws_s1), and all write theirs at every 32nd
//            (warp row j's at words [2j, 2j + 2) of the warp's part of lane_heads, 32 rows'
//            words one 256-byte store);
//   word 3   ~0u (the whole warp), left to the host; a meeting's time at the lane's own row's slot
//            of lane_times, as a row of its own (every lane's).
// The stripe holds lane l's words, not lane 0's: each lane also hashes its own words 0 and 1 of
// every warp row (ws_lane_hash, LaneWarpRowHash), and at the kernel's end (LaneScope) writes the
// hash and its count of warp rows in lane_ends, with the rest of its batch and stripe. The host
// rebuilds the warp rows from the stripe, hashes them and compares each lane's hash
// (LaneLogUnpackWarpRows): a lane whose words were not its warp's (one instruction on two
// buffers: lanes of one access with two keys) makes the launch go the event roads. Why: every
// record's stores were the pass's cost. Measured on an H200 (bench/gpu_lane_product_micro.cu,
// naive / tiled / tiled-2x2 matmuls at 64², us a launch): the lanes' own 16-byte rows 17.4 / 13.7
// / 23.0; a warp row of the word 2 a lane (a 4-byte store) and lane 0's 16-byte head, after a
// shuffle of lane 0's key, 10.2 / 9.6 / 16.3 (twenty-eighth session); the word 2 batched four at
// a time with lane 0's keys stored two at a time 8.8 / 7.9 / 12.7, and without the keys' stores
// 9.3 / 6.9 / 9.7: lane 0's store costs an issue as a whole warp's does, so the keys are striped
// over the lanes (one 8-byte store a lane every 32 rows) and checked by the hash, not shuffled.
// A lane's count of rows, where it ran past its rows, is written at the end too (LaneScope), not
// at each record.
// The lane's place in its column is kept in registers of the kernel's own, which PTX lets a
// kernel declare by name (WS_KERNEL_ENTRY, which the lesson form puts first in every lesson
// kernel's body, declares and sets them; every record after names them): its row 0's address
// (ws_lane_row0), its time slot's (ws_lane_time0), its count's (ws_lane_count), the number of its
// next row (ws_lane_next), its lane (ws_lane_id), and for the warp's rows its slot of their word
// 2 (ws_lane_offset0) and of the stripe (ws_lane_head0), the number of the warp's next row
// (ws_lane_warp_next), the batch and the stripe (above), the hash (ws_lane_hash) and where the
// end goes (ws_lane_end). Kept in shared memory before (the counter behind a tag, read and written
// at every record, with the thread's count stored to device memory each time), a record was some
// 50 instructions, and the tiled matmul's pass at 64² executed 33 times the plain kernel's
// instructions (Nsight Compute, H200).
// A record has no branch: the column's end is predicated, and the lane unit tests no mode. A load
// is issued before its record (detail::Loaded, ws_cuda_arrays.h). With the record a block of its
// own between branches, and before the load, the load waited for it, and a lesson of one warp an SM
// (the matmuls at 64²) paid every record's instructions in full. A lane past its rows writes
// nothing more, and at its end stores the rows it has needed in lane_counts[thread of the grid]
// (cleared before the pass), so that the host can run the pass again with room for them. A record
// made in a function the kernel did not inline names registers its PTX function does not declare:
// ptxas stops the build there.
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
#define WS_KERNEL_ENTRY ::ws::dev::LaneScope ws_lane_scope(ws_recorder_state, __FILE__);
#else
static constexpr bool kLaneLogOnly = false;
#endif

__device__ __forceinline__ unsigned LaneTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<unsigned>(t);
}

// First in a lesson kernel's body (WS_KERNEL_ENTRY): declares the column's registers and points
// them at this lane's row 0 of its warp's rows, its time's slot there, its count, its slots of the
// warp rows and its end; lane 0 writes the warp's start and notes the kernel's file (`file`, its
// __FILE__) at the file's tag. That is the only note: a lesson's form is one file (its `#line`
// names it), whose literal nvcc keeps once in a unit (the lane unit's PTX: one string a lesson),
// so every record of the kernel names that tag; the host checks it (LaneLogUnnamedFile) and
// records the launch by the event roads where a record names another. A note at each record (a
// compare, a predicated store and a move) cost the naive matmul's pass at 64² 3.1 of its 13.6 us
// (H200, twenty-seventh session). Its destructor, at every return of the kernel, ends the
// lane's log (LaneEnd).
__device__ __forceinline__ void LaneEntry(const RecorderState& r, const char* file) {
  const unsigned long long warp = LinearWarp(r), warp_row0 = warp * r.lane_cap;
  if (LaneId() == 0) {
    r.lane_starts[warp] = LaneTime();
    r.files[RecorderFileTag(file)] = file;
  }
  const unsigned long long slot = warp_row0 * 32u + LaneId();
  const unsigned long long grid_thread = LinearBlock() * r.threads_per_block + LinearThread();
  asm volatile(
      ".reg .u64 ws_lane_row0, ws_lane_time0, ws_lane_count, ws_lane_offset0, ws_lane_head0, "
      "ws_lane_end;\n\t"
      ".reg .u32 ws_lane_next, ws_lane_warp_next, ws_lane_id, ws_lane_hash, ws_b0, ws_b1, ws_b2, "
      "ws_b3, ws_s0, ws_s1;\n\t"
      "mov.u32 ws_lane_id, %%laneid;\n\t"
      "mov.u64 ws_lane_row0, %0;\n\t"
      "mov.u64 ws_lane_time0, %1;\n\t"
      "mov.u64 ws_lane_count, %2;\n\t"
      "mov.u64 ws_lane_offset0, %3;\n\t"
      "mov.u64 ws_lane_head0, %4;\n\t"
      "mov.u64 ws_lane_end, %5;\n\t"
      "mov.u32 ws_lane_next, 0;\n\t"
      "mov.u32 ws_lane_warp_next, 0;\n\t"
      "mov.u32 ws_lane_hash, 0;\n\t"
      "mov.u32 ws_b0, 0;\n\tmov.u32 ws_b1, 0;\n\tmov.u32 ws_b2, 0;\n\tmov.u32 ws_b3, 0;\n\t"
      "mov.u32 ws_s0, 0;\n\tmov.u32 ws_s1, 0;" ::"l"(r.lane_rows + slot * 4u),
      "l"(r.lane_times + slot), "l"(r.lane_counts + grid_thread),
      "l"(r.lane_offsets + warp_row0 * 32u + LaneId() * 4u),
      "l"(r.lane_heads + (warp_row0 + LaneId()) * 2u), "l"(r.lane_ends + (warp * 32u + LaneId()) * 2u));
}

// The end of a lane's log, at every return of its kernel (LaneScope): the batch's last words 2
// (the warp rows past the last multiple of 4, at their group's first words) and the stripe's (past
// the last multiple of 32), where the lane had room for them; its hash and its count of warp rows
// (lane_ends); and where the lane ran past its rows, the rows it needed (lane_counts).
__device__ __forceinline__ void LaneEnd(const RecorderState& r) {
  asm volatile(
      "{\n\t.reg .pred one, two, some, part, past;\n\t.reg .u64 at;\n\t.reg .u32 i, x0, x1;\n\t"
      "and.b32 i, ws_lane_warp_next, 3;\n\t"
      "setp.eq.u32 one, i, 1;\n\t"
      "setp.eq.u32 two, i, 2;\n\t"
      "selp.b32 x0, ws_b2, ws_b1, two;\n\t"
      "selp.b32 x0, ws_b3, x0, one;\n\t"
      "selp.b32 x1, ws_b3, ws_b2, two;\n\t"
      "setp.ne.u32 some, i, 0;\n\t"
      "setp.le.and.u32 some, ws_lane_warp_next, %0, some;\n\t"
      "shr.u32 i, ws_lane_warp_next, 2;\n\t"
      "mad.wide.u32 at, i, 512, ws_lane_offset0;\n\t"
      "@some st.global.v4.u32 [at], {x0, x1, ws_b3, 0};\n\t"
      "and.b32 i, ws_lane_warp_next, 31;\n\t"
      "setp.ne.u32 part, i, 0;\n\t"
      "setp.le.and.u32 part, ws_lane_warp_next, %0, part;\n\t"
      "shr.u32 i, ws_lane_warp_next, 5;\n\t"
      "mad.wide.u32 at, i, 256, ws_lane_head0;\n\t"
      "@part st.global.v2.u32 [at], {ws_s0, ws_s1};\n\t"
      "st.global.v2.u32 [ws_lane_end], {ws_lane_hash, ws_lane_warp_next};\n\t"
      "setp.gt.u32 past, ws_lane_next, %0;\n\t"
      "@past st.global.u32 [ws_lane_count], ws_lane_next;\n\t}" ::"r"(r.lane_cap));
}

// WS_KERNEL_ENTRY's object: the log's start where it is made, its end (LaneEnd) wherever the
// kernel returns.
struct LaneScope {
  const RecorderState& r;
  __device__ __forceinline__ LaneScope(const RecorderState& state, const char* file) : r(state) {
    LaneEntry(r, file);
  }
  __device__ __forceinline__ ~LaneScope() { LaneEnd(r); }
  LaneScope(const LaneScope&) = delete;
  LaneScope& operator=(const LaneScope&) = delete;
};

// One record at the lane's next row, where it fits in its column: a row (and where `kTimed`, its
// time `t`, at the row's slot of lane_times; an access passes none, see above), or where `whole`
// (the whole warp runs this record and `d`, its lanes, are all 32) the warp's next row: word 2 `c`
// into the batch (written at every fourth), words 0 and 1 into the stripe where the row's number
// is the lane's modulo 32 (written at every 32nd) and into the hash (LaneWarpRowHash's steps: the
// host's must be these). The column moves on either way, and the warp's rows wherever `whole`.
// Addressed from the row's number, so that ptxas gets each address as one wide multiply-add
// (kept as addresses and added to, each was two adds and two moves into a register pair, nvcc
// 13, sm_90). No branch: a record is one block the compiler schedules with the kernel's own.
template <bool kTimed>
__device__ __forceinline__ void LaneRow(const RecorderState& r, unsigned a, unsigned b, unsigned c,
                                        unsigned d, unsigned t, unsigned whole) {
  // TIME_STORE: a timed row's time store (every lane's, in room), empty for an access's.
#define WS_LANE_ROW(TIME_STORE)                                         \
  asm volatile(                                                         \
      "{\n\t.reg .pred ok, whole, apart, mine, four, full;\n\t"         \
      ".reg .u64 row, time, offset, stripe;\n\t.reg .u32 i, h;\n\t"     \
      "setp.lt.u32 ok, ws_lane_next, %5;\n\t"                           \
      "setp.ne.u32 whole, %6, 0;\n\t"                                   \
      "selp.b32 ws_b0, ws_b1, ws_b0, whole;\n\t"                        \
      "selp.b32 ws_b1, ws_b2, ws_b1, whole;\n\t"                        \
      "selp.b32 ws_b2, ws_b3, ws_b2, whole;\n\t"                        \
      "selp.b32 ws_b3, %2, ws_b3, whole;\n\t"                           \
      "and.b32 i, ws_lane_warp_next, 31;\n\t"                           \
      "setp.eq.and.u32 mine, i, ws_lane_id, whole;\n\t"                 \
      "selp.b32 ws_s0, %0, ws_s0, mine;\n\t"                            \
      "selp.b32 ws_s1, %1, ws_s1, mine;\n\t"                            \
      "setp.eq.and.u32 full, i, 31, whole;\n\t"                         \
      "and.b32 i, ws_lane_warp_next, 3;\n\t"                            \
      "setp.eq.and.u32 four, i, 3, whole;\n\t"                          \
      "xor.b32 h, ws_lane_hash, %0;\n\t"                                \
      "mul.lo.u32 h, h, 16777619;\n\t"                                  \
      "xor.b32 h, h, %1;\n\t"                                           \
      "mul.lo.u32 h, h, 16777619;\n\t"                                  \
      "selp.b32 ws_lane_hash, h, ws_lane_hash, whole;\n\t"              \
      "shr.u32 i, ws_lane_warp_next, 2;\n\t"                            \
      "mad.wide.u32 offset, i, 512, ws_lane_offset0;\n\t"               \
      "shr.u32 i, ws_lane_warp_next, 5;\n\t"                            \
      "mad.wide.u32 stripe, i, 256, ws_lane_head0;\n\t"                 \
      "@whole add.u32 ws_lane_warp_next, ws_lane_warp_next, 1;\n\t"     \
      "mad.wide.u32 row, ws_lane_next, 512, ws_lane_row0;\n\t"          \
      "mad.wide.u32 time, ws_lane_next, 128, ws_lane_time0;\n\t"        \
      "add.u32 ws_lane_next, ws_lane_next, 1;\n\t"                      \
      "and.pred apart, ok, !whole;\n\t"                                 \
      "@apart st.global.v4.u32 [row], {%0, %1, %2, %3};\n\t" TIME_STORE \
      "and.pred four, four, ok;\n\t"                                    \
      "@four st.global.v4.u32 [offset], {ws_b0, ws_b1, ws_b2, ws_b3};\n\t" \
      "and.pred full, full, ok;\n\t"                                    \
      "@full st.global.v2.u32 [stripe], {ws_s0, ws_s1};\n\t}" ::"r"(a), \
      "r"(b), "r"(c), "r"(d), "r"(t), "r"(r.lane_cap), "r"(whole))
  if constexpr (kTimed) {
    WS_LANE_ROW("@ok st.global.u32 [time], %4;\n\t");
  } else {
    WS_LANE_ROW("");
  }
#undef WS_LANE_ROW
}

__device__ __forceinline__ void LaneAccess(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset) {
  const unsigned active = __activemask();
  LaneRow<false>(r, static_cast<unsigned>(key), static_cast<unsigned>(key >> 32), offset, active,
                 0u, active == ~0u ? 1u : 0u);
}

__device__ __forceinline__ void LaneMeeting(const RecorderState& r, std::uint32_t kind,
                                            std::uint32_t place, unsigned group, unsigned source) {
  const unsigned t = LaneTime();
  LaneRow<true>(r, kEventWarpOp | kind, place, source, group, t,
                group == ~0u && __activemask() == ~0u ? 1u : 0u);
}

// After the barrier: `word0` the barrier event's word 0, the times as TimedBarrier took them.
// Two rows (no time slot of their own), both or neither. A lane that had one row left writes
// neither and runs past its rows (its count at its end): the host runs the pass again with room,
// and decodes no column of a pass where a lane ran out.
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
      "@ok st.global.v4.u32 [row+-512], {%4, %5, %6, %7};\n\t}" ::"r"(word0),
      "r"(place), "r"(static_cast<unsigned>(departure)), "r"(group),
      "r"(static_cast<unsigned>(arrival)), "r"(static_cast<unsigned>(arrival >> 32)), "r"(cycles),
      "r"(SmId() | 0x80000000u), "r"(r.lane_cap));
}

}  // namespace ws::dev
