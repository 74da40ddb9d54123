// CudaBackend's lane log (cuda_backend.h includes this; include that one): a small lesson launch's
// recording pass in which every lane writes its own records (ws_cuda_lane_log.h), read back and
// joined into the warps' events on the host (LaneLogToCapture). Called by Record
// (cuda_backend_record.h) before the other roads.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "warpscope/kernels/cuda_backend.h"

namespace ws {

// Records a lesson's launch by the lane log (ws_cuda_lane_log.h, a lane unit's build) where its
// log fits: first with kLaneLogRows rows a lane, then, where a lane needed more, once more with
// the rows the largest count says (every pass from the launch's starting memory, `pass`'s). Fills
// `c`'s events, its files' names and capture_.record_ms and returns true; false where the log does
// not fit or a record names a file its kernel did not note (later launches of the kernel with the
// same grid and block then go the event roads at once) or cannot be had, with status_ untouched
// unless CUDA failed or the records did not fit together (a bug: the run stops and says so, rather
// than hide it behind the other road).
template <typename Pass>
bool CudaBackend::RecordLaneLog(const std::string& kernel, Dim3 grid, Dim3 block,
                                dev::RecorderState st, Pass& pass, GpuCapture* c) {
  const std::uint64_t threads = grid.count() * block.count();
  const std::uint32_t wpb = static_cast<std::uint32_t>((block.count() + 31) / 32);
  const std::uint64_t warps = grid.count() * wpb;
  // Its slots (4 words of record, one of time and one of a warp row's offsets each), the warp
  // rows' heads (4 words a warp a row), each thread's count and each warp's start.
  auto bytes = [&](std::uint64_t rows) {
    return warps * rows * (32 * 24 + 16) + threads * 4 + warps * 4;
  };
  // A launch shape whose log did not fit before (or named a file its kernel did not note) goes the
  // event roads at once.
  std::string shape = kernel;
  for (std::uint32_t d : {grid.x, grid.y, grid.z, block.x, block.y, block.z}) {
    shape += ' ';  // not " " + std::to_string(d): GCC 12's -Wrestrict false alarm (-Werror)
    shape += std::to_string(d);
  }
  if (!options_.gpu_lane_log || !next_shadow_launcher_ || keep_none_ || grid_synced_ ||
      lane_log_too_large_.count(shape) != 0 || warps * 32 * kLaneLogRows > kLaneLogSlots ||
      bytes(kLaneLogRows) > options_.record_budget_bytes)
    return false;
  // Last, the lane units' builds' own limits (their registers: LaneBuildFor asks the runtime). The
  // launch (WS_LAUNCH_OTHER_UNIT) runs the build chosen here (lane_build()).
  lane_build_ = LaneBuildFor(next_lane_kernels_, grid.count(), dim3(block.x, block.y, block.z),
                             dynamic_bytes_);
  if (lane_build_.handle == nullptr) return false;
  st.mode = dev::kRecord;
  std::uint64_t rows = kLaneLogRows;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::uint64_t slots = warps * 32 * rows;
    unsigned int *rows_d = nullptr, *times_d = nullptr, *counts_d = nullptr, *heads_d = nullptr,
                 *offsets_d = nullptr, *starts_d = nullptr;
    auto free_log = [&] {
      for (void* p : {static_cast<void*>(rows_d), static_cast<void*>(times_d),
                      static_cast<void*>(counts_d), static_cast<void*>(heads_d),
                      static_cast<void*>(offsets_d), static_cast<void*>(starts_d)})
        if (p != nullptr) cudaFreeAsync(p, 0);
    };
    if (cudaMallocAsync(reinterpret_cast<void**>(&rows_d), slots * 16, 0) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&times_d), slots * 4, 0) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&counts_d), threads * 4, 0) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&heads_d), warps * rows * 16, 0) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&offsets_d), slots * 4, 0) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&starts_d), warps * 4, 0) != cudaSuccess) {
      (void)cudaGetLastError();  // no room on this GPU: the event roads
      free_log();
      return false;
    }
    st.lane_rows = rows_d;
    st.lane_times = times_d;
    st.lane_counts = counts_d;
    st.lane_cap = static_cast<unsigned int>(rows);
    st.lane_heads = heads_d;
    st.lane_offsets = offsets_d;
    st.lane_starts = starts_d;
    // One pass into the log: its rows and the warp rows' heads cleared (a column ends at its
    // first row whose words 0 and 3 are zero, once its warp rows are in: LaneLogUnpackWarpRows,
    // LaneLogCounts) and the counts too (a lane past its rows writes what it needed).
    auto logged = [&] {
      Keep(WS_CUDA(cudaMemsetAsync(rows_d, 0, slots * 16, 0)));
      Keep(WS_CUDA(cudaMemsetAsync(heads_d, 0, warps * rows * 16, 0)));
      Keep(WS_CUDA(cudaMemsetAsync(counts_d, 0, threads * 4, 0)));
      return pass(st).first;
    };
    std::vector<std::uint32_t> counts(threads);
    auto most_needed = [&]() -> std::uint64_t {  // the most rows a lane past its rows needed
      Keep(WS_CUDA(cudaMemcpy(counts.data(), counts_d, threads * 4, cudaMemcpyDeviceToHost)));
      return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    };
    // Timed warm, as the plain build is after its warm-up (TimeLaunch): a kernel's first launch
    // costs more than its later ones (bench/gpu_first_launch_micro.cu, H200: 5-19 us, the most
    // for the most code), not recording's cost. A first pass that fitted its log runs again and
    // the second is timed. WS_GPU_WARM_PASS=0: the first is timed.
    double ms = logged();
    std::uint64_t needed = most_needed();
    bool warm = false;
    if (warm_pass_ && attempt == 0 && needed == 0 && status_.ok()) {
      ms = logged();
      needed = most_needed();
      warm = true;
    }
    if (!status_.ok()) {
      free_log();
      return false;
    }
    if (needed == 0) {
      // The rows the lanes used, warp by warp: the first `most` of each warp's `rows`, read back
      // with `most` doubled from 16 until a column ends within it (the whole log would be 103 MB
      // for the copy lesson's 16,384 threads, where they use 2 rows of 256).
      std::vector<std::uint32_t> words, times, heads, offsets, starts(warps);
      Keep(WS_CUDA(cudaMemcpy(starts.data(), starts_d, warps * 4, cudaMemcpyDeviceToHost)));
      std::uint64_t most = std::min<std::uint64_t>(rows, 16), warp_rows = 0, filled = 0;
      std::string unpacked;
      for (;;) {
        words.assign(warps * most * 128, 0);
        times.assign(warps * most * 32, 0);
        heads.assign(warps * most * 4, 0);
        offsets.assign(warps * most * 32, 0);
        Keep(WS_CUDA(cudaMemcpy2D(words.data(), most * 512, rows_d, rows * 512, most * 512, warps,
                                  cudaMemcpyDeviceToHost)));
        Keep(WS_CUDA(cudaMemcpy2D(times.data(), most * 128, times_d, rows * 128, most * 128, warps,
                                  cudaMemcpyDeviceToHost)));
        Keep(WS_CUDA(cudaMemcpy2D(heads.data(), most * 16, heads_d, rows * 16, most * 16, warps,
                                  cudaMemcpyDeviceToHost)));
        Keep(WS_CUDA(cudaMemcpy2D(offsets.data(), most * 128, offsets_d, rows * 128, most * 128,
                                  warps, cudaMemcpyDeviceToHost)));
        unpacked = LaneLogUnpackWarpRows(
            &words, &times, heads, offsets, static_cast<std::uint32_t>(most),
            static_cast<std::uint32_t>(block.count()), warps, &warp_rows, &filled);
        if (!unpacked.empty()) break;
        counts = LaneLogCounts(words, static_cast<std::uint32_t>(most),
                               static_cast<std::uint32_t>(block.count()), warps);
        const bool full = std::find(counts.begin(), counts.end(), most) != counts.end();
        if (!status_.ok() || !full || most == rows) break;
        most = std::min(rows, most * 2);
      }
      free_log();
      if (!unpacked.empty()) Keep(Status::Error("the lane log: " + unpacked));
      if (!status_.ok()) return false;
      // The rows the lanes stored (record_bytes, below); the loops' patterns, which
      // LaneLogToCapture makes into the rows their bodies would have written, checked first: a
      // loop whose lanes counted different passes, or a lane past kLanePatternRows once they are
      // made, goes the event roads.
      std::uint64_t stored_rows = 0, pattern_rows = 0;
      for (std::uint32_t n : counts) stored_rows += n;
      const auto row_count = static_cast<std::uint32_t>(most);
      bool uneven = false;
      const std::string expanded = LaneLogPatterns(words, times, row_count, counts,
                                                   static_cast<std::uint32_t>(block.count()), warps,
                                                   kLanePatternRows, &uneven, &pattern_rows);
      if (!expanded.empty() && !uneven) {
        Keep(Status::Error("the lane log: " + expanded));
        return false;
      }
      if (uneven) break;
      // Each kernel noted its own file alone (LaneEntry): a record that names another goes the
      // event roads, which note every file they meet (the files' table cleared for them).
      ReadDeviceFiles(st.files, c);
      if (!status_.ok()) return false;
      if (!LaneLogUnnamedFile(words, row_count, counts, static_cast<std::uint32_t>(block.count()),
                              warps, c->device_files)
               .empty()) {
        c->device_files.clear();
        Keep(WS_CUDA(cudaMemset(st.files, 0, dev::kDeviceFileTags * sizeof(const char*))));
        break;
      }
      const std::string error =
          LaneLogToCapture(std::move(words), std::move(times), row_count, counts,
                           static_cast<std::uint32_t>(block.count()), warps, starts,
                           static_cast<std::uint64_t>(ms * 1e6), c);
      if (!error.empty()) {
        Keep(Status::Error("the lane log: " + error));
        return false;
      }
      capture_ = {};
      capture_.record_ms = ms;
      capture_.record_warm = warm;
      capture_.lane_rows = stored_rows;
      capture_.lane_pattern_rows = pattern_rows;
      // The records (their times and counts aside): 16 bytes a lane's own row, a warp row's head
      // 16 and 4 a lane.
      capture_.record_bytes = 16 * (stored_rows - filled) + 4 * filled + 16 * warp_rows;
      capture_.lane_wide = lane_build_.unit == &LaneWideUnit();
      return true;
    }
    free_log();
    rows = needed;  // once more, with the rows the largest count needs, where they fit
    if (warps * 32 * rows > kLaneLogSlots || bytes(rows) > options_.record_budget_bytes) break;
  }
  lane_log_too_large_.insert(shape);
  return false;
}

}  // namespace ws
