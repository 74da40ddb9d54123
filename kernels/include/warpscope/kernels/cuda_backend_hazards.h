// CudaBackend's hazard check on the device (cuda_backend.h includes this; include that one): the
// passes before the recording one that find the blocks whose threads may race (ws_cuda_hazards.h),
// so that the recording pass keeps their records and FindHazards, on the host, counts the pairs of
// the whole grid: a block the device found clean has none.
#pragma once

#include <atomic>
#include <random>

#include "warpscope/kernels/cuda_backend.h"

namespace ws {

// The shadows' bytes at most (and a quarter of the GPU's free memory): a 1024² matmul's take
// 21 MB, a 4096² transpose's 430 MB.
inline constexpr std::uint64_t kMaxHazardShadowBytes = std::uint64_t{4} << 30;

// A tag of this process's own for each launch, counted over every backend of the process, for
// the words a launch keeps in its blocks' shared memory (the hazard shadow): shared memory that an
// earlier launch, of this process or another, left holds other tags.
inline unsigned SharedTag() {
  static const unsigned process_tag = std::random_device{}();
  static std::atomic<unsigned> launches{0};
  return process_tag ^ (launches.fetch_add(1) + 1u) * 0x85ebca6bu;
}

// Whether a block of the next launch (its shared window `window_bytes`, dynamic_bytes_ of them
// dynamic) can have `bytes` more shared memory past its dynamic bytes (the hazard shadow); if so,
// `st` says where they lie for the launcher to add them: the padding up to a 16-byte boundary and
// the bytes (without the padding the last word lay past the block's shared memory where the dynamic
// bytes are not a multiple of 16).
inline bool CudaBackend::SharedPastDynamic(std::uint32_t window_bytes, std::uint64_t bytes,
                                           dev::RecorderState* st) {
  int device = 0, optin = 0;
  Keep(WS_CUDA(cudaGetDevice(&device)));
  Keep(WS_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device)));
  const std::uint64_t offset = (std::uint64_t{dynamic_bytes_} + 15) / 16 * 16;
  if (!status_.ok() || std::uint64_t{window_bytes} - dynamic_bytes_ + offset + bytes >
                           static_cast<std::uint64_t>(optin))
    return false;
  st->hazard_shared_bytes = static_cast<unsigned int>(offset - dynamic_bytes_ + bytes);
  st->hazard_shared_offset = static_cast<unsigned int>(offset);
  return true;
}

// Not where every block is kept (the host checks them all), none is (a program's later launches
// of a kernel) or the grid syncs (its blocks are ordered by what the check does not follow).
inline bool CudaBackend::HazardScanWanted(Dim3 grid, Dim3 block) const {
  if (!options_.gpu_hazard_scan || keep_none_ || grid_synced_ || options_.keep_all_blocks)
    return false;
  return grid.count() * block.count() > options_.keep_all_threads_up_to;
}

// Runs the check's passes (`pass`, RecordLaunch's: each from the launch's starting memory) with
// the recorder's state `st` (its blocks and threads), its shadows from the stream-ordered pool and
// freed after; a GPU without room for the shared and epoch shadows checks none (ran false), and
// buffers past the room are not shadowed (their accesses counted: unshadowed).
template <typename Pass>
HazardScan CudaBackend::ScanHazards(Dim3 grid, Dim3 block, std::uint32_t window_bytes,
                                    dev::RecorderState st, Pass& pass) {
  HazardScan scan;
  const std::uint64_t blocks = grid.count(), threads = block.count();
  // The window, and 1 KB: a block's shared memory may begin past the system's reserved part.
  const std::uint64_t shared_words = (std::uint64_t{window_bytes} + 1024 + 3) / 4;
  // A lesson's launcher adds the shared words' shadow to the block's own shared memory (8 bytes
  // a word, past the launch's dynamic bytes) where the block can have that much more.
  const bool shadow_here = hazard_fast_ && next_shadow_launcher_ &&
                           SharedPastDynamic(window_bytes, shared_words * 8, &st);
  std::size_t free_bytes = 0, total = 0;
  Keep(WS_CUDA(cudaMemGetInfo(&free_bytes, &total)));
  const std::uint64_t budget = std::min<std::uint64_t>(kMaxHazardShadowBytes, free_bytes / 4);
  const std::uint64_t fixed = (shadow_here ? 0 : blocks * shared_words * 4) + blocks * threads * 2 +
                              blocks + 16 + buffers_.size() * 16;
  if (!status_.ok() || fixed > budget || shared_words > 0xffffffffull) return scan;
  std::vector<unsigned long long> table(2 * std::max<std::size_t>(buffers_.size(), 1), 0);
  std::uint64_t entries = 0;
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    if (hazard_fast_ &&
        std::find(next_read_only_.begin(), next_read_only_.end(), b) != next_read_only_.end()) {
      table[2 * b] = dev::kReadOnlyBuffer;  // no store of the launch reaches it: no shadow
      if (b < 64) st.hazard_read_only |= 1ull << b;
      continue;
    }
    const std::uint64_t words = (buffers_[b].bytes + 3) / 4;
    if (words == 0 || words > 0xffffffffull || fixed + (entries + words) * 8 > budget) continue;
    table[2 * b] = entries + 1;
    table[2 * b + 1] = words;
    entries += words;
  }
  std::vector<void*> owned;
  auto alloc = [&](std::size_t bytes) -> void* {
    void* p = nullptr;
    if (cudaMallocAsync(&p, std::max<std::size_t>(bytes, 8), 0) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    owned.push_back(p);
    Keep(WS_CUDA(cudaMemsetAsync(p, 0, std::max<std::size_t>(bytes, 8))));
    return p;
  };
  if (shadow_here) {
    st.hazard_tag = SharedTag();
  } else {
    st.shared_shadow = static_cast<unsigned int*>(alloc(blocks * shared_words * 4));
  }
  st.shared_shadow_words = static_cast<unsigned int>(shared_words);
  st.global_shadow = static_cast<unsigned long long*>(alloc(entries * 8));
  auto* table_d = static_cast<unsigned long long*>(alloc(table.size() * 8));
  st.buffer_shadow = table_d;
  st.buffer_shadow_count = static_cast<unsigned int>(buffers_.size());
  st.thread_epoch = static_cast<unsigned short*>(alloc(blocks * threads * 2));
  st.hazard_block = static_cast<unsigned char*>(alloc(blocks));
  st.hazard_counts = static_cast<unsigned long long*>(alloc(16));
  auto free_all = [&] {
    for (void* p : owned) cudaFreeAsync(p, 0);
  };
  if (owned.size() < (shadow_here ? 5u : 6u)) {  // no room after all: no check
    free_all();
    return scan;
  }
  Keep(WS_CUDA(cudaMemcpy(table_d, table.data(), table.size() * 8, cudaMemcpyHostToDevice)));
  st.mode = dev::kHazards;
  st.hazard_mode = dev::kHazardsBuild;
  st.tally_keys = nullptr;
  double ms = pass(st).first;
  unsigned long long counts[2] = {};
  Keep(WS_CUDA(cudaMemcpy(counts, st.hazard_counts, 16, cudaMemcpyDeviceToHost)));
  scan.unshadowed = counts[1];
  if (counts[0] != 0 && status_.ok()) {
    // A word several blocks wrote and read: the blocks before the one that found it are named
    // by a second pass over the shadow as the first left it.
    Keep(WS_CUDA(cudaMemsetAsync(st.thread_epoch, 0, blocks * threads * 2)));
    st.hazard_mode = dev::kHazardsIdentify;
    ms += pass(st).first;
    scan.identified = true;
  }
  std::vector<unsigned char> flags(blocks);
  Keep(WS_CUDA(cudaMemcpy(flags.data(), st.hazard_block, blocks, cudaMemcpyDeviceToHost)));
  free_all();
  if (!status_.ok()) return scan;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    if (flags[b] != 0) scan.racing.push_back(static_cast<std::uint32_t>(b));
  }
  scan.racing_kept = std::min(scan.racing.size(), HazardScan::kMaxRacingKept);
  scan.ran = true;
  hazard_ms_ = ms;
  return scan;
}

// A byte per block of the kept blocks' span (`kept`: sorted, distinct, not empty), 1 where the
// launch keeps it, for the tally (RecorderState::keep_block).
inline unsigned char* CudaBackend::KeepBitmap(const std::vector<std::uint32_t>& kept) {
  std::vector<unsigned char> keep(std::size_t{kept.back()} - kept.front() + 1u, 0);
  for (std::uint32_t b : kept) keep[b - kept.front()] = 1;
  auto* d = DeviceArray<unsigned char>(keep.size());
  if (d != nullptr) Keep(WS_CUDA(cudaMemcpy(d, keep.data(), keep.size(), cudaMemcpyHostToDevice)));
  return d;
}

}  // namespace ws
