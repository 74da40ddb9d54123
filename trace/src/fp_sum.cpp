#include "warpscope/trace/fp_sum.h"

#include <cmath>

namespace ws {

float SequentialSum(std::span<const float> x) {
  float s = 0.0f;
  for (float v : x) s += v;
  return s;
}

std::vector<float> BlockSums(std::span<const float> x, int block) {
  const std::size_t b = static_cast<std::size_t>(block);
  std::vector<float> sums;
  std::vector<float> s(b);
  for (std::size_t start = 0; start < x.size(); start += b) {
    for (std::size_t t = 0; t < b; ++t) s[t] = start + t < x.size() ? x[start + t] : 0.0f;
    for (std::size_t stride = b / 2; stride > 0; stride /= 2) {
      for (std::size_t t = 0; t < stride; ++t) s[t] = s[t] + s[t + stride];
    }
    sums.push_back(s[0]);
  }
  return sums;
}

float TreeSum(std::span<const float> x, int block) {
  const std::vector<float> sums = BlockSums(x, block);
  return SequentialSum(sums);
}

// Shewchuk's exact summation: keeps non-overlapping partials whose sum is exactly the sum so far
// (every float is exact in double, and each two-sum step is error-free).
double ExactSum(std::span<const float> x) {
  std::vector<double> partials;
  for (float f : x) {
    double v = f;
    std::size_t kept = 0;
    for (double p : partials) {
      if (std::fabs(v) < std::fabs(p)) std::swap(v, p);
      const double hi = v + p;
      const double lo = p - (hi - v);
      if (lo != 0.0) partials[kept++] = lo;
      v = hi;
    }
    partials.resize(kept);
    partials.push_back(v);
  }
  double total = 0.0;
  for (auto it = partials.rbegin(); it != partials.rend(); ++it) total += *it;
  return total;
}

double SummationErrorBound(std::span<const float> x) {
  double abs_sum = 0.0;
  for (float v : x) abs_sum += std::fabs(static_cast<double>(v));
  const double n = static_cast<double>(x.size());
  return (n > 1 ? n - 1 : 0) * std::ldexp(1.0, -24) * abs_sum;
}

}  // namespace ws
