// The engine's speed: every lesson's declared bench cases (LessonInfo::bench_cases: transpose
// 1024x1024, matmul naive 256, the scalability model's default and largest grids, ...) through
// the emulator and the analyses, and the request models alone.
// Run: build/release/bench/ws_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <random>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/block_view.h"
#include "warpscope/trace/cache_model.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/request.h"
#include "warpscope/trace/what_if.h"

namespace {

void LessonOnEmulator(benchmark::State& state, const ws::LessonInfo* lesson,
                      const ws::BenchCase* c) {
  ws::RunOptions options;
  options.workers = static_cast<unsigned>(state.range(0));  // 0: one per core
  std::uint64_t records = 0, threads = 0;
  for (auto _ : state) {
    auto run = ws::RunLesson(lesson->id, c->variant, c->params, "emu", options);
    if (!run.ok() || !run->check.ok) {
      state.SkipWithError(run.ok() ? run->check.message.c_str() : run.status().message().c_str());
      return;
    }
    for (const ws::LaunchTrace& t : run->launches) {
      records += t.stats.access_records + t.stats.barrier_records;
      threads += t.threads();
    }
  }
  state.counters["records_per_s"] =
      benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["threads_per_s"] =
      benchmark::Counter(static_cast<double>(threads), benchmark::Counter::kIsRate);
}

// Registered by main(), one per declared case, all cores. Not at static initialization: the
// catalogue would be built before the embedded lesson sources it reads its sites' code from.
void RegisterLessonBenchmarks() {
  for (const ws::LessonInfo& l : ws::Lessons()) {
    for (const ws::BenchCase& c : l.bench_cases) {
      benchmark::RegisterBenchmark(("Lesson/" + l.id + "/" + c.name).c_str(), LessonOnEmulator, &l,
                                   &c)
          ->Arg(0)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

// One warp request through every global model (sectors, lines, compute 1.0 and 1.2).
void BM_GlobalRequestModels(benchmark::State& state) {
  std::vector<ws::LaneAccess> lanes;
  std::mt19937 rng(1);
  for (int i = 0; i < 32; ++i)
    lanes.push_back({static_cast<std::uint8_t>(i), 4, (rng() % 4096) * 4ull});
  for (auto _ : state) {
    benchmark::DoNotOptimize(ws::Sectors(lanes) + ws::Lines128(lanes) + ws::IdealSectors(lanes) +
                             ws::Cc10Transactions(lanes) +
                             ws::Cc12Transactions(lanes).transactions);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GlobalRequestModels);

void BM_SharedRequestModels(benchmark::State& state) {
  std::vector<ws::LaneAccess> lanes;
  for (int i = 0; i < 32; ++i) lanes.push_back({static_cast<std::uint8_t>(i), 4, i * 33ull * 4});
  for (auto _ : state)
    benchmark::DoNotOptimize(ws::BankConflictDegree(lanes) + ws::HalfWarp16Degree(lanes));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SharedRequestModels);

// The hazard analysis alone (it runs at the end of every launch): the kept blocks of a lesson's
// launch, run once. transpose coalesced 1024: 4 blocks of 1,024 threads with a barrier, no
// hazard; races transpose-no-sync 1024: the same without it (3,968 pairs a block);
// histogram-no-atomic, one block of 1,024 threads on 8 bins: 128 threads a bin, all racing.
void FindHazardsOf(benchmark::State& state, const char* lesson, const char* variant,
                   ws::Params params) {
  auto run = ws::RunLesson(lesson, variant, params, "emu", ws::RunOptions{});
  if (!run.ok()) {
    state.SkipWithError(run.status().message().c_str());
    return;
  }
  std::uint64_t pairs = 0;
  for (auto _ : state) pairs = ws::FindHazards(run->main_launch()).Total();
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["accesses"] = static_cast<double>(run->main_launch().hazards.shared_accesses +
                                                   run->main_launch().hazards.global_accesses);
}
BENCHMARK_CAPTURE(FindHazardsOf, transpose_coalesced_1024, "transpose", "coalesced",
                  ws::Params{{"width", 1024}, {"height", 1024}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FindHazardsOf, transpose_no_sync_1024, "races", "transpose-no-sync",
                  ws::Params{{"width", 1024}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FindHazardsOf, histogram_no_atomic_1024, "races", "histogram-no-atomic",
                  ws::Params{{"threads", 1024}})
    ->Unit(benchmark::kMillisecond);

// The cache model's replay of a texture-2d run's kept blocks (each run does it three times, once
// a layout): row-sums 1024 x 1024 is 4 blocks of 256 threads walking 1,024 steps, 32,768
// requests of 32 sectors; the blur 288 requests of about 5.
void ReplayCacheOf(benchmark::State& state, const char* lesson, ws::Params params,
                   std::uint64_t kb) {
  auto run = ws::RunLesson(lesson, "global", params, "emu", ws::RunOptions{});
  if (!run.ok()) {
    state.SkipWithError(run.status().message().c_str());
    return;
  }
  ws::CacheConfig cache;
  cache.bytes = kb * 1024;
  ws::CacheCounts counts;
  for (auto _ : state) counts = ws::ReplayLoads(run->main_launch(), cache);
  state.counters["lookups"] = static_cast<double>(counts.sectors);
  state.counters["hits"] = static_cast<double>(counts.hits);
}
BENCHMARK_CAPTURE(ReplayCacheOf, row_sums_1024_8kb, "texture-2d",
                  ws::Params{{"pattern", 2}, {"width", 1024}, {"height", 1024}}, 8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ReplayCacheOf, row_sums_1024_256kb, "texture-2d",
                  ws::Params{{"pattern", 2}, {"width", 1024}, {"height", 1024}}, 256)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ReplayCacheOf, blur_64, "texture-2d", ws::Params{{"pattern", 0}}, 8)
    ->Unit(benchmark::kMillisecond);

// A what-if after a slider move, as the app redraws it: the layout applied to the run's records
// (every block kept, as the app keeps them up to 262,144 threads) and the selected block's view
// built again. The target: 30 ms at the lessons' default sizes.
void WhatIfOf(benchmark::State& state, const char* lesson, const char* variant, const char* spec) {
  ws::RunOptions options;
  options.keep_all_threads_up_to = 1u << 18;
  auto run = ws::RunLesson(lesson, variant, {}, "emu", options);
  if (!run.ok()) {
    state.SkipWithError(run.status().message().c_str());
    return;
  }
  std::uint64_t requests = 0;
  for (auto _ : state) {
    auto w = ws::ApplyWhatIf(*run, std::string(spec));
    if (!w.ok()) {
      state.SkipWithError(w.status().message().c_str());
      return;
    }
    requests = ws::BuildBlockView(w->main_launch(), 0).requests.size();
  }
  state.counters["records"] = static_cast<double>(run->main_launch().stats.access_records);
  state.counters["block_requests"] = static_cast<double>(requests);
}
BENCHMARK_CAPTURE(WhatIfOf, transpose_swizzle, "transpose", "coalesced", "tile:swizzle=5,0,5")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(WhatIfOf, swizzle_pad, "swizzle", "as-written", "tile:pad=1")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(WhatIfOf, swizzle_float4, "swizzle", "float4-columns", "chunks:swizzle=3,0,3")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(WhatIfOf, matmul_vector, "matmul", "tiled", "Mds:vector=16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(WhatIfOf, texture_morton, "texture-2d", "global", "image:morton")
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  RegisterLessonBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
