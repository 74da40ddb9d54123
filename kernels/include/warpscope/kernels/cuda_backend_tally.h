// CudaBackend's tally on the host side (cuda_backend.h includes this; include that one): the
// launch's tally arrays allocated, cleared and read back into the capture's shapes, and the
// direct road's table given to a pass (ws_cuda_record_format.h, "The direct road").
#pragma once

#include "warpscope/kernels/cuda_backend.h"

namespace ws {

// Whether the launch's whole-warp requests are tallied on the device: its figures need no
// records but the kept blocks' (no cache replay, not every block kept).
inline bool CudaBackend::TallyWanted(Dim3 grid, Dim3 block) const {
  if (!options_.gpu_tally || !cache_probes_.empty()) return false;
  return keep_none_ || (!options_.keep_all_blocks &&
                        grid.count() * block.count() > options_.keep_all_threads_up_to);
}

// The launch's tally (its table from the stream-ordered pool; a GPU without kTallyBytes to spare
// records without it, it does not fail), cleared, and the recorder's state pointed at it with the
// kept blocks, whose events are all written.
inline CudaBackend::TallyArrays CudaBackend::StartTally(Dim3 grid, Dim3 block, std::size_t warps,
                                                        dev::RecorderState* st) {
  auto alloc = [](auto** p, std::size_t bytes) {
    return cudaMallocAsync(reinterpret_cast<void**>(p), bytes, 0) == cudaSuccess;
  };
  TallyArrays& t = tally_;
  t.capacity = kTallyCapacity;
  t.warp_count = warps;
  if (!alloc(&t.keys, t.capacity * 8) ||
      !alloc(&t.shapes, t.capacity * dev::kTallyShapeWords * 4) ||
      !alloc(&t.counts, t.capacity * dev::kTallySpread * 8) ||
      !alloc(&t.waits, t.capacity * dev::kTallySpread * 8) ||
      !alloc(&t.wait_max, t.capacity * dev::kTallySpread * 8) || !alloc(&t.full, 4) ||
      !alloc(&t.warps, std::max<std::size_t>(warps, 1))) {
    (void)cudaGetLastError();
    FreeTally();
    return {};
  }
  // The direct road's counters where it is on (WS_GPU_DIRECT); a GPU without room for them
  // records without the road, not without the tally.
  if (direct_road_ && (!alloc(&t.direct_counts, t.capacity * dev::kTallySpread * 8) ||
                       !alloc(&t.direct_waits, t.capacity * dev::kTallySpread * 8) ||
                       !alloc(&t.direct_wait_max, t.capacity * dev::kTallySpread * 8))) {
    (void)cudaGetLastError();
    for (void* p : {static_cast<void*>(t.direct_counts), static_cast<void*>(t.direct_waits),
                    static_cast<void*>(t.direct_wait_max)})
      if (p != nullptr) cudaFreeAsync(p, 0);
    t.direct_counts = t.direct_waits = t.direct_wait_max = nullptr;
  }
  ClearTally(t, true);
  st->tally_keys = t.keys;
  st->tally_shapes = t.shapes;
  st->tally_counts = t.counts;
  st->tally_waits = t.waits;
  st->tally_wait_max = t.wait_max;
  st->tally_full = t.full;
  st->warp_tallied = t.warps;
  st->tally_capacity = static_cast<unsigned int>(t.capacity);
  // The direct road: off until UseDirectTable gives the pass a table.
  st->direct_counts = nullptr;
  st->direct_waits = t.direct_waits;
  st->direct_wait_max = t.direct_wait_max;
  st->tally_frozen = 0;
  st->tally_rows = dev::TallyRows(block.x, block.y, block.z);
  // The kept blocks' span, from the lowest to the highest within the grid; a byte per block of
  // it where they are not all of it (the hazard check's, a block asked for far away).
  std::vector<std::uint32_t> kept;
  for (std::uint32_t b : keep_blocks_) {
    if (b < grid.count()) kept.push_back(b);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  st->kept_base = kept.empty() ? ~0u : kept.front();
  st->kept_last = kept.empty() ? 0u : kept.back() - kept.front();
  st->keep_block =
      kept.empty() || kept.size() == std::size_t{st->kept_last} + 1u ? nullptr : KeepBitmap(kept);
  return t;
}

// The counters and warp flags cleared, and with `keys` the table's shapes and its full flag too.
inline void CudaBackend::ClearTally(const TallyArrays& t, bool keys) {
  if (t.keys == nullptr) return;
  if (keys) {
    Keep(WS_CUDA(cudaMemsetAsync(t.keys, 0, t.capacity * 8)));
    Keep(WS_CUDA(cudaMemsetAsync(t.full, 0, 4)));
  }
  if (t.direct_counts != nullptr) {
    Keep(WS_CUDA(cudaMemsetAsync(t.direct_counts, 0, t.capacity * dev::kTallySpread * 8)));
    Keep(WS_CUDA(cudaMemsetAsync(t.direct_waits, 0, t.capacity * dev::kTallySpread * 8)));
    Keep(WS_CUDA(cudaMemsetAsync(t.direct_wait_max, 0, t.capacity * dev::kTallySpread * 8)));
  }
  Keep(WS_CUDA(cudaMemsetAsync(t.counts, 0, t.capacity * dev::kTallySpread * 8)));
  Keep(WS_CUDA(cudaMemsetAsync(t.waits, 0, t.capacity * dev::kTallySpread * 8)));
  Keep(WS_CUDA(cudaMemsetAsync(t.wait_max, 0, t.capacity * dev::kTallySpread * 8)));
  Keep(WS_CUDA(cudaMemsetAsync(t.warps, 0, t.warp_count)));
}

inline void CudaBackend::UseDirectTable(const std::string& kernel, const TallyArrays& t,
                                        dev::RecorderState* st) {
  const auto found = direct_tables_.find(kernel);
  direct_now_ = direct_road_ && t.direct_counts != nullptr && found != direct_tables_.end()
                    ? found->second
                    : DirectTable{};
  std::fill(std::begin(st->direct_table), std::end(st->direct_table), dev::DirectSite{});
  for (std::size_t s = 0; s < direct_now_.sites.size() && s < dev::kDirectSites; ++s)
    st->direct_table[s] = direct_now_.sites[s];
  st->direct_counts = direct_now_.sites.empty() ? nullptr : t.direct_counts;
}

// The shapes the tally counted, into the capture (TalliedShapes); the table's shapes and
// counters come back only where some slot was taken.
inline std::uint64_t CudaBackend::ReadTally(const TallyArrays& t, std::size_t warps,
                                            GpuCapture* c) {
  if (t.keys == nullptr || !status_.ok()) return 0;
  std::vector<unsigned long long> keys(t.capacity);
  Keep(WS_CUDA(cudaMemcpy(keys.data(), t.keys, keys.size() * 8, cudaMemcpyDeviceToHost)));
  unsigned int full = 0;
  Keep(WS_CUDA(cudaMemcpy(&full, t.full, 4, cudaMemcpyDeviceToHost)));
  c->tally_full = full != 0;
  // The direct road's counters come back where the pass had a table (direct_now_).
  const std::vector<dev::DirectSite>& sites = direct_now_.sites;
  const bool direct = !sites.empty();
  if (!status_.ok() ||
      (!direct && std::all_of(keys.begin(), keys.end(), [](auto k) { return k == 0; })))
    return 0;
  std::uint64_t direct_requests = 0;
  std::vector<std::uint32_t> shapes(t.capacity * dev::kTallyShapeWords);
  std::vector<unsigned long long> counts(t.capacity * dev::kTallySpread);
  Keep(WS_CUDA(cudaMemcpy(shapes.data(), t.shapes, shapes.size() * 4, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(counts.data(), t.counts, counts.size() * 8, cudaMemcpyDeviceToHost)));
  c->warp_tallied.resize(warps);
  Keep(WS_CUDA(cudaMemcpy(c->warp_tallied.data(), t.warps, warps, cudaMemcpyDeviceToHost)));
  if (status_.ok()) c->tallied = TalliedShapes(keys, shapes, counts);
  if (direct && status_.ok()) {
    // Only the table's sites' places, each a block of kDirectPlaces words in every column.
    std::vector<unsigned long long> d(counts.size()), w, m;
    const bool barrier = std::any_of(sites.begin(), sites.end(), [](const dev::DirectSite& e) {
      return (e.key & dev::kTallyBarrier) != 0;
    });
    if (barrier) w.resize(counts.size()), m.resize(counts.size());
    const std::size_t pitch = std::size_t{dev::kDirectColumn} * 8, width = dev::kDirectPlaces * 8;
    for (std::size_t s = 0; s < sites.size() && status_.ok(); ++s) {
      if (sites[s].key == 0) continue;
      const std::size_t at = s * dev::kDirectPlaces;
      Keep(WS_CUDA(cudaMemcpy2D(d.data() + at, pitch, t.direct_counts + at, pitch, width,
                                dev::kTallySpread, cudaMemcpyDeviceToHost)));
      if ((sites[s].key & dev::kTallyBarrier) == 0) continue;
      Keep(WS_CUDA(cudaMemcpy2D(w.data() + at, pitch, t.direct_waits + at, pitch, width,
                                dev::kTallySpread, cudaMemcpyDeviceToHost)));
      Keep(WS_CUDA(cudaMemcpy2D(m.data() + at, pitch, t.direct_wait_max + at, pitch, width,
                                dev::kTallySpread, cudaMemcpyDeviceToHost)));
    }
    if (status_.ok()) direct_requests = AddDirectShapes(sites, d, w, m, &c->tallied);
  }
  // A barrier's shapes: their waits, summed over the spread counters (a column each: slot i's
  // counter j lies capacity words apart), only where there are any.
  for (std::size_t i = 0; i < t.capacity && status_.ok(); ++i) {
    if (keys[i] == 0 ||
        (std::uint64_t{shapes[i * dev::kTallyShapeWords]} & dev::kTallyBarrier) == 0)
      continue;
    std::vector<unsigned long long> sum(dev::kTallySpread), most(dev::kTallySpread);
    Keep(WS_CUDA(cudaMemcpy2D(sum.data(), 8, t.waits + i, t.capacity * 8, 8, dev::kTallySpread,
                              cudaMemcpyDeviceToHost)));
    Keep(WS_CUDA(cudaMemcpy2D(most.data(), 8, t.wait_max + i, t.capacity * 8, 8, dev::kTallySpread,
                              cudaMemcpyDeviceToHost)));
    const std::uint64_t key = std::uint64_t{shapes[i * dev::kTallyShapeWords + 1]} << 32 |
                              shapes[i * dev::kTallyShapeWords];
    for (GpuCapture::TalliedShape& s : c->tallied) {
      if (s.key != key || s.lines != shapes[i * dev::kTallyShapeWords + 3] ||
          s.mask != shapes[i * dev::kTallyShapeWords + 2])
        continue;
      for (std::size_t k = 0; k < dev::kTallySpread; ++k) {
        s.wait_sum += sum[k];
        s.wait_max = std::max<std::uint64_t>(s.wait_max, most[k]);
      }
      break;
    }
  }
  return direct_requests;
}

}  // namespace ws
