// nvcuda::wmma on the emulator (issue 53; docs/PROGRAMS.md, "Tensor cores"): fragments,
// fill_fragment, load_matrix_sync, mma_sync and store_matrix_sync, with each lane holding the
// elements the GPU gives it. Which lane holds which element is not documented by NVIDIA: it was
// measured on an H200 (kernels/tensor/fragment_probe.cu) into kernels/tensor/fragments.tsv, which
// the runtime reads (WmmaPlaces); a program that touches frag.x[i] therefore sees what it would
// on that GPU. Included by the shim's <mma.h>.
//
// A load or store is recorded at its call's site (the rewriter adds it as the last argument, as
// for a texture fetch) as the requests an H200 makes for it (Move, below): ldmatrix for 8- and
// 16-bit inputs from shared memory, the lanes' elements in pairs or one by one otherwise.
// mma_sync is one meeting of the warp (WarpOpKind::kMma): the lanes' fragments are gathered into
// whole tiles, multiplied, and each lane gets its part of D. Products of half, bf16 and tf32 are
// exact in float and summed in double, then rounded once to the accumulator's type; integers sum
// in 32 bits, wrapping; double fragments sum in k order with fused multiply-adds. The FLOPs of
// mma_sync are not counted (the rewriter counts the program's own arithmetic), and the meeting
// costs a cycle in the timing model: no tensor-core latency.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_bf16.h"
#include "cuda_fp16.h"

namespace ws::prog {
// Where each x[i] of `elements` lies in its tile, lane by lane: places[2 * (lane * elements + i)]
// its row and [... + 1] its column, as measured (kernels/tensor/fragments.tsv). A fragment the
// table does not have (or another count of elements) stops the thread with a message at `place`.
const unsigned char* WmmaPlaces(const char* shape, const char* use, const char* type,
                                const char* layout, unsigned int elements, unsigned int place);
// Stops the thread with `what` at `place`: a use of wmma the GPU does not allow.
[[noreturn]] void WmmaFail(unsigned int place, const char* what);
// Lanes of the calling thread's warp that exist (a block's last warp may have fewer than 32).
unsigned int WmmaWarpLanes();
// Whether `p` is in the block's shared memory.
bool WmmaInShared(const void* p);
// A fragment's `elements` values of `bytes` each (x) from (load) or to the tile at `p`, and the
// requests an H200 makes for them (detail::Move says which).
void WmmaMove(void* x, unsigned int elements, unsigned int bytes, void* p, unsigned int ldm,
              bool row, const unsigned char* places, unsigned int place, unsigned int rows,
              unsigned int cols, bool load, bool input);
}  // namespace ws::prog

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
}  // namespace precision

// A float rounded to tf32 as the toolkit's does it (`cvt.rna.tf32.f32`): to the nearest value
// with 10 fraction bits, a tie away from zero, the 13 bits below cleared; a value past tf32's
// largest rounds to infinity. An infinity or a NaN only has those 13 bits cleared, as an H200
// does it (so a NaN whose payload lies there alone becomes an infinity: 0x7f800001 gives
// 0x7f800000; tests/programs/agreement/tf32_round.gpu.txt, all 160 lines equal).
inline float __float_to_tf32(float in) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &in, 4);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits += 0x1000u;
  bits &= 0xffffe000u;
  float out = 0;
  std::memcpy(&out, &bits, 4);
  return out;
}

namespace detail {

template <typename T>
struct Storage {  // the element type in memory and in x[] (tf32's is float)
  using type = T;
};
template <>
struct Storage<precision::tf32> {
  using type = float;
};

template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, __half>) return "half";
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  if constexpr (std::is_same_v<T, signed char>) return "s8";
  if constexpr (std::is_same_v<T, unsigned char>) return "u8";
  if constexpr (std::is_same_v<T, precision::tf32>) return "tf32";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, int>) return "int";
  return nullptr;
}

constexpr const char* ShapeName(int m, int n, int k) {
  return m == 16 && n == 16 && k == 16  ? "m16n16k16"
         : m == 32 && n == 8 && k == 16 ? "m32n8k16"
         : m == 8 && n == 32 && k == 16 ? "m8n32k16"
         : m == 16 && n == 16 && k == 8 ? "m16n16k8"
         : m == 8 && n == 8 && k == 4   ? "m8n8k4"
                                        : nullptr;
}

template <typename Use>
constexpr const char* UseName() {
  return std::is_same_v<Use, matrix_a> ? "a" : std::is_same_v<Use, matrix_b> ? "b" : "c";
}

// The tile a fragment covers: rows x columns (matrix_a m x k, matrix_b k x n, accumulator m x n).
template <typename Use, int m, int n, int k>
constexpr int Rows() {
  return std::is_same_v<Use, matrix_b> ? k : m;
}
template <typename Use, int m, int n, int k>
constexpr int Cols() {
  return std::is_same_v<Use, matrix_a> ? k : n;
}

// Elements a lane holds (the table's count): the tile over 32 lanes, but 16 for half's matrix_a
// and matrix_b in every shape (an H200 keeps each element twice, or four times in 128-element
// operands).
template <typename Use, int m, int n, int k, typename T>
constexpr int Elements() {
  if (!std::is_same_v<Use, accumulator> && std::is_same_v<T, __half>) return 16;
  return Rows<Use, m, n, k>() * Cols<Use, m, n, k>() / 32;
}

template <typename T>
constexpr bool kSupported = TypeName<T>() != nullptr;

}  // namespace detail

template <typename Use, int m, int n, int k, typename T, typename Layout = void>
class fragment {
  static_assert(detail::ShapeName(m, n, k) != nullptr,
                "wmma: shapes m16n16k16, m32n8k16, m8n32k16 (half, bf16, 8-bit integers), "
                "m16n16k8 (tf32) and m8n8k4 (double) are supported");
  static_assert(detail::kSupported<T>, "wmma: an element type the GPU has no fragment of");
  static_assert(std::is_same_v<Use, accumulator>
                    ? std::is_void_v<Layout>
                    : std::is_same_v<Layout, row_major> || std::is_same_v<Layout, col_major>,
                "wmma: a matrix_a or matrix_b fragment names its layout (row_major or "
                "col_major); an accumulator names none (its loads and stores do)");

 public:
  using storage_element_type = typename detail::Storage<T>::type;
  using element_type = storage_element_type;
  enum { num_elements = detail::Elements<Use, m, n, k, T>() };
  storage_element_type x[num_elements];
};

namespace detail {

template <typename T>
double ToDouble(T v) {
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>)
    return static_cast<double>(static_cast<float>(v));
  else
    return static_cast<double>(v);
}

// tf32 keeps float's sign, exponent and top 10 fraction bits: the 13 below are dropped.
inline double Tf32(float v) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  bits &= 0xffffe000u;
  float t = 0;
  std::memcpy(&t, &bits, 4);
  return t;
}

template <typename Frag, typename Use, int m, int n, int k, typename T>
const unsigned char* PlacesOf(bool row, unsigned int place) {
  return ::ws::prog::WmmaPlaces(ShapeName(m, n, k), UseName<Use>(), TypeName<T>(),
                                row ? "row" : "col", Frag::num_elements, place);
}

// Each lane's elements from (load) or to (store) the tile at `p`, `ldm` elements between rows
// (row major) or columns, recorded as the requests an H200 makes for them (docs/GPU.md,
// "Tensor-core fragments on the H200"; cuobjdump -sass of kernels/tensor/shared_loads_probe.cu
// and fragment_probe.cu, nvcc 13, sm_90):
//   - a matrix_a or matrix_b of 8- or 16-bit elements from shared memory: ldmatrix (LDSM), the
//     tile in memory cut into blocks of 8 rows of 16 bytes, four blocks an instruction (.x4; two,
//     .x2, where the tile has two), each lane giving one row's address: a request of 16 bytes a
//     lane, which costs what Nsight Compute counted (kernels/tensor/ldsm_wavefronts.txt);
//   - otherwise each lane's x[2j] and x[2j + 1] in one access where they are next to each other
//     in memory (a float accumulator row major: four 8-byte requests, LD.E.64 / STS.64; double:
//     one of 16 bytes), else one access an element (column major: eight 4-byte LD.E).
// A lane's repeated elements (half's matrix_a and matrix_b) are read once; the other copies
// take the first's value.
template <bool kLoad, bool kInput, typename Frag, typename S>
void Move(Frag& f, S* p, unsigned ldm, bool row, const unsigned char* places, unsigned int place,
          unsigned rows, unsigned cols) {
  // Out of line in the runtime (emu_wmma.cpp), not made again for every fragment type (the
  // fragment probe instantiates 78).
  ::ws::prog::WmmaMove(f.x, Frag::num_elements, sizeof(S),
                       const_cast<void*>(static_cast<const void*>(p)), ldm, row, places, place,
                       rows, cols, kLoad, kInput);
}

// mma_sync's call, one a lane (ws::emu::WarpCallRun): `run` first, as the meeting reads it.
template <typename FD, typename FA, typename FB, typename FC>
struct MmaCall {
  void (*run)(const std::uint64_t* values, std::uint32_t group);
  FD* d;
  const FA* a;
  const FB* b;
  const FC* c;
  const unsigned char *pd, *pa, *pb, *pc;
};

template <int m, int n, int k, typename TA, typename TC, typename FD, typename FA, typename FB,
          typename FC>
void RunMma(const std::uint64_t* values, std::uint32_t group) {
  using Call = MmaCall<FD, FA, FB, FC>;
  constexpr bool kInt = std::is_same_v<TC, int>;
  double a[m][k] = {}, b[k][n] = {}, c[m][n] = {};
  long long ia[m][k] = {}, ib[k][n] = {};
  int ic[m][n] = {};
  auto value = [](auto v) {
    if constexpr (std::is_same_v<TA, precision::tf32>)
      return Tf32(v);
    else
      return ToDouble(v);
  };
  // Gather every lane's elements into the whole tiles. Where a lane holds an element twice or
  // four times (half's matrix_a and matrix_b), the multiply reads the first x[i] that holds it,
  // as an H200 does (tests/programs/agreement/wmma_lanes.cu, "copies": zeroing any later copy
  // changes nothing, zeroing the first zeroes the product): the elements are taken from the last
  // x[i] to the first, so that the first is kept.
  // An input fragment's elements into its tile (`tile` as values, `ints` as integers).
  auto gather = [&](const auto& frag, const unsigned char* places, unsigned l, auto& tile,
                    auto& ints) {
    constexpr int kN = std::remove_reference_t<decltype(frag)>::num_elements;
    for (int i = kN - 1; i >= 0; --i) {
      const unsigned r = places[2 * (l * kN + i)], col = places[2 * (l * kN + i) + 1];
      if constexpr (kInt)
        ints[r][col] = static_cast<long long>(frag.x[i]);
      else
        tile[r][col] = value(frag.x[i]);
    }
  };
  for (unsigned l = 0; l < 32; ++l) {
    if (!(group >> l & 1u)) continue;
    const Call* call = reinterpret_cast<const Call*>(values[l]);
    gather(*call->a, call->pa, l, a, ia);
    gather(*call->b, call->pb, l, b, ib);
    for (int i = 0; i < FC::num_elements; ++i) {
      const unsigned r = call->pc[2 * (l * FC::num_elements + i)];
      const unsigned col = call->pc[2 * (l * FC::num_elements + i) + 1];
      if constexpr (kInt)
        ic[r][col] = call->c->x[i];
      else
        c[r][col] = ToDouble(call->c->x[i]);
    }
  }
  for (unsigned l = 0; l < 32; ++l) {  // each lane's part of D = A B + C
    if (!(group >> l & 1u)) continue;
    const Call* call = reinterpret_cast<const Call*>(values[l]);
    for (int i = 0; i < FD::num_elements; ++i) {
      const unsigned r = call->pd[2 * (l * FD::num_elements + i)];
      const unsigned col = call->pd[2 * (l * FD::num_elements + i) + 1];
      if constexpr (kInt) {
        std::uint32_t s = static_cast<std::uint32_t>(ic[r][col]);
        for (int q = 0; q < k; ++q) s += static_cast<std::uint32_t>(ia[r][q] * ib[q][col]);
        call->d->x[i] = static_cast<int>(s);
      } else if constexpr (std::is_same_v<TC, double>) {
        double s = c[r][col];
        for (int q = 0; q < k; ++q) s = std::fma(a[r][q], b[q][col], s);
        call->d->x[i] = s;
      } else {
        double s = c[r][col];
        for (int q = 0; q < k; ++q) s += a[r][q] * b[q][col];
        if constexpr (std::is_same_v<typename FD::storage_element_type, __half>)
          call->d->x[i] = __double2half(s);  // once, not through float
        else
          call->d->x[i] = static_cast<float>(s);
      }
    }
  }
}

}  // namespace detail

template <typename Use, int m, int n, int k, typename T, typename Layout>
WS_PD inline void fill_fragment(fragment<Use, m, n, k, T, Layout>& f,
                                const typename fragment<Use, m, n, k, T, Layout>::element_type& v) {
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = v;
}

// matrix_a, matrix_b: the layout is the fragment's.
// `place`: the site the rewriter gave the call.
template <typename Use, int m, int n, int k, typename T, typename Layout>
WS_PD inline void load_matrix_sync(
    fragment<Use, m, n, k, T, Layout>& f,
    const typename fragment<Use, m, n, k, T, Layout>::storage_element_type* p, unsigned ldm,
    unsigned int place = 0) {
  static_assert(!std::is_same_v<Use, accumulator>,
                "wmma: an accumulator's load names its layout (mem_row_major or mem_col_major)");
  using Frag = fragment<Use, m, n, k, T, Layout>;
  constexpr bool kRow = std::is_same_v<Layout, row_major>;
  static const unsigned char* places = detail::PlacesOf<Frag, Use, m, n, k, T>(kRow, place);
  detail::Move<true, true>(f, p, ldm, kRow, places, place, detail::Rows<Use, m, n, k>(),
                           detail::Cols<Use, m, n, k>());
}

template <int m, int n, int k, typename T>
WS_PD inline void load_matrix_sync(fragment<accumulator, m, n, k, T>& f, const T* p, unsigned ldm,
                                   layout_t layout, unsigned int place = 0) {
  using Frag = fragment<accumulator, m, n, k, T>;
  static const unsigned char* places = detail::PlacesOf<Frag, accumulator, m, n, k, T>(true, place);
  detail::Move<true, false>(f, p, ldm, layout == mem_row_major, places, place, m, n);
}

template <int m, int n, int k, typename T>
WS_PD inline void store_matrix_sync(T* p, const fragment<accumulator, m, n, k, T>& f, unsigned ldm,
                                    layout_t layout, unsigned int place = 0) {
  using Frag = fragment<accumulator, m, n, k, T>;
  static const unsigned char* places = detail::PlacesOf<Frag, accumulator, m, n, k, T>(true, place);
  detail::Move<false, false>(const_cast<Frag&>(f), p, ldm, layout == mem_row_major, places, place,
                             m, n);
}

template <int m, int n, int k, typename TA, typename LA, typename LB, typename TC, typename TD>
WS_PD inline void mma_sync(fragment<accumulator, m, n, k, TD>& d,
                           const fragment<matrix_a, m, n, k, TA, LA>& a,
                           const fragment<matrix_b, m, n, k, TA, LB>& b,
                           const fragment<accumulator, m, n, k, TC>& c, bool satf = false,
                           unsigned int line = __builtin_LINE(),
                           const char* file = __builtin_FILE()) {
  static_assert(
      (std::is_same_v<TA, __half> &&
       (std::is_same_v<TC, float> || std::is_same_v<TC, __half>)&&(std::is_same_v<TD, float> ||
                                                                   std::is_same_v<TD, __half>)) ||
          ((std::is_same_v<TA, __nv_bfloat16> ||
            std::is_same_v<TA, precision::tf32>)&&std::is_same_v<TC, float> &&
           std::is_same_v<TD, float>) ||
          ((std::is_same_v<TA, signed char> ||
            std::is_same_v<TA, unsigned char>)&&std::is_same_v<TC, int> &&
           std::is_same_v<TD, int>) ||
          (std::is_same_v<TA, double> && std::is_same_v<TC, double> && std::is_same_v<TD, double>),
      "wmma::mma_sync: inputs and accumulators the GPU multiplies: half with float or half, bf16 "
      "and tf32 with float, s8 and u8 with int, double with double");
  using FD = fragment<accumulator, m, n, k, TD>;
  using FA = fragment<matrix_a, m, n, k, TA, LA>;
  using FB = fragment<matrix_b, m, n, k, TA, LB>;
  using FC = fragment<accumulator, m, n, k, TC>;
  const unsigned int place = ::ws::prog::PlaceOf(file, line);
#if !defined(WS_PROGRAM_PARSE)
  if (satf) ::ws::prog::WmmaFail(place, "wmma::mma_sync with satf = true is not supported (yet)");
  // The GPU's multiply takes the whole warp; a block's last warp of fewer lanes is undefined.
  if (::ws::prog::WmmaWarpLanes() != 32)
    ::ws::prog::WmmaFail(place,
                         "wmma::mma_sync needs all 32 lanes of its warp: this block's "
                         "last warp has fewer (make blockDim a multiple of 32)");
#endif
  static const unsigned char* pa =
      detail::PlacesOf<FA, matrix_a, m, n, k, TA>(std::is_same_v<LA, row_major>, place);
  static const unsigned char* pb =
      detail::PlacesOf<FB, matrix_b, m, n, k, TA>(std::is_same_v<LB, row_major>, place);
  static const unsigned char* pc = detail::PlacesOf<FC, accumulator, m, n, k, TC>(true, place);
  static const unsigned char* pd = detail::PlacesOf<FD, accumulator, m, n, k, TD>(true, place);
  detail::MmaCall<FD, FA, FB, FC> call{
      &detail::RunMma<m, n, k, TA, TC, FD, FA, FB, FC>, &d, &a, &b, &c, pd, pa, pb, pc};
  // WarpOpKind::kMma: the warp's lanes meet, the lowest one's call runs for all of them.
  (void)::ws::prog::WarpOp(12, 0xffffffffu, reinterpret_cast<unsigned long long>(&call), 0, 32,
                           place);
}

}  // namespace wmma
}  // namespace nvcuda
