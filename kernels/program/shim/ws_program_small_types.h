// The emulator's __half/__half2 and __nv_bfloat16/__nv_bfloat162 (cuda_fp16.h, cuda_bf16.h):
// one pattern for both, over ws_program_small_float.h's rounding. WS_SMALL_TYPES(T, T2, R, R2,
// F) declares the scalar type T and the pair T2 (raw forms R and R2) of format F, their
// conversions to and from float, their operators, and the intrinsics CUDA overloads for both
// (__hadd, __hmul2, __hfma, __heq, __hmax, ...): each rounds once, as IEEE says and the GPU does.
#pragma once
#include "vector_types.h"
#include "ws_program_small_float.h"

#define WS_SMALL_TYPES(T, T2, R, R2, F)                                                          \
  struct R {                                                                                     \
    unsigned short x;                                                                            \
  };                                                                                             \
  struct R2 {                                                                                    \
    unsigned short x, y;                                                                         \
  };                                                                                             \
  struct T {                                                                                     \
    unsigned short __x;                                                                          \
    T() = default;                                                                               \
    WS_PD constexpr T(const R& r) : __x(r.x) {}                                                  \
    WS_PD T(float f) : __x(F::Round(f)) {}                                                       \
    WS_PD T(double d) : __x(F::Round(d)) {}                                                      \
    WS_PD T(int i) : __x(F::Round(static_cast<double>(i))) {}                                    \
    WS_PD T(unsigned int i) : __x(F::Round(static_cast<double>(i))) {}                           \
    WS_PD T(short i) : __x(F::Round(static_cast<double>(i))) {}                                  \
    WS_PD T(unsigned short i) : __x(F::Round(static_cast<double>(i))) {}                         \
    WS_PD T(long long i) : __x(::ws::fp::FromInteger<F>(i)) {}                                   \
    WS_PD T(unsigned long long i) : __x(::ws::fp::FromInteger<F>(i)) {}                          \
    WS_PD operator float() const { return F::ToFloat(__x); }                                     \
    WS_PD operator R() const { return R{__x}; }                                                  \
    WS_PD T& operator=(const R& r) {                                                             \
      __x = r.x;                                                                                 \
      return *this;                                                                              \
    }                                                                                            \
    WS_PD T& operator=(float f) {                                                                \
      __x = F::Round(f);                                                                         \
      return *this;                                                                              \
    }                                                                                            \
    WS_PD T& operator=(double d) {                                                               \
      __x = F::Round(d);                                                                         \
      return *this;                                                                              \
    }                                                                                            \
  };                                                                                             \
  struct T2 {                                                                                    \
    T x, y;                                                                                      \
    T2() = default;                                                                              \
    WS_PD constexpr T2(const T& a, const T& b) : x(a), y(b) {}                                   \
    WS_PD T2(const R2& r) : x(R{r.x}), y(R{r.y}) {}                                              \
    WS_PD operator R2() const { return R2{x.__x, y.__x}; }                                       \
    WS_PD T2& operator=(const R2& r) {                                                           \
      x = R{r.x};                                                                                \
      y = R{r.y};                                                                                \
      return *this;                                                                              \
    }                                                                                            \
  };                                                                                             \
  WS_PD inline T __hadd(T a, T b) {                                                              \
    return R{F::Add(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hsub(T a, T b) {                                                              \
    return R{F::Sub(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hmul(T a, T b) {                                                              \
    return R{F::Mul(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hdiv(T a, T b) {                                                              \
    return R{F::Div(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hadd_rn(T a, T b) {                                                           \
    return __hadd(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T __hsub_rn(T a, T b) {                                                           \
    return __hsub(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T __hmul_rn(T a, T b) {                                                           \
    return __hmul(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T __hfma(T a, T b, T c) {                                                         \
    return R{F::Fma(a.__x, b.__x, c.__x)};                                                       \
  }                                                                                              \
  WS_PD inline T __hadd_sat(T a, T b) {                                                          \
    return R{F::Sat(F::Add(a.__x, b.__x))};                                                      \
  }                                                                                              \
  WS_PD inline T __hsub_sat(T a, T b) {                                                          \
    return R{F::Sat(F::Sub(a.__x, b.__x))};                                                      \
  }                                                                                              \
  WS_PD inline T __hmul_sat(T a, T b) {                                                          \
    return R{F::Sat(F::Mul(a.__x, b.__x))};                                                      \
  }                                                                                              \
  WS_PD inline T __hfma_sat(T a, T b, T c) {                                                     \
    return R{F::Sat(F::Fma(a.__x, b.__x, c.__x))};                                               \
  }                                                                                              \
  WS_PD inline T __hneg(T a) {                                                                   \
    return R{F::Neg(a.__x)};                                                                     \
  }                                                                                              \
  WS_PD inline T __habs(T a) {                                                                   \
    return R{F::Abs(a.__x)};                                                                     \
  }                                                                                              \
  WS_PD inline T __hmax(T a, T b) {                                                              \
    return R{F::Max(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hmin(T a, T b) {                                                              \
    return R{F::Min(a.__x, b.__x)};                                                              \
  }                                                                                              \
  WS_PD inline T __hmax_nan(T a, T b) {                                                          \
    return R{F::Max(a.__x, b.__x, true)};                                                        \
  }                                                                                              \
  WS_PD inline T __hmin_nan(T a, T b) {                                                          \
    return R{F::Min(a.__x, b.__x, true)};                                                        \
  }                                                                                              \
  WS_PD inline bool __hisnan(T a) {                                                              \
    return F::IsNaN(a.__x);                                                                      \
  }                                                                                              \
  WS_PD inline int __hisinf(T a) {                                                               \
    return (a.__x & ~F::kSign) == F::kInf ? ((a.__x & F::kSign) != 0 ? -1 : 1) : 0;              \
  }                                                                                              \
  WS_PD inline bool __heq(T a, T b) {                                                            \
    return F::Value(a.__x) == F::Value(b.__x);                                                   \
  }                                                                                              \
  WS_PD inline bool __hne(T a, T b) {                                                            \
    return !__hisnan(a) && !__hisnan(b) && !__heq(a, b);                                         \
  }                                                                                              \
  WS_PD inline bool __hlt(T a, T b) {                                                            \
    return F::Value(a.__x) < F::Value(b.__x);                                                    \
  }                                                                                              \
  WS_PD inline bool __hle(T a, T b) {                                                            \
    return F::Value(a.__x) <= F::Value(b.__x);                                                   \
  }                                                                                              \
  WS_PD inline bool __hgt(T a, T b) {                                                            \
    return F::Value(a.__x) > F::Value(b.__x);                                                    \
  }                                                                                              \
  WS_PD inline bool __hge(T a, T b) {                                                            \
    return F::Value(a.__x) >= F::Value(b.__x);                                                   \
  }                                                                                              \
  WS_PD inline bool __hequ(T a, T b) {                                                           \
    return !__hne(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool __hneu(T a, T b) {                                                           \
    return !__heq(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool __hltu(T a, T b) {                                                           \
    return !__hge(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool __hleu(T a, T b) {                                                           \
    return !__hgt(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool __hgtu(T a, T b) {                                                           \
    return !__hle(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool __hgeu(T a, T b) {                                                           \
    return !__hlt(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T hsqrt(T a) {                                                                    \
    return R{F::Sqrt(a.__x)};                                                                    \
  }                                                                                              \
  WS_PD inline T hrcp(T a) {                                                                     \
    return __hdiv(T(1.0f), a);                                                                   \
  }                                                                                              \
  WS_PD inline T hrsqrt(T a) {                                                                   \
    return T(1.0f / std::sqrt(static_cast<float>(a)));                                           \
  }                                                                                              \
  WS_PD inline T hceil(T a) {                                                                    \
    return T(std::ceil(static_cast<float>(a)));                                                  \
  }                                                                                              \
  WS_PD inline T hfloor(T a) {                                                                   \
    return T(std::floor(static_cast<float>(a)));                                                 \
  }                                                                                              \
  WS_PD inline T htrunc(T a) {                                                                   \
    return T(std::trunc(static_cast<float>(a)));                                                 \
  }                                                                                              \
  WS_PD inline T hrint(T a) {                                                                    \
    return T(std::nearbyint(static_cast<float>(a)));                                             \
  }                                                                                              \
  WS_PD inline T hexp(T a) {                                                                     \
    return T(std::exp(static_cast<float>(a)));                                                   \
  }                                                                                              \
  WS_PD inline T hexp2(T a) {                                                                    \
    return T(std::exp2(static_cast<float>(a)));                                                  \
  }                                                                                              \
  WS_PD inline T hexp10(T a) {                                                                   \
    return T(std::pow(10.0f, static_cast<float>(a)));                                            \
  }                                                                                              \
  WS_PD inline T hlog(T a) {                                                                     \
    return T(std::log(static_cast<float>(a)));                                                   \
  }                                                                                              \
  WS_PD inline T hlog2(T a) {                                                                    \
    return T(std::log2(static_cast<float>(a)));                                                  \
  }                                                                                              \
  WS_PD inline T hlog10(T a) {                                                                   \
    return T(std::log10(static_cast<float>(a)));                                                 \
  }                                                                                              \
  WS_PD inline T hsin(T a) {                                                                     \
    return T(std::sin(static_cast<float>(a)));                                                   \
  }                                                                                              \
  WS_PD inline T hcos(T a) {                                                                     \
    return T(std::cos(static_cast<float>(a)));                                                   \
  }                                                                                              \
  WS_PD inline T operator+(T a, T b) {                                                           \
    return __hadd(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T operator-(T a, T b) {                                                           \
    return __hsub(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T operator*(T a, T b) {                                                           \
    return __hmul(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T operator/(T a, T b) {                                                           \
    return __hdiv(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline T operator-(T a) {                                                                \
    return __hneg(a);                                                                            \
  }                                                                                              \
  WS_PD inline T operator+(T a) {                                                                \
    return a;                                                                                    \
  }                                                                                              \
  WS_PD inline T& operator+=(T& a, T b) {                                                        \
    return a = __hadd(a, b);                                                                     \
  }                                                                                              \
  WS_PD inline T& operator-=(T& a, T b) {                                                        \
    return a = __hsub(a, b);                                                                     \
  }                                                                                              \
  WS_PD inline T& operator*=(T& a, T b) {                                                        \
    return a = __hmul(a, b);                                                                     \
  }                                                                                              \
  WS_PD inline T& operator/=(T& a, T b) {                                                        \
    return a = __hdiv(a, b);                                                                     \
  }                                                                                              \
  WS_PD inline T& operator++(T& a) {                                                             \
    return a = __hadd(a, T(1.0f));                                                               \
  }                                                                                              \
  WS_PD inline T& operator--(T& a) {                                                             \
    return a = __hsub(a, T(1.0f));                                                               \
  }                                                                                              \
  WS_PD inline T operator++(T& a, int) {                                                         \
    T old = a;                                                                                   \
    ++a;                                                                                         \
    return old;                                                                                  \
  }                                                                                              \
  WS_PD inline T operator--(T& a, int) {                                                         \
    T old = a;                                                                                   \
    --a;                                                                                         \
    return old;                                                                                  \
  }                                                                                              \
  WS_PD inline bool operator==(T a, T b) {                                                       \
    return __heq(a, b);                                                                          \
  }                                                                                              \
  WS_PD inline bool operator!=(T a, T b) {                                                       \
    return __hneu(a, b);                                                                         \
  }                                                                                              \
  WS_PD inline bool operator<(T a, T b) {                                                        \
    return __hlt(a, b);                                                                          \
  }                                                                                              \
  WS_PD inline bool operator<=(T a, T b) {                                                       \
    return __hle(a, b);                                                                          \
  }                                                                                              \
  WS_PD inline bool operator>(T a, T b) {                                                        \
    return __hgt(a, b);                                                                          \
  }                                                                                              \
  WS_PD inline bool operator>=(T a, T b) {                                                       \
    return __hge(a, b);                                                                          \
  }                                                                                              \
  /* The pair, lane by lane. */                                                                  \
  WS_PD inline T2 __hadd2(T2 a, T2 b) {                                                          \
    return T2(__hadd(a.x, b.x), __hadd(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 __hsub2(T2 a, T2 b) {                                                          \
    return T2(__hsub(a.x, b.x), __hsub(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 __hmul2(T2 a, T2 b) {                                                          \
    return T2(__hmul(a.x, b.x), __hmul(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 __h2div(T2 a, T2 b) {                                                          \
    return T2(__hdiv(a.x, b.x), __hdiv(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 __hadd2_rn(T2 a, T2 b) {                                                       \
    return __hadd2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 __hsub2_rn(T2 a, T2 b) {                                                       \
    return __hsub2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 __hmul2_rn(T2 a, T2 b) {                                                       \
    return __hmul2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 __hfma2(T2 a, T2 b, T2 c) {                                                    \
    return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                                     \
  }                                                                                              \
  WS_PD inline T2 __hadd2_sat(T2 a, T2 b) {                                                      \
    return T2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y));                                       \
  }                                                                                              \
  WS_PD inline T2 __hsub2_sat(T2 a, T2 b) {                                                      \
    return T2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y));                                       \
  }                                                                                              \
  WS_PD inline T2 __hmul2_sat(T2 a, T2 b) {                                                      \
    return T2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y));                                       \
  }                                                                                              \
  WS_PD inline T2 __hfma2_sat(T2 a, T2 b, T2 c) {                                                \
    return T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));                             \
  }                                                                                              \
  WS_PD inline T2 __hneg2(T2 a) {                                                                \
    return T2(__hneg(a.x), __hneg(a.y));                                                         \
  }                                                                                              \
  WS_PD inline T2 __habs2(T2 a) {                                                                \
    return T2(__habs(a.x), __habs(a.y));                                                         \
  }                                                                                              \
  WS_PD inline T2 __hmax2(T2 a, T2 b) {                                                          \
    return T2(__hmax(a.x, b.x), __hmax(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 __hmin2(T2 a, T2 b) {                                                          \
    return T2(__hmin(a.x, b.x), __hmin(a.y, b.y));                                               \
  }                                                                                              \
  WS_PD inline T2 h2sqrt(T2 a) {                                                                 \
    return T2(hsqrt(a.x), hsqrt(a.y));                                                           \
  }                                                                                              \
  WS_PD inline T2 h2rcp(T2 a) {                                                                  \
    return T2(hrcp(a.x), hrcp(a.y));                                                             \
  }                                                                                              \
  WS_PD inline T2 h2floor(T2 a) {                                                                \
    return T2(hfloor(a.x), hfloor(a.y));                                                         \
  }                                                                                              \
  WS_PD inline T2 h2ceil(T2 a) {                                                                 \
    return T2(hceil(a.x), hceil(a.y));                                                           \
  }                                                                                              \
  WS_PD inline T2 h2exp(T2 a) {                                                                  \
    return T2(hexp(a.x), hexp(a.y));                                                             \
  }                                                                                              \
  WS_PD inline T2 h2log(T2 a) {                                                                  \
    return T2(hlog(a.x), hlog(a.y));                                                             \
  }                                                                                              \
  WS_PD inline T2 h2sin(T2 a) {                                                                  \
    return T2(hsin(a.x), hsin(a.y));                                                             \
  }                                                                                              \
  WS_PD inline T2 h2cos(T2 a) {                                                                  \
    return T2(hcos(a.x), hcos(a.y));                                                             \
  }                                                                                              \
  WS_PD inline T2 __hisnan2(T2 a) {                                                              \
    return T2(T(__hisnan(a.x) ? 1.0f : 0.0f), T(__hisnan(a.y) ? 1.0f : 0.0f));                   \
  }                                                                                              \
  /* Comparisons of a pair: 1.0 or 0.0 in each lane (__heq2), or whether both hold (__hbeq2). */ \
  WS_PD inline T2 __heq2(T2 a, T2 b) {                                                           \
    return T2(T(__heq(a.x, b.x) ? 1.f : 0.f), T(__heq(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline T2 __hne2(T2 a, T2 b) {                                                           \
    return T2(T(__hne(a.x, b.x) ? 1.f : 0.f), T(__hne(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline T2 __hlt2(T2 a, T2 b) {                                                           \
    return T2(T(__hlt(a.x, b.x) ? 1.f : 0.f), T(__hlt(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline T2 __hle2(T2 a, T2 b) {                                                           \
    return T2(T(__hle(a.x, b.x) ? 1.f : 0.f), T(__hle(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline T2 __hgt2(T2 a, T2 b) {                                                           \
    return T2(T(__hgt(a.x, b.x) ? 1.f : 0.f), T(__hgt(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline T2 __hge2(T2 a, T2 b) {                                                           \
    return T2(T(__hge(a.x, b.x) ? 1.f : 0.f), T(__hge(a.y, b.y) ? 1.f : 0.f));                   \
  }                                                                                              \
  WS_PD inline bool __hbeq2(T2 a, T2 b) {                                                        \
    return __heq(a.x, b.x) && __heq(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline bool __hbne2(T2 a, T2 b) {                                                        \
    return __hne(a.x, b.x) && __hne(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline bool __hblt2(T2 a, T2 b) {                                                        \
    return __hlt(a.x, b.x) && __hlt(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline bool __hble2(T2 a, T2 b) {                                                        \
    return __hle(a.x, b.x) && __hle(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline bool __hbgt2(T2 a, T2 b) {                                                        \
    return __hgt(a.x, b.x) && __hgt(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline bool __hbge2(T2 a, T2 b) {                                                        \
    return __hge(a.x, b.x) && __hge(a.y, b.y);                                                   \
  }                                                                                              \
  WS_PD inline T2 operator+(T2 a, T2 b) {                                                        \
    return __hadd2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 operator-(T2 a, T2 b) {                                                        \
    return __hsub2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 operator*(T2 a, T2 b) {                                                        \
    return __hmul2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 operator/(T2 a, T2 b) {                                                        \
    return __h2div(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline T2 operator-(T2 a) {                                                              \
    return __hneg2(a);                                                                           \
  }                                                                                              \
  WS_PD inline T2& operator+=(T2& a, T2 b) {                                                     \
    return a = __hadd2(a, b);                                                                    \
  }                                                                                              \
  WS_PD inline T2& operator-=(T2& a, T2 b) {                                                     \
    return a = __hsub2(a, b);                                                                    \
  }                                                                                              \
  WS_PD inline T2& operator*=(T2& a, T2 b) {                                                     \
    return a = __hmul2(a, b);                                                                    \
  }                                                                                              \
  WS_PD inline T2& operator/=(T2& a, T2 b) {                                                     \
    return a = __h2div(a, b);                                                                    \
  }                                                                                              \
  WS_PD inline bool operator==(T2 a, T2 b) {                                                     \
    return __hbeq2(a, b);                                                                        \
  }                                                                                              \
  WS_PD inline bool operator!=(T2 a, T2 b) {                                                     \
    return !__hbeq2(a, b);                                                                       \
  }

namespace ws::fp {
// An integer of up to 64 bits, rounded once: where double holds it only rounded, its error's
// sign is passed on.
template <typename F, typename I>
WS_PD inline unsigned short FromInteger(I i, Mode mode = kRN) {
  const double d = static_cast<double>(i);
  const __int128 back = static_cast<__int128>(d);  // |d| <= 2^64: exact
  const __int128 exact = static_cast<__int128>(i);
  return F::Round(d, exact > back ? 1 : exact < back ? -1 : 0, mode);
}
// atomicAdd of a 16-bit float or a pair: a compare-and-swap loop over its 2 or 4 bytes (the
// rewriter records the call as the atomic it is).
template <typename T>
WS_PD inline T AtomicAdd(T* p, T v) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = old + v;
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}
}  // namespace ws::fp
