// XORWOW's skip-ahead for the emulator's cuRAND device API (shim/curand_kernel.h): a step of the
// generator's five words is linear over GF(2), a 160 x 160 bit matrix T, so n steps are T^n,
// applied as the product of the powers T^(2^k) for the bits of n. The powers are made once, by
// squaring, for k up to 63 + 67 (an offset's bits, and a subsequence's, whose steps are 2^67 each).
#include <array>
#include <cstdint>

namespace ws::prog::curand {
namespace {

constexpr unsigned kBits = 160, kWords = 5;
constexpr unsigned kPowers = 64 + 67;

using Vec = std::array<std::uint32_t, kWords>;
// A matrix by its columns: column j is the image of the state whose only set bit is j (bit b of
// word w is bit 32 w + b).
using Matrix = std::array<Vec, kBits>;

// One step of the generator's words (the Weyl sequence apart: it is not linear in them).
Vec Step(const Vec& v) {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  return {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
}

Vec Apply(const Matrix& m, const Vec& v) {
  Vec r{};
  for (unsigned w = 0; w < kWords; ++w) {
    for (std::uint32_t bits = v[w]; bits != 0; bits &= bits - 1) {
      const Vec& c = m[32 * w + static_cast<unsigned>(__builtin_ctz(bits))];
      for (unsigned i = 0; i < kWords; ++i) r[i] ^= c[i];
    }
  }
  return r;
}

// T^(2^k) for k < kPowers.
const std::array<Matrix, kPowers>& Powers() {
  static const auto* powers = [] {
    auto* p = new std::array<Matrix, kPowers>;
    for (unsigned j = 0; j < kBits; ++j) {
      Vec e{};
      e[j / 32] = 1u << (j % 32);
      (*p)[0][j] = Step(e);
    }
    for (unsigned k = 1; k < kPowers; ++k) {
      for (unsigned j = 0; j < kBits; ++j) (*p)[k][j] = Apply((*p)[k - 1], (*p)[k - 1][j]);
    }
    return p;
  }();
  return *powers;
}

}  // namespace

void XorwowSkip(unsigned int v[5], unsigned long long n, unsigned int shift) {
  if (n == 0) return;
  const auto& powers = Powers();
  Vec s = {v[0], v[1], v[2], v[3], v[4]};
  for (unsigned bit = 0; n != 0; ++bit, n >>= 1) {
    if ((n & 1) != 0 && bit + shift < kPowers) s = Apply(powers[bit + shift], s);
  }
  for (unsigned i = 0; i < kWords; ++i) v[i] = s[i];
}

}  // namespace ws::prog::curand
