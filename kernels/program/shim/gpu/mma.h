// <mma.h> in a program recorded on the GPU backend (issue 53): the toolkit's nvcuda::wmma, with
// each fragment's load and store recorded as the emulator records it (ws_program_wmma.h,
// emu_wmma.cpp's WmmaMove), so that the two backends cost the same requests:
//   - a matrix_a or matrix_b of 8- or 16-bit elements from shared memory: ldmatrix, the tile in
//     memory cut into blocks of 8 rows of 16 bytes, four blocks a request, each lane one row's
//     16 bytes;
//   - otherwise each lane's x[2j] and x[2j + 1] in one access where they lie next to each other
//     in memory, else one access an element; a lane's repeated elements once.
// Which element a lane holds is asked of the GPU itself, in the recording passes only: the same
// fragment type is loaded twice from tables of 32-element rows holding each position's row and
// column (ProbeTables), which gives every x[i]'s place in memory (row x ldm + column, whatever
// the layout) as the fragment probe measured them into kernels/tensor/fragments.tsv.
// mma_sync is recorded as the warp's meeting (WarpOpKind::kMma), as on the emulator.
//
// The rewriter gives each load and store its site as a last argument (collector_visits.cpp);
// the overloads below take it, run the toolkit's call and record. nvcc force-includes
// ws_program_cuda.h (RecordDevice, WS_PROGRAM_PLACE) before the program.
#pragma once

// The toolkit's header between these two (their order matters).
// clang-format off
#include "ws_toolkit_begin.h"
#include_next <mma.h>
#include "ws_toolkit_end.h"
// clang-format on

#include <type_traits>

namespace ws::prog::wmma_gpu {

// A small whole number's bits in each element type the fragments take.
__host__ __device__ constexpr unsigned short HalfBits(unsigned v) {
  if (v == 0) return 0;
  unsigned e = 0;
  while ((2u << e) <= v) ++e;
  return static_cast<unsigned short>((e + 15u) << 10 | (v - (1u << e)) << (10u - e));
}
__host__ __device__ constexpr unsigned FloatBits(unsigned v) {
  if (v == 0) return 0;
  unsigned e = 0;
  while ((2u << e) <= v) ++e;
  return (e + 127u) << 23 | (v - (1u << e)) << (23u - e);
}
__host__ __device__ constexpr unsigned long long DoubleBits(unsigned v) {
  if (v == 0) return 0;
  unsigned e = 0;
  while ((2u << e) <= v) ++e;
  return static_cast<unsigned long long>(e + 1023u) << 52 |
         static_cast<unsigned long long>(v - (1u << e)) << (52u - e);
}

// A tile of 32 x 32 positions, each holding its row (kMajor) or its column, as the bits of one
// element type: loaded with ldm 32, x[i] says where in memory the fragment's i-th element lies.
enum Kind { kHalf, kBf16, kByte, kFloat, kDouble, kInt };
template <typename Bits, Kind kKind, bool kMajor>
struct ProbeTable {
  Bits v[1024];
  __host__ __device__ constexpr ProbeTable() : v{} {
    for (unsigned p = 0; p < 1024; ++p) {
      const unsigned n = kMajor ? p / 32 : p % 32;
      if constexpr (kKind == kHalf)
        v[p] = HalfBits(n);
      else if constexpr (kKind == kBf16)
        v[p] = static_cast<Bits>(FloatBits(n) >> 16);
      else if constexpr (kKind == kFloat)
        v[p] = FloatBits(n);
      else if constexpr (kKind == kDouble)
        v[p] = DoubleBits(n);
      else
        v[p] = static_cast<Bits>(n);
    }
  }
};

// Not constexpr: a constexpr table was made again in each thread's local memory at every use (4
// KB a lane, twice a load).
template <typename Bits, Kind kKind, bool kMajor>
__device__ __align__(256) ProbeTable<Bits, kKind, kMajor> kProbe{};

template <typename S>
__host__ __device__ constexpr Kind KindOf() {
  if constexpr (std::is_same_v<S, __half>) return kHalf;
  if constexpr (std::is_same_v<S, __nv_bfloat16>) return kBf16;
  if constexpr (std::is_same_v<S, signed char> || std::is_same_v<S, unsigned char>) return kByte;
  if constexpr (std::is_same_v<S, float>) return kFloat;
  if constexpr (std::is_same_v<S, double>) return kDouble;
  return kInt;
}
template <typename S>
using BitsOf = std::conditional_t<
    sizeof(S) == 1, unsigned char,
    std::conditional_t<sizeof(S) == 2, unsigned short,
                       std::conditional_t<sizeof(S) == 4, unsigned, unsigned long long>>>;

// The probe table of element type S: each position's row (kMajor) or column.
template <typename S, bool kMajor>
__device__ inline const S* Probe() {
  return reinterpret_cast<const S*>(kProbe<BitsOf<S>, KindOf<S>(), kMajor>.v);
}

template <typename S>
__device__ inline unsigned Whole(S v) {
  if constexpr (std::is_same_v<S, __half>)
    return static_cast<unsigned>(__half2float(v));
  else if constexpr (std::is_same_v<S, __nv_bfloat16>)
    return static_cast<unsigned>(__bfloat162float(v));
  else
    return static_cast<unsigned>(v);
}

// The tile a fragment covers: rows x columns (matrix_a m x k, matrix_b k x n, accumulator m x n).
template <typename Use, int m, int n, int k>
constexpr unsigned kRows = std::is_same_v<Use, nvcuda::wmma::matrix_b> ? k : m;
template <typename Use, int m, int n, int k>
constexpr unsigned kCols = std::is_same_v<Use, nvcuda::wmma::matrix_a> ? k : n;

// A matrix_a's or matrix_b's load of 8- or 16-bit elements from shared memory, recorded as the
// ldmatrix requests WmmaMove records on the emulator: the tile in memory (`row`: its layout) cut
// into blocks of 8 rows of 16 bytes, four a request, each lane one row's address. Returns false
// (recording nothing) for any other load, whose elements RecordElements records. Every lane of
// the warp calls it together.
__device__ inline bool RecordLdsm(const void* p, unsigned bytes, unsigned ldm, bool row,
                                  unsigned place, unsigned rows, unsigned cols) {
#if defined(__CUDA_ARCH__)
  const unsigned stored = row ? rows : cols, width = row ? cols : rows;
  if (bytes > 2 || stored % 8 != 0 || width * bytes % 16 != 0 || !__isShared(p)) return false;
  // Each lane's row as an offset of the block's window from the tile's: the tile is shared, and
  // so is every row of it (cudaTensorCoreGemm's 256^3 run on an H200 once took a row's address for
  // no buffer's, classified again).
  const unsigned tile = SharedWindowOffset(p);
  const unsigned lane = ::ws::dev::LaneId();
  const unsigned down = stored / 8, blocks = down * (width * bytes / 16);
  for (unsigned first = 0; first < blocks; first += 4) {  // an LDSM of up to four blocks
    const unsigned b = first + lane / 8;
    if (b >= blocks) continue;  // .x2: the upper lanes give no address
    const unsigned stored_row = (b % down) * 8 + lane % 8;
    const unsigned element = (b / down) * (16 / bytes);
    RecordShared(tile + (stored_row * ldm + element) * bytes, 16, place, kOpLoad);
  }
  return true;
#else
  (void)p, (void)bytes, (void)ldm, (void)row, (void)place, (void)rows, (void)cols;
  return false;
#endif
}

// Any other load, and a store: each lane's x[2j] and x[2j + 1] in one access where they lie side
// by side in memory, else one access an element, a lane's repeated elements once (WmmaMove).
// `at[i]`: where the lane's x[i] lies, in elements from p.
template <unsigned kElements>
__device__ inline void RecordElements(const void* p, unsigned bytes,
                                      const unsigned (&at)[kElements], unsigned place, bool load) {
#if defined(__CUDA_ARCH__)
  const auto* tile = static_cast<const unsigned char*>(p);
  const unsigned op = load ? kOpLoad : kOpStore;
  auto first_of = [&](unsigned i) {  // the first x[j] holding x[i]'s element
    for (unsigned j = 0; j < i; ++j)
      if (at[j] == at[i]) return j;
    return i;
  };
  for (unsigned i = 0; i < kElements; ++i) {
    if (first_of(i) != i) continue;
    if (i % 2 == 0 && i + 1 < kElements && first_of(i + 1) == i + 1 && at[i + 1] == at[i] + 1 &&
        2 * bytes <= 16) {
      RecordDevice(tile + at[i] * bytes, 2 * bytes, place, op);
      ++i;
    } else {
      RecordDevice(tile + at[i] * bytes, bytes, place, op);
    }
  }
#else
  (void)p, (void)bytes, (void)at, (void)place, (void)load;
#endif
}

// Where each x[i] of a fragment of type Frag lies in memory, in elements from the tile's first:
// the GPU's own answer, from two loads of the probe tables (ldm 32).
template <typename Frag, typename Load>
__device__ inline void PlacesOf(unsigned ldm, unsigned (&at)[Frag::num_elements], Load load) {
  using S = typename Frag::storage_element_type;
  Frag major, minor;
  load(major, Probe<S, true>());
  load(minor, Probe<S, false>());
  for (int i = 0; i < Frag::num_elements; ++i) at[i] = Whole(major.x[i]) * ldm + Whole(minor.x[i]);
}

// Every pass but the run as written: the hazard check's too, which checks the loads and stores.
__device__ inline bool Recording() {
  return ws_recorder_state.mode != ::ws::dev::kOff;
}

}  // namespace ws::prog::wmma_gpu

namespace nvcuda {
namespace wmma {

// A matrix_a's or matrix_b's load, its site the last argument (the rewriter's).
template <typename Use, int m, int n, int k, typename T, typename Layout>
__device__ inline void load_matrix_sync(
    fragment<Use, m, n, k, T, Layout>& f,
    const typename fragment<Use, m, n, k, T, Layout>::storage_element_type* p, unsigned ldm,
    unsigned int place) {
  using Frag = fragment<Use, m, n, k, T, Layout>;
  using S = typename Frag::storage_element_type;
  (load_matrix_sync)(f, p, ldm);
  if (!::ws::prog::wmma_gpu::Recording()) return;
  if (::ws::prog::wmma_gpu::RecordLdsm(p, sizeof(S), ldm, std::is_same_v<Layout, row_major>, place,
                                       ::ws::prog::wmma_gpu::kRows<Use, m, n, k>,
                                       ::ws::prog::wmma_gpu::kCols<Use, m, n, k>))
    return;
  unsigned at[Frag::num_elements];
  ::ws::prog::wmma_gpu::PlacesOf<Frag>(ldm, at,
                                       [](Frag& g, const S* q) { (load_matrix_sync)(g, q, 32); });
  ::ws::prog::wmma_gpu::RecordElements(p, sizeof(S), at, place, true);
}

// An accumulator's load and store: the layout is the memory's.
template <int m, int n, int k, typename T>
__device__ inline void load_matrix_sync(fragment<accumulator, m, n, k, T>& f, const T* p,
                                        unsigned ldm, layout_t layout, unsigned int place) {
  using Frag = fragment<accumulator, m, n, k, T>;
  (load_matrix_sync)(f, p, ldm, layout);
  if (!::ws::prog::wmma_gpu::Recording()) return;
  unsigned at[Frag::num_elements];
  ::ws::prog::wmma_gpu::PlacesOf<Frag>(
      ldm, at, [layout](Frag& g, const T* q) { (load_matrix_sync)(g, q, 32, layout); });
  ::ws::prog::wmma_gpu::RecordElements(p, sizeof(T), at, place, true);
}

template <int m, int n, int k, typename T>
__device__ inline void store_matrix_sync(T* p, const fragment<accumulator, m, n, k, T>& f,
                                         unsigned ldm, layout_t layout, unsigned int place) {
  using Frag = fragment<accumulator, m, n, k, T>;
  (store_matrix_sync)(p, f, ldm, layout);
  if (!::ws::prog::wmma_gpu::Recording()) return;
  unsigned at[Frag::num_elements];
  ::ws::prog::wmma_gpu::PlacesOf<Frag>(
      ldm, at, [layout](Frag& g, const T* q) { (load_matrix_sync)(g, q, 32, layout); });
  ::ws::prog::wmma_gpu::RecordElements(p, sizeof(T), at, place, false);
}

// mma_sync: the toolkit's, and the warp's meeting recorded at the caller's line (the macro
// below renames the program's calls to it).
template <typename... Args>
__device__ inline void ws_mma_sync(unsigned int place, Args&&... args) {
  (mma_sync)(static_cast<Args&&>(args)...);
  // The lanes that exist (a block's last warp may have fewer: the multiply is undefined there, and
  // the emulator stops the launch).
  ::ws::dev::RecordWarpOp(12, ::ws::prog::Place(place), ::ws::prog::ExistingLanes(),
                          ::ws::dev::LaneId(), true);
}

}  // namespace wmma
}  // namespace nvcuda

#define mma_sync(...) ws_mma_sync(WS_PROGRAM_PLACE, __VA_ARGS__)
