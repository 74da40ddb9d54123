#include "warpscope/trace/multi_gpu.h"

#include <algorithm>
#include <cmath>

namespace ws {
namespace {

double PlaneUs(const DecompositionParams& p) {
  return static_cast<double>(p.nx) * p.ny / p.mpoints;  // points / (points per microsecond)
}

double MessageUs(const DecompositionParams& p) {
  const double bytes = 4.0 * p.halo * p.nx * p.ny;
  return p.link.latency_us + bytes / (p.link.gbps * 1e3);  // GB/s = 1e3 bytes per microsecond
}

int Neighbours(int gpus, int g) {
  return gpus == 1 ? 0 : (g == 0 || g == gpus - 1) ? 1 : 2;
}

}  // namespace

const std::vector<LinkSpec>& Links() {
  static const std::vector<LinkSpec> links = {
      {"infiniband-sdr", "InfiniBand SDR + host copies (the slides' cluster)", 0.6, 10,
       "InfiniBand SDR carries 1 GB/s of data; MPI_Sendrecv adds a copy from the GPU and one "
       "to it through host memory (the slides), about 3 GB/s each on PCIe of that time: "
       "1 / (1/1 + 1/3 + 1/3) = 0.6 GB/s. 10 us a message."},
      {"pcie2", "PCIe 2.0 x16 through host memory", 3, 10,
       "8 GB/s raw, 6 GB/s a copy in practice, and two copies (GPU to host, host to GPU): "
       "3 GB/s. 10 us a message (two copies' fixed costs)."},
      {"pcie5", "PCIe 5.0 x16, peer to peer (H100 PCIe)", 54.5, 9,
       "Measured on an H100: pinned copies reach 54.5 GB/s, and a 4 KB copy costs about 9 us "
       "(docs/GPU.md)."},
      {"nvlink4", "NVLink 4 (H100 SXM, 18 links)", 450, 3,
       "NVIDIA's H100 SXM figure: 900 GB/s both ways, 450 GB/s each way; about 3 us a "
       "message (an assumed figure: a kernel launch or cudaMemcpyPeerAsync's fixed cost)."}};
  return links;
}

int SlabPlanes(int nz, int gpus, int g) {
  if (gpus < 1) return 0;
  return nz / gpus + (g < nz % gpus ? 1 : 0);
}

Status CheckDecomposition(const DecompositionParams& p) {
  if (p.gpus < 1 || p.gpus > 64)
    return Status::Error("gpus = " + std::to_string(p.gpus) + " is outside 1..64");
  constexpr int kMaxSide = 1 << 16, kMaxPlanes = 1 << 24;
  if (p.nx < 1 || p.ny < 1 || p.nz < 1 || p.nx > kMaxSide || p.ny > kMaxSide || p.nz > kMaxPlanes)
    return Status::Error("the grid is " + std::to_string(p.nx) + " x " + std::to_string(p.ny) +
                         " x " + std::to_string(p.nz) + "; x and y must be 1.." +
                         std::to_string(kMaxSide) + " and z 1.." + std::to_string(kMaxPlanes));
  if (p.halo < 0) return Status::Error("halo = " + std::to_string(p.halo) + " is negative");
  if (!(p.mpoints > 0 && p.mpoints <= 1e9) || !(p.link.gbps > 0 && p.link.gbps <= 1e6) ||
      !(p.link.latency_us >= 0 && p.link.latency_us <= 1e9))
    return Status::Error(
        "the GPU's speed must be 0..1e9 Mpoints/s, the link's bandwidth "
        "0..1e6 GB/s and its latency 0..1e9 us");
  if (p.gpus > 1 && SlabPlanes(p.nz, p.gpus, p.gpus - 1) < p.halo)
    return Status::Error(std::to_string(p.nz) + " planes over " + std::to_string(p.gpus) +
                         " GPUs leave " + std::to_string(SlabPlanes(p.nz, p.gpus, p.gpus - 1)) +
                         " planes to a GPU, and each needs the " + std::to_string(p.halo) +
                         " its neighbours take as ghost planes: nz must be at least " +
                         std::to_string(p.halo * p.gpus));
  return {};
}

const char* ToString(GpuWork w) {
  switch (w) {
    case GpuWork::kCompute:
      return "compute";
    case GpuWork::kSend:
      return "send";
    case GpuWork::kReceive:
      return "receive";
    case GpuWork::kIdle:
      return "idle";
  }
  return "?";
}

DecompositionStep ModelStep(const DecompositionParams& p) {
  DecompositionStep s;
  if (!CheckDecomposition(p).ok()) return s;
  const double plane = PlaneUs(p), message = MessageUs(p);
  std::vector<double> ends(static_cast<std::size_t>(p.gpus));
  for (int g = 0; g < p.gpus; ++g) {
    const int k = Neighbours(p.gpus, g);
    const double compute = SlabPlanes(p.nz, p.gpus, g) * plane, comm = k * message;
    s.compute_us = std::max(s.compute_us, compute);
    s.comm_us = std::max(s.comm_us, comm);
    s.segments.push_back({g, GpuWork::kCompute, 0, compute});
    if (k > 0) {
      // Serial: after the whole slab. Overlap: after the planes the neighbours need.
      const double from = p.overlap ? std::min(compute, k * p.halo * plane) : compute;
      s.segments.push_back({g, GpuWork::kSend, from, from + comm});
      s.segments.push_back({g, GpuWork::kReceive, from, from + comm});
      ends[static_cast<std::size_t>(g)] = std::max(compute, from + comm);
    } else {
      ends[static_cast<std::size_t>(g)] = compute;
    }
  }
  s.step_us = *std::max_element(ends.begin(), ends.end());
  for (int g = 0; g < p.gpus; ++g) {
    const double end = ends[static_cast<std::size_t>(g)];
    if (end < s.step_us) s.segments.push_back({g, GpuWork::kIdle, end, s.step_us});
  }
  return s;
}

double Speedup(const DecompositionParams& p) {
  DecompositionParams one = p;
  one.gpus = 1;
  const double many = ModelStep(p).step_us;
  return many > 0 ? ModelStep(one).step_us / many : 0.0;
}

int CrossoverZ(const DecompositionParams& p) {
  if (p.gpus < 2 || !CheckDecomposition(p).ok()) return 0;
  const int k = p.gpus == 2 ? 1 : 2;  // the busiest GPU's neighbours
  // Planes P with P t_plane >= k (halo t_plane + t_message).
  const double need = k * (p.halo + MessageUs(p) / PlaneUs(p));
  const double planes = std::max(std::ceil(need - 1e-9), static_cast<double>(p.halo));
  return static_cast<int>(std::min(planes * p.gpus, 2e9));  // 2e9: past any grid it could run
}

}  // namespace ws
