// CudaBackend's passes (cuda_backend.h includes this; include that one): the uninstrumented
// build's timed runs, and the recording pass: a launch run with its warps writing their events
// into chunks of a pool, read back and decoded (gpu_records.h), or by the lane log
// (cuda_backend_lane_log.h). Only when the record budget runs out are there a counting and a
// planned pass after it. The tally's host side (its arrays, the direct road's table, the read
// back) is cuda_backend_tally.h.
//
// Index of this file:
// [SECTION] The uninstrumented build's timed runs
// [SECTION] RecordLaunch
// [SECTION] The pool: its start, its chunks read back, a planned pool
// [SECTION] The device files and the pool's memory
#pragma once

#include "warpscope/kernels/cuda_backend.h"

namespace ws {

//-------------------------------------------------------------------------------------------------
// [SECTION] The uninstrumented build's timed runs
//-------------------------------------------------------------------------------------------------

// `launch(st)` with `start` recorded right before its kernel (ws_cuda_launch.h's PassStartEvent),
// or where it returned if it never reached the kernel (a failed launch: a time of nothing).
template <typename F>
cudaError_t TimedLaunch(cudaEvent_t start, F& launch, const dev::RecorderState& st) {
  PassStartEvent() = start;
  const cudaError_t e = launch(st);
  RecordPassStart();
  return e;
}

template <typename F>
Status CudaBackend::TimeLaunch(const std::string& kernel, Dim3 grid, Dim3 block,
                               std::uint32_t shared_bytes, F& launch) {
  const std::vector<void*> snapshot = SnapshotBuffers();
  cudaEvent_t start = nullptr, stop = nullptr;
  Keep(WS_CUDA(cudaEventCreate(&start)));
  Keep(WS_CUDA(cudaEventCreate(&stop)));
  dev::RecorderState off{};
  off.mode = dev::kOff;
  Keep(WS_CUDA(launch(off)));  // warm-up (loads the module, fills the caches' tags)
  Keep(WS_CUDA(cudaDeviceSynchronize()));
  std::vector<float> ms;
  for (int i = 0; i < std::max(options_.timed_runs, 1) && status_.ok(); ++i) {
    RestoreBuffers(snapshot);  // the output left behind is that of one run
    Keep(WS_CUDA(TimedLaunch(start, launch, off)));
    Keep(WS_CUDA(cudaEventRecord(stop)));
    Keep(WS_CUDA(cudaEventSynchronize(stop)));
    float t = 0;
    Keep(WS_CUDA(cudaEventElapsedTime(&t, start, stop)));
    ms.push_back(t);
  }
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
  for (void* c : snapshot) {
    if (c != nullptr) cudaFree(c);
  }
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  std::sort(ms.begin(), ms.end());
  last_ms_ = ms.empty() ? 0 : ms[ms.size() / 2];
  LaunchTrace t;
  t.kernel = kernel;
  t.grid = grid;
  t.block = block;
  t.shared_bytes = shared_bytes;
  t.buffers = buffers_;
  launches_.push_back(std::move(t));
  return {};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] RecordLaunch
//-------------------------------------------------------------------------------------------------

template <typename F>
Status CudaBackend::RecordLaunch(const std::string& kernel, Dim3 grid, Dim3 block,
                                 std::uint32_t shared_bytes, std::uint32_t window_bytes,
                                 F& launch) {
  const std::uint32_t wpb = static_cast<std::uint32_t>((block.count() + 31) / 32);
  const std::size_t warps = grid.count() * wpb;
  const std::size_t scratch_mark = allocations_.size();  // freed when this launch is done
  const std::vector<void*> snapshot = SnapshotBuffers();
  auto* state_d = DeviceArray<unsigned long long>(warps);
  auto* pool_next = DeviceArray<unsigned long long>(1);
  auto* sm_state_d = DeviceArray<unsigned long long>(dev::kSmSlots * dev::kSmSlotStride);
  auto* overflow = DeviceArray<unsigned int>(1);
  auto* files_d = DeviceArray<const char*>(dev::kDeviceFileTags);
  unsigned int* pool = RecordPool();
  cudaEvent_t start = nullptr, stop = nullptr;
  Keep(WS_CUDA(cudaEventCreate(&start)));
  Keep(WS_CUDA(cudaEventCreate(&stop)));
  auto free_scratch = [&] {
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    for (void* c : snapshot) {
      if (c != nullptr) cudaFree(c);
    }
    for (std::size_t i = scratch_mark; i < allocations_.size(); ++i) cudaFree(allocations_[i]);
    allocations_.resize(scratch_mark);
    if (pool_ != nullptr) cudaFreeAsync(pool_, 0);
    pool_ = nullptr;
    FreeTally();
  };
  // Runs one pass from the launch's starting memory and returns its time in ms (CUDA events).
  int passes = 0;
  auto pass = [&](dev::RecorderState st) {
    if (passes++ > 0) RestoreBuffers(snapshot);
    st.quiet = passes > 1;
    Keep(WS_CUDA(cudaMemset(overflow, 0, 4)));
    float t = 0;
    Keep(WS_CUDA(TimedLaunch(start, launch, st)));
    Keep(WS_CUDA(cudaEventRecord(stop)));
    Keep(WS_CUDA(cudaEventSynchronize(stop)));
    if (status_.ok()) Keep(WS_CUDA(cudaEventElapsedTime(&t, start, stop)));
    unsigned int overflowed = 0;
    Keep(WS_CUDA(cudaMemcpy(&overflowed, overflow, 4, cudaMemcpyDeviceToHost)));
    return std::pair<double, bool>(t, overflowed != 0);
  };
  auto failed = [&] {
    free_scratch();
    return Status::Error(kernel + ": " + status_.message());
  };
  if (!status_.ok()) return failed();
  dev::RecorderState st =
      StartRecording(block, wpb, warps, state_d, pool, pool_next, sm_state_d, overflow, files_d);
  keep_blocks_ = keep_none_ ? std::vector<std::uint32_t>{} : options_.keep_blocks;
  hazard_ms_ = 0;
  hazard_lean_ = false;
  GpuCapture c;
  c.kernel = kernel;
  c.grid = grid;
  c.block = block;
  c.shared_bytes = shared_bytes;
  c.buffers = buffers_;
  // A small lesson launch: every lane writes its own records, and the host checks every block's
  // hazards from them (no hazard pass on the device, no tally).
  if (RecordLaneLog(kernel, grid, block, st, pass, &c)) {  // its files read back
    free_scratch();
    if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
    DecodeCapture(c, true);  // capture_.record_bytes is RecordLaneLog's (its rows', not c's words)
    return {};
  }
  if (!status_.ok()) return failed();
  // The hazard check first: the blocks it flags are kept with the options' own.
  const HazardScan scan = HazardScanWanted(grid, block)
                              ? ScanHazards(grid, block, window_bytes, st, pass)
                              : HazardScan{};
  if (!status_.ok()) return failed();
  if (scan.racing_kept > 0) {
    keep_blocks_.insert(keep_blocks_.end(), scan.racing.begin(),
                        scan.racing.begin() + static_cast<std::ptrdiff_t>(scan.racing_kept));
    std::sort(keep_blocks_.begin(), keep_blocks_.end());
    keep_blocks_.erase(std::unique(keep_blocks_.begin(), keep_blocks_.end()), keep_blocks_.end());
  }
  c.hazard_scan = scan;
  const TallyArrays tally =
      TallyWanted(grid, block) ? StartTally(grid, block, warps, &st) : TallyArrays{};
  UseDirectTable(kernel, tally, &st);
  const bool first_chunks = st.first_chunks != 0;
  const unsigned long long first_words = first_chunks ? warps * dev::kFirstChunkWords : 0;
  std::vector<unsigned long long> state(warps);
  std::vector<std::uint32_t> words;

  // One pass: each warp takes chunks from the pool as it goes.
  st.mode = dev::kRecord;
  auto [pool_ms, pool_overflowed] = pass(st);
  // Timed warm, as the uninstrumented build is after its warm-up (TimeLaunch) and the lane log's
  // pass is (RecordLaneLog): a kernel's first launch costs more than its later ones
  // (bench/gpu_first_launch_micro.cu, H200: 5-19 us, the most for the most code), which is not
  // recording's cost, and this pass is the lean or recorded unit's kernel's first launch. A first
  // run shorter than kWarmRecordMs that fitted the pool runs again from the same start (the
  // launch's memory restored by `pass`, the pool, the warps' states and the tally cleared, its
  // shapes too, so that the second run adds them as the first did), and the second is timed and
  // kept: at most kWarmRecordBudgetMs of first runs a backend (a kernel launched 300 times runs
  // again until then), and never a program's (RecordsEachPassOnce). WS_GPU_WARM_PASS=0: the first
  // is timed.
  bool warm = false;
  double first_ms = 0;  // the first run's, where it ran again
  if (warm_pass_ && warm_record_ && !pool_overflowed && status_.ok() && pool_ms < kWarmRecordMs &&
      warm_record_ms_ + pool_ms <= kWarmRecordBudgetMs) {
    warm_record_ms_ += pool_ms;
    first_ms = pool_ms;
    // The first run's shapes give the second its direct road's table (DirectTableFor), and its
    // files the names of the table's sites' file tags (a site the road counts in every block not
    // kept notes its file nowhere in the second run: below, direct_files_).
    if (direct_road_ && tally.direct_counts != nullptr) {
      GpuCapture first;
      ReadDeviceFiles(files_d, &first);
      ReadTally(tally, warps, &first);
      direct_tables_[kernel] = DirectTableFor(first.tallied);
      direct_files_[kernel] = first.device_files;
      UseDirectTable(kernel, tally, &st);
    }
    (void)StartRecording(block, wpb, warps, state_d, pool, pool_next, sm_state_d, overflow,
                         files_d);
    ClearTally(tally, true);
    std::tie(pool_ms, pool_overflowed) = pass(st);
    warm = true;
  }
  capture_ = {};
  capture_.record_ms = pool_ms;
  capture_.record_warm = warm && !pool_overflowed;
  capture_.hazard_ms = hazard_ms_;
  capture_.hazard_lean = hazard_lean_;
  unsigned long long handed_out = 0;
  Keep(WS_CUDA(cudaMemcpy(&handed_out, pool_next, 8, cudaMemcpyDeviceToHost)));
  if (!status_.ok()) return failed();
  std::vector<PoolChunk> chunks;
  if (!pool_overflowed) {
    ReadPool(pool, first_words, handed_out, st, sm_state_d, warps, &words, &chunks);
  } else {
    // The pool ran dry: record again as before it existed, so that the budget goes to the kept
    // blocks first and then to the warps in order (ws_cuda_record_format.h).
    Keep(WS_CUDA(cudaMemset(state_d, 0, warps * 8)));
    st.mode = dev::kCount;
    capture_.count_ms = first_ms + pool_ms + pass(st).first;
    Keep(WS_CUDA(cudaMemcpy(state.data(), state_d, warps * 8, cudaMemcpyDeviceToHost)));
    if (!status_.ok()) return failed();
    std::uint64_t planned_words = 0;
    const std::vector<unsigned long long> counted = state;
    unsigned int* planned = PlanPool(grid, wpb, state, state_d, &st, &chunks, &planned_words);
    // The first pass's counts go; its shapes and the counting pass's stay, and the planned pass
    // only looks them up, so it tallies what the counting pass sized as tallied.
    ClearTally(tally, false);
    st.tally_frozen = 1;
    const auto [planned_ms, planned_overflowed] = pass(st);
    capture_.record_ms = planned_ms;
    c.overflowed = planned_overflowed;
    // Which warps counted events, until the final states come back (below).
    c.warp_dropped.assign(warps, 0);
    for (std::size_t w = 0; w < warps; ++w) c.warp_dropped[w] = counted[w] != 0 ? 1 : 0;
    words.resize(planned_words);
    if (!words.empty())
      Keep(WS_CUDA(cudaMemcpy(words.data(), planned, words.size() * 4, cudaMemcpyDeviceToHost)));
  }
  Keep(WS_CUDA(cudaMemcpy(state.data(), state_d, warps * 8, cudaMemcpyDeviceToHost)));
  if (!c.warp_dropped.empty()) {
    // A warp lost events where its range ended dead: given none though it counted some, or
    // filled before its last event (the planned pass's lanes may group into more events).
    for (std::size_t w = 0; w < warps; ++w)
      c.warp_dropped[w] = dev::StateChunk(state[w]) == dev::kDeadChunk &&
                                  (c.warp_dropped[w] != 0 || (state[w] & dev::kUsedMask) != 0)
                              ? 1
                              : 0;
    for (std::uint8_t d : c.warp_dropped) c.overflowed = c.overflowed || d != 0;
  }
  ReadDeviceFiles(files_d, &c);
  // The file tags the table's sites had where the table was made: a site counted on the direct
  // road in every block not kept noted its file nowhere in this pass.
  if (!direct_now_.sites.empty()) {
    for (const auto& [tag, name] : direct_files_[kernel]) c.device_files.emplace(tag, name);
  }
  capture_.direct_requests = ReadTally(tally, warps, &c);
  // The next launch of this kernel takes the direct road where this one's shapes say it may.
  if (direct_road_ && tally.direct_counts != nullptr && status_.ok()) {
    direct_tables_[kernel] = DirectTableFor(c.tallied);
    direct_files_[kernel] = c.device_files;
  }
  free_scratch();
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  GatherChunks(words, chunks, state, first_chunks && !pool_overflowed, &c);
  capture_.record_bytes = 4 * c.words.size();  // the events the pass wrote
  DecodeCapture(c);
  return {};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The pool: its start, its chunks read back, a planned pool
//-------------------------------------------------------------------------------------------------

// The capture, its chunks gathered, decoded into the launch's trace. `every_block`: every block's
// events came back (the lane log): all are decoded with their records, so that the host's hazard
// check covers the grid (HazardsOverEveryBlock), and then only the kept ones keep them.
inline void CudaBackend::DecodeCapture(const GpuCapture& c, bool every_block) {
  KeepBlocks keep{keep_blocks_, options_.keep_all_blocks || c.grid.count() * c.block.count() <=
                                                                options_.keep_all_threads_up_to};
  if (keep_none_) keep = {};
  LaunchTrace t = DecodeGpuCapture(c, every_block ? KeepBlocks{{}, true} : keep, cache_probes_);
  if (every_block) {
    HazardsOverEveryBlock(&t);
    // The kept blocks, and each hazard's example blocks, so that a view can show its pair (the
    // event roads keep every block the device's check flagged, up to 4,096).
    std::vector<std::uint32_t> kept = keep.blocks;
    for (const HazardGroup& g : t.hazards.groups)
      kept.insert(kept.end(), {g.example_first.block, g.example_second.block});
    if (!keep.all)
      std::erase_if(t.blocks, [&](const BlockRecords& b) {
        return std::find(kept.begin(), kept.end(), b.block) == kept.end();
      });
  }
  capture_.records = t.stats.access_records + t.stats.barrier_records;
  capture_.tally = ShapesTalliedBySteps(c);
  launches_.push_back(std::move(t));
}

// The recording pass's start: the warps' states, the pool's first chunks and the SMs' chunk
// states cleared; the recorder's state that points the kernel at them.
inline dev::RecorderState CudaBackend::StartRecording(
    Dim3 block, std::uint32_t wpb, std::size_t warps, unsigned long long* state_d,
    unsigned int* pool, unsigned long long* pool_next, unsigned long long* sm_state_d,
    unsigned int* overflow, const char** files_d) {
  Keep(WS_CUDA(cudaMemset(state_d, 0, warps * 8)));
  // Each warp's own first chunk where the pool has room for them (ws_cuda_record_format.h).
  const bool first_chunks = pool != nullptr && warps * dev::kFirstChunkWords * 2 <= pool_words_;
  const unsigned long long first_words = first_chunks ? warps * dev::kFirstChunkWords : 0;
  if (first_chunks) Keep(WS_CUDA(cudaMemsetAsync(pool, 0, first_words * 4)));
  Keep(WS_CUDA(cudaMemcpy(pool_next, &first_words, 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(cudaMemset(sm_state_d, 0, dev::kSmSlots * dev::kSmSlotStride * 8)));
  Keep(WS_CUDA(cudaMemset(files_d, 0, dev::kDeviceFileTags * sizeof(const char*))));
  dev::RecorderState st{};
  st.threads_per_block = static_cast<unsigned int>(block.count());
  st.warps_per_block = wpb;
  st.warp_state = state_d;
  st.words = pool;
  st.pool_next = pool_next;
  st.pool_words = pool_words_;
  st.sm_state = sm_state_d;
  st.super_words = SuperChunkWords(pool_words_, preset_.multiprocessors);
  st.max_chunk_class = MaxChunkClass(st.super_words);
  st.first_chunks = first_chunks ? 1u : 0u;
  st.overflow = overflow;
  st.files = files_d;
  // Every block kept (the whole span of 2^32) until StartTally says which: the whole warp's road
  // (CountedWhole) reads no table then, without a test of its own whether there is one.
  st.kept_base = 0;
  st.kept_last = ~0u;
  return st;
}

// The pool did not run dry: only the used words come back, with each warp's chunks.
inline void CudaBackend::ReadPool(unsigned int* pool, unsigned long long first_words,
                                  unsigned long long handed_out, const dev::RecorderState& st,
                                  const unsigned long long* sm_state_d, std::size_t warps,
                                  std::vector<std::uint32_t>* words,
                                  std::vector<PoolChunk>* chunks) {
  // Only the used words come back: each super-chunk's header word first (one strided copy),
  // then each super-chunk's used words.
  std::vector<unsigned long long> sm_state(dev::kSmSlots * dev::kSmSlotStride);
  Keep(WS_CUDA(
      cudaMemcpy(sm_state.data(), sm_state_d, sm_state.size() * 8, cudaMemcpyDeviceToHost)));
  std::vector<std::uint32_t> headers((handed_out - first_words) / st.super_words);
  if (!headers.empty())
    Keep(
        WS_CUDA(cudaMemcpy2D(headers.data(), 4, pool + first_words, std::size_t{st.super_words} * 4,
                             4, headers.size(), cudaMemcpyDeviceToHost)));
  const std::vector<SuperChunk> supers =
      SuperChunks(headers, first_words, st.super_words, sm_state);
  std::uint64_t total = first_words;
  for (const SuperChunk& sc : supers) total += sc.used;
  words->resize(total);
  if (first_words > 0)
    Keep(WS_CUDA(cudaMemcpy(words->data(), pool, first_words * 4, cudaMemcpyDeviceToHost)));
  for (std::uint64_t w = 0; w < first_words / dev::kFirstChunkWords; ++w)
    chunks->push_back(
        {w, w * dev::kFirstChunkWords, dev::kFirstChunkWords, w * dev::kFirstChunkWords});
  std::uint64_t at = first_words;
  for (const SuperChunk& sc : supers) {
    if (sc.used > 0)
      Keep(WS_CUDA(
          cudaMemcpy(words->data() + at, pool + sc.first, sc.used * 4, cudaMemcpyDeviceToHost)));
    at += sc.used;
  }
  const std::vector<PoolChunk> more = PoolChunks(*words, first_words, supers, warps);
  chunks->insert(chunks->end(), more.begin(), more.end());
}

// After the counting pass: each warp's range of a planned pool (PlanRanges), its state pointing
// at it, and the recorder's state for the recording pass that writes into it. Returns the planned
// pool (`planned_words` words).
inline unsigned int* CudaBackend::PlanPool(Dim3 grid, std::uint32_t wpb,
                                           std::vector<unsigned long long>& state,
                                           unsigned long long* state_d, dev::RecorderState* st,
                                           std::vector<PoolChunk>* chunks,
                                           std::uint64_t* planned_words) {
  const std::size_t warps = state.size();
  const std::vector<unsigned long long> plan = PlanRanges(grid, wpb, state);
  auto* plan_d = DeviceArray<unsigned long long>(warps + 1);
  auto* planned = DeviceArray<unsigned int>(plan.back());
  Keep(WS_CUDA(cudaMemcpy(plan_d, plan.data(), (warps + 1) * 8, cudaMemcpyHostToDevice)));
  if (planned != nullptr) Keep(WS_CUDA(cudaMemset(planned, 0, plan.back() * 4)));
  for (std::size_t w = 0; w < warps; ++w) {
    state[w] = plan[w + 1] > plan[w] ? dev::ChunkState(plan[w], 0, dev::kChunkHeaderWords)
                                     : dev::kDeadState;
    if (plan[w + 1] > plan[w]) chunks->push_back({w, plan[w], plan[w + 1] - plan[w], plan[w]});
  }
  Keep(WS_CUDA(cudaMemcpy(state_d, state.data(), warps * 8, cudaMemcpyHostToDevice)));
  st->mode = dev::kRecord;
  st->words = planned;
  st->plan = plan_d;
  st->first_chunks = 0;
  st->pool_words = 0;
  *planned_words = plan.back();
  return planned;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The device files and the pool's memory
//-------------------------------------------------------------------------------------------------

// The names of the files the recording pass's tags stand for: the kernel noted each tag's
// __builtin_FILE() literal, which lives in the module's global memory; read back a byte at a
// time (a literal's end is not known, and reading past the module's data would fail).
inline void CudaBackend::ReadDeviceFiles(const char* const* files_d, GpuCapture* c) {
  std::vector<const char*> files(dev::kDeviceFileTags);
  Keep(WS_CUDA(cudaMemcpy(files.data(), files_d, files.size() * sizeof(const char*),
                          cudaMemcpyDeviceToHost)));
  if (!status_.ok()) return;
  for (std::uint32_t tag = 0; tag < files.size(); ++tag) {
    if (files[tag] == nullptr) continue;
    std::string name;
    char ch = 0;
    for (std::size_t i = 0; i < 4096; ++i) {
      if (cudaMemcpy(&ch, files[tag] + i, 1, cudaMemcpyDeviceToHost) != cudaSuccess || ch == 0)
        break;
      name += ch;
    }
    cudaGetLastError();  // a failed read is not the launch's error
    c->device_files[static_cast<std::uint16_t>(tag)] = name.substr(name.find_last_of("/\\") + 1);
  }
}

// Each warp gets the words it counted plus a margin (lanes that ran together on the counting
// pass may split into more events on the recording pass) and its chunk header, rounded to 16
// bytes; past the byte budget, ranges are given to the kept blocks' warps first, then in order,
// and a warp left without room records nothing (its launch is marked truncated).
inline std::vector<unsigned long long> CudaBackend::PlanRanges(
    Dim3 grid, std::uint32_t wpb, const std::vector<unsigned long long>& counted) const {
  const std::size_t warps = counted.size();
  std::uint64_t left = options_.record_budget_bytes;
  std::vector<std::uint64_t> size(warps, 0);
  auto give = [&](std::size_t w) {
    if (size[w] != 0 || counted[w] == 0) return;
    std::uint64_t want =
        dev::kChunkHeaderWords + counted[w] + counted[w] / 4 + 2 * dev::kAffineEventWords;
    want = std::min<std::uint64_t>((want + 3) / 4 * 4, dev::kUsedMask / 2);
    if (want * 4 <= left) {
      size[w] = want;
      left -= want * 4;
    }
  };
  for (std::uint32_t b : keep_blocks_) {
    if (b < grid.count())
      for (std::uint32_t k = 0; k < wpb; ++k) give(std::size_t{b} * wpb + k);
  }
  for (std::size_t w = 0; w < warps; ++w) give(w);
  std::vector<unsigned long long> plan(warps + 1, 0);
  for (std::size_t w = 0; w < warps; ++w) plan[w + 1] = plan[w] + size[w];
  return plan;
}

// The pool the recording pass takes its chunks from: the record budget (at most half the GPU's
// free memory), from the device's stream-ordered memory pool, which keeps it reserved between
// launches (so that a warm worker's runs do not map a gigabyte each time) and, unlike a pointer
// kept by hand, is rebuilt by CUDA after a cudaDeviceReset() (a user's program may call one).
// Its words need no clearing: a chunk's header is written when it is taken, and the decoder
// reads a chunk only up to its used count.
inline unsigned int* CudaBackend::RecordPool() {
  std::size_t free_bytes = 0, total = 0;
  Keep(WS_CUDA(cudaMemGetInfo(&free_bytes, &total)));
  cudaMemPool_t reserve = nullptr;
  std::uint64_t reserved = 0;
  if (cudaDeviceGetDefaultMemPool(&reserve, options_.gpu) == cudaSuccess) {
    cudaMemPoolGetAttribute(reserve, cudaMemPoolAttrReservedMemCurrent, &reserved);
    std::uint64_t keep = options_.record_budget_bytes + kTallyBytes;  // kept between launches
    cudaMemPoolSetAttribute(reserve, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  (void)cudaGetLastError();
  const std::uint64_t want =
      std::min<std::uint64_t>(options_.record_budget_bytes, (free_bytes + reserved) / 2) / 64 * 64;
  void* p = nullptr;
  if (want > 0) Keep(WS_CUDA(cudaMallocAsync(&p, want, 0)));
  pool_ = p;
  pool_words_ = p != nullptr ? want / 4 : 0;
  return static_cast<unsigned int*>(p);
}
}  // namespace ws
