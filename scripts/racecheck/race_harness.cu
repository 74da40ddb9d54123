// Runs the kernels of kernels/lessons/races/races.cuh on a real GPU, set up exactly as the races
// lesson (kernels/lessons/races/lesson.h) sets them up, and counts the output elements that differ
// from the CPU's answer. One JSON line per configuration on stdout.
//
//   race_harness VARIANT [--block-width W] [--tiles T] [--width N] [--threads N] [--blocks B]
//                        [--runs R]
//   race_harness sweep [--runs R]     every variant at its defaults, then block-transpose and
//                                     block-transpose-fixed for BLOCK_WIDTH 1..20 (R runs each,
//                                     default 10)
//
// VARIANT: block-transpose, block-transpose-fixed, transpose-no-sync, warp-exchange,
// reverse-no-sync. Defaults: BLOCK_WIDTH 4, tiles 2, width 64, threads 32 (warp-exchange),
// blocks 4, and 64 threads for reverse-no-sync (the lesson's own default there is its `threads`
// parameter, 32: pass --threads 32 for that). Built by scripts/racecheck/run.sh
// (nvcc -arch=sm_90 -lineinfo); exit status 2 on a CUDA error or bad arguments.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../../kernels/lessons/races/races.cuh"

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, \
                   __LINE__, cudaGetErrorString(err_));                                      \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

namespace {

struct Config {
  std::string variant;
  int block_width = 4;
  int tiles = 2;
  int width = 64;
  int threads = -1;  // -1: the variant's default (32 warp-exchange, 64 reverse-no-sync)
  int blocks = 4;
  int runs = 1;
};

std::vector<float> Ramp(std::size_t n) {  // the lesson's input (kernels/.../lesson.h Ramp)
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 1000003) + 0.5f;
  return v;
}

template <typename T>
std::size_t Wrong(const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < want.size(); ++i) n += !(got[i] == want[i]);
  return n;
}

// BLOCK_WIDTH is a template parameter: one instance per width, 1..20, as the lesson dispatches.
template <int W>
void LaunchTile(bool fixed, dim3 grid, float* a, int width, int height) {
  const dim3 block(W, W, 1);
  if (fixed)
    BlockTransposeFixed<W><<<grid, block>>>(a, width, height);
  else
    BlockTranspose<W><<<grid, block>>>(a, width, height);
}

template <int... Ws>
bool DispatchTile(int w, bool fixed, dim3 grid, float* a, int width, int height,
                  std::integer_sequence<int, Ws...>) {
  return ((w == Ws + 1 ? (LaunchTile<Ws + 1>(fixed, grid, a, width, height), true) : false) || ...);
}

// One run of the variant: fresh input, one launch, the wrong-element count. *elements gets the
// output size.
std::size_t RunOnce(const Config& c, std::size_t* elements) {
  if (c.variant == "block-transpose" || c.variant == "block-transpose-fixed") {
    const int w = c.block_width, side = w * c.tiles;
    const std::size_t n = static_cast<std::size_t>(side) * side;
    const std::vector<float> in = Ramp(n);
    float* a = nullptr;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMemcpy(a, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 grid(side / w, side / w, 1);
    if (!DispatchTile(w, c.variant == "block-transpose-fixed", grid, a, side, side,
                      std::make_integer_sequence<int, 20>{})) {
      std::fprintf(stderr, "BLOCK_WIDTH is 1 to 20\n");
      std::exit(2);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(n), want(n);
    CHECK(cudaMemcpy(got.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(a));
    for (int y = 0; y < side; ++y) {  // each tile transposed in place
      for (int x = 0; x < side; ++x) {
        const int tx = x / w * w, ty = y / w * w;
        want[static_cast<std::size_t>(y) * side + x] =
            in[static_cast<std::size_t>(ty + (x - tx)) * side + tx + (y - ty)];
      }
    }
    *elements = n;
    return Wrong(got, want);
  }
  if (c.variant == "transpose-no-sync") {
    const int side = c.width;
    const std::size_t n = static_cast<std::size_t>(side) * side;
    const std::vector<float> in = Ramp(n);
    float *idata = nullptr, *odata = nullptr;
    CHECK(cudaMalloc(&idata, n * sizeof(float)));
    CHECK(cudaMalloc(&odata, n * sizeof(float)));
    CHECK(cudaMemcpy(idata, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(odata, 0, n * sizeof(float)));
    transposeNoSync<32>
        <<<dim3(side / 32, side / 32, 1), dim3(32, 32, 1)>>>(odata, idata, side, side);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(n), want(n);
    CHECK(cudaMemcpy(got.data(), odata, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(idata));
    CHECK(cudaFree(odata));
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x)
        want[static_cast<std::size_t>(x) * side + y] = in[static_cast<std::size_t>(y) * side + x];
    *elements = n;
    return Wrong(got, want);
  }
  if (c.variant == "warp-exchange") {
    const int threads = c.threads, blocks = c.blocks;
    const std::size_t n = static_cast<std::size_t>(threads) * blocks;
    const std::vector<float> in = Ramp(n);
    float *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
    warpExchange<<<blocks, threads>>>(d_out, d_in);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(n), want(n);
    CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i % static_cast<std::size_t>(threads);
      want[i] = in[i - t + (t + 1) % static_cast<std::size_t>(threads)];
    }
    *elements = n;
    return Wrong(got, want);
  }
  if (c.variant == "reverse-no-sync") {
    const int n = c.threads;
    std::vector<int> a(n), want(n), got(n);
    for (int i = 0; i < n; ++i) {
      a[i] = i;
      want[i] = n - i - 1;
    }
    int* d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    reverseNoSync<<<1, n>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    *elements = static_cast<std::size_t>(n);
    return Wrong(got, want);
  }
  std::fprintf(stderr, "unknown variant %s\n", c.variant.c_str());
  std::exit(2);
}

Config WithDefaults(Config c) {
  if (c.threads < 0) c.threads = c.variant == "reverse-no-sync" ? 64 : 32;
  return c;
}

void Report(Config c) {
  c = WithDefaults(c);
  std::vector<std::size_t> wrong;
  std::size_t elements = 0;
  for (int r = 0; r < c.runs; ++r) wrong.push_back(RunOnce(c, &elements));
  std::vector<std::size_t> s = wrong;
  std::sort(s.begin(), s.end());
  const double median =
      s.size() % 2 ? double(s[s.size() / 2]) : (double(s[s.size() / 2 - 1]) + s[s.size() / 2]) / 2;
  std::string runs;
  for (std::size_t i = 0; i < wrong.size(); ++i) runs += (i ? "," : "") + std::to_string(wrong[i]);
  std::string params;
  if (c.variant == "block-transpose" || c.variant == "block-transpose-fixed")
    params = "\"block_width\":" + std::to_string(c.block_width) +
             ",\"tiles\":" + std::to_string(c.tiles);
  else if (c.variant == "transpose-no-sync")
    params = "\"width\":" + std::to_string(c.width);
  else if (c.variant == "warp-exchange")
    params = "\"threads\":" + std::to_string(c.threads) + ",\"blocks\":" + std::to_string(c.blocks);
  else
    params = "\"threads\":" + std::to_string(c.threads);
  std::printf(
      "{\"variant\":\"%s\",%s,\"elements\":%zu,\"runs\":%d,\"wrong\":[%s],\"min\":%zu,"
      "\"median\":%g,\"max\":%zu}\n",
      c.variant.c_str(), params.c_str(), elements, c.runs, runs.c_str(), s.front(), median,
      s.back());
  std::fflush(stdout);
}

int Usage() {
  std::fprintf(stderr,
               "usage: race_harness VARIANT|sweep [--block-width W] [--tiles T] [--width N] "
               "[--threads N] [--blocks B] [--runs R]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  Config c;
  c.variant = argv[1];
  const bool sweep = c.variant == "sweep";
  if (sweep) c.runs = 10;
  for (int i = 2; i < argc; ++i) {
    if (i + 1 >= argc) return Usage();
    const std::string k = argv[i];
    const int v = std::atoi(argv[++i]);
    if (k == "--block-width")
      c.block_width = v;
    else if (k == "--tiles")
      c.tiles = v;
    else if (k == "--width")
      c.width = v;
    else if (k == "--threads")
      c.threads = v;
    else if (k == "--blocks")
      c.blocks = v;
    else if (k == "--runs")
      c.runs = v;
    else
      return Usage();
  }
  if (c.runs < 1 || c.block_width < 1 || c.block_width > 20 || c.tiles < 1 || c.width < 32 ||
      c.width % 32 != 0 || c.threads > 1024 || c.blocks < 1)
    return Usage();
  if (c.threads != -1 && c.threads < 1) return Usage();
  if (!sweep) {
    Report(c);
    return 0;
  }
  const int runs = c.runs;
  auto at = [runs](const char* v) {
    Config d;
    d.variant = v;
    d.runs = runs;
    return d;
  };
  // Every variant at its defaults.
  for (const char* v : {"block-transpose", "block-transpose-fixed", "transpose-no-sync",
                        "warp-exchange", "reverse-no-sync"})
    Report(at(v));
  Config r32 = at("reverse-no-sync");  // the lesson's own default for reverse: threads = 32
  r32.threads = 32;
  Report(r32);
  // Every BLOCK_WIDTH, tiles 2, for the race and for the fix.
  for (const char* v : {"block-transpose", "block-transpose-fixed"}) {
    for (int w = 1; w <= 20; ++w) {
      Config d = at(v);
      d.block_width = w;
      Report(d);
    }
  }
  return 0;
}
