// The engine's speed. Target (engine issue): the emulator plus analyses run transpose 1024x1024
// with tile 32 (1M threads, 2M global and 2M shared accesses, 1M barrier arrivals) in at most
// 1 s on a 2-core machine. Run: build/release/bench/ws_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <random>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/request.h"

namespace {

void TransposeOnEmulator(benchmark::State& state, const char* variant) {
  ws::RunOptions options;
  options.workers = static_cast<unsigned>(state.range(0));  // 0: one per core
  const ws::Params params = {{"width", 1024}, {"height", 1024}, {"tile", 32}};
  std::uint64_t records = 0;
  for (auto _ : state) {
    auto run = ws::RunLesson("transpose", variant, params, "emu", options);
    if (!run.ok() || !run->check.ok) {
      state.SkipWithError("the lesson failed");
      return;
    }
    records += run->main_launch().stats.access_records + run->main_launch().stats.barrier_records;
  }
  state.counters["records_per_s"] =
      benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["bytes_per_record"] = sizeof(ws::AccessRecord);
}

void BM_TransposeCoalesced1024(benchmark::State& s) {
  TransposeOnEmulator(s, "coalesced");
}
void BM_TransposeNaive1024(benchmark::State& s) {
  TransposeOnEmulator(s, "naive");
}
BENCHMARK(BM_TransposeCoalesced1024)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposeNaive1024)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// The scalability lesson on the emulator: the block-scheduler model runs the blocks one after
// another on one worker (each placement waits for the block before it). No target in issue 7;
// the lesson's default (12 blocks) and its largest grid (4096 blocks of 1024 threads, 4M
// threads) bound what a slider drag costs.
void BM_ScalabilityModel(benchmark::State& state) {
  const ws::Params params = {{"blocks", state.range(0)},
                             {"threads", state.range(1)},
                             {"device", 6}};  // cc9.0: 2048 threads per SM
  for (auto _ : state) {
    auto run = ws::RunLesson("scalability", "", params, "emu", ws::RunOptions{});
    if (!run.ok() || !run->check.ok) {
      state.SkipWithError("the lesson failed");
      return;
    }
  }
  state.counters["threads_per_s"] =
      benchmark::Counter(static_cast<double>(state.range(0) * state.range(1)) *
                             static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ScalabilityModel)
    ->Args({12, 256})
    ->Args({4096, 1024})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

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

}  // namespace

BENCHMARK_MAIN();
