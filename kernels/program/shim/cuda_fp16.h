// Warpscope's stand-in for CUDA's <cuda_fp16.h> when a program runs on the emulator
// (docs/PROGRAMS.md, "Half precision"): __half and __half2 (half, half2), their conversions,
// operators and intrinsics, each rounded once as IEEE binary16 and the GPU round
// (ws_program_small_float.h). A __half is 2 bytes in memory, as on a GPU, so its accesses cost
// the sectors and banks 2-byte words do. On a GPU the toolkit's header is used.
#pragma once
#include "ws_program_small_types.h"

WS_SMALL_TYPES(__half, __half2, __half_raw, __half2_raw, ::ws::fp::Half)
typedef __half half;
typedef __half2 half2;

#define WS_HALF_FROM(name, type, mode)                    \
  WS_PD inline __half name(type v) {                      \
    return __half_raw{::ws::fp::Half::Round(v, 0, mode)}; \
  }
WS_HALF_FROM(__float2half, float, ::ws::fp::kRN)
WS_HALF_FROM(__float2half_rn, float, ::ws::fp::kRN)
WS_HALF_FROM(__float2half_rz, float, ::ws::fp::kRZ)
WS_HALF_FROM(__float2half_rd, float, ::ws::fp::kRD)
WS_HALF_FROM(__float2half_ru, float, ::ws::fp::kRU)
WS_HALF_FROM(__double2half, double, ::ws::fp::kRN)
#undef WS_HALF_FROM
#define WS_HALF_FROM_INT(name, type, mode)                             \
  WS_PD inline __half name(type v) {                                   \
    return __half_raw{::ws::fp::FromInteger<::ws::fp::Half>(v, mode)}; \
  }
#define WS_HALF_FROM_INTS(stem, type)              \
  WS_HALF_FROM_INT(stem##_rn, type, ::ws::fp::kRN) \
  WS_HALF_FROM_INT(stem##_rz, type, ::ws::fp::kRZ) \
  WS_HALF_FROM_INT(stem##_rd, type, ::ws::fp::kRD) \
  WS_HALF_FROM_INT(stem##_ru, type, ::ws::fp::kRU)
WS_HALF_FROM_INTS(__int2half, int)
WS_HALF_FROM_INTS(__uint2half, unsigned int)
WS_HALF_FROM_INTS(__short2half, short)
WS_HALF_FROM_INTS(__ushort2half, unsigned short)
WS_HALF_FROM_INTS(__ll2half, long long)
WS_HALF_FROM_INTS(__ull2half, unsigned long long)
#undef WS_HALF_FROM_INTS
#undef WS_HALF_FROM_INT
#define WS_HALF_TO_INT(name, type, mode, lo, hi)             \
  WS_PD inline type name(__half h) {                         \
    return ::ws::fp::Half::ToInt<type>(h.__x, mode, lo, hi); \
  }
#define WS_HALF_TO_INTS(stem, type, lo, hi)              \
  WS_HALF_TO_INT(stem##_rn, type, ::ws::fp::kRN, lo, hi) \
  WS_HALF_TO_INT(stem##_rz, type, ::ws::fp::kRZ, lo, hi) \
  WS_HALF_TO_INT(stem##_rd, type, ::ws::fp::kRD, lo, hi) \
  WS_HALF_TO_INT(stem##_ru, type, ::ws::fp::kRU, lo, hi)
WS_HALF_TO_INTS(__half2int, int, -2147483648.0, 2147483647.0)
WS_HALF_TO_INTS(__half2uint, unsigned int, 0.0, 4294967295.0)
WS_HALF_TO_INTS(__half2short, short, -32768.0, 32767.0)
WS_HALF_TO_INTS(__half2ushort, unsigned short, 0.0, 65535.0)
WS_HALF_TO_INTS(__half2ll, long long, -9223372036854775808.0, 9223372036854774784.0)
WS_HALF_TO_INTS(__half2ull, unsigned long long, 0.0, 18446744073709549568.0)
#undef WS_HALF_TO_INTS
#undef WS_HALF_TO_INT

WS_PD inline float __half2float(__half h) {
  return ::ws::fp::Half::ToFloat(h.__x);
}
WS_PD inline __half2 __float2half2_rn(float f) {
  return __half2(__float2half_rn(f), __float2half_rn(f));
}
WS_PD inline __half2 __floats2half2_rn(float a, float b) {
  return __half2(__float2half_rn(a), __float2half_rn(b));
}
WS_PD inline __half2 __float22half2_rn(float2 f) {
  return __floats2half2_rn(f.x, f.y);
}
WS_PD inline float2 __half22float2(__half2 h) {
  return make_float2(__half2float(h.x), __half2float(h.y));
}
WS_PD inline float __low2float(__half2 h) {
  return __half2float(h.x);
}
WS_PD inline float __high2float(__half2 h) {
  return __half2float(h.y);
}
WS_PD inline __half __low2half(__half2 h) {
  return h.x;
}
WS_PD inline __half __high2half(__half2 h) {
  return h.y;
}
WS_PD inline __half2 __halves2half2(__half lo, __half hi) {
  return __half2(lo, hi);
}
WS_PD inline __half2 __half2half2(__half h) {
  return __half2(h, h);
}
WS_PD inline __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
WS_PD inline __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
WS_PD inline __half2 __low2half2(__half2 a) {
  return __half2(a.x, a.x);
}
WS_PD inline __half2 __high2half2(__half2 a) {
  return __half2(a.y, a.y);
}
WS_PD inline __half2 __lowhigh2highlow(__half2 a) {
  return __half2(a.y, a.x);
}
WS_PD inline short __half_as_short(__half h) {
  return static_cast<short>(h.__x);
}
WS_PD inline unsigned short __half_as_ushort(__half h) {
  return h.__x;
}
WS_PD inline __half __short_as_half(short s) {
  return __half_raw{static_cast<unsigned short>(s)};
}
WS_PD inline __half __ushort_as_half(unsigned short s) {
  return __half_raw{s};
}
// atomicAdd of a half and of a pair (each half added on its own, as CUDA's), a compare-and-swap
// loop over its 2 or 4 bytes, recorded as the atomic it is.
WS_PD inline __half atomicAdd(__half* p, __half v) {
  return ::ws::fp::AtomicAdd(p, v);
}
WS_PD inline __half2 atomicAdd(__half2* p, __half2 v) {
  return ::ws::fp::AtomicAdd(p, v);
}
