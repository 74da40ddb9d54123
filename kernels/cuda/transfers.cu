// The transfers lesson on a GPU (the code the student reads is lessons/transfers.cuh): copy
// bandwidth against size, pageable against pinned, both directions; then the copy-in / kernel /
// copy-back pipeline on one stream and on several, every step timed with CUDA events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lessons/transfers.cuh"
#include "src/lesson_entry_points.h"
#include "warpscope/kernels/transfers.h"

namespace ws {
namespace {

Status Cuda(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return {};
  return Status::Error(what + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                       ")");
}

// Pinned host memory (cudaMallocHost) and device memory, freed on every path.
struct Buffers {
  void* pinned = nullptr;
  void* device = nullptr;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> events;
  ~Buffers() {
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    for (cudaStream_t s : streams) cudaStreamDestroy(s);
    if (pinned != nullptr) cudaFreeHost(pinned);
    if (device != nullptr) cudaFree(device);
  }
};

double Gbps(std::size_t bytes, float ms) {
  return ms > 0 ? static_cast<double>(bytes) / (static_cast<double>(ms) * 1e6) : 0.0;
}

// The median of `reps` timed copies (after one untimed copy of the same size); `ev` holds the
// two events timedCopy records.
Status MedianCopy(const cudaEvent_t* ev, void* dst, const void* src, std::size_t bytes,
                  cudaMemcpyKind kind, int reps, float* ms) {
  float t = 0;
  if (Status s = Cuda(timedCopy(dst, src, bytes, kind, ev[0], ev[1], &t), "cudaMemcpy (warm-up)");
      !s.ok())
    return s;
  std::vector<float> v;
  for (int i = 0; i < reps; ++i) {
    if (Status s = Cuda(timedCopy(dst, src, bytes, kind, ev[0], ev[1], &t), "cudaMemcpy"); !s.ok())
      return s;
    v.push_back(t);
  }
  std::sort(v.begin(), v.end());
  *ms = v[v.size() / 2];
  return {};
}

float HostRounds(float v, int rounds) {
  for (int r = 0; r < rounds; ++r) v = std::fmaf(v, 0.999f, 0.001f);
  return v;
}

float Initial(std::size_t i) {
  return static_cast<float>(i % 1000) * 0.001f;
}

}  // namespace

Status RunTransfersCuda(const std::string& variant, const Params& p, const RunOptions& options,
                        LessonRun* run) {
  if (Status s =
          Cuda(cudaSetDevice(options.gpu), "cudaSetDevice(" + std::to_string(options.gpu) + ")");
      !s.ok())
    return s;
  cudaDeviceProp prop{};
  if (Status s = Cuda(cudaGetDeviceProperties(&prop, options.gpu), "cudaGetDeviceProperties");
      !s.ok())
    return s;
  const std::vector<std::size_t>& sizes = TransferSweepBytes();
  const std::size_t chosen = TransferSizeBytes(p.at("size"));
  const std::size_t largest = std::max(sizes.back(), chosen);
  Buffers b;
  if (Status s = Cuda(cudaMallocHost(&b.pinned, largest), "cudaMallocHost"); !s.ok()) return s;
  if (Status s = Cuda(cudaMalloc(&b.device, largest), "cudaMalloc"); !s.ok()) return s;
  std::vector<unsigned char> pageable(largest, 1);  // malloc'd and touched: pageable memory
  std::fill_n(static_cast<unsigned char*>(b.pinned), largest, 1);
  const int chunks = static_cast<int>(p.at("chunks")), nstreams = static_cast<int>(p.at("streams"));
  // Four events per chunk for the pipeline; the first two also time the copies.
  b.events.resize(static_cast<std::size_t>(4 * std::max(chunks, 1)));
  for (cudaEvent_t& e : b.events) {
    if (Status st = Cuda(cudaEventCreate(&e), "cudaEventCreate"); !st.ok()) return st;
  }
  const bool pinned = variant == "pinned";

  // 1. Bandwidth against size: host to device and back, pageable and pinned.
  nlohmann::json& m = run->metrics;
  m["sweep"] = nlohmann::json::array();
  double peak = 0;
  for (std::size_t bytes : sizes) {
    const int reps = bytes <= (1u << 20) ? 21 : bytes <= (16u << 20) ? 9 : 5;
    float h2d_pageable = 0, h2d_pinned = 0, d2h_pageable = 0, d2h_pinned = 0;
    const cudaEvent_t* ev = b.events.data();
    Status s = MedianCopy(ev, b.device, pageable.data(), bytes, cudaMemcpyHostToDevice, reps,
                          &h2d_pageable);
    if (s.ok())
      s = MedianCopy(ev, b.device, b.pinned, bytes, cudaMemcpyHostToDevice, reps, &h2d_pinned);
    if (s.ok())
      s = MedianCopy(ev, pageable.data(), b.device, bytes, cudaMemcpyDeviceToHost, reps,
                     &d2h_pageable);
    if (s.ok())
      s = MedianCopy(ev, b.pinned, b.device, bytes, cudaMemcpyDeviceToHost, reps, &d2h_pinned);
    if (!s.ok()) return s;
    nlohmann::json point = {{"bytes", bytes},
                            {"h2d_pageable", Gbps(bytes, h2d_pageable)},
                            {"h2d_pinned", Gbps(bytes, h2d_pinned)},
                            {"d2h_pageable", Gbps(bytes, d2h_pageable)},
                            {"d2h_pinned", Gbps(bytes, d2h_pinned)},
                            {"h2d_pinned_ms", h2d_pinned}};
    peak = std::max({peak, Gbps(bytes, h2d_pinned), Gbps(bytes, d2h_pinned)});
    if (bytes == chosen) {
      m["h2d_pageable_gbps"] = point["h2d_pageable"];
      m["h2d_pinned_gbps"] = point["h2d_pinned"];
      m["d2h_pageable_gbps"] = point["d2h_pageable"];
      m["d2h_pinned_gbps"] = point["d2h_pinned"];
      run->timing = {"measured", pinned ? h2d_pinned : h2d_pageable,
                     "one cudaMemcpy of " + TransferSizeName(bytes) + " from " + variant +
                         " memory to the GPU, CUDA events, median of " + std::to_string(reps) +
                         " after a warm-up"};
    }
    m["sweep"].push_back(point);
  }
  m["peak_gbps"] = peak;  // the fastest copy measured: what this link delivers
  m["size_bytes"] = chosen;

  // 2. The pipeline: the chosen size in `chunks` pieces, on one stream and on `streams`.
  const int n = static_cast<int>(chosen / sizeof(float));
  const int per = n / chunks;
  float* host = pinned ? static_cast<float*>(b.pinned) : reinterpret_cast<float*>(pageable.data());
  float* dev = static_cast<float*>(b.device);
  auto reset = [&] {
    for (int i = 0; i < n; ++i) host[i] = Initial(static_cast<std::size_t>(i));
  };
  b.streams.resize(static_cast<std::size_t>(nstreams));
  for (cudaStream_t& s : b.streams) {
    if (Status st = Cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
        !st.ok())
      return st;
  }
  // The kernel's rounds: about as long as a piece's copy in, where overlap pays most. Timed at
  // 256 rounds on one piece, then scaled.
  int rounds = 256;
  {
    reset();
    float copy_ms = 0, kernel_ms = 0;
    const std::size_t piece = static_cast<std::size_t>(per) * sizeof(float);
    if (Status s =
            MedianCopy(b.events.data(), dev, host, piece, cudaMemcpyHostToDevice, 3, &copy_ms);
        !s.ok())
      return s;
    cudaEvent_t a = b.events[0], z = b.events[1];
    std::vector<float> t;
    for (int i = 0; i < 4; ++i) {
      float ms = 0;
      Status s = Cuda(cudaEventRecord(a), "cudaEventRecord");
      if (s.ok()) {
        scaleKernel<<<(per + 255) / 256, 256>>>(dev, per, rounds);
        s = Cuda(cudaGetLastError(), "scaleKernel (calibration)");
      }
      if (s.ok()) s = Cuda(cudaEventRecord(z), "cudaEventRecord");
      if (s.ok()) s = Cuda(cudaEventSynchronize(z), "scaleKernel (calibration)");
      if (s.ok()) s = Cuda(cudaEventElapsedTime(&ms, a, z), "cudaEventElapsedTime");
      if (!s.ok()) return s;
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    kernel_ms = t[t.size() / 2];
    if (kernel_ms > 0)
      rounds = std::clamp(static_cast<int>(std::lround(256.0 * copy_ms / kernel_ms)), 1, 1 << 20);
  }
  nlohmann::json& o = m["overlap"];
  o = {{"memory", pinned ? "pinned" : "pageable"},
       {"streams", nstreams},
       {"chunks", chunks},
       {"rounds", rounds},
       {"bytes", static_cast<std::size_t>(per) * chunks * sizeof(float)}};
  o["ops"] = nlohmann::json::array();
  for (int mode = 0; mode < 2; ++mode) {  // 0: one stream; 1: `streams` streams
    reset();
    const int used = mode == 0 ? 1 : nstreams;
    if (Status s =
            Cuda(pipeline(host, dev, n, chunks, rounds, b.streams.data(), used, b.events.data()),
                 "the pipeline on " + std::to_string(used) + " stream(s)");
        !s.ok())
      return s;
    std::vector<float> at(b.events.size());
    for (std::size_t i = 0; i < at.size(); ++i) {
      if (Status s =
              Cuda(cudaEventElapsedTime(&at[i], b.events[0], b.events[i]), "cudaEventElapsedTime");
          !s.ok())
        return s;
    }
    const float t0 = *std::min_element(at.begin(), at.end());
    const float t1 = *std::max_element(at.begin(), at.end());
    o[mode == 0 ? "serial_ms" : "overlapped_ms"] = t1 - t0;
    for (int k = 0; k < chunks; ++k) {
      for (int kind = 0; kind < 3; ++kind) {  // 0 copy in, 1 kernel, 2 copy back
        const std::size_t i = static_cast<std::size_t>(4 * k + kind);
        o["ops"].push_back({mode, k % used, kind, k, at[i] - t0, at[i + 1] - t0});
      }
    }
  }
  const double serial = o["serial_ms"].get<double>(), overlapped = o["overlapped_ms"].get<double>();
  o["speedup"] = overlapped > 0 ? serial / overlapped : 0.0;

  // The output check: the last pipeline's result against the same fmaf rounds on the CPU, at
  // the first and last element of every piece and every 4099th element.
  int checked = 0;
  std::string problem;
  for (int i = 0; i < chunks * per && problem.empty(); ++i) {
    if (i % 4099 != 0 && i % per != 0 && i % per != per - 1) continue;
    const float want = HostRounds(Initial(static_cast<std::size_t>(i)), rounds);
    ++checked;
    if (host[i] != want)
      problem = "element " + std::to_string(i) + " is " + std::to_string(host[i]) + ", the CPU " +
                std::to_string(want);
  }
  run->check.ok = problem.empty();
  run->check.message = problem.empty() ? "the pipeline's result matches the CPU at " +
                                             std::to_string(checked) + " elements in every piece"
                                       : problem;
  run->device = prop.name;
  return {};
}

}  // namespace ws
