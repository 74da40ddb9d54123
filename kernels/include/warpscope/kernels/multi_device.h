// A stencil split along z over several GPUs of one machine, with its ghost planes exchanged every
// time step (the multi-gpu lesson's GPU path, issue 20; docs/MULTI-GPU.md).
//
// Each GPU holds its slab of planes with `halo` ghost planes below and above, in two buffers
// (a step reads one and writes the other). A step on GPU g:
//   compute stream   waits for the ghost planes its neighbours sent last step, then computes its
//                    slab: with overlap the planes its neighbours need first, then the interior
//   comm stream      waits for those edge planes, then sends them to each neighbour in turn:
//                    cudaMemcpyPeerAsync (peer), or a copy into pinned host memory that the
//                    neighbour's recv stream copies onward (staged, as MPI through the host does)
// Nothing waits on the host between steps. Every piece of work is bracketed by CUDA events on its
// GPU; all GPUs start together behind one flag in pinned host memory that the host raises once
// everything is queued, so each GPU's clock starts at the same moment (within the flag's PCIe
// read, about a microsecond) and one timeline can hold them all.
//
// CUDA code, included by the uninstrumented build's translation unit only (kernels/cuda/
// lessons_cuda_plain.cu, where __global__ functions get internal linkage).
#pragma once

#if !defined(__CUDACC__)
#error "multi_device.h is CUDA code: include it from a .cu file"
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpscope/trace/multi_gpu.h"
#include "warpscope/trace/status.h"

namespace ws::multi_device {

enum class Transport { kPeer, kStaged };
inline const char* ToString(Transport t) {
  return t == Transport::kPeer ? "peer" : "staged";
}

inline Status Cuda(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return {};
  return Status::Error(what + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                       ")");
}

// Spins until the host raises flag[0], or for at most `max_cycles` (so that a host that failed
// between queueing and raising it cannot hang the GPU); then flag[1] says it gave up waiting.
__global__ void WaitForHostFlag(volatile int* flag, long long max_cycles) {
  const long long start = clock64();
  while (flag[0] == 0 && clock64() - start < max_cycles) {
  }
  if (flag[0] == 0) flag[1] = 1;
}

// Computes `planes` planes of a slab: `out` and `in` point `halo` planes below the first one.
using SlabLaunch =
    std::function<cudaError_t(cudaStream_t, float* out, const float* in, int planes)>;

struct SlabRun {
  int gpus = 1;
  int nx = 0, ny = 0, nz = 0, halo = 4;
  bool overlap = false;
  Transport transport = Transport::kPeer;
  int warmup = 2;          // steps before the timed ones (allocation and first-touch costs)
  int steps = 10;          // timed steps
  int shown = 3;           // timed steps the timeline keeps
  bool keep_field = true;  // copy the field back (SlabResult::field)
};

struct SlabResult {
  double step_us = 0;                // the median of the timed steps
  std::vector<GpuSegment> timeline;  // `shown` steps, from the end of the last warm-up step
  double timeline_us = 0;            // where the shown steps end
  std::vector<float> field;          // the whole field after all the steps (if keep_field)
};

// Whether GPUs g and g + 1 can reach each other's memory directly, for every g < gpus - 1.
inline bool PeersReachable(int gpus) {
  for (int g = 0; g + 1 < gpus; ++g) {
    int a = 0, b = 0;
    if (cudaDeviceCanAccessPeer(&a, g, g + 1) != cudaSuccess ||
        cudaDeviceCanAccessPeer(&b, g + 1, g) != cudaSuccess || a == 0 || b == 0)
      return false;
  }
  return true;
}

// Turns peer access on between neighbours (already on counts as on).
inline Status EnablePeers(int gpus) {
  for (int g = 0; g < gpus; ++g) {
    for (int n : {g - 1, g + 1}) {
      if (n < 0 || n >= gpus) continue;
      if (Status s = Cuda(cudaSetDevice(g), "cudaSetDevice"); !s.ok()) return s;
      const cudaError_t e = cudaDeviceEnablePeerAccess(n, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();  // clears it
      } else if (e != cudaSuccess) {
        return Cuda(
            e, "cudaDeviceEnablePeerAccess(" + std::to_string(n) + ") on GPU " + std::to_string(g));
      }
    }
  }
  return {};
}

namespace detail {

// The events of one GPU's step.
enum Event : int {
  kStart,      // its compute begins (its waits are over)
  kEdges,      // the planes its neighbours need are done
  kEnd,        // its whole slab is done
  kSendBegin,  // + side (0: to the GPU below, 1: above) x 2
  kSendEnd = kSendBegin + 2,
  kRecvBegin = kSendEnd + 2,  // staged: this GPU's copy from host memory, + side
  kRecvEnd = kRecvBegin + 2,
  kEventsPerStep = kRecvEnd + 2
};

struct Gpu {
  int device = 0;
  int planes = 0;  // its slab
  int first = 0;   // its first plane in the field (counting the field's halo planes)
  float* buf[2] = {nullptr, nullptr};
  float* staging[2] = {nullptr, nullptr};  // pinned: what it sends below / above (staged)
  cudaStream_t compute = nullptr, comm = nullptr, recv = nullptr;
  cudaEvent_t gate = nullptr;
  std::vector<cudaEvent_t> events;  // step x kEventsPerStep
  cudaEvent_t& At(int step, int e) {
    return events[static_cast<std::size_t>(step * kEventsPerStep + e)];
  }
};

// Everything allocated, freed on every path.
struct Resources {
  std::vector<Gpu> gpus;
  int* flag = nullptr;  // pinned, mapped: [0] the start signal, [1] a GPU stopped waiting
  ~Resources() {
    // A run that failed while queueing leaves the GPUs waiting behind the flag: let them go.
    if (flag != nullptr) __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    for (Gpu& g : gpus) {
      cudaSetDevice(g.device);
      cudaDeviceSynchronize();
      for (cudaEvent_t e : g.events)
        if (e != nullptr) cudaEventDestroy(e);
      if (g.gate != nullptr) cudaEventDestroy(g.gate);
      for (cudaStream_t s : {g.compute, g.comm, g.recv})
        if (s != nullptr) cudaStreamDestroy(s);
      for (float* b : g.buf)
        if (b != nullptr) cudaFree(b);
      for (float* h : g.staging)
        if (h != nullptr) cudaFreeHost(h);
    }
    if (flag != nullptr) cudaFreeHost(flag);
  }
};

inline float Ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  cudaEventElapsedTime(&ms, from, to);
  return ms;
}

}  // namespace detail

// Runs `run.warmup + run.steps` time steps of `launch` on `field` ((nz + 2 halo) nx ny floats:
// the planes with the fixed boundary planes below and above) split over GPUs 0..gpus-1.
inline Status RunSlabs(const SlabRun& run, const std::vector<float>& field,
                       const SlabLaunch& launch, SlabResult* result) {
  using namespace detail;
  const std::size_t plane = static_cast<std::size_t>(run.nx) * static_cast<std::size_t>(run.ny);
  const int halo = run.halo, total = run.warmup + run.steps;
  if (run.gpus < 1 || run.warmup < 1 || run.steps < 1 || run.shown < 1 || run.shown > run.steps ||
      run.halo < 1)
    return Status::Error(
        "a multi-GPU run needs 1 or more GPUs, a halo, warm-up steps and 1..steps shown steps");
  if (run.gpus > 1 && SlabPlanes(run.nz, run.gpus, run.gpus - 1) < halo)
    return Status::Error(std::to_string(run.nz) + " planes over " + std::to_string(run.gpus) +
                         " GPUs leave a GPU fewer than the " + std::to_string(halo) +
                         " planes its neighbours take as ghost planes");
  if (field.size() != (static_cast<std::size_t>(run.nz) + 2 * halo) * plane)
    return Status::Error("the field does not have nz + 2 halo planes");
  Resources r;
  r.gpus.resize(static_cast<std::size_t>(run.gpus));
  if (Status s = Cuda(cudaHostAlloc(reinterpret_cast<void**>(&r.flag), 2 * sizeof(int),
                                    cudaHostAllocMapped | cudaHostAllocPortable),
                      "cudaHostAlloc (the start flag)");
      !s.ok())
    return s;
  r.flag[0] = r.flag[1] = 0;
  int first = halo;
  for (int g = 0; g < run.gpus; ++g) {
    Gpu& d = r.gpus[static_cast<std::size_t>(g)];
    d.device = g;
    d.planes = SlabPlanes(run.nz, run.gpus, g);
    d.first = first;
    first += d.planes;
    const std::size_t count = (static_cast<std::size_t>(d.planes) + 2 * halo) * plane;
    if (count >= (1ull << 31))
      return Status::Error("a slab of " + std::to_string(d.planes) + " planes of " +
                           std::to_string(run.nx) + " x " + std::to_string(run.ny) +
                           " points is past the kernel's int index: the limit is 2^31 points");
    const std::string on = " on GPU " + std::to_string(g);
    if (Status s = Cuda(cudaSetDevice(g), "cudaSetDevice" + on); !s.ok()) return s;
    std::size_t free_bytes = 0, total_bytes = 0;
    if (Status s = Cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo" + on); !s.ok())
      return s;
    if (2 * count * sizeof(float) + (64u << 20) > free_bytes)
      return Status::Error("two slabs of " + std::to_string(2 * count * sizeof(float) >> 20) +
                           " MiB" + on + " do not fit in its " + std::to_string(free_bytes >> 20) +
                           " MiB free");
    const float* slab = field.data() + static_cast<std::size_t>(d.first - halo) * plane;
    for (float*& b : d.buf) {
      if (Status s = Cuda(cudaMalloc(&b, count * sizeof(float)), "cudaMalloc" + on); !s.ok())
        return s;
      if (Status s = Cuda(cudaMemcpy(b, slab, count * sizeof(float), cudaMemcpyHostToDevice),
                          "cudaMemcpy" + on);
          !s.ok())
        return s;
    }
    for (cudaStream_t* st : {&d.compute, &d.comm, &d.recv})
      if (Status s =
              Cuda(cudaStreamCreateWithFlags(st, cudaStreamNonBlocking), "cudaStreamCreate" + on);
          !s.ok())
        return s;
    d.events.assign(static_cast<std::size_t>(total * kEventsPerStep), nullptr);
    for (cudaEvent_t& e : d.events)
      if (Status s = Cuda(cudaEventCreate(&e), "cudaEventCreate" + on); !s.ok()) return s;
    if (Status s = Cuda(cudaEventCreate(&d.gate), "cudaEventCreate" + on); !s.ok()) return s;
    if (run.transport == Transport::kStaged) {
      for (float*& h : d.staging)
        if (Status s = Cuda(cudaMallocHost(&h, halo * plane * sizeof(float)),
                            "cudaMallocHost (staging)" + on);
            !s.ok())
          return s;
    }
  }
  // The uploads (on the legacy stream, which the work's non-blocking streams do not wait for)
  // are done, and the kernels are loaded: lazy loading must not happen behind the start flag.
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    cudaError_t e = launch(d.compute, d.buf[1], d.buf[0], 0);  // no planes: loads it
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (Status s = Cuda(e, "loading the stencil on GPU " + std::to_string(d.device)); !s.ok())
      return s;
  }
  const std::size_t message = static_cast<std::size_t>(halo) * plane;
  auto neighbour = [&](int g, int side) { return side == 0 ? g - 1 : g + 1; };
  auto has = [&](int g, int side) {
    const int n = neighbour(g, side);
    return n >= 0 && n < run.gpus;
  };
  // Where GPU g's message to `side` starts in its buffer, and where it lands in the neighbour's.
  auto source = [&](Gpu& d, int b, int side) {
    return d.buf[b] + static_cast<std::size_t>(side == 0 ? halo : d.planes) * plane;
  };
  auto landing = [&](Gpu& n, int b, int side) {  // side: as seen from the sender
    return n.buf[b] + (side == 0 ? static_cast<std::size_t>(n.planes + halo) * plane : 0);
  };

  // The start: every GPU waits behind the flag.
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    WaitForHostFlag<<<1, 1, 0, d.compute>>>(r.flag, 4'000'000'000ll);
    if (Status s = Cuda(cudaGetLastError(), "the start kernel"); !s.ok()) return s;
    cudaEventRecord(d.gate, d.compute);
  }
  for (int step = 0; step < total; ++step) {
    const int in = step % 2, out = 1 - in;
    for (int g = 0; g < run.gpus; ++g) {
      Gpu& d = r.gpus[static_cast<std::size_t>(g)];
      cudaSetDevice(d.device);
      if (step > 0) {  // last step's sends out of, and messages into, this GPU are done
        for (int side : {0, 1}) {
          if (!has(g, side)) continue;
          Gpu& n = r.gpus[static_cast<std::size_t>(neighbour(g, side))];
          cudaStreamWaitEvent(d.compute, d.At(step - 1, kSendEnd + side), 0);
          cudaStreamWaitEvent(d.compute,
                              run.transport == Transport::kPeer
                                  ? n.At(step - 1, kSendEnd + (1 - side))
                                  : d.At(step - 1, kRecvEnd + side),
                              0);
        }
      }
      cudaEventRecord(d.At(step, kStart), d.compute);
      auto part = [&](int from, int to) {  // planes [from, to) of the slab's own, from 0
        const std::size_t at = static_cast<std::size_t>(from) * plane;
        return launch(d.compute, d.buf[out] + at, d.buf[in] + at, to - from);
      };
      const bool lower = has(g, 0), upper = has(g, 1);
      cudaError_t e = cudaSuccess;
      if (run.overlap && (lower || upper) && d.planes >= 2 * halo) {
        if (lower && e == cudaSuccess) e = part(0, halo);
        if (upper && e == cudaSuccess) e = part(d.planes - halo, d.planes);
        cudaEventRecord(d.At(step, kEdges), d.compute);
        if (e == cudaSuccess) e = part(lower ? halo : 0, upper ? d.planes - halo : d.planes);
      } else {
        e = part(0, d.planes);
        cudaEventRecord(d.At(step, kEdges), d.compute);
      }
      if (Status s = Cuda(e, "the stencil's launch on GPU " + std::to_string(g)); !s.ok()) return s;
      cudaEventRecord(d.At(step, kEnd), d.compute);
      cudaStreamWaitEvent(d.comm, d.At(step, kEdges), 0);
      for (int side : {0, 1}) {
        if (!has(g, side)) continue;
        Gpu& n = r.gpus[static_cast<std::size_t>(neighbour(g, side))];
        // Staged: the neighbour has copied last step's message out of the staging buffer.
        if (run.transport == Transport::kStaged && step > 0)
          cudaStreamWaitEvent(d.comm, n.At(step - 1, kRecvEnd + (1 - side)), 0);
        cudaEventRecord(d.At(step, kSendBegin + side), d.comm);
        if (run.transport == Transport::kPeer) {
          e = cudaMemcpyPeerAsync(landing(n, out, side), n.device, source(d, out, side), d.device,
                                  message * sizeof(float), d.comm);
        } else {
          e = cudaMemcpyAsync(d.staging[side], source(d, out, side), message * sizeof(float),
                              cudaMemcpyDeviceToHost, d.comm);
        }
        if (Status s = Cuda(e, "sending ghost planes from GPU " + std::to_string(g)); !s.ok())
          return s;
        cudaEventRecord(d.At(step, kSendEnd + side), d.comm);
      }
    }
    if (run.transport == Transport::kStaged) {  // each GPU copies its neighbours' messages in
      for (int g = 0; g < run.gpus; ++g) {
        Gpu& d = r.gpus[static_cast<std::size_t>(g)];
        cudaSetDevice(d.device);
        for (int side : {0, 1}) {
          if (!has(g, side)) continue;
          Gpu& n = r.gpus[static_cast<std::size_t>(neighbour(g, side))];
          const int from_side = 1 - side;  // n sent it towards this GPU
          cudaStreamWaitEvent(d.recv, n.At(step, kSendEnd + from_side), 0);
          cudaEventRecord(d.At(step, kRecvBegin + side), d.recv);
          if (Status s =
                  Cuda(cudaMemcpyAsync(landing(d, out, from_side), n.staging[from_side],
                                       message * sizeof(float), cudaMemcpyHostToDevice, d.recv),
                       "receiving ghost planes on GPU " + std::to_string(g));
              !s.ok())
            return s;
          cudaEventRecord(d.At(step, kRecvEnd + side), d.recv);
        }
      }
    }
  }
  __atomic_store_n(r.flag, 1, __ATOMIC_SEQ_CST);  // go
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    if (Status s = Cuda(cudaDeviceSynchronize(), "the steps on GPU " + std::to_string(d.device));
        !s.ok())
      return s;
  }
  if (__atomic_load_n(r.flag + 1, __ATOMIC_SEQ_CST) != 0)
    return Status::Error(
        "a GPU stopped waiting for the start signal after about 2 s (the host took that long to "
        "queue the steps), so the GPUs' clocks do not start together; run again");

  // Every event on its own GPU's clock, from that GPU's start.
  auto at = [&](int g, int step, int e) {
    Gpu& d = r.gpus[static_cast<std::size_t>(g)];
    return 1e3 * static_cast<double>(Ms(d.gate, d.At(step, e)));
  };
  auto step_end = [&](int step) {
    double end = 0;
    for (int g = 0; g < run.gpus; ++g) {
      end = std::max(end, at(g, step, kEnd));
      for (int side : {0, 1}) {
        if (!has(g, side)) continue;
        end = std::max(end, at(g, step, kSendEnd + side));
        if (run.transport == Transport::kStaged) end = std::max(end, at(g, step, kRecvEnd + side));
      }
    }
    return end;
  };
  std::vector<double> ends, lengths;
  for (int step = 0; step < total; ++step) ends.push_back(step_end(step));
  for (int step = run.warmup; step < total; ++step)
    lengths.push_back(ends[static_cast<std::size_t>(step)] -
                      ends[static_cast<std::size_t>(step - 1)]);
  std::sort(lengths.begin(), lengths.end());
  result->step_us = lengths[lengths.size() / 2];

  const double t0 = ends[static_cast<std::size_t>(run.warmup - 1)];
  result->timeline_us = ends[static_cast<std::size_t>(run.warmup + run.shown - 1)] - t0;
  result->timeline.clear();
  for (int g = 0; g < run.gpus; ++g) {
    std::vector<GpuSegment> lane;
    for (int step = run.warmup; step < run.warmup + run.shown; ++step) {
      lane.push_back({g, GpuWork::kCompute, at(g, step, kStart) - t0, at(g, step, kEnd) - t0});
      for (int side : {0, 1}) {
        if (!has(g, side)) continue;
        const int n = neighbour(g, side);
        lane.push_back({g, GpuWork::kSend, at(g, step, kSendBegin + side) - t0,
                        at(g, step, kSendEnd + side) - t0});
        if (run.transport == Transport::kPeer)  // the neighbour's copy into this GPU
          lane.push_back({g, GpuWork::kReceive, at(n, step, kSendBegin + (1 - side)) - t0,
                          at(n, step, kSendEnd + (1 - side)) - t0});
        else
          lane.push_back({g, GpuWork::kReceive, at(g, step, kRecvBegin + side) - t0,
                          at(g, step, kRecvEnd + side) - t0});
      }
    }
    // Idle: where none of its work runs, up to the end of the shown steps.
    std::vector<GpuSegment> busy = lane;
    std::sort(busy.begin(), busy.end(),
              [](const GpuSegment& a, const GpuSegment& b) { return a.start_us < b.start_us; });
    double covered = 0;
    for (const GpuSegment& s : busy) {
      if (s.start_us > covered) lane.push_back({g, GpuWork::kIdle, covered, s.start_us});
      covered = std::max(covered, s.end_us);
    }
    if (covered < result->timeline_us)
      lane.push_back({g, GpuWork::kIdle, covered, result->timeline_us});
    for (GpuSegment& s : lane) {  // the first step may begin a little before t0 on some GPU
      s.start_us = std::max(s.start_us, 0.0);
      s.end_us = std::max(s.end_us, s.start_us);
    }
    result->timeline.insert(result->timeline.end(), lane.begin(), lane.end());
  }

  result->field.clear();
  if (!run.keep_field) return {};
  result->field = field;
  const int last = total % 2;  // the buffer the last step wrote
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    if (Status s = Cuda(cudaMemcpy(result->field.data() + static_cast<std::size_t>(d.first) * plane,
                                   d.buf[last] + static_cast<std::size_t>(halo) * plane,
                                   static_cast<std::size_t>(d.planes) * plane * sizeof(float),
                                   cudaMemcpyDeviceToHost),
                        "copying the slab back from GPU " + std::to_string(d.device));
        !s.ok())
      return s;
  }
  return {};
}

// The time of one message of `bytes` from GPU 0 to GPU 1 (peer), or out of GPU 0 into pinned
// memory and from there into GPU 1 (staged), in microseconds: the median of `reps`.
inline Status TimeMessage(Transport transport, std::size_t bytes, int reps, double* us) {
  struct Held {
    void* a = nullptr;
    void* b = nullptr;
    void* host = nullptr;
    cudaStream_t s[2] = {nullptr, nullptr};
    cudaEvent_t e[4] = {nullptr, nullptr, nullptr, nullptr};
    ~Held() {
      for (int g : {0, 1}) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
      }
      for (cudaEvent_t x : e)
        if (x != nullptr) cudaEventDestroy(x);
      for (cudaStream_t x : s)
        if (x != nullptr) cudaStreamDestroy(x);
      if (a != nullptr) cudaFree(a);
      if (b != nullptr) cudaFree(b);
      if (host != nullptr) cudaFreeHost(host);
    }
  } h;
  for (int g : {0, 1}) {
    if (Status s = Cuda(cudaSetDevice(g), "cudaSetDevice"); !s.ok()) return s;
    if (Status s = Cuda(cudaMalloc(g == 0 ? &h.a : &h.b, bytes), "cudaMalloc"); !s.ok()) return s;
    if (Status s = Cuda(cudaStreamCreate(&h.s[g]), "cudaStreamCreate"); !s.ok()) return s;
    for (int k : {0, 1})
      if (Status s = Cuda(cudaEventCreate(&h.e[2 * g + k]), "cudaEventCreate"); !s.ok()) return s;
  }
  if (Status s = Cuda(cudaMallocHost(&h.host, bytes), "cudaMallocHost"); !s.ok()) return s;
  std::vector<double> v;
  for (int i = 0; i <= reps; ++i) {  // the first is a warm-up
    double t = 0;
    cudaSetDevice(0);
    cudaEventRecord(h.e[0], h.s[0]);
    cudaError_t e = transport == Transport::kPeer
                        ? cudaMemcpyPeerAsync(h.b, 1, h.a, 0, bytes, h.s[0])
                        : cudaMemcpyAsync(h.host, h.a, bytes, cudaMemcpyDeviceToHost, h.s[0]);
    cudaEventRecord(h.e[1], h.s[0]);
    if (Status s = Cuda(e, "a timed message"); !s.ok()) return s;
    if (Status s = Cuda(cudaEventSynchronize(h.e[1]), "a timed message"); !s.ok()) return s;
    t += 1e3 * static_cast<double>(detail::Ms(h.e[0], h.e[1]));
    if (transport == Transport::kStaged) {  // the second copy, after the first (as in a step)
      cudaSetDevice(1);
      cudaEventRecord(h.e[2], h.s[1]);
      e = cudaMemcpyAsync(h.b, h.host, bytes, cudaMemcpyHostToDevice, h.s[1]);
      cudaEventRecord(h.e[3], h.s[1]);
      if (Status s = Cuda(e, "a timed message"); !s.ok()) return s;
      if (Status s = Cuda(cudaEventSynchronize(h.e[3]), "a timed message"); !s.ok()) return s;
      t += 1e3 * static_cast<double>(detail::Ms(h.e[2], h.e[3]));
    }
    if (i > 0) v.push_back(t);
  }
  std::sort(v.begin(), v.end());
  *us = v[v.size() / 2];
  return {};
}

}  // namespace ws::multi_device
