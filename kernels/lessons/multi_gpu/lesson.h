// multi-gpu: the slides' 3DFD stencil split along z over N emulated GPUs. Each GPU runs the real
// stencil kernel on its slab, the ghost planes are exchanged between time steps, and the result
// must equal one GPU's; the time step and the scaling come from the link model
// (trace/multi_gpu.h, docs/MULTI-GPU.md).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/multi_gpu.cuh"  // multi_gpu.cuh, in the recording API
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/multi_gpu.h"

namespace ws::lessons::multi_gpu {

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
        "the edge planes are computed first and sent while the interior is computed.";
    l.source_file = "multi_gpu.cuh";
    l.read_figures = &ReadFigures<MultiGpuFigures>;
    l.emulator_cost = [](const Params& p) {
      // The threads within 4 of an x or y border return at once.
      return (At(p, "nx") - 2 * kHalo) * (At(p, "ny") - 2 * kHalo) * At(p, "nz") * 26 * kSteps;
    };
    l.front_panel = "multigpu";
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
    // The field with its 4 fixed boundary planes below and above: small whole numbers.
    std::vector<float> field((static_cast<std::size_t>(nz) + 2 * kHalo) * plane);
    for (std::size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>((i * 7) % 13);
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

    MultiGpuFigures f;
    f.gpus = gpus;
    f.nx = nx;
    f.ny = ny;
    f.nz = nz;
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
    f.efficiency = f.speedup / gpus;
    f.compute_us = step.compute_us;
    f.comm_us = step.comm_us;
    f.crossover_z = CrossoverZ(model);
    for (int g = 0; g < gpus; ++g) f.slab_planes.push_back(SlabPlanes(nz, gpus, g));
    f.timeline = step.segments;
    for (int n : {2, 4, 8}) {
      DecompositionParams p = model;
      p.gpus = n;
      for (int z = 32; z <= 16384; z = z * 5 / 4 + 1) {  // about 4 points an octave
        p.nz = z;
        if (CheckDecomposition(p).ok()) f.scaling.push_back({n, z, Speedup(p)});
      }
    }
    c.timing = Timing{"modeled", f.step_us / 1000.0,
                      "one time step on " + std::to_string(gpus) + " GPUs over " +
                          model.link.label + " (the link model, docs/MULTI-GPU.md)"};
    c.SetFigures(std::move(f));
    return {};
  }
};

}  // namespace ws::lessons::multi_gpu
