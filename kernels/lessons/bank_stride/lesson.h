// bank-stride: shared-memory banks under a stride, a permutation and a broadcast.
#pragma once

#include <random>

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/bank_stride.cuh"  // bank_stride.cuh, in the recording API

namespace ws::lessons::bank_stride {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "bank-stride";
    l.title = "Shared-memory banks: stride, permutation, broadcast";
    l.order = 30;
    l.variants = {{"stride", "thread t reads shared word t * stride"},
                  {"permutation", "each warp reads its 32 words in a random 1:1 order"},
                  {"broadcast", "every thread reads the same word (`stride` picks which)"}};
    l.params = {
        {"stride", 2, 0, 64, 1, "words between consecutive threads (broadcast: the word read)"},
        {"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"},
        {"blocks", 4, 1, 65535, 1, "blocks in the grid (gridDim.x)"}};
    l.explanation =
        "Shared memory has 32 banks, each serving one 4-byte word per cycle; word w lives in "
        "bank w mod 32. With stride 1 or a 1:1 permutation every thread of a warp hits a "
        "different bank: no conflict. Stride 2 puts two different words in each even bank "
        "(2-way), stride 8 eight (8-way), as in the slides' bank addressing examples; any "
        "odd stride is conflict free. When all threads read one word it is broadcast: no "
        "conflict either. The slides count per half-warp over 16 banks (compute 1.x); the "
        "bank view shows both models.";
    l.source_file = "bank_stride.cuh";
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks") * 4; };
    l.front_panel = "banks";
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long threads = c.P("threads"), stride = c.P("stride");
    const auto n = static_cast<std::size_t>(threads * c.P("blocks"));
    auto out = b.template Alloc<float>("out", n);
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(threads);
    std::vector<float> want(n);
    Status s;
    if (c.Is("stride")) {
      const int st = static_cast<int>(stride);
      s = WS_LAUNCH(b, bankStride, grid, block, kWords * 4, out, st);
      for (std::size_t i = 0; i < n; ++i)
        want[i] = static_cast<float>((i % threads) * stride % kWords);
    } else if (c.Is("permutation")) {
      std::vector<int> perm(32);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), std::mt19937(static_cast<unsigned>(stride)));
      Global<const int> perm_d = b.template Upload<int>("perm", perm);
      s = WS_LAUNCH(b, bankPermutation, grid, block, kWords * 4, out, perm_d);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t t = i % threads;
        want[i] = static_cast<float>((t / 32 * 32 + perm[t % 32]) % kWords);
      }
    } else {  // broadcast
      const int word = static_cast<int>(stride);
      s = WS_LAUNCH(b, bankBroadcast, grid, block, kWords * 4, out, word);
      for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<float>(word % kWords);
    }
    if (!s.ok()) return s;
    c.check = CompareAt(b.Download(out), want, "bank-stride " + c.variant);
    return {};
  }
};

}  // namespace ws::lessons::bank_stride
