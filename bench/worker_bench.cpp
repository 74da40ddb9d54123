// The slider loop as the app makes GPU runs: a run per slider step, alternating two values of a
// parameter (transpose tile 32 <-> 16 at its default 256x256, as bench/view_bench.sh moves it),
// each through a new `warpscope-cli capture` child (how the app ran them before the warm worker)
// and through the warm worker (RunLessonInWorker). Medians of REPS runs each, in one process.
//   ws_worker_bench [emu|cuda] [REPS]      (default: cuda when a GPU is there, else emu; 15)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/child_run.h"
#include "warpscope/kernels/devices.h"

namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = argc > 1 ? argv[1] : (ws::QueryDevices().gpus.empty() ? "emu" : "cuda");
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 15;
  ws::ChildRunRequest rq;
  rq.cli = WARPSCOPE_CLI;
  rq.lesson = "transpose";
  rq.variant = "coalesced";
  rq.backend = backend;
  std::printf(
      "slider loop: transpose coalesced 256x256, tile 32 <-> 16, backend %s, %d runs each\n",
      backend.c_str(), reps);
  for (const bool worker : {false, true}) {
    std::vector<double> ms;
    // One run first: the worker's process and CUDA context start there, as on the app's first run.
    for (int i = -1; i < reps; ++i) {
      rq.params = {{"tile", i % 2 == 0 ? 16 : 32}};
      const auto t0 = Clock::now();
      auto run = worker ? ws::RunLessonInWorker(rq) : ws::RunLessonInChild(rq);
      const double t = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      if (!run.ok()) {
        std::fprintf(stderr, "ws_worker_bench: %s\n", run.status().message().c_str());
        return 1;
      }
      if (i >= 0) ms.push_back(t);
    }
    std::printf(
        "%-44s median %8.1f ms  (min %.1f, max %.1f)\n",
        worker ? "warm worker (one process, one CUDA context):" : "new child process per run:",
        Median(ms), *std::min_element(ms.begin(), ms.end()),
        *std::max_element(ms.begin(), ms.end()));
  }
  return 0;
}
