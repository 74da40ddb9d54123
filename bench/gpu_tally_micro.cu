// What a recorded access costs on the GPU: a stride-1 copy of 2^24 floats (the capture bench's
// first case, one load and one store a thread, 1,024 threads a block), its two accesses recorded
// the way a lesson's are (ws::dev::RecordAccess with the tally on and blocks 0-3 kept), against
// the copy uninstrumented, the recorder built in but off, and the program shim's steps before the
// recorder (its region search, its dynamic instance). A first version also timed the recorder's
// steps one by one, cut short by hand; two of them never finished on an H200 (killed at 8 s), so
// they are gone.
// Two prototypes that counted shapes in shared memory were measured here and taken out (H200,
// against the tally's 0.41 ms): a table for the block, a shared atomic a request and the block's
// last thread adding up, 2.2 ms; a table for each warp, 1.42 ms, where this copy's every warp
// makes one request a site, so that every request missed the warp's table and paid for it too.
// Nsight Compute's instruction counts showed where the tally's time goes: 130 warp instructions
// a request (the kept-block list's loop 36, the shape's three mixings about 50), against 15 a
// warp for the copy itself.
// A standalone program (nvcc only, no CMake build), so that a short device call can compare
// recorder designs: bench/gpu_tally_micro.sh builds and runs it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gpu_micro_recorder.h"  // MicroRecorder, ResetMicroRecorder
#include "gpu_micro_timing.h"    // Alloc, EventMs
#include "warpscope/kernels/ws_cuda_device.h"
#include "ws_cuda_check.h"
#if defined(WS_MICRO_BLOCK_BARRIER)
#include "gpu_block_barrier.h"  // the transpose's barrier counted once a block (a prototype)
#endif

// The lesson form's entry, first in each recorded kernel here as in a lesson's: where the build
// keeps the warp's tally state (WS_WARP_STATE_BUILD, ws_cuda_tally.h), it is worked out there.
#if !defined(WS_KERNEL_ENTRY)
#define WS_KERNEL_ENTRY
#endif

namespace {

constexpr std::uint64_t kLoadKey =
    ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, ws::kKeyLoad, 4, 1);
constexpr std::uint64_t kStoreKey =
    ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, ws::kKeyStore, 4, 0);

// A lesson's keys are known only at run time: their buffer numbers arrive with the kernel's
// Global<T> arguments. Here from the stride argument (1: the load's buffer 1, the store's 0).
__global__ void Copy(float* out, const float* in, int stride) {
  WS_KERNEL_ENTRY
  const unsigned xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  const auto buffer = static_cast<std::uint32_t>(stride);
  ws::dev::RecordAccess(
      ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, ws::kKeyLoad, 4, buffer), xid * 4);
  const float v = in[xid];
  ws::dev::RecordAccess(
      ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, ws::kKeyStore, 4, buffer - 1),
      xid * 4);
  out[xid] = v;
}

// The program shim's steps before the recorder (ws_program_cuda.h's RecordDevice): the address's
// region by binary search over the launch's table (8 regions here, the buffer's the fifth), and
// with kInstance the thread's dynamic instance, read from its slot in device memory.
struct Regions {
  const unsigned long long* begin;
  const unsigned long long* end;
  const unsigned* key;
  const unsigned* instance;
  unsigned count;
};
// kLinear: a prototype search, every region's beginning read at once (loads that do not wait
// for each other) and counted, instead of the binary search's chain of dependent loads; for
// tables of up to 16 regions.
template <bool kInstance, bool kLinear = false>
__device__ __forceinline__ void RecordLikeAProgram(const Regions& g, const void* p,
                                                   unsigned key_op) {
  const auto addr = reinterpret_cast<unsigned long long>(p);
  unsigned lo = 0, hi = g.count;
  if (kLinear && g.count <= 16) {
#pragma unroll
    for (unsigned k = 0; k < 16; ++k) lo += k < g.count && __ldg(g.begin + k) <= addr ? 1u : 0u;
  } else {
    while (lo < hi) {
      const unsigned mid = (lo + hi) / 2;
      if (g.begin[mid] <= addr) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
  }
  if (lo == 0 || addr + 4 > g.end[lo - 1]) return;
  const std::uint64_t key =
      ws::MakeSiteKey(ws::MakePlace(0x1234, 10), ws::kKeyGlobal, key_op, 4, g.key[lo - 1]);
  unsigned long long instance = 0;
  if (kInstance) {
    const unsigned long long t =
        blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
    instance = (1ull << 32) | g.instance[t];
  }
  ws::dev::RecordAccess(key, static_cast<unsigned>(addr - g.begin[lo - 1]), instance);
}
template <bool kInstance, bool kLinear = false>
__global__ void ProgramCopy(float* out, const float* in, int stride, Regions g) {
  WS_KERNEL_ENTRY
  const unsigned xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  RecordLikeAProgram<kInstance, kLinear>(g, in + xid, ws::kKeyLoad);
  const float v = in[xid];
  RecordLikeAProgram<kInstance, kLinear>(g, out + xid, ws::kKeyStore);
  out[xid] = v;
}

// For the count check: blocks of 1,000 threads (31 whole warps and one of 8 lanes), each load
// from the lane's neighbour (pairs of lanes swapped: not affine), each store affine.
__global__ void CopySwapped(float* out, const float* in, int) {
  WS_KERNEL_ENTRY
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  ws::dev::RecordAccess(kLoadKey, (t ^ 1u) * 4);
  const float v = in[t ^ 1u];
  ws::dev::RecordAccess(kStoreKey, t * 4);
  out[t] = v;
}

// The transpose lesson's coalesced kernel at tile 32 (1,024 threads a block) on a square of
// `width` floats, its four accesses and its barrier recorded as a lesson's are (a global load, a
// shared store, the barrier, a shared load, a global store), keys from the arguments as a
// lesson's buffer numbers are; kRecorded false: the kernel alone.
template <bool kRecorded>
__device__ __forceinline__ void TransposeBody(float* out, const float* in, int width,
                                              int input_buffer) {
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  const auto buffer = static_cast<std::uint32_t>(input_buffer);  // 1: the output's is 0
  if (kRecorded) {
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 20), ws::kKeyGlobal, ws::kKeyLoad, 4, buffer),
        (y * width + x) * 4);
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 20), ws::kKeyShared, ws::kKeyStore, 4, 0),
        (ty * 33 + tx) * 4);
  }
  tile[ty][tx] = in[y * width + x];
  if (kRecorded) {
#if defined(WS_MICRO_BLOCK_BARRIER)
    micro::BlockCountedBarrier(ws::MakePlace(0x1234, 21));
#else
    ws::dev::SyncThreads(ws::MakePlace(0x1234, 21));
#endif
  } else {
    (__syncthreads)();  // the barrier itself (ws_cuda_device.h's macro records it)
  }
  const unsigned x2 = blockIdx.y * 32 + tx, y2 = blockIdx.x * 32 + ty;
  if (kRecorded) {
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 22), ws::kKeyShared, ws::kKeyLoad, 4, 0),
        (tx * 33 + ty) * 4);
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 22), ws::kKeyGlobal, ws::kKeyStore, 4, buffer - 1),
        (y2 * width + x2) * 4);
  }
  out[y2 * width + x2] = tile[tx][ty];
}
// The recorded kernel begins with the lesson form's entry in its own scope, as a lesson's does
// (the lean build's entry is an object whose destructor runs at the kernel's exit).
template <bool kRecorded>
__global__ void Transpose(float* out, const float* in, int width, int input_buffer) {
  TransposeBody<false>(out, in, width, input_buffer);
}
template <>
__global__ void Transpose<true>(float* out, const float* in, int width, int input_buffer) {
  WS_KERNEL_ENTRY
  TransposeBody<true>(out, in, width, input_buffer);
}

#if defined(WS_RECORDER_TALLY_ROWS)
// A tiled matmul's inner loop at tile 16 (blocks of 16 x 16 threads, a warp two rows of the
// tile): each k reads its row's element of one tile (every lane of a row the same word: step 0,
// the rows 64 bytes apart) and its column's of the other (consecutive words, the rows reading the
// same ones: row step 0). Neither is affine across the warp; both are affine in rows of 16
// (RecorderState::tally_rows 4), 32 requests a warp, all recorded.
__global__ void TileRows(float* out, const float* in, int) {
  WS_KERNEL_ENTRY
  __shared__ float a[16][16], b[16][16];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  a[ty][tx] = in[(blockIdx.x * 16 + ty) * 16 + tx];
  b[ty][tx] = in[(blockIdx.x * 16 + tx) * 16 + ty];
  (__syncthreads)();
  float sum = 0;
#pragma unroll 1
  for (unsigned k = 0; k < 16; ++k) {
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 30), ws::kKeyShared, ws::kKeyLoad, 4, 0),
        (ty * 16 + k) * 4);
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 31), ws::kKeyShared, ws::kKeyLoad, 4, 1),
        (k * 16 + tx) * 4);
    sum += a[ty][k] * b[k][tx];
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = sum;
}
#endif

// What a kept block's event costs on its warp's path (the lessons at their default sizes wait for
// their kept blocks: matmul tiled's recording pass 157 us against 3.3 us uninstrumented, Nsight
// Compute with caches and clocks left alone, H200, about 1 us for each of a kept warp's 160
// events). 4 blocks of 256 threads, all kept, each warp writing kChainEvents affine events at one
// site one after the other; the kernel's time over kChainEvents is an event's latency.
// kHow 0: ws::dev::RecordAccess as it is; 1: a copy of its kept road (ChainEvent), reserving by
// the atomic on the warp's state word in device memory as Reserve does (the copy's check: it
// should time as 0); 2: the copy reserving by an atomic on a word of the block's shared memory, a
// prototype (SharedReserve); 3: 2 without the time; 4: nothing recorded; 5: the copy, no
// reservation (every event here affine, 6 words: 160 fit a warp's kRegionWords); 6: each lane its
// own stream, no time (LaneEvent). H200: 0.212, 0.177, 0.135, 0.133, 0.064, 0.095, 0.173 ms.
constexpr unsigned kChainEvents = 160, kRegionWords = 1024;

// A prototype: warp w's events go to a region of its own (kRegionWords at w * kRegionWords of the
// pool), its words used counted in a shared-memory word that holds a tag in its high half, the
// launch's `launch` and the block's number mixed: no prologue clears it, so a word whose tag is
// not this block's is a stale one (another block's, another launch's or process's: `launch` mixes
// in a random number drawn once a process) and the first reservation that finds it claims it by
// a compare-and-swap. The used count is also published (atomicMax on the warp's state word, which
// nothing waits for) for the host. The shuffles and votes here are the plain intrinsics, in
// parentheses (ws_cuda_device.h's macros would record each as a warp meeting).
__device__ __forceinline__ unsigned* SharedReserve(const ws::dev::RecorderState& r,
                                                   unsigned long long* slots, unsigned launch,
                                                   unsigned words) {
  const unsigned long long warp = ws::dev::LinearWarp(r);
  unsigned long long* slot = slots + ws::dev::LinearThread() / 32u;
  const unsigned tag = (ws::dev::LinearBlock32() * 0x9e3779b9u ^ launch * 0x85ebca6bu) | 1u;
  // Claim a stale word (its tag not this block's) by a compare-and-swap to this tag and no words
  // used; a group that loses the claim to another of the warp finds the tag set and goes on.
  for (unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(slot);
       static_cast<unsigned>(seen >> 32) != tag;) {
    const unsigned long long was =
        atomicCAS(slot, seen, static_cast<unsigned long long>(tag) << 32);
    seen = was == seen ? static_cast<unsigned long long>(tag) << 32 : was;
  }
  const unsigned used =
      static_cast<unsigned>(atomicAdd(slot, static_cast<unsigned long long>(words)));
  if (used + words > kRegionWords) {
    *r.overflow = 1;
    return nullptr;
  }
  atomicMax(r.warp_state + warp, static_cast<unsigned long long>(used + words));
  return r.words + warp * kRegionWords + used;
}

template <int kHow>
__device__ __forceinline__ void ChainEvent(std::uint64_t key, std::uint32_t offset,
                                           unsigned long long* slots, unsigned launch,
                                           unsigned index) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  const unsigned active = __activemask();
  const unsigned group = __match_any_sync(active, key) & active;
  const int leader = __ffs(group) - 1;
  const unsigned rest = group & (group - 1);
  const int second = rest != 0 ? __ffs(rest) - 1 : leader;
  const unsigned lane = ws::dev::LaneId();
  const unsigned first = (__shfl_sync)(group, offset, leader);
  const unsigned step = (__shfl_sync)(group, offset, second) - first;
  const unsigned rank = __popc(group & ((1u << lane) - 1u));
  const bool affine = (__all_sync)(group, offset == first + rank * step) != 0;
  if (!ws::dev::KeptBlock(r, ws::dev::LinearBlock32())) return;
  const unsigned words = ws::dev::kEventHeaderWords + (affine ? 2u : __popc(group));
  unsigned* w = nullptr;
  if (static_cast<int>(lane) == leader)
    w = kHow == 1   ? ws::dev::Reserve(r, ws::dev::LinearWarp(r), words)
        : kHow == 5 ? r.words + ws::dev::LinearWarp(r) * kRegionWords + index * words
                    : SharedReserve(r, slots, launch, words);
  __syncwarp(active);
  w = reinterpret_cast<unsigned*>(
      (__shfl_sync)(group, reinterpret_cast<unsigned long long>(w), leader));
  if (w == nullptr) return;
  if (static_cast<int>(lane) == leader) {
    w[0] = static_cast<std::uint32_t>(key) | (affine ? ws::dev::kEventAffine : 0u);
    w[1] = static_cast<std::uint32_t>(key >> 32);
    w[2] = group;
    w[3] = kHow == 3 ? 0u : static_cast<std::uint32_t>(ws::dev::GlobalTimer());
    if (affine) {
      w[ws::dev::kEventHeaderWords] = first;
      w[ws::dev::kEventHeaderWords + 1] = step;
    }
  }
  if (!affine) w[ws::dev::kEventHeaderWords + rank] = offset;
}

// kHow 6: each lane its own stream (kLaneWords a thread), its used count in a tagged shared word
// only it touches; an event: the key, the lanes running, the offset.
constexpr unsigned kLaneWords = 1024;
__device__ __forceinline__ void LaneEvent(std::uint64_t key, std::uint32_t offset,
                                          unsigned long long* lanes, unsigned launch) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  const unsigned active = __activemask();
  if (!ws::dev::KeptBlock(r, ws::dev::LinearBlock32())) return;
  const unsigned tag = (ws::dev::LinearBlock32() * 0x9e3779b9u ^ launch * 0x85ebca6bu) | 1u;
  unsigned long long* mine = lanes + ws::dev::LinearThread();
  const unsigned long long seen = *mine;
  const unsigned used = static_cast<unsigned>(seen >> 32) == tag ? static_cast<unsigned>(seen) : 0u;
  if (used + 4 > kLaneWords) return;
  *mine = (static_cast<unsigned long long>(tag) << 32) | (used + 4);
  const unsigned long long thread = ws::dev::LinearBlock() * blockDim.x + ws::dev::LinearThread();
  unsigned* w = r.words + thread * kLaneWords + used;
  w[0] = static_cast<std::uint32_t>(key);
  w[1] = static_cast<std::uint32_t>(key >> 32);
  w[2] = active;
  w[3] = offset;
}

template <int kHow>
__global__ void KeptChain(float* out, const float* in, int launch) {
  WS_KERNEL_ENTRY
  __shared__ unsigned long long slots[8];  // kHow 2, 3: each warp's words used, and its tag
  __shared__ unsigned long long lanes[kHow == 6 ? 256 : 1];  // kHow 6: each lane's
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
#pragma unroll 1
  for (unsigned i = 0; i < kChainEvents; ++i) {
    const unsigned x = t + i * 1024u;  // the four blocks' 1,024 threads, a row of floats each step
    if (kHow == 0) {
      ws::dev::RecordAccess(kLoadKey, x * 4);
    } else if (kHow == 6) {
      LaneEvent(kLoadKey, x * 4, lanes, static_cast<unsigned>(launch));
    } else if (kHow != 4) {
      ChainEvent<kHow>(kLoadKey, x * 4, slots, static_cast<unsigned>(launch), i);
    }
    sum += in[x];
  }
  out[t] = sum;
}

__global__ void Plain(float* out, const float* in, int stride) {
  const unsigned xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  out[xid] = in[xid];
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = 1024, blocks = argc > 1 ? std::atoi(argv[1]) : 16384;
  const std::size_t n = std::size_t{threads} * blocks, warps = n / 32;
  float* in = Alloc<float>(n);
  float* out = Alloc<float>(n);
  const unsigned capacity = 1u << 13;
  ws::dev::RecorderState st = MicroRecorder(warps, threads);
  st.tally_keys = Alloc<unsigned long long>(capacity);
  st.tally_shapes = Alloc<unsigned>(std::size_t{capacity} * ws::dev::kTallyShapeWords);
  st.tally_counts = Alloc<unsigned long long>(std::size_t{capacity} * ws::dev::kTallySpread);
  // A whole warp's barrier pass in a block not kept adds its waits here (the transpose's).
  st.tally_waits = Alloc<unsigned long long>(std::size_t{capacity} * ws::dev::kTallySpread);
  st.tally_wait_max = Alloc<unsigned long long>(std::size_t{capacity} * ws::dev::kTallySpread);
  st.tally_full = Alloc<unsigned>(1);
  st.warp_tallied = Alloc<unsigned char>(warps);
  st.tally_capacity = capacity;
#if defined(WS_MICRO_BLOCK_BARRIER)
  const micro::BlockBarrierState bb{
      Alloc<unsigned long long>(std::size_t{ws::dev::kTallySpread} * micro::kWaitSlots),
      Alloc<unsigned long long>(std::size_t{ws::dev::kTallySpread} * micro::kWaitSlots)};
  WS_CUDA_CHECK(cudaMemcpyToSymbol(micro::block_barrier, &bb, sizeof bb));
#endif
  const unsigned kept = 4;  // blocks 0-3, as a lesson keeps them
  st.kept_base = 0;
  st.kept_last = kept - 1;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;  // one step alone (a process each)
  int index = -1;
  // `per_warp`: the requests a warp makes and the tally counts (the copy's two; the transpose's
  // four and its pass of the barrier, a whole warp's meeting tallied as a request is).
  // `want`: the requests the tally should count, where not the copy's blocks' per_warp each.
  auto time2 = [&](const char* label, auto launch, auto kernel, int mode, int per_warp = 2,
                   unsigned long long want = ~0ull) {
    if (++index != only && only >= 0) return 0.0f;
    std::printf("... %s\n", label);
    std::fflush(stdout);
    st.mode = mode;
    WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
    std::vector<float> ms;
    for (int i = 0; i < 15; ++i) {
      ResetMicroRecorder(st, warps);  // as the recorder starts a pass (StartRecording)
      WS_CUDA_CHECK(cudaMemset(st.warp_tallied, 0, warps));
      if (st.tally_keys != nullptr)
        WS_CUDA_CHECK(cudaMemset(st.tally_keys, 0, std::size_t{capacity} * 8));
      WS_CUDA_CHECK(
          cudaMemset(st.tally_counts, 0, std::size_t{capacity} * ws::dev::kTallySpread * 8));
      ms.push_back(EventMs([&] { launch(out, in, 1); }));
    }
    std::sort(ms.begin(), ms.end());
    cudaFuncAttributes attr{};
    WS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    // The last launch's count, against the grid's: two requests a warp, every warp of a block
    // not kept, where the tally is on (none when it is off or the recorder does not record).
    std::vector<unsigned long long> counts(std::size_t{capacity} * ws::dev::kTallySpread);
    WS_CUDA_CHECK(
        cudaMemcpy(counts.data(), st.tally_counts, counts.size() * 8, cudaMemcpyDeviceToHost));
    unsigned long long counted = 0;
    for (unsigned long long c : counts) counted += c;
    std::printf("%-40s %8.4f ms  (min %.4f)  %3d registers  tallied %llu of %llu\n", label,
                ms[ms.size() / 2], ms[0], attr.numRegs, counted,
                st.tally_keys == nullptr || mode != ws::dev::kRecord ? 0ull
                : want != ~0ull
                    ? want
                    : per_warp * (blocks > kept ? blocks - kept : 0ull) * (threads / 32));
    unsigned overflow[2] = {};
    WS_CUDA_CHECK(cudaMemcpy(overflow, st.overflow, 8, cudaMemcpyDeviceToHost));
    if (overflow[0] != 0) std::printf("  the pool ran dry (overflow set)\n");
    std::fflush(stdout);
    return ms[ms.size() / 2];
  };
  auto time = [&](const char* label, auto kernel, int mode) {
    return time2(
        label, [=](float* o, const float* i, int s) { kernel<<<blocks, threads>>>(o, i, s); },
        kernel, mode);
  };
  std::printf("stride-1 copy, %zu floats, %u threads a block, %u blocks\n", n, threads, blocks);
  const float plain = time("plain", Plain, ws::dev::kOff);
  time("recorder built in, off", Copy, ws::dev::kOff);
  const float real = time("recorded (tally, blocks 0-3 kept)", Copy, ws::dev::kRecord);
  if (only < 0) std::printf("recorded / plain: %.2fx\n", real / plain);
  // A program's: 8 regions (the two buffers among 6 others), each thread's instance slot.
  std::vector<unsigned long long> begin(8), end(8);
  std::vector<unsigned> key(8);
  for (unsigned k = 0; k < 8; ++k) {
    begin[k] = 0x1000 + k * 0x100000ull;
    end[k] = begin[k] + 0x1000;
    key[k] = k;
  }
  begin[4] = reinterpret_cast<unsigned long long>(in);
  end[4] = begin[4] + n * 4;
  begin[5] = reinterpret_cast<unsigned long long>(out);
  end[5] = begin[5] + n * 4;
  std::vector<std::size_t> order(8);
  for (std::size_t k = 0; k < 8; ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return begin[x] < begin[y]; });
  std::vector<unsigned long long> b2, e2;
  std::vector<unsigned> k2;
  for (std::size_t k : order) b2.push_back(begin[k]), e2.push_back(end[k]), k2.push_back(key[k]);
  Regions g{};
  unsigned long long* bd = Alloc<unsigned long long>(8);
  unsigned long long* ed = Alloc<unsigned long long>(8);
  unsigned* kd = Alloc<unsigned>(8);
  WS_CUDA_CHECK(cudaMemcpy(bd, b2.data(), 64, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemcpy(ed, e2.data(), 64, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemcpy(kd, k2.data(), 32, cudaMemcpyHostToDevice));
  g.begin = bd, g.end = ed, g.key = kd, g.count = 8;
  g.instance = Alloc<unsigned>(n);
  auto with = [&](auto kernel) {
    return [=](float* o, const float* i, int s) { kernel<<<blocks, threads>>>(o, i, s, g); };
  };
  time2("program: regions", with(ProgramCopy<false>), ProgramCopy<false>, ws::dev::kRecord);
  time2("program: regions + instance", with(ProgramCopy<true>), ProgramCopy<true>,
        ws::dev::kRecord);
  time2("program: regions read at once (prototype)", with(ProgramCopy<false, true>),
        ProgramCopy<false, true>, ws::dev::kRecord);
  // The recorder with every event written (the tally off, WS_GPU_TALLY=0's).
  // (Every block kept, as the backend's state is without a tally: ws_cuda_device.h's
  // CountedWhole reads the table only in a block not kept.)
  unsigned long long* keys = st.tally_keys;
  st.tally_keys = nullptr;
  st.kept_last = ~0u;
  time("recorded, tally off", Copy, ws::dev::kRecord);
  st.tally_keys = keys;
  st.kept_last = kept - 1;
  // The count check (no timing): the tally's counts against the grid's where groups are partial
  // warps and shapes are not affine, recorded at once, then in two passes as the backend runs them,
  // a counting pass that adds the shapes and a pass that only looks them up (tally_frozen).
  if (++index == only || only < 0) {
    std::printf("... count check\n");
    const unsigned block = 1000;
    const unsigned long long want = 2ull * (blocks > kept ? blocks - kept : 0) * 32;
    auto run = [&](int mode, int frozen, bool clear_keys) {
      st.mode = mode;
      st.tally_frozen = frozen;
      st.threads_per_block = block;
      WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
      ResetMicroRecorder(st, warps);
      if (clear_keys) {
        WS_CUDA_CHECK(cudaMemset(st.tally_keys, 0, std::size_t{capacity} * 8));
        WS_CUDA_CHECK(cudaMemset(st.tally_full, 0, 4));
      }
      WS_CUDA_CHECK(
          cudaMemset(st.tally_counts, 0, std::size_t{capacity} * ws::dev::kTallySpread * 8));
      CopySwapped<<<blocks, block>>>(out, in, 1);
      WS_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<unsigned long long> counts(std::size_t{capacity} * ws::dev::kTallySpread);
      WS_CUDA_CHECK(
          cudaMemcpy(counts.data(), st.tally_counts, counts.size() * 8, cudaMemcpyDeviceToHost));
      unsigned long long counted = 0;
      for (unsigned long long c : counts) counted += c;
      std::vector<unsigned long long> k(capacity);
      WS_CUDA_CHECK(cudaMemcpy(k.data(), st.tally_keys, k.size() * 8, cudaMemcpyDeviceToHost));
      return std::pair{counted, std::count_if(k.begin(), k.end(), [](auto x) { return x != 0; })};
    };
    const auto [at_once, shapes] = run(ws::dev::kRecord, 0, true);
    (void)run(ws::dev::kCount, 0, true);
    const auto [frozen, shapes2] = run(ws::dev::kRecord, 1, false);
    // Shapes: a shape keeps its first offset's place in 256 bytes, and warp w of block b starts
    // at byte (4,000 b + 128 w) mod 256, 8 places for the whole warps (b's 160 b mod 256 is a
    // multiple of 32, and 128 w adds 0 or 128) and 8 for the 8-lane warp (w = 31): 16 for the
    // load (swapped pairs) and 16 for the store, once the blocks not kept (4 on) reach b = 11
    // (the 8-lane warp's places take b = 4 to 11). H200: 32 and 32, the counts equal.
    std::printf(
        "count check: recorded at once %llu of %llu (%ld shapes), counted then looked up "
        "%llu (%ld shapes)%s\n",
        at_once, want, static_cast<long>(shapes), frozen, static_cast<long>(shapes2),
        at_once == want && frozen == want && (blocks < 12 || (shapes == 32 && shapes2 == 32))
            ? ""
            : "  MISMATCH");
    st.tally_frozen = 0;
    st.threads_per_block = threads;
  }
  // A kept block's events, one after the other on each warp's path (KeptChain): every block
  // kept, nothing tallied; the words each warp used, from its state word, where the prototype
  // publishes them (6 words an affine event: 960 each).
  {
    // A per-process random start, so that no process's tags repeat another's (the shared memory
    // a block finds is not cleared between processes).
    int launches = static_cast<int>(std::random_device{}() & 0x3fffffff);
    const unsigned saved_tpb = st.threads_per_block, saved_wpb = st.warps_per_block;
    st.threads_per_block = 256;
    st.warps_per_block = 8;
    auto chain = [&](auto kernel) {
      return [&launches, kernel](float* o, const float* i, int) {
        kernel<<<4, 256>>>(o, i, ++launches);
      };
    };
    time2("kept chain, RecordAccess", chain(KeptChain<0>), KeptChain<0>, ws::dev::kRecord, 0, 0);
    time2("kept chain, its copy (global state)", chain(KeptChain<1>), KeptChain<1>,
          ws::dev::kRecord, 0, 0);
    auto shared = [&](const char* label, auto kernel) {
      if (time2(label, chain(kernel), kernel, ws::dev::kRecord, 0, 0) == 0.0f) return;
      // 4 blocks of 8 warps: warps 0-31 (LinearWarp with 8 warps a block).
      std::vector<unsigned long long> used(32);
      WS_CUDA_CHECK(cudaMemcpy(used.data(), st.warp_state, 32 * 8, cudaMemcpyDeviceToHost));
      const auto [lo, hi] = std::minmax_element(used.begin(), used.end());
      std::printf("  words used a warp: %llu to %llu (want %u)\n", *lo, *hi, kChainEvents * 6);
    };
    shared("kept chain, its copy (shared state)", KeptChain<2>);
    shared("kept chain, its copy (shared state, no time)", KeptChain<3>);
    auto timed = [&](const char* label, auto kernel) {
      time2(label, chain(kernel), kernel, ws::dev::kRecord, 0, 0);
    };
    timed("kept chain, nothing recorded (its floor)", KeptChain<4>);
    timed("kept chain, its copy, no reservation", KeptChain<5>);
    timed("kept chain, each lane its stream", KeptChain<6>);
    st.threads_per_block = saved_tpb;
    st.warps_per_block = saved_wpb;
  }
  // The tile's rows (TileRows), 16 x 16 blocks over the copy's floats: counted by their steps
  // (tally_rows 4, the backend's for such a block) and by their lanes' hash (0, as before).
#if defined(WS_RECORDER_TALLY_ROWS)
  {
    const dim3 rgrid(static_cast<unsigned>(n / 256)), rblock(16, 16);
    auto rows = [&](float* o, const float* i, int) { TileRows<<<rgrid, rblock>>>(o, i, 0); };
    const unsigned saved_tpb = st.threads_per_block, saved_wpb = st.warps_per_block;
    st.threads_per_block = 256;
    st.warps_per_block = 8;
    // 32 requests a warp, 8 warps a block, every block but the kept four.
    const unsigned long long want = 32ull * 8 * (rgrid.x > kept ? rgrid.x - kept : 0);
    st.tally_rows = 4;
    time2("tile rows 16, by their steps (tally_rows 4)", rows, TileRows, ws::dev::kRecord, 32,
          want);
    st.tally_rows = 0;
    time2("tile rows 16, by their lanes' hash (tally_rows 0)", rows, TileRows, ws::dev::kRecord, 32,
          want);
    st.threads_per_block = saved_tpb;
    st.warps_per_block = saved_wpb;
  }
#else
  index += 2;  // an older recorder: no rows road to time
#endif
  // Transpose at tile 32 over a square of the copy's floats (4,096² at 16,384 blocks), as many
  // blocks as the copy's, so that the count check's expectation holds: only where the copy's
  // floats make a square of 32-float tiles (blocks a power of 4).
  unsigned side = 32;
  while (std::size_t{side} * 2 * side * 2 <= n) side *= 2;
  if (std::size_t{side} * side != n) {
    index += 2;
    std::printf(
        "transpose: skipped (%u blocks of 1,024 threads make no square; a power of 4 "
        "does)\n",
        blocks);
    return 0;
  }
  const dim3 tgrid(side / 32, side / 32), tblock(32, 32);
  auto transpose = [&](auto kernel) {
    return [=](float* o, const float* i, int) { kernel<<<tgrid, tblock>>>(o, i, side, 1); };
  };
  const float tplain =
      time2("transpose 32, plain", transpose(Transpose<false>), Transpose<false>, ws::dev::kOff);
  const float trec = time2("transpose 32, recorded (tally, blocks 0-3 kept)",
                           transpose(Transpose<true>), Transpose<true>, ws::dev::kRecord, 5);
  if (only < 0) std::printf("transpose recorded / plain: %.2fx\n", trec / tplain);
  return 0;
}
