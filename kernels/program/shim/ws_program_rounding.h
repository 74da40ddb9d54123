// Directed-rounding intrinsics for a program on the emulator (part of ws_program_device.h, which
// includes it where WS_PD and <cmath> are known).
#pragma once

// Directed rounding (__fadd_rd, __dmul_ru, __fsqrt_rz, ...: cuda-samples' interval): the nearest
// result and the sign of its exact error, which these error-free forms give (TwoSum for a sum, an
// fma for a product, a quotient's and a root's remainder), then one step toward -inf (rd), +inf
// (ru) or zero (rz) where the exact value lies that way. A result past the largest finite value is
// the largest where the rounding goes back toward zero. A float's product, quotient and root have
// their error worked out in double, exactly, so that a result in or below the subnormals rounds
// the right way; a double's product that underflows to zero takes the product's sign (a double's
// error below its own subnormals is otherwise not seen).
namespace ws::prog::directed {
enum Way { kDown, kUp, kZero };
// `s` rounded to nearest, `err` of the exact value's sign relative to it (exact - s).
template <typename T>
WS_PD inline T Step(T s, T err, Way way) {
  if (s != s || err != err || err == T(0)) return s;
  const T inf = std::numeric_limits<T>::infinity();
  const bool down = way == kDown ? err < 0 : way == kUp ? false : (s > 0 && err < 0);
  const bool up = way == kUp ? err > 0 : way == kDown ? false : (s < 0 && err > 0);
  return down ? std::nextafter(s, -inf) : up ? std::nextafter(s, inf) : s;
}
// The error's sign where the nearest result overflowed from finite operands: back from infinity.
template <typename T>
WS_PD inline bool Overflowed(T s, T a, T b) {
  return std::isinf(s) && std::isfinite(a) && std::isfinite(b);
}
template <typename T>
WS_PD inline T Add(T a, T b, Way way) {
  const T s = a + b;
  if (Overflowed(s, a, b)) return Step(s, s > 0 ? T(-1) : T(1), way);
  if (!std::isfinite(s)) return s;
  // An exact zero of operands that are not both +0 or both -0 is -0 rounding down (IEEE 754).
  if (s == T(0) && way == kDown) return std::signbit(a) || std::signbit(b) ? -T(0) : T(0);
  const T bb = s - a;
  return Step(s, (a - (s - bb)) + (b - bb), way);
}
template <typename T>
WS_PD inline T Sign(double v) {
  return v > 0 ? T(1) : v < 0 ? T(-1) : T(0);
}
template <typename T>
WS_PD inline T Mul(T a, T b, Way way) {
  const T s = a * b;
  if (Overflowed(s, a, b)) return Step(s, s > 0 ? T(-1) : T(1), way);
  if (!std::isfinite(s)) return s;
  if constexpr (std::is_same_v<T, float>) {  // 24 x 24 bits: exact in double
    return Step(s, Sign<T>(static_cast<double>(a) * b - s), way);
  } else {
    if (s == T(0) && a != T(0) && b != T(0)) return Step(s, (a > 0) == (b > 0) ? T(1) : T(-1), way);
    return Step(s, std::fma(a, b, -s), way);
  }
}
template <typename T>
WS_PD inline T Div(T a, T b, Way way) {
  const T q = a / b;
  if (Overflowed(q, a, b) && b != T(0)) return Step(q, q > 0 ? T(-1) : T(1), way);
  if (!std::isfinite(q) || !std::isfinite(b)) return q;
  // a - q b, exactly: the exact quotient is q + r / b.
  double r = 0;
  if constexpr (std::is_same_v<T, float>)
    r = static_cast<double>(a) - static_cast<double>(q) * b;
  else
    r = std::fma(-q, b, a);
  return Step(q, r == 0 ? T(0) : ((r > 0) == (b > 0) ? T(1) : T(-1)), way);
}
template <typename T>
WS_PD inline T Sqrt(T x, Way way) {
  const T s = std::sqrt(x);
  if (!std::isfinite(s) || s == T(0)) return s;
  // x - s^2: the exact root is past s where it is positive.
  if constexpr (std::is_same_v<T, float>)
    return Step(s, Sign<T>(static_cast<double>(x) - static_cast<double>(s) * s), way);
  else
    return Step(s, std::fma(-s, s, x), way);
}
// A type that holds a product of two T exactly and adds a T to it by TwoSum without leaving its
// normal range: double for a float (24 x 24 bits), binary128 for a double (53 x 53 in 113).
template <typename T>
struct Wide {
  using type = double;
};
template <>
struct Wide<double> {
#if defined(__SIZEOF_FLOAT128__)
  using type = __float128;
#else
  using type = long double;  // binary128 where there is no __float128 (AArch64's long double)
  static_assert(__LDBL_MANT_DIG__ >= 106,
                "__fma_rd and kin need a product of doubles held exactly");
#endif
};
// a x b + c rounded once, down, up or toward zero (__fmaf_rd, __fma_ru, ...): the nearest result
// and the sign of the exact value's distance from it, from the product held exactly and c added
// by TwoSum (exact = t + e), t - r being exact (t and r lie within a factor of two of each other)
// and a sum's sign never lost to rounding (gradual underflow). An exact zero of a product and a
// c of opposite signs is -0 rounding down, +0 otherwise (IEEE 754); a result past the largest
// finite value goes back to it rounding toward zero.
template <typename T>
WS_PD inline T Fma(T a, T b, T c, Way way) {
  const T r = std::fma(a, b, c);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b) && std::isfinite(c))
    return Step(r, r > 0 ? T(-1) : T(1), way);
  if (!std::isfinite(r)) return r;
  using W = typename Wide<T>::type;
  const W p = W(a) * W(b), wc = W(c);
  const W t = p + wc;
  const W bb = t - p;
  const W e = (p - (t - bb)) + (wc - bb);
  const W d = (t - W(r)) + e;
  if (d == W(0)) {
    const bool product_negative = std::signbit(a) != std::signbit(b);
    if (r == T(0) && way == kDown && product_negative != std::signbit(c)) return -T(0);
    return r;
  }
  return Step(r, d > W(0) ? T(1) : T(-1), way);
}
}  // namespace ws::prog::directed
#define WS_DIRECTED_ROUNDING(suffix, way)                                 \
  WS_PD inline float __fadd_##suffix(float a, float b) {                  \
    return ::ws::prog::directed::Add(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline float __fsub_##suffix(float a, float b) {                  \
    return ::ws::prog::directed::Add(a, -b, ::ws::prog::directed::way);   \
  }                                                                       \
  WS_PD inline float __fmul_##suffix(float a, float b) {                  \
    return ::ws::prog::directed::Mul(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline float __fdiv_##suffix(float a, float b) {                  \
    return ::ws::prog::directed::Div(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline float __frcp_##suffix(float x) {                           \
    return ::ws::prog::directed::Div(1.0f, x, ::ws::prog::directed::way); \
  }                                                                       \
  WS_PD inline float __fsqrt_##suffix(float x) {                          \
    return ::ws::prog::directed::Sqrt(x, ::ws::prog::directed::way);      \
  }                                                                       \
  WS_PD inline double __dadd_##suffix(double a, double b) {               \
    return ::ws::prog::directed::Add(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline double __dsub_##suffix(double a, double b) {               \
    return ::ws::prog::directed::Add(a, -b, ::ws::prog::directed::way);   \
  }                                                                       \
  WS_PD inline double __dmul_##suffix(double a, double b) {               \
    return ::ws::prog::directed::Mul(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline double __ddiv_##suffix(double a, double b) {               \
    return ::ws::prog::directed::Div(a, b, ::ws::prog::directed::way);    \
  }                                                                       \
  WS_PD inline double __drcp_##suffix(double x) {                         \
    return ::ws::prog::directed::Div(1.0, x, ::ws::prog::directed::way);  \
  }                                                                       \
  WS_PD inline double __dsqrt_##suffix(double x) {                        \
    return ::ws::prog::directed::Sqrt(x, ::ws::prog::directed::way);      \
  }                                                                       \
  WS_PD inline float __fmaf_##suffix(float a, float b, float c) {         \
    return ::ws::prog::directed::Fma(a, b, c, ::ws::prog::directed::way); \
  }                                                                       \
  WS_PD inline float __fmaf_ieee_##suffix(float a, float b, float c) {    \
    return __fmaf_##suffix(a, b, c);                                      \
  }                                                                       \
  WS_PD inline double __fma_##suffix(double a, double b, double c) {      \
    return ::ws::prog::directed::Fma(a, b, c, ::ws::prog::directed::way); \
  }
WS_DIRECTED_ROUNDING(rd, kDown)
WS_DIRECTED_ROUNDING(ru, kUp)
WS_DIRECTED_ROUNDING(rz, kZero)
#undef WS_DIRECTED_ROUNDING
