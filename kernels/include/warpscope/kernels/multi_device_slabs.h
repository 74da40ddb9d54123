// The pieces of a multi-GPU stencil run (multi_device.h includes this; include that one): each
// GPU's slab and its streams and events, the steps queued on them, and the times read back into
// a median step and a per-GPU timeline. CUDA code, as multi_device.h.
//
// Index of this file:
// [SECTION] A run's resources
// [SECTION] Queueing the steps
// [SECTION] Reading the times back
#pragma once

#include "warpscope/kernels/multi_device.h"

namespace ws::multi_device {

namespace detail {

//-------------------------------------------------------------------------------------------------
// [SECTION] A run's resources
//-------------------------------------------------------------------------------------------------

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

// Where the pieces of one run lie: which GPUs neighbour which, and where a message to a
// neighbour starts in the sender's buffer and lands in the neighbour's.
struct Slabs {
  const SlabRun& run;
  std::size_t plane;  // points in one plane
  int halo;

  int Neighbour(int g, int side) const { return side == 0 ? g - 1 : g + 1; }
  bool Has(int g, int side) const {
    const int n = Neighbour(g, side);
    return n >= 0 && n < run.gpus;
  }
  std::size_t Message() const { return static_cast<std::size_t>(halo) * plane; }
  // Where GPU g's message to `side` starts in its buffer, and where it lands in the neighbour's.
  float* Source(Gpu& d, int b, int side) const {
    return d.buf[b] + static_cast<std::size_t>(side == 0 ? halo : d.planes) * plane;
  }
  float* Landing(Gpu& n, int b, int side) const {  // side: as seen from the sender
    return n.buf[b] + (side == 0 ? static_cast<std::size_t>(n.planes + halo) * plane : 0);
  }
};

// What a run asks for is possible: enough GPUs, steps and planes, and a field of the right size.
inline Status CheckSlabRun(const SlabRun& run, const std::vector<float>& field, std::size_t plane) {
  const int halo = run.halo;
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
  return {};
}

// GPU g's slab of `field`: its two buffers (filled from the field, ghost planes and all), its
// streams, its events and, staged, its pinned staging buffers.
inline Status SetUpGpu(const SlabRun& run, const std::vector<float>& field, std::size_t plane,
                       int total, Gpu& d) {
  const int halo = run.halo, g = d.device;
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
  return {};
}

// Every GPU's slab, and the start flag they wait behind. The uploads (on the legacy stream,
// which the work's non-blocking streams do not wait for) are done, and the kernels are loaded:
// lazy loading must not happen behind the start flag.
inline Status SetUpGpus(const SlabRun& run, const std::vector<float>& field,
                        const SlabLaunch& launch, std::size_t plane, Resources& r) {
  const int halo = run.halo, total = run.warmup + run.steps;
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
    if (Status s = SetUpGpu(run, field, plane, total, d); !s.ok()) return s;
  }
  for (Gpu& d : r.gpus) {
    cudaSetDevice(d.device);
    cudaError_t e = launch(d.compute, d.buf[1], d.buf[0], 0);  // no planes: loads it
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (Status s = Cuda(e, "loading the stencil on GPU " + std::to_string(d.device)); !s.ok())
      return s;
  }
  return {};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Queueing the steps
//-------------------------------------------------------------------------------------------------

// GPU g's compute stream waits for last step's exchange, then computes its slab (with overlap,
// the planes its neighbours need first); its comm stream then sends the edge planes.
inline Status QueueStep(const Slabs& slabs, const SlabLaunch& launch, Resources& r, int step,
                        int g) {
  const SlabRun& run = slabs.run;
  const std::size_t plane = slabs.plane, message = slabs.Message();
  const int halo = slabs.halo;
  const int in = step % 2, out = 1 - in;
  Gpu& d = r.gpus[static_cast<std::size_t>(g)];
  cudaSetDevice(d.device);
  if (step > 0) {  // last step's sends out of, and messages into, this GPU are done
    for (int side : {0, 1}) {
      if (!slabs.Has(g, side)) continue;
      Gpu& n = r.gpus[static_cast<std::size_t>(slabs.Neighbour(g, side))];
      cudaStreamWaitEvent(d.compute, d.At(step - 1, kSendEnd + side), 0);
      cudaStreamWaitEvent(d.compute,
                          run.transport == Transport::kPeer ? n.At(step - 1, kSendEnd + (1 - side))
                                                            : d.At(step - 1, kRecvEnd + side),
                          0);
    }
  }
  cudaEventRecord(d.At(step, kStart), d.compute);
  auto part = [&](int from, int to) {  // planes [from, to) of the slab's own, from 0
    const std::size_t at = static_cast<std::size_t>(from) * plane;
    return launch(d.compute, d.buf[out] + at, d.buf[in] + at, to - from);
  };
  const bool lower = slabs.Has(g, 0), upper = slabs.Has(g, 1);
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
    if (!slabs.Has(g, side)) continue;
    Gpu& n = r.gpus[static_cast<std::size_t>(slabs.Neighbour(g, side))];
    // Staged: the neighbour has copied last step's message out of the staging buffer.
    if (run.transport == Transport::kStaged && step > 0)
      cudaStreamWaitEvent(d.comm, n.At(step - 1, kRecvEnd + (1 - side)), 0);
    cudaEventRecord(d.At(step, kSendBegin + side), d.comm);
    if (run.transport == Transport::kPeer) {
      e = cudaMemcpyPeerAsync(slabs.Landing(n, out, side), n.device, slabs.Source(d, out, side),
                              d.device, message * sizeof(float), d.comm);
    } else {
      e = cudaMemcpyAsync(d.staging[side], slabs.Source(d, out, side), message * sizeof(float),
                          cudaMemcpyDeviceToHost, d.comm);
    }
    if (Status s = Cuda(e, "sending ghost planes from GPU " + std::to_string(g)); !s.ok()) return s;
    cudaEventRecord(d.At(step, kSendEnd + side), d.comm);
  }
  return {};
}

// Staged: each GPU copies its neighbours' messages of `step` in from pinned host memory.
inline Status QueueReceives(const Slabs& slabs, Resources& r, int step) {
  const SlabRun& run = slabs.run;
  const std::size_t message = slabs.Message();
  const int out = 1 - step % 2;
  for (int g = 0; g < run.gpus; ++g) {
    Gpu& d = r.gpus[static_cast<std::size_t>(g)];
    cudaSetDevice(d.device);
    for (int side : {0, 1}) {
      if (!slabs.Has(g, side)) continue;
      Gpu& n = r.gpus[static_cast<std::size_t>(slabs.Neighbour(g, side))];
      const int from_side = 1 - side;  // n sent it towards this GPU
      cudaStreamWaitEvent(d.recv, n.At(step, kSendEnd + from_side), 0);
      cudaEventRecord(d.At(step, kRecvBegin + side), d.recv);
      if (Status s = Cuda(cudaMemcpyAsync(slabs.Landing(d, out, from_side), n.staging[from_side],
                                          message * sizeof(float), cudaMemcpyHostToDevice, d.recv),
                          "receiving ghost planes on GPU " + std::to_string(g));
          !s.ok())
        return s;
      cudaEventRecord(d.At(step, kRecvEnd + side), d.recv);
    }
  }
  return {};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Reading the times back
//-------------------------------------------------------------------------------------------------

// Every event on its own GPU's clock, from that GPU's start, in microseconds.
inline double EventUs(Resources& r, int g, int step, int e) {
  Gpu& d = r.gpus[static_cast<std::size_t>(g)];
  return 1e3 * static_cast<double>(Ms(d.gate, d.At(step, e)));
}

// When `step` ends: the last of its GPUs' compute, sends and (staged) receives.
inline double StepEnd(const Slabs& slabs, Resources& r, int step) {
  const SlabRun& run = slabs.run;
  double end = 0;
  for (int g = 0; g < run.gpus; ++g) {
    end = std::max(end, EventUs(r, g, step, kEnd));
    for (int side : {0, 1}) {
      if (!slabs.Has(g, side)) continue;
      end = std::max(end, EventUs(r, g, step, kSendEnd + side));
      if (run.transport == Transport::kStaged)
        end = std::max(end, EventUs(r, g, step, kRecvEnd + side));
    }
  }
  return end;
}

// GPU g's lane of the timeline: its compute, sends and receives of the shown steps from t0, and
// idle where none of its work runs, up to `timeline_us`.
inline std::vector<GpuSegment> Lane(const Slabs& slabs, Resources& r, int g, double t0,
                                    double timeline_us) {
  const SlabRun& run = slabs.run;
  auto us = [&](int gpu, int step, int e) { return EventUs(r, gpu, step, e); };
  std::vector<GpuSegment> lane;
  for (int step = run.warmup; step < run.warmup + run.shown; ++step) {
    lane.push_back({g, GpuWork::kCompute, us(g, step, kStart) - t0, us(g, step, kEnd) - t0});
    for (int side : {0, 1}) {
      if (!slabs.Has(g, side)) continue;
      const int n = slabs.Neighbour(g, side);
      lane.push_back({g, GpuWork::kSend, us(g, step, kSendBegin + side) - t0,
                      us(g, step, kSendEnd + side) - t0});
      if (run.transport == Transport::kPeer)  // the neighbour's copy into this GPU
        lane.push_back({g, GpuWork::kReceive, us(n, step, kSendBegin + (1 - side)) - t0,
                        us(n, step, kSendEnd + (1 - side)) - t0});
      else
        lane.push_back({g, GpuWork::kReceive, us(g, step, kRecvBegin + side) - t0,
                        us(g, step, kRecvEnd + side) - t0});
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
  if (covered < timeline_us) lane.push_back({g, GpuWork::kIdle, covered, timeline_us});
  for (GpuSegment& s : lane) {  // the first step may begin a little before t0 on some GPU
    s.start_us = std::max(s.start_us, 0.0);
    s.end_us = std::max(s.end_us, s.start_us);
  }
  return lane;
}

// The median step and the timeline of the shown steps, from every GPU's events.
inline void ReadTimes(const Slabs& slabs, Resources& r, SlabResult* result) {
  const SlabRun& run = slabs.run;
  const int total = run.warmup + run.steps;
  std::vector<double> ends, lengths;
  for (int step = 0; step < total; ++step) ends.push_back(StepEnd(slabs, r, step));
  for (int step = run.warmup; step < total; ++step)
    lengths.push_back(ends[static_cast<std::size_t>(step)] -
                      ends[static_cast<std::size_t>(step - 1)]);
  std::sort(lengths.begin(), lengths.end());
  result->step_us = lengths[lengths.size() / 2];

  const double t0 = ends[static_cast<std::size_t>(run.warmup - 1)];
  result->timeline_us = ends[static_cast<std::size_t>(run.warmup + run.shown - 1)] - t0;
  result->timeline.clear();
  for (int g = 0; g < run.gpus; ++g) {
    const std::vector<GpuSegment> lane = Lane(slabs, r, g, t0, result->timeline_us);
    result->timeline.insert(result->timeline.end(), lane.begin(), lane.end());
  }
}

}  // namespace detail

}  // namespace ws::multi_device
