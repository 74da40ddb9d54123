// reduce: a parallel reduction's shared-memory tree, three ways (Harris, "Optimizing Parallel
// Reduction in CUDA").
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/reduce.cuh"  // reduce.cuh, in the recording API

namespace ws::lessons::reduce {

struct Figures {
  static constexpr const char* kKind = "reduce";
  static constexpr int kVersion = 2;  // 2: warp_shuffles_per_block
  // Per block (every block does the same): the warp requests of the tree's additions (their
  // stores), those of them with lanes switched off, and the active lanes per request.
  double add_requests_per_block = 0;
  double divergent_requests_per_block = 0;
  double lanes_per_request = 0;            // 32: whole warps
  std::uint32_t bank_conflict_max = 0;     // the worst shared access of the tree (n-way)
  double shared_wavefronts_per_block = 0;  // shared-memory passes, loads and stores
  double warp_shuffles_per_block = 0;      // warp meetings at __shfl_down_sync (shuffle)
};
// Version 1 figures have no warp_shuffles_per_block: it reads as 0.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Figures, add_requests_per_block,
                                                divergent_requests_per_block, lanes_per_request,
                                                bank_conflict_max, shared_wavefronts_per_block,
                                                warp_shuffles_per_block)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "reduce";
    l.title = "Parallel reduction: divergence, bank conflicts, idle threads";
    l.order = 155;
    l.variants = {
        {"divergent", "interleaved addressing, if (tid % (2*s) == 0): every warp diverges"},
        {"strided", "interleaved addressing, index = 2*s*tid: whole warps, but bank conflicts"},
        {"sequential", "sequential addressing, if (tid < s): conflict free, half the threads idle"},
        {"shuffle", "sequential down to 64 sums, then the first warp adds with __shfl_down_sync"}};
    l.params = {
        {"block", 3, 0, 5, 1, "threads per block", {"32", "64", "128", "256", "512", "1024"}},
        {"blocks", 64, 1, 65535, 1, "blocks in the grid: each sums blockDim.x elements"}};
    l.explanation =
        "Each block adds its elements in shared memory in a tree: log2(blockDim.x) steps, each "
        "halving the threads that add, with a __syncthreads() between steps. The three kernels "
        "are the first three of Harris's reduction slides and add the same numbers in the same "
        "tree. Divergent: the threads whose index is a multiple of 2s add, so every warp mixes "
        "working and idle lanes; with 256 threads a block makes 47 addition requests, every one "
        "divergent. Strided: the first threads add, at index 2 s tid, so warps are whole (12 "
        "requests, 5 divergent), but the lanes pile onto a few banks, up to 8-way, and the "
        "conflicts serialize those 12 requests into 47 passes again: 150 shared-memory "
        "wavefronts per block, as many as the divergent kernel. Sequential: thread tid adds "
        "word tid + s, conflict free, 12 requests and 45 wavefronts; what is left slow is that "
        "half the threads never add and the last five steps run in one divergent warp (the "
        "slides' next kernels add during the load and unroll the last warp). Shuffle: the tree "
        "stops "
        "at 64 sums and the first warp finishes in registers with five __shfl_down_sync steps "
        "(open the Warp shuffles view and step the playback): with 256 threads 6 addition "
        "requests, none divergent, 28 wavefronts and 5 warp meetings per block. The slides unroll "
        "the last warp over volatile "
        "shared memory, trusting its lanes to run in lockstep; since Volta they need not, and "
        "the shuffle is the safe way.";
    l.source_file = "reduce.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.bench_cases = {{"divergent-4096x256", "divergent", {{"blocks", 4096}}},
                     {"sequential-4096x256", "sequential", {{"blocks", 4096}}}};
    l.emulator_cost = [](const Params& p) {
      return static_cast<double>(32LL << p.at("block")) * At(p, "blocks");
    };
    l.front_panel = "banks";
    l.figures = {
        {"add_requests_per_block", "Add requests per block", "requests"},
        {"divergent_requests_per_block", "Of them with idle lanes", "requests"},
        {"lanes_per_request", "Active lanes per request", "lanes"},
        {"bank_conflict_max", "Worst bank conflict", "-way"},
        {"shared_wavefronts_per_block", "Shared-memory wavefronts per block", "wavefronts"},
        {"warp_shuffles_per_block", "Warp shuffles per block", "shuffles"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long threads = 32LL << c.P("block");  // the choices are 32, 64, ..., 1024
    const long long blocks = c.P("blocks");
    const auto n = static_cast<std::size_t>(threads * blocks);
    // Whole numbers: every partial sum is exact in float, whatever the order.
    std::vector<float> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
    auto g_idata = b.template Upload<float>("g_idata", in);
    auto g_odata = b.template Alloc<float>("g_odata", static_cast<std::size_t>(blocks));
    const Dim3 grid = Grid1D(blocks), block = Grid1D(threads);
    const std::uint32_t shared = 1024 * sizeof(float);
    Status s =
        c.Is("divergent") ? WS_LAUNCH(b, reduceDivergent, grid, block, shared, g_odata, g_idata)
        : c.Is("strided") ? WS_LAUNCH(b, reduceStrided, grid, block, shared, g_odata, g_idata)
        : c.Is("shuffle") ? WS_LAUNCH(b, reduceShuffle, grid, block, shared, g_odata, g_idata)
                          : WS_LAUNCH(b, reduceSequential, grid, block, shared, g_odata, g_idata);
    if (!s.ok()) return s;
    std::vector<float> want(static_cast<std::size_t>(blocks), 0.0f);
    for (std::size_t i = 0; i < n; ++i) want[i / static_cast<std::size_t>(threads)] += in[i];
    c.check = CompareAt(b.Download(g_odata), want, "reduce " + c.variant);

    // The tree's additions are the shared stores after the first (sdata[tid] = g_idata[i]).
    const LaunchTrace& t = b.launches().back();
    Figures f;
    std::uint64_t requests = 0, divergent = 0, lanes = 0, wavefronts = 0;
    bool first_store = true;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& site = t.sites[i];
      const SiteStats& st = t.stats.sites[i];
      if (site.space != MemorySpace::kShared) continue;
      f.bank_conflict_max = std::max(f.bank_conflict_max, st.bank_conflict_max);
      wavefronts += st.wavefronts;
      if (site.op != AccessOp::kStore) continue;
      if (first_store) {  // sites are sorted by line: the load into shared memory comes first
        first_store = false;
        continue;
      }
      requests += st.requests;
      divergent += st.divergent_requests;
      lanes += st.accesses;
    }
    const auto per_block = [&](std::uint64_t v) {
      return static_cast<double>(v) / static_cast<double>(blocks);
    };
    f.add_requests_per_block = per_block(requests);
    f.divergent_requests_per_block = per_block(divergent);
    f.shared_wavefronts_per_block = per_block(wavefronts);
    f.lanes_per_request = requests ? static_cast<double>(lanes) / static_cast<double>(requests) : 0;
    std::uint64_t shuffles = 0;
    for (std::uint64_t meetings : t.warp_op_counts) shuffles += meetings;
    f.warp_shuffles_per_block = per_block(shuffles);
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::reduce
