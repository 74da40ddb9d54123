// multi-gpu: the slides' 3DFD stencil split along z over N emulated GPUs. Each GPU runs the real
// stencil kernel on its slab, the ghost planes are exchanged between time steps, and the result
// must equal one GPU's; the time step and the scaling come from the link model
// (trace/multi_gpu.h, docs/MULTI-GPU.md).
//
// Index of this file:
// [SECTION] The stencil on the CPU and the model's figures
// [SECTION] Lesson: its description and the emulator's run
// [SECTION] Lesson: the measurement on the machine's GPUs
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/multi_gpu.cuh"  // multi_gpu.cuh, in the recording API
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/multi_gpu.h"

// On real GPUs the uninstrumented build's runner calls Lesson::Measure in place of Run.
#if defined(__CUDACC__) && defined(WS_PLAIN_BUILD)
#include <algorithm>

#include "warpscope/kernels/multi_device.h"
#define WS_MULTI_GPU_MEASURE 1
#endif

namespace ws::lessons::multi_gpu {

//-------------------------------------------------------------------------------------------------
// [SECTION] The stencil on the CPU and the model's figures
//-------------------------------------------------------------------------------------------------

inline constexpr int kHalo = 4;   // 8th order in space: 4 planes each side
inline constexpr int kSteps = 2;  // time steps: the second needs the first's exchange

inline std::vector<std::string> LinkNames() {
  std::vector<std::string> names;
  for (const LinkSpec& l : Links()) names.push_back(l.name);
  return names;
}

inline DecompositionParams ModelParams(const LessonCall& c) {
  DecompositionParams p;
  p.nx = c.I("nx");
  p.ny = c.I("ny");
  p.nz = c.I("nz");
  p.gpus = c.I("gpus");
  p.halo = kHalo;
  p.mpoints = static_cast<double>(c.P("mpoints"));
  p.link = Links().at(static_cast<std::size_t>(c.P("link")));
  p.overlap = c.Is("overlap");
  return p;
}

// One time step of the stencil on the whole (nz + 8) x ny x nx field, as the CPU computes it:
// the same sums in the same order as the kernel.
inline std::vector<float> StepOnCpu(const std::vector<float>& in, int nx, int ny, int nz) {
  std::vector<float> out = in;
  const auto w = [](int r) {
    return r == 0 ? 0.5f : r == 1 ? 0.125f : r == 2 ? 0.0625f : r == 3 ? 0.03125f : 0.015625f;
  };
  const long long plane = static_cast<long long>(nx) * ny;
  for (int z = kHalo; z < nz + kHalo; ++z) {
    for (int y = kHalo; y < ny - kHalo; ++y) {
      for (int x = kHalo; x < nx - kHalo; ++x) {
        const long long i = z * plane + static_cast<long long>(y) * nx + x;
        float v = w(0) * in[static_cast<std::size_t>(i)];
        for (int r = 1; r <= kHalo; ++r) {
          auto at = [&](long long j) { return in[static_cast<std::size_t>(j)]; };
          v += w(r) * (at(i - r) + at(i + r) + at(i - r * nx) + at(i + r * nx) + at(i - r * plane) +
                       at(i + r * plane));
        }
        out[static_cast<std::size_t>(i)] = v;
      }
    }
  }
  return out;
}

// The field with its 4 fixed boundary planes below and above: small whole numbers.
inline std::vector<float> StartField(int nx, int ny, int nz) {
  std::vector<float> field((static_cast<std::size_t>(nz) + 2 * kHalo) *
                           static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny));
  for (std::size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>((i * 7) % 13);
  return field;
}

// The model's figures for `model` (one step, the speedup, the scaling curves for 2, 4, 8 GPUs).
inline MultiGpuFigures ModelFigures(const DecompositionParams& model) {
  MultiGpuFigures f;
  f.gpus = model.gpus;
  f.nx = model.nx;
  f.ny = model.ny;
  f.nz = model.nz;
  f.halo = kHalo;
  f.link = model.link.name;
  f.link_label = model.link.label;
  f.overlap = model.overlap;
  f.mpoints = model.mpoints;
  const DecompositionStep step = ModelStep(model);
  DecompositionParams one = model;
  one.gpus = 1;
  f.step_us = step.step_us;
  f.single_us = ModelStep(one).step_us;
  f.speedup = Speedup(model);
  f.efficiency = f.speedup / model.gpus;
  f.compute_us = step.compute_us;
  f.comm_us = step.comm_us;
  f.crossover_z = CrossoverZ(model);
  for (int g = 0; g < model.gpus; ++g) f.slab_planes.push_back(SlabPlanes(model.nz, model.gpus, g));
  f.timeline = step.segments;
  for (int n : {2, 4, 8}) {
    DecompositionParams p = model;
    p.gpus = n;
    for (int z = 32; z <= 16384; z = z * 5 / 4 + 1) {  // about 4 points an octave
      p.nz = z;
      if (CheckDecomposition(p).ok()) f.scaling.push_back({n, z, Speedup(p)});
    }
  }
  return f;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Lesson: its description and the emulator's run
//-------------------------------------------------------------------------------------------------

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "multi-gpu";
    l.title = "Multi-GPU: a 3D stencil split along z, ghost planes over a link";
    l.order = 175;
    l.variants = {{"serial", "each GPU computes its whole slab, then exchanges ghost planes"},
                  {"overlap",
                   "each GPU computes the planes its neighbours need first and sends them "
                   "while it computes the rest (asynchronous copies)"}};
    l.params = {{"gpus", 4, 1, 8, 1, "GPUs the z axis is split over"},
                {"nz", 64, 4, 1024, 1, "planes along z (split between the GPUs)"},
                {"nx", 24, 9, 64, 1, "points along x"},
                {"ny", 24, 9, 64, 1, "points along y"},
                {"link", 0, 0, 3, 1, "what carries the ghost planes", LinkNames()},
                {"mpoints", 3000, 100, 100000, 100, "a GPU's speed (million points a second)"}};
    l.explanation =
        "The slides' 3DFD example: a stencil 8th order in space, so every point needs 4 "
        "neighbours each way, split along z over several GPUs. Each GPU computes its slab; "
        "the 4 planes at each edge of a slab are the ghost planes its neighbour needs for the "
        "next step, so every step each GPU sends 4 xy-planes to each neighbour and receives "
        "4. Compute grows with z while the exchange stays the same size, so scaling becomes "
        "linear once computation exceeds communication: the scaling plot marks where. The "
        "emulator runs the real stencil kernel on every GPU's slab for two steps with the "
        "exchange between them, and checks the result against one GPU's. Times come from the "
        "link model (docs/MULTI-GPU.md): the slides' cluster (InfiniBand SDR with MPI's host "
        "copies), PCIe, or NVLink. With overlap (the slides' advice: asynchronous copies), "
        "the edge planes are computed first and sent while the interior is computed. On a GPU "
        "the lesson measures the machine's own GPUs instead (512 x 512 planes, peer or "
        "host-staged copies, CUDA events on each GPU) and sets the model beside it; without one, "
        "the view's button shows two H200s measured.";
    l.source_file = "multi_gpu.cuh";
    l.read_figures = &ReadFigures<MultiGpuFigures>;
    l.emulator_cost = [](const Params& p) {
      // The threads within 4 of an x or y border return at once.
      return (At(p, "nx") - 2 * kHalo) * (At(p, "ny") - 2 * kHalo) * At(p, "nz") * 26 * kSteps;
    };
    l.front_panel = "multigpu";
    // On a GPU: measured on the machine's GPUs at 512 x 512 planes (Measure); the records come
    // from the lesson's own size, run slab by slab on one GPU.
    l.figures_from_timed_build = true;
    l.timed_size = {{{"nx", 512}, {"ny", 512}}, "512x512 planes"};
    l.figures = {{"speedup", "Speedup over one GPU (modelled)", "x"},
                 {"efficiency", "Efficiency (speedup / GPUs)", ""},
                 {"step_us", "Time step (modelled)", "us"},
                 {"compute_us", "Compute, largest slab", "us"},
                 {"comm_us", "Exchange, an inner GPU", "us"},
                 {"crossover_z", "Linear scaling from nz", "planes"}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const DecompositionParams model = ModelParams(c);
    if (Status s = CheckDecomposition(model); !s.ok()) return s;
    const int nx = model.nx, ny = model.ny, nz = model.nz, gpus = model.gpus;
    const std::size_t plane = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
    const std::vector<float> field = StartField(nx, ny, nz);
    std::vector<float> want = field;
    for (int s = 0; s < kSteps; ++s) want = StepOnCpu(want, nx, ny, nz);

    const Dim3 block{8, 8, 1};
    const Dim3 grid{static_cast<std::uint32_t>((nx + 7) / 8),
                    static_cast<std::uint32_t>((ny + 7) / 8), 1};
    std::vector<float> now = field;
    for (int step = 0; step < kSteps; ++step) {
      // Each GPU's slab with its ghost planes, taken from the field as the last exchange left
      // it (the first step: the start; then the neighbours' results, through the host as the
      // slides' MPI version does).
      std::vector<float> next = now;
      int z0 = kHalo;  // the slab's first plane in the field
      for (int g = 0; g < gpus; ++g) {
        const int planes = SlabPlanes(nz, gpus, g);
        const auto first = now.begin() + static_cast<std::ptrdiff_t>((z0 - kHalo) * plane);
        const std::vector<float> slab(
            first, first + static_cast<std::ptrdiff_t>((planes + 2 * kHalo) * plane));
        const std::string tag = std::to_string(g);
        auto in = b.template Upload<float>("in" + tag, slab);
        auto out = b.template Upload<float>("out" + tag, slab);  // the borders stay
        if (Status s = WS_LAUNCH(b, stencil3d, grid, block, 0, out, in, nx, ny, planes); !s.ok())
          return s;
        const std::vector<float> done = b.Download(out);
        std::copy(done.begin() + static_cast<std::ptrdiff_t>(kHalo * plane),
                  done.begin() + static_cast<std::ptrdiff_t>((kHalo + planes) * plane),
                  next.begin() + static_cast<std::ptrdiff_t>(z0 * plane));
        z0 += planes;
      }
      now = std::move(next);
    }
    c.check = CompareAt(
        now, want,
        "multi-gpu " + std::to_string(gpus) + " GPUs, " + std::to_string(kSteps) + " steps");

    MultiGpuFigures f = ModelFigures(model);
    c.timing = Timing{"modeled", f.step_us / 1000.0,
                      "one time step on " + std::to_string(gpus) + " GPUs over " +
                          model.link.label + " (the link model, docs/MULTI-GPU.md)"};
    c.SetFigures(std::move(f));
    return {};
  }

  //-------------------------------------------------------------------------------------------------
  // [SECTION] Lesson: the measurement on the machine's GPUs
  //-------------------------------------------------------------------------------------------------

#if WS_MULTI_GPU_MEASURE
  // The same stencil on the machine's own GPUs, one slab each (as many as it has, up to `gpus`):
  // a time step measured with CUDA events on every GPU, its per-GPU timeline, the model's
  // prediction from the measured speed of one GPU and the measured link, and the speedup against
  // nz beside the model's. The run is at the timed size's planes (512 x 512: at the lesson's
  // 24 x 24 a step is all launch overhead).
  static Status Measure(LessonCall& c) {
    namespace md = multi_device;
    const DecompositionParams model = ModelParams(c);
    if (Status s = CheckDecomposition(model); !s.ok()) return s;
    MultiGpuMeasurement m;
    DecompositionParams used;
    bool peers = false;
    if (Status s = SetUpGpus(c, model, &m, &used, &peers); !s.ok()) return s;
    const md::Transport primary = peers ? md::Transport::kPeer : md::Transport::kStaged;
    m.transport = m.gpus == 1 ? "none" : md::ToString(primary);

    if (Status s = CheckOnGpus(c, model, m.gpus, primary); !s.ok() || !c.check.ok) return s;
    constexpr int kWarmup = 2, kTimed = 10, kShown = 3;
    md::SlabResult one, many;
    const std::vector<float> field = StartField(model.nx, model.ny, model.nz);
    if (Status s = RunSteps(model, 1, field, model.nz, primary, kWarmup, kTimed, kShown, &one);
        !s.ok())
      return s;
    if (Status s =
            RunSteps(model, m.gpus, field, model.nz, primary, kWarmup, kTimed, kShown, &many);
        !s.ok())
      return s;
    if (!(one.step_us > 0) || !(many.step_us > 0))
      return Status::Error("a measured step took no time: the CUDA events are not usable");
    m.matches_one_gpu = many.field == one.field;
    if (!m.matches_one_gpu) {
      c.check = {false, "the field on " + std::to_string(m.gpus) +
                            " GPUs differs from one GPU's after " +
                            std::to_string(kWarmup + kTimed) + " steps"};
    }
    m.nx = model.nx;
    m.ny = model.ny;
    m.nz = model.nz;
    m.steps = kTimed;
    m.step_us = many.step_us;
    m.single_us = one.step_us;
    m.mpoints = static_cast<double>(model.nx) * model.ny * model.nz / one.step_us;
    m.timeline_steps = kShown;
    m.timeline = std::move(many.timeline);

    // The links, timed one message at a time: the model's inputs.
    std::vector<md::Transport> transports;
    if (m.gpus > 1) {
      if (peers) transports.push_back(md::Transport::kPeer);
      transports.push_back(md::Transport::kStaged);
    }
    const std::size_t message = 4u * kHalo * static_cast<std::size_t>(model.nx) * model.ny;
    for (md::Transport t : transports) {
      double small = 0, whole = 0;
      if (Status s = md::TimeMessage(t, 4, 9, &small); !s.ok()) return s;
      if (Status s = md::TimeMessage(t, message, 9, &whole); !s.ok()) return s;
      m.links.push_back({md::ToString(t),
                         static_cast<double>(message) / (std::max(whole - small, 0.01) * 1e3),
                         small});
    }
    m.model_us = ModelUs(used, m, m.gpus, model.nz, primary);
    if (Status s = SweepNz(model, used, transports, primary, kWarmup, kTimed, &m); !s.ok())
      return s;

    MultiGpuFigures f = ModelFigures(model);
    f.measured = std::move(m);
    const MultiGpuMeasurement& mm = *f.measured;
    c.timing = Timing{"measured", mm.step_us / 1000.0,
                      "one time step on " + mm.device + " (" + mm.transport +
                          " copies), CUDA events on each GPU, median of " + std::to_string(kTimed) +
                          " steps after " + std::to_string(kWarmup)};
    c.SetFigures(std::move(f));
    return {};
  }

  // The GPUs the measurement uses (as many as the machine has, up to the lesson's `gpus`), and
  // whether neighbours reach each other's memory (then peer access is turned on).
  static Status SetUpGpus(LessonCall& c, const DecompositionParams& model, MultiGpuMeasurement* mp,
                          DecompositionParams* usedp, bool* peersp) {
    namespace md = multi_device;
    MultiGpuMeasurement& m = *mp;
    int devices = 0;
    if (Status s = md::Cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount"); !s.ok()) return s;
    cudaDeviceProp prop{};
    if (Status s = md::Cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"); !s.ok())
      return s;
    m.gpus = std::min(model.gpus, devices);
    m.device = std::to_string(m.gpus) + " x " + prop.name;
    if (m.gpus < model.gpus)
      m.note = "asked for " + std::to_string(model.gpus) + " GPUs; this machine has " +
               std::to_string(devices) + ", so the measurement is on " + std::to_string(m.gpus) +
               " (the model's figures are for " + std::to_string(model.gpus) + ")";
    c.device = prop.name;
    DecompositionParams& used = *usedp;
    used = model;
    used.gpus = m.gpus;
    if (Status s = CheckDecomposition(used); !s.ok()) return s;
    const bool peers = m.gpus > 1 && md::PeersReachable(m.gpus);
    *peersp = peers;
    if (peers) {
      if (Status s = md::EnablePeers(m.gpus); !s.ok()) return s;
    }
    m.topology = m.gpus == 1 ? "one GPU: nothing to exchange"
                 : peers     ? "peer access between neighbours: copies go GPU to GPU"
                             : "no peer access: copies go through host memory";
    return {};
  }

  static multi_device::SlabLaunch LaunchFor(int nx, int ny) {
    return [nx, ny](cudaStream_t stream, float* out, const float* in, int planes) {
      const std::size_t count = (static_cast<std::size_t>(planes) + 2 * kHalo) *
                                static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
      const dim3 block(8, 8), grid((nx + 7) / 8, (ny + 7) / 8);
      stencil3d<<<grid, block, 0, stream>>>(Global<float>(out, count, 0),
                                            Global<const float>(in, count, 0), nx, ny, planes);
      return cudaGetLastError();
    };
  }

  // `warmup + steps` time steps of the lesson's planes on `gpus` GPUs.
  static Status RunSteps(const DecompositionParams& model, int gpus,
                         const std::vector<float>& field, int nz, multi_device::Transport t,
                         int warmup, int steps, int shown, multi_device::SlabResult* r) {
    namespace md = multi_device;
    md::SlabRun sr;
    sr.gpus = gpus;
    sr.nx = model.nx;
    sr.ny = model.ny;
    sr.nz = nz;
    sr.halo = kHalo;
    sr.overlap = model.overlap;
    sr.transport = t;
    sr.warmup = warmup;
    sr.steps = steps;
    sr.shown = shown;
    sr.keep_field = shown > 1;  // the sweep's runs (one step shown) only time
    return md::RunSlabs(sr, field, LaunchFor(model.nx, model.ny), r);
  }

  // The output: the path for every GPU count against the CPU, two steps at a small size (then,
  // at the measured size, Measure compares the GPUs' field against one GPU's, bit for bit).
  static Status CheckOnGpus(LessonCall& c, const DecompositionParams& model, int gpus,
                            multi_device::Transport primary) {
    namespace md = multi_device;
    const int nx = 24, ny = 24, nz = 8 * gpus;
    std::vector<float> want = StartField(nx, ny, nz);
    for (int s = 0; s < 2; ++s) want = StepOnCpu(want, nx, ny, nz);
    md::SlabRun sr;
    sr.gpus = gpus;
    sr.nx = nx;
    sr.ny = ny;
    sr.nz = nz;
    sr.overlap = model.overlap;
    sr.transport = primary;
    sr.warmup = 1;
    sr.steps = 1;
    sr.shown = 1;
    md::SlabResult small;
    if (Status s = md::RunSlabs(sr, StartField(nx, ny, nz), LaunchFor(nx, ny), &small); !s.ok())
      return s;
    c.check = CompareAt(small.field, want,
                        "multi-gpu on " + std::to_string(gpus) + " real GPUs, 2 steps");
    return {};
  }

  // The measured link of transport `t`, as the model takes it.
  static LinkSpec LinkOf(const MultiGpuMeasurement& m, multi_device::Transport t) {
    namespace md = multi_device;
    LinkSpec l;
    for (const MeasuredLink& ml : m.links) {
      if (ml.transport != md::ToString(t)) continue;
      l.name = std::string("measured-") + md::ToString(t);
      l.label = ml.transport;
      l.gbps = ml.gbps;
      l.latency_us = ml.latency_us;
    }
    return l;
  }

  // The model's time step from the measured speed of one GPU and the measured link.
  static double ModelUs(const DecompositionParams& used, const MultiGpuMeasurement& m, int gpus,
                        int nz, multi_device::Transport t) {
    DecompositionParams p = used;
    p.gpus = gpus;
    p.nz = nz;
    p.mpoints = m.mpoints;
    if (gpus > 1) p.link = LinkOf(m, t);
    return ModelStep(p).step_us;
  }

  // Speedup against nz: one GPU and all of them, on each transport.
  static Status SweepNz(const DecompositionParams& model, const DecompositionParams& used,
                        const std::vector<multi_device::Transport>& transports,
                        multi_device::Transport primary, int warmup, int timed,
                        MultiGpuMeasurement* mp) {
    namespace md = multi_device;
    MultiGpuMeasurement& m = *mp;
    for (int nz = 32; nz <= 2048 && m.gpus > 1; nz *= 2) {
      if (nz < kHalo * m.gpus) continue;
      const std::vector<float> start = StartField(model.nx, model.ny, nz);
      md::SlabResult single;
      if (Status s = RunSteps(model, 1, start, nz, primary, warmup, timed, 1, &single); !s.ok()) {
        m.note += (m.note.empty() ? "" : "; ") + std::string("the sweep stops at nz = ") +
                  std::to_string(nz) + ": " + s.message();
        break;
      }
      for (md::Transport t : transports) {
        md::SlabResult split;
        if (Status s = RunSteps(model, m.gpus, start, nz, t, warmup, timed, 1, &split); !s.ok())
          return s;
        m.scaling.push_back({m.gpus, nz, md::ToString(t), split.step_us, single.step_us,
                             ModelUs(used, m, m.gpus, nz, t)});
      }
    }
    return {};
  }
#endif
};

}  // namespace ws::lessons::multi_gpu
