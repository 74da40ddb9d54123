// The functions device code calls in a program on the emulator: math, the warp-level intrinsics
// and the atomics (part of ws_program.h, which includes it where the built-ins are declared).
#pragma once

// Math that device code may call (the rest comes from <cmath>). Only in CUDA units, as CUDA's
// headers declare them: a .cpp of the program may define its own umin or max.
#if defined(__CUDACC__)
WS_PD inline unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
WS_PD inline unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
WS_PD inline int min(int a, int b) {
  return a < b ? a : b;
}
WS_PD inline int max(int a, int b) {
  return a > b ? a : b;
}
WS_PD inline unsigned int min(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
WS_PD inline unsigned int max(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
WS_PD inline long long min(long long a, long long b) {
  return a < b ? a : b;
}
WS_PD inline long long max(long long a, long long b) {
  return a > b ? a : b;
}
WS_PD inline float min(float a, float b) {
  return std::fmin(a, b);
}
WS_PD inline float max(float a, float b) {
  return std::fmax(a, b);
}
WS_PD inline double min(double a, double b) {
  return std::fmin(a, b);
}
WS_PD inline double max(double a, double b) {
  return std::fmax(a, b);
}
#endif  // __CUDACC__
WS_PD inline float rsqrtf(float x) {
  return 1.0f / std::sqrt(x);
}
WS_PD inline float __fdividef(float a, float b) {
  return a / b;
}
// glibc declares these names itself: the fast intrinsics become the ordinary functions.
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __powf(a, b) powf(a, b)
WS_PD inline float __saturatef(float x) {
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
WS_PD inline float __fmul_rn(float a, float b) {
  return a * b;
}
WS_PD inline float __fadd_rn(float a, float b) {
  return a + b;
}
WS_PD inline float __fmaf_ieee_rn(float a, float b, float c) {
  return std::fma(a, b, c);
}
WS_PD inline float __fmaf_rn(float a, float b, float c) {
  return std::fma(a, b, c);
}
// A float to an integer as a GPU converts it (cvt.*.s32/u32/s64.f32/f64): out of range
// saturates to the type's limits, NaN gives 0 (a C++ cast of those is undefined: x86 gives
// INT_MIN). `x` already rounded.
template <typename I>
WS_PD inline I WsSaturateTo(double x) {
  if (x != x) return 0;
  if (x >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  if (x <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(x);
}
WS_PD inline int WsSaturateToInt(float x) {
  return WsSaturateTo<int>(x);
}
WS_PD inline int __float2int_rn(float x) {
  return WsSaturateToInt(std::nearbyint(x));
}
WS_PD inline int __float2int_rz(float x) {
  return WsSaturateToInt(x);
}
WS_PD inline float __int2float_rn(int x) {
  return static_cast<float>(x);
}
WS_PD inline int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
WS_PD inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
WS_PD inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
WS_PD inline int __ffs(int x) {
  return __builtin_ffs(x);
}
WS_PD inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
WS_PD inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
WS_PD inline int __mul24(int a, int b) {
  return a * b;
}
WS_PD inline unsigned int __umul24(unsigned int a, unsigned int b) {
  return a * b;
}
WS_PD inline int __mulhi(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) * b) >> 32);
}
WS_PD inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<__uint128_t>(a) * b) >> 64);
}
WS_PD inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128_t>(a) * b) >> 64);
}
WS_PD inline unsigned int __sad(int a, int b, unsigned int c) {
  return (a > b ? static_cast<unsigned int>(a - b) : static_cast<unsigned int>(b - a)) + c;
}
WS_PD inline unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) {
  return (a > b ? a - b : b - a) + c;
}
WS_PD inline int __hadd(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) + b) >> 1);
}
WS_PD inline int __rhadd(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1);
}
WS_PD inline unsigned int __uhadd(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) + b) >> 1);
}
WS_PD inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
WS_PD inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
WS_PD inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
WS_PD inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long both = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) r |= ((both >> (8 * ((s >> (4 * i)) & 7))) & 0xffu) << (8 * i);
  return r;
}
#if defined(__CUDACC__)  // as the CUDA headers declare them, for CUDA units only
WS_PD inline long long llmin(long long a, long long b) {
  return a < b ? a : b;
}
WS_PD inline long long llmax(long long a, long long b) {
  return a > b ? a : b;
}
WS_PD inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
WS_PD inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
// CUDA's mixed-sign overloads: the signed one converted, as math_functions.hpp does.
WS_PD inline unsigned int min(int a, unsigned int b) {
  return min(static_cast<unsigned int>(a), b);
}
WS_PD inline unsigned int min(unsigned int a, int b) {
  return min(a, static_cast<unsigned int>(b));
}
WS_PD inline unsigned int max(int a, unsigned int b) {
  return max(static_cast<unsigned int>(a), b);
}
WS_PD inline unsigned int max(unsigned int a, int b) {
  return max(a, static_cast<unsigned int>(b));
}
WS_PD inline unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
WS_PD inline unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
WS_PD inline long min(long a, long b) {
  return a < b ? a : b;
}
WS_PD inline long max(long a, long b) {
  return a > b ? a : b;
}
WS_PD inline unsigned long min(unsigned long a, unsigned long b) {
  return a < b ? a : b;
}
WS_PD inline unsigned long max(unsigned long a, unsigned long b) {
  return a > b ? a : b;
}
WS_PD inline double min(float a, double b) {
  return std::fmin(static_cast<double>(a), b);
}
WS_PD inline double min(double a, float b) {
  return std::fmin(a, static_cast<double>(b));
}
WS_PD inline double max(float a, double b) {
  return std::fmax(static_cast<double>(a), b);
}
WS_PD inline double max(double a, float b) {
  return std::fmax(a, static_cast<double>(b));
}
#endif
WS_PD inline float __fsqrt_rn(float x) {
  return std::sqrt(x);
}
WS_PD inline double __dsqrt_rn(double x) {
  return std::sqrt(x);
}
WS_PD inline float __frcp_rn(float x) {
  return 1.0f / x;
}
WS_PD inline double __drcp_rn(double x) {
  return 1.0 / x;
}
WS_PD inline float __fdiv_rn(float a, float b) {
  return a / b;
}
WS_PD inline double __ddiv_rn(double a, double b) {
  return a / b;
}
WS_PD inline float __fsub_rn(float a, float b) {
  return a - b;
}
WS_PD inline double __dadd_rn(double a, double b) {
  return a + b;
}
WS_PD inline double __dmul_rn(double a, double b) {
  return a * b;
}
WS_PD inline double __fma_rn(double a, double b, double c) {
  return std::fma(a, b, c);
}
#include "ws_program_rounding.h"  // directed rounding: __fadd_rd and kin
WS_PD inline double __dsub_rn(double a, double b) {
  return a - b;
}
WS_PD inline float __tanf(float x) {
  return std::tan(x);
}
WS_PD inline float __log2f(float x) {
  return std::log2(x);
}
WS_PD inline float __log10f(float x) {
  return std::log10(x);
}
WS_PD inline float __exp10f(float x) {
  return std::pow(10.0f, x);
}
WS_PD inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
WS_PD inline float rcbrtf(float x) {
  return 1.0f / std::cbrt(x);
}
WS_PD inline float norm3df(float a, float b, float c) {
  return std::sqrt(a * a + b * b + c * c);
}
WS_PD inline float rnorm3df(float a, float b, float c) {
  return 1.0f / std::sqrt(a * a + b * b + c * c);
}
WS_PD inline unsigned int __float2uint_rn(float x) {
  return WsSaturateTo<unsigned int>(std::nearbyint(x));
}
WS_PD inline unsigned int __float2uint_rz(float x) {
  return WsSaturateTo<unsigned int>(std::trunc(x));
}
WS_PD inline int __float2int_rd(float x) {
  return WsSaturateTo<int>(std::floor(x));
}
WS_PD inline int __float2int_ru(float x) {
  return WsSaturateTo<int>(std::ceil(x));
}
WS_PD inline long long __float2ll_rn(float x) {
  return WsSaturateTo<long long>(std::nearbyint(x));
}
WS_PD inline float __uint2float_rn(unsigned int x) {
  return static_cast<float>(x);
}
WS_PD inline float __ll2float_rn(long long x) {
  return static_cast<float>(x);
}
WS_PD inline float __double2float_rn(double x) {
  return static_cast<float>(x);
}
WS_PD inline int __double2int_rn(double x) {
  return WsSaturateTo<int>(std::nearbyint(x));
}
WS_PD inline int __double2int_rz(double x) {
  return WsSaturateTo<int>(std::trunc(x));
}
WS_PD inline double __int2double_rn(int x) {
  return static_cast<double>(x);
}
template <typename To, typename From>
WS_PD inline To WsBits(From v) {
  static_assert(sizeof(To) == sizeof(From), "the same size");
  To out;
  std::memcpy(&out, &v, sizeof out);
  return out;
}
WS_PD inline float __int_as_float(int x) {
  return WsBits<float>(x);
}
WS_PD inline int __float_as_int(float x) {
  return WsBits<int>(x);
}
WS_PD inline float __uint_as_float(unsigned int x) {
  return WsBits<float>(x);
}
WS_PD inline unsigned int __float_as_uint(float x) {
  return WsBits<unsigned int>(x);
}
WS_PD inline double __longlong_as_double(long long x) {
  return WsBits<double>(x);
}
WS_PD inline long long __double_as_longlong(double x) {
  return WsBits<long long>(x);
}
WS_PD inline int __double2hiint(double x) {
  return static_cast<int>(WsBits<unsigned long long>(x) >> 32);
}
WS_PD inline int __double2loint(double x) {
  return static_cast<int>(WsBits<unsigned long long>(x) & 0xffffffffu);
}
WS_PD inline double __hiloint2double(int hi, int lo) {
  return WsBits<double>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                        static_cast<unsigned int>(lo));
}
// The cache-hinted loads and stores: plain ones here (the rewriter records the access at the
// pointer they take).
template <typename T>
WS_PD inline T __ldg(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline T __ldcg(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline T __ldca(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline T __ldcs(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline T __ldlu(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline T __ldcv(const T* p) {
  return *p;
}
template <typename T>
WS_PD inline void __stcg(T* p, T v) {
  *p = v;
}
template <typename T>
WS_PD inline void __stcs(T* p, T v) {
  *p = v;
}
template <typename T>
WS_PD inline void __stwb(T* p, T v) {
  *p = v;
}
template <typename T>
WS_PD inline void __stwt(T* p, T v) {
  *p = v;
}
WS_PD inline void __nanosleep(unsigned int) {}
WS_PD inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
WS_PD inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
WS_PD inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// ------------------------------------------------------------------------------------------------
// Warp-level intrinsics: on the emulator the lanes of a warp meet at the call (and the meeting is
// recorded: the views draw a shuffle as lane-to-lane arrows); __syncthreads_count and its kin.
// ------------------------------------------------------------------------------------------------
namespace ws::prog {
// `place`: PlaceOf(the caller's file, its line).
unsigned long long WarpOp(unsigned int kind, unsigned int mask, unsigned long long value, int arg,
                          int width, unsigned int place);
int SyncThreadsCount(unsigned int place, int predicate);
unsigned int BlockThreads();
// A multi-warp tile's barrier and its warps' slots (cooperative_groups.h; ws::emu::TileSync).
void TileSync(unsigned int threads, unsigned int place);
unsigned long long* TileSlots();
void GridSync(unsigned int place);  // this_grid().sync()
// Thread-block clusters (cooperative_groups.h's cluster_group; ws::emu::ClusterSync and kin): the
// cluster's sync, the block's rank, the cluster's blocks, where `p` lies in block `rank`'s shared
// memory, and which block's shared memory `p` lies in.
void ClusterSync(unsigned int place);
unsigned int ClusterRank();
dim3 ClusterDims();
void* ClusterMapShared(const void* p, unsigned int rank, unsigned int place);
unsigned int ClusterQueryRank(const void* p);
// A value of more than 8 bytes (a uint4, a struct) moves 8 bytes a meeting, as the hardware
// moves it 4 bytes a SHFL.
template <typename T>
WS_PD inline T Shuffle(unsigned int kind, unsigned int mask, T var, int arg, int width,
                       unsigned int place) {
  static_assert(std::is_trivially_copyable<T>::value, "a shuffle moves a trivially copyable value");
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &var, sizeof(T));
  for (std::size_t at = 0; at < sizeof(T); at += 8) {
    unsigned long long bits = 0;
    const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
    std::memcpy(&bits, bytes + at, n);
    bits = WarpOp(kind, mask, bits, arg, width, place);
    std::memcpy(bytes + at, &bits, n);
  }
  T out;
  std::memcpy(&out, bytes, sizeof(T));
  return out;
}
}  // namespace ws::prog
template <typename T>
WS_PD inline T __shfl_sync(unsigned int mask, T var, int src, int width = 32,
                           unsigned int line = __builtin_LINE(),
                           const char* file = __builtin_FILE()) {
  return ::ws::prog::Shuffle(0, mask, var, src, width, ::ws::prog::PlaceOf(file, line));
}
template <typename T>
WS_PD inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                              unsigned int line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
  return ::ws::prog::Shuffle(1, mask, var, static_cast<int>(delta), width,
                             ::ws::prog::PlaceOf(file, line));
}
template <typename T>
WS_PD inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                                unsigned int line = __builtin_LINE(),
                                const char* file = __builtin_FILE()) {
  return ::ws::prog::Shuffle(2, mask, var, static_cast<int>(delta), width,
                             ::ws::prog::PlaceOf(file, line));
}
template <typename T>
WS_PD inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32,
                               unsigned int line = __builtin_LINE(),
                               const char* file = __builtin_FILE()) {
  return ::ws::prog::Shuffle(3, mask, var, lane_mask, width, ::ws::prog::PlaceOf(file, line));
}
WS_PD inline unsigned int __ballot_sync(unsigned int mask, int pred,
                                        unsigned int line = __builtin_LINE(),
                                        const char* file = __builtin_FILE()) {
  return static_cast<unsigned int>(
      ::ws::prog::WarpOp(4, mask, pred != 0, 0, 32, ::ws::prog::PlaceOf(file, line)));
}
WS_PD inline int __any_sync(unsigned int mask, int pred, unsigned int line = __builtin_LINE(),
                            const char* file = __builtin_FILE()) {
  return static_cast<int>(
      ::ws::prog::WarpOp(5, mask, pred != 0, 0, 32, ::ws::prog::PlaceOf(file, line)));
}
WS_PD inline int __all_sync(unsigned int mask, int pred, unsigned int line = __builtin_LINE(),
                            const char* file = __builtin_FILE()) {
  return static_cast<int>(
      ::ws::prog::WarpOp(6, mask, pred != 0, 0, 32, ::ws::prog::PlaceOf(file, line)));
}
WS_PD inline unsigned int __activemask(unsigned int line = __builtin_LINE(),
                                       const char* file = __builtin_FILE()) {
  return static_cast<unsigned int>(
      ::ws::prog::WarpOp(7, 0xffffffffu, 0, 0, 32, ::ws::prog::PlaceOf(file, line)));
}
WS_PD inline void __syncwarp(unsigned int mask = 0xffffffffu, unsigned int line = __builtin_LINE(),
                             const char* file = __builtin_FILE()) {
  ::ws::prog::WarpOp(8, mask, 0, 0, 32, ::ws::prog::PlaceOf(file, line));
}
// Warp reductions (sm_80): one meeting each.
#define WS_REDUCE(NAME, OP, T, SIGNED)                                                   \
  WS_PD inline T NAME(unsigned int mask, T value, unsigned int line = __builtin_LINE(),  \
                      const char* file = __builtin_FILE()) {                             \
    return static_cast<T>(::ws::prog::WarpOp(11, mask, static_cast<unsigned int>(value), \
                                             (OP) + ((SIGNED) ? 8 : 0), 32,              \
                                             ::ws::prog::PlaceOf(file, line)));          \
  }
WS_REDUCE(__reduce_add_sync, 0, int, true)
WS_REDUCE(__reduce_add_sync, 0, unsigned int, false)
WS_REDUCE(__reduce_min_sync, 1, int, true)
WS_REDUCE(__reduce_min_sync, 1, unsigned int, false)
WS_REDUCE(__reduce_max_sync, 2, int, true)
WS_REDUCE(__reduce_max_sync, 2, unsigned int, false)
WS_REDUCE(__reduce_and_sync, 3, unsigned int, false)
WS_REDUCE(__reduce_or_sync, 4, unsigned int, false)
WS_REDUCE(__reduce_xor_sync, 5, unsigned int, false)
#undef WS_REDUCE
template <typename T>
WS_PD inline unsigned int __match_any_sync(unsigned int mask, T value,
                                           unsigned int line = __builtin_LINE(),
                                           const char* file = __builtin_FILE()) {
  static_assert(sizeof(T) <= 8, "__match_any_sync compares 4- or 8-byte values");
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return static_cast<unsigned int>(
      ::ws::prog::WarpOp(9, mask, bits, 0, 32, ::ws::prog::PlaceOf(file, line)));
}
template <typename T>
WS_PD inline unsigned int __match_all_sync(unsigned int mask, T value, int* pred,
                                           unsigned int line = __builtin_LINE(),
                                           const char* file = __builtin_FILE()) {
  static_assert(sizeof(T) <= 8, "__match_all_sync compares 4- or 8-byte values");
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  const auto r = static_cast<unsigned int>(
      ::ws::prog::WarpOp(10, mask, bits, 0, 32, ::ws::prog::PlaceOf(file, line)));
  if (pred != nullptr) *pred = r != 0;
  return r;
}
WS_PD inline int __syncthreads_count(int pred, unsigned int line = __builtin_LINE(),
                                     const char* file = __builtin_FILE()) {
  return ::ws::prog::SyncThreadsCount(::ws::prog::PlaceOf(file, line), pred);
}
WS_PD inline int __syncthreads_and(int pred, unsigned int line = __builtin_LINE(),
                                   const char* file = __builtin_FILE()) {
  return ::ws::prog::SyncThreadsCount(::ws::prog::PlaceOf(file, line), pred) ==
         static_cast<int>(::ws::prog::BlockThreads());
}
WS_PD inline int __syncthreads_or(int pred, unsigned int line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
  return ::ws::prog::SyncThreadsCount(::ws::prog::PlaceOf(file, line), pred) > 0;
}

#include "ws_program_atomics.h"  // texture fetches, atomics, fences
