// The lane unit's own code on the matmul lessons, timed beside their plain kernels, with nvcc
// alone (seconds, where the product's GPU build takes six minutes): the lessons' kernels in
// their lesson form (the rewriter's output for kernels/lessons/matmul/matmul.cuh, named by
// WS_LESSON_FORM) compiled as lessons_cuda_lane*.cu compile them (WS_RECORD_BUILD and
// WS_LANE_LOG_BUILD: every access a record of the lane log, ws_cuda_lane_log.h), and the same
// lessons as plain CUDA. bench/gpu_lane_log_micro.cu rebuilds the record by hand; this one runs
// the product's. Then one more pass of the tiled-2x2 lesson into a cleared log, read back and
// joined as the backend joins it (gpu_lane_log.cpp): every lane's rows and no error, a check of
// the device's layout against the host's reading of it on a real GPU.
// A folder named first on the include path (-I) with its own warpscope/kernels/ws_cuda_lane_log.h
// times another form of the record on the same kernels (bench/gpu_lane_product_micro.sh builds
// and runs them, WS_LANE_VARIANTS). What it found (H200, twenty-third session, docs/GPU.md): the
// tiled matmul's pass at 64² took 13.6 us a launch with 16-byte rows, 13.4 with nothing but one
// row's store a record, 5.0 (the plain kernel's time) with every instruction of the record but
// its stores, and 8.4 with a whole warp's record as one 4-byte word a lane and lane 0's 16 bytes.
// Usage: gpu_lane_product_micro [REPEATS] [WIDTH] [ROWS]; one line a case, as
// gpu_lane_log_micro's.
#define WS_RECORD_BUILD 1
#define WS_LANE_LOG_BUILD 1
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu_micro_timing.h"
#include "ws_cuda_check.h"

// The plain kernels first, before ws_cuda.h makes __syncthreads() a record.
namespace plain {
#include "../kernels/lessons/matmul/matmul.cuh"
}  // namespace plain

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda.h"

#if !defined(WS_LESSON_FORM)
#error "-DWS_LESSON_FORM=\"path of the matmul lesson's lesson form\""
#endif
#include WS_LESSON_FORM

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 31;
  const int width = argc > 2 ? std::atoi(argv[2]) : 64;
  const std::size_t n = std::size_t(width) * width;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17) * 0.25f;
  float *md = nullptr, *nd = nullptr, *pd = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&md, n * 4));
  WS_CUDA_CHECK(cudaMalloc(&nd, n * 4));
  WS_CUDA_CHECK(cudaMalloc(&pd, n * 4));
  WS_CUDA_CHECK(cudaMemcpy(md, host.data(), n * 4, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemcpy(nd, host.data(), n * 4, cudaMemcpyHostToDevice));
  // Room for every lane's rows (the tiled-2x2 lesson's lanes need 308 at 64²): the backend's
  // second pass, after a first with 256 rows a lane (cuda_backend_lane_log.h), has as many.
  const unsigned cap = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 320;
  const std::size_t threads = n, warps = threads / 32, slots = warps * 32 * cap;
  unsigned *rows = nullptr, *times = nullptr, *counts = nullptr;
  const char** files = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&rows, slots * 16));
  WS_CUDA_CHECK(cudaMalloc(&times, slots * 4));
  WS_CUDA_CHECK(cudaMalloc(&counts, threads * 4));
  WS_CUDA_CHECK(cudaMalloc(&files, sizeof(char*) * ws::dev::kDeviceFileTags));
  unsigned *heads_d = nullptr, *offsets_d = nullptr, *starts_d = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&heads_d, warps * cap * 16));
  WS_CUDA_CHECK(cudaMalloc(&starts_d, warps * 4));
  WS_CUDA_CHECK(cudaMalloc(&offsets_d, slots * 4));
  WS_CUDA_CHECK(cudaMemset(rows, 0, slots * 16));
  WS_CUDA_CHECK(cudaMemset(counts, 0, threads * 4));
  ws::dev::RecorderState st{};
  st.mode = ws::dev::kRecord;
  st.threads_per_block = 256;
  st.warps_per_block = 8;
  st.files = files;
  st.lane_rows = rows;
  st.lane_times = times;
  st.lane_counts = counts;
  st.lane_cap = cap;
  st.lane_heads = heads_d;
  st.lane_offsets = offsets_d;
  st.lane_starts = starts_d;
  WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
  const ws::Global<const float> m(md, n, 1), nn(nd, n, 2);
  const ws::Global<float> p(pd, n, 3);
  float batch = 0, one = 0;
  const dim3 b16(16, 16), g16(width / 16, width / 16), g32(width / 32, width / 32);
  std::printf("== matmul %d², blocks of 16 x 16; plain, then the lane unit's code\n", width);
  Time(
      "naive, plain", [&] { plain::MatrixMulKernel<<<g16, b16>>>(md, nd, pd, width); }, repeats,
      &batch, &one);
  Time(
      "naive, lane log", [&] { MatrixMulKernel<<<g16, b16>>>(m, nn, p, width); }, repeats, &batch,
      &one);
  batch = one = 0;
  Time(
      "tiled 16, plain", [&] { plain::MatrixMulTiled<16><<<g16, b16>>>(md, nd, pd, width); },
      repeats, &batch, &one);
  Time(
      "tiled 16, lane log", [&] { MatrixMulTiled<16><<<g16, b16>>>(m, nn, p, width); }, repeats,
      &batch, &one);
  batch = one = 0;
  Time(
      "tiled-2x2 16, plain", [&] { plain::MatrixMulTiled2x2<16><<<g32, b16>>>(md, nd, pd, width); },
      repeats, &batch, &one);
  Time(
      "tiled-2x2 16, lane log", [&] { MatrixMulTiled2x2<16><<<g32, b16>>>(m, nn, p, width); },
      repeats, &batch, &one);
  // One more pass of the tiled-2x2 lesson into a cleared log, read back and joined as the
  // backend joins it (LaneLogUnpackWarpRows, LaneLogCounts, LaneLogToCapture): every lane's rows,
  // and no error.
  WS_CUDA_CHECK(cudaMemset(rows, 0, slots * 16));
  WS_CUDA_CHECK(cudaMemset(heads_d, 0, warps * cap * 16));
  WS_CUDA_CHECK(cudaMemset(counts, 0, threads * 4));
  MatrixMulTiled2x2<16><<<g32, b16>>>(m, nn, p, width);
  WS_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> words(slots * 4), time_words(slots), heads(warps * cap * 4), offsets(slots),
      counts_back(threads), starts(warps);
  WS_CUDA_CHECK(cudaMemcpy(words.data(), rows, slots * 16, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(time_words.data(), times, slots * 4, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(heads.data(), st.lane_heads, warps * cap * 16, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(offsets.data(), st.lane_offsets, slots * 4, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(counts_back.data(), counts, threads * 4, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(starts.data(), starts_d, warps * 4, cudaMemcpyDeviceToHost));
  unsigned most = 0;
  for (unsigned v : counts_back) most = v > most ? v : most;
  std::printf("rows a lane needed past the log's %u: %u (0: every record fitted)\n", cap, most);
  const std::string unpacked =
      ws::LaneLogUnpackWarpRows(&words, &time_words, heads, offsets, cap, 256, warps);
  const std::vector<unsigned> lane_rows = ws::LaneLogCounts(words, cap, 256, warps);
  // The tiled-2x2 lesson at WIDTH: per tile 8 accesses, 2 barriers of 2 rows and 4 x 16 loads,
  // then 4 stores.
  const unsigned want = static_cast<unsigned>(width / 16) * (8 + 4 + 64) + 4;
  const std::size_t launched = std::size_t{g32.x} * g32.y * 256;  // the pass's threads, first
  std::size_t right = 0;
  for (std::size_t i = 0; i < launched; ++i) right += lane_rows[i] == want;
  ws::GpuCapture capture;
  // The pass's time: the plain kernel's alone (us, Time's) stands for it; only the accesses'
  // placed times use it, and the join's check does not read them.
  const std::string error =
      unpacked.empty() ? ws::LaneLogToCapture(words, time_words, cap, lane_rows, 256, warps, starts,
                                              static_cast<std::uint64_t>(one * 1e3), &capture)
                       : unpacked;
  std::printf(
      "the tiled-2x2 pass's log: %zu of %zu lanes with the %u rows a lane writes; %zu "
      "words of events; %s\n",
      right, launched, want, capture.words.size(),
      error.empty() ? "joined with no error" : error.c_str());
  return 0;
}
