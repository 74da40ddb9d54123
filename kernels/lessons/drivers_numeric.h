// Driver of the fp-order lesson (see drivers.h): a parallel float sum against the sequential CPU
// sum and the exact sum.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "fp_order.cuh"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/fp_sum.h"

namespace ws::lessons {

// The data sets: 0 ramp (0.1, 0.2, ...), 1 mixed (signs and magnitudes from 1e-3 to 1e6, fixed
// seed), 2 cancel (the slides' 1e30, -1e30, 1, then zeros).
inline std::vector<float> FpOrderData(long long kind, std::size_t n) {
  std::vector<float> x(n, 0.0f);
  if (kind == 2) {
    const float v[3] = {1e30f, -1e30f, 1.0f};
    for (std::size_t i = 0; i < n && i < 3; ++i) x[i] = v[i];
    return x;
  }
  std::mt19937 rng(20261122);
  std::uniform_real_distribution<float> exponent(-3.0f, 6.0f), mantissa(1.0f, 10.0f);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind == 0) {
      x[i] = 0.1f * static_cast<float>(i % 1000 + 1);
    } else {
      const float sign = (rng() & 1u) != 0 ? -1.0f : 1.0f;
      x[i] = sign * mantissa(rng) * std::pow(10.0f, exponent(rng));
    }
  }
  return x;
}

template <typename B>
Status RunFpOrder(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                  nlohmann::json* metrics) {
  const std::size_t n = static_cast<std::size_t>(p.at("n"));
  const int block = 32 << p.at("block");  // the choices are 32, 64, ..., 1024
  const std::vector<float> x = FpOrderData(p.at("data"), n);
  const auto blocks = static_cast<std::uint32_t>((n + static_cast<std::size_t>(block) - 1) /
                                                 static_cast<std::size_t>(block));
  auto in = b.template Upload<float>("in", x);
  const Dim3 grid{blocks, 1, 1}, threads{static_cast<std::uint32_t>(block), 1, 1};
  const int ni = static_cast<int>(n);
  float gpu = 0;
  if (variant == "tree") {
    auto partial = b.template Alloc<float>("partial", blocks);
    Status s = WS_LAUNCH(b, blockSums, grid, threads, 1024 * sizeof(float), partial, in, ni);
    if (!s.ok()) return s;
    gpu = SequentialSum(b.Download(partial));  // the block sums, in block order
  } else {
    auto total = b.template Alloc<float>("total", 1);
    Status s = WS_LAUNCH(b, atomicSum, grid, threads, 1024 * sizeof(float), total, in, ni);
    if (!s.ok()) return s;
    gpu = b.Download(total)[0];
  }
  const float cpu = SequentialSum(x), tree = TreeSum(x, block);
  const double exact = ExactSum(x), bound = SummationErrorBound(x);
  nlohmann::json& m = *metrics;
  m["gpu_sum"] = gpu;
  m["cpu_sum"] = cpu;
  m["exact_sum"] = exact;
  m["tree_order_sum"] = tree;  // the kernel's order, reproduced on the host
  m["error_bound"] = bound;
  for (int bs = 32; bs <= 1024; bs *= 2)
    m["vary_block"].push_back({{"block", bs}, {"tree_sum", TreeSum(x, bs)}});
  // Tree: the same additions in the same order give the same float, bit for bit. Atomic: the
  // blocks' order is the hardware's, so only the error bound of any order applies.
  const bool same_order = gpu == tree;
  const bool within = std::fabs(static_cast<double>(gpu) - exact) <= bound;
  if (variant == "tree") {
    check->ok = same_order;
    check->message = same_order
                         ? "the kernel's sum equals the host's sum in the same order"
                         : "the kernel's sum " + std::to_string(gpu) +
                               " differs from the same order on the host, " + std::to_string(tree);
  } else {
    check->ok = within;
    check->message = within ? "the atomic sum is within the error bound of any order"
                            : "the atomic sum " + std::to_string(gpu) + " is further than " +
                                  std::to_string(bound) + " from the exact sum";
  }
  return {};
}

}  // namespace ws::lessons
