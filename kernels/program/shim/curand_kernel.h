// Warpscope's stand-in for CUDA's <curand_kernel.h> when a program runs on the emulator
// (docs/PROGRAMS.md, "cuRAND's device API"): the XORWOW generator (curandState, the default) and
// Philox4_32_10, each with the states' layout and sizes of the toolkit's (48 and 64 bytes, so
// that a program's arrays of states take the sectors they take on a GPU), and their sequences as
// cuRAND makes them: curand_init's seed, subsequence and offset, curand(), the uniform floats and
// doubles, the normals by Box-Muller (one cached for the next call where a call returns one) and
// the log-normals. The integers and the uniforms are the GPU's bit for bit (an H100's output of
// tests/programs/agreement/curand_values.cu, kept beside it); a normal goes through logf and a sine
// and cosine, which the GPU computes with its own approximations (__sincosf for a float: up to
// about 1e-6 apart there; a double's and a log-normal's in their last bits). The generator's own
// reads and writes of a state are not recorded (they are the library's); a program's copies of
// states to and from its arrays are.
// MRG32k3a, MTGP32, the Sobol generators, curand_poisson and curand_discrete are not here: a use
// of one is refused by its name when the program is read.
#pragma once
#include <cmath>
#include <cstdint>

#include "curand.h"
#include "ws_program.h"

namespace ws::prog::curand {
// XORWOW's five words `v` advanced by n x 2^shift steps (shift 0: curand_init's offset, skipahead;
// 67: its subsequence, skipahead_sequence), by the GF(2) powers of its step (emu_curand.cpp).
void XorwowSkip(unsigned int v[5], unsigned long long n, unsigned int shift);
// 2^-32 and 2^-53, and the float 2*pi times 2^-32 (cuRAND's constants).
inline constexpr float kInv32 = 2.3283064365386963e-10f;
inline constexpr double kInv32Double = 2.3283064365386963e-10;
inline constexpr double kInv53Double = 1.1102230246251565e-16;
inline constexpr float kInv32TwoPi = 6.2831855f * kInv32;
}  // namespace ws::prog::curand

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2PI (6.2831855f)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_2PI_DOUBLE (6.2831853071795860)
#define CURAND_2POW53_INV_2PI_DOUBLE (1.1102230246251565e-16 * 6.2831853071795860)
#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

static_assert(sizeof(curandStateXORWOW) == 48, "the toolkit's XORWOW state is 48 bytes");
static_assert(sizeof(curandStatePhilox4_32_10) == 64, "the toolkit's Philox state is 64 bytes");

// The conversions cuRAND applies to its 32-bit outputs. A uniform float is x * 2^-32 + 2^-33 (in
// (0, 1]: never 0), a uniform double of two outputs x ^ (y << 21) * 2^-53 + 2^-54; both products
// are exact (a power of two), so the GPU's fused multiply-add and a multiply then an add agree.
WS_PD inline float _curand_uniform(unsigned int x) {
  return static_cast<float>(x) * ws::prog::curand::kInv32 + ws::prog::curand::kInv32 / 2.0f;
}
// One output's double: x 2^-32 + 2^-32, in [2^-32, 1] (the toolkit's since 2018; its headers
// before added half that, as the float does).
WS_PD inline double _curand_uniform_double(unsigned int x) {
  return static_cast<double>(x) * ws::prog::curand::kInv32Double + ws::prog::curand::kInv32Double;
}
WS_PD inline double _curand_uniform_double_hq(unsigned int x, unsigned int y) {
  const unsigned long long z =
      static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return static_cast<double>(z) * ws::prog::curand::kInv53Double +
         ws::prog::curand::kInv53Double / 2.0;
}
// Two normals from two outputs: the angle's multiply and add are one fused multiply-add, as nvcc
// makes of cuRAND's expression (the constant is not a power of two); sqrtf(-2 logf(u)) times the
// angle's sine and cosine.
WS_PD inline float2 _curand_box_muller(unsigned int x, unsigned int y) {
  const float u = _curand_uniform(x);
  const float v = std::fmaf(static_cast<float>(y), ws::prog::curand::kInv32TwoPi,
                            ws::prog::curand::kInv32TwoPi / 2.0f);
  const float s = std::sqrt(-2.0f * std::log(u));
  float2 r;
  r.x = std::sin(v) * s;
  r.y = std::cos(v) * s;
  return r;
}
// Two normal doubles from four outputs: the angle in half turns, v in (0, 2), and its sine and
// cosine of pi v (CUDA's sincospi), each reduced to a quarter turn and taken in long double.
WS_PD inline double2 _curand_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                               unsigned int y1) {
  const double u = _curand_uniform_double_hq(x0, x1);
  const unsigned long long zy =
      static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  const double v = static_cast<double>(zy) * (ws::prog::curand::kInv53Double * 2.0) +
                   ws::prog::curand::kInv53Double;
  const double s = std::sqrt(-2.0 * std::log(u));
  const double quarters = std::nearbyint(2.0 * v);  // v - quarters / 2 in [-1/4, 1/4]
  const long double angle =
      3.14159265358979323846264338327950288L * static_cast<long double>(v - quarters / 2.0);
  const double sn = static_cast<double>(std::sin(angle)), cs = static_cast<double>(std::cos(angle));
  double sinpi = sn, cospi = cs;
  switch (static_cast<int>(quarters) & 3) {
    case 1:
      sinpi = cs, cospi = -sn;
      break;
    case 2:
      sinpi = -sn, cospi = -cs;
      break;
    case 3:
      sinpi = -cs, cospi = sn;
      break;
    default:
      break;
  }
  double2 r;
  r.x = sinpi * s;
  r.y = cospi * s;
  return r;
}

//-------------------------------------------------------------------------------------------------
// XORWOW (curandState)
//-------------------------------------------------------------------------------------------------

// Marsaglia's xorshift of five words, plus a Weyl sequence (d) added to the output.
WS_PD inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}
WS_PD inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  ws::prog::curand::XorwowSkip(state->v, n, 0);
  state->d += 362437u * static_cast<unsigned int>(n);
}
// n subsequences of 2^67 outputs each (the Weyl sequence comes back to where it was).
WS_PD inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  ws::prog::curand::XorwowSkip(state->v, n, 67);
}
// The seed's two halves salted and mixed into the six words, then the subsequence and the offset.
WS_PD inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                              unsigned long long offset, curandStateXORWOW_t* state) {
  const unsigned int t0 = 1099087573u * (static_cast<unsigned int>(seed) ^ 0xaad26b49u);
  const unsigned int t1 = 2591861531u * (static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu);
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

//-------------------------------------------------------------------------------------------------
// Philox4_32_10
//-------------------------------------------------------------------------------------------------

namespace ws::prog::curand {
// One of Philox's ten rounds: two 32 x 32 -> 64-bit products, their halves and the key mixed in.
WS_PD inline uint4 PhiloxRound(uint4 c, uint2 k) {
  const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
  uint4 r;
  r.x = static_cast<unsigned int>(p1 >> 32) ^ c.y ^ k.x;
  r.y = static_cast<unsigned int>(p1);
  r.z = static_cast<unsigned int>(p0 >> 32) ^ c.w ^ k.y;
  r.w = static_cast<unsigned int>(p0);
  return r;
}
// The counter's four outputs: ten rounds, the key bumped by the Weyl constants between them.
WS_PD inline uint4 Philox10(uint4 c, uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = PhiloxRound(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return PhiloxRound(c, k);
}
// The 128-bit counter plus n at its low 64 bits, the carry taken as cuRAND takes it.
WS_PD inline void PhiloxAdd(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned int lo = static_cast<unsigned int>(n);
  unsigned int hi = static_cast<unsigned int>(n >> 32);
  s->ctr.x += lo;
  if (s->ctr.x < lo) ++hi;
  s->ctr.y += hi;
  if (hi <= s->ctr.y) return;
  if (++s->ctr.z != 0) return;
  ++s->ctr.w;
}
// ... plus one.
WS_PD inline void PhiloxNext(curandStatePhilox4_32_10_t* s) {
  if (++s->ctr.x != 0) return;
  if (++s->ctr.y != 0) return;
  if (++s->ctr.z != 0) return;
  ++s->ctr.w;
}
}  // namespace ws::prog::curand

// Each counter value gives four outputs, handed out one at a time (STATE, the next one's place).
WS_PD inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  unsigned int r;
  switch (state->STATE++) {
    case 1:
      r = state->output.y;
      break;
    case 2:
      r = state->output.z;
      break;
    case 3:
      r = state->output.w;
      break;
    default:
      r = state->output.x;
      break;
  }
  if (state->STATE == 4) {
    ws::prog::curand::PhiloxNext(state);
    state->output = ws::prog::curand::Philox10(state->ctr, state->key);
    state->STATE = 0;
  }
  return r;
}
// The next four outputs at once; the state's place among them (STATE) does not move.
WS_PD inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 was = state->output;
  ws::prog::curand::PhiloxNext(state);
  state->output = ws::prog::curand::Philox10(state->ctr, state->key);
  const uint4 now = state->output;
  uint4 r = was;
  switch (state->STATE) {
    case 1:
      r = {was.y, was.z, was.w, now.x};
      break;
    case 2:
      r = {was.z, was.w, now.x, now.y};
      break;
    case 3:
      r = {was.w, now.x, now.y, now.z};
      break;
    default:
      break;
  }
  return r;
}
WS_PD inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  ws::prog::curand::PhiloxAdd(state, n);
  state->output = ws::prog::curand::Philox10(state->ctr, state->key);
}
// n subsequences of 2^66 outputs: the counter's high 64 bits.
WS_PD inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  const unsigned int lo = static_cast<unsigned int>(n);
  unsigned int hi = static_cast<unsigned int>(n >> 32);
  state->ctr.z += lo;
  if (state->ctr.z < lo) ++hi;
  state->ctr.w += hi;
  state->output = ws::prog::curand::Philox10(state->ctr, state->key);
}
WS_PD inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                              unsigned long long offset, curandStatePhilox4_32_10_t* state) {
  state->ctr = {0, 0, 0, 0};
  state->key.x = static_cast<unsigned int>(seed);
  state->key.y = static_cast<unsigned int>(seed >> 32);
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

//-------------------------------------------------------------------------------------------------
// Distributions, for both generators
//-------------------------------------------------------------------------------------------------

WS_PD inline float curand_uniform(curandStateXORWOW_t* state) {
  return _curand_uniform(curand(state));
}
WS_PD inline float curand_uniform(curandStatePhilox4_32_10_t* state) {
  return _curand_uniform(curand(state));
}
WS_PD inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return {_curand_uniform(x.x), _curand_uniform(x.y), _curand_uniform(x.z), _curand_uniform(x.w)};
}
// XORWOW's double takes two outputs; Philox's one (its two-at-a-time form takes four).
WS_PD inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return _curand_uniform_double_hq(x, y);
}
WS_PD inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return _curand_uniform_double(curand(state));
}
WS_PD inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return {_curand_uniform_double_hq(x.x, x.y), _curand_uniform_double_hq(x.z, x.w)};
}

namespace ws::prog::curand {
// One value a call from a Box-Muller pair made every other call, its second kept in the state for
// the next: `flag` says what is kept (a normal or a log-normal: a call of the other kind makes a
// pair afresh), `f` is what each of the pair becomes.
template <typename State, typename F>
WS_PD inline float OneOfPair(State* state, int flag, F f) {
  if (state->boxmuller_flag != flag) {
    const unsigned int x = ::curand(state);
    const unsigned int y = ::curand(state);
    const float2 v = _curand_box_muller(x, y);
    state->boxmuller_extra = f(v.y);
    state->boxmuller_flag = flag;
    return f(v.x);
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
template <typename State>
WS_PD inline float2 Pair(State* state) {
  const unsigned int x = ::curand(state);
  const unsigned int y = ::curand(state);
  return _curand_box_muller(x, y);
}
// exp(mean + stddev * n), its multiply and add fused as nvcc fuses them.
WS_PD inline float LogOf(float n, float mean, float stddev) {
  return std::exp(std::fmaf(stddev, n, mean));
}
WS_PD inline double LogOf(double n, double mean, double stddev) {
  return std::exp(std::fma(stddev, n, mean));
}
}  // namespace ws::prog::curand

WS_PD inline float curand_normal(curandStateXORWOW_t* state) {
  return ws::prog::curand::OneOfPair(state, EXTRA_FLAG_NORMAL, [](float n) { return n; });
}
WS_PD inline float curand_normal(curandStatePhilox4_32_10_t* state) {
  return ws::prog::curand::OneOfPair(state, EXTRA_FLAG_NORMAL, [](float n) { return n; });
}
WS_PD inline float2 curand_normal2(curandStateXORWOW_t* state) {
  return ws::prog::curand::Pair(state);
}
WS_PD inline float2 curand_normal2(curandStatePhilox4_32_10_t* state) {
  return ws::prog::curand::Pair(state);
}
WS_PD inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  const float2 a = _curand_box_muller(x.x, x.y), b = _curand_box_muller(x.z, x.w);
  return {a.x, a.y, b.x, b.y};
}
WS_PD inline float curand_log_normal(curandStateXORWOW_t* state, float mean, float stddev) {
  return ws::prog::curand::OneOfPair(state, EXTRA_FLAG_LOG_NORMAL, [=](float n) {
    return ws::prog::curand::LogOf(n, mean, stddev);
  });
}
WS_PD inline float curand_log_normal(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  return ws::prog::curand::OneOfPair(state, EXTRA_FLAG_LOG_NORMAL, [=](float n) {
    return ws::prog::curand::LogOf(n, mean, stddev);
  });
}
WS_PD inline float2 curand_log_normal2(curandStateXORWOW_t* state, float mean, float stddev) {
  const float2 v = ws::prog::curand::Pair(state);
  return {ws::prog::curand::LogOf(v.x, mean, stddev), ws::prog::curand::LogOf(v.y, mean, stddev)};
}
WS_PD inline float2 curand_log_normal2(curandStatePhilox4_32_10_t* state, float mean,
                                       float stddev) {
  const float2 v = ws::prog::curand::Pair(state);
  return {ws::prog::curand::LogOf(v.x, mean, stddev), ws::prog::curand::LogOf(v.y, mean, stddev)};
}
WS_PD inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean,
                                       float stddev) {
  const float4 v = curand_normal4(state);
  return {ws::prog::curand::LogOf(v.x, mean, stddev), ws::prog::curand::LogOf(v.y, mean, stddev),
          ws::prog::curand::LogOf(v.z, mean, stddev), ws::prog::curand::LogOf(v.w, mean, stddev)};
}

// Normal doubles: XORWOW's from four single outputs, Philox's from one curand4.
WS_PD inline double2 curand_normal2_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state);
  const unsigned int y0 = curand(state), y1 = curand(state);
  return _curand_box_muller_double(x0, x1, y0, y1);
}
WS_PD inline double2 curand_normal2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return _curand_box_muller_double(x.x, x.y, x.z, x.w);
}

namespace ws::prog::curand {
// OneOfPair's double: from curand_normal2_double's pair, kept in the state's double fields.
template <typename State, typename F>
WS_PD inline double OneOfPairDouble(State* state, int flag, F f) {
  if (state->boxmuller_flag_double != flag) {
    const double2 v = ::curand_normal2_double(state);
    state->boxmuller_extra_double = f(v.y);
    state->boxmuller_flag_double = flag;
    return f(v.x);
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}
}  // namespace ws::prog::curand

WS_PD inline double curand_normal_double(curandStateXORWOW_t* state) {
  return ws::prog::curand::OneOfPairDouble(state, EXTRA_FLAG_NORMAL, [](double n) { return n; });
}
WS_PD inline double curand_normal_double(curandStatePhilox4_32_10_t* state) {
  return ws::prog::curand::OneOfPairDouble(state, EXTRA_FLAG_NORMAL, [](double n) { return n; });
}
WS_PD inline double curand_log_normal_double(curandStateXORWOW_t* state, double mean,
                                             double stddev) {
  return ws::prog::curand::OneOfPairDouble(state, EXTRA_FLAG_LOG_NORMAL, [=](double n) {
    return ws::prog::curand::LogOf(n, mean, stddev);
  });
}
WS_PD inline double curand_log_normal_double(curandStatePhilox4_32_10_t* state, double mean,
                                             double stddev) {
  return ws::prog::curand::OneOfPairDouble(state, EXTRA_FLAG_LOG_NORMAL, [=](double n) {
    return ws::prog::curand::LogOf(n, mean, stddev);
  });
}
WS_PD inline double2 curand_log_normal2_double(curandStateXORWOW_t* state, double mean,
                                               double stddev) {
  const double2 v = curand_normal2_double(state);
  return {ws::prog::curand::LogOf(v.x, mean, stddev), ws::prog::curand::LogOf(v.y, mean, stddev)};
}
WS_PD inline double2 curand_log_normal2_double(curandStatePhilox4_32_10_t* state, double mean,
                                               double stddev) {
  const double2 v = curand_normal2_double(state);
  return {ws::prog::curand::LogOf(v.x, mean, stddev), ws::prog::curand::LogOf(v.y, mean, stddev)};
}
