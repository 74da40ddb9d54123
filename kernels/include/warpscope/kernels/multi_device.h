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
//
// Index of this file (the steps themselves: multi_device_slabs.h):
// [SECTION] Transports, the start flag, a run's parameters
// [SECTION] RunSlabs and TimeMessage
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

//-------------------------------------------------------------------------------------------------
// [SECTION] Transports, the start flag, a run's parameters
//-------------------------------------------------------------------------------------------------

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

}  // namespace ws::multi_device

// A run's resources, its queued steps and the times read back (namespace detail).
#include "warpscope/kernels/multi_device_slabs.h"

namespace ws::multi_device {

//-------------------------------------------------------------------------------------------------
// [SECTION] RunSlabs and TimeMessage
//-------------------------------------------------------------------------------------------------

// Runs `run.warmup + run.steps` time steps of `launch` on `field` ((nz + 2 halo) nx ny floats:
// the planes with the fixed boundary planes below and above) split over GPUs 0..gpus-1.
inline Status RunSlabs(const SlabRun& run, const std::vector<float>& field,
                       const SlabLaunch& launch, SlabResult* result) {
  using namespace detail;
  const std::size_t plane = static_cast<std::size_t>(run.nx) * static_cast<std::size_t>(run.ny);
  const int halo = run.halo, total = run.warmup + run.steps;
  if (Status s = CheckSlabRun(run, field, plane); !s.ok()) return s;
  Resources r;
  if (Status s = SetUpGpus(run, field, launch, plane, r); !s.ok()) return s;
  const Slabs slabs{run, plane, halo};

  // The start: every GPU waits behind the flag.
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    WaitForHostFlag<<<1, 1, 0, d.compute>>>(r.flag, 4'000'000'000ll);
    if (Status s = Cuda(cudaGetLastError(), "the start kernel"); !s.ok()) return s;
    cudaEventRecord(d.gate, d.compute);
  }
  for (int step = 0; step < total; ++step) {
    for (int g = 0; g < run.gpus; ++g) {
      if (Status s = QueueStep(slabs, launch, r, step, g); !s.ok()) return s;
    }
    if (run.transport == Transport::kStaged) {  // each GPU copies its neighbours' messages in
      if (Status s = QueueReceives(slabs, r, step); !s.ok()) return s;
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
  ReadTimes(slabs, r, result);

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
