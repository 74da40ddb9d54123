// Host-side drivers of the lessons: make the inputs, launch the kernel on the backend, and check
// the output against a CPU golden result. Written once as templates over the backend and
// included by lessons_emu.cpp (host compiler) and cuda/lessons_cuda.cu (nvcc).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bank_stride.cuh"
#include "copy.cuh"
#include "fault.cuh"
#include "transpose.cuh"
#include "warpscope/kernels/lesson_api.h"

namespace ws::lessons {

inline std::vector<float> Ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 1000003) + 0.5f;
  return v;
}

template <typename T>
OutputCheck CompareAt(const std::vector<T>& got, const std::vector<T>& want,
                      const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(got[i] == want[i])) {
      return {false, what + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) +
                         ", expected " + std::to_string(want[i])};
    }
  }
  return {true, what + ": all " + std::to_string(want.size()) + " elements match the CPU result"};
}

// offset-copy and stride-copy ----------------------------------------------------------------
template <typename B>
Status RunCopy(B& b, const std::string& lesson, const Params& p, OutputCheck* check) {
  const long long threads = p.at("threads"), blocks = p.at("blocks");
  const long long n = threads * blocks;
  const bool offset_kind = lesson == "offset-copy";
  const long long k = offset_kind ? p.at("offset") : p.at("stride");
  const std::size_t size = static_cast<std::size_t>(offset_kind ? n + k : n * k);
  const std::vector<float> in = Ramp(size);
  auto idata = b.template Upload<float>("idata", in);
  auto odata = b.template Alloc<float>("odata", size);
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  const int arg = static_cast<int>(k);
  Status s = offset_kind ? WS_LAUNCH(b, offsetCopy, grid, block, 0, odata, idata, arg)
                         : WS_LAUNCH(b, strideCopy, grid, block, 0, odata, idata, arg);
  if (!s.ok()) return s;
  std::vector<float> want(size, 0.0f);
  for (long long i = 0; i < n; ++i) {
    const std::size_t x = static_cast<std::size_t>(offset_kind ? i + k : i * k);
    want[x] = in[x];
  }
  *check = CompareAt(b.Download(odata), want, lesson);
  return {};
}

// bank-stride --------------------------------------------------------------------------------
template <typename B>
Status RunBankStride(B& b, const std::string& variant, const Params& p, OutputCheck* check) {
  const long long threads = p.at("threads"), blocks = p.at("blocks"), stride = p.at("stride");
  const std::size_t n = static_cast<std::size_t>(threads * blocks);
  auto out = b.template Alloc<float>("out", n);
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  std::vector<float> want(n);
  Status s;
  if (variant == "stride") {
    const int st = static_cast<int>(stride);
    s = WS_LAUNCH(b, bankStride, grid, block, kWords * 4, out, st);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = static_cast<float>((i % threads) * stride % kWords);
  } else if (variant == "permutation") {
    std::vector<int> perm(32);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<unsigned>(stride)));
    Global<const int> perm_d = b.template Upload<int>("perm", perm);
    s = WS_LAUNCH(b, bankPermutation, grid, block, kWords * 4, out, perm_d);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i % threads;
      want[i] = static_cast<float>((t / 32 * 32 + perm[t % 32]) % kWords);
    }
  } else {
    const int word = static_cast<int>(stride);
    s = WS_LAUNCH(b, bankBroadcast, grid, block, kWords * 4, out, word);
    for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<float>(word % kWords);
  }
  if (!s.ok()) return s;
  *check = CompareAt(b.Download(out), want, "bank-stride " + variant);
  return {};
}

// transpose ----------------------------------------------------------------------------------
template <int TILE, typename B>
Status LaunchTranspose(B& b, const std::string& variant, Dim3 grid, Dim3 block, Global<float> odata,
                       Global<const float> idata, int width, int height) {
  Status s;
  if (variant == "naive") {
    s = WS_LAUNCH(b, transposeNaive<TILE>, grid, block, 0, odata, idata, width, height);
  } else if (variant == "coalesced") {
    s = WS_LAUNCH(b, transposeCoalesced<TILE>, grid, block, TILE * TILE * 4, odata, idata, width,
                  height);
  } else {
    s = WS_LAUNCH(b, transposePadded<TILE>, grid, block, TILE * (TILE + 1) * 4, odata, idata, width,
                  height);
  }
  if (s.ok()) {  // name the instance the student picked: transposeNaive<32>, not <TILE>
    std::string& name = b.launches().back().kernel;
    name = name.substr(0, name.find('<')) + "<" + std::to_string(TILE) + ">";
  }
  return s;
}

template <typename B>
Status RunTranspose(B& b, const std::string& variant, const Params& p, OutputCheck* check) {
  const long long tile = p.at("tile"), width = p.at("width"), height = p.at("height");
  if (tile != 8 && tile != 16 && tile != 32) {
    return Status::Error("tile = " + std::to_string(tile) +
                         " is not allowed: tile must be 8, 16 or 32");
  }
  if (width % tile != 0 || height % tile != 0) {
    return Status::Error("width " + std::to_string(width) + " and height " +
                         std::to_string(height) + " must be multiples of tile " +
                         std::to_string(tile));
  }
  const std::size_t n = static_cast<std::size_t>(width * height);
  const std::vector<float> in = Ramp(n);
  auto idata = b.template Upload<float>("idata", in);
  auto odata = b.template Alloc<float>("odata", n);
  const Dim3 grid{static_cast<std::uint32_t>(width / tile),
                  static_cast<std::uint32_t>(height / tile), 1};
  const Dim3 block{static_cast<std::uint32_t>(tile), static_cast<std::uint32_t>(tile), 1};
  const int w = static_cast<int>(width), h = static_cast<int>(height);
  Status s = tile == 8    ? LaunchTranspose<8>(b, variant, grid, block, odata, idata, w, h)
             : tile == 16 ? LaunchTranspose<16>(b, variant, grid, block, odata, idata, w, h)
                          : LaunchTranspose<32>(b, variant, grid, block, odata, idata, w, h);
  if (!s.ok()) return s;
  std::vector<float> want(n);
  for (long long y = 0; y < height; ++y) {
    for (long long x = 0; x < width; ++x)
      want[static_cast<std::size_t>(x * height + y)] = in[static_cast<std::size_t>(y * width + x)];
  }
  *check = CompareAt(b.Download(odata), want, "transpose " + variant);
  return {};
}

}  // namespace ws::lessons

#include "drivers_execution.h"
#include "drivers_memory.h"
#include "drivers_numeric.h"
#include "drivers_scheduling.h"

namespace ws::lessons {

// The entry point each backend instantiates.
// fault (hidden) -----------------------------------------------------------------------------
template <typename B>
Status RunFault(B& b, const Params& p, OutputCheck* check) {
  auto out = b.template Alloc<float>("out", 32);
  const int distance = static_cast<int>(p.at("distance"));
  Status s = WS_LAUNCH(b, writePastTheEnd, (Dim3{1, 1, 1}), (Dim3{32, 1, 1}), 0, out, distance);
  if (!s.ok()) return s;
  *check = {false, "the kernel wrote " + std::to_string(distance) +
                       " floats past its array and did not fault"};
  return {};
}

template <typename B>
Status RunLessonOn(B& b, const std::string& lesson, const std::string& variant, const Params& p,
                   OutputCheck* check, nlohmann::json* metrics) {
  if (lesson == "offset-copy" || lesson == "stride-copy") return RunCopy(b, lesson, p, check);
  if (lesson == "bank-stride") return RunBankStride(b, variant, p, check);
  if (lesson == "transpose") return RunTranspose(b, variant, p, check);
  if (lesson == "vecadd") return RunVecAdd(b, variant, p, check, metrics);
  if (lesson == "picture") return RunPicture(b, p, check, metrics);
  if (lesson == "barrier") return RunBarrier(b, variant, p, check, metrics);
  if (lesson == "divergence") return RunDivergence(b, variant, p, check, metrics);
  if (lesson == "matmul") return RunMatmul(b, variant, p, check, metrics);
  if (lesson == "constant") return RunConstant(b, variant, p, check, metrics);
  if (lesson == "atomics") return RunAtomics(b, p, check, metrics);
  if (lesson == "reverse") return RunReverse(b, variant, p, check, metrics);
  if (lesson == "texture-2d") return RunTexture2D(b, variant, p, check, metrics);
  if (lesson == "fault") return RunFault(b, p, check);
  if (lesson == "fp-order") return RunFpOrder(b, variant, p, check, metrics);
  if (lesson == "scalability") return RunScalability(b, p, check, metrics);
  return Status::Error("no driver for lesson '" + lesson + "'");
}

}  // namespace ws::lessons
