// A prototype for issue 51's recording pass (not the product's): a whole warp's affine request
// counted with no lookup in the tally's table. Nsight Compute's source counters on
// bench/gpu_tally_micro.cu's padded transpose (thirty-sixth session, docs/GPU.md) put a counted
// request at 60-75 warp instructions, of which the shape's hash and slot take about 15 and the
// slot key's load, compare and vote about 6; the pass issues on 82 % of the schedulers' cycles, so
// that its time follows its instructions, and 3x the plain kernel is about 65 instructions a warp
// fewer. Here a site whose key and step a table in constant memory already holds (the host would
// fill it from an earlier pass: the hazard pass visits every site of the grid before the recording
// pass at size) is counted at a counter of its own for each place of its first offset in 256
// bytes (the shape's only other word): the site's slot from its key by a multiply, the table's two
// words from the constant cache, both folded into the affine test's vote, and the leader's add.
// Anything else takes the tally's general road (out of line, as the lean unit builds it). A
// second form (mode 4, SelfAccess) keeps the table in global memory, filled by the pass itself. The
// host would add the direct counters into the shapes they stand for (site key, step, first offset's
// place) before costing them. The kernels are gpu_tally_micro.cu's copy and padded transpose (tile
// 32, 1,024 threads a block), recorded both ways in one process, with the count check: the direct
// counters and the tally's together equal the grid's requests. Usage (on the GPU machine): nvcc
// -std=c++17 -O3 -arch=sm_90 -Ikernels/api -Itrace/device
//   -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS -maxrregcount=32
//   -o direct bench/gpu_direct_micro.cu && ./direct [BLOCKS]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "gpu_micro_recorder.h"  // MicroRecorder, ResetMicroRecorder
#include "gpu_micro_timing.h"    // Alloc, EventMs
#include "warpscope/kernels/ws_cuda_device.h"
#include "ws_cuda_check.h"

#if !defined(WS_WARP_STATE_BUILD)
#error "the direct road counts in the warp's column (ws_tally_warp): build with WS_WARP_STATE_BUILD"
#endif

namespace {

constexpr unsigned kSiteBits = 6, kSites = 1u << kSiteBits;  // direct-mapped sites
constexpr unsigned kPlaces = 256;                            // first offset modulo 256 bytes
// Each column of the direct counters is as long as a column of the tally's (its capacity), so
// that the warp's state (the column's first counter) indexes both.
constexpr unsigned kCapacity = kSites * kPlaces;

__constant__ unsigned long long c_site_key[kSites];  // 0: no site
__constant__ unsigned c_site_step[kSites];
__constant__ unsigned long long* c_direct;  // [kTallySpread * kCapacity]

// A site key's slot: its halves mixed by two multiplies, the top bits.
// The table's seed, chosen by the host so that no two of the kernels' sites share a slot (a
// shared slot sent the second site the general road: the first run, H200, 4 Dec).
__constant__ unsigned c_site_seed;
__host__ __device__ constexpr unsigned SiteSlotWith(std::uint64_t key, unsigned seed) {
  return ((static_cast<unsigned>(key) ^ seed) * 0x9e3779b9u ^
          static_cast<unsigned>(key >> 32) * 0x85ebca6bu) >>
         (32 - kSiteBits);
}
__device__ __forceinline__ unsigned SiteSlot(std::uint64_t key) {
  return SiteSlotWith(key, c_site_seed);
}

// The leader's count at `place` of site slots in the warp's column of the direct counters, and
// the warp's counted bit (as ws::dev::CountTalliedOnce counts the tally's).
__device__ __forceinline__ void CountDirectOnce(unsigned state, unsigned place, unsigned lane) {
  unsigned long long* at = c_direct + ((state & ~ws::dev::kWarpCounted) + place);
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.eq.u32 p, %0, 0;\n\t"
      "@p red.global.add.u64 [%1], 1;\n\t"
      "or.b32 ws_tally_warp, ws_tally_warp, %2;\n\t}" ::"r"(lane),
      "l"(at), "n"(ws::dev::kWarpCounted)
      : "memory");
}

__device__ __forceinline__ void DirectAccess(std::uint64_t key, std::uint32_t offset) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  if (r.mode == ws::dev::kRecord && __activemask() == ~0u) {
    int same = 0;
    (void)__match_all_sync(~0u, key, &same);
    const unsigned state = ws::dev::TallyWarp();
    if (same != 0 && state != ~0u) {
      // The intrinsics in parentheses: the header's macros record a lesson's own as meetings.
      const unsigned lane = ws::dev::LaneId();
      const unsigned first = (__shfl_sync)(~0u, offset, 0, 32);
      const unsigned step = (__shfl_sync)(~0u, offset, 1, 32) - first;
      const unsigned s = SiteSlot(key);
      if ((__all_sync)(~0u, offset == first + lane * step && c_site_key[s] == key &&
                                c_site_step[s] == step) != 0) {
        CountDirectOnce(state, s * kPlaces + (first & 255u), lane);
        return;
      }
    }
  }
  // Anything else: the tally's general road, out of line (its short road inline beside this one
  // took the transpose from 16 bytes of spill stores to 72, ptxas).
  if (r.mode == ws::dev::kOff) return;
  ws::dev::RecordGeneralOutOfLine(key, offset, 0, nullptr);
}

// The table filled by the pass itself (mode 4), so that no earlier pass is needed: each entry a
// site's key and its step plus one (0: not yet written), claimed by the first whole affine warp
// that finds the entry empty (its key by a compare-and-swap, then its step) and never changed
// after. A warp that reads the entry before its step is written, or a stale copy of it (the
// entries are read through L1, as the tally's keys are), goes the tally's roads: the counts stay
// exact either way, only slower. The host would read the entries with the counters.
struct alignas(16) SelfSite {
  unsigned long long key;
  unsigned step1;
  unsigned unused;
};
__constant__ SelfSite* c_self_sites;  // [kSites]
__device__ __forceinline__ void SelfAccess(std::uint64_t key, std::uint32_t offset) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  if (r.mode == ws::dev::kRecord && __activemask() == ~0u) {
    int same = 0;
    (void)__match_all_sync(~0u, key, &same);
    const unsigned state = ws::dev::TallyWarp();
    if (same != 0 && state != ~0u) {
      const unsigned lane = ws::dev::LaneId();
      const unsigned first = (__shfl_sync)(~0u, offset, 0, 32);
      const unsigned step = (__shfl_sync)(~0u, offset, 1, 32) - first;
      const unsigned s = SiteSlot(key);
      // Through L2 (ld.cg): an entry read through L1 could stay the empty one an SM saw first.
      const ulonglong2 e = __ldcg(reinterpret_cast<const ulonglong2*>(c_self_sites + s));
      // A step of ~0u would be a step word of 0 (not yet written): the tally's roads (a review).
      const bool affine = offset == first + lane * step && step != ~0u;
      if ((__all_sync)(~0u, affine && e.x == key && static_cast<unsigned>(e.y) == step + 1u) != 0) {
        CountDirectOnce(state, s * kPlaces + (first & 255u), lane);
        return;
      }
      // A miss: the first whole affine warp to find the entry empty claims it.
      if (e.x == 0 && (__all_sync)(~0u, affine) != 0 && lane == 0 &&
          atomicCAS(&c_self_sites[s].key, 0ull, key) == 0ull)
        atomicExch(&c_self_sites[s].step1, step + 1u);
    }
  }
  if (r.mode == ws::dev::kOff) return;
  ws::dev::RecordAccess(key, offset);
}

// The barrier's pass the same way (mode 3): its key (the place, as the tally keys a barrier) and
// its count of threads (the table's step word) from the table, counted at place 0 of its site,
// its waits beside it in arrays of the same shape. Anything else: the product's pass.
__constant__ unsigned long long* c_direct_waits;
__constant__ unsigned long long* c_direct_wait_max;
__device__ __forceinline__ void DirectSync(std::uint32_t place) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  const unsigned state = ws::dev::TallyWarp();
  if (r.mode != ws::dev::kRecord || state == ~0u) return ws::dev::SyncThreads(place);
  const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | ws::dev::kTallyBarrier;
  const unsigned s = SiteSlot(key);
  const unsigned group = __activemask();
  const unsigned lane = ws::dev::LaneId();
  const std::uint64_t arrival = ws::dev::GlobalTimer();
  const auto arrived = static_cast<std::uint32_t>(__syncthreads_count(1));
  const std::uint64_t departure = ws::dev::GlobalTimer();
  if ((__all_sync)(~0u, group == ~0u && c_site_key[s] == key && c_site_step[s] == arrived) != 0) {
    const unsigned at = (state & ~ws::dev::kWarpCounted) + s * kPlaces;
    if (lane == 0) {
      atomicAdd(c_direct + at, 1ull);
      const unsigned long long wait = departure >= arrival ? departure - arrival : 0ull;
      atomicAdd(c_direct_waits + at, wait * 32ull);
      atomicMax(c_direct_wait_max + at, wait);
    }
    asm volatile("or.b32 ws_tally_warp, ws_tally_warp, %0;" ::"n"(ws::dev::kWarpCounted));
    __syncwarp();
    return;
  }
  // Not in the table: written as an event (the micro's table always holds it, so never here in a
  // block not kept; a real one would count it through the tally's general road).
  ws::dev::CountOrWriteBarrier(place, 0, group, arrived, arrival, departure, nullptr,
                               state & ~ws::dev::kWarpCounted);
}

// gpu_tally_micro.cu's transpose: a global load, a shared store, the barrier, a shared load, a
// global store, keys as a lesson's (the buffers' numbers from the arguments).
// kRoad: 0 the tally's roads, 1 the direct road on the table the host filled, 2 on the table the
// pass fills itself.
template <int kRoad>
__device__ __forceinline__ void Access(std::uint64_t key, std::uint32_t offset) {
  if (kRoad == 1) {
    DirectAccess(key, offset);
  } else if (kRoad == 2) {
    SelfAccess(key, offset);
  } else {
    ws::dev::RecordAccess(key, offset);
  }
}
__host__ __device__ constexpr std::uint64_t TransposeKey(unsigned line, std::uint32_t space,
                                                         std::uint32_t op, std::uint32_t buffer) {
  return ws::MakeSiteKey(ws::MakePlace(0x1234, line), space, op, 4, buffer);
}
// kMode: 0 plain, 1 the tally's roads, 2 the direct road first, 3 and the barrier's, 4 the direct
// road on the table the pass fills (the barrier the tally's).
template <int kMode>
constexpr int kRoadOf = kMode == 4   ? 2
                        : kMode >= 2 ? 1
                                     : 0;
template <int kMode>
__global__ void Transpose(float* out, const float* in, int width, int input_buffer) {
  WS_KERNEL_ENTRY
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  const auto buffer = static_cast<std::uint32_t>(input_buffer);
  if (kMode > 0) {
    Access<kRoadOf<kMode>>(TransposeKey(20, ws::kKeyGlobal, ws::kKeyLoad, buffer),
                           (y * width + x) * 4);
    Access<kRoadOf<kMode>>(TransposeKey(20, ws::kKeyShared, ws::kKeyStore, 0), (ty * 33 + tx) * 4);
  }
  tile[ty][tx] = in[y * width + x];
  if (kMode == 3) {
    DirectSync(ws::MakePlace(0x1234, 21));
  } else if (kMode > 0) {
    ws::dev::SyncThreads(ws::MakePlace(0x1234, 21));
  } else {
    (__syncthreads)();
  }
  const unsigned x2 = blockIdx.y * 32 + tx, y2 = blockIdx.x * 32 + ty;
  if (kMode > 0) {
    Access<kRoadOf<kMode>>(TransposeKey(22, ws::kKeyShared, ws::kKeyLoad, 0), (tx * 33 + ty) * 4);
    Access<kRoadOf<kMode>>(TransposeKey(22, ws::kKeyGlobal, ws::kKeyStore, buffer - 1),
                           (y2 * width + x2) * 4);
  }
  out[y2 * width + x2] = tile[tx][ty];
}
template <int kMode>
__global__ void Copy(float* out, const float* in, int stride) {
  WS_KERNEL_ENTRY
  const unsigned xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  const auto buffer = static_cast<std::uint32_t>(stride);
  if (kMode > 0)
    Access<kRoadOf<kMode>>(TransposeKey(10, ws::kKeyGlobal, ws::kKeyLoad, buffer), xid * 4);
  const float v = in[xid];
  if (kMode > 0)
    Access<kRoadOf<kMode>>(TransposeKey(10, ws::kKeyGlobal, ws::kKeyStore, buffer - 1), xid * 4);
  out[xid] = v;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = 1024, blocks = argc > 1 ? std::atoi(argv[1]) : 16384;
  const std::size_t n = std::size_t{threads} * blocks, warps = n / 32;
  unsigned side = 1;
  while (std::size_t{side} * side < n) side *= 2;
  if (std::size_t{side} * side != n) {
    std::printf("%u blocks of 1,024 threads make no square; give a power of 4\n", blocks);
    return 1;
  }
  float* in = Alloc<float>(n);
  float* out = Alloc<float>(n);
  ws::dev::RecorderState st = MicroRecorder(warps, threads);
  st.tally_keys = Alloc<unsigned long long>(kCapacity);
  st.tally_shapes = Alloc<unsigned>(std::size_t{kCapacity} * ws::dev::kTallyShapeWords);
  st.tally_counts = Alloc<unsigned long long>(std::size_t{kCapacity} * ws::dev::kTallySpread);
  st.tally_waits = Alloc<unsigned long long>(std::size_t{kCapacity} * ws::dev::kTallySpread);
  st.tally_wait_max = Alloc<unsigned long long>(std::size_t{kCapacity} * ws::dev::kTallySpread);
  st.tally_full = Alloc<unsigned>(1);
  st.warp_tallied = Alloc<unsigned char>(warps);
  st.tally_capacity = kCapacity;
  const std::size_t column_words = std::size_t{kCapacity} * ws::dev::kTallySpread;
  unsigned long long* direct = Alloc<unsigned long long>(column_words);
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_direct, &direct, sizeof direct));
  SelfSite* self_sites = Alloc<SelfSite>(kSites);
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_self_sites, &self_sites, sizeof self_sites));
  unsigned long long* direct_waits = Alloc<unsigned long long>(column_words);
  unsigned long long* direct_wait_max = Alloc<unsigned long long>(column_words);
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_direct_waits, &direct_waits, sizeof direct_waits));
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_direct_wait_max, &direct_wait_max, sizeof direct_wait_max));
  // The sites' table as an earlier pass would leave it: the transpose's four and the copy's two,
  // each with the step its whole warps make (input buffer 1, output 0).
  std::vector<unsigned long long> site_key(kSites, 0);
  std::vector<unsigned> site_step(kSites, 0);
  const std::pair<std::uint64_t, unsigned> sites[] = {
      {TransposeKey(20, ws::kKeyGlobal, ws::kKeyLoad, 1), 4},
      {TransposeKey(20, ws::kKeyShared, ws::kKeyStore, 0), 4},
      {TransposeKey(22, ws::kKeyShared, ws::kKeyLoad, 0), 33 * 4},
      {TransposeKey(22, ws::kKeyGlobal, ws::kKeyStore, 0), 4},
      // The barrier: its place and the tally's barrier bits; its count of threads, the block's.
      {static_cast<std::uint64_t>(ws::MakePlace(0x1234, 21)) << 32 | ws::dev::kTallyBarrier, 1024},
      {TransposeKey(10, ws::kKeyGlobal, ws::kKeyLoad, 1), 4},
      {TransposeKey(10, ws::kKeyGlobal, ws::kKeyStore, 0), 4}};
  unsigned seed = 0;
  for (; seed < 4096; ++seed) {
    std::fill(site_key.begin(), site_key.end(), 0ull);
    bool apart = true;
    for (const auto& [key, step] : sites) {
      const unsigned s = SiteSlotWith(key, seed);
      apart = apart && site_key[s] == 0;
      site_key[s] = key, site_step[s] = step;
    }
    if (apart) break;
  }
  if (seed == 4096) {
    std::printf("no seed below 4,096 gives every site its own slot\n");
    return 1;
  }
  std::printf("the sites' seed %u: every site its own slot\n", seed);
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_site_seed, &seed, sizeof seed));
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_site_key, site_key.data(), kSites * 8));
  WS_CUDA_CHECK(cudaMemcpyToSymbol(c_site_step, site_step.data(), kSites * 4));
  const unsigned kept = 4;
  st.kept_base = 0;
  st.kept_last = kept - 1;
  auto sum = [](const unsigned long long* d, std::size_t count) {
    std::vector<unsigned long long> h(count);
    WS_CUDA_CHECK(cudaMemcpy(h.data(), d, count * 8, cudaMemcpyDeviceToHost));
    unsigned long long s = 0;
    for (unsigned long long c : h) s += c;
    return s;
  };
  // Median of 15 launches; the counts of the last against `want` (0: none expected).
  auto run = [&](const char* label, auto launch, auto kernel, int mode, unsigned long long want) {
    st.mode = mode;
    WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
    std::vector<float> ms;
    unsigned long long tallied = 0, counted_direct = 0;
    for (int i = 0; i < 15; ++i) {
      ResetMicroRecorder(st, warps);
      WS_CUDA_CHECK(cudaMemset(st.warp_tallied, 0, warps));
      WS_CUDA_CHECK(cudaMemset(st.tally_keys, 0, std::size_t{kCapacity} * 8));
      WS_CUDA_CHECK(cudaMemset(st.tally_counts, 0, column_words * 8));
      WS_CUDA_CHECK(cudaMemset(direct, 0, column_words * 8));
      WS_CUDA_CHECK(cudaMemset(self_sites, 0, kSites * sizeof(SelfSite)));
      ms.push_back(EventMs(launch));
    }
    tallied = sum(st.tally_counts, column_words);
    counted_direct = sum(direct, column_words);
    std::sort(ms.begin(), ms.end());
    cudaFuncAttributes attr{};
    WS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    std::printf(
        "%-44s %8.4f ms (min %.4f) %3d registers  tally %llu + direct %llu = %llu of %llu%s\n",
        label, ms[ms.size() / 2], ms[0], attr.numRegs, tallied, counted_direct,
        tallied + counted_direct, want, tallied + counted_direct == want ? "" : "  MISMATCH");
    return ms[ms.size() / 2];
  };
  const unsigned long long not_kept_warps = (blocks - kept) * (threads / 32ull);
  const dim3 tgrid(side / 32, side / 32), tblock(32, 32);
  for (int round = 1; round <= 3; ++round) {
    std::printf("== round %d (copy of %zu floats; transpose %u x %u)\n", round, n, side, side);
    const float cp = run(
        "copy, plain", [&] { Copy<0><<<blocks, threads>>>(out, in, 1); }, Copy<0>, ws::dev::kOff,
        0);
    const float ct = run(
        "copy, the tally's roads", [&] { Copy<1><<<blocks, threads>>>(out, in, 1); }, Copy<1>,
        ws::dev::kRecord, 2 * not_kept_warps);
    const float cd = run(
        "copy, the direct road", [&] { Copy<2><<<blocks, threads>>>(out, in, 1); }, Copy<2>,
        ws::dev::kRecord, 2 * not_kept_warps);
    const float tp = run(
        "padded transpose, plain",
        [&] { Transpose<0><<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); }, Transpose<0>,
        ws::dev::kOff, 0);
    // Four requests and the barrier's pass a warp (the pass stays the tally's).
    const float tt = run(
        "padded transpose, the tally's roads",
        [&] { Transpose<1><<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); }, Transpose<1>,
        ws::dev::kRecord, 5 * not_kept_warps);
    const float td = run(
        "padded transpose, the direct road",
        [&] { Transpose<2><<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); }, Transpose<2>,
        ws::dev::kRecord, 5 * not_kept_warps);
    const float cs = run(
        "copy, the direct road, its table filled by the pass",
        [&] { Copy<4><<<blocks, threads>>>(out, in, 1); }, Copy<4>, ws::dev::kRecord,
        2 * not_kept_warps);
    const float ts = run(
        "padded transpose, the direct road, its table filled by the pass",
        [&] { Transpose<4><<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); }, Transpose<4>,
        ws::dev::kRecord, 5 * not_kept_warps);
    std::printf("filled by the pass: copy %.2fx, transpose %.2fx\n", cs / cp, ts / tp);
    const float tb = run(
        "padded transpose, direct roads and barrier",
        [&] { Transpose<3><<<tgrid, tblock>>>(out, in, static_cast<int>(side), 1); }, Transpose<3>,
        ws::dev::kRecord, 5 * not_kept_warps);
    std::printf(
        "copy: tally %.2fx, direct %.2fx; transpose: tally %.2fx, direct %.2fx, with the "
        "barrier %.2fx\n",
        ct / cp, cd / cp, tt / tp, td / tp, tb / tp);
  }
  return 0;
}
