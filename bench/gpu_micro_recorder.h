// The recorder's state as the micro-benchmarks set it (bench/gpu_tally_micro.cu,
// bench/gpu_history_micro.cu): every warp's stream in a pool of its first chunks and 2^24 words
// more, as the backend's StartRecording points a pass at its arrays, and the pool's reset before
// each timed launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "gpu_micro_timing.h"  // Alloc
#include "warpscope/kernels/ws_cuda_device.h"
#include "ws_cuda_check.h"

// A recording pass's state over `warps` warps in blocks of `threads`, no tally, blocks 0-3 kept.
inline ws::dev::RecorderState MicroRecorder(std::size_t warps, unsigned threads) {
  ws::dev::RecorderState st{};
  st.mode = ws::dev::kRecord;
  st.threads_per_block = threads;
  st.warps_per_block = threads / 32;
  st.warp_state = Alloc<unsigned long long>(warps);
  st.pool_words = warps * ws::dev::kFirstChunkWords + (std::size_t{1} << 24);
  st.words = Alloc<unsigned>(st.pool_words);
  st.pool_next = Alloc<unsigned long long>(1);
  st.sm_state = Alloc<unsigned long long>(ws::dev::kSmSlots * ws::dev::kSmSlotStride);
  st.super_words = 1u << 18;
  st.max_chunk_class = 11;
  st.first_chunks = 1;
  st.overflow = Alloc<unsigned>(2);
  st.files = Alloc<const char*>(ws::dev::kDeviceFileTags);
  st.kept_base = 0;
  st.kept_last = 3;
  return st;
}

// The pool as a pass starts it (StartRecording): the warps' first chunks and states cleared, the
// super-chunks after the first chunks, the SMs' chunk states and the overflow flags cleared.
inline void ResetMicroRecorder(const ws::dev::RecorderState& st, std::size_t warps) {
  WS_CUDA_CHECK(cudaMemset(st.words, 0, warps * ws::dev::kFirstChunkWords * 4));
  WS_CUDA_CHECK(cudaMemset(st.warp_state, 0, warps * 8));
  const unsigned long long first_words = warps * ws::dev::kFirstChunkWords;
  WS_CUDA_CHECK(cudaMemcpy(st.pool_next, &first_words, 8, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemset(st.sm_state, 0, ws::dev::kSmSlots * ws::dev::kSmSlotStride * 8));
  WS_CUDA_CHECK(cudaMemset(st.overflow, 0, 8));
}
