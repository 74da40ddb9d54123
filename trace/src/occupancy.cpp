#include "warpscope/trace/occupancy.h"

#include <algorithm>

namespace ws {
namespace {

int CeilTo(int v, int unit) {
  return unit <= 1 ? v : (v + unit - 1) / unit * unit;
}

}  // namespace

const std::vector<OccupancyDevice>& OccupancyDevices() {
  // Limits and allocation granularities as in NVIDIA's occupancy calculator ("GPU Data" sheet)
  // and the CUDA C Programming Guide's technical specifications (the per-compute-capability
  // table: threads, warps and blocks per SM, registers, shared memory); SM counts are the named
  // card's. These are every compute capability the seed lectures name, and today's.
  static const std::vector<OccupancyDevice> devices = {
      {"cc1.0", "G80 (GeForce 8800 GTX)", 16, 512, 24, 8, 8192, 256, true, 124, 16384, 512, 0, 2},
      // 1.1 (the G92 of the 8800 GT / 9800 GTX) has 1.0's limits; it added global atomics.
      {"cc1.1", "G92 (GeForce 9800 GTX)", 16, 512, 24, 8, 8192, 256, true, 124, 16384, 512, 0, 2},
      // Exercise 4.7 asks about 1.0, 1.2 and 3.0: 1.2 has 1.3's limits (32 warps, 16K
      // registers) without double precision; 3.0 is Kepler GK104 with 63 registers a thread.
      {"cc1.2", "GT215 (GeForce GT 240)", 12, 512, 32, 8, 16384, 512, true, 124, 16384, 512, 0, 2},
      {"cc1.3", "GT200 (GTX 280)", 30, 512, 32, 8, 16384, 512, true, 124, 16384, 512, 0, 2},
      {"cc2.0", "Fermi (GTX 480)", 15, 1024, 48, 8, 32768, 64, false, 63, 49152, 128, 0, 2},
      {"cc3.0", "Kepler (GTX 680)", 8, 1024, 64, 16, 65536, 256, false, 63, 49152, 256, 0, 4},
      {"cc3.5", "Kepler (K20)", 13, 1024, 64, 16, 65536, 256, false, 255, 49152, 256, 0, 4},
      {"cc7.0", "Volta (V100)", 80, 1024, 64, 32, 65536, 256, false, 255, 98304, 256, 0, 4},
      {"cc8.0", "Ampere (A100)", 108, 1024, 64, 32, 65536, 256, false, 255, 167936, 128, 1024, 4},
      {"cc9.0", "Hopper (H100)", 132, 1024, 64, 32, 65536, 256, false, 255, 233472, 128, 1024, 4},
  };
  return devices;
}

Result<OccupancyDevice> FindOccupancyDevice(const std::string& name) {
  std::string names;
  for (const auto& d : OccupancyDevices()) {
    if (d.name == name) return d;
    names += (names.empty() ? "" : ", ") + d.name;
  }
  return Status::Error("unknown occupancy device '" + name + "'; devices are: " + names);
}

Result<OccupancyResult> ComputeOccupancy(const OccupancyDevice& d, const OccupancyInput& in) {
  if (in.threads < 1)
    return Status::Error("threads = " + std::to_string(in.threads) + " must be at least 1");
  if (in.registers < 0 || in.registers > d.max_registers_per_thread) {
    return Status::Error("registers = " + std::to_string(in.registers) + " is over the limit of " +
                         std::to_string(d.max_registers_per_thread) + " registers per thread on " +
                         d.name);
  }
  if (in.shared_bytes < 0) return Status::Error("shared_bytes must not be negative");
  OccupancyResult r;
  r.warps_per_block = (in.threads + 31) / 32;
  if (in.threads > d.max_threads_per_block) {
    r.limiter = "threads_per_block";
    return r;
  }
  r.limit_blocks = d.max_blocks_per_sm;
  r.limit_warps = d.max_warps_per_sm / r.warps_per_block;
  // Registers: per block on compute 1.x (warps rounded up to the warp unit), else per warp.
  if (in.registers == 0) {
    r.limit_registers = d.max_blocks_per_sm;
  } else if (d.registers_per_block) {
    r.registers_per_block =
        CeilTo(CeilTo(r.warps_per_block, d.warp_unit) * 32 * in.registers, d.register_unit);
    r.limit_registers = d.registers_per_sm / r.registers_per_block;
  } else {
    const int per_warp = CeilTo(in.registers * 32, d.register_unit);
    r.registers_per_block = per_warp * r.warps_per_block;
    const int warps = d.registers_per_sm / per_warp / d.warp_unit * d.warp_unit;
    r.limit_registers = warps / r.warps_per_block;
  }
  const int shared = in.shared_bytes + d.shared_reserved_per_block;
  r.shared_per_block = shared == 0 ? 0 : CeilTo(shared, d.shared_unit);
  r.limit_shared =
      r.shared_per_block == 0 ? d.max_blocks_per_sm : d.shared_per_sm / r.shared_per_block;
  if (r.shared_per_block > d.shared_per_sm) r.limit_shared = 0;

  r.active_blocks = std::min({r.limit_warps, r.limit_registers, r.limit_shared, r.limit_blocks});
  // Name the binding limit; on a tie the first of warps, registers, shared, blocks.
  // Unused registers or shared memory never bind (their limit is then the block limit).
  const bool uses_registers = in.registers > 0, uses_shared = shared > 0;
  r.limiter = r.active_blocks == r.limit_warps                         ? "warps"
              : uses_registers && r.active_blocks == r.limit_registers ? "registers"
              : uses_shared && r.active_blocks == r.limit_shared       ? "shared"
                                                                       : "blocks";
  r.active_warps = r.active_blocks * r.warps_per_block;
  r.active_threads = r.active_blocks * in.threads;
  r.occupancy = static_cast<double>(r.active_warps) / d.max_warps_per_sm;
  return r;
}

std::vector<std::string> OccupancyDeviceNames() {
  std::vector<std::string> names;
  for (const OccupancyDevice& d : OccupancyDevices()) names.push_back(d.name);
  return names;
}

OccupancyCurves ComputeOccupancyCurves(const OccupancyDevice& d, const OccupancyInput& in) {
  auto point = [&](int x, const OccupancyInput& at) {
    const auto r = ComputeOccupancy(d, at);
    return OccupancyPoint{x, r.ok() ? r->occupancy : 0.0, r.ok() ? r->active_blocks : 0};
  };
  OccupancyCurves c;
  for (int t = 32; t <= d.max_threads_per_block; t += 32)
    c.threads.push_back(point(t, {t, in.registers, in.shared_bytes}));
  for (int reg = 0; reg <= d.max_registers_per_thread; ++reg)
    c.registers.push_back(point(reg, {in.threads, reg, in.shared_bytes}));
  constexpr int kMaxSharedSamples = 2048;
  const int unit = std::max(1, d.shared_unit);
  const int units = d.shared_per_sm / unit + 1;
  const int step = unit * std::max(1, (units + kMaxSharedSamples - 1) / kMaxSharedSamples);
  for (int sh = 0; sh <= d.shared_per_sm; sh += step)
    c.shared.push_back(point(sh, {in.threads, in.registers, sh}));
  return c;
}

}  // namespace ws
