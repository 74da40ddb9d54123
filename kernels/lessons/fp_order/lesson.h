// fp-order: a parallel float sum against the sequential CPU sum and the exact sum.
#pragma once

#include <cmath>
#include <random>

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/fp_order.cuh"  // fp_order.cuh, in the recording API
#include "warpscope/trace/fp_sum.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws::lessons::fp_order {

// The data sets: 0 ramp (0.1, 0.2, ...), 1 mixed (signs and magnitudes from 1e-3 to 1e6, fixed
// seed), 2 cancel (the slides' 1e30, -1e30, 1, then zeros).
inline std::vector<float> Data(long long kind, std::size_t n) {
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

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "fp-order";
    l.title = "Floating-point sums depend on the order";
    l.order = 150;
    l.variants = {{"tree", "block sums added pairwise in shared memory, then in block order"},
                  {"atomic", "block sums added with atomicAdd as the blocks finish"}};
    l.params = {
        {"n", 65536, 3, 1 << 22, 1, "floats to add"},
        {"block", 3, 0, 5, 1, "threads per block", {"32", "64", "128", "256", "512", "1024"}},
        {"data", 1, 0, 2, 1, "the numbers", {"ramp", "mixed", "cancel"}}};
    l.explanation =
        "Float addition is not associative: (1e30 + -1e30) + 1 is 1, but 1e30 + (-1e30 + 1) is "
        "0, because -1e30 + 1 rounds back to -1e30 (the slides' example: data = cancel). A "
        "parallel sum adds in another order than the CPU loop, so its float result differs, "
        "and a different block size is a different order again. Compare the kernel's sum with "
        "the CPU's sequential sum and the exact sum of the same floats; with atomicAdd the "
        "blocks add in the order they finish, which on a GPU can change from run to run. "
        "Neither order is wrong: both are within the error bound of float summation.";
    l.source_file = "fp_order.cuh";
    l.front_panel = "sums";
    l.read_figures = &ReadFigures<FpSumFigures>;
    l.emulator_cost = [](const Params& p) { return At(p, "n"); };
    l.figures = {{"exact_sum", "Exact sum", "", 1, 9},
                 {"cpu_sum", "CPU sum, in order (float)", "", 1, 9},
                 {"gpu_sum", "GPU sum (float)", "", 1, 9},
                 {"tree_order_sum", "Tree-order sum (float)", "", 1, 9},
                 {"error_bound", "Error bound", "", 1, 9}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const auto n = static_cast<std::size_t>(c.P("n"));
    const int block = 32 << c.P("block");  // the choices are 32, 64, ..., 1024
    const std::vector<float> x = Data(c.P("data"), n);
    const auto blocks = static_cast<std::uint32_t>((n + static_cast<std::size_t>(block) - 1) /
                                                   static_cast<std::size_t>(block));
    auto in = b.template Upload<float>("in", x);
    const Dim3 grid{blocks, 1, 1}, threads = Grid1D(block);
    const int ni = static_cast<int>(n);
    const bool tree = c.Is("tree");
    float gpu = 0;
    if (tree) {
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
    FpSumFigures f;
    f.block = block;
    f.gpu_sum = gpu;
    f.cpu_sum = SequentialSum(x);
    f.tree_order_sum = TreeSum(x, block);
    f.exact_sum = ExactSum(x);
    f.error_bound = SummationErrorBound(x);
    for (int bs = 32; bs <= 1024; bs *= 2) f.vary_block.push_back({bs, TreeSum(x, bs)});
    // Tree: the same additions in the same order give the same float, bit for bit. Atomic: the
    // blocks' order is the hardware's, so only the error bound of any order applies.
    const bool same_order = gpu == f.tree_order_sum;
    const bool within = std::fabs(static_cast<double>(gpu) - f.exact_sum) <= f.error_bound;
    if (tree) {
      c.check.ok = same_order;
      c.check.message = same_order ? "the kernel's sum equals the host's sum in the same order"
                                   : "the kernel's sum " + std::to_string(gpu) +
                                         " differs from the same order on the host, " +
                                         std::to_string(f.tree_order_sum);
    } else {
      c.check.ok = within;
      c.check.message = within ? "the atomic sum is within the error bound of any order"
                               : "the atomic sum " + std::to_string(gpu) + " is further than " +
                                     std::to_string(f.error_bound) + " from the exact sum";
    }
    c.SetFigures(std::move(f));
    return {};
  }
};

}  // namespace ws::lessons::fp_order
