#include "warpscope/kernels/devices.h"

namespace ws {

std::string DefaultBackendLabel(const DeviceQuery& query) {
  if (!query.gpus.empty()) return query.gpus.front().name;
  return "CPU emulator";
}

nlohmann::json GpuJson(const GpuDevice& g) {
  return {{"name", g.name},
          {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
          {"multiprocessors", g.multiprocessors},
          {"warp_size", g.warp_size},
          {"max_threads_per_block", g.max_threads_per_block},
          {"max_threads_per_multiprocessor", g.max_threads_per_multiprocessor},
          {"max_blocks_per_multiprocessor", g.max_blocks_per_multiprocessor},
          {"registers_per_block", g.registers_per_block},
          {"registers_per_multiprocessor", g.registers_per_multiprocessor},
          {"shared_mem_per_block", g.shared_mem_per_block},
          {"shared_mem_per_multiprocessor", g.shared_mem_per_multiprocessor},
          {"global_mem", g.global_mem},
          {"clock_khz", g.clock_khz},
          {"memory_clock_khz", g.memory_clock_khz},
          {"memory_bus_width_bits", g.memory_bus_width_bits}};
}

}  // namespace ws
