// The bytes the GPU recorder writes and the host decodes (shared by ws_cuda_device.h and
// gpu_records.h; self-contained, C++17).
//
// Accesses are recorded per warp, not per thread: at each access the lanes that execute it
// together (and use the same site) write one event into their warp's range of 32-bit words:
//
//   word 0   site key bits 0..31, with kEventAffine set in bit 8 (keys leave bits 8..11 zero)
//   word 1   site key bits 32..63 (the place: file tag and line)
//   word 2   lane mask: the lanes the event covers (never 0)
//   word 3   %globaltimer's low 32 bits (ns), read once for the warp; the host unwraps it
//   affine:  word 4 the first lane's offset, word 5 the step between consecutive lanes of the
//            mask (offset of the k-th lane = word 4 + k * word 5, modulo 2^32)
//   else:    one offset per lane of the mask, lowest lane first
//
// At a warp-level intrinsic (__shfl_*_sync, votes) the lanes that met write a warp-op event:
// word 0 = kEventWarpOp | kind (WarpOpKind), word 1 the place, word 2 the lanes, word 3 the time,
// then 8 words holding one byte per lane: the lane it read (itself when it kept its own value).
//
// When lanes pass a __syncthreads() they write a barrier event (word 0 = kEventBarrier, word 1 the
// barrier's place, word 2 the lanes, word 3 the departure time; no offsets): the host counts
// them per lane to give every access its epoch, the number of barriers its thread had passed.
//
// A warp whose lanes read consecutive floats writes 24 bytes instead of 32 x 16: that is what
// keeps a recorded stride-copy within a few times its uninstrumented time. Barriers stay one
// record per thread (arrival and departure differ between threads).
#pragma once

#include <cstdint>

namespace ws::dev {

inline constexpr std::uint32_t kEventAffine = 1u << 8;
inline constexpr std::uint32_t kEventBarrier = 1u << 9;
inline constexpr std::uint32_t kEventWarpOp = 1u << 10;
inline constexpr std::uint32_t kEventHeaderWords = 4;
inline constexpr std::uint32_t kAffineEventWords = kEventHeaderWords + 2;
// A warp-level intrinsic's meeting: the header, then 32 bytes, the lane each lane read.
inline constexpr std::uint32_t kWarpOpEventWords = kEventHeaderWords + 8;

struct RawBarrier {          // 32 bytes, one per thread and barrier
  std::uint64_t arrival_ns;  // %globaltimer
  std::uint64_t departure_ns;
  std::uint32_t place;        // MakePlace(file tag, line) of the __syncthreads()
  std::uint32_t sm;           // %smid
  std::uint32_t wait_cycles;  // clock64() at departure - at arrival (the SM's own clock)
  std::uint32_t unused;
};

enum RecorderMode : int { kOff = 0, kCount = 1, kRecord = 2 };

struct RecorderState {
  int mode;
  unsigned int threads_per_block;
  unsigned int warps_per_block;
  unsigned long long* warp_cursor;      // [warp]: words counted (pass 1) or reserved (pass 2)
  const unsigned long long* warp_base;  // [warp + 1]: each warp's word range
  unsigned int* words;
  unsigned long long* barrier_cursor;      // [thread]: count (pass 1) or next slot (pass 2)
  const unsigned long long* barrier_base;  // [thread + 1]
  RawBarrier* barriers;
  unsigned int* overflow;  // set to 1 when a range was too small (nothing past it is written)
  // [65536]: the file literal each device file tag stands for (RecorderFileTag in
  // ws_cuda_keys.h), written on the counting pass.
  const char** files;
};

inline constexpr unsigned int kDeviceFileTags = 1u << 16;

}  // namespace ws::dev
