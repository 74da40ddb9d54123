// constant: constant memory's broadcast against serialized reads (the memory-model slides).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/constant.cuh"

namespace ws::lessons::constant {

struct Figures {
  static constexpr const char* kKind = "constant";
  static constexpr int kVersion = 1;
  std::uint32_t serialized_reads_max = 0;  // distinct addresses in one warp request
  double serialized_reads_avg = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, serialized_reads_max, serialized_reads_avg)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "constant";
    l.title = "Constant memory: broadcast against serialized reads";
    l.order = 90;
    l.variants = {{"broadcast", "all threads of a warp read the same coefficient"},
                  {"serialized", "each lane reads a different coefficient"}};
    l.params = {{"threads", 256, 32, 1024, 32, "threads per block"},
                {"blocks", 8, 1, 65535, 1, "blocks in the grid"}};
    l.explanation =
        "Constant memory is cached and broadcast: when every thread of a warp reads the same "
        "address, one read serves them all, which is why the slides say it saves bandwidth. "
        "When the threads read different addresses, the reads are served one after another: "
        "the slides' 16 serialized reads for a half-warp, 32 for a modern warp. Compare the "
        "serialized reads per request of the two variants. On a GPU the table is real "
        "__constant__ memory, filled with cudaMemcpyToSymbol, so the timing plot shows the "
        "constant cache serializing (docs/constant-memory.md has an H100's times).";
    l.source_file = "constant.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks"); };
    l.front_panel = "coalescing";
    l.figures = {{"serialized_reads_max", "Serialized constant reads, worst request", "reads"},
                 {"serialized_reads_avg", "Serialized constant reads, average", "reads"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long threads = c.P("threads");
    const auto n = static_cast<std::size_t>(threads * c.P("blocks"));
    std::vector<float> values(64);
    for (int i = 0; i < 64; ++i)
      values[static_cast<std::size_t>(i)] = static_cast<float>(i) + 0.25f;
    Global<const float> k = b.template Upload<float>("coeffs", values);
    // cudaMemcpyToSymbol(coeffs, ...): on a GPU real __constant__ memory (ld.const).
    if (Status s = CopyToSymbol(b, coeffs, k); !s.ok()) return s;
    auto out = b.template Alloc<float>("out", n);
    const Dim3 grid = Grid1D(c.P("blocks")), block = Grid1D(threads);
    const bool broadcast = c.Is("broadcast");
    Status s = broadcast ? WS_LAUNCH(b, constantBroadcast, grid, block, 0, out)
                         : WS_LAUNCH(b, constantSerialized, grid, block, 0, out);
    if (!s.ok()) return s;
    std::vector<float> want(n);
    const auto per_block = static_cast<std::size_t>(threads);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = values[(broadcast ? i / per_block : i % per_block) % 64] * 2.0f;
    c.check = CompareAt(b.Download(out), want, "constant " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Figures f;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].space != MemorySpace::kConstant) continue;
      const SiteStats& st = t.stats.sites[i];
      f.serialized_reads_max = st.constant_addresses_max;
      f.serialized_reads_avg =
          st.requests ? static_cast<double>(st.constant_addresses_sum) / st.requests : 0.0;
    }
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::constant
