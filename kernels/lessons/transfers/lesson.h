// transfers: host-device copies, pageable against pinned, and overlap on streams. Measures a GPU
// (kGpuOnly): the emulator has nothing to measure, and the app shows a shipped capture instead.
//
// Index of this file:
// [SECTION] GPU helpers: buffers, timed copies, the CPU's result
// [SECTION] Lesson: its description
// [SECTION] Lesson: the measurement on a GPU
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/transfer_sizes.h"

// The host part runs only in the CUDA runner's recorded build (it times copies, not kernels),
// not in a unit built for one pass (cuda_pass_units.h), which launches nothing of its own.
#if defined(__CUDACC__) && !defined(WS_PLAIN_BUILD) && !defined(WS_PASS_UNIT)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "transfers.cuh"
#define WS_TRANSFERS_GPU 1
#endif

namespace ws::lessons::transfers {

//-------------------------------------------------------------------------------------------------
// [SECTION] GPU helpers: buffers, timed copies, the CPU's result
//-------------------------------------------------------------------------------------------------

#if WS_TRANSFERS_GPU
namespace gpu {

inline Status Cuda(cudaError_t e, const std::string& what) {
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

inline double Gbps(std::size_t bytes, float ms) {
  return ms > 0 ? static_cast<double>(bytes) / (static_cast<double>(ms) * 1e6) : 0.0;
}

// The median of `reps` timed copies (after one untimed copy of the same size); `ev` holds the
// two events timedCopy records.
inline Status MedianCopy(const cudaEvent_t* ev, void* dst, const void* src, std::size_t bytes,
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

inline float HostRounds(float v, int rounds) {
  for (int r = 0; r < rounds; ++r) v = std::fmaf(v, 0.999f, 0.001f);
  return v;
}

inline float Initial(std::size_t i) {
  return static_cast<float>(i % 1000) * 0.001f;
}

}  // namespace gpu
#endif

//-------------------------------------------------------------------------------------------------
// [SECTION] Lesson: its description
//-------------------------------------------------------------------------------------------------

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "transfers";
    l.title = "Host-device transfers: pageable, pinned, and overlap on streams";
    l.order = 170;
    l.kind = LessonKind::kGpuOnly;
    l.variants = {
        {"pinned",
         "host buffer from cudaMallocHost: DMA copies, asynchronous on streams",
         {"passes"}},
        {"pageable",
         "host buffer from malloc: staged by the driver, cudaMemcpyAsync waits",
         {"passes"}},
        {"zero-copy",
         "the kernel reads and writes mapped host memory (cudaHostAllocMapped) itself, against "
         "copy in, kernel, copy back",
         {"streams", "chunks"}}};
    l.params = {
        {"size", 5, 0, 6, 1, "bytes to copy (and the pipeline's data)", TransferSizeChoices()},
        {"streams", 4, 1, 8, 1, "streams of the overlapped pipeline"},
        {"chunks", 8, 1, 32, 1, "pieces the pipeline cuts the data into"},
        {"passes", 1, 1, 8, 1, "zero copy: kernels over the data (each pass crosses the link)"}};
    l.explanation =
        "A kernel can only use data in GPU memory: cudaMemcpy carries it there over the link "
        "to the host (PCIe), and carries results back. The link is far slower than the GPU's "
        "own memory (the slides: 8 GB/s against 141 GB/s on a GTX 280; tens of GB/s against "
        "thousands on an H100), and each copy has a fixed cost of microseconds, so bandwidth "
        "climbs with size: group small transfers into large ones. Pageable memory (malloc) is "
        "staged by the driver through a pinned buffer; pinned memory (cudaMallocHost) is "
        "copied by DMA, faster. The pipeline cuts the data into chunks, each copied in, "
        "processed and copied back: on one stream every step waits for the one before; on "
        "several, copies overlap kernels. The slides say cudaMemcpyAsync requires pinned "
        "memory; it accepts pageable memory too, but then waits for the copy, and nothing "
        "overlaps (variant pageable). Zero copy (variant zero-copy) maps pinned host memory "
        "into the GPU's address space (cudaHostAlloc with cudaHostAllocMapped, then "
        "cudaHostGetDevicePointer): the kernel reads and writes it over the link, with no "
        "cudaMemcpy. It wins, as the slides say, when the data is read and written once "
        "(passes 1): the reads, the kernel and the writes overlap instead of taking turns. "
        "Each further pass crosses the link again, where copies would have crossed once: "
        "raise passes and watch it lose. The slides' '4 GB per context' held for 32-bit "
        "pointers; with 64-bit unified addressing any pinned buffer can be mapped. Measured "
        "on a GPU only: with none, the app shows the capture shipped with Warpscope.";
    l.source_file = "transfers.cuh";
    l.front_panel = "transfers";
    l.read_figures = &ReadFigures<TransferFigures>;
    l.figures = {{"h2d_pinned_gbps", "Host to device, pinned", "GB/s"},
                 {"h2d_pageable_gbps", "Host to device, pageable", "GB/s"},
                 {"d2h_pinned_gbps", "Device to host, pinned", "GB/s"},
                 {"d2h_pageable_gbps", "Device to host, pageable", "GB/s"},
                 {"peak_gbps", "Peak", "GB/s"},
                 {"size_bytes", "Transfer size", "B"}};
    // Zero copy's figures sit in zero_copy: explicit_ms, mapped_ms, speedup.
    return l;
  }

  //-------------------------------------------------------------------------------------------------
  // [SECTION] Lesson: the measurement on a GPU
  //-------------------------------------------------------------------------------------------------

#if WS_TRANSFERS_GPU
  // Zero copy against explicit copies at every size of the sweep and the chosen one: the median
  // of `reps` runs of each after one of each untimed, then the output check.
  static Status ZeroCopy(LessonCall& c, const cudaDeviceProp& prop,
                         const std::vector<std::size_t>& sizes, std::size_t chosen, gpu::Buffers& b,
                         ZeroCopyFigures* z) {
    if (!prop.canMapHostMemory)
      return Status::Error(std::string(prop.name) + " cannot map host memory (canMapHostMemory 0)");
    // Before the context exists it asks for mapping; on a 64-bit unified-address system mapping
    // is on anyway and the call may say the context is already active: that is fine.
    if (cudaSetDeviceFlags(cudaDeviceMapHost) != cudaSuccess) (void)cudaGetLastError();
    const std::size_t largest = std::max(sizes.back(), chosen);
    void* mapped_host = nullptr;
    if (Status s = gpu::Cuda(cudaHostAlloc(&mapped_host, largest, cudaHostAllocMapped),
                             "cudaHostAlloc(cudaHostAllocMapped)");
        !s.ok())
      return s;
    struct FreeHost {
      void* p;
      ~FreeHost() { cudaFreeHost(p); }
    } free_mapped{mapped_host};
    float* mapped = nullptr;
    if (Status s =
            gpu::Cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), mapped_host, 0),
                      "cudaHostGetDevicePointer");
        !s.ok())
      return s;
    float* pinned = static_cast<float*>(b.pinned);
    float* dev = static_cast<float*>(b.device);
    // Defined values before the timed runs (cudaHostAlloc leaves the memory as it found it).
    std::fill_n(static_cast<float*>(mapped_host), largest / sizeof(float), 1.0f);
    const int passes = c.I("passes");
    z->passes = passes;
    z->integrated = prop.integrated != 0;
    const cudaEvent_t* ev = b.events.data();
    std::vector<std::size_t> points = sizes;
    if (std::find(points.begin(), points.end(), chosen) == points.end()) points.push_back(chosen);
    std::sort(points.begin(), points.end());
    for (std::size_t bytes : points) {
      const int n = static_cast<int>(bytes / sizeof(float));
      const int reps = bytes <= (1u << 20) ? 21 : bytes <= (16u << 20) ? 9 : 5;
      std::vector<float> te, tz;
      for (int r = 0; r <= reps; ++r) {  // run 0 is the warm-up
        float e = 0, zc = 0;
        if (Status s = gpu::Cuda(timedExplicit(pinned, dev, n, passes, ev[0], ev[1], &e),
                                 "copy in, increment, copy back");
            !s.ok())
          return s;
        if (Status s = gpu::Cuda(timedZeroCopy(mapped, n, passes, ev[0], ev[1], &zc),
                                 "increment on mapped host memory");
            !s.ok())
          return s;
        if (r > 0) {
          te.push_back(e);
          tz.push_back(zc);
        }
      }
      std::sort(te.begin(), te.end());
      std::sort(tz.begin(), tz.end());
      const ZeroCopyPoint p{static_cast<double>(bytes), te[te.size() / 2], tz[tz.size() / 2]};
      z->sweep.push_back(p);
      if (bytes == chosen) {
        z->explicit_ms = p.explicit_ms;
        z->mapped_ms = p.mapped_ms;
        z->speedup = p.mapped_ms > 0 ? p.explicit_ms / p.mapped_ms : 0.0;
        c.timing =
            Timing{"measured", p.mapped_ms,
                   std::to_string(passes) + " increment kernel(s) on " + TransferSizeName(bytes) +
                       " of mapped host memory, CUDA events, median of " + std::to_string(reps) +
                       " after a warm-up"};
      }
    }
    // The output check: both ways once more from the same start, against the CPU's adds.
    const int n = static_cast<int>(chosen / sizeof(float));
    float* host = static_cast<float*>(mapped_host);
    for (int i = 0; i < n; ++i) host[i] = pinned[i] = gpu::Initial(static_cast<std::size_t>(i));
    float ms = 0;
    if (Status s = gpu::Cuda(timedZeroCopy(mapped, n, passes, ev[0], ev[1], &ms), "zero copy");
        !s.ok())
      return s;
    if (Status s = gpu::Cuda(timedExplicit(pinned, dev, n, passes, ev[0], ev[1], &ms), "copies");
        !s.ok())
      return s;
    std::string problem;
    for (int i = 0; i < n && problem.empty(); ++i) {
      float want = gpu::Initial(static_cast<std::size_t>(i));
      for (int p = 0; p < passes; ++p) want = want + 1.0f;
      if (host[i] != want || pinned[i] != want)
        problem = "element " + std::to_string(i) + " is " + std::to_string(host[i]) +
                  " (zero copy) and " + std::to_string(pinned[i]) + " (copies), the CPU " +
                  std::to_string(want);
    }
    c.check.ok = problem.empty();
    c.check.message = problem.empty() ? "zero copy and copies both match the CPU at all " +
                                            std::to_string(n) + " elements"
                                      : problem;
    return {};
  }

  static Status Gpu(LessonCall& c) {
    if (Status s = gpu::Cuda(cudaSetDevice(c.options.gpu),
                             "cudaSetDevice(" + std::to_string(c.options.gpu) + ")");
        !s.ok())
      return s;
    cudaDeviceProp prop{};
    if (Status s =
            gpu::Cuda(cudaGetDeviceProperties(&prop, c.options.gpu), "cudaGetDeviceProperties");
        !s.ok())
      return s;
    const std::vector<std::size_t>& sizes = TransferSweepBytes();
    const std::size_t chosen = TransferSizeBytes(c.P("size"));
    const std::size_t largest = std::max(sizes.back(), chosen);
    gpu::Buffers b;
    if (Status s = gpu::Cuda(cudaMallocHost(&b.pinned, largest), "cudaMallocHost"); !s.ok())
      return s;
    if (Status s = gpu::Cuda(cudaMalloc(&b.device, largest), "cudaMalloc"); !s.ok()) return s;
    std::vector<unsigned char> pageable(largest, 1);  // malloc'd and touched: pageable memory
    std::fill_n(static_cast<unsigned char*>(b.pinned), largest, 1);
    const int chunks = c.I("chunks");
    // Four events per chunk for the pipeline; the first two also time the copies.
    b.events.resize(static_cast<std::size_t>(4 * std::max(chunks, 1)));
    for (cudaEvent_t& e : b.events) {
      if (Status st = gpu::Cuda(cudaEventCreate(&e), "cudaEventCreate"); !st.ok()) return st;
    }
    const bool pinned = c.Is("pinned");

    TransferFigures f;
    if (Status s = Bandwidth(c, sizes, chosen, b, pageable, &f); !s.ok()) return s;
    if (c.Is("zero-copy")) {
      if (Status s = ZeroCopy(c, prop, sizes, chosen, b, &f.zero_copy); !s.ok()) return s;
      c.device = prop.name;
      c.SetFigures(std::move(f));
      return {};
    }
    float* host =
        pinned ? static_cast<float*>(b.pinned) : reinterpret_cast<float*>(pageable.data());
    if (Status s = Pipeline(c, chosen, b, host, &f.overlap); !s.ok()) return s;
    CheckPipeline(c, host, f.overlap.rounds, static_cast<int>(chosen / sizeof(float)) / chunks);
    c.device = prop.name;
    c.SetFigures(std::move(f));
    return {};
  }

  // 1. Bandwidth against size: host to device and back, pageable and pinned.
  static Status Bandwidth(LessonCall& c, const std::vector<std::size_t>& sizes, std::size_t chosen,
                          gpu::Buffers& b, std::vector<unsigned char>& pageable,
                          TransferFigures* f) {
    const bool pinned = c.Is("pinned");
    double peak = 0;
    for (std::size_t bytes : sizes) {
      const int reps = bytes <= (1u << 20) ? 21 : bytes <= (16u << 20) ? 9 : 5;
      float h2d_pageable = 0, h2d_pinned = 0, d2h_pageable = 0, d2h_pinned = 0;
      const cudaEvent_t* ev = b.events.data();
      Status s = gpu::MedianCopy(ev, b.device, pageable.data(), bytes, cudaMemcpyHostToDevice, reps,
                                 &h2d_pageable);
      if (s.ok())
        s = gpu::MedianCopy(ev, b.device, b.pinned, bytes, cudaMemcpyHostToDevice, reps,
                            &h2d_pinned);
      if (s.ok())
        s = gpu::MedianCopy(ev, pageable.data(), b.device, bytes, cudaMemcpyDeviceToHost, reps,
                            &d2h_pageable);
      if (s.ok())
        s = gpu::MedianCopy(ev, b.pinned, b.device, bytes, cudaMemcpyDeviceToHost, reps,
                            &d2h_pinned);
      if (!s.ok()) return s;
      const TransferPoint point{static_cast<double>(bytes),   gpu::Gbps(bytes, h2d_pageable),
                                gpu::Gbps(bytes, h2d_pinned), gpu::Gbps(bytes, d2h_pageable),
                                gpu::Gbps(bytes, d2h_pinned), h2d_pinned};
      peak = std::max({peak, gpu::Gbps(bytes, h2d_pinned), gpu::Gbps(bytes, d2h_pinned)});
      if (bytes == chosen) {
        f->h2d_pageable_gbps = point.h2d_pageable;
        f->h2d_pinned_gbps = point.h2d_pinned;
        f->d2h_pageable_gbps = point.d2h_pageable;
        f->d2h_pinned_gbps = point.d2h_pinned;
        if (!c.Is("zero-copy"))  // zero copy's own timing comes with its figures
          c.timing = Timing{"measured", pinned ? h2d_pinned : h2d_pageable,
                            "one cudaMemcpy of " + TransferSizeName(bytes) + " from " + c.variant +
                                " memory to the GPU, CUDA events, median of " +
                                std::to_string(reps) + " after a warm-up"};
      }
      f->sweep.push_back(point);
    }
    f->peak_gbps = peak;  // the fastest copy measured: what this link delivers
    f->size_bytes = static_cast<double>(chosen);
    return {};
  }

  static void ResetHost(float* host, int n) {
    for (int i = 0; i < n; ++i) host[i] = gpu::Initial(static_cast<std::size_t>(i));
  }

  // The kernel's rounds: about as long as a piece's copy in, where overlap pays most. Timed at
  // 256 rounds on one piece, then scaled.
  static Status CalibrateRounds(gpu::Buffers& b, float* host, float* dev, int n, int per,
                                int* rounds_out) {
    int rounds = 256;
    ResetHost(host, n);
    float copy_ms = 0, kernel_ms = 0;
    const std::size_t piece = static_cast<std::size_t>(per) * sizeof(float);
    if (Status s =
            gpu::MedianCopy(b.events.data(), dev, host, piece, cudaMemcpyHostToDevice, 3, &copy_ms);
        !s.ok())
      return s;
    cudaEvent_t a = b.events[0], z = b.events[1];
    std::vector<float> t;
    for (int i = 0; i < 4; ++i) {
      float ms = 0;
      Status s = gpu::Cuda(cudaEventRecord(a), "cudaEventRecord");
      if (s.ok()) {
        scaleKernel<<<(per + 255) / 256, 256>>>(dev, per, rounds);
        s = gpu::Cuda(cudaGetLastError(), "scaleKernel (calibration)");
      }
      if (s.ok()) s = gpu::Cuda(cudaEventRecord(z), "cudaEventRecord");
      if (s.ok()) s = gpu::Cuda(cudaEventSynchronize(z), "scaleKernel (calibration)");
      if (s.ok()) s = gpu::Cuda(cudaEventElapsedTime(&ms, a, z), "cudaEventElapsedTime");
      if (!s.ok()) return s;
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    kernel_ms = t[t.size() / 2];
    if (kernel_ms > 0)
      rounds = std::clamp(static_cast<int>(std::lround(256.0 * copy_ms / kernel_ms)), 1, 1 << 20);
    *rounds_out = rounds;
    return {};
  }

  // 2. The pipeline: the chosen size in `chunks` pieces, on one stream and on `streams`.
  static Status Pipeline(LessonCall& c, std::size_t chosen, gpu::Buffers& b, float* host,
                         PipelineFigures* out) {
    const int chunks = c.I("chunks"), nstreams = c.I("streams");
    const bool pinned = c.Is("pinned");
    const int n = static_cast<int>(chosen / sizeof(float));
    const int per = n / chunks;
    float* dev = static_cast<float*>(b.device);
    b.streams.resize(static_cast<std::size_t>(nstreams));
    for (cudaStream_t& s : b.streams) {
      if (Status st =
              gpu::Cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
          !st.ok())
        return st;
    }
    int rounds = 0;
    if (Status s = CalibrateRounds(b, host, dev, n, per, &rounds); !s.ok()) return s;
    PipelineFigures& o = *out;
    o.memory = pinned ? "pinned" : "pageable";
    o.streams = nstreams;
    o.chunks = chunks;
    o.rounds = rounds;
    o.bytes = static_cast<double>(static_cast<std::size_t>(per) * chunks * sizeof(float));
    for (int mode = 0; mode < 2; ++mode) {  // 0: one stream; 1: `streams` streams
      ResetHost(host, n);
      const int used = mode == 0 ? 1 : nstreams;
      if (Status s = gpu::Cuda(
              pipeline(host, dev, n, chunks, rounds, b.streams.data(), used, b.events.data()),
              "the pipeline on " + std::to_string(used) + " stream(s)");
          !s.ok())
        return s;
      std::vector<float> at(b.events.size());
      for (std::size_t i = 0; i < at.size(); ++i) {
        if (Status s = gpu::Cuda(cudaEventElapsedTime(&at[i], b.events[0], b.events[i]),
                                 "cudaEventElapsedTime");
            !s.ok())
          return s;
      }
      const float t0 = *std::min_element(at.begin(), at.end());
      const float t1 = *std::max_element(at.begin(), at.end());
      (mode == 0 ? o.serial_ms : o.overlapped_ms) = t1 - t0;
      for (int k = 0; k < chunks; ++k) {
        for (int kind = 0; kind < 3; ++kind) {  // 0 copy in, 1 kernel, 2 copy back
          const std::size_t i = static_cast<std::size_t>(4 * k + kind);
          o.ops.push_back({mode, k % used, kind, k, at[i] - t0, at[i + 1] - t0});
        }
      }
    }
    o.speedup = o.overlapped_ms > 0 ? o.serial_ms / o.overlapped_ms : 0.0;
    return {};
  }

  // The output check: the last pipeline's result against the same fmaf rounds on the CPU, at
  // the first and last element of every piece and every 4099th element.
  static void CheckPipeline(LessonCall& c, const float* host, int rounds, int per) {
    const int chunks = c.I("chunks");
    int checked = 0;
    std::string problem;
    for (int i = 0; i < chunks * per && problem.empty(); ++i) {
      if (i % 4099 != 0 && i % per != 0 && i % per != per - 1) continue;
      const float want = gpu::HostRounds(gpu::Initial(static_cast<std::size_t>(i)), rounds);
      ++checked;
      if (host[i] != want)
        problem = "element " + std::to_string(i) + " is " + std::to_string(host[i]) + ", the CPU " +
                  std::to_string(want);
    }
    c.check.ok = problem.empty();
    c.check.message = problem.empty() ? "the pipeline's result matches the CPU at " +
                                            std::to_string(checked) + " elements in every piece"
                                      : problem;
  }
#endif
};

}  // namespace ws::lessons::transfers
