// Float sums in the orders the fp-order lesson compares: one thread after another (the CPU loop),
// the GPU kernel's order (pairwise within each block, then the block sums in block order), and
// the exact sum of the same floats (Shewchuk's partials, added into a double at the end).
#pragma once

#include <span>
#include <vector>

namespace ws {

float SequentialSum(std::span<const float> x);
// Block b's sum: its `block` elements (zeros past the end), added as the kernel does, stride
// block/2, block/4, ..., 1. `block` must be a power of two.
std::vector<float> BlockSums(std::span<const float> x, int block);
// The block sums added in block order, starting from 0.
float TreeSum(std::span<const float> x, int block);
// The exact sum, rounded to double (the partials are exact; only their final addition rounds).
double ExactSum(std::span<const float> x);
// A bound on any float summation order's error: (n - 1) x 2^-24 x sum |x_i|.
double SummationErrorBound(std::span<const float> x);

}  // namespace ws
