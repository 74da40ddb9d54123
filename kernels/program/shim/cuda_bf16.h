// Warpscope's stand-in for CUDA's <cuda_bf16.h> when a program runs on the emulator
// (docs/PROGRAMS.md, "Half precision"): __nv_bfloat16 and __nv_bfloat162 (nv_bfloat16,
// nv_bfloat162), their conversions, operators and the intrinsics CUDA overloads for them, each
// rounded once (ws_program_small_float.h). On a GPU the toolkit's header is used.
#pragma once
#include "ws_program_small_types.h"

WS_SMALL_TYPES(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw, __nv_bfloat162_raw,
               ::ws::fp::BFloat)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define WS_BF16_FROM(name, type, mode)                             \
  WS_PD inline __nv_bfloat16 name(type v) {                        \
    return __nv_bfloat16_raw{::ws::fp::BFloat::Round(v, 0, mode)}; \
  }
WS_BF16_FROM(__float2bfloat16, float, ::ws::fp::kRN)
WS_BF16_FROM(__float2bfloat16_rn, float, ::ws::fp::kRN)
WS_BF16_FROM(__float2bfloat16_rz, float, ::ws::fp::kRZ)
WS_BF16_FROM(__float2bfloat16_rd, float, ::ws::fp::kRD)
WS_BF16_FROM(__float2bfloat16_ru, float, ::ws::fp::kRU)
WS_BF16_FROM(__double2bfloat16, double, ::ws::fp::kRN)
#undef WS_BF16_FROM
#define WS_BF16_FROM_INT(name, type)                                                     \
  WS_PD inline __nv_bfloat16 name(type v) {                                              \
    return __nv_bfloat16_raw{::ws::fp::FromInteger<::ws::fp::BFloat>(v, ::ws::fp::kRN)}; \
  }
WS_BF16_FROM_INT(__int2bfloat16_rn, int)
WS_BF16_FROM_INT(__uint2bfloat16_rn, unsigned int)
WS_BF16_FROM_INT(__short2bfloat16_rn, short)
WS_BF16_FROM_INT(__ushort2bfloat16_rn, unsigned short)
WS_BF16_FROM_INT(__ll2bfloat16_rn, long long)
WS_BF16_FROM_INT(__ull2bfloat16_rn, unsigned long long)
#undef WS_BF16_FROM_INT
#define WS_BF16_TO_INT(name, type, mode, lo, hi)               \
  WS_PD inline type name(__nv_bfloat16 h) {                    \
    return ::ws::fp::BFloat::ToInt<type>(h.__x, mode, lo, hi); \
  }
WS_BF16_TO_INT(__bfloat162int_rn, int, ::ws::fp::kRN, -2147483648.0, 2147483647.0)
WS_BF16_TO_INT(__bfloat162int_rz, int, ::ws::fp::kRZ, -2147483648.0, 2147483647.0)
WS_BF16_TO_INT(__bfloat162int_rd, int, ::ws::fp::kRD, -2147483648.0, 2147483647.0)
WS_BF16_TO_INT(__bfloat162int_ru, int, ::ws::fp::kRU, -2147483648.0, 2147483647.0)
#undef WS_BF16_TO_INT

WS_PD inline float __bfloat162float(__nv_bfloat16 h) {
  return ::ws::fp::BFloat::ToFloat(h.__x);
}
WS_PD inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__float2bfloat16_rn(f), __float2bfloat16_rn(f));
}
WS_PD inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
WS_PD inline __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __floats2bfloat162_rn(f.x, f.y);
}
WS_PD inline float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
WS_PD inline float __low2float(__nv_bfloat162 h) {
  return __bfloat162float(h.x);
}
WS_PD inline float __high2float(__nv_bfloat162 h) {
  return __bfloat162float(h.y);
}
WS_PD inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) {
  return h.x;
}
WS_PD inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) {
  return h.y;
}
WS_PD inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  return __nv_bfloat162(lo, hi);
}
WS_PD inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h) {
  return __nv_bfloat162(h, h);
}
WS_PD inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
WS_PD inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
WS_PD inline __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) {
  return __nv_bfloat162(a.y, a.x);
}
WS_PD inline short __bfloat16_as_short(__nv_bfloat16 h) {
  return static_cast<short>(h.__x);
}
WS_PD inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.__x;
}
WS_PD inline __nv_bfloat16 __short_as_bfloat16(short s) {
  return __nv_bfloat16_raw{static_cast<unsigned short>(s)};
}
WS_PD inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  return __nv_bfloat16_raw{s};
}
WS_PD inline __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) {
  return ::ws::fp::AtomicAdd(p, v);
}
WS_PD inline __nv_bfloat162 atomicAdd(__nv_bfloat162* p, __nv_bfloat162 v) {
  return ::ws::fp::AtomicAdd(p, v);
}
