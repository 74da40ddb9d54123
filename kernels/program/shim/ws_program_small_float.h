// The emulator's 16-bit floating point (cuda_fp16.h's __half, cuda_bf16.h's __nv_bfloat16): the
// rounding both share. On a GPU the toolkit's own headers are used.
//
// Every operation is IEEE's: the exact result rounded once. A result is computed in double with
// the sign of its error (`dir`: the sign of exact - s), and Round() rounds s as if it were the
// exact value: a tie of s is broken by that sign, a truncation of an integral s steps below it.
// Sums (TwoSum), products (exact in double: 11 x 11 or 8 x 8 bits), quotients (their
// remainder, by fma) and square roots (s^2 against the operand) give that sign exactly; so no
// result is rounded twice.
#pragma once
#include <cmath>
#include <cstring>
#include <limits>

#include "ws_program.h"

namespace ws::fp {

enum Mode { kRN, kRZ, kRD, kRU };

// A format of `mant` fraction bits and `ebits` exponent bits (half: 10, 5; bfloat16: 7, 8).
template <int mant, int ebits>
struct Small {
  static constexpr int kBias = (1 << (ebits - 1)) - 1;
  static constexpr int kEmin = 1 - kBias;
  static constexpr unsigned short kSign = 1u << (mant + ebits);
  static constexpr unsigned short kInf = ((1u << ebits) - 1) << mant;
  static constexpr unsigned short kNaN = 0x7fff;  // what the GPU's operations give

  // `s`, whose exact value lies above it when dir > 0 and below when dir < 0 (by less than
  // half of double's last bit), in this format by `mode`.
  WS_PD static unsigned short Round(double s, int dir = 0, Mode mode = kRN) {
    if (std::isnan(s)) return kNaN;
    const unsigned short sign = std::signbit(s) ? kSign : 0;
    const double a = std::fabs(s);
    if (std::isinf(a)) return sign | kInf;
    if (a == 0) return sign;
    const int mdir = sign != 0 ? -dir : dir;  // the magnitude's
    const bool up = (mode == kRU && sign == 0) || (mode == kRD && sign != 0);
    int e = 0;
    std::frexp(a, &e);
    int exp = e - 1 < kEmin ? kEmin : e - 1;
    const double scaled = std::ldexp(a, mant - exp);  // exact: a power of two
    const double fl = std::floor(scaled);
    const double frac = scaled - fl;  // exact
    unsigned long long q = static_cast<unsigned long long>(fl);
    if (mode == kRN) {
      if (frac > 0.5 || (frac == 0.5 && (mdir > 0 || (mdir == 0 && (q & 1u) != 0)))) ++q;
    } else if (up) {
      if (frac > 0 || mdir > 0) ++q;
    } else if (frac == 0 && mdir < 0) {  // just below an integral value: truncated, one less
      if (q == (1ull << mant) && exp > kEmin) {
        --exp;
        q = (1ull << (mant + 1)) - 1;
      } else {
        --q;
      }
    }
    if (q == (1ull << (mant + 1))) {
      q >>= 1;
      ++exp;
    }
    if (exp > kBias)  // overflow: infinity, or the largest finite value where rounding toward it
      return sign | (mode == kRN || up ? kInf : static_cast<unsigned short>(kInf - 1));
    if (q < (1ull << mant)) return sign | static_cast<unsigned short>(q);  // subnormal
    return sign | static_cast<unsigned short>(((exp + kBias) << mant) | (q - (1ull << mant)));
  }

  WS_PD static double Value(unsigned short b) {
    const double sign = (b & kSign) != 0 ? -1.0 : 1.0;
    const int e = (b >> mant) & ((1 << ebits) - 1);
    const unsigned m = b & ((1u << mant) - 1);
    if (e == (1 << ebits) - 1) return m != 0 ? std::nan("") : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(static_cast<double>(m), kEmin - mant);
    return sign * std::ldexp(static_cast<double>(m + (1u << mant)), e - kBias - mant);
  }
  // As a float: exact. A bfloat16 is a float's upper half, NaN or not; a half NaN becomes the
  // float NaN 0x7fffffff, as cvt.f32.f16 gives it on an H200.
  WS_PD static float ToFloat(unsigned short b) {
    unsigned bits = 0;
    if (ebits == 8) {
      bits = static_cast<unsigned>(b) << 16;
    } else if (IsNaN(b)) {
      bits = 0x7fffffffu;
    } else {
      return static_cast<float>(Value(b));
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  // neg.f16 and abs.f16 give the canonical NaN for a NaN (an H200: 0x7e00 -> 0x7fff).
  WS_PD static unsigned short Neg(unsigned short b) {
    return IsNaN(b) ? kNaN : static_cast<unsigned short>(b ^ kSign);
  }
  WS_PD static unsigned short Abs(unsigned short b) {
    return IsNaN(b) ? kNaN : static_cast<unsigned short>(b & ~kSign);
  }

  WS_PD static int Sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
  WS_PD static unsigned short Add(unsigned short x, unsigned short y) {
    const double a = Value(x), b = Value(y), s = a + b;
    if (!std::isfinite(s)) return Round(s);
    const double bb = s - a, err = (a - (s - bb)) + (b - bb);  // TwoSum: a + b = s + err
    return Round(s, Sign(err));
  }
  WS_PD static unsigned short Sub(unsigned short x, unsigned short y) {
    return Add(x, static_cast<unsigned short>(y ^ kSign));
  }
  WS_PD static unsigned short Mul(unsigned short x, unsigned short y) {
    return Round(Value(x) * Value(y));  // exact in double
  }
  WS_PD static unsigned short Div(unsigned short x, unsigned short y) {
    const double a = Value(x), b = Value(y), q = a / b;
    if (!std::isfinite(q) || b == 0) return Round(q);
    return Round(q, Sign(std::fma(-q, b, a)) * Sign(b));  // a - q b, exact
  }
  WS_PD static unsigned short Fma(unsigned short x, unsigned short y, unsigned short z) {
    const double p = Value(x) * Value(y), c = Value(z), s = p + c;
    if (!std::isfinite(s)) return Round(std::fma(Value(x), Value(y), c));
    const double bb = s - p, err = (p - (s - bb)) + (c - bb);
    return Round(s, Sign(err));
  }
  WS_PD static unsigned short Sqrt(unsigned short x) {
    const double a = Value(x), s = std::sqrt(a);
    if (!std::isfinite(s) || s == 0) return Round(s);
    return Round(s, Sign(std::fma(-s, s, a)));
  }
  WS_PD static bool IsNaN(unsigned short b) {
    return (b & kInf) == kInf && (b & ((1u << mant) - 1)) != 0;
  }
  // max.f16 and min.f16: a NaN operand gives the other; two give NaN. -0 is below +0 (an
  // H200: max(-0, +0) = +0, min(+0, -0) = -0).
  WS_PD static unsigned short Max(unsigned short x, unsigned short y, bool nan_wins = false) {
    if (IsNaN(x) || IsNaN(y)) return nan_wins || (IsNaN(x) && IsNaN(y)) ? kNaN : IsNaN(x) ? y : x;
    if (Value(x) == Value(y)) return (x & kSign) == 0 ? x : y;
    return Value(x) > Value(y) ? x : y;
  }
  WS_PD static unsigned short Min(unsigned short x, unsigned short y, bool nan_wins = false) {
    if (IsNaN(x) || IsNaN(y)) return nan_wins || (IsNaN(x) && IsNaN(y)) ? kNaN : IsNaN(x) ? y : x;
    if (Value(x) == Value(y)) return (x & kSign) != 0 ? x : y;
    return Value(x) < Value(y) ? x : y;
  }
  // The _sat forms: clamped to [0, 1], NaN to 0.
  WS_PD static unsigned short Sat(unsigned short r) {
    if (IsNaN(r) || (r & kSign) != 0) return 0;
    return Value(r) > 1.0 ? Round(1.0) : r;
  }
  // To an integer type by `mode`, NaN 0, saturating at the type's ends (as cvt.rzi and kin:
  // +inf to a 64-bit type is its largest value, which no double holds).
  template <typename I>
  WS_PD static I ToInt(unsigned short b, Mode mode, double lo, double hi) {
    if (IsNaN(b)) return 0;
    const double v = Value(b);
    const double r = mode == kRZ   ? std::trunc(v)
                     : mode == kRD ? std::floor(v)
                     : mode == kRU ? std::ceil(v)
                                   : std::nearbyint(v);
    if (r < lo) return static_cast<I>(lo);
    if (r > hi) return std::numeric_limits<I>::max();
    return static_cast<I>(r);
  }
};

using Half = Small<10, 5>;
using BFloat = Small<7, 8>;

}  // namespace ws::fp
