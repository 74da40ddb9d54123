// A prototype for issue 51's recording pass, timed against the tally's (bench/gpu_tally_micro.cu,
// run in the same call): each warp's history instead of a count a request. A whole warp's affine
// request in a block not kept is neither looked up nor counted where it is made: its words (the
// site key, the step, the first offset's place in 256 bytes) are mixed into a fingerprint the warp
// keeps in two registers, and its leader writes them as a 16-byte entry into a list of the warp's
// own. A barrier pass is one entry more (its waits still added where they are, by their place). At
// the warp's exit its lanes and their fingerprint are added at the history's slot (direct-mapped
// by the fingerprint, in the block's column), with the fingerprint and the warp's list stored
// there; the host checks each slot's sum against its count times its fingerprint (two histories
// meeting in a slot are found) and each list against its fingerprint, costs each list's requests
// once and adds them as many times as its history was counted.
//
// Measured on an H200 (2026-12-04, kernels/tensor/gpu_backend_h200.txt, "thirty-fifth session";
// medians of 3 rounds, ms; the tally's lean build 0.136-0.139 for the copy, 0.285-0.291 for the
// padded transpose, in the same calls): NOT TAKEN.
//   - A first design kept each list in a scratch of the warp's place on its SM (%smid, %warpid) and
//     copied it out at the exit, after a lookup of the fingerprint: copy 0.165, transpose 0.305.
//   - This design (nothing at the exit waits): copy 0.178, transpose 0.341. Without the exit at all
//     0.095 and 0.201; with the exit's two adds and not its two stores 0.170 and 0.326: a warp's
//     last memory operations, on addresses every warp of a history shares, hold its block's
//     retirement, where the tally's counts, made while the kernel's own loads are in flight, did
//     not.
//   - Without the kept blocks' road compiled into the kernel (HM_NO_KEPT_ROAD: its registers no
//     longer spilled on every request, 48 bytes of stack to none): copy 0.119, transpose 0.236;
//     and without the exit too, 0.095 and 0.178. That led to the lean unit's roads out of line
//     (WS_OUT_OF_LINE_ROADS, ws_cuda_device.h).
// Standalone (nvcc alone): bench/gpu_history_micro.sh builds it at 32 registers, as the lean unit
// is, and runs it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu_micro_recorder.h"                // MicroRecorder, ResetMicroRecorder
#include "gpu_micro_timing.h"                  // Alloc, EventMs
#include "warpscope/kernels/ws_cuda_device.h"  // the kept blocks' road: the product's events
#include "ws_cuda_check.h"

namespace {

constexpr unsigned kOff = 0, kRecord = 2;
// Ablations (bench/gpu_history_micro.sh builds each where HM_VARIANTS names it): HM_NO_STORE, no
// list written; HM_NO_EXIT, nothing done at the exit; HM_NO_WAITS, a barrier pass's waits not
// added; HM_NO_KEPT_ROAD, a kept block's request and barrier recorded by nothing (no event code
// in the kernel); HM_EXIT_COUNTS_ONLY, the exit's two adds without its two stores.
#if defined(HM_NO_STORE)
constexpr bool kNoStore = true;
#else
constexpr bool kNoStore = false;
#endif
#if defined(HM_NO_EXIT)
constexpr bool kNoExit = true;
#else
constexpr bool kNoExit = false;
#endif
#if defined(HM_NO_WAITS)
constexpr bool kNoWaits = true;
#else
constexpr bool kNoWaits = false;
#endif
#if defined(HM_NO_KEPT_ROAD)
constexpr bool kKeptRoad = false;
#else
constexpr bool kKeptRoad = true;
#endif
#if defined(HM_EXIT_COUNTS_ONLY)
constexpr bool kExitStores = false;
#else
constexpr bool kExitStores = true;
#endif
constexpr unsigned kSpread = 128;      // each history's words, by the block's number
constexpr unsigned kWaitSlots = 1024;  // barrier places' waits, direct-mapped

struct HistoryState {
  unsigned mode;
  unsigned kept_last;  // blocks 0..kept_last are kept (their requests not counted here)
  unsigned warps_per_block;
  unsigned list_entries;  // a warp's list (a power of two; its last never written)
  unsigned capacity;      // history slots (a power of two), direct-mapped by the fingerprint
  uint4* lists;           // [warps * list_entries]
  // [kSpread * capacity] each: a slot's lanes counted, their fingerprints' sum (lanes x each),
  // one fingerprint stored there, and one warp's list (its first entry << 32 | its length).
  unsigned long long* counts;
  unsigned long long* sums;
  unsigned long long* keys;
  unsigned long long* lists_at;
  unsigned long long* waits;     // [kSpread * kWaitSlots]
  unsigned long long* wait_max;  // [kSpread * kWaitSlots]
};
__constant__ HistoryState hs;

__device__ __forceinline__ unsigned Lane() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
__device__ __forceinline__ std::uint64_t Timer() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}
__device__ __forceinline__ unsigned Block32() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The warp's two registers, declared by name in PTX at the kernel's entry: its next list entry's
// index (~0u: nothing counted here, a kept block) and its fingerprint.
__device__ __forceinline__ unsigned HistAt() {
  unsigned v;
  asm volatile("mov.u32 %0, ws_hist_at;" : "=r"(v));
  return v;
}
__device__ __forceinline__ unsigned long long HistFp() {
  unsigned long long v;
  asm volatile("mov.u64 %0, ws_hist_fp;" : "=l"(v));
  return v;
}
constexpr unsigned long long kFpSeed = 0x243f6a8885a308d3ull;
__device__ __forceinline__ void HistEntry() {
  const unsigned block = Block32();
  const unsigned warp = block * hs.warps_per_block +
                        (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
  const unsigned at = hs.counts != nullptr && block > hs.kept_last ? warp * hs.list_entries : ~0u;
  asm volatile(
      ".reg .u32 ws_hist_at;\n\t.reg .u64 ws_hist_fp;\n\t"
      "mov.u32 ws_hist_at, %0;\n\tmov.u64 ws_hist_fp, %1;" ::"r"(at),
      "l"(kFpSeed));
}

__host__ __device__ inline unsigned long long MixEntry(unsigned long long fp,
                                                       unsigned long long key, unsigned w2,
                                                       unsigned w3) {
  fp = (fp ^ key ^ ((static_cast<unsigned long long>(w2) << 32 | w3) * 0x9e3779b97f4a7c15ull)) *
       0xbf58476d1ce4e5b9ull;
  return fp ^ fp >> 31;
}

// One entry: mixed into the fingerprint, and written by lane 0 where the list has room (its last
// entry is never written: a length there says the list was full).
__device__ __forceinline__ void HistAdd(unsigned at, unsigned long long key, unsigned w2,
                                        unsigned w3, unsigned lane) {
  const unsigned long long fp = MixEntry(HistFp(), key, w2, w3);
  const bool room = (at & (hs.list_entries - 1)) != hs.list_entries - 1;
  if (!kNoStore && room && lane == 0)
    hs.lists[at] = make_uint4(static_cast<unsigned>(key), static_cast<unsigned>(key >> 32), w2, w3);
  asm volatile("mov.u64 ws_hist_fp, %0;\n\tadd.u32 ws_hist_at, ws_hist_at, %1;" ::"l"(fp),
               "r"(room ? 1u : 0u));
}

__device__ __forceinline__ void Access(unsigned long long key, unsigned offset) {
  if (hs.mode == kOff) return;
  if (__activemask() == ~0u) {
    int same = 0;
    (void)__match_all_sync(~0u, key, &same);
    if (same != 0) {
      const unsigned lane = Lane();
      const unsigned first = (__shfl_sync)(~0u, offset, 0);
      const unsigned step = (__shfl_sync)(~0u, offset, 1) - first;
      if ((__all_sync)(~0u, offset == first + lane * step) != 0) {
        const unsigned at = HistAt();
        if (at != ~0u) {
          HistAdd(at, key, step, (first & 255u) | 32u << 8, lane);
          return;
        }
      }
    }
  }
  // A kept block's request, or any other: the product's general road (an event).
  if (kKeptRoad) ws::dev::RecordGeneral(key, offset, 0, nullptr);
}

__device__ __forceinline__ void Barrier(unsigned place) {
  if (hs.mode == kOff) {
    (__syncthreads)();
    return;
  }
  if (HistAt() == ~0u) {  // a kept block: the product's event
    if (kKeptRoad) return ws::dev::SyncThreads(place);
    return (__syncthreads)();
  }
  const std::uint64_t arrival = Timer();
  const unsigned arrived = static_cast<unsigned>(__syncthreads_count(1));
  const std::uint64_t departure = Timer();
  const unsigned at = HistAt();
  if (__activemask() != ~0u) return;  // part of a warp: the product writes an event
  const unsigned lane = Lane();
  if (!kNoWaits && lane == 0) {
    const unsigned slot =
        (Block32() & (kSpread - 1)) * kWaitSlots + ((place * 0x9e3779b9u) >> 22 & (kWaitSlots - 1));
    const unsigned long long wait = departure >= arrival ? departure - arrival : 0ull;
    atomicAdd(hs.waits + slot, wait * 32ull);
    atomicMax(hs.wait_max + slot, wait);
  }
  HistAdd(at, 0x8000000000000000ull | place, arrived, 0xffffffffu, lane);
  __syncwarp();
}

// At every exit, by each group of lanes that leaves together (every group holds the same history:
// no whole warp's request is made once a lane has left). Nothing waits: the group's leader adds
// its lanes and their fingerprint's sum at the history's direct-mapped slot (in the block's
// column), and stores the fingerprint and the warp's list there (any warp's list of a history is
// its list; the host checks each slot's sum against its count times its fingerprint, so that two
// histories meeting in a slot are found, and each list against its fingerprint).
__device__ __forceinline__ void HistExit() {
  const unsigned at = HistAt();
  if (kNoExit || at == ~0u) return;
  const unsigned long long fp = HistFp() | 1ull;
  const unsigned group = __activemask();
  if (static_cast<int>(Lane()) != __ffs(group) - 1) return;
  const unsigned slot =
      (Block32() & (kSpread - 1)) * hs.capacity +
      ((static_cast<unsigned>(fp >> 32) ^ static_cast<unsigned>(fp)) * 0x9e3779b9u >> 8 &
       (hs.capacity - 1u));
  const unsigned lanes = __popc(group);
  const unsigned n = at & (hs.list_entries - 1);
  atomicAdd(hs.counts + slot, static_cast<unsigned long long>(lanes));
  atomicAdd(hs.sums + slot, fp * lanes);
  if (!kExitStores) return;
  hs.keys[slot] = fp;
  hs.lists_at[slot] = static_cast<unsigned long long>(at - n) << 32 | n;
}

struct Scope {
  __device__ __forceinline__ Scope() { HistEntry(); }
  __device__ __forceinline__ ~Scope() { HistExit(); }
};

__host__ __device__ constexpr unsigned long long SiteKey(unsigned place, unsigned what,
                                                         unsigned buffer) {
  return static_cast<unsigned long long>(place) << 32 | what << 8 | buffer;
}

template <bool kRecorded>
__device__ __forceinline__ void CopyBody(float* out, const float* in, int stride) {
  const unsigned xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  const auto buffer = static_cast<unsigned>(stride);
  if (kRecorded) Access(SiteKey(10, 1, buffer), xid * 4);
  const float v = in[xid];
  if (kRecorded) Access(SiteKey(10, 2, buffer - 1), xid * 4);
  out[xid] = v;
}
template <bool kRecorded>
__global__ void Copy(float* out, const float* in, int stride) {
  CopyBody<false>(out, in, stride);
}
template <>
__global__ void Copy<true>(float* out, const float* in, int stride) {
  Scope scope;
  CopyBody<true>(out, in, stride);
}

template <bool kRecorded>
__device__ __forceinline__ void TransposeBody(float* out, const float* in, int width,
                                              int input_buffer) {
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  const auto buffer = static_cast<unsigned>(input_buffer);
  if (kRecorded) {
    Access(SiteKey(20, 1, buffer), (y * width + x) * 4);
    Access(SiteKey(20, 3, 0), (ty * 33 + tx) * 4);
  }
  tile[ty][tx] = in[y * width + x];
  if (kRecorded)
    Barrier(21);
  else
    (__syncthreads)();
  const unsigned x2 = blockIdx.y * 32 + tx, y2 = blockIdx.x * 32 + ty;
  if (kRecorded) {
    Access(SiteKey(22, 4, 0), (tx * 33 + ty) * 4);
    Access(SiteKey(22, 2, buffer - 1), (y2 * width + x2) * 4);
  }
  out[y2 * width + x2] = tile[tx][ty];
}
template <bool kRecorded>
__global__ void Transpose(float* out, const float* in, int width, int input_buffer) {
  TransposeBody<false>(out, in, width, input_buffer);
}
template <>
__global__ void Transpose<true>(float* out, const float* in, int width, int input_buffer) {
  Scope scope;
  TransposeBody<true>(out, in, width, input_buffer);
}

// The host's side: each history's lanes / 32 warps times its list's entries, by entry kind.
struct Totals {
  unsigned long long requests = 0, barriers = 0, histories = 0, bad = 0;
};
Totals Decode(const HistoryState& st, std::size_t warps) {
  const std::size_t cells = std::size_t{kSpread} * st.capacity;
  std::vector<unsigned long long> counts(cells), sums(cells), keys(cells), at(cells);
  WS_CUDA_CHECK(cudaMemcpy(counts.data(), st.counts, cells * 8, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(sums.data(), st.sums, cells * 8, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(keys.data(), st.keys, cells * 8, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaMemcpy(at.data(), st.lists_at, cells * 8, cudaMemcpyDeviceToHost));
  Totals t;
  std::vector<uint4> list;
  for (unsigned s = 0; s < st.capacity; ++s) {
    unsigned long long lanes = 0, key = 0, where = 0;
    bool ok = true;
    for (unsigned c = 0; c < kSpread; ++c) {
      const std::size_t i = std::size_t{c} * st.capacity + s;
      if (counts[i] == 0) continue;
      if (sums[i] != counts[i] * keys[i] || (key != 0 && keys[i] != key)) ok = false;
      key = keys[i];
      where = at[i];
      lanes += counts[i];
    }
    if (lanes == 0) continue;
    ++t.histories;
    const unsigned first = static_cast<unsigned>(where >> 32), n = static_cast<unsigned>(where);
    if (!ok || lanes % 32 != 0 || n == st.list_entries - 1 ||
        std::size_t{first} + n > warps * st.list_entries) {
      ++t.bad;
      continue;
    }
    list.resize(n);
    if (n != 0)
      WS_CUDA_CHECK(cudaMemcpy(list.data(), st.lists + first, n * 16ull, cudaMemcpyDeviceToHost));
    unsigned long long fp = kFpSeed;
    for (const uint4& e : list) {
      const unsigned long long k = static_cast<unsigned long long>(e.y) << 32 | e.x;
      fp = MixEntry(fp, k, e.z, e.w);
      ((k >> 63) != 0 ? t.barriers : t.requests) += lanes / 32;
    }
    if ((fp | 1ull) != key) ++t.bad;
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = 1024, blocks = argc > 1 ? std::atoi(argv[1]) : 16384;
  const std::size_t n = std::size_t{threads} * blocks;
  float* in = Alloc<float>(n);
  float* out = Alloc<float>(n);
  const std::size_t warps = n / 32;
  HistoryState st{};
  st.kept_last = 3;
  st.warps_per_block = threads / 32;
  st.list_entries = 8;  // a copy's warp makes 2 entries, a transpose's 5
  st.capacity = 1u << 12;
  const std::size_t cells = std::size_t{kSpread} * st.capacity;
  st.lists = Alloc<uint4>(warps * st.list_entries);
  st.counts = Alloc<unsigned long long>(cells);
  st.sums = Alloc<unsigned long long>(cells);
  st.keys = Alloc<unsigned long long>(cells);
  st.lists_at = Alloc<unsigned long long>(cells);
  st.waits = Alloc<unsigned long long>(std::size_t{kSpread} * kWaitSlots);
  st.wait_max = Alloc<unsigned long long>(std::size_t{kSpread} * kWaitSlots);
  // The product's recorder, for the kept blocks' events (as bench/gpu_tally_micro.cu sets it).
  ws::dev::RecorderState rs = MicroRecorder(warps, threads);
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;
  int index = -1;
  // `requests`, `barriers`: a warp's, in every block not kept.
  auto time = [&](const char* label, auto launch, unsigned mode, unsigned long long warps_counted,
                  unsigned requests, unsigned barriers) {
    if (++index != only && only >= 0) return;
    st.mode = mode;
    rs.mode = mode == kOff ? ws::dev::kOff : ws::dev::kRecord;
    WS_CUDA_CHECK(cudaMemcpyToSymbol(hs, &st, sizeof st));
    WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &rs, sizeof rs));
    std::vector<float> ms;
    for (int i = 0; i < 15; ++i) {
      WS_CUDA_CHECK(cudaMemset(st.counts, 0, cells * 8));
      WS_CUDA_CHECK(cudaMemset(st.sums, 0, cells * 8));
      ResetMicroRecorder(rs, warps);
      ms.push_back(EventMs(launch));
    }
    std::sort(ms.begin(), ms.end());
    const Totals t = mode == kOff ? Totals{} : Decode(st, warps);
    const bool ok = mode == kOff || (t.requests == warps_counted * requests &&
                                     t.barriers == warps_counted * barriers && t.bad == 0);
    std::printf(
        "%-44s %8.4f ms  (min %.4f)  requests %llu of %llu, barriers %llu of %llu, "
        "%llu histories%s\n",
        label, ms[ms.size() / 2], ms[0], t.requests, warps_counted * requests, t.barriers,
        warps_counted * barriers, t.histories, ok ? "" : "  MISMATCH");
    std::fflush(stdout);
  };
  const unsigned long long warps_not_kept = (blocks - 4ull) * (threads / 32);
  auto copy = [&](auto kernel) { return [=] { kernel<<<blocks, threads>>>(out, in, 1); }; };
  time("copy, plain (the kernel alone)", copy(Copy<false>), kOff, 0, 0, 0);
  time("copy, histories", copy(Copy<true>), kRecord, warps_not_kept, 2, 0);
  unsigned side = 32;
  while (std::size_t{side} * 2 * side * 2 <= n) side *= 2;
  if (std::size_t{side} * side != n) return 0;
  const dim3 tgrid(side / 32, side / 32), tblock(32, 32);
  auto transpose = [&](auto kernel) {
    return [=] { kernel<<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); };
  };
  time("transpose 32, plain", transpose(Transpose<false>), kOff, 0, 0, 0);
  time("transpose 32, histories", transpose(Transpose<true>), kRecord, warps_not_kept, 4, 1);
  cudaFuncAttributes a{};
  WS_CUDA_CHECK(cudaFuncGetAttributes(&a, Transpose<true>));
  std::printf("transpose registers %d, local %zu bytes\n", a.numRegs, a.localSizeBytes);
  WS_CUDA_CHECK(cudaFuncGetAttributes(&a, Copy<true>));
  std::printf("copy registers %d, local %zu bytes\n", a.numRegs, a.localSizeBytes);
  return 0;
}
