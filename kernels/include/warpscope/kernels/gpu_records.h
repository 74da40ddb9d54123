// Host side of GPU recording: turns the raw buffers a recording pass filled (per-warp access
// events and per-thread barrier records, see ws_cuda_record_format.h) into a LaunchTrace with
// the same site table, records and analyses as the emulator's. No CUDA here, so it is tested
// without a GPU.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpscope/kernels/ws_cuda_record_format.h"
#include "warpscope/trace/launch.h"

namespace ws {

struct GpuCapture {
  std::string kernel;
  Dim3 grid, block;
  std::uint32_t shared_bytes = 0;
  std::vector<BufferInfo> buffers;
  // Access events: warp w owns words [warp_base[w], warp_base[w + 1]) and filled the first
  // warp_used[w] of them (more when it overflowed: the events that did not fit are missing).
  std::vector<std::uint32_t> words;
  std::vector<std::uint64_t> warp_base, warp_used;
  // Barrier records: thread g owns slots [barrier_base[g], barrier_base[g + 1]).
  std::vector<dev::RawBarrier> barriers;
  std::vector<std::uint64_t> barrier_base, barrier_used;
  bool overflowed = false;
  // The file names the GPU's file tags stand for (RecorderFileTag in ws_cuda_keys.h); the decoder
  // gives sites and barriers FileTag(name) instead. Tags not listed are kept as they are.
  std::map<std::uint16_t, std::string> device_files;
};

struct KeepBlocks {
  std::vector<std::uint32_t> blocks;  // full records kept for these
  bool all = false;
};

// Decodes `capture`: every block is analysed, the kept ones keep their records. A warp's events
// are read up to the first that does not fit its range or covers no lane (unwritten words are
// zero), so a short or overflowing range loses only its tail, and `truncated` says so.
LaunchTrace DecodeGpuCapture(const GpuCapture& capture, const KeepBlocks& keep);

// Appends one event to `words` as the GPU would write it (affine when the offsets allow it);
// returns the number of words. For tests of the decoder and the benchmark's arithmetic.
std::uint32_t EncodeWarpEvent(std::uint64_t key, std::uint32_t lane_mask, std::uint32_t time,
                              const std::vector<std::uint32_t>& lane_offsets,
                              std::vector<std::uint32_t>* words);
// Appends the event the lanes of `lane_mask` write when they meet at a warp-level intrinsic of
// `kind` (WarpOpKind) at `place`; source[l]: the lane lane l read.
std::uint32_t EncodeWarpOpEvent(std::uint32_t kind, std::uint32_t place, std::uint32_t lane_mask,
                                std::uint32_t time, const std::uint8_t (&source)[32],
                                std::vector<std::uint32_t>* words);
// Appends the event the lanes of `lane_mask` write when they pass the barrier at `place`.
std::uint32_t EncodeBarrierEvent(std::uint32_t place, std::uint32_t lane_mask, std::uint32_t time,
                                 std::vector<std::uint32_t>* words);

}  // namespace ws
