// What recording every lane's access costs a kernel when nothing waits for it: each lane writes
// its own record into a log laid out lane-minor (a warp's k-th records are one 512-byte row, so
// that a whole warp's store is four full lines), at a row counted by the lane itself, with no
// shuffle, vote or atomic on the warp's path. The host (or a later kernel) would group a warp's
// lanes into requests from each record's active mask. Standalone: no recorder headers.
//
// Cases, each against the same kernel with nothing recorded:
//  - a chain of 160 dependent-free loads in 4 blocks of 256 threads (the kept chain of
//    gpu_tally_micro.cu: there the recorder's kept road cost 0.93 us an event over this floor);
//  - the matmul lesson's tiled kernel at 64² and 256² (tile 16), every access and barrier logged;
//  - a 2^24-float copy and a padded 4,096² transpose (tile 32), every access logged.
// The row counter lives in a register (a kernel-long variable: what a prologue would give), in
// shared memory zeroed by the thread at the start, or in shared memory behind a tag (no
// prologue: a stale word is recognised by its tag). Records of 16 bytes (the site's key, the
// offset, the active mask), 8 bytes (a 16-bit site and a 48-bit address), or 16 with the
// global timer in place of the key's high half; and the product's record (ws_cuda_lane_log.h:
// the tagged counter, the time, each thread's count), with the time by the lowest lane (as built
// until the nineteenth session) with and without the count, and by every lane (as built since)
// with and without the count.
// Three more cases (gpu_lane_log_micro_product.h) add the product's file note, its barrier and
// its loads before their records to the last of those, one at a time, on the tiled matmul.
// Usage: gpu_lane_log_micro [REPEATS]; prints one line a case, medians of REPEATS timings of 20
// back-to-back launches each (per launch), and single launches timed alone. Built and run by
// bench/gpu_batch.sh's lane-micro step (nvcc -std=c++17 -O3 -arch=sm_90, no CMake build).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu_micro_timing.h"
#include "ws_cuda_check.h"

namespace {

// kProduct16: the product's record until the nineteenth session (ws_cuda_lane_log.h): the tagged
// counter, the time read at every access and written by the lowest lane, and the thread's count
// stored to device memory; kNoCount16: the same without the count (a cleared log would tell the
// host each column's end); kAllTimes16: that with every lane writing its own time (a whole line a
// warp) where only the lowest lane wrote one (4 bytes of a line); kShipped16: kAllTimes16 with the
// count, the product's record since. H200, nineteenth session, the tiled matmul at 256²: the
// tagged 16-byte record alone 85 us, kProduct16 228, kNoCount16 216, kAllTimes16 120.
enum How : int {
  kNone = 0,
  kReg16 = 1,
  kShared16 = 2,
  kTagged16 = 3,
  kReg8 = 4,
  kRegTime16 = 5,
  kProduct16 = 6,
  kNoCount16 = 7,
  kAllTimes16 = 8,
  kShipped16 = 9,
  kColumn16 = 10,
  kColumnTimeIn16 = 11,
  kColumnNoTime16 = 12,
  kColumnLead8 = 13,
  kNumbered16 = 14,
  kNumberedNote16 = 15,
  kNumberedHead8 = 16,
  kNumberedTimeWord16 = 17,
  kNoteLiteral16 = 18,  // the product's pieces added one at a time: gpu_lane_log_micro_product.h
  kProductBarrier16 = 19,
  kLoadFirst16 = 20
};
template <int kHow>
constexpr bool kProductLike =
    kHow == kNoteLiteral16 || kHow == kProductBarrier16 || kHow == kLoadFirst16;
// The column as the product numbers it since the twenty-first session (ws_cuda_lane_log.h): the
// next row's number in a register, each address one wide multiply-add from it, every store
// predicated (no branch in a record), a lane past its rows storing its count. kNumbered16: the
// record and every lane's time (as built, without the file's note); kNumberedNote16: with the
// file's note (a tag compared with the lane's last, the literal stored where they differ, both
// predicated); kNumberedHead8: each lane 8 bytes (the offset and the lanes running), and every
// lane of the group the same 16 (the key and the time) at its lowest lane's slot of a second
// array: one sector a request, where a warp's stores to one address are one; a warp's access
// 256 + 32 bytes where kNumbered16's is 512 + 128; kNumberedTimeWord16: a whole warp's record
// carries its time in word 3 (its word 0 flagged) and stores no time apart, a part warp's as
// kNumbered16.
// The lane's column in registers, as the product keeps it since the twentieth session
// (ws_cuda_lane_log.h, WS_KERNEL_ENTRY): the next row's and time's addresses and the rows left,
// each record stored where a row is left and both addresses moved on. kColumn16: as built (every
// lane's time in its own array); kColumnTimeIn16: the time in the record's second word instead
// of the key's high half (a key of 32 bits: one store a record); kColumnNoTime16: no time;
// kColumnLead8: each lane 8 bytes (its offset and the lanes running), and the lowest of those
// lanes 16 more (the key and the time) at its slot of a second array: a warp's access 256 + 16
// bytes where kColumn16's is 512 + 128.
template <int kHow>
constexpr bool kColumn =
    kHow == kColumn16 || kHow == kColumnTimeIn16 || kHow == kColumnNoTime16 || kHow == kColumnLead8;
template <int kHow>
constexpr bool kNumbered =
    kHow == kNumbered16 || kHow == kNumberedNote16 || kHow == kNumberedHead8 ||
    kHow == kNumberedTimeWord16 || kProductLike<kHow>;
template <int kHow>
constexpr bool kTimed =
    kHow == kProduct16 || kHow == kNoCount16 || kHow == kAllTimes16 || kHow == kShipped16;
template <int kHow>
constexpr bool kTaggedCounter = kHow == kTagged16 || kTimed<kHow>;

struct Log {
  uint4* rows;       // cap rows of 32 lanes a warp
  unsigned cap;      // rows a warp
  unsigned tag;      // kTagged16: this launch's tag
  unsigned* times;   // kTimed: a slot's time, by the lowest lane or every lane
  unsigned* counts;  // kProduct16, kShipped16: each thread's rows
};

__device__ __forceinline__ unsigned Lane() {
  return threadIdx.x & 31u;
}
__device__ __forceinline__ unsigned long long GlobalWarp() {
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned long long b =
      blockIdx.x + gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  return (b * (blockDim.x * blockDim.y * blockDim.z) + t) / 32u;
}
__device__ __forceinline__ unsigned FlatThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned long long Timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// As ws_cuda_lane_log.h reads it: no "memory" clobber, so that the counter may stay in a register.
__device__ __forceinline__ unsigned LaneTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<unsigned>(t);
}

// The lane's row counter, where kHow keeps it.
template <int kHow>
struct Cursor {
  unsigned reg = 0;
  unsigned long long* mine = nullptr;  // shared: this thread's word
  uint4* row = nullptr;                // kColumn: the next row, its time and the rows left
  unsigned* time = nullptr;
  unsigned left = 0;
  unsigned next = 0, noted = ~0u;  // kNumbered: the next row's number, the tag noted last
  unsigned* count = nullptr;
  __device__ __forceinline__ void Column(const Log& log, unsigned long long warp) {
    if constexpr (kNumbered<kHow>) {
      const unsigned long long slot = warp * log.cap * 32u + Lane();
      row = log.rows + slot;
      time = log.times + slot;
      count = log.counts + warp * 32u + Lane();
      if constexpr (kHow == kNumberedHead8) {  // slots of 8 bytes; heads of 16 past the rows' 2 GB
        row = reinterpret_cast<uint4*>(reinterpret_cast<uint2*>(log.rows) + slot);
        time =
            reinterpret_cast<unsigned*>(log.rows + (std::size_t{1} << 27) + warp * log.cap * 32u);
      }
    }
    if constexpr (kColumn<kHow>) {
      const unsigned long long slot = warp * log.cap * 32u + Lane();
      row = log.rows + slot;
      time = log.times + slot;
      if constexpr (kHow == kColumnLead8) {  // slots of 8 bytes; heads of 16 past the rows' 2 GB
        row = reinterpret_cast<uint4*>(reinterpret_cast<uint2*>(log.rows) + slot);
        time = reinterpret_cast<unsigned*>(log.rows + (std::size_t{1} << 27)) + 4 * slot;
      }
      left = log.cap;
    }
  }
  __device__ __forceinline__ void Start(unsigned long long* words, unsigned tag) {
    if constexpr (kHow == kShared16 || kTaggedCounter<kHow>) mine = words + FlatThread();
    if constexpr (kHow == kShared16) *mine = 0;
    (void)tag;
  }
  __device__ __forceinline__ unsigned Take(unsigned tag) {
    if constexpr (kHow == kShared16) {
      const unsigned used = static_cast<unsigned>(*mine);
      *mine = used + 1;
      return used;
    } else if constexpr (kTaggedCounter<kHow>) {
      const unsigned long long seen = *mine;
      const unsigned used =
          static_cast<unsigned>(seen >> 32) == tag ? static_cast<unsigned>(seen) : 0u;
      *mine = (static_cast<unsigned long long>(tag) << 32) | (used + 1);
      return used;
    } else {
      return reg++;
    }
  }
};

#include "gpu_lane_log_micro_product.h"

template <int kHow>
__device__ __forceinline__ void Note(const Log& log, Cursor<kHow>& c, unsigned long long warp,
                                     std::uint64_t key, std::uint64_t address) {
  if constexpr (kHow == kNone) {
    return;
  } else if constexpr (kNumbered<kHow>) {
    const unsigned active = __activemask();
    const unsigned t = LaneTime();
    const unsigned lo = static_cast<unsigned>(key), hi = static_cast<unsigned>(key >> 32);
    const unsigned at = static_cast<unsigned>(address);
    if constexpr (kHow == kNumberedNote16) {  // the tag at run time, as a literal's address is
      asm volatile(
          "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, %0;\n\t@p st.global.u32 [%2], %1;\n\t"
          "@p mov.u32 %0, %1;\n\t}"
          : "+r"(c.noted)
          : "r"(log.tag & 0xffffu), "l"(log.counts + (log.tag & 0xffffu)));
    }
    if constexpr (kHow == kNumberedHead8) {
      const unsigned lowest = static_cast<unsigned>(__ffs(active) - 1);
      asm volatile(
          "{\n\t.reg .pred ok;\n\t.reg .u64 slot, head;\n\t.reg .u32 h;\n\t"
          "setp.lt.u32 ok, %0, %1;\n\t"
          "mad.wide.u32 slot, %0, 256, %2;\n\t"
          "mad.lo.u32 h, %0, 32, %5;\n\t"
          "mad.wide.u32 head, h, 16, %3;\n\t"
          "add.u32 %0, %0, 1;\n\t"
          "@ok st.global.v2.u32 [slot], {%6, %7};\n\t"
          "@ok st.global.v4.u32 [head], {%8, %9, %10, %7};\n\t"
          "@!ok st.global.u32 [%4], %0;\n\t}"
          : "+r"(c.next)
          : "r"(log.cap), "l"(c.row), "l"(c.time), "l"(c.count), "r"(lowest), "r"(at), "r"(active),
            "r"(lo), "r"(hi), "r"(t));
    } else if constexpr (kHow == kNumberedTimeWord16 || kProductLike<kHow>) {
      if constexpr (kProductLike<kHow>)
        NoteLiteral(c.noted, log, static_cast<unsigned>(hi & 0xffffu));
      asm volatile(
          "{\n\t.reg .pred ok, full, apart;\n\t.reg .u64 row, time;\n\t.reg .u32 w0, w3;\n\t"
          "setp.lt.u32 ok, %0, %1;\n\t"
          "setp.eq.u32 full, %8, -1;\n\t"
          "or.b32 w0, %5, 256;\n\t"
          "selp.u32 w0, w0, %5, full;\n\t"
          "selp.u32 w3, %9, %8, full;\n\t"
          "mad.wide.u32 row, %0, 512, %2;\n\t"
          "mad.wide.u32 time, %0, 128, %3;\n\t"
          "add.u32 %0, %0, 1;\n\t"
          "@ok st.global.v4.u32 [row], {w0, %6, %7, w3};\n\t"
          "and.pred apart, ok, !full;\n\t"
          "@apart st.global.u32 [time], %9;\n\t"
          "@!ok st.global.u32 [%4], %0;\n\t}"
          : "+r"(c.next)
          : "r"(log.cap), "l"(c.row), "l"(c.time), "l"(c.count), "r"(lo), "r"(hi), "r"(at),
            "r"(active), "r"(t));
    } else {
      asm volatile(
          "{\n\t.reg .pred ok;\n\t.reg .u64 row, time;\n\t"
          "setp.lt.u32 ok, %0, %1;\n\t"
          "mad.wide.u32 row, %0, 512, %2;\n\t"
          "mad.wide.u32 time, %0, 128, %3;\n\t"
          "add.u32 %0, %0, 1;\n\t"
          "@ok st.global.v4.u32 [row], {%5, %6, %7, %8};\n\t"
          "@ok st.global.u32 [time], %9;\n\t"
          "@!ok st.global.u32 [%4], %0;\n\t}"
          : "+r"(c.next)
          : "r"(log.cap), "l"(c.row), "l"(c.time), "l"(c.count), "r"(lo), "r"(hi), "r"(at),
            "r"(active), "r"(t));
    }
  } else if constexpr (kColumn<kHow>) {
    const unsigned active = __activemask();
    const unsigned t = kHow == kColumnNoTime16 ? 0u : LaneTime();
    const unsigned hi = kHow == kColumnTimeIn16 ? t : static_cast<unsigned>(key >> 32);
    if (kHow == kColumnLead8 && c.left != 0) {
      // 8-byte slots in the rows' array, 16-byte heads in the times' array (both big enough).
      asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(reinterpret_cast<uint2*>(c.row)),
                   "r"(static_cast<unsigned>(address)), "r"(active));
      if (static_cast<int>(Lane()) == __ffs(active) - 1)
        asm volatile(
            "st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(reinterpret_cast<uint4*>(c.time)),
            "r"(static_cast<unsigned>(key)), "r"(static_cast<unsigned>(key >> 32)), "r"(t),
            "r"(0u));
      --c.left;
    } else if (c.left != 0) {
      asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(c.row),
                   "r"(static_cast<unsigned>(key)), "r"(hi), "r"(static_cast<unsigned>(address)),
                   "r"(active));
      if constexpr (kHow == kColumn16)
        asm volatile("st.global.u32 [%0], %1;" ::"l"(c.time), "r"(t));
      --c.left;
    }
    if constexpr (kHow == kColumnLead8) {  // 8 bytes a slot, 16 a head
      c.row = reinterpret_cast<uint4*>(reinterpret_cast<uint2*>(c.row) + 32);
      c.time += 4 * 32;
    } else {
      c.row += 32;
      c.time += 32;
    }
  } else {
    const unsigned active = __activemask();
    const unsigned t = kTimed<kHow> ? LaneTime() : 0u;
    const unsigned row = c.Take(log.tag);
    if constexpr (kHow == kProduct16 || kHow == kShipped16)  // the grid's thread, as stored
      asm volatile("st.global.u32 [%0], %1;" ::"l"(log.counts + warp * 32u + Lane()), "r"(row + 1));
    if (row >= log.cap) return;  // the host sees the count short of its rows and says so
    const unsigned long long slot = (warp * log.cap + row) * 32u + Lane();
    if constexpr (kTimed<kHow>) {
      // As the product stores them: no "memory" clobber, nothing in the kernel reads them.
      if (kHow == kAllTimes16 || kHow == kShipped16 ||
          static_cast<int>(Lane()) == __ffs(active) - 1)
        asm volatile("st.global.u32 [%0], %1;" ::"l"(log.times + slot), "r"(t));
      asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(log.rows + slot),
                   "r"(static_cast<unsigned>(key)), "r"(static_cast<unsigned>(key >> 32)),
                   "r"(static_cast<unsigned>(address)), "r"(active));
    } else if constexpr (kHow == kReg8) {
      reinterpret_cast<unsigned long long*>(log.rows)[slot] =
          (key << 48) | (address & 0xffffffffffffull);
    } else {
      const unsigned hi =
          kHow == kRegTime16 ? static_cast<unsigned>(Timer()) : static_cast<unsigned>(key >> 32);
      log.rows[slot] =
          make_uint4(static_cast<unsigned>(key), hi, static_cast<unsigned>(address), active);
    }
  }
}

// A barrier's arrival: the global timer in the address's place (read only where something logs).
template <int kHow>
__device__ __forceinline__ void NoteBarrier(const Log& log, Cursor<kHow>& c,
                                            unsigned long long warp, std::uint64_t key) {
  if constexpr (kHow != kNone) Note<kHow>(log, c, warp, key, Timer());
}

// The barrier with its record: the micro's (one row, then __syncthreads) or the product's.
template <int kHow>
__device__ __forceinline__ void LoggedBarrier(const Log& log, Cursor<kHow>& c,
                                              unsigned long long warp, std::uint64_t key) {
  if constexpr (kHow == kProductBarrier16 || kHow == kLoadFirst16) {
    ProductBarrier(log, c, static_cast<unsigned>(key));
  } else {
    NoteBarrier<kHow>(log, c, warp, key);
    __syncthreads();
  }
}

constexpr unsigned kChainSteps = 160;

template <int kHow>
__global__ void Chain(float* out, const float* in, Log log) {
  __shared__ unsigned long long words[kHow == kShared16 || kTaggedCounter<kHow> ? 256 : 1];
  Cursor<kHow> c;
  c.Start(words, log.tag);
  const unsigned long long warp = GlobalWarp();
  c.Column(log, warp);
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
#pragma unroll 1
  for (unsigned i = 0; i < kChainSteps; ++i) {
    const unsigned x = t + i * 1024u;
    Note<kHow>(log, c, warp, 0x1234, reinterpret_cast<std::uint64_t>(in + x));
    sum += in[x];
  }
  out[t] = sum;
}

template <int kHow, int kTile>
__global__ void MatmulTiled(const float* Md, const float* Nd, float* Pd, int Width, Log log) {
  __shared__ float Mds[kTile][kTile];
  __shared__ float Nds[kTile][kTile];
  __shared__ unsigned long long
      words[kHow == kShared16 || kTaggedCounter<kHow> ? kTile * kTile : 1];
  Cursor<kHow> c;
  c.Start(words, log.tag);
  const unsigned long long warp = GlobalWarp();
  c.Column(log, warp);
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * kTile + ty;
  int Col = blockIdx.x * kTile + tx;
  float Pvalue = 0;
  for (int m = 0; m < Width / kTile; ++m) {
    if constexpr (kHow == kLoadFirst16) {  // each load before its records, as the lane unit
      const float md = Md[Row * Width + (m * kTile + tx)];
      Note<kHow>(log, c, warp, 1,
                 reinterpret_cast<std::uint64_t>(&Md[Row * Width + (m * kTile + tx)]));
      Note<kHow>(log, c, warp, 2, reinterpret_cast<std::uint64_t>(&Mds[ty][tx]));
      Mds[ty][tx] = md;
      const float nd = Nd[(m * kTile + ty) * Width + Col];
      Note<kHow>(log, c, warp, 3,
                 reinterpret_cast<std::uint64_t>(&Nd[(m * kTile + ty) * Width + Col]));
      Note<kHow>(log, c, warp, 4, reinterpret_cast<std::uint64_t>(&Nds[ty][tx]));
      Nds[ty][tx] = nd;
    } else {
      Note<kHow>(log, c, warp, 1,
                 reinterpret_cast<std::uint64_t>(&Md[Row * Width + (m * kTile + tx)]));
      Note<kHow>(log, c, warp, 2, reinterpret_cast<std::uint64_t>(&Mds[ty][tx]));
      Mds[ty][tx] = Md[Row * Width + (m * kTile + tx)];
      Note<kHow>(log, c, warp, 3,
                 reinterpret_cast<std::uint64_t>(&Nd[(m * kTile + ty) * Width + Col]));
      Note<kHow>(log, c, warp, 4, reinterpret_cast<std::uint64_t>(&Nds[ty][tx]));
      Nds[ty][tx] = Nd[(m * kTile + ty) * Width + Col];
    }
    LoggedBarrier<kHow>(log, c, warp, 5);
    for (int k = 0; k < kTile; ++k) {
      if constexpr (kHow == kLoadFirst16) {
        const float a = Mds[ty][k], b = Nds[k][tx];
        Note<kHow>(log, c, warp, 6, reinterpret_cast<std::uint64_t>(&Mds[ty][k]));
        Note<kHow>(log, c, warp, 7, reinterpret_cast<std::uint64_t>(&Nds[k][tx]));
        Pvalue += a * b;
      } else {
        Note<kHow>(log, c, warp, 6, reinterpret_cast<std::uint64_t>(&Mds[ty][k]));
        Note<kHow>(log, c, warp, 7, reinterpret_cast<std::uint64_t>(&Nds[k][tx]));
        Pvalue += Mds[ty][k] * Nds[k][tx];
      }
    }
    LoggedBarrier<kHow>(log, c, warp, 8);
  }
  Note<kHow>(log, c, warp, 9, reinterpret_cast<std::uint64_t>(&Pd[Row * Width + Col]));
  Pd[Row * Width + Col] = Pvalue;
}

template <int kHow>
__global__ void Copy(float* out, const float* in, Log log) {
  Cursor<kHow> c;
  const unsigned long long warp = GlobalWarp();
  c.Column(log, warp);
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  Note<kHow>(log, c, warp, 1, reinterpret_cast<std::uint64_t>(in + x));
  Note<kHow>(log, c, warp, 2, reinterpret_cast<std::uint64_t>(out + x));
  out[x] = in[x];
}

template <int kHow>
__global__ void TransposePadded(float* out, const float* in, int n, Log log) {
  __shared__ float tile[32][33];
  Cursor<kHow> c;
  const unsigned long long warp = GlobalWarp();
  c.Column(log, warp);
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  Note<kHow>(log, c, warp, 1, reinterpret_cast<std::uint64_t>(&in[y * n + x]));
  Note<kHow>(log, c, warp, 2, reinterpret_cast<std::uint64_t>(&tile[threadIdx.y][threadIdx.x]));
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  NoteBarrier<kHow>(log, c, warp, 3);
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  Note<kHow>(log, c, warp, 4, reinterpret_cast<std::uint64_t>(&tile[threadIdx.x][threadIdx.y]));
  Note<kHow>(log, c, warp, 5, reinterpret_cast<std::uint64_t>(&out[y * n + x]));
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

const char* const kNames[] = {"nothing logged",
                              "register row, 16 B",
                              "shared row, 16 B",
                              "tagged shared row, 16 B",
                              "register row, 8 B",
                              "register row, 16 B with time",
                              "the product's (tagged, time, count)",
                              "the product's without the count",
                              "without the count, every lane's time",
                              "the product's since (every lane's time, count)",
                              "column in registers, every lane's time (now)",
                              "column, the time in the record",
                              "column, no time",
                              "column, 8 B a lane and the lowest lane's 16",
                              "numbered, no branch (now, no file note)",
                              "numbered, no branch, the file's note (now)",
                              "numbered, 8 B a lane, the group's 16 at one",
                              "numbered, a whole warp's time in word 3",
                              "that, with the product's file note",
                              "that, with the product's barrier",
                              "that, each load before its records"};

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 31;
  const std::size_t n = std::size_t{1} << 24;
  float *in = nullptr, *out = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&in, n * 4));
  WS_CUDA_CHECK(cudaMalloc(&out, n * 4));
  WS_CUDA_CHECK(cudaMemset(in, 0, n * 4));
  const std::size_t log_bytes = std::size_t{4} << 30;  // kColumnLead8: its heads in the upper half
  uint4* rows = nullptr;
  unsigned *times = nullptr, *counts = nullptr;
  WS_CUDA_CHECK(cudaMalloc(&rows, log_bytes));
  WS_CUDA_CHECK(cudaMalloc(&times, log_bytes / 4));
  WS_CUDA_CHECK(cudaMalloc(&counts, n * 4));
  unsigned tag = 0x5a5a0001u;
  auto log_for = [&](unsigned long long warps, unsigned cap) {
    if (warps * cap * 32 * 16 > log_bytes) std::printf("  (log too small)\n");
    return Log{rows, cap, tag += 2, times, counts};
  };
  std::printf("== chain: 4 blocks of 256 threads, %u loads a thread\n", kChainSteps);
  {
    float pb = 0, po = 0;
    auto run = [&](auto kernel, const char* label) {
      Time(
          label, [&] { kernel<<<4, 256>>>(out, in, log_for(32, kChainSteps)); }, repeats, &pb, &po);
    };
    run(Chain<kNone>, kNames[0]);
    run(Chain<kReg16>, kNames[1]);
    run(Chain<kShared16>, kNames[2]);
    run(Chain<kTagged16>, kNames[3]);
    run(Chain<kReg8>, kNames[4]);
    run(Chain<kRegTime16>, kNames[5]);
    run(Chain<kProduct16>, kNames[6]);
    run(Chain<kNoCount16>, kNames[7]);
    run(Chain<kAllTimes16>, kNames[8]);
    run(Chain<kShipped16>, kNames[9]);
    run(Chain<kColumn16>, kNames[10]);
    run(Chain<kColumnTimeIn16>, kNames[11]);
    run(Chain<kColumnNoTime16>, kNames[12]);
    run(Chain<kColumnLead8>, kNames[13]);
    run(Chain<kNumbered16>, kNames[14]);
    run(Chain<kNumberedNote16>, kNames[15]);
    run(Chain<kNumberedHead8>, kNames[16]);
    run(Chain<kNumberedTimeWord16>, kNames[17]);
  }
  for (int width : {64, 256}) {
    std::printf("== matmul tiled 16, %d², every access and barrier logged\n", width);
    float pb = 0, po = 0;
    const dim3 grid(width / 16, width / 16), block(16, 16);
    const unsigned long long warps = grid.x * grid.y * 8ull;
    const unsigned cap = (width / 16) * (4 + 2 * 16 + 4) + 1;  // the product's barriers: 2 rows
    auto run = [&](auto kernel, const char* label) {
      Time(
          label,
          [&] { kernel<<<grid, block>>>(in, in + width * width, out, width, log_for(warps, cap)); },
          repeats, &pb, &po);
    };
    run(MatmulTiled<kNone, 16>, kNames[0]);
    run(MatmulTiled<kReg16, 16>, kNames[1]);
    run(MatmulTiled<kShared16, 16>, kNames[2]);
    run(MatmulTiled<kTagged16, 16>, kNames[3]);
    run(MatmulTiled<kReg8, 16>, kNames[4]);
    run(MatmulTiled<kRegTime16, 16>, kNames[5]);
    run(MatmulTiled<kProduct16, 16>, kNames[6]);
    run(MatmulTiled<kNoCount16, 16>, kNames[7]);
    run(MatmulTiled<kAllTimes16, 16>, kNames[8]);
    run(MatmulTiled<kShipped16, 16>, kNames[9]);
    run(MatmulTiled<kColumn16, 16>, kNames[10]);
    run(MatmulTiled<kColumnTimeIn16, 16>, kNames[11]);
    run(MatmulTiled<kColumnNoTime16, 16>, kNames[12]);
    run(MatmulTiled<kColumnLead8, 16>, kNames[13]);
    run(MatmulTiled<kNumbered16, 16>, kNames[14]);
    run(MatmulTiled<kNumberedNote16, 16>, kNames[15]);
    run(MatmulTiled<kNumberedHead8, 16>, kNames[16]);
    run(MatmulTiled<kNumberedTimeWord16, 16>, kNames[17]);
    run(MatmulTiled<kNoteLiteral16, 16>, kNames[18]);
    run(MatmulTiled<kProductBarrier16, 16>, kNames[19]);
    run(MatmulTiled<kLoadFirst16, 16>, kNames[20]);
  }
  {
    std::printf("== copy, 2^24 floats, 1,024 threads a block, both accesses logged\n");
    float pb = 0, po = 0;
    const unsigned blocks = n / 1024;
    auto run = [&](auto kernel, const char* label) {
      Time(
          label, [&] { kernel<<<blocks, 1024>>>(out, in, log_for(n / 32, 2)); }, repeats, &pb, &po);
    };
    run(Copy<kNone>, kNames[0]);
    run(Copy<kReg16>, kNames[1]);
    run(Copy<kReg8>, kNames[4]);
    run(Copy<kColumn16>, kNames[10]);
    run(Copy<kColumnTimeIn16>, kNames[11]);
    run(Copy<kColumnLead8>, kNames[13]);
    run(Copy<kNumbered16>, kNames[14]);
    run(Copy<kNumberedHead8>, kNames[16]);
    run(Copy<kNumberedTimeWord16>, kNames[17]);
  }
  {
    std::printf("== transpose padded 4,096², tile 32, every access and the barrier logged\n");
    float pb = 0, po = 0;
    const dim3 grid(128, 128), block(32, 32);
    auto run = [&](auto kernel, const char* label) {
      Time(
          label, [&] { kernel<<<grid, block>>>(out, in, 4096, log_for(n / 32, 5)); }, repeats, &pb,
          &po);
    };
    run(TransposePadded<kNone>, kNames[0]);
    run(TransposePadded<kReg16>, kNames[1]);
    run(TransposePadded<kReg8>, kNames[4]);
    run(TransposePadded<kColumn16>, kNames[10]);
    run(TransposePadded<kColumnTimeIn16>, kNames[11]);
    run(TransposePadded<kColumnLead8>, kNames[13]);
    run(TransposePadded<kNumbered16>, kNames[14]);
    run(TransposePadded<kNumberedHead8>, kNames[16]);
    run(TransposePadded<kNumberedTimeWord16>, kNames[17]);
  }
  return 0;
}
