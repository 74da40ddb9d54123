// The functions device code calls in a program on the emulator: math, the warp-level intrinsics
// and the atomics (part of ws_program.h, which includes it where the built-ins are declared).
#pragma once

// Math that device code may call (the rest comes from <cmath>).
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
WS_PD inline float __fmaf_rn(float a, float b, float c) {
  return std::fma(a, b, c);
}
WS_PD inline int __float2int_rn(float x) {
  return static_cast<int>(std::nearbyint(x));
}
WS_PD inline int __float2int_rz(float x) {
  return static_cast<int>(x);
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
unsigned long long WarpOp(unsigned int kind, unsigned int mask, unsigned long long value, int arg,
                          int width, unsigned int line);
int SyncThreadsCount(unsigned int line, int predicate);
unsigned int BlockThreads();
template <typename T>
WS_PD inline T Shuffle(unsigned int kind, unsigned int mask, T var, int arg, int width,
                       unsigned int line) {
  static_assert(sizeof(T) <= 8, "a shuffle moves at most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = WarpOp(kind, mask, bits, arg, width, line);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
}  // namespace ws::prog
template <typename T>
WS_PD inline T __shfl_sync(unsigned int mask, T var, int src, int width = 32,
                           unsigned int line = __builtin_LINE()) {
  return ::ws::prog::Shuffle(0, mask, var, src, width, line);
}
template <typename T>
WS_PD inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                              unsigned int line = __builtin_LINE()) {
  return ::ws::prog::Shuffle(1, mask, var, static_cast<int>(delta), width, line);
}
template <typename T>
WS_PD inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                                unsigned int line = __builtin_LINE()) {
  return ::ws::prog::Shuffle(2, mask, var, static_cast<int>(delta), width, line);
}
template <typename T>
WS_PD inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32,
                               unsigned int line = __builtin_LINE()) {
  return ::ws::prog::Shuffle(3, mask, var, lane_mask, width, line);
}
WS_PD inline unsigned int __ballot_sync(unsigned int mask, int pred,
                                        unsigned int line = __builtin_LINE()) {
  return static_cast<unsigned int>(::ws::prog::WarpOp(4, mask, pred != 0, 0, 32, line));
}
WS_PD inline int __any_sync(unsigned int mask, int pred, unsigned int line = __builtin_LINE()) {
  return static_cast<int>(::ws::prog::WarpOp(5, mask, pred != 0, 0, 32, line));
}
WS_PD inline int __all_sync(unsigned int mask, int pred, unsigned int line = __builtin_LINE()) {
  return static_cast<int>(::ws::prog::WarpOp(6, mask, pred != 0, 0, 32, line));
}
WS_PD inline unsigned int __activemask(unsigned int line = __builtin_LINE()) {
  return static_cast<unsigned int>(::ws::prog::WarpOp(7, 0xffffffffu, 0, 0, 32, line));
}
WS_PD inline void __syncwarp(unsigned int mask = 0xffffffffu,
                             unsigned int line = __builtin_LINE()) {
  ::ws::prog::WarpOp(8, mask, 0, 0, 32, line);
}
WS_PD inline int __syncthreads_count(int pred, unsigned int line = __builtin_LINE()) {
  return ::ws::prog::SyncThreadsCount(line, pred);
}
WS_PD inline int __syncthreads_and(int pred, unsigned int line = __builtin_LINE()) {
  return ::ws::prog::SyncThreadsCount(line, pred) == static_cast<int>(::ws::prog::BlockThreads());
}
WS_PD inline int __syncthreads_or(int pred, unsigned int line = __builtin_LINE()) {
  return ::ws::prog::SyncThreadsCount(line, pred) > 0;
}

// ------------------------------------------------------------------------------------------------
// Atomics: the rewriter wraps their address argument (ws::prog::At) so that each is recorded.
// ------------------------------------------------------------------------------------------------
namespace ws::prog {
template <typename T>
WS_PD inline T AtomicRmw(T* p, T v, int op) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = old;
    switch (op) {
      case 0:
        next = old + v;
        break;
      case 1:
        next = old - v;
        break;
      case 2:
        next = v < old ? v : old;
        break;
      case 3:
        next = v > old ? v : old;
        break;
      case 4:
        next = v;
        break;
    }
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}
template <typename T>
WS_PD inline T AtomicBits(T* p, T v, int op) {
  switch (op) {
    case 0:
      return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    case 1:
      return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    default:
      return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
  }
}
}  // namespace ws::prog
#define WS_ATOMIC_RMW(NAME, OP, T)             \
  WS_PD inline T NAME(T* p, T v) {             \
    return ::ws::prog::AtomicRmw<T>(p, v, OP); \
  }
#define WS_ATOMIC_BITS(NAME, OP, T)             \
  WS_PD inline T NAME(T* p, T v) {              \
    return ::ws::prog::AtomicBits<T>(p, v, OP); \
  }
WS_ATOMIC_RMW(atomicAdd, 0, int)
WS_ATOMIC_RMW(atomicAdd, 0, unsigned int)
WS_ATOMIC_RMW(atomicAdd, 0, unsigned long long)
WS_ATOMIC_RMW(atomicAdd, 0, float)
WS_ATOMIC_RMW(atomicAdd, 0, double)
WS_ATOMIC_RMW(atomicSub, 1, int)
WS_ATOMIC_RMW(atomicSub, 1, unsigned int)
WS_ATOMIC_RMW(atomicMin, 2, int)
WS_ATOMIC_RMW(atomicMin, 2, unsigned int)
WS_ATOMIC_RMW(atomicMin, 2, long long)
WS_ATOMIC_RMW(atomicMin, 2, unsigned long long)
WS_ATOMIC_RMW(atomicMax, 3, int)
WS_ATOMIC_RMW(atomicMax, 3, unsigned int)
WS_ATOMIC_RMW(atomicMax, 3, long long)
WS_ATOMIC_RMW(atomicMax, 3, unsigned long long)
WS_ATOMIC_RMW(atomicExch, 4, int)
WS_ATOMIC_RMW(atomicExch, 4, unsigned int)
WS_ATOMIC_RMW(atomicExch, 4, unsigned long long)
WS_ATOMIC_RMW(atomicExch, 4, float)
WS_ATOMIC_BITS(atomicAnd, 0, int)
WS_ATOMIC_BITS(atomicAnd, 0, unsigned int)
WS_ATOMIC_BITS(atomicAnd, 0, unsigned long long)
WS_ATOMIC_BITS(atomicOr, 1, int)
WS_ATOMIC_BITS(atomicOr, 1, unsigned int)
WS_ATOMIC_BITS(atomicOr, 1, unsigned long long)
WS_ATOMIC_BITS(atomicXor, 2, int)
WS_ATOMIC_BITS(atomicXor, 2, unsigned int)
WS_ATOMIC_BITS(atomicXor, 2, unsigned long long)
#undef WS_ATOMIC_RMW
#undef WS_ATOMIC_BITS
#define WS_ATOMIC_CAS(T)                                                                        \
  WS_PD inline T atomicCAS(T* p, T compare, T value) {                                          \
    __atomic_compare_exchange_n(p, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return compare;                                                                             \
  }
WS_ATOMIC_CAS(int)
WS_ATOMIC_CAS(unsigned int)
WS_ATOMIC_CAS(unsigned long long)
#undef WS_ATOMIC_CAS
WS_PD inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}
WS_PD inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, (old == 0u || old > limit) ? limit : old - 1u, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}
